"""Rigid slip of the 3D rod: it crosses p = 0 transversally, away from b = 0 (Champneys & Várkonyi Sec. 7.2)."""

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from scipy.integrate import solve_ivp

from regcontact.rigid import SLIP_OUTCOMES, rigid_slip, spatial_slip_problem
from regcontact.systems import spatial_contact_space_form
from regcontact.systems.spatial_rod import SpatialRod

pytestmark = pytest.mark.slow

#: Fig. 17's rod (μ = 1, ρ = 0.1 l) slipping obliquely at θ₀ = 1.2, ϕ₀ − ψ₀ = 1.3.
ROD = SpatialRod(gyration=0.1, mu=1.0, theta0=1.2, slip0=(math.cos(1.3), math.sin(1.3)))


@pytest.fixture(scope="module")
def slip():
    return jax.jit(rigid_slip)(ROD)


def test_the_slip_crosses_p_zero_transversally_away_from_b_zero(slip):
    """At the crossing ``b`` is far from 0 (the G-spot), the slip is oblique (``sin(ϕ − ψ)`` far from 0), and
    ``dp/ds`` (autodiff along the flow) is the closed form ``b μ (ê⊥·B)(ê⊥·(B − μAê)) / |u|``, negative."""
    assert SLIP_OUTCOMES[int(slip.outcome)] == "crossing"
    q, v, t = slip.end
    problem = spatial_slip_problem(ROD, q, v, t)
    assert abs(float(problem.painleve)) < 1e-9 * float(spatial_contact_space_form(ROD, q, v).C)
    b = float(slip.end_free_normal_acceleration)
    assert b < -0.5 * float(ROD.gravity)
    psi = float(q[4])
    assert abs(math.sin(float(slip.end_phi) - psi)) > 0.5
    form = spatial_contact_space_form(ROD, q, v)
    phi = float(slip.end_phi)
    along, across = np.array([math.cos(phi), math.sin(phi)]), np.array([-math.sin(phi), math.cos(phi)])
    speed = float(jnp.linalg.norm(ROD.jacobians(q)[0, 1:] @ v))
    B, A = np.asarray(form.B), np.asarray(form.A)
    closed = float(b * (across @ B) * (across @ (B - A @ along)) / speed)
    assert float(slip.end_painleve_rate) == pytest.approx(closed, rel=1e-8)
    assert closed < -100 * abs(b)  # far from tangency on the scale of p's own rates


def test_the_rescaled_slip_is_the_slip_in_real_time(slip):
    """A sample well before the crossing is where the real-time slip ``dX/dt = F − (b/p) N`` (SciPy, Newton–Euler
    free of the s-time) gets at the same time; and ``∫λ_N dt = −∫b ds`` there."""
    k = int(np.flatnonzero(np.asarray(slip.t) < 0.8 * float(slip.end[2]))[-1])
    t_k = float(slip.t[k])

    def field(t, y):
        q, v = jnp.asarray(y[:5]), jnp.asarray(y[5:10])
        problem = spatial_slip_problem(ROD, q, v, t)
        rows = ROD.jacobians(q)[0]
        force = rows[0] * problem.normal_force + problem.tangential_force @ rows[1:]
        return np.concatenate([v, ROD.mass_solve(q, ROD.forces(q, v) + force), [problem.normal_force]])

    q0, v0 = ROD.initial_state()
    y0 = np.concatenate([q0, v0, [0.0]])
    real = solve_ivp(field, (0.0, t_k), y0, method="DOP853", rtol=1e-11, atol=1e-13)
    np.testing.assert_allclose(real.y[:5, -1], slip.q[k], atol=1e-8)
    np.testing.assert_allclose(real.y[5:10, -1], slip.v[k], atol=1e-7)
    assert real.y[10, -1] == pytest.approx(float(slip.normal_impulse[k]), rel=1e-7)


def test_the_slip_problem_has_the_modes_of_the_sign_of_p():
    """Where ``p > 0 > b`` slip is the one consistent mode; past the crossing (``p < 0``, ``b < 0``) neither is."""
    q, v = ROD.initial_state()
    start = spatial_slip_problem(ROD, q, v)
    assert float(start.painleve) > 0 and bool(start.slip_consistent) and not bool(start.free_consistent)
    assert float(jnp.linalg.norm(start.tangential_force)) == pytest.approx(float(start.normal_force), rel=1e-14)
    along_rod = SpatialRod(gyration=0.1, mu=1.0, theta0=1.2, slip0=(1.0, 0.0))  # ϕ = ψ: p < 0 at θ = 1.2
    problem = spatial_slip_problem(along_rod, *along_rod.initial_state())
    assert float(problem.painleve) < 0 and not bool(problem.slip_consistent) and not bool(problem.free_consistent)
