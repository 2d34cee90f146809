"""The Radau IIA solver against closed forms, the rod against tight references, vmapped vs single solves, and
a batch in which one case cannot reach its end."""

from __future__ import annotations

from pathlib import Path

import diffrax
import equinox as eqx
import jax.numpy as jnp
import numpy as np
import optimistix as optx
import pytest
from scipy.optimize import brentq

import regcontact  # noqa: F401  (float64)
from regcontact.compliant import SOLVER_STATUSES, Controls, SolveSettings, solve, sweep
from regcontact.compliant.dynamics import CompliantState, initial_state
from regcontact.compliant.solvers import NewtonTolerances, RadauIIA5, radau_iia5_tableau
from regcontact.compliant.termination import contact_time
from regcontact.contact import ContactModel, SpringDamper, ViscousCoulomb
from regcontact.studies.compliant_study import CompliantSweepStudy, build_cases
from regcontact.studies.loading import load_study
from regcontact.systems.rod import PainleveRod
from tests.compliant.batch_promise import assert_lanes_agree
from tests.compliant.stiff_linear_problem import prothero_robinson, prothero_robinson_exact, solve_linear

TABLE1 = Path(__file__).resolve().parents[2] / "studies" / "table1.toml"
R6 = np.sqrt(6.0)


# -- the method's numbers ------------------------------------------------------------------------------------


