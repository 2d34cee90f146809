"""Eqs. 33–34 at the G-spot (Champneys & Várkonyi Sec. 5.1): the α's by autodiff against the closed forms printed
for the rod and against finite differences along the rigid slip flow of a hand-written Newton–Euler rod; the
phase portraits of Fig. 13 against the exact solution of the linear system; cases G1 and G2."""

from typing import ClassVar

import jax.numpy as jnp
import numpy as np
import pytest
from scipy.linalg import expm

from regcontact.rigid import (
    G_SPOT_PANELS,
    g_spot_linearisation,
    g_spot_panel,
    jam_case,
    linear_g_spot_flow,
    reaches_g_spot,
    slip_normal_dynamics,
)
from regcontact.systems import AbstractPlanarRod, PainleveRod, TwoPointRod


class RampedRod(AbstractPlanarRod):
    """Preclik's rod (contact at the lower end) under loads that ramp in time: ``f_y = −m g + Ṡ_y t``,
    ``τ = τ₀ + Ṙ t`` (Champneys' ``S_y``, ``R`` and their rates)."""

    NUM_CONTACTS: ClassVar[int] = 1
    force_y_rate: jnp.ndarray
    torque_rate: jnp.ndarray

    def __init__(self, mu, gravity, torque, force_y_rate, torque_rate):
        self._set_rod(1.0, 2.0, None, gravity, torque, 0.0, mu)
        self.force_y_rate, self.torque_rate = jnp.asarray(force_y_rate, float), jnp.asarray(torque_rate, float)

    def forces(self, q, v, t=0.0):
        return self.applied_force() + jnp.stack([0.0, self.force_y_rate, self.torque_rate]) * t

    def gaps(self, q):
        return self.end_gap(q, -1.0)[None]

    def jacobians(self, q):
        return self.end_jacobian(q, -1.0)[None]

    def jacobian_rates(self, q, v):
        return self.end_jacobian_rate(q, v, -1.0)[None]

    @property
    def friction_coefficients(self):
        return self.mu[None]

    def initial_state(self):
        raise NotImplementedError


def rod_state(theta, omega, slip=-1.0):
    """Lower end on the ground at rest normally, sliding at ``slip`` along ``x``."""
    q = jnp.array([np.cos(theta), np.sin(theta), theta])
    v = jnp.array([slip - np.sin(theta) * omega, np.cos(theta) * omega, omega])
    return q, v


def printed_alphas(theta, omega, mu, R, S_y_rate, R_rate):
    """The closed forms printed after Eq. 34 (m = 1, l = 2)."""
    s, c = np.sin(theta), np.cos(theta)
    return (
        -3 * omega * (np.sin(2 * theta) + mu * np.cos(2 * theta)),
        9 * R * omega * s + omega**3 * c + S_y_rate - 3 * R_rate * c,
        -6 * omega * s * (mu * s - c),
    )


@pytest.mark.slow
def test_autodiff_alphas_are_the_printed_closed_forms_for_the_rod_with_ramped_loads():
    """At 40 random slipping states (not only G-spots: the formulas are the rates along the flow everywhere),
    with the loads and their rates random, ``t ≠ 0``."""
    rng = np.random.default_rng(3)
    for _ in range(40):
        theta, omega, mu = rng.uniform(0.1, 1.5), rng.uniform(-3, 3), rng.uniform(0.2, 3)
        gravity, torque, fy_rate, torque_rate, t = rng.uniform(-1, 2, 5)
        rod = RampedRod(mu, gravity, torque, fy_rate, torque_rate)
        q, v = rod_state(theta, omega)
        lin = g_spot_linearisation(rod, q, v, t)
        R = torque + torque_rate * t
        expected = printed_alphas(theta, omega, mu, R, fy_rate, torque_rate)
        np.testing.assert_allclose([lin.alpha1, lin.alpha2, lin.alpha3], expected, rtol=1e-12, atol=1e-12)
        assert float(lin.painleve_drift) == 0.0
        p, b = slip_normal_dynamics(rod, (q, v, jnp.asarray(t)), -1.0)
        np.testing.assert_allclose(p, 1 + 3 * np.cos(theta) ** 2 - 3 * mu * np.sin(theta) * np.cos(theta), rtol=1e-13)
        np.testing.assert_allclose(b, -gravity + fy_rate * t - 3 * np.cos(theta) * R + omega**2 * np.sin(theta))


