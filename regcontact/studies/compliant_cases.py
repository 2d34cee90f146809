"""The batch of a compliant sweep: every case of a :class:`CompliantSweep` as one :class:`Case`, built as arrays.

Systems and contact laws are built once per distinct value (:meth:`CompliantSweep.distinct_tables`) and gathered
to the cases by index; tolerances, windows and initial depths are computed as arrays. Nothing here loops over cases.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np

from regcontact._argument_checks import ArgumentError, rule_problem
from regcontact.compliant import Case, Controls
from regcontact.compliant.termination import effective_normal_mass, impact_inputs, impact_time, window_expectation
from regcontact.contact import ContactModel, law_exponents
from regcontact.studies import config as cfg
from regcontact.studies._law_config import friction_law_class, normal_law_class
from regcontact.studies.compliant_sweep import CompliantSweep
from regcontact.studies.sweep_plan import ALPHA, column_name
from regcontact.studies.system_config import START_FIELDS, initial_penetration, systems_from_config
from regcontact.systems.system import AbstractSystem

__all__ = ["SweepCases", "contact_from_config", "sweep_cases"]


def _law(cls: type, table: str, values: dict[str, Any]) -> Any:
    """``cls(**values)``; a value its constructor refuses is a config error of ``contact.<table>.<name>``."""
    try:
        return cls(**values)
    except ArgumentError as error:
        key = f"contact.{table}.{error.name}"
        raise cfg.ConfigError(key, values.get(error.name, error.value), error.expected) from None


def contact_from_config(contact: dict[str, Any]) -> ContactModel:
    """The contact model a validated ``[contact]`` table describes (a parameter its law refuses: one
    :class:`~regcontact.studies.config.ConfigError` naming the key)."""
    normal = normal_law_class(contact["normal_law"])
    friction = friction_law_class(contact["friction_law"])
    return ContactModel(
        normal=_law(normal, "normal", contact["normal"]),
        friction=_law(friction, "friction", contact["friction"]),
        normal_exponents=law_exponents(normal, **contact["normal_exponents"]),
        friction_exponents=law_exponents(friction, **contact["friction_exponents"]),
    )


def _check_contacts(model: ContactModel, table: dict[str, Any], num_contacts: int) -> None:
    """A per-contact list of ``table`` of another length than the system's contacts, refused naming its key."""
    try:
        model.check_contacts(num_contacts)
    except ArgumentError as error:
        if "." not in error.name:  # the law itself: its methods' answers
            raise cfg.ConfigError(f"contact.{error.name}", table[error.name], error.expected) from None
        group, name = error.name.split(".")
        raise cfg.ConfigError(f"contact.{error.name}", table[group][name], error.expected) from None


#: ``m_n`` of a batch of systems in one compiled call (once per class and shape), not op by op.
_normal_masses = jax.jit(jax.vmap(effective_normal_mass))
#: Each contact's ``C_ii = (W M⁻¹ Wᵀ)_nn`` and the impact speed of a batch of systems, in one compiled call.
_impact_inputs = jax.jit(jax.vmap(impact_inputs))


def _take(tree: Any, index: np.ndarray) -> Any:
    return jtu.tree_map(lambda leaf: np.asarray(leaf)[index], tree)


@dataclasses.dataclass(frozen=True)
class SweepCases:
    """The batched :class:`Case` of a sweep, its distinct systems (``system_tables``, built as the batch
    ``systems``) and its distinct contact models (``contacts``), with each case's index into them
    (``system_ids``, ``contact_ids``)."""

    system_tables: list[dict[str, Any]]
    systems: AbstractSystem
    system_ids: np.ndarray
    cases: Case
    contacts: list[ContactModel]
    contact_ids: np.ndarray


def _time_limits(
    sweep: CompliantSweep, contact: ContactModel, systems: AbstractSystem, system_ids: np.ndarray
) -> np.ndarray:
    """``t_max`` per case: the given time, ``contact_times`` contact times ``π √(m_n / k(α))``, or
    ``impact_times`` impact times of the normal law at α (:func:`~regcontact.compliant.termination.impact_time`)."""
    limits = sweep.per_case("termination.time_limit")
    window = np.array([limit == "contact_time" for limit in limits])
    impact = np.array([limit == "impact_time" for limit in limits])
    t_max = np.array([0.0 if isinstance(limit, str) else limit for limit in limits], dtype=float)
    if window.any():
        normal_mass = np.asarray(_normal_masses(systems))[system_ids]
        normal = contact.at_stiffness(jnp.asarray(sweep.alpha))[0]
        name = type(normal).LINEAR_STIFFNESS
        assert name is not None  # the study's check refuses a contact-time window for a law without one
        stiffness = getattr(normal, name)
        times = sweep.numbers("termination.contact_times")
        windows = np.asarray(jnp.asarray(times) * (jnp.pi * jnp.sqrt(jnp.asarray(normal_mass) / stiffness)))
        bad = window & ~(np.isfinite(windows) & (windows > 0.0))
        if np.any(bad):
            case = int(np.argmax(bad))
            raise cfg.ConfigError(f"sweep.{ALPHA}", float(sweep.alpha[case]), window_expectation(float(windows[case])))
        t_max = np.where(window, windows, t_max)
    if impact.any():
        t_max = np.where(impact, _impact_windows(sweep, contact, systems, system_ids), t_max)
    return t_max


