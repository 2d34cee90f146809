"""The three formulations of rigid frictional contact for ``k`` contacts, their solutions, and the references a
compliant run should approach."""

from regcontact.rigid._formulations.contact_modes import (
    law_solutions_by_mode as law_solutions_by_mode,
)
from regcontact.rigid._formulations.force_acceleration import (
    force_acceleration as force_acceleration,
)
from regcontact.rigid._formulations.impulse_velocity import (
    impulse_velocity as impulse_velocity,
)
from regcontact.rigid._formulations.references import (
    ReferenceOptions as ReferenceOptions,
    RigidReferences as RigidReferences,
    rigid_references as rigid_references,
    rigid_references_batch as rigid_references_batch,
    select_impulse as select_impulse,
    select_time_step as select_time_step,
)
from regcontact.rigid._formulations.selection_rules import (
    SELECTION_RULES as SELECTION_RULES,
    SelectionRule as SelectionRule,
)
from regcontact.rigid._formulations.solutions import (
    CONTACT_LABELS as CONTACT_LABELS,
    ContactLabel as ContactLabel,
    ContactSolution as ContactSolution,
    ContactSolutions as ContactSolutions,
)
from regcontact.rigid._formulations.time_stepping import (
    TimeSteppingConvergence as TimeSteppingConvergence,
    time_stepping as time_stepping,
    time_stepping_convergence as time_stepping_convergence,
)
