"""Beyond the 3D crossing (``kind = "spatial_crossing"``): the configured Fig. 17 rod crosses p = 0 away from the
G-spot, every compliant run is an IWC into stick that approaches the rigid one at order 1/2; a spatial system in a
planar study, a planar one in the spatial study and bad rod keys stop with one line and write nothing."""

from pathlib import Path

import pytest

from regcontact.cli import main
from regcontact.studies import crossing_study
from regcontact.studies.loading import load_study

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
CROSSING = ROOT / "studies" / "spatial_crossing.toml"


@pytest.fixture(scope="module")
def study():
    return crossing_study.SpatialCrossingStudy().run(load_study(CROSSING, ["compliant.alpha=[1e4, 1e6, 1e8]"]).config)


def test_the_rod_crosses_and_every_run_jumps_into_stick_converging(study):
    rigid = study.references["rigid"]
    assert rigid["t_cross"] == pytest.approx(0.010367, abs=1e-6)
    assert rigid["free_normal_acceleration"] == pytest.approx(-0.883, abs=1e-3)  # far from the G-spot (b = 0)
    assert rigid["impact_without_collision"]["normal_impulse"] == pytest.approx(0.093567, abs=1e-6)
    assert [row["outcome"] for row in study.rows] == ["jump_into_stick"] * 3 and not study.failures
    orders = study.extra["convergence"]
    assert orders["impulse_error"]["order"] == pytest.approx(0.5, abs=0.05)
    assert orders["velocity_error"]["order"] == pytest.approx(0.5, abs=0.05)
    assert orders["bounce"]["order"] == pytest.approx(1.0, abs=0.1)
    assert study.rows[-1]["end_slip_x1"] < 0 < study.rows[-1]["end_slip_x2"]  # slip back from rest


def _refused(tmp_path, capsys, config: Path, assignment: str, key: str, expected: str) -> None:
    out = tmp_path / "out"
    assert main(["run", str(config), "--out", str(out), "--set", assignment]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"regcontact: config error: {key} = "), err
    assert expected in err[0]
    assert not out.exists()


@pytest.mark.parametrize(
    ("assignment", "key", "expected"),
    [
        ("system.gyration=0", "system.gyration", "positive"),
        ("system.gyration=-0.1", "system.gyration", "positive"),
        ("system.slip0=[0, 0]", "system.slip0", "a non-zero slip"),
        ("system.slip0=[1]", "system.slip0", "a list of 2 numbers"),
        ("system.theta0=2", "system.theta0", "(0, π/2)"),
        ('system.kind="painleve_rod"', "system.kind", "is planar"),
        ("system.mu=0", "system.slip0", "crosses p = 0"),  # without friction p = C > 0: no crossing
        ("compliant.alpha=[]", "compliant.alpha", "non-empty"),
        ("compliant.alpha=[1e4, 0]", "compliant.alpha", "α > 0"),
        ('compliant.normal_law="hertz"', "compliant.normal_law", "spring_damper"),
    ],
)
def test_bad_input_stops_with_one_line(tmp_path, capsys, assignment, key, expected):
    _refused(tmp_path, capsys, CROSSING, assignment, key, expected)


@pytest.mark.parametrize("config", ["table1.toml", "rigid_trajectories.toml"])
def test_a_spatial_system_in_a_planar_study_is_one_line(tmp_path, capsys, config):
    _refused(tmp_path, capsys, ROOT / "studies" / config, 'system.kind="spatial_rod"', "system.kind", "is spatial")


def test_a_users_normal_law_is_the_crossings_law():
    """The crossing kind takes a user's law by class path, built with its constructor's defaults."""
    from regcontact.studies._law_config import normal_law_class

    own = Path(__file__).parent / "user_bodies" / "own_spring_damper.py"
    config = load_study(CROSSING, [f'compliant.normal_law="{own}:OwnSpringDamper"']).config
    law = normal_law_class(config["compliant"]["normal_law"])()
    assert type(law).__name__ == "OwnSpringDamper" and float(law.stiffness) == 1.0 == float(law.damping)
