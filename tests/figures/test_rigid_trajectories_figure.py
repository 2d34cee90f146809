"""The whole-motion figure on a short two-point-rod run: it writes the PNG and its data, and
the CSV holds the study's own distances and every run's modes."""

import csv

import numpy as np
import pytest

from regcontact.figures._rigid_trajectories import FIGURES, draw_trajectories

pytestmark = pytest.mark.slow

SHORT = ["horizon.t_end=0.35", "compliant.alpha=[1e3, 1e4]", "moreau_jean.dt=[1e-2, 1e-3]"]


def test_the_figure_writes_its_picture_and_data(tmp_path):
    png, trajectories, convergence = draw_trajectories(FIGURES["rigid_trajectories_two_point_rod"], tmp_path, SHORT)
    assert png.stat().st_size > 10_000
    with open(convergence) as handle:
        rows = list(csv.DictReader(handle))
    assert [row["run"] for row in rows] == [
        "event-driven",
        "compliant α=1000",
        "compliant α=10000",
        "Moreau–Jean δt=0.01",
        "Moreau–Jean δt=0.001",
    ]
    moreau = np.array([float(row["distance_q"]) for row in rows[3:]])
    assert moreau[1] < moreau[0] / 5  # first order in δt: a decade of δt, about a decade of distance
    with open(trajectories) as handle:
        samples = list(csv.DictReader(handle))
    reference = [row for row in samples if row["run"] == "event-driven"]
    assert {row["mode1"] for row in reference} == {"F", "S+"} and {row["mode2"] for row in reference} == {"F", "S+"}
    assert float(reference[-1]["t"]) == 0.35
