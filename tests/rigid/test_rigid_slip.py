"""Rigid slip of a planar contact to its end (``regcontact.rigid.rigid_slip``): a lift-off located on
the step, a jam recognised whatever ``α₁/α₃``, and the jam extrapolated to ``p = 0``, each against an independent
real-time integration of the rod (Champneys' equations written out, SciPy's DOP853)."""

import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from regcontact.rigid import (
    SLIP_OUTCOMES,
    RigidSlip,
    jam_case,
    jam_reference,
    reaches_g_spot,
    rigid_slip,
    rod_g_spots,
    slip_normal_dynamics,
    slip_sign,
)
from regcontact.systems import PainleveRod, SpatialRod
from tests.rigid.champneys_rod_slip import slip_equations

pytestmark = pytest.mark.slow

#: The G2 rod the jam study finds (docs/dynamic_jam.md).
G2_ROD = PainleveRod(mu=1.35, torque=-0.1, phi0=0.5845451608146879, omega0=0.7306736273742256, vx0=-2.4032004089563914)


def rod(mu, phi, omega, torque=0.0, slip_speed=2.0):
    """A uniform rod (``m = 1``, ``l = 2``, ``g = 1``) on its lower end, which slides towards ``−x`` at
    ``slip_speed``."""
    return PainleveRod(mu=mu, torque=torque, phi0=phi, omega0=omega, vx0=-slip_speed - np.sin(phi) * omega)


def real_time(rod, event, t_max=5.0):
    """Champneys' rod (``m = 1``, ``ℓ = 1``, ``r² = 1/3``) in slip, ``λ_N = −b/p``, integrated in ``t`` from the
    rod's start until ``event(p, b)`` rises through 0; ``(t, p, b)`` there."""
    normal, field = slip_equations(rod)

    def crossing(t, x):
        return event(*normal(*x))

    crossing.terminal, crossing.direction = True, 1
    x0 = [float(rod.phi0), float(rod.omega0)]
    solution = solve_ivp(field, (0, t_max), x0, method="DOP853", rtol=1e-13, atol=1e-14, events=crossing)
    assert solution.t_events[0].size == 1
    return float(solution.t_events[0][0]), *normal(*solution.y_events[0][0])


@pytest.fixture(scope="module")
def g1_spots():
    """Every G-spot of the uniform rod under gravity alone (τ = 0) for μ in [2, 3], those of case G1."""
    mus = np.linspace(2.0, 3.0, 11)
    spots = rod_g_spots(mus, np.zeros_like(mus))
    g1 = [i for i, case in enumerate(spots.cases()) if case == "G1"]
    assert sorted(float(spots.mu[i]) for i in g1) == pytest.approx(list(mus))  # one G1 G-spot per μ
    return spots, g1


def test_every_g1_g_spot_of_the_uniform_rod_for_mu_in_2_to_3_is_reached(g1_spots):
    """α₁/α₃ runs from 2.9 to 8.6 over μ ∈ [2, 3]: ``p`` falls as ``|b|^(α₁/α₃)`` and reached round-off while
    ``|b|`` was still above its 1e-5 jam tolerance, which was taken for "p ≤ 0 away from the G-spot" (μ = 2.5:
    α₁/α₃ ≈ 5.5), and ``jam_reference`` refused the jam. From starts in the slip quadrant that Eqs. 33–34 send to
    the G-spot, each slip jams there, in case G1, at the time an independent integration in ``t`` reaches ``p = 0``."""
    spots, g1 = g1_spots
    lin = spots.linearisation
    ratios = []
    for i in g1:
        mu, phi, omega = float(spots.mu[i]), float(spots.phi[i]), float(spots.omega[i])
        alphas = [float(x[i]) for x in (lin.alpha1, lin.alpha2, lin.alpha3)]
        assert jam_case(*alphas) == "G1"
        ratios.append(alphas[0] / alphas[2])
        start = rod(mu, phi - 0.05, omega - 0.2)
        q0, v0 = start.initial_state()
        slip = rigid_slip(start, q0, v0)
        p0, b0 = float(slip.painleve[0]), float(slip.free_normal_acceleration[0])
        assert reaches_g_spot(*alphas, p0, b0)  # the linear flow from this start reaches the G-spot
        assert SLIP_OUTCOMES[int(slip.outcome)] == "jam"
        q, v, t_jam = (np.asarray(x) for x in slip.jam)
        np.testing.assert_allclose([q[2], v[2]], [phi, omega], atol=1e-4)
        reference = jam_reference(start)
        assert reference.t_jam == pytest.approx(float(t_jam), rel=1e-15)
        # λ_N diverges at the G1 jam: the real-time run stops at p = 1e-8 p₀, where p falls at the rate α₁
        t_near, p_near, _ = real_time(start, lambda p, b: 1e-8 * p0 - p)
        assert float(t_jam) == pytest.approx(t_near - p_near / alphas[0], rel=1e-9)
    assert min(ratios) < 3 and max(ratios) > 8


def test_a_lift_off_is_located_on_the_step():
    """``b`` rises through 0 at ``p > 0``: the lift-off time and angle are the real-time integration's to 1e-9;
    the step's end, taken before, was up to 7 % late."""
    spots = rod_g_spots(np.array([2.5]), np.array([0.0]))
    i = spots.cases().index("G1")
    phi, omega = float(spots.phi[i]), float(spots.omega[i])
    for d_phi, d_omega in ((-0.05, 0.05), (-0.1, 0.12), (-0.2, 0.1), (-0.3, 0.0)):
        start = rod(2.5, phi + d_phi, omega + d_omega)
        slip = rigid_slip(start, *start.initial_state())
        assert SLIP_OUTCOMES[int(slip.outcome)] == "lift-off"
        t_lift, p, _ = real_time(start, lambda p, b: b)
        assert p > 0
        assert float(slip.end[2]) == pytest.approx(t_lift, rel=1e-9)


