"""The Painlevé rod in a study config: its ``[system]`` keys and the rod they describe."""

from __future__ import annotations

from typing import Any

import numpy as np

from regcontact import config as cfg
from regcontact.rigid import torque_threshold
from regcontact.rod import PainleveRod

__all__ = ["SYSTEM_FIELDS", "rod_from_config"]

#: The rod's parameters (Preclik Eqs. 1–4 and the initial state of Sec. 2.1), with their defaults.
SYSTEM_FIELDS: dict[str, cfg.Field] = {
    "mass": cfg.Field(cfg.positive, 1.0, "rod mass m > 0"),
    "length": cfg.Field(cfg.positive, 2.0, "rod length l > 0"),
    "inertia": cfg.Field(
        cfg.float_or_choice(cfg.positive, "slender"), "slender", "moment of inertia I > 0, or 'slender' (m l²/12)"
    ),
    "gravity": cfg.Field(cfg.finite, 1.0, "gravitational acceleration g (f_y = −m g)"),
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
    values = dict(system)
    if values["inertia"] == "slender":
        values["inertia"] = None
    if isinstance(values["torque"], dict):
        threshold = torque_threshold(
            values["phi0"], values["mass"], values["length"], values["inertia"], values["gravity"]
        )
        values["torque"] = threshold - values["torque"]["below_threshold"]
    return PainleveRod(**values)
