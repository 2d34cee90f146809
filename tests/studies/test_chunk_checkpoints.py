"""A sweep loses nothing: each finished chunk is on disk at once, whole; Ctrl-C, SIGTERM, SIGKILL, an exception
or a full disk keep the finished chunks and say how many; ``--resume`` solves only the rest, and the results
equal an uninterrupted run's (the CSV byte for byte). Chunks of another config or version are refused."""

import errno
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import regcontact
from regcontact.cli import main
from regcontact.studies import chunk_checkpoints
from regcontact.studies.config import ConfigError
from tests.studies.sweep_study import assert_same_results, run_reference, saved_chunks, write_study

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
CHUNKS = 6


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    return run_reference(tmp_path_factory.mktemp("reference"))


def _stop_after(monkeypatch, saved: int, error: BaseException) -> None:
    """Saving a chunk raises ``error`` once ``saved`` chunks are on disk."""
    real = chunk_checkpoints.ChunkCheckpoints.save

    def save(self, first, runs):
        if self.kept >= saved:
            raise error
        real(self, first, runs)

    monkeypatch.setattr(chunk_checkpoints.ChunkCheckpoints, "save", save)


def _chunk_files(out: Path) -> list[str]:
    return sorted(path.name for path in (out / "chunks").iterdir())


def test_ctrl_c_keeps_the_finished_chunks_and_resume_equals_an_uninterrupted_run(
    tmp_path, reference, monkeypatch, capsys
):
    config, out = str(write_study(tmp_path)), str(tmp_path / "out")
    _stop_after(monkeypatch, 2, KeyboardInterrupt())
    assert main(["run", config, "--out", out]) == 130
    line = capsys.readouterr().err.splitlines()[-1]
    assert line == (
        f"regcontact: interrupted; kept 2 of {CHUNKS} chunks (4 of 12 cases) in {out}/chunks: "
        "the same command with --resume continues"
    )
    assert _chunk_files(tmp_path / "out") == ["chunk-000000000.npz", "chunk-000000002.npz", "study.json"]
    assert not (tmp_path / "out" / "results.csv").exists()

    monkeypatch.undo()
    assert main(["run", config, "--out", out, "--resume"]) == 0
    assert f"resuming: kept 2 of {CHUNKS} chunks (4 of 12 cases)" in capsys.readouterr().err
    assert_same_results(tmp_path / "out", reference)


def test_resume_solves_only_the_missing_chunks(tmp_path, reference, monkeypatch):
    config, out = str(write_study(tmp_path)), str(tmp_path / "out")
    _stop_after(monkeypatch, 4, KeyboardInterrupt())
    assert main(["run", config, "--out", out]) == 130
    monkeypatch.undo()
    solved = saved_chunks(monkeypatch)
    assert main(["run", config, "--out", out, "--resume"]) == 0
    assert solved == [8, 10]
    assert_same_results(tmp_path / "out", reference)


def test_an_exception_in_a_chunk_keeps_the_finished_ones_and_says_how_many(tmp_path, reference, monkeypatch, capsys):
    config, out = str(write_study(tmp_path)), str(tmp_path / "out")
    _stop_after(monkeypatch, 3, RuntimeError("a solver crashed"))
    with pytest.raises(RuntimeError, match="a solver crashed"):
        main(["run", config, "--out", out])
    assert f"regcontact: kept 3 of {CHUNKS} chunks (6 of 12 cases)" in capsys.readouterr().err
    monkeypatch.undo()
    assert main(["run", config, "--out", out, "--resume"]) == 0
    assert_same_results(tmp_path / "out", reference)


def test_a_full_disk_keeps_the_finished_chunks_and_says_how_many(tmp_path, reference, monkeypatch, capsys):
    config, out = str(write_study(tmp_path)), str(tmp_path / "out")
    real = chunk_checkpoints._write_atomically
    writes = []

    def write_atomically(path, content):
        writes.append(path)
        if len(writes) > 3:  # the study's identity and two chunks fit
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, content)

    monkeypatch.setattr(chunk_checkpoints, "_write_atomically", write_atomically)
    assert main(["run", config, "--out", out]) == 1
    line = capsys.readouterr().err.splitlines()[-1]
    assert line == (
        f"regcontact: could not keep a chunk in '{out}/chunks' (No space left on device); kept 2 of {CHUNKS} "
        "chunks (4 of 12 cases) in " + f"{out}/chunks: the same command with --resume continues"
    )
    assert not any(name.endswith(".partial") for name in os.listdir(tmp_path / "out" / "chunks"))
    monkeypatch.undo()
    assert main(["run", config, "--out", out, "--resume"]) == 0
    assert_same_results(tmp_path / "out", reference)


def _interrupted(tmp_path, monkeypatch) -> tuple[str, str]:
    config, out = str(write_study(tmp_path)), str(tmp_path / "out")
    _stop_after(monkeypatch, 2, KeyboardInterrupt())
    assert main(["run", config, "--out", out]) == 130
    monkeypatch.undo()
    return config, out


