"""Whole rigid motions: Moreau–Jean time stepping (one system or a batch), Gholami's, and event-driven."""

from regcontact.rigid._integrators.event_driven import (
    event_driven as event_driven,
)
from regcontact.rigid._integrators.gholami import (
    gholami_time_stepping as gholami_time_stepping,
    normal_impulse_lcp_solutions as normal_impulse_lcp_solutions,
)
from regcontact.rigid._integrators.moreau_jean import (
    moreau_jean as moreau_jean,
    moreau_jean_step as moreau_jean_step,
)
from regcontact.rigid._integrators.moreau_jean_batch import (
    moreau_jean_batch as moreau_jean_batch,
)
from regcontact.rigid._integrators.trajectory import (
    RigidEvent as RigidEvent,
    RigidTrajectory as RigidTrajectory,
    TrajectoryStatistics as TrajectoryStatistics,
)
