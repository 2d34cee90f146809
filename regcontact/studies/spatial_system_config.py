"""Spatial systems in a study config: ``[system] kind = "spatial_rod"``, a contact whose slip is a 2-vector.

A spatial system runs only in a spatial study kind (``spatial_crossing``), a planar one only in the planar kinds:
each side refuses the other's ``system.kind`` in one line (``system_kind`` and ``spatial_system_kind`` in
:mod:`regcontact.studies.system_config`, which knows both registries). A spatial body of one's own is named by
its class path, ``kind = "package.module:Class"`` or ``"file.py:Class"`` (:func:`spatial_system_kind_of`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from typing import Any, cast

from regcontact._argument_checks import ArgumentError
from regcontact.studies import _user_classes as user, config as cfg
from regcontact.systems.spatial_rod import SpatialRod, check_slip
from regcontact.systems.system import AbstractSystem

__all__ = [
    "SPATIAL_ROD_FIELDS",
    "SPATIAL_SYSTEM_KINDS",
    "SpatialSystemKind",
    "spatial_kind_fields",
    "spatial_system_from_config",
    "spatial_system_kind_of",
]


def _rule(key: str) -> cfg.Parser:
    """The parser of a key: :class:`~regcontact.systems.SpatialRod`'s rule for the argument of its name."""
    return cfg.ruled(SpatialRod.ARGUMENT_RULES[key])


#: The 3D slender rod's keys (``docs/spatial_contact.md``), with :class:`~regcontact.systems.SpatialRod`'s defaults.
SPATIAL_ROD_FIELDS: dict[str, cfg.Field] = {
    "mass": cfg.Field(_rule("mass"), 1.0, "rod mass m > 0"),
    "half_length": cfg.Field(
        _rule("half_length"), 1.0, "half-length l > 0: centre of mass to the contact end (the paper's l)"
    ),
    "gyration": cfg.Field(
        cfg.float_or_choice(_rule("gyration"), "uniform"),
        "uniform",
        "radius of gyration ρ > 0 about a transverse axis, or 'uniform' (ρ = l/√3)",
    ),
    "gravity": cfg.Field(_rule("gravity"), 1.0, "gravitational acceleration g"),
    "mu": cfg.Field(_rule("mu"), 1.0, "friction coefficient μ ≥ 0"),
    "theta0": cfg.Field(_rule("theta0"), math.pi / 3, "initial angle θ₀ of the rod to the plane (rad)"),
    "psi0": cfg.Field(_rule("psi0"), 0.0, "initial azimuth ψ₀ of the rod, centre to contact end (rad)"),
    "slip0": cfg.Field(
        cfg.list_of(_rule("slip0"), 2, "numbers", 2), [1.0, 0.0], "initial slip (u₁, u₂) of the contact end, not zero"
    ),
    "theta_rate0": cfg.Field(_rule("theta_rate0"), 0.0, "initial rate θ̇₀"),
    "psi_rate0": cfg.Field(_rule("psi_rate0"), 0.0, "initial rate ψ̇₀"),
}


def _spatial_rod_rules(system: dict[str, Any]) -> None:
    """:class:`~regcontact.systems.SpatialRod`'s own rule across keys: a slip that is not zero
    (:func:`~regcontact.systems.spatial_rod.check_slip`)."""
    check_slip(system["slip0"])


def _spatial_rod_from_config(system: dict[str, Any]) -> SpatialRod:
    values = {key: value for key, value in system.items() if key != "kind"}
    if isinstance(values["gyration"], str):  # "uniform"
        values["gyration"] = None
    return SpatialRod(**values)


def _no_rules(system: dict[str, Any]) -> None:
    """A kind whose keys have no rule across them."""


@dataclasses.dataclass(frozen=True)
class SpatialSystemKind:
    """A spatial system kind of the config: its keys (besides ``kind``), how to build it, and the system's own
    rules across keys (they raise :class:`~regcontact._argument_checks.ArgumentError` naming the key)."""

    fields: Mapping[str, cfg.Field]
    build: Callable[[dict[str, Any]], AbstractSystem]
    doc: str
    rules: Callable[[dict[str, Any]], None] = _no_rules

    def check(self, system: dict[str, Any]) -> None:
        """The rules across keys, as a :class:`~regcontact.studies.config.ConfigError` of the key at fault."""
        try:
            self.rules(system)
        except ArgumentError as error:
            raise cfg.ConfigError(f"system.{error.name}", error.value, error.expected) from None