class NewtonEulerRod:
    """Champneys' rod (his Fig. 2 and Eq. 1, m = 1, ℓ = 1, r² = 1/3) slipping with u > 0, written out by hand:
    the contact point ``(X + cos θ, Y − sin θ)``; ``p`` and ``b`` are read off its accelerations."""

    def __init__(self, mu, S_y, R, S_y_rate, R_rate):
        self.mu, self.S_y, self.R, self.S_y_rate, self.R_rate = mu, S_y, R, S_y_rate, R_rate

    def accelerations(self, theta, omega, t, normal):
        tangential = -self.mu * normal
        y_dd = self.S_y + self.S_y_rate * t + normal
        torque = self.R + self.R_rate * t - np.cos(theta) * normal - np.sin(theta) * tangential
        theta_dd = 3.0 * torque
        contact_y_dd = y_dd - np.cos(theta) * theta_dd + np.sin(theta) * omega**2
        return theta_dd, contact_y_dd

    def painleve_and_b(self, x):
        theta, omega, t = x
        b = self.accelerations(theta, omega, t, 0.0)[1]
        return np.array([self.accelerations(theta, omega, t, 1.0)[1] - b, b])

    def rescaled_field(self, x):
        """``d(θ, ω, t)/ds = p · (ω, θ̈, 1)`` with ``λ_N = −b/p``, written without dividing by ``p``."""
        theta, omega, t = x
        p, b = self.painleve_and_b(x)
        free, unit = self.accelerations(theta, omega, t, 0.0)[0], self.accelerations(theta, omega, t, 1.0)[0]
        return np.array([p * omega, p * free - b * (unit - free), p])

    def flow(self, x, s, steps=4):
        h = s / steps
        for _ in range(steps):
            k1 = self.rescaled_field(x)
            k2 = self.rescaled_field(x + 0.5 * h * k1)
            k3 = self.rescaled_field(x + 0.5 * h * k2)
            k4 = self.rescaled_field(x + h * k3)
            x = x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        return x


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_linear_system_is_the_slip_flow_linearised_at_a_g_spot_by_finite_differences(seed):
    """At a G-spot of the rod with ramped loads: ``d(p, b)/ds`` by central differences along the rescaled slip
    flow of the Newton–Euler rod, differentiated again across states (central differences in θ and ω) and
    mapped to ``(p, b)`` coordinates, is ``[[α₁, 0], [α₂, α₃]]`` from autodiff of the system."""
    rng = np.random.default_rng(seed)
    theta, omega = rng.uniform(0.3, 1.3), rng.choice([-1, 1]) * rng.uniform(0.5, 2.0)
    torque, fy_rate, torque_rate = rng.uniform(-0.5, 0.5, 3)
    mu = (1 + 3 * np.cos(theta) ** 2) / (3 * np.sin(theta) * np.cos(theta))  # p = 0
    gravity = 3 * np.cos(theta) * torque - omega**2 * np.sin(theta)  # b = 0: S_y = −g = 3 cos θ R − ω² sin θ
    gravity = -gravity
    rod = RampedRod(mu, gravity, torque, fy_rate, torque_rate)
    q, v = rod_state(theta, omega)
    lin = g_spot_linearisation(rod, q, v, 0.0)
    assert abs(float(lin.painleve)) < 1e-12 and abs(float(lin.free_normal_acceleration)) < 1e-12

    hand = NewtonEulerRod(mu, -gravity, torque, fy_rate, torque_rate)
    h, delta = 1e-4, 1e-4

    def rates(x):  # d(p, b)/ds by a central difference along the flow
        return (hand.painleve_and_b(hand.flow(x, h)) - hand.painleve_and_b(hand.flow(x, -h))) / (2 * h)

    x0 = np.array([theta, omega, 0.0])
    columns, coordinates = [], []
    for e in (np.array([delta, 0, 0]), np.array([0, delta, 0])):
        columns.append((rates(x0 + e) - rates(x0 - e)) / (2 * delta))
        coordinates.append((hand.painleve_and_b(x0 + e) - hand.painleve_and_b(x0 - e)) / (2 * delta))
    finite_differences = np.array(columns).T @ np.linalg.inv(np.array(coordinates).T)
    np.testing.assert_allclose(finite_differences, np.asarray(lin.matrix()), atol=2e-6 * np.abs(lin.matrix()).max())


