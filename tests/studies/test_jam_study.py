"""Beyond the jam (``kind = "dynamic_jam"``): the G1 rod given by its keys jams in case G1 and every compliant run
jumps into stick, approaching the rigid jump as α grows; bad input stops with one line and writes nothing."""

from pathlib import Path

import equinox as eqx
import numpy as np
import pytest

from regcontact.cli import main
from regcontact.studies import jam_study
from regcontact.studies.config import ConfigError
from regcontact.studies.loading import load_study

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
JAM = ROOT / "studies" / "dynamic_jam.toml"

#: The G1 rod that ``search_jamming_rod("G1")`` finds (docs/dynamic_jam.md), given by its keys.
G1_ROD = ["system.mu=1.8", "system.phi0=0.312074781712449", "system.omega0=0.9670499390811276"]
G1_ROD += ["system.vx0=-2.296917078224856", 'rods.cases=["system"]']


@pytest.fixture(scope="module")
def g1():
    fast = ["compliant.alpha=[1e4, 1e5, 1e6]", 'compliant.normal_laws=["spring_damper"]']
    return jam_study.DynamicJamStudy().run(load_study(JAM, [*G1_ROD, *fast]).config)


def test_the_g1_rod_jumps_into_stick_and_approaches_the_rigid_jump(g1):
    reference = g1.references["rigid"]["system"]
    assert reference["jam_case"] == "G1"
    assert reference["t_jam"] == pytest.approx(0.43192, abs=1e-5)
    assert reference["jump_into_stick"]["normal_impulse"] == pytest.approx(0.263381, abs=1e-6)  # at p = 0
    assert [row["outcome"] for row in g1.rows] == ["jump_into_stick"] * 3 and not g1.failures
    errors = np.abs([row["jump_impulse_error"] for row in g1.rows])
    assert np.all(np.diff(np.log10(errors)) < -0.4)  # order ≈ 1/2 (docs: 0.43 over 1e7 … 1e10)
    found = g1.extra["convergence"]["system/spring_damper"]
    assert found["converges"] and found["settled_from_alpha"] == 1e4 and found["order"] > 0.4
    assert any("converges" in line for line in g1.summary)


def test_a_g1_rod_whose_p_falls_to_round_off_first_is_a_jam():
    """μ = 2.5 under gravity alone: the G1 G-spot has α₁/α₃ ≈ 5.5, so ``p`` reaches its round-off while ``|b|`` is
    still above the jam tolerance. The ``[system]`` rod started next to it was refused ("p ≤ 0 away from the
    G-spot"); it jams, in case G1."""
    rod = ["system.mu=2.5", "system.phi0=0.4739777019365739", "system.omega0=1.2137497533275774"]
    rod += ["system.vx0=-2.5539906907012297", 'rods.cases=["system"]']
    config = load_study(JAM, rod).config
    assert jam_study.DynamicJamStudy().check(config, []) == []
    rigid, reference, linearisation = jam_study._rod_reference("system", config)
    entry = jam_study._reference_entry(rigid, reference, linearisation)
    assert entry["jam_case"] == "G1"
    alpha1, _, alpha3 = entry["alpha1_alpha2_alpha3"]
    assert alpha1 / alpha3 == pytest.approx(5.49, abs=0.01)


def test_an_outcome_that_changes_with_alpha_does_not_converge():
    alpha = np.array([1e4, 1e5, 1e6, 1e7, 1e8])
    outcomes = ["lift_off", "lift_off", "jump_into_stick", "lift_off", "jump_into_stick"]
    assert jam_study.verdict(alpha, outcomes, None)["converges"] is False
    settled = jam_study.verdict(alpha, ["lift_off"] + ["jump_into_stick"] * 4, 1 / np.sqrt(alpha))
    assert settled["settled_from_alpha"] == 1e5 and settled["order"] == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("assignments", "key", "expected"),
    [
        (["compliant.alpha=[]"], "compliant.alpha", "non-empty"),
        (["compliant.alpha=[1e4, -1]"], "compliant.alpha", "α > 0"),
        (["compliant.alpha=[1e6, 1e4]"], "compliant.alpha", "increasing"),
        (['compliant.normal_laws=["hertz"]'], "compliant.normal_laws", "spring_damper"),
        (["rods.cases=[]"], "rods.cases", "non-empty"),
        (['rods.cases=["G1", "G1"]'], "rods.cases", "at most once"),
        (['rods.cases=["G3"]'], "rods.cases", "'G1'"),
        (["system.mu=2"], "rods.cases", "'system'"),
        (['system.kind="spatial_rod"', 'rods.cases=["system"]'], "system.kind", "'painleve_rod'"),
        (['rods.cases=["system"]'], "system.phi0", "reaches a G-spot"),  # Table 1's rod lifts off
    ],
)
def test_bad_input_stops_with_one_line(tmp_path, capsys, assignments, key, expected):
    out = tmp_path / "out"
    arguments = [item for assignment in assignments for item in ("--set", assignment)]
    assert main(["run", str(JAM), "--out", str(out), *arguments]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"regcontact: config error: {key} = "), err
    assert expected in err[0]
    assert not out.exists()


