"""A finished study read back from its folder (what ``regcontact run`` wrote there) as one typed object."""

from __future__ import annotations

import dataclasses
import io
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regcontact.studies._result_files import FILES_ENTRY, read_recorded_files
from regcontact.studies._study_kind import AbstractStudyKind
from regcontact.studies.config import ConfigError
from regcontact.studies.study_result import RESULT_FILES, StudyResult, package_versions

if TYPE_CHECKING:
    import pandas as pd
    import xarray as xr

__all__ = ["FinishedStudy", "Provenance", "load_results"]

#: The entries of ``results.json`` that :class:`FinishedStudy` holds as fields; any other is in ``extra``.
_FIELDS = (
    "study",
    "kind",
    "created",
    "command",
    "config",
    "classes",
    "references",
    "solver_statistics",
    "timings_s",
    "failures",
    "summary",
    "notes",
    "device",
    "convergence",
    "versions",
    "columns",
    "units",
    "column_descriptions",
    FILES_ENTRY,
)

#: What ``results.json`` writes for a non-finite float (JSON has none).
_NON_FINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}


@dataclasses.dataclass(frozen=True)
class Provenance:
    """Where a finished study's numbers come from: when and by which command it ran, the package versions and the
    git commit (``None`` when it did not run from a checkout), its timings (seconds, by phase), its solver
    statistics, the device, and the source file and SHA-256 of each class its config names by path."""

    created: str
    command: tuple[str, ...]
    versions: dict[str, str]
    commit: str | None
    timings: dict[str, float]
    solver_statistics: dict[str, Any]
    device: str
    classes: dict[str, Any]


@dataclasses.dataclass(frozen=True)
class FinishedStudy:
    """A finished study as data: what :func:`load_results` reads from a results folder.

    Attributes:
        name: the study's name (``[study] name``).
        kind: its study kind (:class:`~regcontact.studies.AbstractStudyKind`; ``kind.NAME`` is its name).
        table: ``results.csv`` as a pandas DataFrame, one row per case.
        grid: ``results.nc`` as an xarray Dataset, one variable per column over the sweep's axes (``None`` for a
            study that writes no grid).
        config: the resolved config the study ran with, every default filled in.
        references: the rigid references it was compared with (e.g. ``impulse_velocity``, ``time_stepping``).
        convergence: the convergence analysis (fitted orders, distances, fit ranges per system; ``None`` for a
            kind that writes none).
        provenance: versions, commit, timings and solver statistics (:class:`Provenance`).
        summary: the summary lines printed after the run; ``notes`` and ``failures`` likewise.
        units: the model units; ``column_descriptions``: what each column means.
        extra: any further entry of its ``results.json`` (e.g. a trajectory study's ``orders``).
        folder: the folder it was read from (``None`` for one built in memory by :meth:`from_result`).
    """

    name: str
    kind: AbstractStudyKind
    table: pd.DataFrame
    grid: xr.Dataset | None
    config: dict[str, Any]
    references: dict[str, Any]
    convergence: dict[str, Any] | None
    provenance: Provenance
    summary: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    failures: tuple[str, ...] = ()
    units: str = ""
    column_descriptions: dict[str, str] = dataclasses.field(default_factory=dict)
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)
    folder: Path | None = None

    def __repr__(self) -> str:
        grid = "" if self.grid is None else f", grid {dict(self.grid.sizes)}"
        where = "" if self.folder is None else f" from {str(self.folder)!r}"
        return f"FinishedStudy({self.name!r}, {self.kind.NAME}: {len(self.table)} rows{grid}{where})"

    @classmethod
    def from_result(cls, result: StudyResult, config: dict[str, Any]) -> FinishedStudy:
        """The same object for a study just run in Python (its :class:`~regcontact.studies.StudyResult` and
        config), before or without writing it: what :func:`load_results` would read back."""
        import pandas as pd

        from regcontact.studies.grid_dataset import grid_dataset
        from regcontact.studies.loading import study_kind

        versions = package_versions()
        return cls(
            name=result.name,
            kind=study_kind(result.kind),
            table=pd.DataFrame(result.rows, columns=result.columns),
            grid=None if result.grid is None else grid_dataset(result.rows, result.grid, {}),
            config=config,
            references=result.references,
            convergence=result.extra.get("convergence"),
            provenance=Provenance(
                created="",
                command=(),
                versions=versions,
                commit=versions.get("regcontact_git_commit"),
                timings=dict(result.timings),
                solver_statistics=dict(result.solver_statistics),
                device=result.device,
                classes={},
            ),
            summary=tuple(result.summary),
            notes=tuple(result.notes),
            failures=tuple(result.failures),
            extra={key: value for key, value in result.extra.items() if key != "convergence"},
        )


