"""The output folder is the run's own: the files it creates there are never written through a link someone put
at their names, and it holds one study's results."""

import os
from pathlib import Path

import pytest

from regcontact.cli import main
from regcontact.studies import StudyResult, load_results, rigid_study
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
    sweep = StudyResult(
        "sweep",
        "compliant_sweep",
        [{"alpha": 1e3, "int_lambda_n": 0.3}, {"alpha": 1e4, "int_lambda_n": 0.32}],
        grid=[GridAxis("alpha", {"alpha": [1e3, 1e4]})],
    )
    assert [path.name for path in write_results(sweep, {}, tmp_path)] == ["results.csv", "results.json", "results.nc"]
    assert load_results(tmp_path).grid is not None
    written = write_results(_tiny_result(), {}, tmp_path)
    assert sorted(os.listdir(tmp_path)) == sorted(path.name for path in written) == ["results.csv", "results.json"]
    results = load_results(tmp_path)
    assert results.kind.NAME == "rigid_painleve" and results.grid is None
