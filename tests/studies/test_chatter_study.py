"""Forward chatter (``kind = "chatter"``): the rigid sequence accumulates at Eq. 28's Zeno time, which the
compliant runs pass; their touch-downs approach the rigid impact times as α grows; bad input stops with one line."""

import math
from pathlib import Path

import numpy as np
import pytest

from regcontact.cli import main
from regcontact.rigid import COULOMB_MU_LIMIT, kelvin_voigt_restitution
from regcontact.studies import chatter_study
from regcontact.studies.loading import load_study

pytestmark = pytest.mark.slow

CHATTER = Path(__file__).parents[2] / "studies" / "chatter.toml"


def test_without_coupling_the_zeno_time_is_the_geometric_series():
    """B = 0: every bounce restitutes e = exp(−πζ/√(1−ζ²)) (the Kelvin–Voigt law arriving from flight), so the
    flights 2 e^n |v₀|/(−b) sum to t_∞ = 2 e |v₀| / ((−b)(1 − e))."""
    config = load_study(CHATTER, ["system.B=0.0"]).config
    sequence = chatter_study.rigid_sequence(config)
    e = kelvin_voigt_restitution(config["compliant"]["damping_ratio"])
    assert e == pytest.approx(math.exp(-math.pi * 0.2 / math.sqrt(1 - 0.04)))
    v0, b = -config["system"]["normal_velocity0"], config["system"]["b"]
    assert sequence.zeno_time == pytest.approx(2 * e * v0 / (-b * (1 - e)), rel=1e-9)
    np.testing.assert_allclose(np.diff(sequence.times)[:5], 2 * v0 * e ** np.arange(1, 6) / -b, rtol=1e-9)


@pytest.fixture(scope="module")
def study():
    return chatter_study.ChatterStudy().run(load_study(CHATTER, ["compliant.alpha=[1e4, 1e5, 1e6, 1e7]"]).config)


def test_the_compliant_runs_pass_the_zeno_point_and_approach_the_rigid_sequence(study):
    rows = study.rows
    assert all(row["ok"] for row in rows) and not study.failures
    errors = np.array([row["touchdown_time_error"] for row in rows])
    orders = -np.diff(np.log10(errors))
    assert np.all(orders > 0.4), errors  # order 1/2: the impacts last α^(−1/2)
    assert abs(rows[-1]["last_touchdown_minus_zeno"]) < 3e-3
    assert [row["touchdowns"] for row in rows] == sorted(row["touchdowns"] for row in rows)
    slip = np.array([abs(row["slip_at_zeno"] - row["zeno_slip"]) for row in rows])
    assert slip[-1] < slip[0] / 10


@pytest.mark.parametrize(
    ("assignment", "key"),
    [
        ("horizon.t_end=1.0", "horizon.t_end"),
        ("system.b=0.5", "system.b"),
        ("system.normal_velocity0=0.0", "system.normal_velocity0"),
        ("horizon.samples=1", "horizon.samples"),
        ("horizon.samples=2", "horizon.samples"),
    ],
)
def test_bad_input_stops_with_one_line(tmp_path, capsys, assignment, key):
    out = tmp_path / "out"
    assert main(["run", str(CHATTER), "--out", str(out), "--set", assignment]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"regcontact: config error: {key} = "), err
    assert not out.exists()


def test_the_sample_grid_must_see_every_compared_touchdown_at_the_largest_alpha(capsys):
    """Two samples over the horizon ran ``ok`` with one touch-down found and a touch-down error of 3.9: the grid
    must resolve the shortest compared flight and the contact time ``π/√(α C)`` of the largest α."""
    coarse = ["--set", "horizon.samples=1000"]
    assert main(["check", str(CHATTER), *coarse, "--set", "compliant.alpha=[1e4]"]) == 0
    assert main(["check", str(CHATTER), *coarse, "--set", "compliant.alpha=[1e4, 1e8]"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith("regcontact: config error: horizon.samples = 1000: expected at least 15,595 "), err


def test_a_contact_form_that_is_not_positive_definite_stops_with_one_line(tmp_path, capsys):
    """``system.B = 10`` (``AC < B²``) was taken by the config and ended in the rigid sequence's traceback: the
    system's own rule now refuses it before anything runs."""
    out = tmp_path / "out"
    assert main(["run", str(CHATTER), "--out", str(out), "--set", "system.B=10"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("regcontact: config error: system."), err
    assert not out.exists()


def test_the_rigid_reference_tends_to_its_large_mu_limit_up_to_the_bound():
    """With Coulomb friction during the impacts the slip stops within ~1/μ of the impact's impulse: the Zeno time
    settles as μ grows (the compliant runs, whose viscous friction no longer reaches its cone, are the same for
    every such μ), up to the bound the map is followed to."""
    zeno = [
        chatter_study.rigid_sequence(load_study(CHATTER, [f"system.mu={mu}"]).config).zeno_time
        for mu in (1e8, 1e9, COULOMB_MU_LIMIT)
    ]
    assert abs(zeno[1] - zeno[0]) < 1e-6 and abs(zeno[2] - zeno[1]) < 1e-7, zeno  # falling as 1/μ
    assert zeno[2] == pytest.approx(3.1247222, abs=1e-7)


@pytest.mark.parametrize("mu", ["1e11", "1e200"])
def test_a_friction_coefficient_past_the_rigid_references_bound_stops_with_one_line(tmp_path, capsys, mu):
    """μ = 1e50, 1e100, 1e200 gave t_∞ = 3.136, 3.083, −2 with ``ok = True``, the compliant runs unchanged."""
    out = tmp_path / "out"
    assert main(["run", str(CHATTER), "--out", str(out), "--set", f"system.mu={mu}"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"regcontact: config error: system.mu = {float(mu)!r}: expected a friction coefficient at most 1e+10, the "
        "range the rigid reference's impacts with Coulomb friction are resolved over"
    ]
    assert not out.exists()
