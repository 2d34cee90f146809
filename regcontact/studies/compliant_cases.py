"""The batch of a compliant sweep: every grid point of ``[sweep]`` as one :class:`Case`, built as arrays.

Systems and contact laws are built once per distinct value (:meth:`SweepPlan.distinct`) and gathered to the
cases by index; tolerances, windows and initial depths are computed as arrays. Nothing here loops over cases.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np

from regcontact.compliant.simulate import Case, Controls
from regcontact.compliant.termination import effective_normal_mass
from regcontact.contact.contact_model import ContactModel, law_exponents
from regcontact.contact.friction_laws import FRICTION_LAWS
from regcontact.contact.normal_laws import NORMAL_LAWS
from regcontact.studies.sweep_plan import ALPHA, SweepPlan, column_name
from regcontact.studies.system_config import START_FIELDS, initial_penetration, systems_from_config
from regcontact.systems.system import AbstractSystem

__all__ = ["SweepCases", "contact_from_config", "sweep_cases"]


def contact_from_config(contact: dict[str, Any]) -> ContactModel:
    """The contact model a validated ``[contact]`` table describes."""
    normal = NORMAL_LAWS[contact["normal_law"]]
    friction = FRICTION_LAWS[contact["friction_law"]]
    return ContactModel(
        normal=normal(**contact["normal"]),
        friction=friction(**contact["friction"]),
        normal_exponents=law_exponents(normal, **contact["normal_exponents"]),
        friction_exponents=law_exponents(friction, **contact["friction_exponents"]),
    )


def _take(tree: Any, index: np.ndarray) -> Any:
    return jtu.tree_map(lambda leaf: np.asarray(leaf)[index], tree)


def _with(table: dict[str, Any], prefix: str, values: dict[str, Any]) -> dict[str, Any]:
    """``table`` (the config's table at ``prefix``) with the swept values of its keys put in, nested."""
    table = {key: (dict(value) if isinstance(value, dict) else value) for key, value in table.items()}
    for key, value in values.items():
        *tables, leaf = key.removeprefix(prefix).split(".")
        node = table
        for name in tables:
            node = node[name]
        node[leaf] = value
    return table


def _distinct_tables(
    config: dict[str, Any], plan: SweepPlan, table: str, keys: list[str]
) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """Per case, the index of its distinct ``[table]`` among ``keys``' values, and those distinct tables."""
    ids, first = plan.distinct(keys)
    columns = {key: plan.values(key) for key in keys}
    tables = [_with(config[table], f"{table}.", {key: columns[key][case] for key in keys}) for case in first]
    return ids, tables


@dataclasses.dataclass(frozen=True)
class SweepCases:
    """A compliant sweep's cases and what the study needs besides: ``labels`` (each swept column's value per
    case, ``alpha`` first), the distinct systems (``system_tables``, built as the batch ``systems``) with each
    case's index into them (``system_ids``), and the batched :class:`Case`."""

    plan: SweepPlan
    labels: dict[str, list[Any]]
    system_tables: list[dict[str, Any]]
    systems: AbstractSystem
    system_ids: np.ndarray
    cases: Case

    @property
    def size(self) -> int:
        return self.plan.size

    def label(self, case: int) -> dict[str, Any]:
        """The swept values of one case (``alpha`` first)."""
        return {name: values[case] for name, values in self.labels.items()}


def _time_limits(
    config: dict[str, Any], plan: SweepPlan, contact: ContactModel, alpha: np.ndarray, normal_mass: np.ndarray
) -> np.ndarray:
    """``t_max`` per case: the given time, or ``contact_times`` contact times ``π √(m_n / k(α))``."""
    termination = config["termination"]
    key = "termination.time_limit"
    limits = plan.per_case(key, termination["time_limit"])
    window = np.array([limit == "contact_time" for limit in limits])
    t_max = np.array([0.0 if is_window else limit for limit, is_window in zip(limits, window)], dtype=float)
    if window.any():
        normal = contact.at_stiffness(jnp.asarray(alpha))[0]
        name = type(normal).LINEAR_STIFFNESS
        assert name is not None  # the study's check refuses a contact-time window for a law without one
        stiffness = getattr(normal, name)
        times = plan.numbers("termination.contact_times", termination["contact_times"])
        windows = np.asarray(jnp.asarray(times) * (jnp.pi * jnp.sqrt(jnp.asarray(normal_mass) / stiffness)))
        t_max = np.where(window, windows, t_max)
    return t_max


def _penetrations(config: dict[str, Any], plan: SweepPlan, alpha: np.ndarray) -> np.ndarray:
    """The initial depth per case, evaluated once per distinct (α, depth rule) in Python floats (numpy's SIMD
    power differs from Python's in the last bit, and the depths of existing studies are kept to the bit)."""
    key = "system.initial_penetration"
    ids, first = plan.distinct([ALPHA, key])
    rules = plan.per_case(key, config["system"]["initial_penetration"])
    depths = [initial_penetration({"initial_penetration": rules[case]}, float(alpha[case])) for case in first]
    return np.asarray(depths, dtype=float)[ids]


def sweep_cases(config: dict[str, Any], plan: SweepPlan) -> SweepCases:
    """Every case of a validated compliant study as one batched :class:`Case`."""
    keys = plan.keys
    alpha = plan.numbers(ALPHA, None)
    system_keys = [key for key in keys if key.startswith("system.") and column_name(key) not in START_FIELDS]
    system_ids, system_tables = _distinct_tables(config, plan, "system", system_keys)
    systems = systems_from_config(system_tables)
    contact_ids, contact_tables = _distinct_tables(
        config, plan, "contact", [key for key in keys if key.startswith("contact.")]
    )
    contacts = [contact_from_config(table) for table in contact_tables]
    contact = _take(jtu.tree_map(lambda *leaves: np.stack(leaves), *contacts), contact_ids)
    normal_mass = np.asarray(jax.vmap(effective_normal_mass)(systems))[system_ids]
    solver = config["solver"]
    controls = Controls(
        rtol=plan.numbers("solver.rtol", solver["rtol"]),
        atol=plan.numbers("solver.atol", solver["atol"]),
        t_max=_time_limits(config, plan, contact, alpha, normal_mass),
    )
    cases = Case(
        system=_take(systems, system_ids),
        contact=contact,
        alpha=alpha,
        controls=controls,
        penetration=_penetrations(config, plan, alpha),
    )
    labels = {ALPHA: alpha.tolist(), **{column_name(key): plan.values(key) for key in keys if key != ALPHA}}
    return SweepCases(plan, labels, system_tables, systems, system_ids, cases)
