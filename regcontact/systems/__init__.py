"""Mechanical systems: a body (or several) with k unilateral frictional contacts, planar or spatial.

:class:`AbstractSystem` is what the compliant, rigid and stability code needs (mass matrix, forces, gaps, contact
Jacobians, μ, energy), its contacts' tangent dimension a class constant (``TANGENT_DIM``: 1 planar, 2 spatial); the
shipped systems implement it. A rod's applied loads may be profiles of time (:class:`RampLoad`,
:class:`TableLoad`). A body of your own is one small subclass (``docs/systems.md``).
"""

from regcontact.systems._loads import (
    AbstractLoad as AbstractLoad,
    ConstantLoad as ConstantLoad,
    RampLoad as RampLoad,
    TableLoad as TableLoad,
    load_at as load_at,
)
from regcontact.systems._planar_rod import (
    AbstractPlanarRod as AbstractPlanarRod,
    slender_inertia as slender_inertia,
)
from regcontact.systems._spatial_form import (
    SpatialContactSpaceForm as SpatialContactSpaceForm,
    spatial_contact_space_form as spatial_contact_space_form,
)
from regcontact.systems.ball_chain import (
    BallChain as BallChain,
    ball_chain as ball_chain,
    hertz_stiffness as hertz_stiffness,
)
from regcontact.systems.reduced_contact import (
    ContactSpaceForm as ContactSpaceForm,
    ReducedSingleContact as ReducedSingleContact,
)
from regcontact.systems.reduced_two_contact import (
    ReducedTwoContact as ReducedTwoContact,
    contact_space_form as contact_space_form,
)
from regcontact.systems.rod import (
    PainleveRod as PainleveRod,
)
from regcontact.systems.spatial_rod import (
    SpatialRod as SpatialRod,
    painleve_friction as painleve_friction,
    spatial_rod_form as spatial_rod_form,
)
from regcontact.systems.system import (
    TANGENT_DIMS as TANGENT_DIMS,
    AbstractSystem as AbstractSystem,
    check_system as check_system,
    first_bad_system as first_bad_system,
)
from regcontact.systems.two_point_rod import (
    TwoPointRod as TwoPointRod,
)