def test_a_system_with_two_contacts_is_refused():
    rod = TwoPointRod()
    q, v = rod.initial_state()
    with pytest.raises(ValueError, match="TwoPointRod has 2 contacts: expected one"):
        g_spot_linearisation(rod, q, v, 0.0, 1.0)


def _alphas_of(panel, rng):
    """Random ``(α₁, α₂, α₃)`` in ``panel``, each and ``α₁ − α₃`` at least 0.3 in size (so that 60 time units
    of ``s`` settle every trajectory)."""
    while True:
        alphas = rng.uniform(-3, 3, 3)
        if min(np.abs(alphas).min(), abs(alphas[0] - alphas[2])) >= 0.3 and g_spot_panel(*alphas) == panel:
            return alphas


def _outcome(alphas, p0, b0, s_max=60.0, samples=6000):
    """What the exact linear flow does from ``(p0, b0)`` as ``s → ∞``: ``lift-off`` (``b`` reaches 0),
    ``G1``/``G2`` (tends to the G-spot tangent to the ``b``-axis / to the eigenvector) or ``slip`` (leaves every
    neighbourhood with ``b < 0``). ``b(s) e^{−α₃s} = c₁ + c₂α₂e^{(α₁−α₃)s}`` has the sign of ``b`` without
    overflowing."""
    a1, a2, a3 = alphas
    s = np.linspace(0, s_max, samples)
    c2 = p0 / (a1 - a3)
    if np.any(b0 - c2 * a2 + c2 * a2 * np.exp((a1 - a3) * s) >= 0):
        return "lift-off"
    if a1 > 0 or a3 > 0:
        return "slip"
    p, b = linear_g_spot_flow(*alphas, p0, b0, s_max)
    assert np.hypot(p, b) < 1e-6 * np.hypot(p0, b0)
    return "G1" if abs(p / b) < 1e-3 else "G2"


