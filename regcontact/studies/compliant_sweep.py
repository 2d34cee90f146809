"""A compliant study made once from its validated config: what it solves, how, and each key's value per case
(``docs/results.md``)."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np

from regcontact.compliant import SolveSettings
from regcontact.studies.sweep_plan import ALPHA, SweepPlan, column_name, plan_sweep, sweepable_keys

__all__ = ["CompliantSweep", "PaperValues"]


@dataclasses.dataclass(frozen=True)
class PaperValues:
    """A paper's force integrals for the system written in the file, at the stiffness multipliers ``alpha``
    (either list may be empty: not given)."""

    alpha: tuple[float, ...]
    int_lambda_n: tuple[float, ...]
    int_lambda_t: tuple[float, ...]

    def at(self, alpha: float) -> dict[str, float]:
        """``paper_int_lambda_n``, ``paper_int_lambda_t`` at ``alpha`` (those given; none where the paper has no
        value at this α)."""
        matches = [i for i, a in enumerate(self.alpha) if np.isclose(a, alpha, rtol=1e-12)]
        if not matches:
            return {}
        given = {"int_lambda_n": self.int_lambda_n, "int_lambda_t": self.int_lambda_t}
        return {f"paper_{key}": values[matches[0]] for key, values in given.items() if values}


def _with(table: Mapping[str, Any], prefix: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """``table`` (the config's table at ``prefix``) with the swept values of its keys put in, nested."""
    copied = {key: (dict(value) if isinstance(value, dict) else value) for key, value in table.items()}
    for key, value in values.items():
        *tables, leaf = key.removeprefix(prefix).split(".")
        node = copied
        for name in tables:
            node = node[name]
        node[leaf] = value
    return copied


@dataclasses.dataclass(frozen=True, eq=False)
class CompliantSweep:
    """A validated compliant study: its tables, settings and axes, and each case's swept values.

    Case ``i`` is the grid point ``i`` of ``plan`` (C order, α fastest). ``labels`` holds each swept column's
    value per case, ``alpha`` first (its values as floats), made when first asked for; ``single`` each sweepable
    key's value as the config gives it, used for every case where the key is not swept."""

    name: str
    #: The ``[system]`` table: its kind and every key's single value.
    system: Mapping[str, Any]
    #: The ``[contact]`` table: the law names, their parameters and α-exponents.
    contact: Mapping[str, Any]
    settings: SolveSettings
    #: Compare with the impulse-velocity LCP; with the contact model's limit impact law (at a landing); the time
    #: steps of the time-stepping LCP.
    impulse_velocity: bool
    compliant_limit: bool
    time_stepping_dt: tuple[float, ...]
    paper: PaperValues
    #: Cases per vmapped call; ``None``: chosen from the devices.
    chunk_size: int | None
    plan: SweepPlan
    single: Mapping[str, Any]

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> CompliantSweep:
        """The study a validated compliant config describes; :class:`ConfigError` for a bad ``sweep.zip``."""
        plan = plan_sweep(config)
        solver, termination, paper = config["solver"], config["termination"], config["paper"]
        return cls(
            name=config["study"]["name"],
            system=config["system"],
            contact=config["contact"],
            settings=SolveSettings(
                solver=solver["name"],
                events=tuple(termination["events"]),
                max_steps=solver["max_steps"],
                restart_at=tuple(solver["restart_at"]),
            ),
            impulse_velocity=config["references"]["impulse_velocity"],
            compliant_limit=config["references"]["compliant_limit"],
            time_stepping_dt=tuple(config["references"]["time_stepping_dt"]),
            paper=PaperValues(tuple(paper["alpha"]), tuple(paper["int_lambda_n"]), tuple(paper["int_lambda_t"])),
            chunk_size=config["sweep"]["chunk_size"],
            plan=plan,
            single=sweepable_keys(config),
        )

    @functools.cached_property
    def labels(self) -> Mapping[str, list[Any]]:
        """Each swept column's value per case, ``alpha`` first (as floats)."""
        alpha = np.asarray(self.plan.values(ALPHA), dtype=float)
        others = {column_name(key): self.plan.values(key) for key in self.plan.keys if key != ALPHA}
        return {ALPHA: alpha.tolist(), **others}

    @property
    def size(self) -> int:
        return self.plan.size

    @functools.cached_property
    def alpha(self) -> np.ndarray:
        """α per case."""
        return np.asarray(self.plan.values(ALPHA), dtype=float)

    def label(self, case: int) -> dict[str, Any]:
        """The swept values of one case (``alpha`` first)."""
        return {name: values[case] for name, values in self.labels.items()}

    def swept(self, prefix: str) -> list[str]:
        """The swept keys under ``prefix`` (``"system."``, ``"contact."``), in axis order."""
        return [key for key in self.plan.keys if key.startswith(prefix)]

    def per_case(self, key: str) -> list[Any]:
        """``key``'s value per case: its swept values, or its single value for every case."""
        if self.plan.axis_of(key) is None:
            return [self.single[key]] * self.size
        return self.plan.values(key)

    def numbers(self, key: str) -> np.ndarray:
        """``key``'s value per case, as floats."""
        return np.asarray(self.per_case(key), dtype=float)

    def alpha_series(self) -> tuple[list[str], np.ndarray, np.ndarray]:
        """The α-series of the sweep, the cases that agree on every swept key off α's axis: those keys, each
        case's series and each series' first case (:meth:`SweepPlan.distinct`)."""
        alpha_axis = self.plan.axis_of(ALPHA)
        others = [key for key in self.plan.keys if self.plan.axis_of(key) != alpha_axis]
        return others, *self.plan.distinct(others)

    def system_table(self, case: int) -> dict[str, Any]:
        """The ``[system]`` table of one case (the config's, with the case's swept values put in)."""
        keys = self.swept("system.")
        return _with(self.system, "system.", {key: self.plan.values(key, np.array([case]))[0] for key in keys})

    def distinct_tables(
        self, table: Literal["system", "contact"], keys: Sequence[str]
    ) -> tuple[np.ndarray, list[dict[str, Any]]]:
        """The distinct ``[table]``s among ``keys``' swept values: per case the index of its table, and the tables
        (the config's, with those values put in), in order of first appearance."""
        ids, first = self.plan.distinct(list(keys))
        columns = {key: self.plan.values(key, first) for key in keys}
        base = self.system if table == "system" else self.contact
        return ids, [_with(base, f"{table}.", {key: columns[key][j] for key in keys}) for j in range(len(first))]
