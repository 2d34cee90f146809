"""Spatial systems in a study config: ``[system] kind = "spatial_rod"``, a contact whose slip is a 2-vector.

A spatial system runs only in a spatial study kind (``spatial_crossing``), a planar one only in the planar kinds:
each side refuses the other's ``system.kind`` in one line (``system_kind`` and ``spatial_system_kind`` in
:mod:`regcontact.studies.system_config`, which knows both registries).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from typing import Any

from regcontact.studies import config as cfg
from regcontact.systems.spatial_rod import SpatialRod
from regcontact.systems.spatial_system import AbstractSpatialSystem

__all__ = [
    "SPATIAL_ROD_FIELDS",
    "SPATIAL_SYSTEM_KINDS",
    "SpatialSystemKind",
    "spatial_kind_fields",
    "spatial_system_from_config",
]

#: The 3D slender rod's keys (``docs/spatial_contact.md``), with :class:`~regcontact.systems.SpatialRod`'s defaults.
SPATIAL_ROD_FIELDS: dict[str, cfg.Field] = {
    "mass": cfg.Field(cfg.positive, 1.0, "rod mass m > 0"),
    "half_length": cfg.Field(cfg.positive, 1.0, "half-length l > 0: centre of mass to the contact end (the paper's l)"),
    "gyration": cfg.Field(
        cfg.float_or_choice(cfg.positive, "uniform"),
        "uniform",
        "radius of gyration ρ > 0 about a transverse axis, or 'uniform' (ρ = l/√3)",
    ),
    "gravity": cfg.Field(cfg.finite, 1.0, "gravitational acceleration g"),
    "mu": cfg.Field(cfg.nonnegative, 1.0, "friction coefficient μ ≥ 0"),
    "theta0": cfg.Field(
        cfg.in_open_interval(0.0, math.pi / 2, "0, π/2"), math.pi / 3, "initial angle θ₀ of the rod to the plane (rad)"
    ),
    "psi0": cfg.Field(cfg.finite, 0.0, "initial azimuth ψ₀ of the rod, centre to contact end (rad)"),
    "slip0": cfg.Field(
        cfg.list_of(cfg.finite, 2, "numbers", 2), [1.0, 0.0], "initial slip (u₁, u₂) of the contact end, not zero"
    ),
    "theta_rate0": cfg.Field(cfg.finite, 0.0, "initial rate θ̇₀"),
    "psi_rate0": cfg.Field(cfg.finite, 0.0, "initial rate ψ̇₀"),
}


def _check_spatial_rod(system: dict[str, Any]) -> None:
    """The contact end must slip at the start: a zero slip has no direction ``ϕ``, so no ``p(ϕ)`` and no slip."""
    if math.hypot(*system["slip0"]) == 0.0:
        raise cfg.ConfigError(
            "system.slip0",
            system["slip0"],
            "a non-zero slip (u₁, u₂): the contact end slips at the start (a zero tangent has no slip direction)",
        )


def _spatial_rod_from_config(system: dict[str, Any]) -> SpatialRod:
    values = {key: value for key, value in system.items() if key != "kind"}
    if isinstance(values["gyration"], str):  # "uniform"
        values["gyration"] = None
    return SpatialRod(**values)


@dataclasses.dataclass(frozen=True)
class SpatialSystemKind:
    """A spatial system kind of the config: its keys (besides ``kind``), how to build it, a check across keys."""

    fields: Mapping[str, cfg.Field]
    build: Callable[[dict[str, Any]], AbstractSpatialSystem]
    doc: str
    check: Callable[[dict[str, Any]], None] = lambda system: None


#: Spatial system kinds by their config name.
SPATIAL_SYSTEM_KINDS: dict[str, SpatialSystemKind] = {
    "spatial_rod": SpatialSystemKind(
        SPATIAL_ROD_FIELDS, _spatial_rod_from_config, "the slender 3D rod, one end on the plane", _check_spatial_rod
    ),
}


def spatial_kind_fields(kind: str) -> dict[str, cfg.Field]:
    """The ``[system]`` schema of a spatial kind: ``kind`` and the kind's own keys."""
    return {
        "kind": cfg.Field(cfg.choice(kind), kind, f"the system kind, {kind!r}"),
        **SPATIAL_SYSTEM_KINDS[kind].fields,
    }


def spatial_system_from_config(system: dict[str, Any]) -> AbstractSpatialSystem:
    """The spatial system a validated ``[system]`` table describes, after its kind's check."""
    kind = SPATIAL_SYSTEM_KINDS[system["kind"]]
    kind.check(system)
    return kind.build(system)