#: Spatial system kinds by their config name.
SPATIAL_SYSTEM_KINDS: dict[str, SpatialSystemKind] = {
    "spatial_rod": SpatialSystemKind(
        SPATIAL_ROD_FIELDS, _spatial_rod_from_config, "the slender 3D rod, one end on the plane", _spatial_rod_rules
    ),
}


#: What a class named in ``system.kind`` of a spatial study must be.
SPATIAL_CLASS = "a subclass of regcontact.systems.AbstractSystem with TANGENT_DIM = 2"

#: The kinds made from classes named by path, by class.
_USER_KINDS: dict[type, SpatialSystemKind] = {}


def _user_kind(cls: type[AbstractSystem], name: str) -> SpatialSystemKind:
    """The kind of a user's spatial class: its constructor's parameters as keys, parsed by its
    ``ARGUMENT_RULES``; its rules across keys are its constructor's."""
    fields = user.constructor_fields("system.kind", name, cls, cls.ARGUMENT_RULES, reserved=("kind",))

    def build(table: dict[str, Any]) -> AbstractSystem:
        return user.constructed(cls, {key: value for key, value in table.items() if key != "kind"})

    def rules(table: dict[str, Any]) -> None:
        try:
            build(table)
        except ArgumentError:
            raise
        except ValueError as error:
            raise ArgumentError("kind", table["kind"], f"a system that can be integrated ({error})") from None

    return SpatialSystemKind(fields, build, f"{cls.__name__} ({name})", rules)


def spatial_system_kind_of(name: str, written: str | None = None) -> SpatialSystemKind:
    """The spatial kind a validated ``system.kind`` names: a built-in one, or the class at a class path (imported
    and checked; a :class:`~regcontact.studies.config.ConfigError` naming ``written``, the value as the config
    gave it, if it cannot be loaded or is no spatial :class:`~regcontact.systems.AbstractSystem`)."""
    if name in SPATIAL_SYSTEM_KINDS:
        return SPATIAL_SYSTEM_KINDS[name]
    cls = cast(type[AbstractSystem], user.load_class("system.kind", written or name, AbstractSystem, SPATIAL_CLASS))
    if cls.TANGENT_DIM != 2:
        raise cfg.ConfigError(
            "system.kind", written or name, f"{SPATIAL_CLASS}; {cls.__name__} has TANGENT_DIM = {cls.TANGENT_DIM}"
        )
    if cls not in _USER_KINDS:
        _USER_KINDS[cls] = _user_kind(cls, written or name)
    return _USER_KINDS[cls]


def _kind_field(kind: str) -> cfg.Field:
    """``kind``: its name, or the class path the config wrote (relative to the study file) that resolves to it."""
    names = [] if user.is_class_path(kind) else [kind]
    return cfg.Field(user.name_or_class("system.kind", names, SPATIAL_CLASS), kind, f"the system kind, {kind!r}")


def spatial_kind_fields(kind: str) -> dict[str, Any]:
    """The ``[system]`` schema of a spatial kind: ``kind``, the kind's own keys and its rules across them."""
    found = spatial_system_kind_of(kind)
    return {"kind": _kind_field(kind), **found.fields, "(rules across keys)": cfg.TableRule(found.rules)}


def spatial_system_from_config(system: dict[str, Any]) -> AbstractSystem:
    """The spatial system a validated ``[system]`` table describes, after its kind's check; the constructor's
    refusal as a :class:`~regcontact.studies.config.ConfigError` (of the key it names, or of the kind)."""
    kind = spatial_system_kind_of(system["kind"])
    kind.check(system)
    try:
        return kind.build(system)
    except ArgumentError as error:
        raise cfg.ConfigError(f"system.{error.name}", error.value, error.expected) from None
    except ValueError as error:
        raise cfg.ConfigError("system.kind", system["kind"], f"a system that can be integrated ({error})") from None
