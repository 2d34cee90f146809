"""A sweep's finished chunks, kept on disk as they come: an interrupted study loses nothing and resumes.

The chunks live in ``<out>/chunks/``: ``study.json`` names the study they belong to (its identity: a hash of the
resolved config and the package version; the chunk size; the case count), and ``chunk-<first case>.pkl`` holds
one chunk's runs (host arrays). Each file is written to a temporary name, flushed to the disk and renamed: a
chunk is there whole or not at all, whatever stops the process (Ctrl-C, SIGTERM, SIGKILL, a full disk). A run
on the same folder takes the chunks of the same study and solves only the others; chunks of another study (a
changed config or package version) are refused unless the caller discards them.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pickle
import shutil
from pathlib import Path
from typing import Any

import regcontact
from regcontact.compliant.simulate import CompliantRun
from regcontact.studies.config import ConfigError

__all__ = ["CHUNKS_FOLDER", "ChunkCheckpoints", "ChunkWriteError", "study_identity"]

#: The folder of the chunks inside a study's output folder.
CHUNKS_FOLDER = "chunks"
_MANIFEST = "study.json"


class ChunkWriteError(Exception):
    """A finished chunk could not be kept on disk (e.g. a full disk); the chunks kept before are whole."""


#: How a compliant study orders its cases into chunks (:func:`~regcontact.compliant.simulate.cost_order`); a chunk
#: is kept by its first case in that order, so chunks kept under another order are another study's.
CASE_ORDER = "by alpha, stable"


def study_identity(config: dict[str, Any]) -> str:
    """A hash of the resolved config and the package version: chunks are reused only by the same study."""
    text = json.dumps(
        {"config": config, "regcontact": regcontact.__version__, "case_order": CASE_ORDER}, sort_keys=True, default=repr
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _write_atomically(path: Path, content: bytes) -> None:
    """``path`` holds ``content`` whole, or is as it was: written to a temporary name, synced, renamed (and the
    rename synced, where the OS lets a folder be opened)."""
    partial = path.with_name(f".{path.name}.partial")
    try:
        with open(partial, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


class ChunkCheckpoints:
    """The chunks of one study in ``folder``: what a former run kept (:meth:`resume`), and each new chunk as it
    is solved (:meth:`save`). Nothing is created before the first chunk is saved."""

    def __init__(self, folder: Path, config: dict[str, Any]):
        self.folder = Path(folder)
        self.config = config
        self.identity = study_identity(config)
        #: Chunks on disk for this study (kept before and saved since), and the chunk count of the whole sweep.
        self.kept = 0
        self.chunks = 0
        self.chunk_size: int | None = None
        self.cases = 0

    def _manifest(self) -> dict[str, Any] | None:
        path = self.folder / _MANIFEST
        if not path.is_file():
            return None
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    def problem(self) -> str | None:
        """Why the folder's chunks cannot be resumed by this study (another config or version), or None."""
        manifest = self._manifest()
        if manifest is None or manifest.get("identity") == self.identity:
            return None
        if manifest.get("regcontact") != regcontact.__version__:
            why = f"regcontact {manifest.get('regcontact')}, not {regcontact.__version__}"
        else:
            why = "another config"
        return f"a folder without chunks of another study (its {CHUNKS_FOLDER}/ are of {why}; --restart discards them)"

    def check(self, out_flag: str) -> None:
        """Raise :class:`ConfigError` (naming ``out_flag``'s value) if the folder holds another study's chunks."""
        problem = self.problem()
        if problem:
            raise ConfigError("--out", out_flag, problem)

    def held(self) -> int:
        """Chunk files of this study in the folder (0 when it holds none, or another study's)."""
        if self._manifest() is None or self.problem():
            return 0
        return len(list(self.folder.glob("chunk-*.pkl")))

    def resume(self, cases: int, chunk_size: int) -> tuple[int, dict[int, CompliantRun]]:
        """The chunk size to use (the one the kept chunks were solved with, if any) and the kept chunks by first
        case. A chunk file that cannot be read is solved again."""
        manifest = self._manifest() if not self.problem() else None
        if manifest and manifest.get("cases") == cases:
            chunk_size = int(manifest["chunk_size"])
        else:
            manifest = None
        done: dict[int, CompliantRun] = {}
        if manifest:
            for path in sorted(self.folder.glob("chunk-*.pkl")):
                try:
                    done[int(path.stem.removeprefix("chunk-"))] = pickle.loads(path.read_bytes())
                except (OSError, ValueError, pickle.UnpicklingError, EOFError):
                    continue
        self.chunk_size, self.cases = chunk_size, cases
        self.chunks = -(-cases // chunk_size)
        self.kept = len(done)
        return chunk_size, done

    def save(self, first: int, runs: CompliantRun) -> None:
        """Keep one solved chunk; raises :class:`ChunkWriteError` if it cannot be written."""
        try:
            if not (self.folder / _MANIFEST).is_file():
                self.folder.mkdir(parents=True, exist_ok=True)
                manifest = {
                    "identity": self.identity,
                    "regcontact": regcontact.__version__,
                    "chunk_size": self.chunk_size,
                    "cases": self.cases,
                    "config": self.config,
                }
                text = json.dumps(manifest, indent=2, sort_keys=True, default=repr) + "\n"
                _write_atomically(self.folder / _MANIFEST, text.encode())
            _write_atomically(self.folder / f"chunk-{first:09d}.pkl", pickle.dumps(runs))
        except OSError as error:
            raise ChunkWriteError(
                f"could not keep a chunk in {str(self.folder)!r} ({error.strerror or error})"
            ) from None
        self.kept += 1

    def summary(self) -> str:
        """``kept 3 of 10 chunks (96 of 320 cases) in out/chunks``."""
        chunk = self.chunk_size or 0
        cases = sum(min(chunk, self.cases - first) for first in self._firsts())
        return f"kept {self.kept} of {self.chunks} chunks ({cases} of {self.cases} cases) in {self.folder}"

    def _firsts(self) -> list[int]:
        return [int(path.stem.removeprefix("chunk-")) for path in self.folder.glob("chunk-*.pkl")]

    def discard(self) -> None:
        """Remove the folder (after the results are written, or to start over)."""
        shutil.rmtree(self.folder, ignore_errors=True)
