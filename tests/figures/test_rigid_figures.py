"""The rigid-contact figures render and write the data they show."""

import csv

import numpy as np
import pytest

from regcontact.figures import load_figures

RIGID_FIGURES = {
    "preclik_fig3_impulse_velocity_solutions": {"F", "T"},
    "preclik_fig4_time_stepping_one_solution": {"T"},
    "preclik_fig5_time_stepping_three_solutions": {"F", "S-", "T"},
}


@pytest.mark.slow
def test_solution_space_figures_show_every_solution(tmp_path):
    figures = load_figures()
    for name, modes in RIGID_FIGURES.items():
        written = figures[name](tmp_path)
        assert all(path.exists() and path.stat().st_size > 0 for path in written)
        with (tmp_path / f"{name}_solutions.csv").open() as handle:
            assert {row["mode"] for row in csv.DictReader(handle)} == modes


def test_painleve_coefficient_figure(tmp_path):
    written = load_figures()["preclik_fig8_painleve_coefficient"](tmp_path)
    assert [path.suffix for path in written] == [".png", ".csv", ".csv"]
    with written[1].open() as handle:
        rows = list(csv.DictReader(handle))
    assert min(float(row["mA"]) for row in rows) < 0 < max(float(row["mA"]) for row in rows)


def test_impact_map_regions_cover_the_incoming_half_plane(tmp_path):
    """Fig. 10's regions are computed: contiguous sectors from 180° to 360°, the slip reversal cases (c, d) have a
    region whose impact ends slipping the other way, and the Painlevé case (b) an impact from v⁻ = 0."""
    from regcontact.figures._impact_map import path, sectors

    for case in "abcd":
        found = sectors(case)
        assert found[0][0] == pytest.approx(np.pi) and found[-1][1] == pytest.approx(2 * np.pi)
        assert all(high == pytest.approx(low, abs=1e-9) for (_, high, _), (low, _, _) in zip(found, found[1:]))
    assert any("S+ c" in form and "S- r" in form for *_, form in sectors("c"))
    assert any("S- c" in form and "S+ r" in form for *_, form in sectors("d"))
    corners = path("b", 360.0)
    assert corners[0][1] == pytest.approx(0.0, abs=1e-12) and corners[:, 1].min() < 0 and corners[-1][1] > 0
