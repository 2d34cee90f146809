"""The rigid predictions a compliant run is compared with, for a system's initial state.

The impulse-velocity problem (Preclik Sec. 3) can have several solutions: for the rod of Sec. 2.1 both
``Λ = 0`` and the sticking impulse ``Λ₂``. Which one a compliant contact should approach is decided here by the
rule Preclik & Rüde arrive at (Secs. 3.1, 5.2, 6), read for ``k`` contacts (:func:`select_impulse`):

* if the force-acceleration problem (Sec. 2; Leine & Brogliato Eqs. 2.9–2.11) has a solution, no impulse is
  needed and, by Painlevé's principle, the reference is ``Λ = 0`` (every contact free, ``"F"``);
* otherwise — no solution, or the problem does not apply because a closed contact approaches (an impact) — an
  impulse is required, and the reference is the non-zero impulse-velocity solution when there is exactly one
  and the solutions form no continuum; with several isolated ones, or a continuum (statically indeterminate
  friction: the rigid law leaves the split of the impulse between contacts open), none is chosen and the
  study says why.

The time-stepping reference for a step ``δt`` is that problem's solution ``δt λ̃`` when it has exactly one, else
the one solution with the chosen impulse's modes, else none (:func:`select_time_step`). Every solution of every
formulation is still reported, with its modes, in the study's JSON.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from regcontact.rigid._formulations.contact_law import LawSolver, LawTable
from regcontact.rigid._formulations.force_acceleration import force_acceleration
from regcontact.rigid._formulations.impulse_velocity import impulse_velocity
from regcontact.rigid._formulations.solutions import ContactLabel, ContactSolutions
from regcontact.rigid._formulations.time_stepping import time_stepping
from regcontact.rigid._state import ContactState, as_contact_state, initial_contact_states
from regcontact.rigid.lcp._multi_contact_friction import multi_contact_friction_solutions
from regcontact.systems.system import AbstractSystem

__all__ = [
    "ReferenceOptions",
    "RigidReferences",
    "rigid_references",
    "rigid_references_batch",
    "select_impulse",
    "select_time_step",
]


@dataclasses.dataclass(frozen=True)
class ReferenceOptions:
    """Which rigid references to compute: the impulse-velocity one (``impulse_velocity``) and time-stepping ones
    at the steps ``time_steps`` (reported in the JSON, each with its chosen ``δt λ̃``)."""

    impulse_velocity: bool = True
    time_steps: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        steps = tuple(float(dt) for dt in self.time_steps)
        bad = [dt for dt in steps if not (np.isfinite(dt) and dt > 0)]
        if bad:
            raise ValueError(f"time_steps = {list(self.time_steps)}: expected positive time steps, got {bad[0]!r}")
        object.__setattr__(self, "time_steps", steps)


def select_impulse(impulses: ContactSolutions, forces: ContactSolutions | None) -> tuple[np.ndarray | None, str]:
    """The impulse-velocity solution ``(k, 2)`` a compliant run should approach, and why (module docstring):
    ``Λ = 0`` is the solution with every contact free (``"F"``, recognised by its modes, not by exact zeros);
    ``forces`` is ``None`` where the force-acceleration problem does not apply (an impact). A continuum of
    impulses, or several isolated non-zero ones, gives no reference."""
    free = [s for s in impulses if all(mode == "F" for mode in s.modes)]
    if forces is not None and (len(forces) > 0 or forces.continua):
        if free:
            return np.zeros_like(free[0].reactions), (
                "force-acceleration problem solvable: no impulse needed (Painlevé's principle)"
            )
        return None, "force-acceleration problem solvable but Λ = 0 is not an impulse-velocity solution"
    need = "an impact (a closed contact approaching)" if forces is None else "force-acceleration problem unsolvable"
    nonzero = [s for s in impulses if any(mode != "F" for mode in s.modes)]
    if impulses.continua:
        return None, f"{need} and the impulsive solutions form a continuum ({_continuum(impulses.continua)}): " + (
            "the rigid law does not fix the impulse (statically indeterminate), none chosen"
        )
    if len(nonzero) == 1:
        return nonzero[0].reactions, f"{need}: the one impulsive solution ({' '.join(nonzero[0].modes)})"
    found = ", ".join(" ".join(s.modes) for s in nonzero)
    return None, f"{need} and {len(nonzero)} impulsive solutions ({found}): none chosen"


def _continuum(boxes: tuple[np.ndarray, ...], tol: float = 1e-9) -> str:
    """``Λ_n,1 = 0.5, Λ_n,2 = 0.5 fixed; Λ_t,1 in [-0.25, 0.05], …``: the union of the continua's bounding boxes
    ``(2, k, 2)``, its components fixed (spread below ``tol`` times the largest entry) and free."""
    low = np.min([box[0] for box in boxes], axis=0)
    high = np.max([box[1] for box in boxes], axis=0)
    scale = max(float(np.abs(low).max()), float(np.abs(high).max()))
    fixed, free = [], []
    for (i, j), lo in np.ndenumerate(low):
        name = f"Λ_{'nt'[j]},{i + 1}"
        if high[i, j] - lo <= tol * scale:
            fixed.append(f"{name} = {lo:.6g}")
        else:
            free.append(f"{name} in [{lo:.6g}, {high[i, j]:.6g}]")
    return "; ".join(part for part in (", ".join(fixed) + " fixed" if fixed else "", ", ".join(free)) if part)


def select_time_step(
    solutions: ContactSolutions, impulse_modes: tuple[ContactLabel, ...] | None
) -> tuple[np.ndarray | None, str]:
    """The time-stepping reference ``δt λ̃`` ``(k, 2)`` among one step's ``solutions``: the only one, if the step
    has one and no continuum; else the only one with the chosen impulse's modes (``impulse_modes``, ``None``
    when no impulse is chosen); else none, and why."""
    if len(solutions) == 1 and not solutions.continua:
        return solutions[0].reactions, "the time step's one solution"
    same = [s.reactions for s in solutions if impulse_modes is not None and s.modes == impulse_modes]
    if len(same) == 1:
        return same[0], f"of the time step's {len(solutions)} solutions, the one with the impulse's mode(s)"
    extra = f" and {len(solutions.continua)} continuum(s)" if solutions.continua else ""
    return None, f"the time step has {len(solutions)} solutions{extra}, not one with the impulse's mode(s): none chosen"


def _per_contact(prefix: str, reactions: np.ndarray) -> dict[str, float]:
    """``{prefix}_n``, ``{prefix}_t`` for one contact; ``{prefix}_n_i``, ``{prefix}_t_i`` for several (as the
    studies name the force integrals)."""
    pairs = np.asarray(reactions).reshape(-1, 2)
    suffixes = [""] if len(pairs) == 1 else [f"_{i + 1}" for i in range(len(pairs))]
    columns = {}
    for suffix, (normal, tangential) in zip(suffixes, pairs):
        columns[f"{prefix}_n{suffix}"] = float(normal)
        columns[f"{prefix}_t{suffix}"] = float(tangential)
    return columns


@dataclasses.dataclass(frozen=True)
class RigidReferences:
    """The rigid solutions at a system's initial state and the chosen impulse ``(k, 2)``.

    A formulation that does not apply there (force-acceleration at an impact, any at a penetrating start) is
    ``None`` with its reason in ``not_applicable``. ``further_steps`` holds time steps solved ahead for later
    :meth:`time_stepping_impulse` calls (not reported in the JSON).
    """

    state: ContactState
    force_acceleration: ContactSolutions | None
    impulse_velocity: ContactSolutions | None
    time_stepping: dict[float, ContactSolutions]
    impulse: np.ndarray | None
    impulse_rule: str
    impulse_modes: tuple[ContactLabel, ...] | None = None
    not_applicable: dict[str, str] = dataclasses.field(default_factory=dict)
    further_steps: dict[float, ContactSolutions] = dataclasses.field(default_factory=dict)

    def columns(self, integrals: np.ndarray) -> dict[str, float]:
        """CSV columns: ``Λ`` (``impulse_velocity_n``, … per contact: ``impulse_velocity_n_1``, …) and the
        max-norm distance of the force integrals to it over every contact's ``(n, t)``."""
        if self.impulse is None:
            return {}
        distance = float(np.max(np.abs(np.asarray(integrals).reshape(-1) - self.impulse.reshape(-1))))
        return {**_per_contact("impulse_velocity", self.impulse), "distance_to_impulse_velocity": distance}

    def time_stepping_impulse(self, dt: float) -> tuple[np.ndarray | None, str]:
        """``δt λ̃`` ``(k, 2)`` of a step ``dt`` chosen by :func:`select_time_step` (solved here if not already)."""
        dt = float(dt)
        known = {**self.further_steps, **self.time_stepping}
        return select_time_step(known[dt] if dt in known else time_stepping(self.state, dt), self.impulse_modes)

    def as_json(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "impulse_velocity": None if self.impulse is None else self.impulse.tolist(),
            "impulse_velocity_rule": self.impulse_rule,
        }
        for name, solutions in (
            ("force_acceleration", self.force_acceleration),
            ("impulse_velocity", self.impulse_velocity),
        ):
            if name in self.not_applicable:
                document[f"{name}_solutions"] = f"not applicable: {self.not_applicable[name]}"
            elif solutions is not None:
                document[f"{name}_solutions"] = solutions.as_json()
                if solutions.continua:
                    document[f"{name}_continua"] = [box.tolist() for box in solutions.continua]
        if self.time_stepping:
            document["time_stepping"] = {repr(dt): solutions.as_json() for dt, solutions in self.time_stepping.items()}
        return document


