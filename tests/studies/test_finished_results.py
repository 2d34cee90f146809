"""A finished study read back as data (``rc.load_results``), drawn by ``rc.plot`` and by ``regcontact figures
--from``; folders that hold no finished study are refused in one line."""

import json
import math
import re
import shutil
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import regcontact as rc  # noqa: E402
from regcontact.cli import _parser, main  # noqa: E402
from regcontact.studies import ConfigError, FinishedStudy, StudyResult  # noqa: E402

pytestmark = pytest.mark.slow

#: A tiny Table 1 study: three α, its rigid references and convergence analysis.
ALPHAS = [1e3, 1e4, 1e5]

#: The README's Python block that loads a finished study and plots it, as the README shows it.
README_SNIPPET = next(
    block
    for block in re.findall(r"```python\n(.*?)```", (Path(__file__).parents[2] / "README.md").read_text(), re.DOTALL)
    if "rc.load_results" in block
)


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """The tiny study run as ``regcontact run`` runs it, its folder and its in-memory run."""
    folder = tmp_path_factory.mktemp("run") / "results" / "table1"
    run = rc.run_study("studies/table1.toml", {"sweep.alpha": ALPHAS}, out=folder, progress=lambda line: None)
    return folder, run


def test_a_finished_study_reads_back_whole(finished):
    folder, run = finished
    results = rc.load_results(folder)
    assert isinstance(results, FinishedStudy) and results.kind.NAME == "compliant_sweep"
    assert results.name == "table1" and results.folder == folder
    assert results.table["alpha"].tolist() == ALPHAS
    on_disk = pd.read_csv(folder / "results.csv")
    pd.testing.assert_frame_equal(results.table, on_disk)
    for column in ("int_lambda_n", "int_lambda_t", "distance_to_impulse_velocity"):
        assert results.table[column].tolist() == [row[column] for row in run.result.rows]  # bit-identical
    assert results.grid is not None and results.grid.sizes["alpha"] == len(ALPHAS)
    np.testing.assert_array_equal(results.grid["int_lambda_n"].values, results.table["int_lambda_n"].values)
    assert results.config == json.loads(json.dumps(run.config))
    np.testing.assert_array_equal(results.references["impulse_velocity"], [[3 * math.sqrt(3) / 16, 7 / 16]])
    (system,) = results.convergence["systems"]
    assert system["impulse_velocity"]["alpha"] == ALPHAS
    provenance = results.provenance
    assert provenance.versions["jax"] and provenance.timings["total_s"] > 0
    assert provenance.solver_statistics["solver"] == "RadauIIA5"
    assert provenance.commit == provenance.versions.get("regcontact_git_commit")
    assert "3 rows" in repr(results) and str(folder) in repr(results)


def test_a_study_in_memory_is_the_same_object(finished):
    """``FinishedStudy.from_result`` (a study run in Python, unwritten) holds what loading its folder gives."""
    folder, run = finished
    loaded, in_memory = rc.load_results(folder), FinishedStudy.from_result(run.result, run.config)
    for column in ("alpha", "int_lambda_n", "int_lambda_t", "impulse_velocity_n", "status"):
        assert in_memory.table[column].tolist() == loaded.table[column].tolist()
    assert in_memory.grid is not None and in_memory.grid.sizes == loaded.grid.sizes
    assert in_memory.convergence["systems"][0]["impulse_velocity"]["order"] == pytest.approx(
        loaded.convergence["systems"][0]["impulse_velocity"]["order"], rel=1e-15
    )


