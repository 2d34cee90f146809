"""A sweep's rows as an xarray Dataset: the swept keys as dimensions, every other column a variable on the grid
(``docs/results.md``)."""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING, Any

import numpy as np

from regcontact.studies.column_descriptions import describe_column

if TYPE_CHECKING:
    import xarray as xr

__all__ = ["GridAxis", "grid_dataset"]


@dataclasses.dataclass(frozen=True)
class GridAxis:
    """One dimension of the grid: its name and, per column along it (the name's first), the values."""

    name: str
    columns: dict[str, list[Any]]

    @property
    def length(self) -> int:
        return len(self.columns[self.name])


def _coordinate(values: list[Any]) -> np.ndarray:
    """Numbers as floats; anything else (``"slender"``, a matrix) as its text."""
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return np.asarray(values, dtype=float)
    return np.asarray([json.dumps(v) if not isinstance(v, str) else v for v in values], dtype=object)


def _variable(values: list[Any]) -> np.ndarray:
    """A column as an array NetCDF 3 can hold (see the module docstring)."""
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, bool) for v in present):
        if len(present) == len(values):
            return np.asarray(values, dtype=bool)
        return np.asarray([np.nan if v is None else float(v) for v in values])
    if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present) and len(present) == len(values):
        return np.asarray(values, dtype=np.int64)
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in present):
        return np.asarray([np.nan if v is None else v for v in values], dtype=float)
    return np.asarray(["" if v is None else str(v) for v in values], dtype=object)


def _attributes(column: str) -> dict[str, str]:
    described = describe_column(column)
    return {"units": described["unit"], "description": described["description"]}


def grid_dataset(rows: list[dict[str, Any]], axes: list[GridAxis], attributes: dict[str, Any]) -> xr.Dataset:
    """The rows (C order over ``axes``) as a Dataset; ``attributes`` become JSON text attributes, and every
    variable and coordinate carries its ``units`` and ``description``
    (:mod:`regcontact.studies.column_descriptions`)."""
    import xarray as xr  # imported here: a config error or --help need not wait for it

    shape = tuple(axis.length for axis in axes)
    if int(np.prod(shape)) != len(rows):
        raise ValueError(f"{len(rows)} rows do not fill a grid of shape {shape}")
    dims = [axis.name for axis in axes]
    coordinates = {
        column: (axis.name, _coordinate(values), _attributes(column))
        for axis in axes
        for column, values in axis.columns.items()
    }
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    variables = {
        column: (dims, _variable([row.get(column) for row in rows]).reshape(shape), _attributes(column))
        for column in columns
        if column not in coordinates
    }
    text = {key: value if isinstance(value, str) else json.dumps(value) for key, value in attributes.items()}
    return xr.Dataset(variables, coords=coordinates, attrs=text)
