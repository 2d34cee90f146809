"""A relative tolerance float64 cannot meet is refused, never solved.

Below 100 float64 epsilons (2.2e-14, the floor SciPy's and MATLAB's integrators clamp to) a step's error estimate
is round-off: at rtol 1e-100 the Table 1 run at α = 1e3 ended ``ok`` with (0.1244, 0.1865) for (0.3638, 0.4482).
Such an rtol is refused in one line by ``Controls`` and by every study's config, and fails its run by name
(``invalid_tolerance``) when it arrives traced.
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
