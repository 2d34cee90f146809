"""``RadauIIA5(second_order=True)``: the semismooth Newton on the velocities only is block elimination of the full
stage-Jacobian system, so it gives the full Newton's corrections, error estimates and runs (to round-off)."""

from __future__ import annotations

import diffrax
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import regcontact  # noqa: F401  (float64)
from regcontact.compliant import IMPLICIT_SOLVERS, SOLVER_STATUSES, Controls, SolveSettings, solve
from regcontact.compliant.dynamics import CompliantState, CompliantSystem, flat_vector_field, vector_field
from regcontact.compliant.solvers import NewtonTolerances, RadauIIA5, radau_iia5_tableau
from regcontact.compliant.solvers._second_order_newton import second_order_filter, second_order_newton_step
from regcontact.compliant.termination import contact_time
from regcontact.contact import ContactModel
from regcontact.systems.rod import PainleveRod
from regcontact.systems.two_point_rod import TwoPointRod

pytestmark = pytest.mark.slow

TABLEAU = radau_iia5_tableau()


def _args(system, alpha):
    normal, friction = ContactModel().at_stiffness(alpha)
    return CompliantSystem(system=system, normal=normal, friction=friction)


def _in_contact(system, penetration, rates):
    """A state pushed into the ground by ``penetration`` (every contact) with the given velocity."""
    q0, _ = system.initial_state()
    q = q0.at[1].add(-penetration)
    impulses = jnp.zeros((system.NUM_CONTACTS, 2)).at[:, 0].set(0.1)
    return CompliantState(q=q, v=jnp.asarray(rates), impulses=impulses)


@pytest.mark.parametrize(
    ("system", "state_of"),
    [
        (PainleveRod(mu=1.5, phi0=1.0), lambda s: _in_contact(s, 1e-7, [-0.8, -0.3, 0.4])),
        (TwoPointRod(), lambda s: _in_contact(s, 1e-7, [0.6, -0.2, -0.1])),
    ],
)
def test_correction_equals_the_full_newton(system, state_of):
    """From a prediction that satisfies none of the rows (so the q-row defect matters), inside the stiff band of
    the contact laws, the reduced correction equals the ``3N × 3N`` solve's."""
    args = _args(system, 1e8)
    y0 = state_of(system).flat
    n, N = system.initial_state()[0].size, y0.size
    h = 1e-5
    stage_times = jnp.asarray(TABLEAU.c) * h
    Z = 1e-8 * jax.random.normal(jax.random.key(0), (3, N))
    A, A_inv = jnp.asarray(TABLEAU.A), jnp.asarray(TABLEAU.A_inv)

    def h_f(t, y):
        return h * flat_vector_field(t, y, args)

    hF = jax.vmap(h_f)(stage_times, y0[None, :] + Z)
    hJ = jax.vmap(jax.jacfwd(lambda t, y: h_f(t, y), argnums=1))(stage_times, y0[None, :] + Z)
    blocks = jnp.zeros((3 * N, 3 * N)).at[:].set(jnp.kron(A_inv, jnp.eye(N)))
    for i in range(3):
        blocks = blocks.at[i * N : (i + 1) * N, i * N : (i + 1) * N].add(-hJ[i])
    full = -jnp.linalg.solve(blocks, (A_inv @ Z - hF).reshape(-1)).reshape(3, N)

    reduced, hJ_last = second_order_newton_step(h_f, stage_times, y0, Z, n, A, A_inv)
    scale = float(jnp.abs(full).max())
    np.testing.assert_allclose(np.asarray(reduced), np.asarray(full), rtol=1e-9, atol=1e-12 * scale)
    expected = np.asarray(hJ[-1][:, : 2 * n])
    np.testing.assert_allclose(np.asarray(hJ_last), expected, rtol=1e-14, atol=1e-14 * np.abs(expected).max())
    # the field really has the structure the reduction assumes: q̇ = v, and nothing depends on the integrals
    np.testing.assert_array_equal(np.asarray(hJ[:, :n, :n]), 0.0)
    np.testing.assert_array_equal(np.asarray(hJ[:, :, 2 * n :]), 0.0)


