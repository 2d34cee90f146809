"""Rigid formulations for k contacts (regcontact.rigid, regcontact.rigid.lcp._multi_contact_friction).

(a) For k = 1 every formulation solves the one-contact LCP and returns its reactions to the bit.
(b) Two contacts solved by hand: a rod lying flat with both ends on the ground, and a tilted rod with one end up.
(c) The k-contact LCP matrix is copositive for a positive semi-definite Delassus matrix.
(d) A mass scaled by 1e±10 gives scaled reactions, the same modes and the same number of solutions.
"""

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from regcontact import PainleveRod, TwoPointRod
from regcontact.rigid import (
    ContactState,
    force_acceleration,
    impulse_velocity,
    time_stepping,
    torque_threshold,
)
from regcontact.rigid.lcp import (
    friction_lcp,
    friction_solutions,
    lcp_residual,
    lemke,
    multi_contact_friction_lcp,
    multi_contact_friction_solutions,
)

PHI = np.pi / 3
DT = 0.01


def rod_ends(mass=1.0, length=2.0, gravity=1.0, mu=0.5, phi=0.0, lift=0.0, v=(0.0, 0.0, 0.0), torque=0.0, inertia=None):
    """A rod whose two ends are contacts (the layout of ``regcontact.systems.two_point_rod``), by hand.

    ``q = (x, y, φ)``, ``h = l/2``, ``s = sin φ``, ``c = cos φ``; end 1 at ``(x − h c, y − h s)`` (lowest for
    ``φ ≥ 0``), end 2 at ``(x + h c, y + h s)``; end 1 is ``lift`` above the ground. Rows normal (height of the
    end), tangential (its horizontal position): ``W_1 = [[0, 1, −h c], [1, 0, h s]]``,
    ``W_2 = [[0, 1, h c], [1, 0, −h s]]``, ``Ẇ_1 v = −Ẇ_2 v = (h s ω², h c ω²)``, ``M = diag(m, m, I)``,
    ``h = (0, −m g, τ)``.
    """
    h = length / 2
    inertia = mass * length**2 / 12 if inertia is None else inertia
    s, c, omega = np.sin(phi), np.cos(phi), v[2]
    jacobians = [[[0, 1, -h * c], [1, 0, h * s]], [[0, 1, h * c], [1, 0, -h * s]]]
    rate = np.array([h * s * omega**2, h * c * omega**2])
    return ContactState(
        mass_matrix=np.diag([mass, mass, inertia]),
        jacobians=jacobians,
        jacobian_rates=[rate, -rate],
        applied_force=[0.0, -mass * gravity, torque],
        velocity=v,
        mu=[mu, mu],
        gaps=[lift, lift + 2 * h * s],
        length_scale=length,
    )


# -- (a) k = 1 is the one-contact law ----------------------------------------------------------------------


def one_contact_reactions(W, b, mu):
    """The reactions of the one-contact LCP (``regcontact.rigid.lcp._friction``) for ``u = W λ + b``."""
    return friction_solutions(friction_lcp(W, b, mu)).reactions


def compare_k1(state: ContactState, dt: float = DT):
    """At k = 1 every formulation solves the one-contact LCP and returns its reactions, to the bit and in its
    order: impulse-velocity on ``(W, ġ)`` for a closed contact, the step on ``(W, W v_free + (g_n/δt, 0))``,
    force-acceleration at rest on ``(W, g̈_free)``. An open contact that approaches carries no force ("F")."""
    W, mu = state.delassus, state.mu[0]
    sets = state.index_sets()
    if sets.closed:
        expected = one_contact_reactions(W, state.contact_velocity[0], mu)
        np.testing.assert_array_equal(impulse_velocity(state).reactions[:, 0], expected)
    free_velocity = state.velocity + dt * np.linalg.solve(state.mass_matrix, state.applied_force)
    b = state.jacobian_matrix @ free_velocity + np.array([state.gaps[0] / dt, 0.0])
    np.testing.assert_array_equal(time_stepping(state, dt).reactions[:, 0], one_contact_reactions(W, b, mu))
    if sets.tangential_rest:
        expected = one_contact_reactions(W, state.free_acceleration[0], mu)
        np.testing.assert_array_equal(force_acceleration(state).reactions[:, 0], expected)
    elif not sets.closed:
        assert force_acceleration(state).modes == (("F",),)


