"""A resume continues only the same study: the same config, and the same code. A chunk's identity holds the
content of every file it runs (a user's body file, the modules that file imports, regcontact's own sources), so
a body edited at the same path between a stop and ``--resume`` is refused in one line instead of mixing two
bodies' rows. Chunk files are data (``.npz``, read without pickle) and are checked before use: a planted pickle
never runs, a damaged chunk is solved again, and links in the chunk folder are never followed."""

from __future__ import annotations

import io
import json
import pickle
import shutil
import sys
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from regcontact.cli import main
from regcontact.studies import _user_classes, chunk_checkpoints
from tests.studies.sweep_study import assert_same_results, ball_study, run_reference, saved_chunks, write_study

pytestmark = pytest.mark.slow

BODIES = Path(__file__).parent / "user_bodies"

BALL_STUDY = ball_study("alpha = [1e2, 1e3, 1e4, 1e5]\nchunk_size = 2")


def _stop_after(monkeypatch, saved: int) -> None:
    """Saving a chunk raises ``KeyboardInterrupt`` once ``saved`` chunks are on disk."""
    real = chunk_checkpoints.ChunkCheckpoints.save

    def save(self, first, runs):
        if self.kept >= saved:
            raise KeyboardInterrupt
        real(self, first, runs)

    monkeypatch.setattr(chunk_checkpoints.ChunkCheckpoints, "save", save)


def _ball_study(folder: Path, body: str) -> Path:
    (folder / "bodies.py").write_text(body, encoding="utf-8")
    path = folder / "study.toml"
    path.write_text(BALL_STUDY, encoding="utf-8")
    return path


def _interrupted(monkeypatch, config: Path, out: Path, saved: int = 2) -> None:
    with monkeypatch.context() as patch:
        _stop_after(patch, saved)
        assert main(["run", str(config), "--out", str(out)]) == 130


#: The ball's mass matrix, which the edits below change (its config keys stay as they are).
MASS_MATRIX = "return self.mass * jnp.eye(2)"


def test_a_body_file_edited_at_the_same_path_is_not_resumed(tmp_path, monkeypatch, capsys):
    """The issue's case: 1 of 2 chunks of the ball kept, then the ball's mass matrix doubled in the same file (the
    config, defaults included, is unchanged): ``--resume`` is refused, naming the file; ``--restart`` gives the
    rows a fresh run of the edited body gives."""
    ball = (BODIES / "ball.py").read_text(encoding="utf-8")
    assert MASS_MATRIX in ball
    config, out = _ball_study(tmp_path, ball), tmp_path / "out"
    _interrupted(monkeypatch, config, out, saved=1)
    edited = ball.replace(MASS_MATRIX, "return 2.0 * self.mass * jnp.eye(2)")
    (tmp_path / "bodies.py").write_text(edited, encoding="utf-8")
    capsys.readouterr()
    assert main(["run", str(config), "--out", str(out), "--resume"]) == 2
    assert capsys.readouterr().err == (
        f"regcontact: config error: --out = {str(out)!r}: expected a folder without chunks of another study (its "
        f"chunks/ are of {tmp_path / 'bodies.py'} as it was before (system.kind: the file changed); --restart "
        "discards them)\n"
    )
    assert sorted(path.name for path in (out / "chunks").glob("chunk-*")) == ["chunk-000000000.npz"]
    assert main(["run", str(config), "--out", str(out), "--restart"]) == 0
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    assert main(["run", str(_ball_study(fresh, edited)), "--out", str(fresh / "out")]) == 0
    original = tmp_path / "original"
    original.mkdir()
    assert main(["run", str(_ball_study(original, ball)), "--out", str(original / "out")]) == 0
    rows, fresh_rows, original_rows = (
        pd.read_csv(folder / "results.csv") for folder in (out, fresh / "out", original / "out")
    )
    pd.testing.assert_frame_equal(rows, fresh_rows)
    assert np.all(np.abs(rows["int_lambda_n"] / original_rows["int_lambda_n"] - 1) > 1e-3)  # every row is the edit's


