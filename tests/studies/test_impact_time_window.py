"""A law without a contact time gets a window the toolkit can justify: its own impact time at α."""

import math
import tomllib
from pathlib import Path

import jax.numpy as jnp
import numpy as np
import pytest

import regcontact as rc
from regcontact.compliant.termination import contact_time, impact_inputs, impact_time
from regcontact.contact import HuntCrossley, SpringDamper
from regcontact.studies.config import ConfigError
from regcontact.studies.loading import load_study

ROOT = Path(__file__).resolve().parents[2]
TABLE1 = ROOT / "studies" / "table1.toml"
LANDING = ROOT / "studies" / "landing_flat_rod.toml"


def test_a_linear_springs_impact_time_is_its_contact_time():
    rod = rc.PainleveRod()
    inverse_masses, speed = impact_inputs(rod)
    for stiffness in (1e3, 1e6, 1e9):
        law = SpringDamper(stiffness=stiffness, damping=0.0)
        assert impact_time(law, inverse_masses, float(speed)) == pytest.approx(float(contact_time(rod, stiffness)))


def test_hertz_impact_time_scales_as_the_spring_does_and_holds_an_elastic_landing():
    """``π (k C v^(n−1))^(−1/(n+1))``: ∝ k^(−0.4) for n = 3/2; the closed-form duration of an elastic landing,
    ``2 (δ*/v) ∫₀¹ du/√(1 − u^(n+1))`` with ``δ* = ((n+1) v²/(2 k C))^(1/(n+1))``, is 1.02 of it."""
    C, v, n = np.array([1.75]), 0.8, 1.5
    times = [impact_time(HuntCrossley(stiffness=k, exponent=n), C, v) for k in (1e4, 1e6)]
    assert times[1] / times[0] == pytest.approx(100.0**-0.4, rel=1e-12)
    k = 1e6
    depth = ((n + 1) * v**2 / (2 * k * C[0])) ** (1 / (n + 1))
    quarter = math.sqrt(math.pi) * math.gamma(1 + 1 / (n + 1)) / math.gamma(0.5 + 1 / (n + 1))
    duration = 2 * depth / v * quarter
    assert duration / times[1] == pytest.approx(1.025, abs=0.005)


def test_a_body_at_rest_has_no_impact_speed():
    law = HuntCrossley(stiffness=1e6)
    with pytest.raises(ValueError, match="no contact velocity"):
        impact_time(law, np.array([1.0]), 0.0)


def test_the_refusal_of_a_contact_time_names_the_impact_time():
    with pytest.raises(ConfigError, match="'impact_time'.*no linear stiffness"):
        load_study(TABLE1, ["contact.normal_law=hunt_crossley"])


def test_table1_rod_under_hunt_crossley_gets_impact_time_windows_and_no_verdict():
    """The rod starts in sustained contact: under Hunt–Crossley nothing impulsive happens within the law's own
    time scale, and the study says so instead of a verdict."""
    run = rc.run_study(
        TABLE1,
        ["contact.normal_law=hunt_crossley", "termination.time_limit=impact_time", "sweep.alpha=[1e4, 1e6]"],
        progress=lambda message: None,
    )
    rod = rc.PainleveRod(mu=run.json["config"]["system"]["mu"], phi0=run.json["config"]["system"]["phi0"])
    inverse_masses, speed = impact_inputs(rod)
    expected = [3.0 * impact_time(HuntCrossley(stiffness=a), inverse_masses, float(speed)) for a in (1e4, 1e6)]
    np.testing.assert_allclose(run.table["t_max"], expected, rtol=1e-12)
    (analysis,) = run.json["convergence"]["systems"]
    assert any("no run of this α-series had an impulsive phase" in warning for warning in analysis["warnings"])
    assert "converges_to" not in analysis


def test_a_hunt_crossley_landing_within_its_impact_time_window_ends_by_opening():
    config = tomllib.loads(LANDING.read_text())
    config["contact"] = {"normal_law": "hunt_crossley", "friction_law": "viscous_coulomb", "friction": {"damping": 0.1}}
    config["sweep"] = {"alpha": [1e4, 1e5, 1e6, 1e7, 1e8]}
    config["termination"] = {"events": ["contact_open"], "time_limit": "impact_time"}
    run = rc.run_study(config, progress=lambda message: None)
    assert list(run.table["termination"]) == ["contact_open"] * 5
    assert np.all(run.table["t_end"] < run.table["t_max"])
    assert np.all(run.table["distance_to_compliant_limit"] < 1e-3)
    # the tangential integrals drift away from the limit again past α = 1e5 (docs/studies/compliant.md, measured
    # the same at rtol 1e-12): the study must not call that convergence
    (analysis,) = run.json["convergence"]["systems"]
    assert analysis["compliant_limit"]["order"] < 0 and analysis["converges_to"]["references"] == []


@pytest.mark.parametrize(
    ("speed", "inverse_masses", "named"),
    [
        (float("nan"), [1.0], "speed = nan"),
        (float("inf"), [1.0], "speed = inf"),
        (-1.0, [1.0], "speed = -1.0"),
        (1.0, np.array([np.nan]), "inverse_masses = nan"),
        (1.0, jnp.array([-1.0]), "inverse_masses = -1"),
    ],
)
def test_an_impact_time_of_a_bad_speed_or_mass_is_refused_naming_it(speed, inverse_masses, named):
    with pytest.raises(ValueError, match=rf"^{named}: expected a positive number"):
        impact_time(HuntCrossley(stiffness=1e6), inverse_masses, speed)
