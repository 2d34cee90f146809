"""The ``[sweep]`` table of a compliant study: which config keys vary, along which axes, and the cases they make
(``docs/results.md``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np

from regcontact.studies import config as cfg

__all__ = ["ALPHA", "SWEEPABLE", "Axis", "SweepPlan", "column_name", "plan_sweep", "sweep_fields", "sweepable_keys"]

#: The stiffness multiplier's key in ``[sweep]`` (always swept: a compliant study is a sweep in α).
ALPHA = "alpha"

#: Tables of the config whose keys can be swept, and which of their keys (``None``: every key but ``kind``).
#: The solver's name, step budget and restart surfaces and the termination events change the compiled
#: program, so they are one value per study.
SWEEPABLE: dict[str, tuple[str, ...] | None] = {
    "system": None,
    "contact.normal": None,
    "contact.friction": None,
    "contact.normal_exponents": None,
    "contact.friction_exponents": None,
    "solver": ("rtol", "atol"),
    "termination": ("time_limit", "contact_times", "impact_times"),
}


def sweepable_keys(tables: Mapping[str, Any]) -> dict[str, Any]:
    """Every sweepable dotted key in canonical order, with what ``tables`` holds there: on a study's schema its
    single-value field, on a validated config its single value (both list every key of these tables)."""
    keys: dict[str, Any] = {}
    for table, names in SWEEPABLE.items():
        node: Any = tables
        for part in table.split("."):
            node = node[part]
        for name, leaf in node.items():
            if name != "kind" and (names is None or name in names):
                keys[f"{table}.{name}"] = leaf
    return keys


def _nest(flat: Mapping[str, cfg.Field]) -> dict[str, Any]:
    nested: dict[str, Any] = {}
    for key, field in flat.items():
        *tables, leaf = key.split(".")
        node = nested
        for table in tables:
            node = node.setdefault(table, {})
        node[leaf] = field
    return nested


def _zip_groups(value: Any) -> list[list[str]]:
    groups = cfg.list_of(cfg.list_of(cfg.text, 2, "key names"), 0, "groups of ≥ 2 swept key names")(value)
    return [list(group) for group in groups]


def sweep_fields(schema: Mapping[str, Any], alpha: cfg.Field) -> dict[str, Any]:
    """The ``[sweep]`` schema for a study whose single-value schema is ``schema``: ``alpha``, every sweepable
    key under its table path, the bare system keys, and ``zip``."""
    swept = {
        key: cfg.Field(cfg.values_of(field.parse, "values"), None, f"values of {key} to sweep")
        for key, field in sweepable_keys(schema).items()
    }
    bare = {key.removeprefix("system."): field for key, field in swept.items() if key.startswith("system.")}
    return {
        ALPHA: alpha,
        **_nest(swept),
        **bare,
        "zip": cfg.Field(_zip_groups, [], "groups of swept keys that vary together, [['system.phi0', 'system.vx0']]"),
    }


def column_name(key: str) -> str:
    """A swept key's column in the results: a system key bare (``mu``), any other key dotted."""
    return key.removeprefix("system.")


@dataclasses.dataclass(frozen=True)
class Axis:
    """One axis of the grid: the keys that vary along it (one, or a zipped group) and their values."""

    keys: tuple[str, ...]
    values: tuple[tuple[Any, ...], ...]

    @property
    def length(self) -> int:
        return len(self.values[0])


