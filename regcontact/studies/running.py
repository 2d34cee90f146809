"""Run a study from Python as the command line does: ``run_study("studies/table1.toml", overrides={...})``."""

from __future__ import annotations

import dataclasses
import json
import math
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from regcontact._argument_checks import check_type
from regcontact.studies.config import ConfigError
from regcontact.studies.loading import LoadedStudy, load_config, load_study
from regcontact.studies.run_lock import lock_output
from regcontact.studies.study_result import StudyResult, out_dir_problem, results_document, write_results
from regcontact.studies.study_size import MAX_CASES, SizeLimits

__all__ = ["StudyRun", "open_checkpoints", "run_loaded", "run_study"]


@dataclasses.dataclass(frozen=True)
class StudyRun:
    """A study that has run: its result, the validated config it ran, and the written files (if any)."""

    result: StudyResult
    config: dict[str, Any]
    written: tuple[Path, ...] = ()

    @property
    def table(self):
        """The rows as a pandas DataFrame, one column per CSV column (blank results are NaN)."""
        import pandas

        return pandas.DataFrame(self.result.rows, columns=self.result.columns)

    @property
    def json(self) -> dict[str, Any]:
        """What ``results.json`` holds (the config, references, convergence, statistics, timings, versions)."""
        return json.loads(json.dumps(results_document(self.result, self.config), default=str))

    @property
    def ok(self) -> bool:
        """Every run of the study finished and passed its checks."""
        return not self.result.failures


def run_loaded(loaded: LoadedStudy, progress: Callable[[str], None], **sweep_options: Any) -> StudyResult:
    """Run a loaded study, its notes said first and kept in the result, with its total time. ``sweep_options``
    (``checkpoints``, ``engine``, ``announce_above``) go to a study kind whose sweep runs in chunks
    (:attr:`~regcontact.studies.AbstractStudyKind.CHUNKED`)."""
    for note in loaded.notes:
        progress(f"note: {note}")
    start = time.perf_counter()
    options = sweep_options if loaded.kind.CHUNKED else {}
    result = loaded.kind.run(loaded.config, progress=progress, **options)
    result.notes.extend(loaded.notes)
    result.timings["total_s"] = time.perf_counter() - start
    return result


def open_checkpoints(
    loaded: LoadedStudy, out_dir: Path, shown: str, resume: bool = False, restart: bool = False, key: str = "out"
):
    """The chunk checkpoints of a chunked study in ``out_dir`` (``None`` for a kind that does not run in chunks):
    chunks a former run of the same study kept are continued with ``resume``, discarded with ``restart``, and
    otherwise refused, as are another study's (:class:`ConfigError` of ``key`` and ``shown``, the folder as the
    user wrote it). The command line's ``--resume`` / ``--restart`` (``key = "--out"``) and :func:`run_study`'s
    ``resume`` / ``restart``."""
    from regcontact.studies.chunk_checkpoints import CHUNKS_FOLDER, ChunkCheckpoints

    if not loaded.kind.CHUNKED:
        return None
    checkpoints = ChunkCheckpoints(out_dir / CHUNKS_FOLDER, loaded.config)
    if restart:
        checkpoints.discard()
    again, anew = ("--resume", "--restart") if key == "--out" else ("resume=True", "restart=True")
    problem = checkpoints.problem()  # another study's chunks, or links the run did not make
    if problem:
        raise ConfigError(key, shown, problem.replace("--restart", anew))
    held = checkpoints.held()
    if held and not resume:
        raise ConfigError(
            key,
            shown,
            f"a folder without kept chunks (it holds {held} of this study's in {CHUNKS_FOLDER}/: {again} continues "
            f"them, {anew} discards them)",
        )
    return checkpoints


