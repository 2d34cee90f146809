"""A relative tolerance float64 cannot meet is refused, never solved.

Below 100 float64 epsilons (2.2e-14, the floor SciPy's and MATLAB's integrators clamp to) a step's error estimate
is round-off: at rtol 1e-100 the Table 1 run at α = 1e3 ended ``ok`` with (0.1244, 0.1865) for (0.3638, 0.4482).
Such an rtol is refused in one line by ``Controls`` and by every study's config, and fails its run by name
(``invalid_tolerance``) when it arrives traced. A tolerance that no step can meet at a point of the run ends it
there by name (``dt_min_reached``) instead of crawling through its step budget.
"""

import contextlib
import io
import os
import tempfile
from pathlib import Path

import equinox as eqx
import jax.tree_util as jtu
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import regcontact as rc
from regcontact._argument_checks import MIN_RTOL, ArgumentError
from regcontact.cli import main
from regcontact.contact import ContactModel

STUDIES = Path(__file__).parents[2] / "studies"
TABLE1 = STUDIES / "table1.toml"
ROD = rc.PainleveRod()

#: rtol below the floor, log-uniform over float64's normal range down to 1e-300.
UNREACHABLE = st.floats(min_value=-300.0, max_value=np.log10(MIN_RTOL) - 1e-9).map(lambda e: 10.0**e)


@given(rtol=UNREACHABLE)
@settings(max_examples=40, deadline=None)
def test_controls_refuse_an_rtol_below_100_epsilons_in_one_line(rtol):
    with pytest.raises(ArgumentError) as refused:
        rc.Controls(rtol=rtol, t_max=1.0)
    assert refused.value.name == "rtol"
    assert str(refused.value).startswith(f"rtol = {rtol!r}: expected a number in [2.2e-14, 1)")
    assert "\n" not in str(refused.value)


def test_the_floor_itself_is_taken():
    assert float(rc.Controls(rtol=MIN_RTOL, t_max=1.0).rtol) == MIN_RTOL
    with pytest.raises(ArgumentError):
        rc.Controls(rtol=np.nextafter(MIN_RTOL, 0.0), t_max=1.0)


@given(rtol=UNREACHABLE)
@settings(max_examples=10, deadline=None)
def test_the_config_refuses_it_naming_the_key_and_writes_nothing(rtol):
    with tempfile.TemporaryDirectory() as out, contextlib.redirect_stderr(io.StringIO()) as err:
        assert main(["run", str(TABLE1), "--set", f"solver.rtol={rtol!r}", "--out", out]) == 2
        assert os.listdir(out) == []
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"regcontact: config error: solver.rtol = {rtol!r}: expected")


@pytest.mark.parametrize(
    ("study", "key"),
    [
        ("chatter.toml", "compliant.rtol"),
        ("spatial_crossing.toml", "compliant.rtol"),
        ("dynamic_jam.toml", "compliant.rtol"),
        ("landing_table.toml", "compliant.rtol"),
        ("multiple_impacts.toml", "compliant.rtol"),
        ("rigid_trajectories.toml", "compliant.rtol"),
        ("rigid_trajectories.toml", "event_driven.rtol"),
    ],
)
def test_every_kind_with_an_rtol_refuses_it_before_work(study, key, capsys):
    assert main(["check", str(STUDIES / study), "--set", f"{key}=1e-100"]) == 2
    expected = f"regcontact: config error: {key} = 1e-100: expected a number in [2.2e-14, 1)"
    assert capsys.readouterr().err.startswith(expected)


