"""A sweep's finished chunks, kept on disk as they come: an interrupted study loses nothing and resumes
(``docs/cluster.md``)."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import shutil
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

import regcontact
from regcontact._package_code import package_code
from regcontact.compliant import SOLVER_STATUSES, CompliantRun, CompliantState
from regcontact.compliant.run_checks import RUN_CHECKS
from regcontact.studies._own_files import create_own_file
from regcontact.studies._user_classes import class_records

__all__ = ["CHUNKS_FOLDER", "ChunkCheckpoints", "ChunkWriteError", "study_identity"]

#: The folder of the chunks inside a study's output folder.
CHUNKS_FOLDER = "chunks"
_MANIFEST = "study.json"
#: A chunk file is a numpy ``.npz`` archive (data only: it is read without pickle): the study's identity under
#: this name, then one array per field of the chunk's runs (:data:`_FIELDS`).
_IDENTITY = "identity"
#: The fields of a :class:`~regcontact.compliant.CompliantRun` as the archive names them, and the kind of number
#: each holds (``f`` float, ``i`` integer).
_FIELDS = {
    "t_end": "f",
    "state_end.q": "f",
    "state_end.v": "f",
    "state_end.impulses": "f",
    "termination": "i",
    "status": "i",
    "check": "i",
    "num_steps": "i",
    "num_accepted_steps": "i",
    "num_rejected_steps": "i",
    "num_restarts": "i",
}
#: Integer fields that index a list of names, and that list's length.
_CODES = {"status": len(SOLVER_STATUSES), "check": len(RUN_CHECKS)}


class ChunkWriteError(Exception):
    """A finished chunk could not be kept on disk (e.g. a full disk); the chunks kept before are whole."""


#: How a compliant study orders its cases into chunks (:func:`~regcontact.compliant.cost_order`); a chunk
#: is kept by its first case in that order, so chunks kept under another order are another study's.
CASE_ORDER = "by alpha, stable"


def _code_of(config: dict[str, Any]) -> dict[str, Any]:
    """What a study runs besides its config: the package's code, and each user class's files by their SHA-256."""
    return {"regcontact": package_code(), "classes": class_records(config)}


def study_identity(config: dict[str, Any]) -> str:
    """A hash of the resolved config, the package version and the content of the code it runs (regcontact's
    source files, every user file and class it names): chunks are reused only by the same study."""
    text = json.dumps(
        {
            "config": config,
            "regcontact": regcontact.__version__,
            "case_order": CASE_ORDER,
            "code": _code_of(config),
        },
        sort_keys=True,
        default=repr,
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _write_atomically(path: Path, content: bytes) -> None:
    """``path`` holds ``content`` whole, or is as it was: written to a temporary name, synced, renamed (and the
    rename synced, where the OS lets a folder be opened). The temporary file is created afresh (``O_EXCL``,
    ``O_NOFOLLOW``): a link planted under its name is removed, never written through; the rename replaces a
    link at ``path`` itself, not the file it points to."""
    partial = path.with_name(f".{path.name}.partial")
    try:
        with os.fdopen(create_own_file(partial), "wb") as handle:
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


def _chunk_bytes(identity: str, runs: CompliantRun) -> bytes:
    """One chunk as a ``.npz`` archive: the identity and the runs' host arrays, nothing that runs code when read."""
    arrays = {
        "t_end": runs.t_end,
        "state_end.q": runs.state_end.q,
        "state_end.v": runs.state_end.v,
        "state_end.impulses": runs.state_end.impulses,
        **{name: getattr(runs, name) for name in _FIELDS if "." not in name and name != "t_end"},
    }
    named: dict[str, Any] = {_IDENTITY: np.asarray(identity)}
    named.update((name, np.asarray(value)) for name, value in arrays.items())
    buffer = io.BytesIO()
    np.savez(buffer, **named)
    return buffer.getvalue()


def _open_chunk(path: Path) -> Any:
    """The archive at ``path`` read as data (no pickle), or ``None``: a link, not an archive, unreadable."""
    if path.is_symlink():
        return None
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile):
        return None


#: What :func:`_chunk_identity` says of a plain ``.npz`` chunk file that cannot be read as this format's archive
#: (cut short, damaged): not another study's, but nothing to resume either; it is solved again.
_DAMAGED = "damaged"


def _chunk_identity(path: Path) -> str | None:
    """The identity a chunk file names: ``"damaged"`` for a ``.npz`` file that cannot be read, ``None`` for a
    file of another format, a link, or one without an identity."""
    if path.is_symlink() or path.suffix != ".npz" or not path.is_file():
        return None
    archive = _open_chunk(path)
    if archive is None:
        return _DAMAGED
    with archive:
        try:
            identity = archive[_IDENTITY] if _IDENTITY in archive.files else None
        except (OSError, ValueError, EOFError, zipfile.BadZipFile):
            return _DAMAGED
    if identity is None or identity.shape != () or identity.dtype.kind != "U":
        return None
    return str(identity)


