"""Kinematics of the Painlevé rod against automatic differentiation and the paper's closed forms."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from regcontact.systems.rod import PainleveRod, slender_inertia

STATES = np.random.default_rng(0).uniform(-2.0, 2.0, size=(20, 6))


@pytest.mark.slow
@pytest.mark.parametrize("state", STATES)
def test_jacobian_is_the_derivative_of_the_gap(state):
    rod = PainleveRod(length=1.7)
    q = jnp.asarray(state[:3])
    np.testing.assert_allclose(rod.jacobian(q), jax.jacfwd(rod.gap)(q), rtol=0, atol=1e-15)


@pytest.mark.parametrize("state", STATES)
def test_jacobian_rate_is_the_second_derivative_of_the_gap(state):
    """``g̈ = J v̇ + J̇ v``, so ``J̇ v`` is the second derivative of ``g`` along ``q̇ = v`` with ``v̇ = 0``."""
    rod = PainleveRod(length=0.9)
    q, v = jnp.asarray(state[:3]), jnp.asarray(state[3:])
    gap_rate = lambda q_: rod.jacobian(q_) @ v  # noqa: E731
    np.testing.assert_allclose(rod.jacobian_rate(q, v), jax.jvp(gap_rate, (q,), (v,))[1], atol=1e-14)


def test_initial_state_touches_the_ground_at_rest_normally():
    rod = PainleveRod(phi0=0.7, vx0=-0.3, omega0=1.3)
    q0, v0 = rod.initial_state()
    np.testing.assert_allclose(rod.gap(q0), [0.0, 0.0], atol=1e-15)
    normal_rate, slip_rate = rod.jacobian(q0) @ v0
    assert abs(normal_rate) < 1e-15
    assert slip_rate == pytest.approx(-0.3 + 0.5 * rod.length * np.sin(0.7) * 1.3)


def test_delassus_matrix_matches_preclik_eq_4():
    """``J M⁻¹ Jᵀ`` is the matrix of Eq. 4 (and positive definite)."""
    m, l, phi = 1.3, 2.2, 0.8
    rod = PainleveRod(mass=m, length=l, phi0=phi)
    q0, _ = rod.initial_state()
    J = rod.jacobian(q0)
    W = J @ jnp.linalg.inv(rod.mass_matrix()) @ J.T
    I = slender_inertia(m, l)
    c, s = np.cos(phi), np.sin(phi)
    expected = np.array(
        [
            [1 / m + l**2 / (4 * I) * c**2, -(l**2) / (4 * I) * s * c],
            [-(l**2) / (4 * I) * s * c, 1 / m + l**2 / (4 * I) * s**2],
        ]
    )
    np.testing.assert_allclose(W, expected, rtol=1e-14)
    assert np.all(np.linalg.eigvalsh(np.asarray(W)) > 0)