@dataclasses.dataclass(frozen=True)
class SweepPlan:
    """The axes of a sweep; case ``i`` is the grid point ``np.unravel_index(i, shape)``."""

    axes: tuple[Axis, ...]

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(axis.length for axis in self.axes)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def keys(self) -> list[str]:
        """Every swept key, in axis order."""
        return [key for axis in self.axes for key in axis.keys]

    def axis_of(self, key: str) -> int | None:
        return next((i for i, axis in enumerate(self.axes) if key in axis.keys), None)

    def strides(self) -> tuple[int, ...]:
        """Cases between two neighbours along each axis (C order: the last axis is the fastest)."""
        strides, step = [], 1
        for length in reversed(self.shape):
            strides.append(step)
            step *= length
        return tuple(reversed(strides))

    def index(self, a: int, cases: np.ndarray | None = None) -> np.ndarray:
        """Each case's index along axis ``a`` (of ``cases``, default every case), without the whole grid."""
        cases = np.arange(self.size, dtype=np.int64) if cases is None else np.asarray(cases, dtype=np.int64)
        return (cases // self.strides()[a]) % self.shape[a]

    def indices(self) -> np.ndarray:
        """``(size, len(axes))``: each case's index along each axis."""
        if not self.axes:
            return np.zeros((1, 0), dtype=np.int64)
        grids = np.indices(self.shape, dtype=np.int64).reshape(len(self.axes), -1)
        return grids.T

    def values(self, key: str, cases: np.ndarray | None = None) -> list[Any]:
        """The swept values of ``key``, one per case (of ``cases``, default every case)."""
        a = self.axis_of(key)
        assert a is not None, key
        axis = self.axes[a]
        values = np.empty(axis.length, dtype=object)
        for i, value in enumerate(axis.values[axis.keys.index(key)]):
            values[i] = value  # one by one: a value that is a sequence stays one object
        return values[self.index(a, cases)].tolist()

    def distinct(self, keys: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """Cases that agree on every key of ``keys``: ``(ids, first)`` with ``ids[i]`` the class of case ``i``
        (classes numbered in order of first appearance) and ``first[j]`` the first case of class ``j``.

        The classes are the points of the sub-grid of the keys' axes. In C order the first case of a point is its
        index along those axes with every other index 0, and these increase with the point taken in C order over
        the sub-grid: so the classes in order of first appearance are the sub-grid's points in C order, computed
        by index arithmetic, never by sorting the cases."""
        used = sorted({a for key in keys if (a := self.axis_of(key)) is not None})
        if not used:
            return np.zeros(self.size, dtype=np.int64), np.zeros(1, dtype=np.int64)
        cases = np.arange(self.size, dtype=np.int64)
        ids = np.zeros(self.size, dtype=np.int64)
        for a in used:
            ids = ids * self.shape[a] + self.index(a, cases)
        points = np.indices([self.shape[a] for a in used], dtype=np.int64).reshape(len(used), -1)
        strides = self.strides()
        first = sum((points[k] * strides[a] for k, a in enumerate(used)), np.zeros(points.shape[1], dtype=np.int64))
        return ids, first


def _swept(config: Mapping[str, Any], keys: list[str]) -> dict[str, list[Any]]:
    """The swept keys of a validated ``[sweep]`` table with their values, bare system keys made dotted."""
    sweep = config["sweep"]
    found: dict[str, list[Any]] = {}
    for key in keys:
        node: Any = sweep
        for part in key.split("."):
            node = node.get(part) if isinstance(node, Mapping) else None
        bare = sweep.get(column_name(key)) if key.startswith("system.") else None
        if node is not None and bare is not None:
            raise cfg.ConfigError(
                f"sweep.{column_name(key)}", bare, f"no value: sweep.{key} is also given (one of the two)"
            )
        value = node if node is not None else bare
        if value is not None:
            found[key] = value
    return found


def _resolve(name: str, swept: Mapping[str, Any]) -> str | None:
    """The swept key a name in ``zip`` means: as written, or a bare system key."""
    if name in swept:
        return name
    return f"system.{name}" if f"system.{name}" in swept else None


def plan_sweep(config: Mapping[str, Any]) -> SweepPlan:
    """The axes of a validated config's ``[sweep]``; :class:`ConfigError` for a bad ``zip``."""
    keys = list(sweepable_keys(config))
    swept = {**_swept(config, keys), ALPHA: config["sweep"][ALPHA]}
    order = [*keys, ALPHA]
    groups: list[list[str]] = []
    zipped = config["sweep"]["zip"]
    for group in zipped:
        resolved = []
        for name in group:
            key = _resolve(name, swept)
            if key is None:
                raise cfg.ConfigError("sweep.zip", zipped, f"names of swept keys ({name!r} is not swept)")
            if key in resolved or any(key in other for other in groups):
                raise cfg.ConfigError("sweep.zip", zipped, f"each swept key in at most one group ({name!r} twice)")
            resolved.append(key)
        lengths = {len(swept[key]) for key in resolved}
        if len(lengths) > 1:
            shown = ", ".join(f"{key}: {len(swept[key])}" for key in resolved)
            raise cfg.ConfigError("sweep.zip", zipped, f"zipped keys with equal numbers of values ({shown})")
        groups.append(sorted(resolved, key=order.index))
    in_group = {key for group in groups for key in group}
    axes = [[key] for key in swept if key not in in_group] + groups
    axes.sort(key=lambda members: order.index(members[0]))
    return SweepPlan(tuple(Axis(tuple(members), tuple(tuple(swept[key]) for key in members)) for members in axes))
