"""``system.initial_penetration``: a depth or {coefficient, power}, validated, zero by default (today's numbers)."""

from pathlib import Path

import pytest

from regcontact.studies.config import ConfigError
from regcontact.studies.loading import load_study
from regcontact.studies.system_config import initial_penetration

STUDIES = Path(__file__).parents[2] / "studies"


def test_a_depth_or_a_scaling():
    table1 = load_study(STUDIES / "table1.toml")
    assert table1.config["system"]["initial_penetration"] == 0.0
    scaled = load_study(STUDIES / "sec52_penetration.toml")
    assert initial_penetration(scaled.config["system"], 1e4) == pytest.approx(1e-4)


@pytest.mark.parametrize(
    "value", ["-1.0", "{coefficient=1.0}", "{coefficient=-1.0, power=1.0}", "{coefficient=1.0, power=1.0, x=2}"]
)
def test_a_bad_penetration_is_one_line(value):
    with pytest.raises(ConfigError) as error:
        load_study(STUDIES / "table1.toml", [f"system.initial_penetration={value}"])
    assert str(error.value).startswith("system.initial_penetration = ")
    assert "expected a number ≥ 0 or a table {coefficient, power}" in str(error.value)