def test_a_module_the_body_file_imports_is_part_of_the_identity(tmp_path, monkeypatch, capsys):
    """``bodies.py`` scales its mass matrix by a number from a helper module beside it: editing only the helper
    is another study too (a fresh process imports the new helper; this test forgets the imported modules as a new
    process would)."""
    helper = f"ball_scale_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{helper}.py").write_text("SCALE = 1.0\n", encoding="utf-8")
    ball = (BODIES / "ball.py").read_text(encoding="utf-8")
    body = ball.replace(MASS_MATRIX, f"return {helper}.SCALE * self.mass * jnp.eye(2)").replace(
        "from typing import ClassVar", f"from typing import ClassVar\n\nimport {helper}"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    config, out = _ball_study(tmp_path, body), tmp_path / "out"
    _interrupted(monkeypatch, config, out, saved=1)
    records = json.loads((out / "chunks" / "study.json").read_text())["code"]["classes"]["system.kind"]
    assert list(records["imports"]) == [str((tmp_path / f"{helper}.py").resolve())]

    (tmp_path / f"{helper}.py").write_text("SCALE = 2.0\n", encoding="utf-8")
    for key in [key for key in _user_classes._FILE_MODULES if key[0] == tmp_path / "bodies.py"]:
        monkeypatch.delitem(_user_classes._FILE_MODULES, key)
    monkeypatch.delitem(sys.modules, helper)
    capsys.readouterr()
    assert main(["run", str(config), "--out", str(out), "--resume"]) == 2
    assert "as it was before (system.kind: the file changed)" in capsys.readouterr().err


def test_edited_regcontact_sources_are_not_resumed(tmp_path, monkeypatch, capsys):
    """An edited checkout keeps its version string: the sources' own hash tells the code apart."""
    config, out = write_study(tmp_path), tmp_path / "out"
    _interrupted(monkeypatch, config, out)
    monkeypatch.setattr(chunk_checkpoints, "package_code", lambda: "0" * 64)
    capsys.readouterr()
    assert main(["run", str(config), "--out", str(out), "--resume"]) == 2
    assert capsys.readouterr().err == (
        f"regcontact: config error: --out = {str(out)!r}: expected a folder without chunks of another study (its "
        "chunks/ are of regcontact's source files as they were before an edit (the version string is the same); "
        "--restart discards them)\n"
    )


class _Planted:
    """A pickle that, if ever loaded, leaves a file behind."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.write_text, (self.marker, "ran"))


def _identity(out: Path) -> str:
    return json.loads((out / "chunks" / "study.json").read_text())["identity"]


def test_a_planted_pickle_chunk_never_runs(tmp_path, monkeypatch, capsys):
    """A file in the former format (a first line naming the study's identity, read from ``study.json``, then a
    pickle) is another format: refused before anything is read from it."""
    config, out = write_study(tmp_path), tmp_path / "out"
    _interrupted(monkeypatch, config, out)
    marker = tmp_path / "ran"
    planted = b"regcontact chunk " + _identity(out).encode() + b"\n" + pickle.dumps(_Planted(marker))
    (out / "chunks" / "chunk-000000004.pkl").write_bytes(planted)
    capsys.readouterr()
    assert main(["run", str(config), "--out", str(out), "--resume"]) == 2
    assert "are of another config, version or format, e.g. chunk-000000004.pkl" in capsys.readouterr().err
    assert not marker.exists()


def _replace_member(path: Path, name: str, array: np.ndarray, allow_pickle: bool = False) -> None:
    """The ``.npz`` at ``path`` with member ``name`` replaced by ``array``."""
    with np.load(path, allow_pickle=False) as archive:
        members = {key: archive[key] for key in archive.files}
    members[name] = array
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for key, value in members.items():
            with archive.open(f"{key}.npy", "w") as member:
                np.lib.format.write_array(member, value, allow_pickle=allow_pickle)
    path.write_bytes(buffer.getvalue())


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    return run_reference(tmp_path_factory.mktemp("reference"))


@pytest.mark.parametrize(
    "damage",
    ["object array", "wrong length", "status out of range", "float counts", "flipped byte", "cut short"],
)
def test_a_damaged_chunk_of_the_study_is_solved_again(tmp_path, reference, monkeypatch, damage):
    """A chunk with the study's identity that fails a check is not used: it is solved again, and the results
    equal an uninterrupted run's (no object array is ever unpickled)."""
    config, out = write_study(tmp_path), tmp_path / "out"
    _interrupted(monkeypatch, config, out)
    chunk = out / "chunks" / "chunk-000000002.npz"
    marker = tmp_path / "ran"
    if damage == "object array":
        _replace_member(chunk, "t_end", np.array([_Planted(marker), 1.0], dtype=object), allow_pickle=True)
    elif damage == "wrong length":
        _replace_member(chunk, "t_end", np.zeros(3))
    elif damage == "status out of range":
        _replace_member(chunk, "status", np.array([0, 99]))
    elif damage == "float counts":
        _replace_member(chunk, "num_steps", np.array([1.0, 2.0]))
    elif damage == "flipped byte":
        content = bytearray(chunk.read_bytes())
        position = content.index(b"t_end.npy") + 200  # inside the t_end member's data
        content[position] ^= 0xFF
        chunk.write_bytes(bytes(content))
    else:
        chunk.write_bytes(chunk.read_bytes()[:-100])
    solved = saved_chunks(monkeypatch)
    assert main(["run", str(config), "--out", str(out), "--resume"]) == 0
    assert solved == [2, 4, 6, 8, 10]
    assert not marker.exists()
    assert_same_results(out, reference)


def test_a_linked_chunk_folder_is_refused_and_restart_removes_only_the_link(tmp_path, monkeypatch, capsys):
    config, out = write_study(tmp_path), tmp_path / "out"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("mine")
    out.mkdir()
    (out / "chunks").symlink_to(elsewhere)
    assert main(["run", str(config), "--out", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"regcontact: config error: --out = {str(out)!r}: expected a folder whose chunks/ is a folder of its own, "
        f"not a symbolic link (to {str(elsewhere)!r}; --restart removes the link)\n"
    )
    assert main(["run", str(config), "--out", str(out), "--restart"]) == 0
    assert sorted(path.name for path in elsewhere.iterdir()) == ["keep.txt"]
    assert (elsewhere / "keep.txt").read_text() == "mine"
    assert (out / "results.csv").is_file() and not (out / "chunks").exists()


def test_links_planted_in_the_chunk_folder_are_never_written_through(tmp_path, monkeypatch, capsys):
    """A link under a chunk's temporary name and one under a chunk's own name: the run writes its files in their
    place; the files they point to keep their content."""
    config, out = write_study(tmp_path), tmp_path / "out"
    _interrupted(monkeypatch, config, out)
    victims = [tmp_path / "victim-partial", tmp_path / "victim-chunk"]
    for victim in victims:
        victim.write_text("mine")
    (out / "chunks" / ".chunk-000000004.npz.partial").symlink_to(victims[0])
    assert main(["run", str(config), "--out", str(out), "--resume"]) == 0
    assert all(victim.read_text() == "mine" for victim in victims[:1])

    _interrupted(monkeypatch, config, tmp_path / "second")
    (tmp_path / "second" / "chunks" / "chunk-000000004.npz").symlink_to(victims[1])
    capsys.readouterr()
    assert main(["run", str(config), "--out", str(tmp_path / "second"), "--resume"]) == 2
    assert "of another config, version or format, e.g. chunk-000000004.npz" in capsys.readouterr().err
    assert main(["run", str(config), "--out", str(tmp_path / "second"), "--restart"]) == 0
    assert victims[1].read_text() == "mine"
    shutil.rmtree(tmp_path / "second")