def test_a_start_with_the_contact_already_lifting_ends_at_once():
    """``b ≥ 0`` at the start: a lift-off at ``s = 0`` (no slip to integrate)."""
    spots = rod_g_spots(np.array([2.5]), np.array([0.0]))
    i = spots.cases().index("G1")
    start = rod(2.5, float(spots.phi[i]) - 0.05, float(spots.omega[i]) + 0.1)
    q0, v0 = start.initial_state()
    assert float(slip_normal_dynamics(start, (q0, v0, 0.0), -1.0)[1]) > 0
    slip = rigid_slip(start, q0, v0)
    assert SLIP_OUTCOMES[int(slip.outcome)] == "lift-off" and float(slip.end_s) == 0.0


def test_the_jam_is_extrapolated_to_p_zero():
    """``p`` does not depend on the velocities, so ``dp/dt = ∇p·F → α₁`` and ``p`` vanishes linearly in ``t``:
    the time left at the end of the integration is ``−p/α₁``. For the G2 rod (``λ_N`` finite, ``p`` and ``b`` both
    fall as ``e^{α₁ s}``) the slip stopped at ``p = 1e-5 p₀``, 1.5e-5 before the jam; extrapolated, the jam time
    is the real-time integration's (to ``p = 1e-10 p₀``, plus ``−p/α₁``) to 1e-8, and does not move when the
    jam tolerance is tightened."""
    q0, v0 = G2_ROD.initial_state()
    slip = rigid_slip(G2_ROD, q0, v0)
    assert SLIP_OUTCOMES[int(slip.outcome)] == "jam"
    p0 = float(slip.painleve[0])
    t_near, p_near, _ = real_time(G2_ROD, lambda p, b: 1e-10 * p0 - p)
    alpha1 = -0.6292114311639541  # the study's α₁ at this G-spot (docs/dynamic_jam.md)
    t_zero = t_near - p_near / alpha1
    t_end, t_jam = float(slip.end[2]), float(slip.jam[2])
    assert t_zero - t_end > 1e-5  # where the integration stops
    assert t_jam == pytest.approx(t_zero, abs=1e-8 * t_zero)
    assert jam_reference(G2_ROD).t_jam == t_jam
    tighter = rigid_slip(G2_ROD, q0, v0, jam_tolerance=1e-9)
    assert float(tighter.jam[2]) == pytest.approx(t_jam, abs=1e-8 * t_jam)
    assert float(tighter.jam_normal_impulse) == pytest.approx(float(slip.jam_normal_impulse), rel=1e-8)


def test_a_run_that_does_not_jam_has_no_jam_state():
    spots = rod_g_spots(np.array([2.5]), np.array([0.0]))
    i = spots.cases().index("G1")
    start = rod(2.5, float(spots.phi[i]) - 0.3, float(spots.omega[i]))
    slip = rigid_slip(start, *start.initial_state())
    assert SLIP_OUTCOMES[int(slip.outcome)] == "lift-off"
    assert np.isnan(float(slip.jam[2])) and np.isnan(float(slip.jam_normal_impulse))
    with pytest.raises(ValueError, match="not at a G-spot"):
        jam_reference(start)


def test_one_slip_record_for_a_planar_and_a_spatial_contact():
    """``rigid_slip`` takes any one-contact system: the planar G2 rod jams, the 3D rod of Fig. 17 crosses ``p = 0``;
    both give a :class:`RigidSlip` whose tangential impulse has the tangent dimension and obeys Coulomb's
    ``|P_t| ≤ μ P_n`` (equal in the plane, where slip keeps one direction opposed by friction; below it in 3D, where
    the direction turns), and whose end ``p``-rate ``dp/ds`` is negative."""
    spatial_rod = SpatialRod(gyration=0.1, mu=1.0, theta0=1.2, slip0=(math.cos(1.3), math.sin(1.3)))
    slips = {}
    for system, end in ((G2_ROD, "jam"), (spatial_rod, "crossing")):
        slip = slips[end] = rigid_slip(system)
        assert isinstance(slip, RigidSlip) and SLIP_OUTCOMES[int(slip.outcome)] == end
        tangential = np.asarray(slip.end_tangential_impulse)
        assert tangential.shape == (type(system).TANGENT_DIM,)
        mu = float(system.friction_coefficients[0])
        normal = float(slip.end_normal_impulse)
        assert normal > 0 and 0.9 * mu * normal < np.linalg.norm(tangential) <= mu * normal * (1 + 1e-12)
        assert float(slip.end_painleve_rate) < 0
    planar = slips["jam"]
    q, v, t = planar.end
    sign = float(slip_sign(G2_ROD, q, v))
    assert float(planar.end_tangential_impulse[0]) == pytest.approx(
        -sign * float(G2_ROD.friction_coefficients[0]) * float(planar.end_normal_impulse)
    )
    assert float(planar.end_free_normal_acceleration) == float(slip_normal_dynamics(G2_ROD, (q, v, t), sign)[1])
    assert np.isnan(float(slips["crossing"].jam_normal_impulse))