def paper_rod(torque: bool) -> PainleveRod:
    """Preclik & Rüde Sec. 2.1 (no force solution), with the torque of Sec. 2.2 (two force solutions)."""
    tau = torque_threshold(PHI) - 1.0 if torque else 0.0
    return PainleveRod(mass=1.0, length=2.0, gravity=1.0, mu=1.5, phi0=PHI, vx0=-1.0, torque=tau)


@pytest.mark.parametrize("torque", [False, True], ids=["sec2.1", "sec2.2"])
def test_k1_paper_rods_give_the_one_contact_solutions(torque):
    state = ContactState.from_system(paper_rod(torque))
    compare_k1(state)
    assert len(force_acceleration(state)) == (2 if torque else 0)
    assert impulse_velocity(state).modes == (("T",), ("F",))
    assert len(time_stepping(state, DT)) == (3 if torque else 1)
    if torque:  # Sec. 2.2: the dynamic solution slides to the left (ġ_t = −1 < 0): "S-", λ_t = +μ λ_n.
        assert force_acceleration(state).with_modes("S-").reactions[0, 1] > 0


def test_k1_lifted_separating_and_resting_rods_give_the_one_contact_solutions():
    rod = PainleveRod(vx0=-1.0)
    q0, v0 = map(np.asarray, rod.initial_state())
    lifted, up, down = q0 + [0, 0.1, 0], v0 + [0, 0.5, 0], v0 + [0, -0.5, 0]
    for q, v in [(lifted, v0), (lifted, down), (q0, up), (q0, down), (q0, np.zeros(3))]:
        compare_k1(ContactState.from_system(rod, q=q, v=v))


numbers = lambda low, high: st.floats(low, high).filter(lambda x: x == 0 or abs(x) >= 1e-8)  # noqa: E731
rods = st.builds(
    PainleveRod,
    mass=numbers(0.5, 3.0),
    length=numbers(0.5, 3.0),
    mu=numbers(0.0, 3.0),
    phi0=numbers(0.1, 1.45),
    vx0=numbers(-2.0, 2.0),
    omega0=numbers(-2.0, 2.0),
    torque=numbers(-2.0, 2.0),
)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(rods, numbers(1e-4, 1e-1))
def test_k1_random_rods_give_the_one_contact_solutions(rod, dt):
    compare_k1(ContactState.from_system(rod), dt)


eighths = st.integers(2, 40).map(lambda k: k / 8)
correlations = st.integers(-15, 15).map(lambda k: k / 16)
delassus = st.tuples(eighths, eighths, correlations).map(
    lambda p: np.array([[p[0] ** 2, p[2] * p[0] * p[1]], [p[2] * p[0] * p[1], p[1] ** 2]])
)
vectors = st.tuples(st.integers(-16, 16), st.integers(-16, 16)).map(lambda p: np.array(p) / 8)
frictions = st.integers(0, 24).map(lambda k: k / 8)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(delassus, vectors, frictions, st.sampled_from([1.0, 2.0**-40, 3e7]))
def test_k1_lcp_is_the_one_contact_lcp_bit_for_bit(W, b, mu, unit):
    one, multi = friction_lcp(unit * W, b, mu), multi_contact_friction_lcp(unit * W, b, [mu])
    np.testing.assert_array_equal(multi.M, one.M)
    np.testing.assert_array_equal(multi.q, one.q)
    assert multi.scales() == one.scales()
    np.testing.assert_array_equal(multi.nondimensional()[0].M, one.nondimensional()[0].M)
    expected, got = friction_solutions(one), multi_contact_friction_solutions(multi)
    np.testing.assert_array_equal(got.reactions[:, 0], expected.reactions)
    assert len(got.continua) == len(expected.continua)


# -- (b) two contacts, solved by hand ----------------------------------------------------------------------