def _finite(value: Any) -> Any:
    """``value`` with the strings ``results.json`` writes for non-finite floats read back as floats."""
    if isinstance(value, str):
        return _NON_FINITE.get(value, value)
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_finite(item) for item in value]
    return value


def _json_type(value: Any) -> str:
    """What a JSON value is, in words."""
    if value is None:
        return "null"
    for kind, name in ((bool, "a boolean"), (str, "a string"), (dict, "an object"), (list, "a list")):
        if isinstance(value, kind):
            return name
    return "a number" if isinstance(value, int | float) else type(value).__name__


#: Says what is wrong with an entry of ``results.json`` (``it is a list``, ``its 'jax' is a number``), or None.
_Mismatch = Callable[[Any], str | None]


def _text(value: Any) -> str | None:
    return None if isinstance(value, str) else f"it is {_json_type(value)}"


def _texts(value: Any) -> str | None:
    if not isinstance(value, list):
        return f"it is {_json_type(value)}"
    bad = next((i for i, item in enumerate(value) if not isinstance(item, str)), None)
    return None if bad is None else f"its item {bad} is {_json_type(value[bad])}"


def _object_of(item: Callable[[Any], bool] | None = None) -> _Mismatch:
    def mismatch(value: Any) -> str | None:
        if not isinstance(value, dict):
            return f"it is {_json_type(value)}"
        bad = next((key for key, entry in value.items() if item is not None and not item(entry)), None)
        return None if bad is None else f"its {bad!r} is {_json_type(value[bad])}"

    return mismatch


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _object_or_null(value: Any) -> str | None:
    return None if value is None else _object_of()(value)


_TEXT, _TEXTS, _OBJECT = ("a string", _text), ("a list of strings", _texts), ("an object", _object_of())

#: What each entry of ``results.json`` that :func:`load_results` reads must be, in words, and the function that
#: says how an entry is not that.
_SHAPES: dict[str, tuple[str, _Mismatch]] = {
    "study": _TEXT,
    "kind": _TEXT,
    "created": _TEXT,
    "command": _TEXTS,
    "config": _OBJECT,
    "classes": _OBJECT,
    "references": _OBJECT,
    "solver_statistics": _OBJECT,
    "timings_s": ("an object of numbers", _object_of(_number)),
    "failures": _TEXTS,
    "summary": _TEXTS,
    "notes": _TEXTS,
    "device": _TEXT,
    "convergence": ("an object or null", _object_or_null),
    "versions": ("an object of strings", _object_of(lambda value: isinstance(value, str))),
    "columns": _TEXTS,
    "units": _TEXT,
    "column_descriptions": _OBJECT,
}

#: The entries without which a ``results.json`` is no finished study's.
_REQUIRED = ("kind", "config", "columns")


def _document_problem(document: Any, name: str) -> str | None:
    """What a ``results.json`` (``name``) was expected to be, if its content cannot be read as a finished study's
    (``None``: it can)."""
    if not isinstance(document, dict):
        return f"a {name} that holds an object, as `regcontact run` writes it (it holds {_json_type(document)})"
    missing = [key for key in _REQUIRED if key not in document]
    if missing:
        listed = ", ".join(map(repr, _REQUIRED))
        return f"a {name} with {listed}, as `regcontact run` writes it (it has no {missing[0]!r})"
    for key, (shape, mismatch) in _SHAPES.items():
        if key in document and (wrong := mismatch(document[key])) is not None:
            return f"a {name} whose {key!r} is {shape} ({wrong})"
    study = document["config"].get("study", {})
    if "study" not in document and not (isinstance(study, dict) and isinstance(study.get("name", ""), str)):
        return f"a {name} whose 'study' names the study (it has none, and config.study.name is no string)"
    return None


