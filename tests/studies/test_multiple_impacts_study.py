"""``kind = "multiple_impacts"``: a small cradle through the study, its order and its limit's balances."""

from __future__ import annotations

import pytest

import regcontact as rc
from regcontact.studies import ConfigError, load_config

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