def assert_indeterminate_friction(solutions, lam_n, mu):
    """Normal reactions ``lam_n`` at both ends; the tangential ones a continuum ``λ_t1 = −λ_t2``, ``|λ_t| ≤ μ
    lam_n`` (listed solutions: points of it, mode T at both ends; boxes: pieces of it covering all of it)."""
    assert len(solutions) >= 1 and not solutions.isolated
    for solution in solutions:
        assert solution.modes == ("T", "T")
        np.testing.assert_allclose(solution.reactions[:, 0], [lam_n, lam_n], rtol=1e-12)
        assert solution.reactions[0, 1] == pytest.approx(-solution.reactions[1, 1], abs=1e-12 * lam_n)
        assert abs(solution.reactions[0, 1]) <= mu * lam_n * (1 + 1e-12)
    boxes = np.array(solutions.continua)  # (number of boxes, min/max, contact, n/t)
    np.testing.assert_allclose(boxes[:, :, :, 0], lam_n, rtol=1e-12)
    assert np.all(np.abs(boxes[:, :, :, 1]) <= mu * lam_n * (1 + 1e-12))
    for contact in (0, 1):
        assert boxes[:, 0, contact, 1].min() == pytest.approx(-mu * lam_n, rel=1e-12)
        assert boxes[:, 1, contact, 1].max() == pytest.approx(mu * lam_n, rel=1e-12)


