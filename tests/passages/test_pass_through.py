"""``pass_through`` takes the rigid reference of the system's own kind of slip end, and says so in one line."""

import math
from pathlib import Path

import pytest

from regcontact.contact import BilinearSpring, ContactModel
from regcontact.passages import pass_through
from regcontact.rigid import crossing_reference
from regcontact.studies import ConfigError, load_study
from regcontact.systems import PainleveRod
from regcontact.systems.spatial_rod import SpatialRod

STUDIES = Path(__file__).resolve().parents[2] / "studies"


@pytest.mark.slow
def test_a_planar_system_refuses_a_crossing_reference_in_one_line():
    spatial = SpatialRod(gyration=0.1, mu=1.0, theta0=1.2, slip0=(math.cos(1.3), math.sin(1.3)))
    reference = crossing_reference(spatial)
    with pytest.raises(TypeError, match=r"^reference = CrossingReference: expected a JamReference for PainleveRod"):
        pass_through(PainleveRod(), ContactModel(), [1e6], reference)
    with pytest.raises(TypeError, match="expected a ContactModel"):
        pass_through(spatial, "spring_damper", [1e6], reference)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match=r"^contact.normal = BilinearSpring: expected a law whose force follows"):
        pass_through(spatial, ContactModel(normal=BilinearSpring()), [1e6], reference)


@pytest.mark.parametrize(
    ("study", "key"), [("dynamic_jam.toml", "compliant.normal_laws"), ("spatial_crossing.toml", "compliant.normal_law")]
)
def test_a_passage_study_refuses_a_law_that_remembers_its_peak(study, key):
    value = '["bilinear_spring"]' if key.endswith("laws") else '"bilinear_spring"'
    with pytest.raises(ConfigError, match=rf"^{key} = .*bilinear_spring.*: expected .*one of 'spring_damper'"):
        load_study(STUDIES / study, [f"{key}={value}"])
