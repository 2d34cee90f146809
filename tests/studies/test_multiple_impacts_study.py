"""``kind = "multiple_impacts"``: a small cradle through the study, its order and its limit's balances."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import regcontact as rc
from regcontact.cli import main
from regcontact.studies import ConfigError, load_config, multiple_impacts_study

STUDY = """
[study]
name = "small_cradle"
kind = "multiple_impacts"

[chains]
cases = ["cradle"]
laws = ["spring_damper"]
balls = 3

[compliant]
alpha = [1e3, 1e4, 1e5]
"""


@pytest.mark.slow
def test_a_small_cradle_converges_at_order_2s_and_keeps_its_momentum(tmp_path):
    """A spring–damper (``s = 1/2``) in a cradle: the pendulums act ``O(T²)`` during the impact, so the distance
    to the limit falls at order 1; the limit keeps the momentum to round-off and loses energy to the dampers."""
    path = tmp_path / "small_cradle.toml"
    path.write_text(STUDY, encoding="utf-8")
    (row,) = rc.run_study(path, progress=lambda message: None).table.to_dict("records")
    assert (row["chain"], row["law"], row["balls"], row["finished_runs"]) == ("cradle", "spring_damper", 3, 3)
    assert row["order_to_limit"] == pytest.approx(1.0, abs=0.05)
    assert 0 < row["distance_to_limit"] < 1e-3
    assert abs(row["momentum_change"]) < 1e-14
    assert 0.3 < row["energy_ratio"] < 1.0


def test_two_alphas_are_refused_in_one_line():
    raw = {"study": {"name": "s", "kind": "multiple_impacts"}, "compliant": {"alpha": [1e3, 1e4]}}
    with pytest.raises(ConfigError) as error:
        load_config(raw)
    assert str(error.value) == "compliant.alpha = [1000.0, 10000.0]: expected at least 3 distinct values (an order)"


@pytest.mark.slow
def test_the_rocking_block_converges_at_order_s_under_gravity(tmp_path):
    """The block landing flat on its two corners with a spring–damper (``s = 1/2``): gravity acts ``O(T)`` during
    the impact, so the distance to the limit falls at order 1/2 (measured 0.4998 over α = 1e2 … 1e6); the floor's
    impulse is the block's change of vertical momentum, and the dampers take energy."""
    path = tmp_path / "block.toml"
    path.write_text(
        STUDY.replace('cases = ["cradle"]', 'cases = ["rocking_block"]').replace("small_cradle", "block"),
        encoding="utf-8",
    )
    (row,) = rc.run_study(path, progress=lambda message: None).table.to_dict("records")
    assert (row["chain"], row["law"], row["finished_runs"]) == ("rocking_block", "spring_damper", 3)
    assert row["balls"] is None or row["balls"] != row["balls"]  # no balls: empty (NaN in the table)
    assert row["order_to_limit"] == pytest.approx(0.5, abs=0.05)
    assert 0 < row["distance_to_limit"] < 2e-2
    assert row["momentum_change"] == pytest.approx(1.8344, abs=1e-3)  # v_y from −1 to 0.8344, m = 1
    assert 0.3 < row["energy_ratio"] < 1.0


def test_a_tapered_chain_whose_masses_span_more_than_1_over_eps_is_refused_in_one_line():
    """The lightest of ``TAPERED_MAX_BALLS`` balls is within float64's ε of the first; one more is not, and is
    refused before anything is built, naming the key, the value and the limit. Without the tapered chain the same
    count is a valid study (the other chains are equal balls)."""
    limit = multiple_impacts_study.TAPERED_MAX_BALLS
    eps = np.finfo(float).eps
    for balls, resolvable in ((limit, True), (limit + 1, False)):
        masses = np.asarray(multiple_impacts_study.chains(balls, ["tapered"])["tapered"].masses)
        assert bool(masses.min() / masses.max() >= eps) is resolvable
    raw = {"study": {"name": "s", "kind": "multiple_impacts"}, "compliant": {"alpha": [1e3, 1e4, 1e5]}}
    raw["chains"] = {"balls": 2000}
    with pytest.raises(ConfigError) as error:
        load_config(raw)
    assert str(error.value) == (
        f"chains.balls = 2000: expected at most {limit} balls with the tapered chain (its masses 0.512^i: beyond, "
        "the lightest is below float64's ε against the first, and its momentum is round-off)"
    )
    raw["chains"]["cases"] = ["cradle", "column", "rocking_block"]
    assert load_config(raw).config["chains"]["balls"] == 2000


