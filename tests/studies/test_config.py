"""Config validation: every bad input is one error naming the key, the value and what was expected."""

from pathlib import Path

import numpy as np
import pytest

from regcontact.studies import config as cfg
from regcontact.studies.config import ConfigError, apply_override
from regcontact.studies.loading import load_study

TABLE1 = Path(__file__).parents[2] / "studies" / "table1.toml"


@pytest.mark.parametrize(
    "override, key, expected",
    [
        ("system.mass=-1", "system.mass", "positive"),
        ("system.length=0", "system.length", "positive"),
        ("system.mu=-0.5", "system.mu", "≥ 0"),
        ("system.inertia=-2", "system.inertia", "positive"),
        ("system.inertia='thick'", "system.inertia", "'slender'"),
        ("system.phi0=4", "system.phi0", "(0, π)"),
        ("system.phi0=abc", "system.phi0", "number"),
        ("system.mass=true", "system.mass", "positive number"),
        ("system.colour=1", "system.colour", "known key"),
        ("system.torque={below = 1}", "system.torque", "{below_threshold}"),
        ("contact.normal.stiffness=-3", "contact.normal.stiffness", "positive"),
        ("contact.normal.damping=-1", "contact.normal.damping", "≥ 0"),
        ("contact.normal_law=hertz_pro", "contact.normal_law", "one of"),
        ("sweep.alpha=[]", "sweep.alpha", "non-empty"),
        ("sweep.alpha=[1e3, -1]", "sweep.alpha", "positive"),
        ("sweep.alpha=1e3", "sweep.alpha", "list"),
        ("sweep.chunk_size=0", "sweep.chunk_size", "positive integer"),
        ("solver.name=RK4", "solver.name", "Kvaerno5"),
        ("solver.rtol=2", "solver.rtol", "[2.2e-14, 1)"),
        ("termination.events=['bounce']", "termination.events", "contact_open"),
        ("termination.time_limit=-1", "termination.time_limit", "contact_time"),
        ("study.kind=magic", "study.kind", "compliant_sweep"),
        ("paper.int_lambda_n=[0.3]", "paper.int_lambda_n", "one per paper.alpha"),
    ],
)
def test_bad_values_name_key_value_and_expectation(override, key, expected):
    with pytest.raises(ConfigError) as info:
        load_study(TABLE1, [override])
    assert info.value.key == key
    message = str(info.value)
    assert message.startswith(f"{key} = ")
    assert expected in message
    assert "\n" not in message


def test_missing_required_key(tmp_path):
    config = tmp_path / "study.toml"
    config.write_text('[study]\nname = "x"\n')
    with pytest.raises(ConfigError, match=r"sweep\.alpha = \(missing\)"):
        load_study(config)


def test_toml_syntax_error_names_the_file(tmp_path):
    config = tmp_path / "broken.toml"
    config.write_text("[study\nname = 1\n")
    with pytest.raises(ConfigError, match="broken.toml"):
        load_study(config)


def test_overrides_reach_the_config_and_keep_defaults():
    loaded = load_study(TABLE1, ["system.mu=2", "system.phi0=1.0", "solver.rtol=1e-6", "sweep.alpha=[1e4]"])
    config = loaded.config
    assert config["system"]["mu"] == 2.0 and config["system"]["phi0"] == 1.0
    assert config["solver"]["rtol"] == 1e-6 and config["sweep"]["alpha"] == [1e4]
    assert config["system"]["mass"] == 1.0
    assert config["paper"]["alpha"] == [], "paper values belong to the file's system"
    assert any("system.mu" in note for note in loaded.notes)


def test_override_syntax():
    raw = {"a": {"b": 1}}
    apply_override(raw, "a.c=hello")
    apply_override(raw, "d.e=[1, 2]")
    assert raw == {"a": {"b": 1, "c": "hello"}, "d": {"e": [1, 2]}}
    with pytest.raises(ConfigError, match="key.path=value"):
        apply_override(raw, "novalue")
    with pytest.raises(ConfigError, match="a.b"):
        apply_override(raw, "a.b.c=1")


def test_torque_below_threshold_is_resolved_from_the_rod():
    from regcontact.studies.system_config import rod_from_config

    loaded = load_study(TABLE1, ["system.torque={below_threshold = 1.0}"])
    rod = rod_from_config(loaded.config["system"])
    # Preclik Sec. 2.2: τ = 2 f_y I / (m l cos φ) − 1 with m = 1, l = 2, I = 1/3, g = 1, φ = π/3
    assert float(rod.torque) == pytest.approx(2 * (-1) * (1 / 3) / (1 * 2 * 0.5) - 1, rel=1e-14)


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted((Path(__file__).parents[2] / "studies").glob("*.toml")), ids=lambda p: p.name)
def test_every_shipped_study_is_valid(path):
    loaded = load_study(path)
    assert loaded.config["study"]["name"] == path.stem
    assert loaded.notes == ()


def test_a_swept_key_takes_a_range():
    loaded = load_study(TABLE1, ["sweep.alpha={logspace=[3, 8, 6]}", "sweep.mu={linspace=[1.4, 2.0, 4]}"])
    assert loaded.config["sweep"]["alpha"] == [1e3, 1e4, 1e5, 1e6, 1e7, 1e8]
    np.testing.assert_allclose(loaded.config["sweep"]["mu"], [1.4, 1.6, 1.8, 2.0])


def _never_built(*args, **kwargs):
    raise AssertionError("a refused range was built")


@pytest.mark.parametrize(
    "assignment, expected",
    [
        ("sweep.alpha={logspace=[3, 8]}", "{linspace = [a, b, n]} / {logspace = [a, b, n]} with 1 ≤ n ≤ 10,000,000"),
        ("sweep.alpha={linspace=[1, 2, 0]}", "{linspace = [a, b, n]} / {logspace = [a, b, n]} with 1 ≤ n ≤ 10,000,000"),
        (
            "sweep.alpha={linspace=[1, 2, 2.5]}",
            "{linspace = [a, b, n]} / {logspace = [a, b, n]} with 1 ≤ n ≤ 10,000,000",
        ),
        (
            "sweep.alpha={geomspace=[1, 2, 3]}",
            "{linspace = [a, b, n]} / {logspace = [a, b, n]} with 1 ≤ n ≤ 10,000,000",
        ),
        ("sweep.alpha={linspace=[1e3, 1e4, 1e12]}", "with 1 ≤ n ≤ 10,000,000"),  # 7 TiB, refused before it is built
        ("sweep.alpha={logspace=[3, 8, 10000001]}", "with 1 ≤ n ≤ 10,000,000"),
        ("sweep.alpha={linspace=[-1, 2, 3]}", "a list of positive numbers, each a positive number"),
        ("sweep.mu={linspace=[-1, 2, 3]}", "each"),
    ],
)
def test_a_bad_range_is_one_line_naming_the_key(assignment, expected, monkeypatch):
    if "1e12" in assignment or "10000001" in assignment:  # too long: refused before it is built
        monkeypatch.setitem(cfg.RANGES, "linspace", _never_built)
        monkeypatch.setitem(cfg.RANGES, "logspace", _never_built)
    with pytest.raises(ConfigError) as error:
        load_study(TABLE1, [assignment])
    message = str(error.value)
    assert message.startswith(assignment.split("=")[0] + " = ") and expected in message and "\n" not in message
