"""The rigid study reproduces Preclik & Rüde Secs. 2–4 and Appendix A from its config file."""

from pathlib import Path

import numpy as np
import pytest

from regcontact.studies.config import ConfigError
from regcontact.studies.loading import load_study

pytestmark = pytest.mark.slow

RIGID = Path(__file__).parents[2] / "studies" / "rigid_painleve.toml"


@pytest.fixture(scope="module")
def result():
    loaded = load_study(RIGID)
    return loaded.kind.run(loaded.config)


def test_every_solution_matches_the_papers_printed_digits(result):
    assert result.failures == []
    assert all(row["matches_paper"] is True for row in result.rows)
    counts = {}
    for row in result.rows:
        if row["mode"] != "no solution":
            counts[(row["setup"], row["formulation"])] = counts.get((row["setup"], row["formulation"]), 0) + 1
    assert counts == {
        ("no_force_solution", "impulse_velocity"): 2,
        ("no_force_solution", "time_stepping"): 1,
        ("non_unique", "force_acceleration"): 2,
        ("non_unique", "impulse_velocity"): 2,
        ("non_unique", "time_stepping"): 3,
    }
    modes = {(r["setup"], r["formulation"], r["mode"]) for r in result.rows}
    assert ("no_force_solution", "force_acceleration", "no solution") in modes
    assert ("non_unique", "time_stepping", "S-") in modes


def test_time_stepping_converges_at_first_order(result):
    for setup in ("no_force_solution", "non_unique"):
        convergence = result.references[setup]["time_stepping_convergence"]
        assert convergence["order"] == pytest.approx(1.0, abs=0.02)
        assert np.all(np.diff(convergence["distance"]) < 0)


def test_a_repeated_time_step_prints_no_order():
    loaded = load_study(RIGID, ["convergence.dt=[0.01, 0.01]"])
    result = loaded.kind.run(loaded.config)
    for setup in ("no_force_solution", "non_unique"):
        assert result.references[setup]["time_stepping_convergence"]["order"] is None
    lines = [line for line in result.summary if "as δt → 0" in line]
    assert len(lines) == 2 and all(": no order (only 1 distinct δt) (distance" in line for line in lines), lines


def test_appendix_a(result):
    appendix = result.references["appendix_a"]
    assert appendix["mu_crit"] == pytest.approx(4 / 3, rel=1e-12)
    assert appendix["phi_star_deg"] == pytest.approx(63.435, abs=5e-4)
    assert appendix["A_at_base"] < 0


def test_a_disagreement_with_the_paper_is_reported():
    """A wrong 'paper' value in the file must surface as a failure, not pass silently."""
    loaded = load_study(RIGID)
    loaded.config["setups"]["no_force_solution"]["paper"]["time_stepping"] = [[0.3330, 0.4407]]
    result = loaded.kind.run(loaded.config)
    assert any("no_force_solution/time_stepping" in line for line in result.failures)


def test_setup_keys_are_validated_with_their_full_name():
    with pytest.raises(ConfigError) as info:
        load_study(RIGID, ["setups.non_unique.system.mass=-1"])
    assert info.value.key == "setups.non_unique.system.mass"
    loaded = load_study(RIGID, ["system.mu=2"])
    assert loaded.notes and all(p is None for s in loaded.config["setups"].values() for p in s["paper"].values())