def _toml_value(value: Any) -> str:
    """A Python value written as TOML, for an override."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{key} = {_toml_value(item)}" for key, item in value.items()) + "}"
    if isinstance(value, Sequence) or hasattr(value, "tolist"):
        items = value.tolist() if hasattr(value, "tolist") else value
        return "[" + ", ".join(_toml_value(item) for item in items) + "]"
    raise TypeError(f"override value {value!r}: expected a number, string, bool, list or dict")


def _assignments(overrides: Mapping[str, Any] | Sequence[str]) -> list[str]:
    if isinstance(overrides, Mapping):
        return [f"{key}={_toml_value(value)}" for key, value in overrides.items()]
    return list(overrides)


def run_study(
    path_or_config: str | Path | Mapping[str, Any],
    overrides: Mapping[str, Any] | Sequence[str] = (),
    out: str | Path | None = None,
    progress: Callable[[str], None] | None = None,
    max_cases: int = MAX_CASES,
    max_memory: float | None = None,
    resume: bool = False,
    restart: bool = False,
) -> StudyRun:
    """Validate and run a study, as ``regcontact run`` does, and return its result.

    Nothing is changed about JAX's devices (call :func:`regcontact.use_host_cores` first to use every core). A
    study above the limits is refused before anything is built, and ``out`` is locked for the run, as the
    command line does.

    Args:
        path_or_config: a study's TOML file, or a dict shaped like one.
        overrides: ``{"system.mu": 2, "sweep.alpha": [1e3, 1e4]}``, or ``--set`` strings (``"system.mu=2"``),
            validated as the file is.
        out: a folder to write ``results.csv``, ``results.json`` (and ``results.nc``) into; default: none.
        progress: receives progress lines (default: printed to stderr).
        max_cases: the most cases a study may have (``regcontact check`` and
            :class:`~regcontact.studies.study_size.StudySize` say how many it has).
        max_memory: the most memory, in bytes, a study may be estimated to need (default: what is available).
        resume: continue the chunks a former run of the same study kept in ``out`` (a run stopped by Ctrl-C, an
            exception or a full disk keeps each finished chunk), as ``regcontact run --resume`` does; without it
            kept chunks are refused.
        restart: discard such chunks and start over (``--restart``).

    Returns:
        A :class:`StudyRun`: ``.table`` (a DataFrame of the rows), ``.json`` (what ``results.json`` holds),
        ``.ok``, ``.result`` (the :class:`~regcontact.studies.study_result.StudyResult`).

    Raises:
        ConfigError: a bad key or value, a study above the limits, an ``out`` that another run holds or where
            nothing can be written, with the one-line message the command line prints.

    Examples:
        >>> import regcontact as rc
        >>> run = rc.run_study("studies/table1.toml", overrides={"sweep.alpha": [1e6]})
        >>> round(float(run.table["int_lambda_n"][0]), 6)
        0.325839
    """
    for name, flag in (("resume", resume), ("restart", restart)):
        check_type(name, flag, bool, "True or False")
    assignments = _assignments(overrides)
    limits = SizeLimits(max_cases, max_memory)
    if isinstance(path_or_config, Mapping):
        loaded: LoadedStudy = load_config(dict(path_or_config), assignments, limits)
        source = "a config given as a dict"
    else:
        loaded = load_study(path_or_config, assignments, limits)
        source = str(Path(path_or_config).absolute())
    say = progress or (lambda message: print(f"[regcontact] {message}", file=sys.stderr, flush=True))
    if out is None:
        if resume or restart:
            raise ConfigError("resume" if resume else "restart", True, "an out folder, where the kept chunks are")
        return StudyRun(result=run_loaded(loaded, say), config=loaded.config)
    problem = out_dir_problem(Path(out))
    if problem:
        raise ConfigError("out", str(out), problem)
    lock = lock_output(Path(out), source, "out", str(out))
    with lock:
        checkpoints = open_checkpoints(loaded, Path(out), str(out), resume=resume, restart=restart)
        result = run_loaded(loaded, say, checkpoints=checkpoints)
        written = write_results(result, loaded.config, Path(out))
        if checkpoints is not None:
            checkpoints.discard()
    return StudyRun(result=result, config=loaded.config, written=written)