def test_only_the_cases_asked_for_are_built():
    """2,000 balls: the tapered chain's masses would underflow (``ValueError`` from ``BallChain``), but a study
    without it does not build it; each case asked for is built, and no other."""
    with pytest.raises(ValueError, match="expected positive numbers"):
        multiple_impacts_study.chains(2000, ["tapered"])
    assert list(multiple_impacts_study.cases(2000, ["rocking_block"])) == ["rocking_block"]
    built = multiple_impacts_study.cases(4, ["column", "cradle"])
    assert list(built) == ["column", "cradle"]
    assert [chain.num_balls for chain in built.values()] == [4, 4]


def test_a_limit_impact_that_does_not_end_is_a_failure_of_its_case_not_a_traceback(tmp_path, monkeypatch, capsys):
    """The impact process given one segment (as a long chain exhausts its 200): the case's row names it with
    nothing measured, no compliant run is made, the failure is listed, and the other cases still run."""
    import importlib

    from regcontact.cli import main

    monkeypatch.setattr(importlib.import_module("regcontact.rigid._impacts.impact_process"), "MAX_SEGMENTS", 1)
    path = tmp_path / "small_cradle.toml"
    path.write_text(STUDY, encoding="utf-8")
    assert main(["run", str(path), "--out", str(tmp_path / "out")]) == 1
    printed = capsys.readouterr()
    expected = "cradle, spring_damper: no limit impact (the impact did not end within 1 segments)"
    assert expected in printed.out + printed.err
    table = pd.read_csv(tmp_path / "out" / "results.csv")
    assert list(table["chain"]) == ["cradle"] and list(table["balls"]) == [3]
    assert table[["distance_to_limit", "order_to_limit", "momentum_change", "finished_runs"]].isna().all(axis=None)


def test_the_estimate_grows_with_the_balls_under_each_law_and_sizes_the_shipped_study(monkeypatch, capsys):
    """``check``'s time grows with ``chains.balls`` (each law its own measured exponent); the shipped study's
    estimate on an idle machine stays as measured (the constants: ``docs/studies/multiple_impacts.md``, Size)."""
    from regcontact.studies.study_size import DeviceSet, study_size

    monkeypatch.setattr("regcontact.studies.study_size.load_factor", lambda: 1.0)
    kind, cpu = multiple_impacts_study.MultipleImpactsStudy(), DeviceSet("cpu", 2)
    for law in multiple_impacts_study.LAWS:
        seconds = []
        for balls in (5, 10, 20, 40):
            raw = {
                "study": {"name": "s", "kind": "multiple_impacts"},
                "chains": {"cases": ["cradle"], "laws": [law], "balls": balls},
                "compliant": {"alpha": [1e4, 1e5, 1e6]},
            }
            seconds.append(study_size(kind, load_config(raw).config, cpu).seconds)
        assert seconds == sorted(seconds) and seconds[-1] > 3 * seconds[0], law
    shipped = Path(__file__).parents[2] / "studies" / "multiple_impacts.toml"
    assert main(["check", str(shipped)]) == 0
    assert capsys.readouterr().out.splitlines()[2] == (
        "time: roughly 4.7 min for a cold run on cpu × 2 (start ~2 s, compile ~4.47 min, solve ~12 s; less with "
        "the compilation cache)"
    )


def test_a_limit_impact_faster_than_the_process_resolves_is_a_failure_of_its_case():
    """A chain whose limit impact the process does not resolve (masses 1e-30: rates past ``MAX_RATE_RTOL/rtol``)
    is a ``LimitNotFound`` naming the rate, before any compliant run, not an ``ArgumentError`` traceback."""
    chain = rc.systems.ball_chain(np.ones(3), np.full(3, 1e-30), [1.0, 0.0, 0.0])
    model = multiple_impacts_study.models(chain)["bilinear"]
    with pytest.raises(multiple_impacts_study.LimitNotFound, match="fastest normal rate = 1.41"):
        multiple_impacts_study.chain_impact(chain, model, np.array([1e4, 1e5, 1e6]))