RAMP = ROOT / "studies" / "dynamic_jam_ramp.toml"


def test_a_ramped_torque_in_the_study_file_is_a_ramp_load_whose_rigid_slip_jams_in_g2():
    """The ramp study's rod: its torque a :class:`RampLoad` from ``{start, rate}``; the rigid slip jams in case G2
    (α₁ > α₃, both < 0, α₂ < 0) at zero torque, and from the same start with the torque frozen it lifts off at once."""
    from regcontact.rigid import SLIP_OUTCOMES, g_spot_linearisation, jam_case, jam_reference, rigid_slip
    from regcontact.studies.system_config import rod_from_config
    from regcontact.systems import RampLoad

    config = load_study(RAMP).config
    rod = rod_from_config(config["system"])
    assert isinstance(rod.torque, RampLoad) and float(rod.torque.rate) == 0.5
    reference = jam_reference(rod)
    lin = g_spot_linearisation(rod, reference.q, reference.v, reference.t_jam)
    assert jam_case(float(lin.alpha1), float(lin.alpha2), float(lin.alpha3)) == "G2"
    assert abs(float(rod.torque(reference.t_jam))) < 1e-4
    frozen = eqx.tree_at(lambda r: r.torque, rod, rod.torque.start)
    assert SLIP_OUTCOMES[int(rigid_slip(frozen, *frozen.initial_state()).outcome)] == "lift-off"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("{start = 0.0}", "a ramp {start, rate[, until ≥ 0]}"),
        ("{start = 0.0, rate = 1.0, until = -1.0}", "a ramp {start, rate[, until ≥ 0]}"),
        ("{times = [0.0], values = [1.0]}", "a table {times, values}"),
    ],
)
def test_a_bad_load_table_stops_with_one_line(tmp_path, capsys, value, expected):
    out = tmp_path / "out"
    assert main(["run", str(RAMP), "--out", str(out), "--set", f"system.torque={value}"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("regcontact: config error: system.torque = "), err
    assert expected in err[0]


def test_a_load_table_out_of_order_names_the_load():
    out_of_order = "{times = [1.0, 0.0], values = [0.0, 1.0]}"
    with pytest.raises(Exception, match=r"system\.torque = .*strictly increasing times"):
        load_study(RAMP, [f"system.torque={out_of_order}"])


OWN_LAW = ROOT / "tests" / "studies" / "user_bodies" / "own_spring_damper.py"


def test_a_users_normal_law_runs_through_the_jam_as_the_built_in_one(g1):
    """A law from the user's file reaches the jam kind: a copy of Eq. 22 gives the built-in law's rows."""
    fast = ["compliant.alpha=[1e4, 1e5, 1e6]", f'compliant.normal_laws=["{OWN_LAW}:OwnSpringDamper"]']
    own = jam_study.DynamicJamStudy().run(load_study(JAM, [*G1_ROD, *fast]).config)
    assert [row["outcome"] for row in own.rows] == [row["outcome"] for row in g1.rows] and not own.failures
    np.testing.assert_allclose(
        [row["jump_impulse_error"] for row in own.rows], [row["jump_impulse_error"] for row in g1.rows], rtol=1e-6
    )


@pytest.mark.parametrize(
    ("law", "expected"),
    [
        ("bilinear_spring", "one of 'spring_damper'"),
        (f"{OWN_LAW}:NeedsArguments", "a constructor whose parameters all have defaults"),
    ],
)
def test_a_law_a_passage_cannot_sample_is_one_line(law, expected):
    with pytest.raises(ConfigError, match=rf"^compliant.normal_laws = .*: expected .*{expected}"):
        load_study(JAM, [f'compliant.normal_laws=["{law}"]'])
