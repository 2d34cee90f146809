"""Every public name of the top level, imported at once: what ``regcontact.X`` resolves to on first use.

:mod:`regcontact` itself imports nothing heavy, so that ``regcontact --help`` and a config error answer without
starting JAX; the first attribute taken from it imports this module.
"""

from regcontact import (
    compliant as compliant,
    contact as contact,
    passages as passages,
    plot as plot,
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
    ForceHistory as ForceHistory,
    SolveSettings as SolveSettings,
    SweepTimings as SweepTimings,
    alpha_sweep as alpha_sweep,
    batch_agreement as batch_agreement,
    contact_forces as contact_forces,
    contact_open as contact_open,
    contact_time as contact_time,
    describe_devices as describe_devices,
    effective_normal_mass as effective_normal_mass,
    flat_vector_field as flat_vector_field,
    force_history as force_history,
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
from regcontact.rigid import (
    RigidReferences as RigidReferences,
    lcp as lcp,
    rigid_references as rigid_references,
    select_impulse as select_impulse,
)
from regcontact.studies import (
    FinishedStudy as FinishedStudy,
    StudyResult as StudyResult,
    StudyRun as StudyRun,
    load_results as load_results,
    load_study as load_study,
    run_study as run_study,
)
from regcontact.systems import (
    AbstractSystem as AbstractSystem,
    PainleveRod as PainleveRod,
    RampLoad as RampLoad,
    ReducedSingleContact as ReducedSingleContact,
    ReducedTwoContact as ReducedTwoContact,
    TableLoad as TableLoad,
    TwoPointRod as TwoPointRod,
    slender_inertia as slender_inertia,
)

#: The public names of the top level (what ``from regcontact import *`` gives).
__all__ = [name for name in dir() if not name.startswith("_")]