def test_kept_chunks_are_not_run_over_without_resume_or_restart(tmp_path, monkeypatch, capsys):
    config, out = _interrupted(tmp_path, monkeypatch)
    capsys.readouterr()
    assert main(["run", config, "--out", out]) == 2
    assert capsys.readouterr().err == (
        f"regcontact: config error: --out = {out!r}: expected a folder without kept chunks (it holds 2 of this "
        "study's in chunks/: --resume continues them, --restart discards them)\n"
    )


def test_a_changed_config_is_refused_in_one_line_unless_asked_to_start_over(tmp_path, monkeypatch, capsys):
    config, out = _interrupted(tmp_path, monkeypatch)
    capsys.readouterr()
    changed = ["run", config, "--out", out, "--set", "solver.rtol=1e-8"]
    assert main([*changed, "--resume"]) == 2
    assert capsys.readouterr().err == (
        f"regcontact: config error: --out = {out!r}: expected a folder without chunks of another study (its "
        "chunks/ are of another config; --restart discards them)\n"
    )
    assert main([*changed, "--restart"]) == 0
    assert not (tmp_path / "out" / "chunks").exists()


def test_another_package_version_is_refused_in_one_line(tmp_path, monkeypatch, capsys):
    config, out = _interrupted(tmp_path, monkeypatch)
    capsys.readouterr()
    kept_by = regcontact.__version__
    monkeypatch.setattr(regcontact, "__version__", "99.0")
    assert main(["run", config, "--out", out, "--resume"]) == 2
    assert capsys.readouterr().err == (
        f"regcontact: config error: --out = {out!r}: expected a folder without chunks of another study (its "
        f"chunks/ are of regcontact {kept_by}, not 99.0; --restart discards them)\n"
    )


# --- real signals to a running `regcontact run`, then resume --------------------------------------------------

#: ``regcontact run`` that says on stderr when each chunk is on disk, and waits a little after each.
SLOWED = """
import sys, time
from regcontact.studies import chunk_checkpoints
from regcontact.studies.config import ConfigError
from regcontact.cli import main
real = chunk_checkpoints.ChunkCheckpoints.save
def save(self, first, runs):
    real(self, first, runs)
    print(f"saved {first}", file=sys.stderr, flush=True)
    time.sleep(0.3)
chunk_checkpoints.ChunkCheckpoints.save = save
sys.exit(main())
"""


@pytest.fixture(scope="module")
def compilation_cache(tmp_path_factory) -> str:
    """A compilation cache the signalled processes share: the first compiles, the others load."""
    return str(tmp_path_factory.mktemp("compilation_cache"))


@pytest.mark.parametrize(
    ("signum", "status", "word"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated"), (signal.SIGKILL, -9, None)],
)
def test_a_signal_between_chunks_then_resume_equals_an_uninterrupted_run(
    tmp_path, reference, compilation_cache, signum, status, word
):
    config, out = str(write_study(tmp_path)), str(tmp_path / "out")
    environment = {
        "PYTHONPATH": str(ROOT),
        "JAX_NUM_CPU_DEVICES": "2",
        "REGCONTACT_COMPILATION_CACHE": compilation_cache,
    }
    process = subprocess.Popen(
        [sys.executable, "-c", SLOWED, "run", config, "--out", out],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **environment},
    )
    assert process.stderr is not None
    while (line := process.stderr.readline()) != "saved 2\n":
        assert line, "the run ended before its second chunk"
    process.send_signal(signum)
    _, err = process.communicate(timeout=60)
    assert process.returncode == status
    if word is not None:
        kept = err.splitlines()[-1]
        assert kept.startswith(f"regcontact: {word}; kept ") and kept.endswith("--resume continues")
    assert 2 <= len(_chunk_files(tmp_path / "out")) - 1 < CHUNKS
    assert main(["run", config, "--out", out, "--resume"]) == 0
    assert_same_results(tmp_path / "out", reference)


def test_run_study_keeps_locks_and_resumes_as_the_command_line_does(tmp_path, reference, monkeypatch):
    """``rc.run_study(..., out=...)`` keeps each finished chunk when interrupted, refuses the kept chunks without
    ``resume`` (naming ``out``), and with ``resume=True`` solves only the rest: the results equal an uninterrupted
    run's. Before, it had no checkpoints: an interrupted Python run lost everything."""
    config, out = write_study(tmp_path), tmp_path / "out"
    _stop_after(monkeypatch, 2, KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        regcontact.run_study(config, out=out, progress=lambda message: None)
    monkeypatch.undo()
    assert _chunk_files(out) == ["chunk-000000000.npz", "chunk-000000002.npz", "study.json"]
    with pytest.raises(ConfigError, match=r"^out = .*: expected a folder without kept chunks .*resume=True"):
        regcontact.run_study(config, out=out, progress=lambda message: None)
    solved = saved_chunks(monkeypatch)
    said: list[str] = []
    run = regcontact.run_study(config, out=out, progress=said.append, resume=True)
    assert run.ok and solved == [4, 6, 8, 10]
    assert f"resuming: kept 2 of {CHUNKS} chunks (4 of 12 cases)" in " ".join(said)
    assert_same_results(out, reference)
    with pytest.raises(ConfigError, match=r"^resume = True: expected an out folder"):
        regcontact.run_study(config, resume=True)
    with pytest.raises(TypeError, match=r"^resume = 'yes': expected True or False, not a str$"):
        regcontact.run_study(config, out=out, resume="yes")