@pytest.mark.slow
def test_a_traced_unreachable_rtol_fails_its_run_and_a_reachable_one_agrees_with_rtol_1e_12():
    """Cases built by tree operations carry their rtol traced into the sweep: those below the floor fail as
    ``invalid_tolerance`` and are not integrated; 1e-13 and 1e-12 give the same integrals."""
    rtols = np.array([1e-12, 1e-100, 1e-300, 1e-16, np.nextafter(MIN_RTOL, 0.0), 1e-13])
    n, alpha = len(rtols), 1e3
    t_max = float(rc.contact_time(ROD, alpha))
    controls = rc.Controls(rtol=np.full(n, 1e-10), atol=np.full(n, 1e-14), t_max=np.full(n, t_max))
    controls = eqx.tree_at(lambda c: c.rtol, controls, rtols)
    batch = lambda leaf: np.broadcast_to(np.asarray(leaf), (n, *np.shape(leaf))).copy()  # noqa: E731
    cases = rc.Case(jtu.tree_map(batch, ROD), jtu.tree_map(batch, ContactModel()), np.full(n, alpha), controls)
    runs, _ = rc.sweep(cases, rc.SolveSettings(), chunk_size=n)
    expected = ["passed"] + ["invalid_tolerance"] * 4 + ["passed"]
    assert list(runs.check_name) == expected
    np.testing.assert_array_equal(np.asarray(runs.num_steps)[1:5], 0)  # not integrated
    integrals = np.asarray(runs.force_integrals)
    np.testing.assert_allclose(integrals[5], integrals[0], rtol=1e-10)


def _sliding_mode(controller):
    """``y' = -sign(y)`` from ``y = 1``: at ``t = 1`` the solution reaches 0 and every step past it chatters, so
    no step, however short, meets the tolerance there."""
    import diffrax
    import jax.numpy as jnp

    from regcontact.compliant.solvers import RadauIIA5

    field = diffrax.ODETerm(lambda t, y, args: -jnp.sign(y))
    return diffrax.diffeqsolve(
        field,
        RadauIIA5(),
        0.0,
        2.0,
        None,
        jnp.ones(1),
        stepsize_controller=controller(rtol=1e-10, atol=1e-12),
        max_steps=100_000,
        throw=False,
        saveat=diffrax.SaveAt(t1=True),
    )


def test_a_tolerance_no_step_can_meet_ends_the_run_by_name_instead_of_crawling():
    import diffrax

    from regcontact.compliant.solvers import StepFloorController

    crawled = _sliding_mode(diffrax.PIDController)
    assert crawled.result == diffrax.RESULTS.max_steps_reached  # diffrax's own controller spends the budget
    stopped = _sliding_mode(StepFloorController)
    assert stopped.result == diffrax.RESULTS.dt_min_reached
    assert int(stopped.stats["num_steps"]) < 1_000
    assert abs(float(stopped.ts[-1]) - 1.0) < 1e-9  # it stops at the corner, where no step can meet it


def test_the_step_floor_leaves_a_healthy_run_step_for_step_and_its_status_fails_the_run():
    import diffrax

    from regcontact.compliant._solve import SOLVER_STATUSES, _status_index

    alpha = 1e8
    run = rc.solve(ROD, ContactModel(), alpha, rc.Controls(t_max=rc.contact_time(ROD, alpha)))
    assert (run.status_name, run.check_name, int(run.num_steps), int(run.num_rejected_steps)) == (
        "successful",
        "passed",
        269,
        39,
    )  # the steps diffrax.PIDController takes on this run
    code = int(_status_index(diffrax.RESULTS.dt_min_reached))
    assert SOLVER_STATUSES[code] == "dt_min_reached"
    failed = eqx.tree_at(lambda r: r.status, run, np.asarray(code))
    assert not bool(failed.ok)


@pytest.mark.parametrize(
    ("name", "rtol", "atol"), [("rtol", 1e-100, 1e-12), ("rtol", 1.5, 1e-12), ("atol", 1e-10, 0.0)]
)
def test_the_step_floor_controller_applies_the_tolerance_rules_itself(name, rtol, atol):
    """Built directly (not through Controls), the controller refuses what Controls refuses; a traced tolerance is
    the run's to check and is taken."""
    import jax

    from regcontact.compliant.solvers import StepFloorController

    with pytest.raises(ArgumentError) as refused:
        StepFloorController(rtol=rtol, atol=atol)
    assert refused.value.name == name
    traced = jax.jit(lambda r: StepFloorController(rtol=r, atol=1e-12).rtol)(1e-100)
    assert float(traced) == 1e-100