def test_a_folder_without_a_finished_study_is_refused_in_one_line(finished, tmp_path):
    folder, _ = finished

    def refused(path, expected):
        with pytest.raises(ConfigError) as caught:
            rc.load_results(path)
        message = str(caught.value)
        assert "\n" not in message and message.startswith(f"RESULTS = {str(path)!r}: expected")
        assert re.search(expected, message), message

    refused(tmp_path / "nowhere", r"does not exist")
    (tmp_path / "afile").write_text("x")
    refused(tmp_path / "afile", r"not a folder")
    refused(tmp_path, r"with results\.json \(there is none")
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    (copy / "results.json").write_text("{not json")
    refused(copy, r"a readable results\.json")
    document = json.loads((folder / "results.json").read_text())
    (copy / "results.json").write_text(json.dumps({**document, "kind": "bogus"}))
    refused(copy, r"a known kind \('bogus' is none of compliant_sweep")
    (copy / "results.json").write_text(json.dumps(document))
    (copy / "results.csv").write_text("alpha,other\n1.0,2.0\n")
    refused(copy, r"results\.csv of the [0-9,]+ bytes results\.json records \(it has 20: cut short or edited\)")
    unrecorded = {key: value for key, value in document.items() if key != "files"}  # as an older version wrote
    (copy / "results.json").write_text(json.dumps(unrecorded))
    refused(copy, r"the columns results\.json lists")
    (copy / "results.csv").unlink()
    refused(copy, r"results\.csv beside results\.json")


def test_the_plots_draw_the_study_and_its_references(finished):
    folder, _ = finished
    results = rc.load_results(folder)
    axes = rc.plot.force_integrals(results)
    normal = axes[0]
    compliant, paper = normal.lines[0], normal.lines[1]
    np.testing.assert_array_equal(compliant.get_xdata(), ALPHAS)
    np.testing.assert_array_equal(compliant.get_ydata(), results.table["int_lambda_n"])
    assert list(paper.get_xdata()) == results.config["paper"]["alpha"]
    assert paper.get_label() == "Preclik & Rüde (2011), Table 1"  # the config's [paper] source
    flat = [line.get_ydata()[0] for line in normal.lines[2:]]  # Λ_n, then δt·λ̃_n, then the compliant limit's P_n
    assert flat == [
        3 * math.sqrt(3) / 16,
        results.references["time_stepping"]["0.01"][0]["reactions"][0][0],
        results.table["compliant_limit_n"].tolist()[0],
    ]
    assert normal.get_title() == r"$\int \lambda_n\,dt$ over one contact time or an event"  # the study's window
    ax = rc.plot.distances(results)
    dots = ax.lines[0]
    (limit_dots,) = [line for line in ax.lines if line.get_label().endswith("(compliant limit)")]
    np.testing.assert_allclose(dots.get_ydata(), results.table["distance_to_impulse_velocity"], rtol=1e-15)
    np.testing.assert_allclose(limit_dots.get_ydata(), results.table["distance_to_compliant_limit"], rtol=1e-15)
    plt.close("all")
    with pytest.raises(ValueError, match=r"plot\.force_integrals: the study 'table1' .* column 'mu'"):
        rc.plot.force_integrals(results, where={"mu": 1.0})


def test_a_study_of_another_system_is_drawn_under_its_own_name_not_as_the_papers(finished, tmp_path, capsys):
    """Without the paper's Table 1 (a changed system drops it) the plot has no paper entry, its window is the
    study's own, and ``figures preclik_fig7_force_integrals --from`` writes the study's figure under its name,
    titled as the study's; drawing over a former file says so."""
    folder = tmp_path / "heavier"
    overrides = {"sweep.alpha": ALPHAS, "system.mass": 2.0, "termination.time_limit": 0.05}
    rc.run_study("studies/table1.toml", overrides, out=folder, progress=lambda line: None)
    results = rc.load_results(folder)
    assert results.config["paper"]["int_lambda_n"] == []
    normal = rc.plot.force_integrals(results)[0]
    labels = [line.get_label() for line in normal.lines]
    assert not any("Table 1" in label or "paper" in label for label in labels), labels
    assert normal.get_title() == r"$\int \lambda_n\,dt$ up to t = 0.05 or an event"
    plt.close("all")
    out = tmp_path / "drawn"
    for _ in range(2):
        assert main(["figures", "preclik_fig7_force_integrals", "--from", str(folder), "--out", str(out)]) == 0
    assert sorted(path.name for path in out.iterdir()) == [
        "preclik_fig7_force_integrals_table1.csv",
        "preclik_fig7_force_integrals_table1.png",
    ]
    said = capsys.readouterr().err.splitlines()
    assert "replaced" not in said[0] and said[1].endswith(
        "; replaced the former preclik_fig7_force_integrals_table1.csv, preclik_fig7_force_integrals_table1.png"
    ), said
    plt.close("all")


