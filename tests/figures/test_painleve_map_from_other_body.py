"""The Painlevé map draws the rod's A = 0 and μ_crit: a study of another body is refused, in one line."""

import copy
from pathlib import Path

import pytest

from regcontact.figures._painleve_map import _check_map
from regcontact.studies.loading import load_study

MAP = Path(__file__).resolve().parents[2] / "studies" / "painleve_map.toml"
GRID = ["sweep.mu=[1.0, 2.0]", "sweep.phi0=[0.5, 1.0]"]


def _rows():
    return [{"mu": m, "phi0": p, "impulsive": True, "end_mode": "stick"} for m in (1.0, 2.0) for p in (0.5, 1.0)]


def test_a_rod_map_is_accepted():
    _check_map("compliant_sweep", load_study(MAP, GRID).config, _rows())


def test_another_body_is_refused_naming_it():
    config = copy.deepcopy(load_study(MAP, GRID).config)
    config["system"]["kind"] = "two_point_rod"
    with pytest.raises(ValueError, match=r"^painleve_map: the study .* is of the system 'two_point_rod', not the "):
        _check_map("compliant_sweep", config, _rows())