def _read_chunk(path: Path, identity: str, cases: int) -> CompliantRun | None:
    """The runs of a chunk file of this study holding ``cases`` cases, verified before use: the identity, every
    field there and no other, of its kind of number, one entry per case, codes in their range, counts not
    negative, and the archive's checksums (``None``: any of these fails; the chunk is then solved again)."""
    archive = _open_chunk(path)
    if archive is None:
        return None
    try:
        with archive:
            if set(archive.files) != {_IDENTITY, *_FIELDS}:
                return None
            arrays = {name: archive[name] for name in archive.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile):
        return None
    named = arrays.pop(_IDENTITY)
    if named.shape != () or named.dtype.kind != "U" or str(named) != identity:
        return None
    for name, kind in _FIELDS.items():
        array = arrays[name]
        if array.dtype.kind != kind or array.ndim < 1 or array.shape[0] != cases:
            return None
        if kind == "i" and (np.any(array < 0) or np.any(array >= _CODES.get(name, np.iinfo(array.dtype).max))):
            return None
    if arrays["state_end.q"].shape != arrays["state_end.v"].shape or arrays["state_end.impulses"].ndim != 3:
        return None
    if any(arrays[name].ndim != 1 for name in _FIELDS if name != "state_end.q" and "." not in name):
        return None
    state = CompliantState(
        q=arrays.pop("state_end.q"), v=arrays.pop("state_end.v"), impulses=arrays.pop("state_end.impulses")
    )
    return CompliantRun(state_end=state, **arrays)


def _first_case(path: Path) -> int | None:
    """The first case of a chunk file's name, ``chunk-000000064.npz`` (``None`` for another name)."""
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
        if path.is_symlink():
            return {}
        if not path.is_file():
            return None
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return manifest if isinstance(manifest, dict) else {}

    def _files(self) -> dict[Path, str | None]:
        """Every chunk file in the folder (of any format) and the identity it names."""
        if not self.folder.is_dir() or self.folder.is_symlink():
            return {}
        return {
            path: self.identity if path in self._verified else _chunk_identity(path)
            for path in sorted(self.folder.glob("chunk-*"))
        }

    def _why_another(self, manifest: dict[str, Any]) -> str:
        """What differs between the study ``study.json`` describes and this one, in a few words."""
        if manifest.get("regcontact") != regcontact.__version__:
            return f"regcontact {manifest.get('regcontact')}, not {regcontact.__version__}"
        kept = manifest.get("code")
        if not isinstance(kept, dict) or manifest.get("config") != json.loads(json.dumps(self.config, default=repr)):
            return "another config"
        if kept.get("regcontact") != package_code():
            return "regcontact's source files as they were before an edit (the version string is the same)"
        now = class_records(self.config)
        classes = kept.get("classes")
        before: dict[str, Any] = classes if isinstance(classes, dict) else {}
        changed = sorted(key for key in {*now, *before} if now.get(key) != before.get(key))
        if changed:
            file = (now.get(changed[0]) or before.get(changed[0]) or {}).get("file") or changed[0]
            return f"{file} as it was before ({changed[0]}: the file changed)"
        return "another config"

    def problem(self) -> str | None:
        """Why the folder's chunks cannot be resumed by this study (a link, another config, version or code, in
        ``study.json`` or in any chunk file), or None."""
        if self.folder.is_symlink():
            return (
                f"a folder whose {CHUNKS_FOLDER}/ is a folder of its own, not a symbolic link (to "
                f"{os.readlink(self.folder)!r}; --restart removes the link)"
            )
        if (self.folder / _MANIFEST).is_symlink():
            return f"a folder without links among its chunks ({CHUNKS_FOLDER}/{_MANIFEST} is one; --restart removes it)"
        manifest = self._manifest()
        if manifest is not None and manifest.get("identity") != self.identity:
            return (
                f"a folder without chunks of another study (its {CHUNKS_FOLDER}/ are of {self._why_another(manifest)}; "
                "--restart discards them)"
            )
        files = self._files()
        foreign = [path for path, identity in files.items() if identity not in (self.identity, _DAMAGED)]
        if foreign:
            return (
                f"a folder without chunks of another study ({len(foreign)} of the {len(files)} files in "
                f"{CHUNKS_FOLDER}/ are of another config, version or format, e.g. {foreign[0].name}; --restart "
                "discards them)"
            )
        return None

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
        case. A chunk file that cannot be read, or that fails its checks (:func:`_read_chunk`), is solved again."""
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
                runs = _read_chunk(path, self.identity, min(chunk_size, cases - first))
                if runs is not None:
                    done[first] = runs
                    self._verified.add(path)
        self.chunk_size, self.cases = chunk_size, cases
        self.chunks = -(-cases // chunk_size)
        self.kept = len(done)
        return chunk_size, done

    def save(self, first: int, runs: CompliantRun) -> None:
        """Keep one solved chunk; raises :class:`ChunkWriteError` if it cannot be written."""
        try:
            if self.folder.is_symlink():
                raise OSError(f"{self.folder} is a symbolic link")
            if not (self.folder / _MANIFEST).is_file():
                self.folder.mkdir(parents=True, exist_ok=True)
                manifest = {
                    "identity": self.identity,
                    "regcontact": regcontact.__version__,
                    "chunk_size": self.chunk_size,
                    "cases": self.cases,
                    "config": self.config,
                    "code": _code_of(self.config),
                }
                text = json.dumps(manifest, indent=2, sort_keys=True, default=repr) + "\n"
                _write_atomically(self.folder / _MANIFEST, text.encode())
            path = self.folder / f"chunk-{first:09d}.npz"
            _write_atomically(path, _chunk_bytes(self.identity, runs))
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
        """Remove the folder (after the results are written, or to start over); a link there is removed itself,
        not what it points to."""
        if self.folder.is_symlink():
            self.folder.unlink()
        else:
            shutil.rmtree(self.folder, ignore_errors=True)
        self._verified.clear()