def test_filter_equals_the_dense_solve():
    """``(γ I − h J)⁻¹ r`` by the velocity split against a dense solve, for a random ``J`` of the mechanical form."""
    n, k = 3, 2
    N = 2 * n + 2 * k
    keys = jax.random.split(jax.random.key(1), 4)
    hJ = jnp.zeros((N, N))
    hJ = hJ.at[:n, n : 2 * n].set(0.3 * jnp.eye(n))
    hJ = hJ.at[n:, : 2 * n].set(jax.random.normal(keys[0], (N - n, 2 * n)) * 5.0)
    r = jax.random.normal(keys[1], (N,))
    dense = jnp.linalg.solve(TABLEAU.gamma * jnp.eye(N) - hJ, r)
    split = second_order_filter(hJ[:, : 2 * n], TABLEAU.gamma, r, n)
    np.testing.assert_allclose(np.asarray(split), np.asarray(dense), rtol=1e-12, atol=1e-14)


def test_one_step_equals_the_full_solver():
    """A whole step (Newton loop, filtered estimate, dense output) from the same state and prediction."""
    rod = PainleveRod(mu=1.5, phi0=1.0)
    args = _args(rod, 1e6)
    y0 = _in_contact(rod, 1e-6, [-0.8, -0.3, 0.4])
    term = diffrax.ODETerm(vector_field)
    outs = []
    for second_order in (False, True):
        solver = RadauIIA5(second_order=second_order, root_finder=NewtonTolerances(rtol=1e-10, atol=1e-12))
        state = solver.init(term, 0.0, 1e-6, y0, args)
        y1, error, _, state, result = eqx.filter_jit(solver.step)(term, 0.0, 1e-6, y0, args, state, False)
        outs.append((y1.flat, error.flat, state.coeffs, result))
    (y_full, e_full, c_full, r_full), (y_red, e_red, c_red, r_red) = outs
    assert r_full == r_red == diffrax.RESULTS.successful
    np.testing.assert_allclose(np.asarray(y_red), np.asarray(y_full), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(np.asarray(e_red), np.asarray(e_full), rtol=1e-6, atol=1e-18)
    np.testing.assert_allclose(np.asarray(c_red), np.asarray(c_full), rtol=1e-9, atol=1e-16)


@eqx.filter_jit
def _table1_run(alpha, settings: SolveSettings):
    rod = PainleveRod()
    controls = Controls(rtol=jnp.asarray(1e-10), atol=jnp.asarray(1e-12), t_max=contact_time(rod, alpha))
    return solve(rod, ContactModel(), alpha, controls, settings)


@pytest.mark.parametrize("alpha", [1e3, 1e8, 1e12])
def test_table1_integrals_equal_the_full_newton(alpha, monkeypatch):
    """The default (velocities only) against the full ``24 × 24`` Newton: Table 1's integrals within 1e-11, the
    same outcome, and the step counts within a few (rounding moves a step-size decision now and then)."""
    monkeypatch.setitem(IMPLICIT_SOLVERS, "RadauIIA5_full_newton", RadauIIA5)
    full = _table1_run(jnp.asarray(alpha), SolveSettings(solver="RadauIIA5_full_newton"))
    default = _table1_run(jnp.asarray(alpha), SolveSettings(solver="RadauIIA5"))
    assert SOLVER_STATUSES[int(default.status)] == SOLVER_STATUSES[int(full.status)] == "successful"
    assert int(default.termination) == int(full.termination)
    assert abs(int(default.num_steps) - int(full.num_steps)) <= 6
    np.testing.assert_allclose(np.asarray(default.force_integrals), np.asarray(full.force_integrals), atol=1e-11)
