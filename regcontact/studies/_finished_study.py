"""A finished study read back from its folder (what ``regcontact run`` wrote there) as one typed object."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
    units: dict[str, Any] = dataclasses.field(default_factory=dict)
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


def load_results(folder: str | Path) -> FinishedStudy:
    """Read a finished study back from the folder ``regcontact run`` wrote it to.

    Args:
        folder: the results folder (``results/<name>/`` by default): ``results.csv`` and ``results.json``, and
            ``results.nc`` for a sweep's grid.

    Returns:
        A :class:`FinishedStudy`: the table as a pandas DataFrame, the grid as an xarray Dataset (where the study
        wrote one), the resolved config, the references, the convergence analysis and the provenance.

    Raises:
        ConfigError: in one line naming ``RESULTS`` and the folder, with what was expected, for a folder that is
            missing or holds no finished study (no or unreadable ``results.json``, an unknown kind, no
            ``results.csv``, or one whose columns are not those of ``results.json``).

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
    if not isinstance(document, dict) or not {"kind", "config", "columns"} <= set(document):
        raise refuse(f"a {json_name} as `regcontact run` writes it (it lacks kind, config or columns)")
    if document["kind"] not in STUDY_KINDS:
        raise refuse(f"a study of a known kind ({document['kind']!r} is none of {', '.join(STUDY_KINDS)})")
    if not (path / csv_name).is_file():
        raise refuse(f"{csv_name} beside {json_name} (there is none)")
    try:
        table = pd.read_csv(path / csv_name)
    except (OSError, UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError) as error:
        raise refuse(f"a readable {csv_name} ({type(error).__name__}: {error})") from None
    if list(table.columns) != list(document["columns"]):
        raise refuse(f"{csv_name} with the columns {json_name} lists (they differ: not written by one run)")
    grid = None
    if (path / grid_name).is_file():
        import xarray as xr

        try:
            with xr.open_dataset(path / grid_name, engine="scipy") as dataset:
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
        units=document.get("units", {}),
        column_descriptions=document.get("column_descriptions", {}),
        extra={key: _finite(value) for key, value in document.items() if key not in _FIELDS},
        folder=path,
    )
