"""The rigid-contact figures render and write the data they show."""

import csv

from regcontact.figures import load_figures

RIGID_FIGURES = {
    "preclik_fig3_impulse_velocity_solutions": {"F", "T"},
    "preclik_fig4_time_stepping_one_solution": {"T"},
    "preclik_fig5_time_stepping_three_solutions": {"F", "S-", "T"},
}


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
