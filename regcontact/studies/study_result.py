"""The outcome of a study as data: a table of rows plus metadata, written as CSV and JSON (and a sweep's grid as
NetCDF), printed as text.

Results are written only once the whole study has run, and the files appear together or not at all (they are
written to temporary names and renamed), so a failed or interrupted run leaves nothing half-written.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import datetime
import functools
import importlib.metadata
import io
import json
import math
import os
import platform
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from regcontact.studies._own_files import foreign_entry, not_own, write_own_file
from regcontact.studies._result_files import FILES_ENTRY, file_records
from regcontact.studies._user_classes import class_records
from regcontact.studies.column_descriptions import MODEL_UNITS, describe_columns
from regcontact.studies.grid_dataset import GridAxis, grid_dataset
from regcontact.studies.run_lock import LOCK_FILE

__all__ = [
    "OWN_FILES",
    "RENAMING",
    "RESULT_FILES",
    "StudyResult",
    "constant_columns",
    "format_table",
    "installed_commit",
    "out_dir_problem",
    "package_versions",
    "results_document",
    "write_results",
]

#: The files :func:`write_results` writes into its folder: always the first two, the third for a sweep's grid.
RESULT_FILES = ("results.csv", "results.json", "results.nc")


def _partial(path: Path) -> Path:
    """The temporary name a result file is written to before it is renamed into place."""
    return path.with_name(f".{path.name}.partial")


#: The files a run creates in its folder besides the results: its lock and the results' temporary names.
OWN_FILES = (LOCK_FILE, *(_partial(Path(name)).name for name in RESULT_FILES))


@dataclasses.dataclass
class StudyResult:
    """Rows (one per case) and what is needed to trust and reproduce them."""

    name: str
    kind: str
    rows: list[dict[str, Any]]
    references: dict[str, Any] = dataclasses.field(default_factory=dict)
    solver_statistics: dict[str, Any] = dataclasses.field(default_factory=dict)
    timings: dict[str, float] = dataclasses.field(default_factory=dict)
    failures: list[str] = dataclasses.field(default_factory=list)
    summary: list[str] = dataclasses.field(default_factory=list)
    notes: list[str] = dataclasses.field(default_factory=list)
    device: str = ""
    #: Further top-level JSON entries of a study kind (e.g. ``partial_results`` of failed runs).
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: The axes of a sweep whose rows fill a grid in C order: then also written as ``results.nc``.
    grid: list[GridAxis] | None = None

    @property
    def columns(self) -> list[str]:
        """Every column that any row has, in first-seen order."""
        seen: dict[str, None] = {}
        for row in self.rows:
            seen.update(dict.fromkeys(row))
        return list(seen)


def package_versions() -> dict[str, str]:
    """Versions of Python, the platform and the packages the numbers depend on, and the git commit of
    regcontact (:func:`git_commit`, else :func:`installed_commit`)."""
    versions = {"python": sys.version.split()[0], "platform": platform.platform()}
    for name in ("regcontact", "jax", "jaxlib", "diffrax", "equinox", "optimistix", "lineax", "numpy", "scipy"):
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = "not installed"
    commit = git_commit() or installed_commit()
    if commit:
        versions["regcontact_git_commit"] = commit
    return versions


def git_commit() -> str | None:
    """The commit of the checkout regcontact runs from (``+dirty`` with uncommitted changes), or None when it is
    not run from a git checkout (an installed wheel) or git is not at hand."""
    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists():
        return None
    try:
        run = functools.partial(subprocess.run, cwd=root, capture_output=True, text=True, timeout=10, check=True)
        commit = run(["git", "rev-parse", "HEAD"]).stdout.strip()
        dirty = run(["git", "status", "--porcelain", "--untracked-files=no"]).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return commit + ("+dirty" if dirty else "")


#: Written into the wheel by the build (``hatch_build.py`` at the repository root): the commit it was built from.
_COMMIT_FILE = Path(__file__).resolve().parents[1] / "_commit.txt"


def installed_commit() -> str | None:
    """The commit a non-editable install was built from (``pip install .`` from a checkout, or a ``git archive``
    tarball), or None (an editable install, or built without git)."""
    try:
        return _COMMIT_FILE.read_text(encoding="ascii").strip() or None
    except OSError:
        return None


def _csv_text(result: StudyResult) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=result.columns, lineterminator="\n")
    writer.writeheader()
    for row in result.rows:
        writer.writerow({key: _csv_value(value) for key, value in row.items()})
    return buffer.getvalue()


def _csv_value(value: Any) -> Any:
    return repr(value) if isinstance(value, float) else value


def _json_ready(value: Any) -> Any:
    """Replace non-finite floats (not valid JSON) by strings."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {key: _json_ready(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(item) for item in value]
    return value


