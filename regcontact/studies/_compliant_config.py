"""What a valid compliant study config is: its schema, and the cross-field rules a per-key schema cannot express.

The tables of law parameters depend on the laws the config names, and ``[sweep]`` takes every sweepable key of
the others (:mod:`regcontact.studies.sweep_plan`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regcontact._argument_checks import FINITE, POSITIVE, RULES, Rule
from regcontact.compliant import IMPLICIT_SOLVERS, Case, Controls
from regcontact.compliant.switches import RESTART_SURFACES
from regcontact.compliant.termination import EVENTS
from regcontact.contact import AbstractFrictionLaw, AbstractJumpingNormalLaw, AbstractNormalLaw, AbstractPeakNormalLaw
from regcontact.studies import config as cfg
from regcontact.studies._law_config import law_defaults, law_field, normal_law_class, raw_law
from regcontact.studies.compliant_cases import sweep_cases
from regcontact.studies.compliant_sweep import CompliantSweep
from regcontact.studies.sweep_plan import ALPHA, column_name, sweep_fields
from regcontact.studies.system_config import kind_fields, system_kind, system_kind_of

__all__ = ["KIND", "check", "schema"]

#: The ``[study] kind`` of a compliant study.
KIND = "compliant_sweep"

#: A law class, as the config names it.
Law = type[AbstractNormalLaw] | type[AbstractFrictionLaw]


def _per_contact(rule: Rule) -> cfg.Parser:
    """A number, or a non-empty flat list of numbers (one per contact), each following ``rule``."""
    number, listed = cfg.ruled(rule), cfg.list_of(cfg.ruled(rule), 1, "numbers, one per contact")

    def parse(value: Any) -> float | list[float]:
        return listed(value) if isinstance(value, list) else number(value)

    return parse


def _law_fields(law: Law, default: Callable[[str], float | list[float]]) -> dict[str, cfg.Field]:
    """A law's parameters, each parsed with the rule the law's constructor applies (``PARAMETERS``): a number for
    every contact, or a list of one per contact (its length checked against the system's contacts)."""
    return {
        name: cfg.Field(
            _per_contact(RULES[kind]), default(name), f"{name}: a number ({kind}), or a list of one per contact"
        )
        for name, kind in law.PARAMETERS.items()
    }


def _exponent_fields(law: Law) -> dict[str, cfg.Field]:
    """A law's α-exponents: any finite number, as :func:`~regcontact.contact.law_exponents` takes."""
    return {name: cfg.Field(cfg.ruled(FINITE), law.EXPONENTS[name], f"α-exponent of {name}") for name in law.PARAMETERS}


def schema(raw: dict[str, Any]) -> dict[str, Any]:
    """The schema of a compliant sweep for the raw config ``raw`` (whose laws pick the parameter tables)."""
    contact = raw.get("contact", {}) if isinstance(raw.get("contact", {}), dict) else {}
    normal, friction = raw_law(contact, normal=True), raw_law(contact, normal=False)
    kind = system_kind(raw)
    single = {
        "study": cfg.study_fields(KIND),
        "system": kind_fields(kind, across_keys=False),  # every system of the sweep is checked (check below)
        "contact": {
            "normal_law": law_field(True, "spring_damper", "a normal law name, or 'module:Class' / 'file.py:Class'"),
            "friction_law": law_field(
                False, "viscous_coulomb", "a friction law name, or 'module:Class' / 'file.py:Class'"
            ),
            "normal": _law_fields(normal, law_defaults(normal).__getitem__),
            "friction": _law_fields(friction, law_defaults(friction).__getitem__),
            "normal_exponents": _exponent_fields(normal),
            "friction_exponents": _exponent_fields(friction),
        },
        "solver": {
            "name": cfg.Field(cfg.choice(*IMPLICIT_SOLVERS), "RadauIIA5", "an implicit diffrax solver"),
            **cfg.solve_fields(1e-10, 1e-12, 100_000),
            "restart_at": cfg.Field(
                cfg.list_of(cfg.choice(*RESTART_SURFACES), 0, "surface names"),
                [],
                "switching surfaces to locate and restart at, holding the contact state in between",
            ),
        },
        "termination": {
            "events": cfg.Field(cfg.list_of(cfg.choice(*EVENTS), 0, "event names"), ["contact_open"], "events"),
            "time_limit": cfg.Field(
                cfg.float_or_choice(cfg.ruled(Controls.ARGUMENT_RULES["t_max"]), "contact_time", "impact_time"),
                "contact_time",
                "a time > 0, 'contact_time' or 'impact_time'",
            ),
            "contact_times": cfg.Field(cfg.ruled(POSITIVE), 1.0, "window length in contact times"),
            "impact_times": cfg.Field(cfg.ruled(POSITIVE), 3.0, "window length in the normal law's impact times"),
        },
        "references": {
            "impulse_velocity": cfg.Field(cfg.boolean, True, "compare with the impulse-velocity LCP"),
            "compliant_limit": cfg.Field(
                cfg.boolean, True, "compare a landing with the contact model's limit impact law"
            ),
            "time_stepping_dt": cfg.Field(
                cfg.list_of(cfg.positive, 0, "positive time steps"), [], "time steps of the time-stepping LCP"
            ),
        },
        "paper": {
            "source": cfg.Field(str, "", "where the paper's values come from"),
            "alpha": cfg.Field(cfg.list_of(cfg.positive, 0, "positive numbers"), [], "α of the paper's values"),
            "int_lambda_n": cfg.Field(cfg.list_of(cfg.finite, 0, "numbers"), [], "paper's ∫λ_n per alpha"),
            "int_lambda_t": cfg.Field(cfg.list_of(cfg.finite, 0, "numbers"), [], "paper's ∫λ_t per alpha"),
        },
    }
    alpha = cfg.Field(
        cfg.values_of(cfg.ruled(Case.ARGUMENT_RULES["alpha"]), "positive numbers"),
        cfg.REQUIRED,
        "a non-empty list of α > 0, or a range",
    )
    chunk_size = cfg.Field(
        cfg.positive_int, None, "cases per vmapped call (default: automatic, from the devices and their memory)"
    )
    return {**single, "sweep": {**sweep_fields(single, alpha), "chunk_size": chunk_size}}


def _pruned(table: dict[str, Any]) -> dict[str, Any]:
    """A validated table of swept keys without the keys not swept (``None``) and the tables left empty."""
    kept: dict[str, Any] = {}
    for key, value in table.items():
        if isinstance(value, dict):
            value = _pruned(value)
        if value is not None and value != {}:
            kept[key] = value
    return kept


def check(config: dict[str, Any], overridden: list[str]) -> list[str]:
    """Cross-field checks a per-key schema cannot express; returns notes on what was resolved.

    ``[sweep]`` keeps only the keys that are swept, and its ``zip`` groups must name swept keys of equal
    lengths. Every distinct system of the sweep passes its kind's check. A contact-time window needs a normal
    law with a linear stiffness (``LINEAR_STIFFNESS``); otherwise the time limit must be given in time units.
    Restarting at ``contact`` needs a law with a touch-down jump. Every case is built, so a contact-time window
    or an initial depth that no α of the sweep can give (``k(α)`` overflowing) is refused here too.

    The paper's values belong to the system and contact written in the file. If ``--set`` changed a ``system.*``
    or ``contact.*`` key or the sweep runs over system parameters, they describe another study and are dropped,
    with a note.
    """
    fixed = {key: config["sweep"][key] for key in (ALPHA, "chunk_size", "zip")}
    config["sweep"] = {**fixed, **_pruned({k: v for k, v in config["sweep"].items() if k not in fixed})}
    sweep = CompliantSweep.from_config(config)
    system_keys = sweep.swept("system.")
    kind_check = system_kind_of(sweep.system["kind"]).check
    for system in sweep.distinct_tables("system", system_keys)[1]:
        kind_check(system)
    normal_law = sweep.contact["normal_law"]
    normal_class = normal_law_class(normal_law)
    limit_key = "termination.time_limit"
    if "contact_time" in sweep.per_case(limit_key) and normal_class.LINEAR_STIFFNESS is None:
        has_rates = normal_class.impact_rates is not AbstractNormalLaw.impact_rates
        instead = "a time > 0 or 'impact_time' (the law's own impact time scale)" if has_rates else "a time > 0"
        raise cfg.ConfigError(
            limit_key,
            "contact_time",
            f"{instead}: the normal law {normal_law!r} has no linear stiffness k to define t_c = π √(m_n / k)",
        )
    if "impact_time" in sweep.per_case(limit_key) and normal_class.impact_rates is AbstractNormalLaw.impact_rates:
        raise cfg.ConfigError(
            limit_key,
            "impact_time",
            f"a time > 0: the normal law {normal_law!r} does not derive its impact time scales (no impact_rates)",
        )
    for key in sweep.swept("contact."):
        listed = next((value for value in sweep.per_case(key) if isinstance(value, list)), None)
        if listed is not None:
            raise cfg.ConfigError(
                f"sweep.{column_name(key)}", listed, "numbers: a per-contact list is not swept (a column holds one)"
            )
    stiffness = normal_class.LINEAR_STIFFNESS
    per_contact = stiffness is not None and isinstance(sweep.contact["normal"].get(stiffness), list)
    if "contact_time" in sweep.per_case(limit_key) and per_contact:
        raise cfg.ConfigError(
            limit_key,
            "contact_time",
            f"a time > 0: contact.normal.{stiffness} is one per contact, and t_c = π √(m_n / k) needs one k",
        )
    restart_at = list(sweep.settings.restart_at)
    if "contact" in restart_at and not issubclass(normal_class, AbstractJumpingNormalLaw):
        raise cfg.ConfigError(
            "solver.restart_at",
            restart_at,
            f"no 'contact': the normal law {normal_law!r} has no touch-down jump (no contact_force branch)",
        )
    remembers = issubclass(normal_class, AbstractPeakNormalLaw)
    if remembers != ("peak" in restart_at):
        raise cfg.ConfigError(
            "solver.restart_at",
            restart_at,
            f"'peak' exactly when the normal law remembers its peak ({normal_law!r} does{'' if remembers else ' not'})",
        )
    sweep_cases(sweep)  # each case's window and depth depend on α and the laws together: refused before a run
    paper = sweep.paper
    for key, values in (("int_lambda_n", paper.int_lambda_n), ("int_lambda_t", paper.int_lambda_t)):
        if values and len(values) != len(paper.alpha):
            raise cfg.ConfigError(f"paper.{key}", list(values), f"{len(paper.alpha)} numbers, one per paper.alpha")
    changed = [key for key in overridden if key.startswith(("system.", "contact."))]
    changed += [f"sweep.{column_name(key)}" for key in system_keys]
    if changed and paper.alpha:
        config["paper"] = {**config["paper"], "alpha": [], "int_lambda_n": [], "int_lambda_t": []}
        return [
            f"paper values not shown: they are for the file's system and contact, and {', '.join(changed)} changed them"
        ]
    return []