def rigid_references(
    system: AbstractSystem | ContactState, *, impulse_velocity: bool = True, time_steps: Sequence[float] = ()
) -> RigidReferences:
    """Solve the rigid problems at the system's initial state (or at a given :class:`ContactState`).

    ``impulse_velocity``: choose the impulse reference (:func:`select_impulse`); ``time_steps``: solve the
    time-stepping problem at these steps. Every tolerance on the way is relative to the system's own scales
    (``docs/rigid.md``, "Units and scaling"): a body rescaled in mass, length and gravity gives the rescaled
    references.
    """
    state = as_contact_state(system, "system")
    options = ReferenceOptions(impulse_velocity=impulse_velocity, time_steps=tuple(time_steps))
    return _references(state, options, multi_contact_friction_solutions)


def rigid_references_batch(
    systems: Sequence[AbstractSystem], options: ReferenceOptions, further_steps: Sequence[float] = ()
) -> list[RigidReferences]:
    """:func:`rigid_references` of each system, equal to it bit for bit, computed together: the states of systems
    of one class in one jitted call (:func:`~regcontact.rigid._state.initial_contact_states`) and their one-contact
    laws in one batched enumeration (:class:`~regcontact.rigid._formulations.contact_law.LawTable`, which solves a
    degenerate law, and laws of several contacts, the exact way).

    ``further_steps``: time steps a caller will ask :meth:`RigidReferences.time_stepping_impulse` for (a δt → 0
    trend), solved in the same batch."""
    states = initial_contact_states(systems)
    laws = LawTable()
    for state in states:
        _references(state, options, laws.record, further_steps)
    laws.solve()
    return [_references(state, options, laws, further_steps) for state in states]