def test_flat_rod_at_rest_carries_half_its_weight_at_each_end():
    """A slender rod (I = m l²/12) lying flat, at rest, under gravity: λ_n = m g/2 at each end.

    At φ = 0, with h = l/2: W_1 = [[0, 1, −h], [1, 0, 0]], W_2 = [[0, 1, h], [1, 0, 0]], M = diag(m, m, m h²/3),
    so G = W M⁻¹ Wᵀ has G_n1n1 = G_n2n2 = 1/m + h²/I = 4/m, G_n1n2 = 1/m − h²/I = −2/m, every G_ti,tj = 1/m and
    G_n,t = 0 (friction at floor level exerts no moment). The free acceleration is g̈ = (−g, 0) at both ends.
    Both contacts are in I_H. Normal: (1/m)[[4, −2], [−2, 4]] λ_n = (g, g) gives λ_n = (m g/2, m g/2); this is
    unique, since G_nn is positive definite and opening an end leaves g̈_n < 0 at the other (λ_n1 = 0 gives
    g̈_n1 = −2λ_n2/m − g < 0). Tangential: g̈_t1 = g̈_t2 = (λ_t1 + λ_t2)/m, so sticking needs λ_t1 = −λ_t2 with
    |λ_t,i| ≤ μ m g/2, and sliding + (λ_t = −μλ_n) would give g̈_t = −μ g < 0, a contradiction. With μ = 0 the
    solution is unique, λ = (m g/2, 0) at both ends; with μ > 0 the split of the tangential force is statically
    indeterminate: a continuum (the tangential block of G, (1/m)[[1, 1], [1, 1]], is singular).
    """
    m, g, mu = 3.0, 2.0, 0.5
    (solution,) = force_acceleration(rod_ends(mass=m, gravity=g, mu=0.0))
    assert solution.modes == ("T", "T")
    np.testing.assert_allclose(solution.reactions, [[m * g / 2, 0.0], [m * g / 2, 0.0]], rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(solution.acceleration, 0.0, atol=1e-14)
    solutions = force_acceleration(rod_ends(mass=m, gravity=g, mu=mu))
    assert solutions.index_sets.tangential_rest == (0, 1)
    assert_indeterminate_friction(solutions, m * g / 2, mu)


@pytest.mark.parametrize("vx", [1.5, -0.7])
def test_flat_rod_sliding_carries_half_its_weight_and_friction_opposes_the_slip(vx):
    """The flat rod sliding with v_x ≠ 0 (ω = 0, v_y = 0): both ends in I_N \\ I_H, friction folded in (Eq. 2.11).

    ġ_t = v_x at both ends, so λ_t,i = −μ sgn(v_x) λ_n,i; the LCP keeps λ_n only, with matrix
    G_nn + G_nt (−μ sgn v_x) = G_nn (G_nt = 0 for the flat rod): (1/m)[[4, −2], [−2, 4]] λ_n = (g, g), λ_n = m g/2
    at each end, unique (G_nn is a P-matrix). Then λ_t = −μ sgn(v_x) m g/2 at each end and the ends decelerate,
    g̈_t = (λ_t1 + λ_t2)/m = −μ g sgn(v_x); modes S+ for v_x > 0, S− for v_x < 0.
    """
    m, g, mu = 2.0, 1.0, 0.4
    state = rod_ends(mass=m, gravity=g, mu=mu, v=(vx, 0.0, 0.0))
    assert state.index_sets().sliding == (0, 1)
    (solution,) = force_acceleration(state)
    sign = np.sign(vx)
    assert solution.modes == (("S+", "S+") if vx > 0 else ("S-", "S-"))
    np.testing.assert_allclose(solution.reactions, [[m * g / 2, -sign * mu * m * g / 2]] * 2, rtol=1e-14)
    np.testing.assert_allclose(solution.contact_rates, [[0.0, -sign * mu * g]] * 2, atol=1e-14)


def test_flat_rod_under_a_torque_lifts_an_end_beyond_m_g_h():
    """The flat rod at rest under a torque τ (μ = 0, so the reactions are unique).

    The free normal accelerations are g̈_n1 = −g − a, g̈_n2 = −g + a with a = h τ/I = 3τ/(m h). Both ends down:
    (1/m)[[4, −2], [−2, 4]] λ_n = (g + a, g − a), λ_n1 = m g/2 + τ/(2h), λ_n2 = m g/2 − τ/(2h) (the moment
    balance h (λ_n1 − λ_n2) = τ), valid while τ ≤ m g h. Beyond, end 2 lifts: λ_n2 = 0, 4λ_n1/m = g + a gives
    λ_n1 = m g/4 + 3τ/(4h), and g̈_n2 = −2λ_n1/m − g + a = (a − 3g)/2 ≥ 0 exactly when τ ≥ m g h.
    """
    m, g, h = 1.0, 1.0, 1.0
    for tau in (0.6, 1.5):
        (solution,) = force_acceleration(rod_ends(mass=m, gravity=g, length=2 * h, mu=0.0, torque=tau))
        if tau <= m * g * h:
            expected, modes = [m * g / 2 + tau / (2 * h), m * g / 2 - tau / (2 * h)], ("T", "T")
        else:
            expected, modes = [m * g / 4 + 3 * tau / (4 * h), 0.0], ("T", "F")
            a = 3 * tau / (m * h)
            assert solution.contact_rates[1, 0] == pytest.approx((a - 3 * g) / 2, rel=1e-13)
        assert solution.modes == modes
        np.testing.assert_allclose(solution.reactions[:, 0], expected, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("restitution", [0.0, 0.5])
def test_flat_rod_dropped_gets_equal_normal_impulses(restitution):
    """The flat rod landing with v_y = −V (ω = 0): impulse-velocity on I_S = both ends.

    Newton's law on ġ_n⁺ + e min(ġ_n⁻, 0) = ġ_n⁺ − e V: with G_nt = 0, (1/m)[[4, −2], [−2, 4]] Λ_n = (1 + e) V (1, 1)
    gives Λ_n = (1 + e) m V/2 at each end and ġ_n⁺ = e V. Tangentially ġ_t⁺ = v_x + (Λ_t1 + Λ_t2)/m:
    - v_x = 0, μ = 0: Λ_t = 0, unique;
    - v_x = 0, μ > 0: sticking with Λ_t1 = −Λ_t2, |Λ_t| ≤ μ Λ_n, a continuum as for the resting rod;
    - v_x > μ (1 + e) V: sticking would need Λ_t1 + Λ_t2 = −m v_x beyond the cones' μ (1 + e) m V, so both ends
      slide on: Λ_t = −μ Λ_n each, ġ_t⁺ = v_x − μ (1 + e) V > 0, modes S+ S+ (unique: the normal problem is the
      same P-matrix LCP for any fixed friction direction).
    """
    m, V, mu = 2.0, 3.0, 0.25
    lam_n = (1 + restitution) * m * V / 2
    (solution,) = impulse_velocity(rod_ends(mass=m, mu=0.0, v=(0.0, -V, 0.0)), restitution)
    np.testing.assert_allclose(solution.reactions, [[lam_n, 0.0]] * 2, rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(solution.velocity, [0.0, restitution * V, 0.0], atol=1e-14)
    assert_indeterminate_friction(impulse_velocity(rod_ends(mass=m, mu=mu, v=(0.0, -V, 0.0)), restitution), lam_n, mu)
    vx = 2.0
    (solution,) = impulse_velocity(rod_ends(mass=m, mu=mu, v=(vx, -V, 0.0)), restitution)
    assert solution.modes == ("S+", "S+")
    np.testing.assert_allclose(solution.reactions, [[lam_n, -mu * lam_n]] * 2, rtol=1e-14)
    np.testing.assert_allclose(
        solution.velocity, [vx - mu * (1 + restitution) * V, restitution * V, 0.0], rtol=1e-14, atol=1e-14
    )
    # Impulses do not move positions: a force-acceleration problem does not exist for an impact.
    with pytest.raises(ValueError, match="impulse_velocity"):
        force_acceleration(rod_ends(v=(0.0, -V, 0.0)))


def test_flat_rod_time_step_carries_half_its_weight():
    """One step from rest: u_n = g_n/δt + ġ_n' = δt (G_nn λ̃_n − g) ≥ 0 ⊥ λ̃_n, so δt λ̃_n = δt m g/2 at each end
    (μ = 0; for μ > 0 the tangential split is the resting rod's continuum, times δt)."""
    m, g = 1.5, 2.0
    (solution,) = time_stepping(rod_ends(mass=m, gravity=g, mu=0.0), DT)
    np.testing.assert_allclose(solution.reactions, [[DT * m * g / 2, 0.0]] * 2, rtol=1e-14, atol=1e-16)
    np.testing.assert_allclose(solution.velocity, 0.0, atol=1e-15)
    assert_indeterminate_friction(time_stepping(rod_ends(mass=m, gravity=g, mu=0.3), DT), DT * m * g / 2, 0.3)


@pytest.mark.parametrize("torque", [False, True], ids=["sec2.1", "sec2.2"])
def test_tilted_rod_with_one_end_up_is_the_painleve_rod(torque):
    """At φ = π/3 only end 1 touches (end 2 is l sin φ up, not in I_S): every formulation gives the one-contact
    rod's solutions at end 1 and no reaction at end 2 (mode F). The time step includes end 2 too; its gap/δt
    keeps it free."""
    tau = torque_threshold(PHI) - 1.0 if torque else 0.0
    state = rod_ends(mu=1.5, phi=PHI, v=(-1.0, 0.0, 0.0), torque=tau)
    assert state.index_sets().closed == (0,)
    single = ContactState.from_system(paper_rod(torque))
    pairs = [
        (force_acceleration(state), force_acceleration(single)),
        (impulse_velocity(state), impulse_velocity(single)),
        (time_stepping(state, DT), time_stepping(single, DT)),
    ]
    for multi, one in pairs:
        assert len(multi) == len(one)
        for got, expected in zip(multi, one):
            np.testing.assert_allclose(got.reactions[0], expected.reaction, rtol=1e-13, atol=1e-15)
            np.testing.assert_array_equal(got.reactions[1], 0.0)
            assert got.modes[1] == "F" and got.modes[0] == expected.mode


def test_index_sets_follow_equation_2_1():
    # End 1 down and slipping, end 2 a millionth of the length up: I_S = I_N = {0}, I_H = {}.
    state = rod_ends(phi=0.0, v=(0.3, 0.0, 0.0))
    lifted = ContactState(
        state.mass_matrix,
        state.jacobians,
        state.jacobian_rates,
        state.applied_force,
        state.velocity,
        state.mu,
        [0.0, 2e-6],
        state.length_scale,
    )
    sets = lifted.index_sets()
    assert (sets.all_contacts, sets.closed, sets.normal_rest, sets.tangential_rest) == ((0, 1), (0,), (0,), ())
    assert sets.sliding == (0,)
    # ...while a gap of 1e-12 of the length counts as closed (relative tolerance 1e-9).
    assert ContactState(**{**lifted.__dict__, "gaps": np.array([0.0, 2e-12])}).index_sets().closed == (0, 1)
    # Separating at end 2 (rotating about end 1): closed but not in I_N, so no force there.
    rocking = rod_ends(phi=0.0, v=(0.0, 0.5, 0.5))
    sets = rocking.index_sets()
    assert sets.closed == (0, 1) and sets.normal_rest == (0,)
    assert all(s.modes[1] == "F" for s in force_acceleration(rocking))


def test_penetration_and_too_many_contacts_are_refused():
    state = rod_ends()
    sunk = ContactState(**{**state.__dict__, "gaps": np.array([0.0, -1e-3])})
    with pytest.raises(ValueError, match="g_n"):
        impulse_velocity(sunk)
    with pytest.raises(ValueError, match="g_n"):
        force_acceleration(sunk)
    five = ContactState(
        np.eye(3),
        np.tile(state.jacobians[:1], (5, 1, 1)),
        np.zeros((5, 2)),
        np.zeros(3),
        np.zeros(3),
        np.ones(5),
        np.zeros(5),
        1.0,
    )
    with pytest.raises(ValueError, match="max_size"):
        time_stepping(five, DT)


def test_from_system_reads_the_two_point_rod():
    rod = TwoPointRod(mass=2.0, length=3.0, mu=0.7, phi0=0.4, height=0.1, vx0=0.3, vy0=-0.2, omega0=0.9)
    state = ContactState.from_system(rod)
    q, v = map(np.asarray, rod.initial_state())
    by_hand = rod_ends(mass=2.0, length=3.0, mu=0.7, phi=0.4, lift=0.1, v=tuple(v))
    for name in ("mass_matrix", "jacobians", "jacobian_rates", "applied_force", "velocity", "mu", "gaps"):
        np.testing.assert_allclose(getattr(state, name), getattr(by_hand, name), rtol=1e-14, atol=1e-15)


def satisfies_law(reactions, rates, mu, tol=1e-9):
    """Signorini–Coulomb at every contact for (reactions, the quantity the law acts on)."""
    scale = max(np.abs(reactions).max(initial=0.0), np.abs(rates).max(initial=0.0), 1e-300)
    for (lam_n, lam_t), (u_n, u_t), mu_i in zip(reactions, rates, mu):
        if lam_n < -tol * scale or u_n < -tol * scale or abs(lam_n * u_n) > tol * scale**2:
            return False
        if abs(lam_t) > mu_i * lam_n + tol * scale:
            return False
        if u_t > tol * scale and abs(lam_t + mu_i * lam_n) > tol * scale:
            return False
        if u_t < -tol * scale and abs(lam_t - mu_i * lam_n) > tol * scale:
            return False
    return True


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@example(phi=0.0, vx=1.0, vy=0.0, omega=5e-324, mu=0.0, lift=0.0, torque=0.0)  # a subnormal spin: zero
@example(phi=0.0, vx=0.0, vy=0.0, omega=5e-324, mu=0.0, lift=0.0, torque=0.0)
@given(
    st.floats(0.0, 1.4),
    st.floats(-1.0, 1.0),
    st.floats(-2.0, 0.5),
    st.floats(-1.0, 1.0),
    st.floats(0.0, 2.0),
    st.floats(0.0, 0.05),
    st.floats(-2.0, 2.0),
)
def test_two_contact_solutions_obey_the_law_and_contain_lemkes(phi, vx, vy, omega, mu, lift, torque):
    # A rod with both ends as contacts, end 1 `lift` above the ground (possibly closed, possibly both open).
    state = rod_ends(mu=mu, phi=phi, lift=lift, v=(vx, vy, omega), torque=torque)
    impulses, step = impulse_velocity(state), time_stepping(state, DT)
    closed = list(impulses.index_sets.closed)  # the impact law acts on I_S, the time step on every contact
    for solutions, contacts in ((impulses, closed), (step, list(range(2)))):
        assert len(solutions) >= 1 or not solutions.isolated
        for solution in solutions:
            assert satisfies_law(solution.reactions[contacts], solution.contact_rates[contacts], state.mu[contacts])
            assert not np.any(np.delete(solution.reactions, contacts, axis=0))
    # Lemke on the time step's (copositive) nondimensional LCP ends at one of the enumerated solutions.
    free_velocity = state.velocity + DT * np.linalg.solve(state.mass_matrix, state.applied_force)
    b = state.jacobian_matrix @ free_velocity + np.ravel([[g / DT, 0.0] for g in state.gaps])
    problem = multi_contact_friction_lcp(state.delassus, b, state.mu)
    scaled, reaction_scale, _ = problem.nondimensional()
    result = lemke(scaled.M, scaled.q)
    assert result.status == "solved"
    reactions = reaction_scale * scaled.reaction(result.z)
    found = multi_contact_friction_solutions(problem)
    size = max(np.abs(reactions).max(), 1e-300)
    distances = np.abs(found.reactions - reactions).reshape(len(found.reactions), -1).max(axis=1, initial=0.0)
    near = distances.min(initial=np.inf) <= 1e-8 * size
    in_box = any(
        np.all(box[0] - 1e-8 * size <= reactions) and np.all(reactions <= box[1] + 1e-8 * size)
        for box in found.continua
    )
    assert near or in_box
    for reactions in found.reactions:
        assert lcp_residual(problem.M, problem.q, problem.lcp_vector(reactions)).within(1e-9)


# -- (c) copositivity ----------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(-16, 16), min_size=12, max_size=12),
    st.lists(st.integers(0, 24), min_size=2, max_size=2),
    st.lists(st.floats(0.0, 3.0), min_size=8, max_size=8),
)
def test_two_contact_lcp_matrix_is_copositive(A, mu, z):
    # zᵀ M z = λᵀ G λ + Σ μ_i λ_n,i β_i with λ_n = z_4i, λ_t = z_4i+1 − z_4i+2, β = z_4i+3: ≥ 0 for G = A Aᵀ.
    A = np.array(A, dtype=float).reshape(4, 3) / 8  # rank ≤ 3: G is only semi-definite
    mu, z = np.array(mu) / 8, np.array(z)
    M = multi_contact_friction_lcp(A @ A.T, np.zeros(4), mu).M
    lam = np.array([z[0], z[1] - z[2], z[4], z[5] - z[6]])
    expected = lam @ (A @ A.T) @ lam + mu[0] * z[0] * z[3] + mu[1] * z[4] * z[7]
    np.testing.assert_allclose(z @ M @ z, expected, rtol=1e-12, atol=1e-12)
    assert z @ M @ z >= -1e-12 * max(1.0, np.abs(M).max() * np.abs(z).max() ** 2)


# -- (d) units -----------------------------------------------------------------------------------------------


SCALED_CASES = {
    "flat at rest": (dict(mu=0.5), "force_acceleration"),
    "flat sliding": (dict(mu=0.5, v=(1.0, 0.0, 0.0)), "force_acceleration"),
    "flat under torque": (dict(mu=0.0, torque=1.5), "force_acceleration"),
    "flat dropped": (dict(mu=0.25, v=(2.0, -3.0, 0.0)), "impulse_velocity"),
    "flat dropped, sticking": (dict(mu=0.25, v=(0.0, -3.0, 0.0)), "impulse_velocity"),
    "tilted sec2.2": (
        dict(mu=1.5, phi=PHI, v=(-1.0, 0.0, 0.0), torque=torque_threshold(PHI) - 1.0),
        "force_acceleration",
    ),
    "tilted impulse": (dict(mu=1.5, phi=PHI, v=(-1.0, 0.0, 0.0)), "impulse_velocity"),
    "tilted step": (dict(mu=1.5, phi=PHI, v=(-1.0, 0.0, 0.0), torque=torque_threshold(PHI) - 1.0), "time_stepping"),
    "flat step": (dict(mu=0.3, v=(0.5, -1.0, 0.2)), "time_stepping"),
}
SOLVERS = {
    "force_acceleration": force_acceleration,
    "impulse_velocity": impulse_velocity,
    "time_stepping": lambda state: time_stepping(state, DT),
}


@pytest.mark.slow
@pytest.mark.parametrize("s_m", [1e-10, 1e10])
@pytest.mark.parametrize("case", list(SCALED_CASES))
def test_mass_scaled_by_1e10_gives_scaled_solutions(case, s_m):
    # m → s_m m (I, the weight and the torque with it): accelerations and velocities are unchanged, forces and
    # impulses scale by s_m. Same number of solutions, same modes, same continua, reactions s_m times the unit ones.
    kwargs, formulation = SCALED_CASES[case]
    solve = SOLVERS[formulation]
    unit = solve(rod_ends(**kwargs))
    scaled = solve(rod_ends(mass=s_m, **{**kwargs, "torque": s_m * kwargs.get("torque", 0.0)}))
    assert scaled.modes == unit.modes and len(scaled.continua) == len(unit.continua)
    size = max(np.abs(unit.reactions).max(initial=0.0), 1e-300)
    assert np.abs(scaled.reactions / s_m - unit.reactions).max(initial=0.0) <= 1e-12 * size
    for box, unit_box in zip(scaled.continua, unit.continua):
        assert np.abs(box / s_m - unit_box).max() <= 1e-9 * size
