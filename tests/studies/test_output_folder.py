"""The output folder is the run's own: the files it creates there are never written through a link someone put
at their names, and it holds one study's results; ``load_results`` checks them against what ``results.json``
records, and refuses in one line a folder that is cut short, edited, another run's or malformed."""

import json
import os
import shutil
from pathlib import Path

import pytest

from regcontact.cli import main
from regcontact.studies import ConfigError, StudyResult, load_results, rigid_study
from regcontact.studies.grid_dataset import GridAxis
from regcontact.studies.run_lock import LOCK_FILE, ForeignLockFile, RunLock
from regcontact.studies.study_result import OWN_FILES, write_results

RIGID = Path(__file__).parents[2] / "studies" / "rigid_painleve.toml"

#: What someone else's file holds: it must hold it still after the run.
THEIRS = "someone else's file\n"


@pytest.fixture
def must_not_run(monkeypatch):
    """Fail the test if the study starts: the refusal comes before anything runs."""

    def run(*args, **kwargs):
        raise AssertionError("the study ran")

    monkeypatch.setattr(rigid_study.RigidPainleveStudy, "run", run)


def _plant(kind: str, at: Path, target: Path) -> None:
    """Put at ``at`` a symbolic link to ``target``, a link to a missing file, or a second hard link to it."""
    if kind == "symlink":
        target.write_text(THEIRS)
        at.symlink_to(target)
    elif kind == "dangling symlink":
        at.symlink_to(target)
    else:
        target.write_text(THEIRS)
        os.link(target, at)


def _untouched(kind: str, target: Path) -> bool:
    """Whether the link's target holds what it held (a missing one is still missing)."""
    return not target.exists() if kind == "dangling symlink" else target.read_text() == THEIRS


def _tiny_result() -> StudyResult:
    return StudyResult("tiny", "rigid_painleve", [{"setup": "base", "mu": 2.0, "lambda_n": 0.32475952641916445}])


def _sweep_result() -> StudyResult:
    """Two rows of an α-sweep on its grid (what a compliant study writes ``results.nc`` for)."""
    rows = [{"alpha": 1e3, "int_lambda_n": 0.3249157, "ok": True}, {"alpha": 1e4, "int_lambda_n": 0.32476, "ok": True}]
    return StudyResult("sweep", "compliant_sweep", rows, grid=[GridAxis("alpha", {"alpha": [1e3, 1e4]})])


def _refused(folder: Path, expected: str) -> str:
    """``load_results`` refuses ``folder`` in one line naming it, saying ``expected``; returns the line."""
    with pytest.raises(ConfigError) as caught:
        load_results(folder)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"RESULTS = {str(folder)!r}: expected "), message
    assert expected in message, message
    return message


@pytest.mark.parametrize("kind", ["symlink", "dangling symlink", "hard link"])
@pytest.mark.parametrize("name", OWN_FILES)
def test_a_link_at_a_file_the_run_creates_is_refused_before_it_runs(tmp_path, capsys, must_not_run, name, kind):
    out, target = tmp_path / "out", tmp_path / "theirs.txt"
    out.mkdir()
    _plant(kind, out / name, target)
    assert main(["run", str(RIGID), "--out", str(out)]) == 2
    printed = capsys.readouterr()
    assert printed.out == "" and printed.err.count("\n") == 1
    assert printed.err.startswith(
        f"regcontact: config error: --out = {str(out)!r}: expected a folder whose {name} is the run's own "
        f"({out / name} is a "
    )
    assert "the run does not write through it: remove it)" in printed.err
    assert _untouched(kind, target)
    assert sorted(os.listdir(out)) == [name]


@pytest.mark.parametrize("kind", ["symlink", "dangling symlink", "hard link"])
def test_the_lock_is_never_taken_through_a_link(tmp_path, kind):
    target = tmp_path / "theirs.txt"
    _plant(kind, tmp_path / LOCK_FILE, target)
    with pytest.raises(ForeignLockFile, match=f"{LOCK_FILE} is a (symbolic link|file with 2 hard links)"):
        RunLock.acquire(tmp_path, "/studies/a.toml")
    assert _untouched(kind, target)


@pytest.mark.parametrize("kind", ["symlink", "dangling symlink", "hard link"])
def test_a_link_put_at_a_temporary_name_during_the_run_is_replaced_not_written_through(tmp_path, kind):
    """A link that appears once the folder was checked (or the Python API called directly): the results are
    written to a file of their own, the link's target is left as it was."""
    target = tmp_path / "theirs.txt"
    _plant(kind, tmp_path / ".results.csv.partial", target)
    written = write_results(_tiny_result(), {}, tmp_path)
    assert _untouched(kind, target)
    assert (tmp_path / "results.csv").read_text() == "setup,mu,lambda_n\nbase,2.0,0.32475952641916445\n"
    assert written == (tmp_path / "results.csv", tmp_path / "results.json")
    assert not os.path.lexists(tmp_path / ".results.csv.partial")


def test_a_study_written_over_another_leaves_none_of_its_files(tmp_path):
    """A grid sweep's ``results.nc`` is removed when a study of a kind without a grid is written to its folder:
    the folder reads back as the new study alone."""
    names = [path.name for path in write_results(_sweep_result(), {}, tmp_path)]
    assert names == ["results.csv", "results.json", "results.nc"]
    assert load_results(tmp_path).grid is not None
    written = write_results(_tiny_result(), {}, tmp_path)
    assert sorted(os.listdir(tmp_path)) == sorted(path.name for path in written) == ["results.csv", "results.json"]
    results = load_results(tmp_path)
    assert results.kind.NAME == "rigid_painleve" and results.grid is None