def _references(
    state: ContactState, options: ReferenceOptions, law: LawSolver, further_steps: Sequence[float] = ()
) -> RigidReferences:
    """:func:`rigid_references` of one state, its laws solved by ``law``; ``further_steps`` solved ahead."""
    not_applicable: dict[str, str] = {}
    try:
        forces: ContactSolutions | None = force_acceleration(state, law=law)
    except ValueError as error:  # an impact (or a penetrating start): no force-acceleration problem
        forces, not_applicable["force_acceleration"] = None, str(error)
    impulses, impulse, modes = None, None, None
    if not options.impulse_velocity:
        rule = "impulse-velocity reference switched off"
    else:
        try:
            impulses = impulse_velocity(state, law=law)
        except ValueError as error:  # a penetrating start
            not_applicable["impulse_velocity"] = str(error)
            rule = f"impulse-velocity problem not applicable ({error}): none chosen"
        else:
            impulse, rule = select_impulse(impulses, forces)
            if impulse is not None:  # Λ = 0 as exact zeros, else a solution's own reactions
                free = cast(tuple[ContactLabel, ...], ("F",) * state.num_contacts)
                modes = free if not np.any(impulse) else next(s.modes for s in impulses if s.reactions is impulse)
    steps = {dt: time_stepping(state, dt, law=law) for dt in options.time_steps}
    ahead = {float(dt): time_stepping(state, float(dt), law=law) for dt in further_steps if float(dt) not in steps}
    return RigidReferences(
        state=state,
        force_acceleration=forces,
        impulse_velocity=impulses,
        time_stepping=steps,
        impulse=impulse,
        impulse_rule=rule,
        impulse_modes=modes,
        not_applicable=not_applicable,
        further_steps=ahead,
    )
