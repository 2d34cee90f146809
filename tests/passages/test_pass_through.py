"""``pass_through`` takes the rigid reference of the system's own kind of slip end, and says so in one line."""

import math

import pytest

from regcontact.contact import ContactModel
from regcontact.passages import pass_through
from regcontact.rigid import crossing_reference
from regcontact.systems import PainleveRod
from regcontact.systems.spatial_rod import SpatialRod


def test_a_planar_system_refuses_a_crossing_reference_in_one_line():
    spatial = SpatialRod(gyration=0.1, mu=1.0, theta0=1.2, slip0=(math.cos(1.3), math.sin(1.3)))
    reference = crossing_reference(spatial)
    with pytest.raises(TypeError, match=r"^reference = CrossingReference: expected a JamReference for PainleveRod"):
        pass_through(PainleveRod(), ContactModel(), [1e6], reference)
    with pytest.raises(TypeError, match="expected a ContactModel"):
        pass_through(spatial, "spring_damper", [1e6], reference)  # type: ignore[call-overload]