def test_the_linear_flow_is_the_matrix_exponential():
    rng = np.random.default_rng(11)
    for _ in range(20):
        alphas, (p0, b0), s = rng.uniform(-3, 3, 3), rng.uniform(-1, 1, 2), rng.uniform(0, 3)
        matrix = np.array([[alphas[0], 0.0], [alphas[1], alphas[2]]])
        flow = linear_g_spot_flow(*alphas, p0, b0, s)
        np.testing.assert_allclose(flow, expm(matrix * s) @ [p0, b0], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("panel", G_SPOT_PANELS, ids=lambda panel: panel.label)
def test_each_panel_has_the_outcomes_it_declares_under_the_exact_linear_flow(panel):
    """For 6 random ``α``'s of the panel and 40 initial conditions in the slip quadrant each, the set of outcomes
    of the exact solution is the panel's; :func:`reaches_g_spot` predicts each one that reaches the G-spot."""
    rng = np.random.default_rng(sum(map(ord, panel.label)))
    seen = set()
    for _ in range(6):
        alphas = _alphas_of(panel, rng)
        for angle in rng.uniform(-np.pi / 2, 0, 40):
            p0, b0 = np.cos(angle), np.sin(angle)
            outcome = _outcome(alphas, p0, b0)
            seen.add(outcome)
            assert bool(reaches_g_spot(*alphas, p0, b0)) == (outcome in ("G1", "G2"))
            if outcome in ("G1", "G2"):
                assert jam_case(*alphas) == outcome
    assert seen == set(panel.outcomes)


def test_g2_needs_alpha3_below_alpha1_below_zero_not_the_printed_order():
    """The printed G2 condition ``α₂ < 0, 0 < α₁ < α₃``: ``p = p₀e^{α₁s}`` grows, so nothing reaches the G-spot
    (and ``α₂/(α₃ − α₁)`` would be negative). With ``α₃ < α₁ < 0`` the whole slip quadrant reaches it and
    ``λ_n = −b/p`` tends to ``α₂/(α₃ − α₁) > 0``."""
    rng = np.random.default_rng(7)
    for _ in range(20):
        a1, a3 = np.sort(rng.uniform(0.2, 3, 2))
        a3 = max(a3, a1 + 0.3)
        a2 = -rng.uniform(0.2, 3)
        printed = (a1, a2, a3)
        assert jam_case(*printed) is None
        assert printed[1] / (printed[2] - printed[0]) < 0
        for angle in rng.uniform(-np.pi / 2, 0, 5):
            assert _outcome(printed, np.cos(angle), np.sin(angle)) != "G2"
        derived = (-a1, a2, -a3)  # α₃ < α₁ < 0
        assert jam_case(*derived) == "G2"
        for angle in rng.uniform(-np.pi / 2 + 0.01, -0.01, 5):
            p0, b0 = np.cos(angle), np.sin(angle)
            assert _outcome(derived, p0, b0) == "G2"
            p, b = linear_g_spot_flow(*derived, p0, b0, 80.0)
            np.testing.assert_allclose(-b / p, a2 / (-a3 + a1), rtol=1e-9)


@pytest.mark.slow
def test_g_spots_of_the_rod_reproduce_genot_and_brogliatos_critical_friction():
    """With gravity alone (τ = 0) a G-spot of case G1 exists for μ above μ_c = 8/(3√3) ≈ 1.540 (Sec. 2.2) and
    none below: over μ = 1.35 … 1.75 the first μ with a G1 spot is the first grid value above μ_c."""
    from regcontact.rigid import rod_g_spots

    mus = np.linspace(1.35, 1.75, 41)
    spots = rod_g_spots(mus, np.zeros_like(mus))
    g1 = sorted({float(m) for m, case in zip(np.asarray(spots.mu), spots.cases()) if case == "G1"})
    critical = 8 / (3 * np.sqrt(3))
    assert g1 and min(g1) > critical and min(g1) - 0.01 < critical
    assert np.all(np.abs(np.asarray(spots.linearisation.painleve)) < 1e-12)
    assert np.all(np.abs(np.asarray(spots.linearisation.free_normal_acceleration)) < 1e-12)
    rod = PainleveRod(mu=float(spots.mu[0]), phi0=float(spots.phi[0]), omega0=float(spots.omega[0]))
    q, v = rod.initial_state()
    lin = g_spot_linearisation(rod, q, v, 0.0, -1.0)
    theta, omega = float(spots.phi[0]), float(spots.omega[0])
    expected = printed_alphas(theta, omega, float(spots.mu[0]), 0.0, 0.0, 0.0)
    np.testing.assert_allclose([lin.alpha1, lin.alpha2, lin.alpha3], expected, rtol=1e-12, atol=1e-12)


def test_the_rescaled_field_is_the_slip_field_times_p_and_keeps_the_contact():
    """``dX/ds = p dX/dt``, and along it ``g̈_n = b + p λ_n = 0`` (the normal velocity of the contact stays 0)."""
    import jax

    from regcontact.rigid import rescaled_slip_field, slip_field

    rod = PainleveRod(mu=1.6, torque=0.2, phi0=0.6, omega0=0.8, vx0=-2.0)
    q, v = rod.initial_state()
    state = (q, v, jnp.asarray(0.3))
    p, _ = slip_normal_dynamics(rod, state, -1.0)
    slow, fast = rescaled_slip_field(rod, state, -1.0), slip_field(rod, state, -1.0)
    for a, b in zip(jax.tree_util.tree_leaves(slow), jax.tree_util.tree_leaves(fast)):
        np.testing.assert_allclose(a, p * b, rtol=1e-13, atol=1e-15)
    normal_acceleration = rod.jacobians(q)[0, 0] @ fast[1] + rod.jacobian_rates(q, v)[0, 0]
    assert abs(float(normal_acceleration)) < 1e-13
