"""Every study kind prints or records a convergence order only from three distinct α (or δt) or more
(:func:`regcontact.convergence.why_no_order`); with fewer its text says "no order (why)" and its value is empty.
Built from rows and configs, not solves: each check takes milliseconds."""

import numpy as np
import pytest

from regcontact.studies import ConfigError, landing_study, load_config, trajectory_study
from regcontact.studies.multiple_impacts_study import ChainImpact


def _moreau_rows(dts, order=1.0):
    """Moreau–Jean rows whose distances fall as δt^order."""
    return [{"dt": dt, "distance_q": 0.3 * dt**order, "distance_v": 2.0 * dt**order, "event_error": None} for dt in dts]


def test_a_repeated_time_step_gives_no_order_and_says_why():
    """``moreau_jean.dt = [0.01, 0.01]``: two runs, one δt; an order through them would be a number from nothing."""
    orders = trajectory_study._orders(_moreau_rows([0.01, 0.01]), "dt", -1.0)
    assert orders["distance_q"] is None and orders["distance_v"] is None
    line = trajectory_study._order_line("Moreau–Jean, as δt → 0", "δt", orders)
    assert "distance_q: no order (only 1 distinct δt with the reference's events and distance_q > 0)" in line
    assert "order 0." not in line and "0.01…0.01" not in line


def test_two_distinct_time_steps_give_no_order_and_three_give_the_true_one():
    two = trajectory_study._orders(_moreau_rows([0.01, 0.001, 0.001]), "dt", -1.0)
    assert two["distance_q"] is None and two["no_order"]["distance_q"].startswith("only 2 distinct δt")
    three = trajectory_study._orders(_moreau_rows([0.01, 0.01, 0.001, 1e-4]), "dt", -1.0)
    assert three["distance_q"]["order"] == pytest.approx(1.0, abs=1e-12)
    assert three["distance_q"]["local_orders"] == [pytest.approx(1.0, abs=1e-12)] * 2
    assert "distance_q" not in three["no_order"]


def _chain(alphas, order=0.5):
    alphas = np.asarray(alphas, dtype=float)
    limit = np.array([0.0, 1.0])
    compliant = limit + np.outer(alphas**-order, [1.0, 0.5])
    return ChainImpact(alphas, limit, compliant, np.ones(alphas.size, dtype=bool))


def test_a_chains_order_needs_three_distinct_alphas_among_its_last_three():
    repeated = _chain([1e3, 1e4, 1e4, 1e4])
    assert repeated.order() is None
    assert repeated.why_no_order() == "only 2 distinct α among the last 3 with a finished run"
    assert _chain([1e2, 1e3, 1e4, 1e4]).order() == pytest.approx(0.5, abs=1e-12)


@pytest.mark.parametrize("kind", ["multiple_impacts", "landing_table"])
def test_repeated_alphas_are_refused_where_an_order_is_the_result(kind):
    raw = {"study": {"name": "s", "kind": kind}, "compliant": {"alpha": [1e3, 1e3, 1e4]}}
    with pytest.raises(ConfigError) as error:
        load_config(raw)
    assert (
        str(error.value)
        == "compliant.alpha = [1000.0, 1000.0, 10000.0]: expected at least 3 distinct values (an order)"
    )


def test_a_landing_group_without_an_order_keeps_its_counts():
    """The group's line said only "no order" where none of its landings had one, dropping its counts."""
    row = {
        "system": "rod_flat",
        "model": "preclik",
        "friction_during_impact": "coulomb",
        "converges_to": "compliant_limit",
        "laws_agree": False,
        "order_compliant_limit": None,
    }
    first = landing_study._summary([row, row])[0]
    assert first.startswith("rod_flat, preclik, friction coulomb during the impact: 2 landings; laws agree in 0;")
    assert first.endswith(
        "no order to compliant_limit (no landing has 3 distinct α with a distance above the solves' accuracy)"
    )
