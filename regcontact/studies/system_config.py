"""Systems in a study config: ``[system] kind = "…"`` picks one, and each kind has its own keys.

==================  ============================================================================================
``painleve_rod``    the rod of Preclik & Rüde with its lower end in contact (one contact; the default)
``two_point_rod``   the same rod with both ends able to touch the ground (two contacts)
``reduced_single_contact``  Champneys' contact-space form ``(a, b, A, B, C, μ)`` of one contact
==================  ============================================================================================

A key of another kind is an unknown key of this one: the config error names it and lists the kind's keys.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from regcontact.rigid import torque_threshold
from regcontact.studies import config as cfg
from regcontact.systems.reduced_contact import ReducedSingleContact
from regcontact.systems.rod import PainleveRod
from regcontact.systems.system import AbstractSystem, check_system
from regcontact.systems.two_point_rod import TwoPointRod

__all__ = [
    "DEFAULT_KIND",
    "SYSTEM_FIELDS",
    "SYSTEM_KINDS",
    "START_FIELDS",
    "SystemKind",
    "initial_penetration",
    "kind_fields",
    "rod_from_config",
    "system_from_config",
    "system_kind",
]

#: The keys every rod has: its body and the gravity on it.
_ROD_BODY_FIELDS: dict[str, cfg.Field] = {
    "mass": cfg.Field(cfg.positive, 1.0, "rod mass m > 0"),
    "length": cfg.Field(cfg.positive, 2.0, "rod length l > 0"),
    "inertia": cfg.Field(
        cfg.float_or_choice(cfg.positive, "slender"), "slender", "moment of inertia I > 0, or 'slender' (m l²/12)"
    ),
    "gravity": cfg.Field(cfg.finite, 1.0, "gravitational acceleration g (f_y = −m g)"),
}


def _rod_values(system: dict[str, Any]) -> dict[str, Any]:
    """A validated rod table as constructor arguments: without ``kind``, ``"slender"`` as ``inertia=None``."""
    values = {key: value for key, value in system.items() if key != "kind" and key not in START_FIELDS}
    if values["inertia"] == "slender":
        values["inertia"] = None
    return values


#: The rod's parameters (Preclik Eqs. 1–4 and the initial state of Sec. 2.1), with their defaults.
SYSTEM_FIELDS: dict[str, cfg.Field] = {
    **_ROD_BODY_FIELDS,
    "torque": cfg.Field(
        cfg.finite_or_table(below_threshold=cfg.finite),
        0.0,
        "applied torque τ, or {below_threshold = d}: τ = 2 f_y I / (m l cos φ₀) − d (Preclik Eq. 12)",
    ),
    "force_x": cfg.Field(cfg.finite, 0.0, "applied horizontal force f_x"),
    "mu": cfg.Field(cfg.nonnegative, 1.5, "friction coefficient μ ≥ 0"),
    "phi0": cfg.Field(cfg.in_open_interval(0.0, float(np.pi), "0, π"), float(np.pi / 3), "initial angle φ₀ (rad)"),
    "vx0": cfg.Field(cfg.finite, -1.0, "initial horizontal velocity v_x0"),
    "omega0": cfg.Field(cfg.finite, 0.0, "initial angular velocity ω₀ (v_y0 is set so that ġ_n = 0)"),
}


def rod_from_config(system: dict[str, Any]) -> PainleveRod:
    """The rod a validated ``[system]`` table describes (resolving ``"slender"`` and a torque below threshold)."""
    values = _rod_values(system)
    if isinstance(values["torque"], dict):
        threshold = torque_threshold(
            values["phi0"], values["mass"], values["length"], values["inertia"], values["gravity"]
        )
        values["torque"] = threshold - values["torque"]["below_threshold"]
    return PainleveRod(**values)


#: The two-point rod's keys (``docs/systems.md``).
TWO_POINT_ROD_FIELDS: dict[str, cfg.Field] = {
    **_ROD_BODY_FIELDS,
    "torque": cfg.Field(cfg.finite, 0.0, "applied torque τ"),
    "force_x": cfg.Field(cfg.finite, 0.0, "applied horizontal force f_x"),
    "mu": cfg.Field(cfg.nonnegative, 0.5, "friction coefficient μ ≥ 0 (both ends)"),
    "phi0": cfg.Field(
        cfg.in_open_interval(-float(np.pi) / 2, float(np.pi) / 2, "−π/2, π/2"), 0.0, "initial angle φ₀ (rad); 0 = flat"
    ),
    "height": cfg.Field(cfg.nonnegative, 0.0, "initial height of the lower end above the ground (0 = touching)"),
    "vx0": cfg.Field(cfg.finite, 0.0, "initial horizontal velocity v_x0"),
    "vy0": cfg.Field(cfg.finite, 0.0, "initial vertical velocity v_y0"),
    "omega0": cfg.Field(cfg.finite, 0.0, "initial angular velocity ω₀"),
}


def _two_point_rod_from_config(system: dict[str, Any]) -> TwoPointRod:
    return TwoPointRod(**_rod_values(system))


#: Champneys' contact-space form of one contact (``docs/systems.md``).
REDUCED_SINGLE_CONTACT_FIELDS: dict[str, cfg.Field] = {
    "a": cfg.Field(cfg.finite, 0.0, "free tangential acceleration a"),
    "b": cfg.Field(cfg.finite, -1.0, "free normal acceleration b (< 0 presses the contact)"),
    "A": cfg.Field(cfg.positive, 1.0, "A > 0 of the contact-space inverse mass [[A, B], [B, C]]"),
    "B": cfg.Field(cfg.finite, 0.0, "B of the contact-space inverse mass [[A, B], [B, C]]"),
    "C": cfg.Field(cfg.positive, 1.0, "C > 0 of the contact-space inverse mass [[A, B], [B, C]]"),
    "mu": cfg.Field(cfg.nonnegative, 0.5, "friction coefficient μ ≥ 0"),
    "slip0": cfg.Field(cfg.finite, 0.0, "initial slip velocity u₀ (> 0: mode S+)"),
    "normal_velocity0": cfg.Field(cfg.finite, 0.0, "initial normal velocity v₀ (< 0: approaching)"),
}


def _check_reduced_single_contact(system: dict[str, Any]) -> None:
    """``[[A, B], [B, C]]`` must be positive definite, or there is no mass matrix."""
    if system["A"] * system["C"] - system["B"] ** 2 <= 0.0:
        raise cfg.ConfigError(
            "system.B",
            system["B"],
            f"B² < A C = {system['A'] * system['C']:g}: the contact-space inverse mass [[A, B], [B, C]] must be "
            "positive definite (else the mass matrix is singular or indefinite)",
        )


@dataclasses.dataclass(frozen=True)
class SystemKind:
    """A system kind of the config: its keys (besides ``kind``), how to build the system from them, and a
    check across keys (raises ``ConfigError``)."""

    fields: Mapping[str, cfg.Field]
    build: Callable[[dict[str, Any]], AbstractSystem]
    doc: str
    check: Callable[[dict[str, Any]], None] = lambda system: None


#: System kinds by their config name.
SYSTEM_KINDS: dict[str, SystemKind] = {
    "painleve_rod": SystemKind(SYSTEM_FIELDS, lambda system: rod_from_config(system), "the Painlevé rod, one contact"),
    "two_point_rod": SystemKind(
        TWO_POINT_ROD_FIELDS, _two_point_rod_from_config, "the rod with both ends, two contacts"
    ),
    "reduced_single_contact": SystemKind(
        REDUCED_SINGLE_CONTACT_FIELDS,
        lambda system: ReducedSingleContact(**{key: value for key, value in system.items() if key != "kind"}),
        "Champneys' contact-space form of one contact",
        _check_reduced_single_contact,
    ),
}

DEFAULT_KIND = "painleve_rod"


def system_kind(raw: Mapping[str, Any]) -> str:
    """The ``[system] kind`` a raw config names (default ``painleve_rod``); ``ConfigError`` for an unknown one."""
    table = raw.get("system", {})
    name = table.get("kind", DEFAULT_KIND) if isinstance(table, Mapping) else DEFAULT_KIND
    if name not in SYSTEM_KINDS:
        raise cfg.ConfigError("system.kind", name, "one of " + ", ".join(repr(kind) for kind in SYSTEM_KINDS))
    return name


#: Keys every kind has: how the run starts, not what the body is (so they never reach a system's builder).
START_FIELDS: dict[str, cfg.Field] = {
    "initial_penetration": cfg.Field(
        cfg.nonnegative_or_table(coefficient=cfg.nonnegative, power=cfg.finite),
        0.0,
        "depth δ ≥ 0 the closed contacts start pressed in by, or {coefficient = c, power = p}: δ = c α^(−p)",
    ),
}


def kind_fields(kind: str) -> dict[str, cfg.Field]:
    """The ``[system]`` schema of a kind: ``kind``, the keys every kind has, and the kind's own keys."""
    kind_field = cfg.Field(cfg.choice(kind), kind, f"the system kind, {kind!r}")
    return {"kind": kind_field, **START_FIELDS, **SYSTEM_KINDS[kind].fields}


def initial_penetration(system: dict[str, Any], alpha: float) -> float:
    """The depth ``δ`` a validated ``[system]`` table asks for at stiffness multiplier ``alpha``."""
    depth = system.get("initial_penetration", 0.0)
    if isinstance(depth, dict):
        return depth["coefficient"] * alpha ** (-depth["power"])
    return float(depth)


def system_from_config(system: dict[str, Any]) -> AbstractSystem:
    """The system a validated ``[system]`` table describes, checked (:func:`check_system`) before it is used."""
    kind = system.get("kind", DEFAULT_KIND)
    built = SYSTEM_KINDS[kind].build({key: value for key, value in system.items() if key not in START_FIELDS})
    try:
        check_system(built)
    except ValueError as error:
        raise cfg.ConfigError("system.kind", kind, f"a system that can be integrated ({error})") from None
    return built
