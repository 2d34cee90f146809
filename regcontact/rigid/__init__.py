"""Rigid frictional contact of a system with ``k`` contacts, by concept (``docs/rigid.md``):

- formulations (``_formulations/``, on the LCPs of :mod:`regcontact.rigid.lcp`): :func:`force_acceleration`,
  :func:`impulse_velocity` and :func:`time_stepping` at a :class:`ContactState`, each with *all* its solutions
  (:class:`ContactSolutions`), and :func:`rigid_references`, the impulse a compliant run should approach;
- impacts (``_impacts/``): :func:`darboux_keller`, :func:`compliant_limit` (the impact law a compliant model
  converges to as α → ∞; :func:`compliant_limits` for many in one compiled call), :func:`impact_process` and
  chatter (:func:`chatter_directions`); impact laws as objects
  (:class:`AbstractImpactLaw`) for :func:`event_driven`;
- integrators (``_integrators/``): :func:`moreau_jean` (and :func:`moreau_jean_batch`), :func:`gholami_time_stepping`
  and :func:`event_driven`, each returning a :class:`RigidTrajectory`;
- Painlevé analyses (``_painleve/``): the conditions (:func:`painleve_coefficient`), rigid slip of one contact to
  its end (:func:`rigid_slip`): a planar jam (:func:`jam_reference`) or a spatial crossing of ``p = 0``
  (:func:`crossing_reference`), and jamming rods.

Compliant runs through a jam or a crossing, compared with these rigid predictions, are in :mod:`regcontact.passages`.
"""

from regcontact.rigid import lcp as lcp
from regcontact.rigid._formulations import (
    CONTACT_LABELS as CONTACT_LABELS,
    SELECTION_RULES as SELECTION_RULES,
    ContactLabel as ContactLabel,
    ContactSolution as ContactSolution,
    ContactSolutions as ContactSolutions,
    ReferenceOptions as ReferenceOptions,
    RigidReferences as RigidReferences,
    SelectionRule as SelectionRule,
    TimeSteppingConvergence as TimeSteppingConvergence,
    force_acceleration as force_acceleration,
    impulse_velocity as impulse_velocity,
    law_solutions_by_mode as law_solutions_by_mode,
    rigid_references as rigid_references,
    rigid_references_batch as rigid_references_batch,
    select_impulse as select_impulse,
    select_time_step as select_time_step,
    time_stepping as time_stepping,
    time_stepping_convergence as time_stepping_convergence,
)
from regcontact.rigid._impacts import (
    COULOMB_MU_LIMIT as COULOMB_MU_LIMIT,
    IMPACT_LAWS as IMPACT_LAWS,
    MAX_RATE_RTOL as MAX_RATE_RTOL,
    RESTITUTION_LAWS as RESTITUTION_LAWS,
    AbstractImpactLaw as AbstractImpactLaw,
    ChatterDirection as ChatterDirection,
    ChatterSequence as ChatterSequence,
    CompliantLimitImpact as CompliantLimitImpact,
    DarbouxKellerImpact as DarbouxKellerImpact,
    ImpactOutcome as ImpactOutcome,
    ImpactPhase as ImpactPhase,
    IWCCases as IWCCases,
    LimitImpact as LimitImpact,
    LimitLaw as LimitLaw,
    NewtonImpact as NewtonImpact,
    ProcessOutcome as ProcessOutcome,
    RestitutionLaw as RestitutionLaw,
    RigidImpact as RigidImpact,
    bounce_directions as bounce_directions,
    chatter_directions as chatter_directions,
    chatter_sequence as chatter_sequence,
    compliant_limit as compliant_limit,
    compliant_limit_map as compliant_limit_map,
    compliant_limits as compliant_limits,
    darboux_keller as darboux_keller,
    darboux_keller_map as darboux_keller_map,
    impact_process as impact_process,
    iwc_cases as iwc_cases,
    iwc_liftoff_velocity as iwc_liftoff_velocity,
    kelvin_voigt_restitution as kelvin_voigt_restitution,
    limit_law as limit_law,
    reverse_chatter_possible as reverse_chatter_possible,
    spring_damper_restitution as spring_damper_restitution,
    touchdown_lead as touchdown_lead,
)
from regcontact.rigid._integrators import (
    RigidEvent as RigidEvent,
    RigidTrajectory as RigidTrajectory,
    TrajectoryStatistics as TrajectoryStatistics,
    event_driven as event_driven,
    gholami_time_stepping as gholami_time_stepping,
    moreau_jean as moreau_jean,
    moreau_jean_batch as moreau_jean_batch,
    moreau_jean_step as moreau_jean_step,
    normal_impulse_lcp_solutions as normal_impulse_lcp_solutions,
)
from regcontact.rigid._painleve import (
    G_SPOT_PANELS as G_SPOT_PANELS,
    MU_GRID as MU_GRID,
    SLIP_OUTCOMES as SLIP_OUTCOMES,
    TORQUE_GRID as TORQUE_GRID,
    CrossingImpact as CrossingImpact,
    CrossingReference as CrossingReference,
    GSpotLinearisation as GSpotLinearisation,
    GSpotPanel as GSpotPanel,
    JammingRod as JammingRod,
    JamReference as JamReference,
    RigidSlip as RigidSlip,
    RodGSpots as RodGSpots,
    SpatialSlipProblem as SpatialSlipProblem,
    StickJump as StickJump,
    critical_angle as critical_angle,
    critical_friction as critical_friction,
    crossing_impact as crossing_impact,
    crossing_reference as crossing_reference,
    g_spot_linearisation as g_spot_linearisation,
    g_spot_panel as g_spot_panel,
    jam_case as jam_case,
    jam_reference as jam_reference,
    linear_g_spot_flow as linear_g_spot_flow,
    painleve_coefficient as painleve_coefficient,
    reaches_g_spot as reaches_g_spot,
    rescaled_slip_field as rescaled_slip_field,
    rigid_slip as rigid_slip,
    rod_g_spots as rod_g_spots,
    search_jamming_rod as search_jamming_rod,
    slip_field as slip_field,
    slip_normal_dynamics as slip_normal_dynamics,
    slip_sign as slip_sign,
    spatial_rescaled_slip_field as spatial_rescaled_slip_field,
    spatial_slip_problem as spatial_slip_problem,
    stick_jump as stick_jump,
    torque_threshold as torque_threshold,
)
from regcontact.rigid._state import (
    ContactState as ContactState,
    IndexSets as IndexSets,
    SystemSnapshots as SystemSnapshots,
)
