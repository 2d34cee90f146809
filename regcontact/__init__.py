"""regcontact: stiff compliant-contact regularisations of rigid frictional contact.

The layers, each a subpackage, from the bottom up (a layer imports only those below it):

* :mod:`regcontact.systems`: planar bodies with k frictional contacts (:class:`AbstractSystem`);
* :mod:`regcontact.contact`: compliant normal and friction laws, and their α-scaling;
* :mod:`regcontact.compliant`: the compliant vector field, events, restarts and the vmapped solve;
* :mod:`regcontact.rigid`: LCPs (:mod:`regcontact.rigid.lcp`) and the rigid formulations and references;
* :mod:`regcontact.stability`: Champneys & Várkonyi's reduced quantities and fast-scale stability;
* :mod:`regcontact.studies`: configs, study kinds and results (the only layer that knows config strings);
* :mod:`regcontact.figures` and :mod:`regcontact.cli`: the paper figures and the ``regcontact`` command.

Importing the package switches JAX to float64 once: stiffness ratios of 1e8 and beyond are meaningless in
float32. This is the one place that sets it.
"""

import jax as _jax

_jax.config.update("jax_enable_x64", True)

from regcontact import (
    compliant as compliant,
    contact as contact,
    rigid as rigid,
    stability as stability,
    studies as studies,
    systems as systems,
)
from regcontact.compliant import (
    EVENTS as EVENTS,
    IMPLICIT_SOLVERS as IMPLICIT_SOLVERS,
    RUN_CHECKS as RUN_CHECKS,
    SOLVER_STATUSES as SOLVER_STATUSES,
    Case as Case,
    CompliantRun as CompliantRun,
    CompliantState as CompliantState,
    CompliantSystem as CompliantSystem,
    Controls as Controls,
    SolveSettings as SolveSettings,
    SweepTimings as SweepTimings,
    batch_agreement as batch_agreement,
    contact_forces as contact_forces,
    contact_open as contact_open,
    contact_time as contact_time,
    describe_devices as describe_devices,
    effective_normal_mass as effective_normal_mass,
    flat_vector_field as flat_vector_field,
    gap_resolution as gap_resolution,
    initial_state as initial_state,
    solve as solve,
    solvers as solvers,
    sweep as sweep,
    sweep_devices as sweep_devices,
    trajectory as trajectory,
    use_compilation_cache as use_compilation_cache,
    use_host_cores as use_host_cores,
    vector_field as vector_field,
)
from regcontact.compliant.solvers import RadauIIA5 as RadauIIA5
from regcontact.contact import (
    FRICTION_LAWS as FRICTION_LAWS,
    NORMAL_LAWS as NORMAL_LAWS,
    AbstractFrictionLaw as AbstractFrictionLaw,
    AbstractNormalLaw as AbstractNormalLaw,
    ContactModel as ContactModel,
    SpringDamper as SpringDamper,
    ViscousCoulomb as ViscousCoulomb,
    scale_parameters as scale_parameters,
)
from regcontact.rigid import lcp as lcp
from regcontact.rigid.references import (
    RigidReferences as RigidReferences,
    rigid_references as rigid_references,
    select_impulse as select_impulse,
)
from regcontact.studies import StudyResult as StudyResult, load_study as load_study
from regcontact.systems import (
    AbstractSystem as AbstractSystem,
    PainleveRod as PainleveRod,
    ReducedSingleContact as ReducedSingleContact,
    ReducedTwoContact as ReducedTwoContact,
    TwoPointRod as TwoPointRod,
    slender_inertia as slender_inertia,
)

__version__ = "0.1.0"

#: The public names of the top level (what ``from regcontact import *`` gives).
__all__ = [name for name in dir() if not name.startswith("_")]