def out_dir_problem(out_dir: Path) -> str | None:
    """What ``out_dir`` would have to be for results to be written there, or None if they can be.

    Checked before a study runs, so that a bad ``--out`` costs nothing; creates nothing. The folder must be a
    writable directory, or be creatable: its nearest existing parent a writable directory. The names of the
    run's own files (:data:`OWN_FILES`) must hold nothing or a plain file (one a killed run left): never a
    symbolic link or another file's hard link, which the run would write through.
    """
    if os.path.lexists(out_dir) and not os.path.isdir(out_dir):
        return "a folder (it exists and is not one)"
    for name in RESULT_FILES:
        if os.path.isdir(out_dir / name):
            return f"a folder where {name} can be written (there is a directory of that name)"
    for name in OWN_FILES:
        foreign = foreign_entry(out_dir / name)
        if foreign is not None:
            return not_own(out_dir / name, foreign)
    existing = out_dir
    while not os.path.lexists(existing) and existing != existing.parent:
        existing = existing.parent
    if not os.path.isdir(existing):
        return f"a folder that can be created ({str(existing)!r} is not a directory)"
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"a writable folder ({str(existing)!r} is not writable)"
    return None


#: Held while the result files are renamed into place: a watchdog that ends the process on a signal waits for it.
RENAMING = threading.Lock()

#: The signals held back while the result files are renamed.
_DEFERRED = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def _interrupt_deferred() -> Iterator[None]:
    """Hold back Ctrl-C and SIGTERM until the block is done, then deliver them: a rename pair is not cut in half."""
    with RENAMING:
        handlers = {signum: signal.getsignal(signum) for signum in _DEFERRED}
        if threading.current_thread() is not threading.main_thread() or None in handlers.values():
            yield  # only the main thread may set handlers, and one set outside Python cannot be put back
            return
        caught: list[int] = []
        for deferred in _DEFERRED:
            signal.signal(deferred, lambda signum, frame: caught.append(signum))
        try:
            yield
        finally:
            for deferred, handler in handlers.items():
                signal.signal(deferred, handler)
        for signum in dict.fromkeys(caught):
            signal.raise_signal(signum)


def results_document(result: StudyResult, config: dict[str, Any], command: list[str] | None = None) -> dict:
    """What ``results.json`` holds: the config, references, statistics, timings, versions and columns; for each
    class the config names by path (a user's body or law), its source file and that file's SHA-256."""
    return {
        "study": result.name,
        "kind": result.kind,
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "command": command or [],
        "config": config,
        **({"classes": classes} if (classes := class_records(config)) else {}),
        "references": result.references,
        "solver_statistics": result.solver_statistics,
        "timings_s": result.timings,
        "failures": result.failures,
        "summary": result.summary,
        "notes": result.notes,
        "device": result.device,
        **result.extra,
        "versions": package_versions(),
        "columns": result.columns,
        "units": MODEL_UNITS,
        "column_descriptions": describe_columns(result.columns),
    }


