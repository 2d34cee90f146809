"""A sweep's finished chunks, kept on disk as they come: an interrupted study loses nothing and resumes
(``docs/cluster.md``)."""

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
from regcontact.compliant import CompliantRun
from regcontact.studies.config import ConfigError

__all__ = ["CHUNKS_FOLDER", "ChunkCheckpoints", "ChunkWriteError", "study_identity"]

#: The folder of the chunks inside a study's output folder.
CHUNKS_FOLDER = "chunks"
_MANIFEST = "study.json"
#: A chunk file starts with this and its study's identity, on a line of its own; its runs are pickled after it.
_HEADER = b"regcontact chunk "
_HEADER_LENGTH = len(_HEADER) + 16 + 1  # the identity is 16 hex digits, then a newline


class ChunkWriteError(Exception):
    """A finished chunk could not be kept on disk (e.g. a full disk); the chunks kept before are whole."""


#: How a compliant study orders its cases into chunks (:func:`~regcontact.compliant.cost_order`); a chunk
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


def _chunk_identity(path: Path) -> str | None:
    """The identity a chunk file's first line names (``None``: none, a file of an older format, or unreadable)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(_HEADER_LENGTH)
    except OSError:
        return None
    if len(head) != _HEADER_LENGTH or not head.startswith(_HEADER) or not head.endswith(b"\n"):
        return None
    return head[len(_HEADER) : -1].decode("ascii", errors="replace")


def _first_case(path: Path) -> int | None:
    """The first case of a chunk file's name, ``chunk-000000064.pkl`` (``None`` for another name)."""
    digits = path.stem.removeprefix("chunk-")
    return int(digits) if digits.isdigit() else None


class ChunkCheckpoints:
    """The chunks of one study in ``folder``: what a former run kept (:meth:`resume`), and each new chunk as it
    is solved (:meth:`save`). Nothing is created before the first chunk is saved."""

    def __init__(self, folder: Path, config: dict[str, Any]):
        self.folder = Path(folder)
        self.config = config
        self.identity = study_identity(config)
        #: Chunks on disk for this study (kept before and saved since), and the chunk count of the whole sweep
        #: (both set by :meth:`resume`).
        self.kept = 0
        self.chunks = 0
        self.chunk_size: int | None = None
        self.cases = 0
        #: Chunk files read back or written by this object: known to be this study's, not read again to be counted.
        self._verified: set[Path] = set()

    def _manifest(self) -> dict[str, Any] | None:
        path = self.folder / _MANIFEST
        if not path.is_file():
            return None
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return manifest if isinstance(manifest, dict) else {}

    def _files(self) -> dict[Path, str | None]:
        """Every chunk file in the folder and the identity it names."""
        if not self.folder.is_dir():
            return {}
        return {
            path: self.identity if path in self._verified else _chunk_identity(path)
            for path in sorted(self.folder.glob("chunk-*.pkl"))
        }

    def problem(self) -> str | None:
        """Why the folder's chunks cannot be resumed by this study (another config or version, in ``study.json``
        or in any chunk file), or None."""
        manifest = self._manifest()
        if manifest is not None and manifest.get("identity") != self.identity:
            if manifest.get("regcontact") != regcontact.__version__:
                why = f"regcontact {manifest.get('regcontact')}, not {regcontact.__version__}"
            else:
                why = "another config"
            return (
                f"a folder without chunks of another study (its {CHUNKS_FOLDER}/ are of {why}; --restart discards them)"
            )
        files = self._files()
        foreign = [path for path, identity in files.items() if identity != self.identity]
        if foreign:
            return (
                f"a folder without chunks of another study ({len(foreign)} of the {len(files)} files in "
                f"{CHUNKS_FOLDER}/ are of another config, version or format, e.g. {foreign[0].name}; --restart "
                "discards them)"
            )
        return None

    def check(self, out_flag: str) -> None:
        """Raise :class:`ConfigError` (naming ``out_flag``'s value) if the folder holds another study's chunks."""
        problem = self.problem()
        if problem:
            raise ConfigError("--out", out_flag, problem)

    def _own(self) -> list[Path]:
        """The chunk files of this study in the folder (none while it holds another study's)."""
        if self.problem():
            return []
        return [path for path, identity in self._files().items() if identity == self.identity]

    def held(self) -> int:
        """Chunk files of this study in the folder (0 when it holds none, or another study's)."""
        return len(self._own())

    def resume(self, cases: int, chunk_size: int) -> tuple[int, dict[int, CompliantRun]]:
        """The chunk size to use (the one the kept chunks were solved with, if any) and the kept chunks by first
        case. A chunk file that cannot be read, or that turns out to be of another study, is solved again."""
        manifest = self._manifest() if not self.problem() else None
        if manifest and manifest.get("cases") == cases and isinstance(manifest.get("chunk_size"), int):
            chunk_size = int(manifest["chunk_size"])
        else:
            manifest = None
        done: dict[int, CompliantRun] = {}
        if manifest:
            for path in self._own():
                first = _first_case(path)
                if first is None or not 0 <= first < cases:
                    continue
                try:
                    content = path.read_bytes()
                    if content[:_HEADER_LENGTH] != _HEADER + self.identity.encode() + b"\n":
                        continue
                    done[first] = pickle.loads(content[_HEADER_LENGTH:])
                    self._verified.add(path)
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
            content = _HEADER + self.identity.encode() + b"\n" + pickle.dumps(runs)
            path = self.folder / f"chunk-{first:09d}.pkl"
            _write_atomically(path, content)
            self._verified.add(path)
        except OSError as error:
            raise ChunkWriteError(
                f"could not keep a chunk in {str(self.folder)!r} ({error.strerror or error})"
            ) from None
        self.kept += 1

    def _layout(self) -> tuple[int, int] | None:
        """``(chunk size, cases)`` of the sweep: set by :meth:`resume`, else as ``study.json`` says."""
        if self.chunk_size and self.cases:
            return self.chunk_size, self.cases
        manifest = self._manifest() or {}
        chunk, cases = manifest.get("chunk_size"), manifest.get("cases")
        if manifest.get("identity") != self.identity or not isinstance(chunk, int) or not isinstance(cases, int):
            return None
        if chunk < 1 or cases < 1:
            return None
        return chunk, cases

    def summary(self) -> str | None:
        """``kept 3 of 10 chunks (96 of 320 cases) in out/chunks``, as the disk holds them now (None: none)."""
        own = self._own()
        if not own:
            return None
        layout = self._layout()
        if layout is None:
            return f"kept {len(own)} chunk files in {self.folder}"
        chunk, cases = layout
        firsts = [first for path in own if (first := _first_case(path)) is not None and 0 <= first < cases]
        kept_cases = sum(min(chunk, cases - first) for first in firsts)
        return f"kept {len(firsts)} of {-(-cases // chunk)} chunks ({kept_cases} of {cases} cases) in {self.folder}"

    def discard(self) -> None:
        """Remove the folder (after the results are written, or to start over)."""
        shutil.rmtree(self.folder, ignore_errors=True)
        self._verified.clear()
