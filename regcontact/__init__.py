"""regcontact: stiff compliant-contact regularisations of rigid frictional contact.

Importing the package switches JAX to float64 once: stiffness ratios of 1e8 and beyond are meaningless in
float32.
"""

import jax as _jax

_jax.config.update("jax_enable_x64", True)

from regcontact import lcp, rigid, solvers, stability  # noqa: E402
from regcontact.contact_model import ContactModel, scale_parameters  # noqa: E402
from regcontact.dynamics import (  # noqa: E402
    CompliantState,
    CompliantSystem,
    contact_forces,
    flat_vector_field,
    initial_state,
    vector_field,
)
from regcontact.friction_laws import FRICTION_LAWS, ViscousCoulomb  # noqa: E402
from regcontact.normal_laws import NORMAL_LAWS, SpringDamper  # noqa: E402
from regcontact.reduced_contact import ReducedSingleContact  # noqa: E402
from regcontact.resolution import gap_resolution  # noqa: E402
from regcontact.rigid_references import RigidReferences, rigid_references, select_impulse  # noqa: E402
from regcontact.rod import PainleveRod, slender_inertia  # noqa: E402
from regcontact.run_checks import RUN_CHECKS  # noqa: E402
from regcontact.simulate import (  # noqa: E402
    IMPLICIT_SOLVERS,
    SOLVER_STATUSES,
    Case,
    CompliantRun,
    Controls,
    SolveSettings,
    SweepTimings,
    batch_agreement,
    solve,
    sweep,
    trajectory,
)
from regcontact.solvers import RadauIIA5  # noqa: E402
from regcontact.study import load_study  # noqa: E402
from regcontact.study_result import StudyResult  # noqa: E402
from regcontact.system import AbstractSystem  # noqa: E402
from regcontact.termination import EVENTS, contact_open, contact_time, effective_normal_mass  # noqa: E402
from regcontact.two_point_rod import TwoPointRod  # noqa: E402

__version__ = "0.1.0"

__all__ = [
    "EVENTS",
    "FRICTION_LAWS",
    "IMPLICIT_SOLVERS",
    "NORMAL_LAWS",
    "SOLVER_STATUSES",
    "AbstractSystem",
    "Case",
    "CompliantRun",
    "CompliantState",
    "CompliantSystem",
    "ContactModel",
    "Controls",
    "PainleveRod",
    "RadauIIA5",
    "ReducedSingleContact",
    "RUN_CHECKS",
    "RigidReferences",
    "TwoPointRod",
    "SolveSettings",
    "SpringDamper",
    "StudyResult",
    "SweepTimings",
    "ViscousCoulomb",
    "__version__",
    "batch_agreement",
    "contact_forces",
    "contact_open",
    "contact_time",
    "effective_normal_mass",
    "gap_resolution",
    "flat_vector_field",
    "initial_state",
    "lcp",
    "load_study",
    "rigid",
    "rigid_references",
    "scale_parameters",
    "select_impulse",
    "slender_inertia",
    "solve",
    "solvers",
    "stability",
    "sweep",
    "trajectory",
    "vector_field",
]