def write_results(
    result: StudyResult, config: dict[str, Any], out_dir: Path, command: list[str] | None = None
) -> tuple[Path, ...]:
    """Write ``results.csv``, ``results.json`` and, for a grid, ``results.nc`` into ``out_dir``: all or none.
    Returns the paths written. ``results.json`` records the others' sizes and SHA-256 and the table's rows
    (:mod:`~regcontact.studies._result_files`), which :func:`~regcontact.studies.load_results` checks. A result
    file of a former study that this one does not rewrite (a grid sweep's ``results.nc`` after a study without a
    grid) is removed: the folder holds one study's results.

    An error or Ctrl-C while writing leaves the old files, if any, and no partial ones; Ctrl-C during the
    renames is delivered once they are all done. The temporary files are created afresh (``O_EXCL``, never
    through a link at their names: :func:`~regcontact.studies._own_files.create_own_file`).
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    document = results_document(result, config, command)
    csv_name, json_name, grid_name = RESULT_FILES
    contents = {csv_name: _csv_text(result).encode()}
    if result.grid is not None:
        keys = ("study", "kind", "created", "command", "config", "device", "versions")
        attributes = {key: _json_ready(document[key]) for key in keys}
        dataset = grid_dataset(result.rows, result.grid, {**attributes, "see": json_name})
        contents[grid_name] = bytes(dataset.to_netcdf(engine="scipy"))
    document[FILES_ENTRY] = file_records(contents, csv_name, len(result.rows))
    contents[json_name] = (json.dumps(_json_ready(document), indent=2, ensure_ascii=False) + "\n").encode()
    targets = {out_dir / name: contents[name] for name in RESULT_FILES if name in contents}
    temporary = {path: _partial(path) for path in targets}
    former = [out_dir / name for name in RESULT_FILES if out_dir / name not in targets]
    try:
        for path, content in targets.items():
            write_own_file(temporary[path], content)
        with _interrupt_deferred():
            for path in former:
                path.unlink(missing_ok=True)
            for path in targets:
                os.replace(temporary[path], path)
    finally:
        for partial in temporary.values():
            partial.unlink(missing_ok=True)
    return tuple(targets)


def _cell(value: Any) -> str:
    if value is None:  # a failed run's blank result
        return ""
    if isinstance(value, float):
        return f"{value:.6g}" if abs(value) >= 1e-3 or value == 0 else f"{value:.3e}"
    return str(value)


def constant_columns(result: StudyResult, columns: list[str]) -> dict[str, str]:
    """Those of ``columns`` that print the same in every row of a result of two or more rows, with that cell."""
    if len(result.rows) < 2:
        return {}
    same = {}
    for column in columns:
        cells = {_cell(row.get(column, "")) for row in result.rows}
        if len(cells) == 1 and (cell := cells.pop()):
            same[column] = cell
    return same


#: A printed table longer than this shows its first and last :data:`SHOWN_ENDS` rows (the files have them all).
MAX_PRINTED_ROWS = 60
SHOWN_ENDS = 20


def format_table(result: StudyResult, columns: list[str] | None = None, max_rows: int = MAX_PRINTED_ROWS) -> str:
    """The rows as an aligned text table (all columns unless ``columns`` is given); past ``max_rows`` rows, the
    first and last :data:`SHOWN_ENDS` and a line saying how many are left out."""
    columns = columns or result.columns
    rows = result.rows
    left_out = len(rows) - 2 * SHOWN_ENDS if len(rows) > max_rows else 0
    if left_out:
        rows = rows[:SHOWN_ENDS] + rows[-SHOWN_ENDS:]
    cells = [columns] + [[_cell(row.get(column, "")) for column in columns] for row in rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(columns))]
    lines = ["  ".join(cell.rjust(width) for cell, width in zip(line, widths)) for line in cells]
    lines.insert(1, "  ".join("-" * width for width in widths))
    if left_out:
        lines.insert(2 + SHOWN_ENDS, f"… {left_out:,} more rows (every row is in {RESULT_FILES[0]}) …")
    return "\n".join(lines)
