"""The compliant model of any system: its vector field, events and restarts, consistency checks, and the
jitted, vmapped solve and sweep with the stiff solvers of :mod:`regcontact.compliant.solvers`."""

from regcontact.compliant._force_history import (
    ForceHistory as ForceHistory,
    force_history as force_history,
)
from regcontact.compliant._progress import (
    SweepProgress as SweepProgress,
)
from regcontact.compliant._sampled_run import (
    SampledRun as SampledRun,
    sampled_run as sampled_run,
)
from regcontact.compliant._solve import (
    IMPLICIT_SOLVERS as IMPLICIT_SOLVERS,
    SOLVER_STATUSES as SOLVER_STATUSES,
    CompliantRun as CompliantRun,
    Controls as Controls,
    SolveSettings as SolveSettings,
    solve as solve,
    trajectory as trajectory,
)
from regcontact.compliant._sweep import (
    Case as Case,
    SweepTimings as SweepTimings,
    batch_agreement as batch_agreement,
    batch_size as batch_size,
    case_bytes as case_bytes,
    chunk_starts as chunk_starts,
    cost_order as cost_order,
    lane_utilisation as lane_utilisation,
    sweep as sweep,
    sweep_chunk_size as sweep_chunk_size,
)
from regcontact.compliant.alpha_sweep import (
    alpha_sweep as alpha_sweep,
)
from regcontact.compliant.compilation_cache import (
    use_compilation_cache as use_compilation_cache,
)
from regcontact.compliant.devices import (
    describe_devices as describe_devices,
    sweep_devices as sweep_devices,
    use_host_cores as use_host_cores,
)
from regcontact.compliant.dynamics import (
    CompliantState as CompliantState,
    CompliantSystem as CompliantSystem,
    contact_forces as contact_forces,
    flat_vector_field as flat_vector_field,
    initial_state as initial_state,
    vector_field as vector_field,
)
from regcontact.compliant.modes import (
    compliant_mode_events as compliant_mode_events,
    compliant_modes as compliant_modes,
    contact_sticks as contact_sticks,
)
from regcontact.compliant.resolution import (
    gap_resolution as gap_resolution,
    normal_speed_resolution as normal_speed_resolution,
)
from regcontact.compliant.run_checks import (
    RUN_CHECKS as RUN_CHECKS,
)
from regcontact.compliant.switches import (
    RESTART_SURFACES as RESTART_SURFACES,
)
from regcontact.compliant.termination import (
    EVENTS as EVENTS,
    contact_open as contact_open,
    contact_time as contact_time,
    effective_normal_mass as effective_normal_mass,
)