def load_results(folder: str | Path) -> FinishedStudy:
    """Read a finished study back from the folder ``regcontact run`` wrote it to.

    The result files are checked against the sizes, SHA-256 and row count ``results.json`` records for them; a
    folder written before they were recorded (a ``results.json`` with no ``files`` entry) is read unchecked
    (``docs/results.md``).

    Args:
        folder: the results folder (``results/<name>/`` by default): ``results.csv`` and ``results.json``, and
            ``results.nc`` for a sweep's grid.

    Returns:
        A :class:`FinishedStudy`: the table as a pandas DataFrame, the grid as an xarray Dataset (where the study
        wrote one), the resolved config, the references, the convergence analysis and the provenance.

    Raises:
        ConfigError: in one line naming ``RESULTS`` and the folder, with what was expected, for a folder that is
            missing or holds no finished study: no or unreadable ``results.json``, one with an entry missing or
            of the wrong type, an unknown kind, no ``results.csv``, or one whose columns are not those of
            ``results.json``; a result file cut short, edited or of another run (its size, SHA-256 or rows not
            those recorded), missing, or not listed.

    Examples:
        >>> import regcontact as rc
        >>> results = rc.load_results("results/table1")  # doctest: +SKIP
        >>> results.table[["alpha", "int_lambda_n", "int_lambda_t"]]  # doctest: +SKIP
    """
    import pandas as pd

    from regcontact.studies.loading import STUDY_KINDS

    shown, path = str(folder), Path(folder)
    csv_name, json_name, grid_name = RESULT_FILES

    def refuse(expected: str) -> ConfigError:
        return ConfigError("RESULTS", shown, expected)

    if not path.is_dir():
        what = "it does not exist" if not path.exists() else "it is not a folder"
        raise refuse(f"a finished study's folder, as `regcontact run` writes it ({what})")
    if not (path / json_name).is_file():
        raise refuse(f"a finished study's folder, with {json_name} (there is none: not a finished run)")
    try:
        document = json.loads((path / json_name).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise refuse(f"a readable {json_name} ({type(error).__name__}: {error})") from None
    problem = _document_problem(document, json_name)
    if problem is not None:
        raise refuse(problem)
    if document["kind"] not in STUDY_KINDS:
        raise refuse(f"a study of a known kind ({document['kind']!r} is none of {', '.join(STUDY_KINDS)})")
    names = (csv_name, grid_name)
    if FILES_ENTRY in document:
        contents = read_recorded_files(path, json_name, document[FILES_ENTRY], names, csv_name, refuse)
    else:  # written before the files were recorded: read as they are
        contents = {}
        for name in names:
            try:
                contents[name] = (path / name).read_bytes()
            except FileNotFoundError:
                continue
            except OSError as error:
                raise refuse(f"a readable {name} ({error.strerror or error})") from None
    if csv_name not in contents:
        raise refuse(f"{csv_name} beside {json_name} (there is none)")
    try:
        table = pd.read_csv(io.BytesIO(contents[csv_name]))
    except (UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError) as error:
        raise refuse(f"a readable {csv_name} ({type(error).__name__}: {error})") from None
    if list(table.columns) != list(document["columns"]):
        raise refuse(f"{csv_name} with the columns {json_name} lists (they differ: not written by one run)")
    if FILES_ENTRY in document and len(table) != (rows := document[FILES_ENTRY][csv_name]["rows"]):
        raise refuse(f"{csv_name} with the {rows:,} rows {json_name} records (it has {len(table):,})")
    grid = None
    if grid_name in contents:
        import xarray as xr

        try:
            with xr.open_dataset(io.BytesIO(contents[grid_name]), engine="scipy") as dataset:
                grid = dataset.load()
        except (OSError, ValueError, TypeError) as error:
            raise refuse(f"a readable {grid_name} ({type(error).__name__}: {error})") from None
    versions = document.get("versions", {})
    return FinishedStudy(
        name=document.get("study", document["config"].get("study", {}).get("name", "")),
        kind=STUDY_KINDS[document["kind"]](),
        table=table,
        grid=grid,
        config=document["config"],
        references=_finite(document.get("references", {})),
        convergence=_finite(document.get("convergence")),
        provenance=Provenance(
            created=document.get("created", ""),
            command=tuple(document.get("command", ())),
            versions=versions,
            commit=versions.get("regcontact_git_commit"),
            timings=document.get("timings_s", {}),
            solver_statistics=document.get("solver_statistics", {}),
            device=document.get("device", ""),
            classes=document.get("classes", {}),
        ),
        summary=tuple(document.get("summary", ())),
        notes=tuple(document.get("notes", ())),
        failures=tuple(document.get("failures", ())),
        units=document.get("units", ""),
        column_descriptions=document.get("column_descriptions", {}),
        extra={key: _finite(value) for key, value in document.items() if key not in _FIELDS},
        folder=path,
    )
