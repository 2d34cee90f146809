"""Painlevé analyses: the conditions, slip into the Painlevé region and its jam, jamming rods, spatial slip and its
crossing of ``p = 0``, and the rigid impulses at the jam and at the crossing."""

from regcontact.rigid._painleve.conditions import (
    critical_angle as critical_angle,
    critical_friction as critical_friction,
    painleve_coefficient as painleve_coefficient,
    torque_threshold as torque_threshold,
)
from regcontact.rigid._painleve.crossing import (
    CrossingImpact as CrossingImpact,
    CrossingReference as CrossingReference,
    crossing_impact as crossing_impact,
    crossing_reference as crossing_reference,
)
from regcontact.rigid._painleve.dynamic_jam import (
    G_SPOT_PANELS as G_SPOT_PANELS,
    GSpotLinearisation as GSpotLinearisation,
    GSpotPanel as GSpotPanel,
    g_spot_linearisation as g_spot_linearisation,
    g_spot_panel as g_spot_panel,
    jam_case as jam_case,
    linear_g_spot_flow as linear_g_spot_flow,
    reaches_g_spot as reaches_g_spot,
    rescaled_slip_field as rescaled_slip_field,
    slip_field as slip_field,
    slip_normal_dynamics as slip_normal_dynamics,
    slip_sign as slip_sign,
)
from regcontact.rigid._painleve.jam import (
    JamReference as JamReference,
    StickJump as StickJump,
    jam_reference as jam_reference,
    stick_jump as stick_jump,
)
from regcontact.rigid._painleve.jamming_rods import (
    MU_GRID as MU_GRID,
    TORQUE_GRID as TORQUE_GRID,
    JammingRod as JammingRod,
    RodGSpots as RodGSpots,
    rod_g_spots as rod_g_spots,
    search_jamming_rod as search_jamming_rod,
)
from regcontact.rigid._painleve.rigid_slip import rigid_slip as rigid_slip
from regcontact.rigid._painleve.slip import SLIP_OUTCOMES as SLIP_OUTCOMES, RigidSlip as RigidSlip
from regcontact.rigid._painleve.spatial_slip import (
    SpatialSlipProblem as SpatialSlipProblem,
    spatial_rescaled_slip_field as spatial_rescaled_slip_field,
    spatial_slip_problem as spatial_slip_problem,
)
