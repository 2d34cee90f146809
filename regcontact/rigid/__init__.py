"""Rigid frictional contact of a planar system with ``k`` contacts: the formulations, the references and whole
rigid motions.

Every system goes through one track (``docs/rigid.md``). A :class:`ContactState` (any system at any ``(q, v, t)``:
:meth:`ContactState.from_system`) poses the three formulations of Preclik & Rüde, read for ``k`` contacts as in
Leine & Brogliato:

- :func:`force_acceleration` (Sec. 2): forces from ``g̈``; may have none or several solutions;
- :func:`impulse_velocity` (Sec. 3): impulses from ``ġ⁺``, with Newton restitution; always solvable, possibly
  several;
- :func:`time_stepping` (Sec. 4): one semi-implicit Euler step, ``δt λ̃``; tends to the impulses as ``O(δt)``.

Impact laws of another kind: :func:`darboux_keller`, Coulomb friction during the impact, integrated in the
normal impulse (Champneys & Várkonyi Sec. 3.2; one contact in closed form, with Poisson, energetic or Newton
restitution); :func:`compliant_limit`, the impact law a compliant contact model converges to as α → ∞
(:func:`limit_law`), for any set of closed contacts, both through the impact process on the impact's own time
scale (:func:`impact_process`); and :func:`chatter_directions`, the chatter of one contact built on the impact
map (Sec. 3.3).

Slip into the Painlevé region (Sec. 5.1, ``docs/dynamic_jam.md``): :func:`g_spot_linearisation` gives Eqs. 33–34
(``α₁, α₂, α₃``) of any one-contact system by automatic differentiation along its slip, :func:`g_spot_panel` and
:func:`jam_case` classify them (Fig. 13, cases G1 and G2), :func:`rigid_slip` follows rigid slip through the
singular time ``dt = p ds`` until it jams, and :func:`search_jamming_rod` finds Painlevé rods that jam;
:func:`pass_jam` runs the compliant model through a jam and :func:`classify_passage` says what followed it, against
the rigid :func:`stick_jump`. One spatial contact (Sec. 7, ``docs/spatial_contact.md``): :func:`spatial_slip_problem`
poses the slip problem with the direction-dependent ``p(ϕ)``, and :func:`spatial_rigid_slip` follows the slip to
its transversal crossing of ``p = 0``.

Each returns *all* its solutions (:class:`ContactSolutions`) with a mode per contact (``F``, ``T``, ``S+``,
``S-``) and the continua of statically indeterminate contact sets; one contact is ``k = 1``
(:attr:`ContactSolution.reaction`, :attr:`ContactSolution.mode`). :func:`rigid_references` picks the impulse a
compliant run should approach. Every tolerance is relative to the state's own scales: a body rescaled in mass,
length and gravity gives the rescaled solutions (``docs/rigid.md``, "Units and scaling").

Whole rigid motions of any system (``docs/rigid_trajectories.md``): :func:`moreau_jean` (time stepping with a
selection rule among several solutions; :func:`moreau_jean_batch` steps a batch of systems together),
:func:`gholami_time_stepping` (normal-impulse LCP, regularised friction) and :func:`event_driven` (index sets,
located events); each returns a :class:`RigidTrajectory`.
"""