def test_tableau_matches_the_closed_forms():
    """Hairer & Wanner IV.5, Table 5.6 and (8.19)–(8.20)."""
    tab = radau_iia5_tableau()
    np.testing.assert_allclose(tab.c, [(4 - R6) / 10, (4 + R6) / 10, 1.0], rtol=1e-15)
    A = [
        [(88 - 7 * R6) / 360, (296 - 169 * R6) / 1800, (-2 + 3 * R6) / 225],
        [(296 + 169 * R6) / 1800, (88 + 7 * R6) / 360, (-2 - 3 * R6) / 225],
        [(16 - R6) / 36, (16 + R6) / 36, 1 / 9],
    ]
    np.testing.assert_allclose(tab.A, A, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(tab.gamma, 3 + 3 ** (2 / 3) - 3 ** (1 / 3), rtol=1e-14)
    np.testing.assert_allclose(tab.error_weights, [(-13 - 7 * R6) / 3, (-13 + 7 * R6) / 3, -1 / 3], rtol=1e-12)


def test_collocation_and_order_conditions():
    tab = radau_iia5_tableau()
    for k in range(1, 4):  # C(3): stage order 3
        np.testing.assert_allclose(tab.A @ tab.c ** (k - 1), tab.c**k / k, atol=1e-15)
    for k in range(1, 6):  # B(5): order 5 quadrature
        np.testing.assert_allclose(tab.A[-1] @ tab.c ** (k - 1), 1 / k, atol=1e-15)
    Z = np.random.default_rng(0).normal(size=(3, 4))  # dense output through the stages
    beta = tab.dense @ Z
    for i, c in enumerate(tab.c):
        np.testing.assert_allclose(c * beta[0] + c**2 * beta[1] + c**3 * beta[2], Z[i], atol=1e-13)


@pytest.mark.slow
def test_order_five_with_fixed_steps():
    """y' = −y + sin t (not stiff): halving the step divides the error by about 2⁵."""
    solver = RadauIIA5(root_finder=NewtonTolerances(rtol=1e-14, atol=1e-16))

    def vector_field(t, y, args):
        return -y + jnp.sin(t)

    def exact(t):
        return 1.5 * jnp.exp(-t) + 0.5 * (jnp.sin(t) - jnp.cos(t))

    errors = []
    for dt in [0.2, 0.1, 0.05]:
        sol = diffrax.diffeqsolve(
            diffrax.ODETerm(vector_field),
            solver,
            0.0,
            2.0,
            dt,
            jnp.array([1.0]),
            stepsize_controller=diffrax.ConstantStepSize(),
        )
        errors.append(abs(float(sol.ys[-1, 0] - exact(2.0))))
    orders = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    assert np.all(orders > 4.7), orders


# -- the stiff linear test y' = −L (y − g) + g' --------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("stiffness", [1e4, 1e8, 1e12])
def test_linear_stiff_problem_against_its_closed_form(stiffness):
    """Every step within 10× the tolerance the error estimate is held to: rtol itself with literal tolerances,
    RADAU5's 0.1 rtol^(2/3) by default (the solution is of order 5, the estimate of order 3)."""
    rtol = 1e-8
    for solver, held_to in [(RadauIIA5(radau5_tolerances=False), rtol), (RadauIIA5(), 0.1 * rtol ** (2 / 3))]:
        sol = solve_linear(solver, jnp.asarray(stiffness), jnp.asarray(rtol))
        steps = int(sol.stats["num_accepted_steps"])
        ts, ys = np.asarray(sol.ts[:steps]), np.asarray(sol.ys[:steps, 0])
        assert ts[-1] == 2.0 and steps < 400
        error = np.max(np.abs(ys - prothero_robinson_exact(ts, stiffness)))
        assert error <= 10 * held_to, (solver.radau5_tolerances, error)


@pytest.mark.slow
def test_dense_output_has_order_three():
    """Between steps the output is the collocation polynomial (degree 3): its error at the middle of each step
    falls like h⁴ (y' = −y + sin t, fixed steps)."""
    solver = RadauIIA5(root_finder=NewtonTolerances(rtol=1e-14, atol=1e-16))

    def vector_field(t, y, args):
        return -y + jnp.sin(t)

    errors = []
    for dt in [0.2, 0.1, 0.05]:
        mids = jnp.arange(dt / 2, 2.0, dt)
        sol = diffrax.diffeqsolve(
            diffrax.ODETerm(vector_field),
            solver,
            0.0,
            2.0,
            dt,
            jnp.array([1.0]),
            saveat=diffrax.SaveAt(ts=mids),
            stepsize_controller=diffrax.ConstantStepSize(),
        )
        exact = 1.5 * np.exp(-mids) + 0.5 * (np.sin(mids) - np.cos(mids))
        errors.append(np.max(np.abs(np.asarray(sol.ys[:, 0]) - exact)))
    orders = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    assert np.all(orders > 3.7), orders


@pytest.mark.slow
def test_dense_output_locates_an_event_in_a_fast_transient():
    """y = 0.5 crossed downwards in the transient of the stiff linear test (L = 1e6, t ≈ ln 2 / L)."""
    L = 1e6
    event = diffrax.Event(lambda t, y, args, **kw: y[0] - 0.5, root_finder=optx.Newton(rtol=1e-12, atol=1e-15))
    sol = diffrax.diffeqsolve(
        diffrax.ODETerm(prothero_robinson),
        RadauIIA5(),
        0.0,
        2.0,
        None,
        jnp.array([1.0]),
        args=L,
        event=event,
        stepsize_controller=diffrax.PIDController(rtol=1e-10, atol=1e-12),
    )
    exact = brentq(lambda t: prothero_robinson_exact(t, L) - 0.5, 0.0, 10 / L, xtol=1e-16, rtol=1e-15)
    assert sol.result == diffrax.RESULTS.event_occurred
    assert abs(float(sol.ts[-1]) - exact) <= 1e-8 * exact


@pytest.mark.slow
def test_dense_output_locates_touch_down_in_free_flight():
    """A body in free fall (the rod before touch-down): the collocation polynomial reproduces the quadratic
    motion, so the event time is exact up to the root finder: t = (v + √(v² + 2 g h)) / g."""
    gravity, height, velocity = 10.0, 0.3, 1.5

    def free_fall(t, y, args):
        return jnp.stack([y[1], -gravity])

    event = diffrax.Event(lambda t, y, args, **kw: y[0], root_finder=optx.Newton(rtol=1e-14, atol=1e-15))
    sol = diffrax.diffeqsolve(
        diffrax.ODETerm(free_fall),
        RadauIIA5(),
        0.0,
        5.0,
        None,
        jnp.array([height, velocity]),
        event=event,
        stepsize_controller=diffrax.PIDController(rtol=1e-6, atol=1e-8),
    )
    exact = (velocity + np.sqrt(velocity**2 + 2 * gravity * height)) / gravity
    assert sol.result == diffrax.RESULTS.event_occurred
    assert int(sol.stats["num_accepted_steps"]) < 10  # long steps: the event lies inside one
    np.testing.assert_allclose(float(sol.ts[-1]), exact, rtol=1e-13)
    np.testing.assert_allclose(np.asarray(sol.ys[-1]), [0.0, velocity - gravity * exact], atol=1e-12)


# -- the rod --------------------------------------------------------------------------------------------------

ROD = PainleveRod()
CONTACT = ContactModel()


@eqx.filter_jit
def _table1_run(alpha, rtol, settings: SolveSettings):
    controls = Controls(rtol=rtol, atol=rtol * 1e-2, t_max=contact_time(ROD, alpha))
    return solve(ROD, CONTACT, alpha, controls, settings)


TABLE1_SETTINGS = SolveSettings(solver="RadauIIA5")
REFERENCE_SETTINGS = SolveSettings(solver="RadauIIA5_literal_tolerances")


@pytest.mark.slow
@pytest.mark.parametrize("alpha", [1e3, 1e12])
def test_rod_table1_run_against_a_tight_reference(alpha):
    run = _table1_run(jnp.asarray(alpha), jnp.asarray(1e-10), TABLE1_SETTINGS)
    reference = _table1_run(jnp.asarray(alpha), jnp.asarray(1e-13), REFERENCE_SETTINGS)
    assert SOLVER_STATUSES[int(run.status)] == SOLVER_STATUSES[int(reference.status)] == "successful"
    assert int(run.num_accepted_steps) <= 500
    np.testing.assert_allclose(np.asarray(run.force_integrals), np.asarray(reference.force_integrals), atol=1e-10)


@pytest.mark.slow
def test_switch_aware_solve_with_several_switches_against_a_tight_reference():
    """A rod bouncing on a spring-damper at α = 1e8 (three touch-downs, where the force jumps, and three
    lift-offs, all located and restarted at), against a reference with literal tolerances at rtol 1e-12. The
    bound is a few times RADAU5's transformed tolerance 0.1 rtol^(2/3) ≈ 2e-8 on the O(1) state."""
    rod = PainleveRod(mu=0.3, gravity=10.0, phi0=1.2, vx0=0.3)
    y0 = CompliantState.from_flat(initial_state(rod).flat.at[1].add(0.02).at[4].set(-1.0), 3)
    contact = ContactModel(
        normal=SpringDamper(stiffness=1.0, damping=0.1),
        friction=ViscousCoulomb(damping=1.0),
        normal_exponents=SpringDamper(stiffness=1.0, damping=0.5),
    )

    @eqx.filter_jit
    def run(rtol, settings):
        return solve(rod, contact, jnp.asarray(1e8), Controls(rtol=rtol, atol=rtol * 1e-2, t_max=0.5), settings, y0)

    result = run(jnp.asarray(1e-10), SolveSettings(solver="RadauIIA5", events=(), restart_at=("contact",)))
    reference = run(
        jnp.asarray(1e-12), SolveSettings(solver="RadauIIA5_literal_tolerances", events=(), restart_at=("contact",))
    )
    assert int(result.status) == int(reference.status) == 0
    assert int(result.num_restarts) >= 4 and int(reference.num_restarts) >= 4
    np.testing.assert_allclose(np.asarray(result.state_end.flat), np.asarray(reference.state_end.flat), atol=1e-7)


@pytest.mark.slow
def test_vmapped_and_single_solves_agree():
    """The force integrals agree to round-off. At α = 1e12 the contact force itself carries round-off of about
    1e-4 (k g_n with k = 1e12 and g_n from O(1) coordinates), so batched and single arithmetic, equal up to the
    last bit, may take a few different steps; at α = 1e3 the steps are the same."""
    loaded = load_study(
        TABLE1, ["solver.name=RadauIIA5", "solver.rtol=1e-10", "solver.atol=1e-12", "sweep.alpha=[1e3, 1e12]"]
    )
    _, cases = build_cases(loaded.config)
    runs, _ = sweep(cases, TABLE1_SETTINGS)
    for i, alpha in enumerate(np.asarray(cases.alpha)):
        single = _table1_run(jnp.asarray(alpha), jnp.asarray(1e-10), TABLE1_SETTINGS)
        steps = np.array([runs.num_accepted_steps[i], runs.num_rejected_steps[i]])
        single_steps = np.array([int(single.num_accepted_steps), int(single.num_rejected_steps)])
        assert_lanes_agree(
            runs.force_integrals[i],
            single.force_integrals,
            "RadauIIA5",
            1e-10,
            1e-12,
            steps=(steps, single_steps) if alpha < 1e4 else None,
            same_compilation=False,
        )
        assert np.all(np.abs(steps - single_steps) <= 0.05 * single_steps.sum()), (steps, single_steps)


@pytest.mark.slow
def test_a_case_that_cannot_finish_is_reported_and_the_batch_stands():
    """A budget of 200 steps: α = 1e3 needs about 160 at rtol 1e-10, α = 1e8 about 270. The second case says
    that it ran out of steps and where it stopped; the first is the same as alone."""
    loaded = load_study(
        TABLE1,
        [
            "solver.name=RadauIIA5",
            "solver.rtol=1e-10",
            "solver.atol=1e-12",
            "solver.max_steps=200",
            "sweep.alpha=[1e3, 1e8]",
        ],
    )
    result = CompliantSweepStudy().run(loaded.config)
    good, stalled = result.rows
    assert good["status"] == "successful" and good["termination"] == "time_limit"
    assert stalled["status"] == "max_steps_reached" and stalled["t_end"] < stalled["t_max"]
    assert stalled["termination"] == "failed" and stalled["int_lambda_n"] is None  # no result, not a partial one
    assert result.failures == ["alpha=1e+08: max_steps_reached"]
    reference = _table1_run(jnp.asarray(1e3), jnp.asarray(1e-13), REFERENCE_SETTINGS)
    np.testing.assert_allclose(
        [good["int_lambda_n"], good["int_lambda_t"]], np.asarray(reference.force_integrals), atol=1e-9
    )
