"""The Painlevé map study (issue 11, point 7) on a few points whose outcome the rigid theory fixes."""

from pathlib import Path

import pytest

from regcontact.rigid import painleve_coefficient
from regcontact.studies.loading import load_study

pytestmark = pytest.mark.slow

STUDY = Path(__file__).parents[2] / "studies" / "painleve_map.toml"


def test_inside_the_painleve_region_an_impact_without_collision_outside_the_rod_slides_on():
    loaded = load_study(STUDY, ["sweep.mu=[1.0, 2.0]", "sweep.phi0=[0.4, 1.05]"])
    rows = loaded.kind.run(loaded.config).rows
    assert len(rows) == 4
    for row in rows:
        assert row["check"] == "passed"
        inside = painleve_coefficient(row["phi0"], row["mu"]) < -0.05  # clearly inside A < 0 (no force solution)
        assert row["impulsive"] == inside, row
        assert row["end_mode"] == ("sticks" if inside else "slips"), row
        if inside:  # and the integrals are near the sticking impulse the LCP picks
            assert row["distance_to_impulse_velocity"] < 1e-2, row