from regcontact.rigid import lcp as lcp
from regcontact.rigid.beyond_jam import (
    BEYOND_JAM_OUTCOMES as BEYOND_JAM_OUTCOMES,
    BeyondJam as BeyondJam,
    JamPassage as JamPassage,
    JamReference as JamReference,
    StickJump as StickJump,
    classify_passage as classify_passage,
    jam_reference as jam_reference,
    pass_jam as pass_jam,
    stick_jump as stick_jump,
)
from regcontact.rigid.chatter import (
    ChatterDirection as ChatterDirection,
    bounce_directions as bounce_directions,
    chatter_directions as chatter_directions,
)
from regcontact.rigid.compliant_limit import (
    LimitImpact as LimitImpact,
    LimitLaw as LimitLaw,
    compliant_limit as compliant_limit,
    compliant_limit_map as compliant_limit_map,
    limit_law as limit_law,
)
from regcontact.rigid.contact_modes import (
    law_solutions_by_mode as law_solutions_by_mode,
)
from regcontact.rigid.darboux_keller import (
    RESTITUTION_LAWS as RESTITUTION_LAWS,
    ImpactOutcome as ImpactOutcome,
    ImpactPhase as ImpactPhase,
    darboux_keller as darboux_keller,
    darboux_keller_map as darboux_keller_map,
)
from regcontact.rigid.dynamic_jam import (
    G_SPOT_PANELS as G_SPOT_PANELS,
    SLIP_OUTCOMES as SLIP_OUTCOMES,
    GSpotLinearisation as GSpotLinearisation,
    GSpotPanel as GSpotPanel,
    RigidSlip as RigidSlip,
    g_spot_linearisation as g_spot_linearisation,
    g_spot_panel as g_spot_panel,
    jam_case as jam_case,
    linear_g_spot_flow as linear_g_spot_flow,
    reaches_g_spot as reaches_g_spot,
    rescaled_slip_field as rescaled_slip_field,
    rigid_slip as rigid_slip,
    slip_field as slip_field,
    slip_normal_dynamics as slip_normal_dynamics,
    slip_sign as slip_sign,
)
from regcontact.rigid.event_driven import (
    IMPACT_LAWS as IMPACT_LAWS,
    event_driven as event_driven,
)
from regcontact.rigid.force_acceleration import (
    force_acceleration as force_acceleration,
)
from regcontact.rigid.gholami import (
    gholami_time_stepping as gholami_time_stepping,
    normal_impulse_lcp_solutions as normal_impulse_lcp_solutions,
)
from regcontact.rigid.impact_process import (
    ProcessOutcome as ProcessOutcome,
    impact_process as impact_process,
)
from regcontact.rigid.impulse_velocity import (
    impulse_velocity as impulse_velocity,
)
from regcontact.rigid.jamming_rods import (
    JammingRod as JammingRod,
    RodGSpots as RodGSpots,
    rod_g_spots as rod_g_spots,
    search_jamming_rod as search_jamming_rod,
)
from regcontact.rigid.moreau_jean import (
    moreau_jean as moreau_jean,
    moreau_jean_step as moreau_jean_step,
)
from regcontact.rigid.moreau_jean_batch import (
    moreau_jean_batch as moreau_jean_batch,
)
from regcontact.rigid.painleve_conditions import (
    critical_angle as critical_angle,
    critical_friction as critical_friction,
    painleve_coefficient as painleve_coefficient,
    torque_threshold as torque_threshold,
)
from regcontact.rigid.references import (
    ReferenceOptions as ReferenceOptions,
    RigidReferences as RigidReferences,
    rigid_references as rigid_references,
    rigid_references_batch as rigid_references_batch,
    select_impulse as select_impulse,
    select_time_step as select_time_step,
)
from regcontact.rigid.selection_rules import (
    SELECTION_RULES as SELECTION_RULES,
    SelectionRule as SelectionRule,
)
from regcontact.rigid.solutions import (
    CONTACT_LABELS as CONTACT_LABELS,
    ContactLabel as ContactLabel,
    ContactSolution as ContactSolution,
    ContactSolutions as ContactSolutions,
)
from regcontact.rigid.spatial_slip import (
    SPATIAL_SLIP_OUTCOMES as SPATIAL_SLIP_OUTCOMES,
    SpatialRigidSlip as SpatialRigidSlip,
    SpatialSlipProblem as SpatialSlipProblem,
    spatial_rescaled_slip_field as spatial_rescaled_slip_field,
    spatial_rigid_slip as spatial_rigid_slip,
    spatial_slip_problem as spatial_slip_problem,
)
from regcontact.rigid.state import (
    ContactState as ContactState,
    IndexSets as IndexSets,
    SystemSnapshots as SystemSnapshots,
)
from regcontact.rigid.time_stepping import (
    TimeSteppingConvergence as TimeSteppingConvergence,
    time_stepping as time_stepping,
    time_stepping_convergence as time_stepping_convergence,
)
from regcontact.rigid.trajectory import (
    RigidEvent as RigidEvent,
    RigidTrajectory as RigidTrajectory,
    TrajectoryStatistics as TrajectoryStatistics,
)
