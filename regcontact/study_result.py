"""The outcome of a study as data: a table of rows plus metadata, written as CSV and JSON, printed as text.

Results are written only once the whole study has run, and both files appear together or not at all (they
are written to temporary names and renamed), so a failed or interrupted run leaves nothing half-written.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime
import importlib.metadata
import io
import json
import math
import os
import platform
import sys
from pathlib import Path
from typing import Any

__all__ = ["StudyResult", "format_table", "package_versions", "write_results"]


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

    @property
    def columns(self) -> list[str]:
        """Every column that any row has, in first-seen order."""
        seen: dict[str, None] = {}
        for row in self.rows:
            seen.update(dict.fromkeys(row))
        return list(seen)


def package_versions() -> dict[str, str]:
    """Versions of Python, the platform and the packages the numbers depend on."""
    versions = {"python": sys.version.split()[0], "platform": platform.platform()}
    for name in ("regcontact", "jax", "jaxlib", "diffrax", "equinox", "optimistix", "lineax", "numpy", "scipy"):
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


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


def write_results(
    result: StudyResult, config: dict[str, Any], out_dir: Path, command: list[str] | None = None
) -> tuple[Path, Path]:
    """Write ``results.csv`` and ``results.json`` into ``out_dir``, both or neither."""
    out_dir.mkdir(parents=True, exist_ok=True)
    document = {
        "study": result.name,
        "kind": result.kind,
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": command or [],
        "config": config,
        "references": result.references,
        "solver_statistics": result.solver_statistics,
        "timings_s": result.timings,
        "failures": result.failures,
        "summary": result.summary,
        "notes": result.notes,
        "device": result.device,
        "versions": package_versions(),
        "columns": result.columns,
    }
    targets = {
        out_dir / "results.csv": _csv_text(result),
        out_dir / "results.json": json.dumps(_json_ready(document), indent=2, ensure_ascii=False) + "\n",
    }
    temporary = {path: path.with_name(f".{path.name}.partial") for path in targets}
    try:
        for path, text in targets.items():
            temporary[path].write_text(text, encoding="utf-8")
        for path in targets:
            os.replace(temporary[path], path)
    finally:
        for partial in temporary.values():
            partial.unlink(missing_ok=True)
    return out_dir / "results.csv", out_dir / "results.json"


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}" if abs(value) >= 1e-3 or value == 0 else f"{value:.3e}"
    return str(value)


def format_table(result: StudyResult, columns: list[str] | None = None) -> str:
    """The rows as an aligned text table (all columns unless ``columns`` is given)."""
    columns = columns or result.columns
    cells = [columns] + [[_cell(row.get(column, "")) for column in columns] for row in result.rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(columns))]
    lines = ["  ".join(cell.rjust(width) for cell, width in zip(line, widths)) for line in cells]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)
