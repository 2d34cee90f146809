"""The rigid predictions a compliant run is compared with, for a rod's initial state.

The impulse-velocity LCP (Preclik Sec. 3) can have several solutions: for the rod of Sec. 2.1 both
``Λ = (0, 0)`` and the sticking impulse ``Λ₂``. Which one a compliant contact should approach is decided here
by the rule Preclik & Rüde arrive at (Secs. 3.1, 5.2, 6):

* if the force-acceleration problem (Sec. 2) has a solution, no impulse is needed and, by Painlevé's
  principle, the reference is ``Λ = 0``;
* otherwise (the inconsistent case) an impulse is required, and the reference is the non-zero impulse-velocity
  solution — when there is exactly one; with several, none is chosen and the study says so.

Every solution of every formulation is still reported, with its mode, in the study's JSON.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from regcontact.rigid.force_acceleration import force_acceleration
from regcontact.rigid.impulse_velocity import impulse_velocity
from regcontact.rigid.solutions import RigidSolutions
from regcontact.rigid.state import ContactState
from regcontact.rigid.time_stepping import time_stepping
from regcontact.systems.rod import PainleveRod

__all__ = ["RigidReferences", "rigid_references", "select_impulse"]


def select_impulse(impulses: RigidSolutions, forces: RigidSolutions) -> tuple[np.ndarray | None, str]:
    """The impulse-velocity solution a compliant run should approach, and why (see the module docstring).

    ``Λ = 0`` is recognised by its mode, ``"opening"`` (``Λ_n`` zero relative to the problem's scales, hence
    ``Λ_t`` too, by the cone), not by exact zeros: a near-degenerate problem may return it with round-off.
    """
    if len(forces) > 0:
        if any(s.mode == "opening" for s in impulses):
            return np.zeros(2), "force-acceleration problem solvable: no impulse needed (Painlevé's principle)"
        return None, "force-acceleration problem solvable but Λ = 0 is not an impulse-velocity solution"
    nonzero = [s for s in impulses if s.mode != "opening"]
    if len(nonzero) == 1:
        return nonzero[
            0
        ].reaction, f"force-acceleration problem unsolvable: the one impulsive solution ({nonzero[0].mode})"
    return None, f"force-acceleration problem unsolvable and {len(nonzero)} impulsive solutions: none chosen"


@dataclasses.dataclass(frozen=True)
class RigidReferences:
    """Rigid solutions for one rod, and the impulse chosen as the limit to compare with."""

    force_acceleration: RigidSolutions
    impulse_velocity: RigidSolutions | None
    time_stepping: dict[float, RigidSolutions]
    impulse: np.ndarray | None
    impulse_rule: str

    def columns(self, integrals: np.ndarray) -> dict[str, float]:
        """CSV columns: the chosen ``Λ`` and the max-norm distance of the force integrals to it."""
        if self.impulse is None:
            return {}
        return {
            "impulse_velocity_n": float(self.impulse[0]),
            "impulse_velocity_t": float(self.impulse[1]),
            "distance_to_impulse_velocity": float(np.max(np.abs(np.asarray(integrals) - self.impulse))),
        }

    def as_json(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "force_acceleration_solutions": self.force_acceleration.as_json(),
            "impulse_velocity": None if self.impulse is None else self.impulse.tolist(),
            "impulse_velocity_rule": self.impulse_rule,
        }
        if self.impulse_velocity is not None:
            document["impulse_velocity_solutions"] = self.impulse_velocity.as_json()
        if self.time_stepping:
            document["time_stepping"] = {repr(dt): solutions.as_json() for dt, solutions in self.time_stepping.items()}
        return document


def rigid_references(rod: PainleveRod, options: dict[str, Any]) -> RigidReferences:
    """Solve the rigid problems at the rod's initial state (``options``: the study's ``[references]``).

    Every tolerance on the way is relative to the rod's own scales (see ``docs/rigid.md``, "Units and
    scaling"): a rod rescaled in mass, length and gravity gives the rescaled references.
    """
    state = ContactState.from_rod(rod)
    forces = force_acceleration(state)
    impulses = impulse_velocity(state) if options.get("impulse_velocity", True) else None
    if impulses is None:
        impulse, rule = None, "impulse-velocity reference switched off"
    else:
        impulse, rule = select_impulse(impulses, forces)
    steps = {float(dt): time_stepping(state, float(dt)) for dt in options.get("time_stepping_dt", [])}
    return RigidReferences(
        force_acceleration=forces, impulse_velocity=impulses, time_stepping=steps, impulse=impulse, impulse_rule=rule
    )