def _impact_windows(
    sweep: CompliantSweep, contact: ContactModel, systems: AbstractSystem, system_ids: np.ndarray
) -> np.ndarray:
    """``impact_times × impact_time`` per case, the law's rates evaluated once per distinct (system, contact, α)
    (a law's ``impact_rates`` is host arithmetic, as the depths of :func:`_penetrations`)."""
    inverse_masses, speeds = (np.asarray(a) for a in _impact_inputs(systems))
    keys = [ALPHA, *sweep.swept("system."), *sweep.swept("contact.")]
    ids, first = sweep.plan.distinct(keys)
    laws = jtu.tree_map(np.asarray, contact.at_stiffness(jnp.asarray(sweep.alpha))[0])  # on the host, once
    times = np.empty(len(first))
    for j, case in enumerate(first.tolist()):
        law = jtu.tree_map(lambda leaf, case=case: leaf[case], laws)
        system = int(system_ids[case])
        try:
            times[j] = impact_time(law, inverse_masses[system], float(speeds[system]))
        except ValueError as error:
            raise cfg.ConfigError("termination.time_limit", "impact_time", f"a time > 0 ({error})") from None
        if not (np.isfinite(times[j]) and times[j] > 0.0):
            raise cfg.ConfigError(
                f"sweep.{ALPHA}",
                float(sweep.alpha[case]),
                f"an α at which the normal law's impact time is a positive, finite time (here {times[j]:g})",
            )
    return sweep.numbers("termination.impact_times") * times[ids]


def _penetrations(sweep: CompliantSweep) -> np.ndarray:
    """The initial depth per case, evaluated once per distinct (α, depth rule) in Python floats (numpy's SIMD
    power differs from Python's in the last bit, and the depths of existing studies are kept to the bit)."""
    key = "system.initial_penetration"
    ids, first = sweep.plan.distinct([ALPHA, key])
    rules, alpha = sweep.per_case(key), sweep.alpha
    depths = [initial_penetration({"initial_penetration": rules[case]}, float(alpha[case])) for case in first]
    for case, depth in zip(first, depths):
        problem = rule_problem(depth, Case.ARGUMENT_RULES["penetration"])
        if problem is not None:
            raise cfg.ConfigError(
                key, rules[case], f"a depth that is {problem[1]} (at α = {float(alpha[case]):g} it is {depth:g})"
            )
    return np.asarray(depths, dtype=float)[ids]


def sweep_cases(sweep: CompliantSweep) -> SweepCases:
    """Every case of a compliant study as one batched :class:`Case`."""
    system_keys = [key for key in sweep.swept("system.") if column_name(key) not in START_FIELDS]
    system_ids, system_tables = sweep.distinct_tables("system", system_keys)
    systems = systems_from_config(system_tables)
    contact_ids, contact_tables = sweep.distinct_tables("contact", sweep.swept("contact."))
    contacts = [contact_from_config(table) for table in contact_tables]
    for model, table in zip(contacts, contact_tables):
        _check_contacts(model, table, type(systems).NUM_CONTACTS)
    # a number and a per-contact list of another table stack as one per contact (the same arithmetic per contact)
    contact = _take(jtu.tree_map(lambda *leaves: np.stack(np.broadcast_arrays(*leaves)), *contacts), contact_ids)
    controls = Controls(
        rtol=sweep.numbers("solver.rtol"),
        atol=sweep.numbers("solver.atol"),
        t_max=_time_limits(sweep, contact, systems, system_ids),
    )
    cases = Case(
        system=_take(systems, system_ids),
        contact=contact,
        alpha=sweep.alpha,
        controls=controls,
        penetration=_penetrations(sweep),
    )
    return SweepCases(system_tables, systems, system_ids, cases, contacts, contact_ids)