# --- results checked when they are read back -------------------------------------------------------------------


def _cut_mid_number(folder: Path) -> None:
    text = (folder / "results.csv").read_text()
    (folder / "results.csv").write_text(text[: text.index("0.3249157") + len("0.32")])


def _header_only(folder: Path) -> None:
    (folder / "results.csv").write_text((folder / "results.csv").read_text().splitlines()[0] + "\n")


def _one_digit_edited(folder: Path) -> None:
    text = (folder / "results.csv").read_text()
    (folder / "results.csv").write_text(text.replace("0.3249157", "0.3249158"))


def _another_runs_table(folder: Path) -> None:
    other = folder.parent / "other"
    result = _sweep_result()
    result.rows[0]["int_lambda_n"] = 0.3
    write_results(result, {}, other)
    shutil.copy(other / "results.csv", folder / "results.csv")


def _grid_removed(folder: Path) -> None:
    (folder / "results.nc").unlink()


def _rows_edited(folder: Path) -> None:
    document = json.loads((folder / "results.json").read_text())
    document["files"]["results.csv"]["rows"] = 3
    (folder / "results.json").write_text(json.dumps(document))


#: Each fault and what its refusal says (``{recorded}``, ``{now}``: results.csv's size as written, and after it).
FAULTS = {
    _cut_mid_number: "results.csv of the {recorded} bytes results.json records (it has {now}: cut short or edited)",
    _header_only: "results.csv of the {recorded} bytes results.json records (it has {now}: cut short or edited)",
    _one_digit_edited: "results.csv with the SHA-256 results.json records (it differs: edited, or another run's)",
    _another_runs_table: "results.csv of the {recorded} bytes results.json records (it has {now}: cut short or edited)",
    _grid_removed: "results.nc beside results.json, which lists it (there is none: not a whole folder)",
    _rows_edited: "results.csv with the 3 rows results.json records (it has 2)",
}


@pytest.mark.parametrize("fault", FAULTS, ids=lambda fault: fault.__name__.strip("_"))
def test_a_result_file_cut_short_edited_missing_or_another_runs_is_refused(tmp_path, fault):
    folder = tmp_path / "sweep"
    write_results(_sweep_result(), {}, folder)
    assert load_results(folder).table["int_lambda_n"].tolist() == [0.3249157, 0.32476]
    recorded = (folder / "results.csv").stat().st_size
    fault(folder)
    _refused(folder, FAULTS[fault].format(recorded=recorded, now=(folder / "results.csv").stat().st_size))


def test_a_grid_that_results_json_does_not_list_is_another_runs(tmp_path):
    sweep, tiny = tmp_path / "sweep", tmp_path / "tiny"
    write_results(_sweep_result(), {}, sweep)
    write_results(_tiny_result(), {}, tiny)
    shutil.copy(sweep / "results.nc", tiny / "results.nc")
    _refused(tiny, "no results.nc beside a results.json that does not list it (it is another run's: remove it)")


def test_a_folder_written_before_the_files_were_recorded_reads_unchecked(tmp_path):
    """A ``results.json`` with no ``files`` entry (an older version's) is read as its files are."""
    folder = tmp_path / "older"
    write_results(_sweep_result(), {}, folder)
    recorded = load_results(folder)
    document = json.loads((folder / "results.json").read_text())
    del document["files"]
    (folder / "results.json").write_text(json.dumps(document))
    older = load_results(folder)
    assert older.table.equals(recorded.table) and older.grid.identical(recorded.grid)
    assert "files" not in older.extra


#: Entries of ``results.json`` made malformed, and what the refusal says (``...`` leaves an entry out).
MALFORMED = [
    (None, [], "a results.json that holds an object, as `regcontact run` writes it (it holds a list)"),
    ("columns", ..., "a results.json with 'kind', 'config', 'columns', as `regcontact run` writes it (it has no "),
    ("kind", ["rigid_painleve"], "a results.json whose 'kind' is a string (it is a list)"),
    ("config", [], "a results.json whose 'config' is an object (it is a list)"),
    ("columns", "setup,mu,lambda_n", "a results.json whose 'columns' is a list of strings (it is a string)"),
    ("command", ["regcontact", 2], "a results.json whose 'command' is a list of strings (its item 1 is a number)"),
    ("versions", {"jax": 0.4}, "a results.json whose 'versions' is an object of strings (its 'jax' is a number)"),
    ("timings_s", {"total_s": "1 s"}, "whose 'timings_s' is an object of numbers (its 'total_s' is a string)"),
    ("summary", 3, "a results.json whose 'summary' is a list of strings (it is a number)"),
    ("convergence", "none", "a results.json whose 'convergence' is an object or null (it is a string)"),
    ("files", [], "a results.json whose 'files' is an object of records with one for results.csv"),
    ("files", {"results.csv": {"bytes": -1, "sha256": "0" * 64, "rows": 1}}, "(results.csv's bytes are no count)"),
]


@pytest.mark.parametrize(("key", "value", "expected"), MALFORMED, ids=[f"{k}={v!r}"[:32] for k, v, _ in MALFORMED])
def test_a_malformed_results_json_is_refused_in_one_line(tmp_path, key, value, expected):
    write_results(_tiny_result(), {}, tmp_path)
    document = json.loads((tmp_path / "results.json").read_text())
    if key is None:
        document = value
    elif value is ...:
        del document[key]
    else:
        document[key] = value
    (tmp_path / "results.json").write_text(json.dumps(document))
    _refused(tmp_path, expected)
