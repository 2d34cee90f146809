"""Contact laws in a study config: a name of the registry (``NORMAL_LAWS``, ``FRICTION_LAWS``) or a class path
(``docs/own-body.md``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from regcontact._argument_checks import RULES
from regcontact.contact import FRICTION_LAWS, NORMAL_LAWS, AbstractFrictionLaw, AbstractNormalLaw, AbstractPeakNormalLaw
from regcontact.studies import _user_classes as user, config as cfg

__all__ = [
    "FRICTION_CLASS",
    "NORMAL_CLASS",
    "friction_law_class",
    "law_defaults",
    "law_field",
    "memoryless_normal_law",
    "memoryless_normal_laws",
    "normal_law_class",
    "raw_law",
    "switched_laws",
]

NORMAL_CLASS = "a subclass of regcontact.contact.AbstractNormalLaw"
FRICTION_CLASS = "a subclass of regcontact.contact.AbstractFrictionLaw"


def memoryless_normal_laws() -> list[str]:
    """The registry's normal laws whose force is a function of the state alone: the passages through a jam or a
    crossing sample forces along a motion, which a law that remembers each contact's peak
    (:class:`~regcontact.contact.AbstractPeakNormalLaw`) cannot give from the state."""
    return [name for name, law in NORMAL_LAWS.items() if not issubclass(law, AbstractPeakNormalLaw)]


def memoryless_normal_law(key: str) -> cfg.Parser:
    """A normal law a passage can sample along a motion (the jam and crossing kinds): a name of
    :func:`memoryless_normal_laws`, or a user's class path (built with its constructor's defaults, which every
    law's declaration check asks for). A class that remembers each contact's peak is refused naming ``key``."""
    named = user.name_or_class(key, memoryless_normal_laws(), NORMAL_CLASS)

    def parse(value: Any) -> str:
        parsed = named(value)
        law = _law_class(key, parsed, value, NORMAL_LAWS, AbstractNormalLaw, NORMAL_CLASS)
        if issubclass(law, AbstractPeakNormalLaw):
            raise cfg.ConfigError(
                key, value, f"{NORMAL_CLASS} without a memory: a passage samples forces from the state"
            )
        return parsed

    return parse


#: Checked classes named by path (an edited file is a new class, checked again).
_CHECKED: set[type] = set()


def _declaration_problem(cls: type, normal: bool) -> str | None:
    """What a law class lacks of what the config and the α-scaling read from it, if anything."""
    parameters, exponents = getattr(cls, "PARAMETERS", None), getattr(cls, "EXPONENTS", None)
    if not isinstance(parameters, Mapping) or not all(rule in RULES for rule in parameters.values()):
        return f"PARAMETERS: a dict of parameter name -> one of {', '.join(map(repr, RULES))}"
    if not isinstance(exponents, Mapping) or set(exponents) != set(parameters):
        return "EXPONENTS: a dict of the default α-exponent of each of its PARAMETERS"
    if not all(isinstance(e, int | float) and not isinstance(e, bool) and math.isfinite(e) for e in exponents.values()):
        return "EXPONENTS: finite numbers"
    if normal and getattr(cls, "LINEAR_STIFFNESS", "") not in (None, *parameters):
        return "LINEAR_STIFFNESS: None or one of its PARAMETERS"
    try:
        default = cls()
    except Exception as error:
        return f"a constructor whose parameters all have defaults ({user.one_line(error)})"
    missing = [name for name in parameters if not hasattr(default, name)]
    return f"a field for each of its PARAMETERS (no {missing[0]!r})" if missing else None


def _law_class(key: str, name: str, written: str | None, registry: Mapping[str, type], base: type, expected: str):
    if name in registry:
        return registry[name]
    cls = user.load_class(key, written or name, base, expected)
    if cls not in _CHECKED:
        problem = _declaration_problem(cls, normal=base is AbstractNormalLaw)
        if problem is not None:
            raise cfg.ConfigError(key, written or name, f"{expected}; {cls.__name__} needs {problem}")
        _CHECKED.add(cls)
    return cls


def normal_law_class(name: str, written: str | None = None) -> type[AbstractNormalLaw]:
    """The normal law a validated ``contact.normal_law`` names: a registry name or a class path (loaded and
    checked; a :class:`~regcontact.studies.config.ConfigError` naming ``written``, the value as given)."""
    return _law_class("contact.normal_law", name, written, NORMAL_LAWS, AbstractNormalLaw, NORMAL_CLASS)


def friction_law_class(name: str, written: str | None = None) -> type[AbstractFrictionLaw]:
    """The friction law a validated ``contact.friction_law`` names (as :func:`normal_law_class`)."""
    return _law_class("contact.friction_law", name, written, FRICTION_LAWS, AbstractFrictionLaw, FRICTION_CLASS)


def raw_law(raw_contact: Mapping[str, Any], normal: bool) -> type:
    """The law class a raw ``[contact]`` table names, for the schema of its parameters: a class path is loaded
    and checked here (a bad one refused); a value that is neither a known name nor a path gives the registry's
    first law (the schema's :func:`law_field` then refuses the value)."""
    key, registry = ("normal_law", NORMAL_LAWS) if normal else ("friction_law", FRICTION_LAWS)
    value = raw_contact.get(key, next(iter(registry)))
    if user.is_class_path(value):
        expected = NORMAL_CLASS if normal else FRICTION_CLASS
        resolved = user.resolved_class_path(f"contact.{key}", value, expected)
        return (normal_law_class if normal else friction_law_class)(resolved, written=value)
    return registry.get(value if isinstance(value, str) else "", next(iter(registry.values())))


def law_field(normal: bool, default: str, doc: str) -> cfg.Field:
    """``contact.normal_law`` / ``contact.friction_law``: a registry name, or a class path (absolute once parsed)."""
    if normal:
        return cfg.Field(user.name_or_class("contact.normal_law", list(NORMAL_LAWS), NORMAL_CLASS), default, doc)
    return cfg.Field(user.name_or_class("contact.friction_law", list(FRICTION_LAWS), FRICTION_CLASS), default, doc)


def law_defaults(law: type[AbstractNormalLaw] | type[AbstractFrictionLaw]) -> dict[str, float | list[float]]:
    """The parameters a law class is built with when none are given (its constructor's defaults): what a config
    that names the law and gives none of its parameters uses."""
    built = law()
    values = {name: np.asarray(getattr(built, name), dtype=float) for name in law.PARAMETERS}
    return {name: float(value) if value.ndim == 0 else value.tolist() for name, value in values.items()}


#: The ``[contact]`` keys naming each side's law, with the law a file that names none has.
_SIDES = {"normal": ("normal_law", "spring_damper"), "friction": ("friction_law", "viscous_coulomb")}


def switched_laws(written: Mapping[str, Any], raw: dict[str, Any], overridden: Sequence[str]) -> list[str]:
    """A law switched by ``--set contact.normal_law=…`` (or ``friction_law``) takes its own parameters and
    α-exponents, not the ones the file wrote for its law: the file's ``[contact.normal]`` and
    ``[contact.normal_exponents]`` keys are dropped from ``raw`` (the config after ``--set``; ``written`` is the
    file's) unless ``--set`` gave them too, and a file's sweep over a parameter of its law is refused in one line.
    Returns a note for each switch."""
    contact, file_contact = raw.get("contact"), written.get("contact", {})
    if not isinstance(contact, dict) or not isinstance(file_contact, dict):
        return []
    notes = []
    for side, (key, default) in _SIDES.items():
        old, new = file_contact.get(key, default), contact.get(key, default)
        if f"contact.{key}" not in overridden or old == new:
            continue
        dropped = []
        for table in (side, f"{side}_exponents"):
            values, file_values = contact.get(table), file_contact.get(table)
            if not isinstance(values, dict) or not isinstance(file_values, dict):
                continue
            for name in file_values:
                if f"contact.{table}.{name}" not in overridden:
                    values.pop(name, None)
                    dropped.append(f"{table}.{name}")
            swept = written.get("sweep", {}).get("contact", {}) if isinstance(written.get("sweep"), dict) else {}
            for name, value in (swept.get(table, {}) if isinstance(swept, dict) else {}).items():
                if f"sweep.contact.{table}.{name}" not in overridden:
                    raise cfg.ConfigError(
                        f"sweep.contact.{table}.{name}",
                        value,
                        f"values for the law in effect: the file sweeps a parameter of {old!r}, and --set "
                        f"contact.{key}={new!r} switched the law (sweep the new law's with --set "
                        f"sweep.contact.{table}.<name>=[…])",
                    )
        if dropped:
            notes.append(
                f"contact.{key} = {new!r} (set): its parameters and α-exponents are its own defaults unless --set "
                f"gives them; the file's {', '.join(dropped)} (written for {old!r}) are not used"
            )
    return notes