def test_an_outcome_map_colours_each_cell_by_what_the_run_did():
    """A 2 × 2 sweep over (mu, phi0) built in memory: each cell of the image is its row's outcome class."""
    rows = [
        {"mu": 1.0, "phi0": 0.5, "impulsive": False, "end_mode": "slips"},
        {"mu": 2.0, "phi0": 0.5, "impulsive": True, "end_mode": "sticks"},
        {"mu": 1.0, "phi0": 1.0, "impulsive": False, "end_mode": "lifts_off"},
        {"mu": 2.0, "phi0": 1.0, "impulsive": None, "end_mode": None},  # a failed run
    ]
    results = FinishedStudy.from_result(StudyResult("map", "compliant_sweep", rows), {})
    ax = rc.plot.outcome_map(results, "mu", "phi0")
    keys = list(rc.plot.OUTCOMES)
    expected = [
        [keys.index(("False", "slips")), keys.index(("True", "sticks"))],
        [keys.index(("False", "lifts_off")), keys.index(("", ""))],
    ]
    np.testing.assert_array_equal(ax.images[0].get_array(), expected)
    plt.close("all")


def test_the_readme_snippet_loads_and_plots_a_finished_study(finished, monkeypatch):
    """The README's three lines, run where ``results/table1`` is the tiny study's folder."""
    folder, _ = finished
    monkeypatch.chdir(folder.parents[1])
    assert len(README_SNIPPET.splitlines()) == 3
    exec(README_SNIPPET, {"rc": rc})  # the README imports regcontact as rc above it
    assert (folder.parents[1] / "table1.png").stat().st_size > 0
    plt.close("all")


def test_figures_draw_from_a_finished_study(finished, tmp_path, capsys):
    """``regcontact figures NAME --from RESULTS`` draws Fig. 7 from the study's files (its CSV holds the study's
    numbers); a figure that runs its own studies, or a folder without a study, is refused in one line."""
    folder, _ = finished
    out = tmp_path / "drawn"
    assert main(["figures", "preclik_fig7_force_integrals", "--from", str(folder), "--out", str(out)]) == 0
    drawn = pd.read_csv(out / "preclik_fig7_force_integrals.csv")
    table = pd.read_csv(folder / "results.csv")
    assert drawn["int_lambda_n"].tolist() == table["int_lambda_n"].tolist()
    assert (out / "preclik_fig7_force_integrals.png").stat().st_size > 0
    plt.close("all")

    assert main(["figures", "painleve_map", "--from", str(folder), "--out", str(out / "y")]) == 2
    assert "painleve_map: the study 'table1' is not a compliant sweep of the rod over mu and phi0" in (
        capsys.readouterr().err
    )
    figure = "preclik_fig8_painleve_coefficient"
    assert main(["figures", figure, "--from", str(folder), "--out", str(out / "x")]) == 2
    assert f"figure {figure!r} runs its own studies" in capsys.readouterr().err
    assert main(["figures", "preclik_fig7_force_integrals", "--from", str(tmp_path), "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and f"RESULTS = {str(tmp_path)!r}: expected" in error
    assert not (out / "x").exists()


def test_figures_go_to_a_folder_of_their_own_unless_told():
    """The tracked ``figures/`` (what the docs show) is rewritten only with ``--out figures``."""
    assert _parser().parse_args(["figures"]).out == "figures-out"


def test_the_list_says_which_figures_draw_from_a_finished_study(capsys):
    assert main(["figures", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    (fig7,) = [line for line in lines if line.startswith("preclik_fig7_force_integrals")]
    assert "--from: a compliant sweep" in fig7
    assert all("--from" not in line for line in lines if line.startswith("preclik_fig8_painleve_coefficient"))
