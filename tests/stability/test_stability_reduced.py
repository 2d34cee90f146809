"""Reduced quantities a, b, A, B, C and the Painlevé parameters (Champneys & Várkonyi Eqs. 7–13, 18, 23)."""

import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import regcontact  # noqa: F401  (float64)
from regcontact.stability import (
    at_most_one_nonpositive,
    painleve_parameters,
    reduced_dynamics,
    rod_reduced_dynamics,
)
from regcontact.systems.rod import PainleveRod


@pytest.mark.parametrize("phi", [0.2, np.pi / 3, 1.1071487177940904, 1.4])
@pytest.mark.parametrize("omega", [-1.3, 0.0, 0.7])
def test_rod_matches_closed_forms_after_eq_11(phi, omega):
    """Uniform rod, m = g = 1, half-length 1: the closed forms quoted after Eq. 11 (Champneys' frame)."""
    rod = PainleveRod(mass=1.0, length=2.0, gravity=1.0, phi0=phi, omega0=omega, vx0=0.4)
    q, v = rod.initial_state()
    reduced = rod_reduced_dynamics(rod, q, v)
    s, c = np.sin(phi), np.cos(phi)
    expected = dict(a=-(omega**2) * c, b=omega**2 * s - 1.0, A=1 + 3 * s**2, B=3 * s * c, C=1 + 3 * c**2)
    for name, value in expected.items():
        np.testing.assert_allclose(getattr(reduced, name), value, rtol=1e-13, atol=1e-13, err_msg=name)
    # Champneys' u is minus Preclik's ġ_t; the initial state has ġ_n = 0.
    np.testing.assert_allclose(reduced.u, -(0.4 + s * omega), atol=1e-13)
    np.testing.assert_allclose(reduced.v, 0.0, atol=1e-13)


def test_mirror_map_between_preclik_and_champneys_frames():
    """Taking Preclik's rows as given flips the signs of a, B and u and keeps b, A, C, v."""
    rod = PainleveRod(phi0=0.9, omega0=0.8, vx0=-1.0, force_x=0.3, torque=-0.2)
    q, v = rod.initial_state()
    native = reduced_dynamics(rod.mass_matrix(), rod.jacobian(q), rod.applied_force(), v, rod.jacobian_rate(q, v))
    mirrored = rod_reduced_dynamics(rod, q, v)
    for name, sign in dict(a=-1, b=1, A=1, B=-1, C=1, u=-1, v=1).items():
        np.testing.assert_allclose(getattr(mirrored, name), sign * getattr(native, name), atol=1e-14)


def test_painleve_region_of_the_uniform_rod():
    """p⁺ < 0 exactly when μ > μ_P(θ) = (1/3 + cos²θ)/(sin θ cos θ) (Eq. 5), minimal 4/3 at θ = arctan 2."""
    theta = np.arctan(2.0)
    mu_p = (1 / 3 + np.cos(theta) ** 2) / (np.sin(theta) * np.cos(theta))
    np.testing.assert_allclose(mu_p, 4 / 3, rtol=1e-14)
    rod = PainleveRod(mass=1.0, length=2.0, phi0=theta)
    q, v = rod.initial_state()
    reduced = rod_reduced_dynamics(rod, q, v)
    # p⁺ = C − μB is (3 sin θ cos θ)(μ_P − μ) for the rod (Eq. 3 with m = ℓ = 1, r² = 1/3, times 3).
    for mu in (1.2, 4 / 3 - 1e-9, 4 / 3 + 1e-9, 1.5):
        p_plus = painleve_parameters(reduced.A, reduced.B, reduced.C, mu).p_plus
        assert (p_plus < 0) == (mu > mu_p)


def _random_system(draw_seed: int, n: int):
    rng = np.random.default_rng(draw_seed)
    factor = rng.normal(size=(n, n))
    mass_matrix = factor @ factor.T + 0.05 * np.eye(n)
    jacobian = rng.normal(size=(2, n))
    return rng, jnp.asarray(mass_matrix), jnp.asarray(jacobian)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 6))
def test_reduced_equations_reproduce_the_full_accelerations(seed, n):
    """Eqs. 8–9: for any contact forces, u̇ and v̇ of the full system equal a + Aλ_T + Bλ_N and b + Bλ_T + Cλ_N."""
    rng, mass_matrix, jacobian = _random_system(seed, n)
    force, velocity, rate, forces = rng.normal(size=n), rng.normal(size=n), rng.normal(size=2), rng.normal(size=2)
    reduced = reduced_dynamics(mass_matrix, jacobian, jnp.asarray(force), jnp.asarray(velocity), jnp.asarray(rate))
    lambda_n, lambda_t = forces
    acceleration = np.linalg.solve(np.asarray(mass_matrix), force + np.asarray(jacobian).T @ forces)
    v_dot, u_dot = np.asarray(jacobian) @ acceleration + rate
    np.testing.assert_allclose(reduced.tangential_acceleration(lambda_t, lambda_n), u_dot, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(reduced.normal_acceleration(lambda_t, lambda_n), v_dot, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose([reduced.v, reduced.u], np.asarray(jacobian) @ velocity, rtol=1e-12, atol=1e-12)


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 6),
    mu=st.floats(1e-3, 50.0, allow_nan=False, allow_infinity=False),
)
def test_eq_10_and_eq_11_for_positive_definite_mass_matrices(seed, n, mu):
    """A > 0, C > 0, AC − B² > 0 (Eq. 10), hence at most one of k±, p± is non-positive (Eq. 11)."""
    _, mass_matrix, jacobian = _random_system(seed, n)
    zeros = jnp.zeros(n)
    reduced = reduced_dynamics(mass_matrix, jacobian, zeros, zeros, jnp.zeros(2))
    assert reduced.A > 0 and reduced.C > 0 and reduced.A * reduced.C - reduced.B**2 > 0
    parameters = painleve_parameters(reduced.A, reduced.B, reduced.C, mu)
    values = np.array([parameters.p_plus, parameters.p_minus, parameters.k_plus, parameters.k_minus])
    assert np.sum(values <= 0) <= 1
    assert bool(at_most_one_nonpositive(parameters))


def test_eq_11_check_fails_without_positive_definiteness():
    """The check is not vacuous: with AC < B² two of the four can be negative at once."""
    parameters = painleve_parameters(A=1.0, B=2.0, C=1.0, mu=1.0)  # p⁺ = k⁺ = −1
    assert not bool(at_most_one_nonpositive(parameters))


@pytest.mark.parametrize(
    ("B", "mu", "negative"),
    [(0.3, 0.5, "p_plus"), (-0.3, 0.5, "p_minus"), (0.3, 0.2, "k_plus"), (-0.3, 0.2, "k_minus")],
)
def test_each_parameter_can_be_the_negative_one(B, mu, negative):
    """A = 1.1, |B| = 0.3, C = 0.1 (Fig. 9): each of the four can be the single negative one."""
    parameters = painleve_parameters(1.1, B, 0.1, mu)
    signs = {name: float(getattr(parameters, name)) < 0 for name in ("p_plus", "p_minus", "k_plus", "k_minus")}
    assert signs == {name: name == negative for name in signs}
