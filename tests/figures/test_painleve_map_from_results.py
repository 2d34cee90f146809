"""``regcontact figures painleve_map --from`` draws a sweep over a grid of μ and φ₀ at one α, and refuses in one
line one with another key swept (or μ and φ₀ zipped), which would draw one run of several on each cell."""

import itertools
from pathlib import Path

import matplotlib
import pandas as pd
import pytest

matplotlib.use("Agg")

from regcontact.cli import main  # noqa: E402
from regcontact.studies import StudyResult  # noqa: E402
from regcontact.studies.loading import load_study  # noqa: E402
from regcontact.studies.study_result import write_results  # noqa: E402
from regcontact.studies.sweep_plan import column_name, plan_sweep  # noqa: E402

STUDY = Path(__file__).parents[2] / "studies" / "painleve_map.toml"
MAP = ["sweep.mu=[1.0, 2.0]", "sweep.phi0=[0.4, 1.05]"]


def _finished_map(folder: Path, overrides: list[str]) -> Path:
    """The study's folder as a run writes it, its config resolved from the overrides and a row per case of its
    grid (the outcome of each run made up: the figure's check comes before the values are read)."""
    config = load_study(STUDY, overrides).config
    plan = plan_sweep(config)
    rows = []
    for point in itertools.product(*(range(axis.length) for axis in plan.axes)):
        row = {
            column_name(key): values[i]
            for axis, i in zip(plan.axes, point)
            for key, values in zip(axis.keys, axis.values)
        }
        rows.append({**row, "impulsive": False, "end_mode": "slips", "distance_to_impulse_velocity": 1e-3})
    write_results(StudyResult("painleve_map", "compliant_sweep", rows), config, folder)
    return folder


def test_a_map_over_mu_and_phi0_is_drawn_cell_by_cell(tmp_path, capsys):
    folder = _finished_map(tmp_path / "map", MAP)
    assert main(["figures", "painleve_map", "--from", str(folder), "--out", str(tmp_path / "drawn")]) == 0
    drawn = pd.read_csv(tmp_path / "drawn" / "painleve_map.csv")
    assert sorted(zip(drawn["mu"], drawn["phi0"])) == [(1.0, 0.4), (1.0, 1.05), (2.0, 0.4), (2.0, 1.05)]


REFUSED = {
    "another system key": (
        ["sweep.vx0=[-1.0, -2.0]"],
        "also sweeps vx0 (2 values), and each cell would show its last value's run",
    ),
    "a solver key": (
        ["sweep.solver.rtol=[1e-8, 1e-9]"],
        "also sweeps solver.rtol (2 values), and each cell would show its last value's run",
    ),
    "mu and phi0 zipped": (['sweep.zip=[["mu", "phi0"]]'], "sweeps mu and phi0 zipped, along one axis of 2 values"),
    "two alphas": (["sweep.alpha=[1e5, 1e6]"], "sweeps alpha over 2 values"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_a_map_with_a_key_it_does_not_draw_is_refused_in_one_line(tmp_path, capsys, case):
    overrides, why = REFUSED[case]
    folder = _finished_map(tmp_path / "map", MAP + overrides)
    out = tmp_path / "drawn"
    assert main(["figures", "painleve_map", "--from", str(folder), "--out", str(out)]) == 2
    printed = capsys.readouterr()
    assert printed.err == (
        f"regcontact: --from = {str(folder)!r}: painleve_map: the study 'painleve_map' {why}; the figure draws a "
        "compliant sweep of the rod over mu and phi0 alone, each on an axis of its own, at one α (e.g. results of "
        "studies/painleve_map.toml)\n"
    )
    assert not list(out.glob("painleve_map.*"))
