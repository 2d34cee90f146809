"""The rigid predictions a compliant run is compared with, for a system's initial state (any number of contacts).

The impulse-velocity LCP (Preclik Sec. 3) can have several solutions: for the rod of Sec. 2.1 both
``Λ = (0, 0)`` and the sticking impulse ``Λ₂``. Which one a compliant contact should approach is decided here
by the rule Preclik & Rüde arrive at (Secs. 3.1, 5.2, 6), read for ``k`` contacts:

* if the force-acceleration problem (Sec. 2; Leine & Brogliato Eqs. 2.9–2.11) has a solution, no impulse is
  needed and, by Painlevé's principle, the reference is ``Λ = 0`` (every contact free, ``"F"``);
* otherwise — no solution, or the problem does not apply because a closed contact approaches (an impact) — an
  impulse is required, and the reference is the non-zero impulse-velocity solution when there is exactly one
  and the solutions form no continuum; with several isolated ones, or a continuum (statically indeterminate
  friction: the rigid law leaves the split of the impulse between contacts open), none is chosen and the
  study says why.

The time-stepping reference for a step ``δt`` is that problem's solution ``δt λ̃`` when it has exactly one, else
the one solution with the chosen impulse's modes, else none (:func:`select_time_step`).

One contact of a :class:`~regcontact.systems.rod.PainleveRod` goes through the one-contact formulations
(:class:`RigidReferences`, the study's numbers as before); every other system through the ``k``-contact ones
(:class:`MultiContactReferences`). For ``k = 1`` the two give the same reactions to the bit and the same rule
(mode ``"opening"`` is ``"F"``). Every solution of every formulation is still reported, with its mode(s), in the
study's JSON.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from regcontact.rigid.contact_law import LawSolutions, LawSolver, contact_law_solutions, contact_law_solutions_batch
from regcontact.rigid.force_acceleration import force_acceleration
from regcontact.rigid.impulse_velocity import impulse_velocity
from regcontact.rigid.multi_contact import (
    MultiContactSolutions,
    MultiContactState,
    multi_contact_force_acceleration,
    multi_contact_impulse_velocity,
    multi_contact_time_stepping,
)
from regcontact.rigid.solutions import RigidSolutions
from regcontact.rigid.state import ContactState, rod_contact_states
from regcontact.rigid.time_stepping import time_stepping
from regcontact.systems.rod import PainleveRod

__all__ = [
    "MultiContactReferences",
    "RigidReferences",
    "rigid_references",
    "rigid_references_batch",
    "select_impulse",
    "select_multi_contact_impulse",
    "select_time_step",
]


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


def select_multi_contact_impulse(
    impulses: MultiContactSolutions, forces: MultiContactSolutions | None
) -> tuple[np.ndarray | None, str]:
    """The rule of :func:`select_impulse` for ``k`` contacts (module docstring): ``Λ = 0`` is the solution with
    every contact free (``"F"``); ``forces`` is ``None`` where the force-acceleration problem does not apply
    (an impact). A continuum of impulses, or several isolated non-zero ones, gives no reference."""
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
    solutions: list[tuple[np.ndarray, Any]], continua: int, impulse_modes: Any | None
) -> tuple[np.ndarray | None, str]:
    """The time-stepping reference ``δt λ̃`` among one step's ``solutions`` (``(reaction, modes)`` pairs): the
    only one, if the step has one and no continuum; else the only one with the chosen impulse's modes
    (``impulse_modes``, ``None`` when no impulse is chosen); else none, and why."""
    if len(solutions) == 1 and not continua:
        return solutions[0][0], "the time step's one solution"
    same = [reaction for reaction, modes in solutions if impulse_modes is not None and modes == impulse_modes]
    if len(same) == 1:
        return same[0], f"of the time step's {len(solutions)} solutions, the one with the impulse's mode(s)"
    extra = f" and {continua} continuum(s)" if continua else ""
    return None, f"the time step has {len(solutions)} solutions{extra}, not one with the impulse's mode(s): none chosen"


@dataclasses.dataclass(frozen=True)
class RigidReferences:
    """Rigid solutions for one rod, and the impulse chosen as the limit to compare with."""

    force_acceleration: RigidSolutions
    impulse_velocity: RigidSolutions | None
    time_stepping: dict[float, RigidSolutions]
    impulse: np.ndarray | None
    impulse_rule: str
    #: The state solved at (for further time steps) and the chosen impulse's mode.
    state: ContactState | None = None
    impulse_mode: str | None = None
    #: Time steps solved ahead for later :meth:`time_stepping_impulse` calls (not reported in the JSON).
    further_steps: dict[float, RigidSolutions] = dataclasses.field(default_factory=dict)

    def columns(self, integrals: np.ndarray) -> dict[str, float]:
        """CSV columns: the chosen ``Λ`` and the max-norm distance of the force integrals to it."""
        if self.impulse is None:
            return {}
        return {
            "impulse_velocity_n": float(self.impulse[0]),
            "impulse_velocity_t": float(self.impulse[1]),
            "distance_to_impulse_velocity": float(np.max(np.abs(np.asarray(integrals) - self.impulse))),
        }

    def time_stepping_impulse(self, dt: float) -> tuple[np.ndarray | None, str]:
        """``δt λ̃`` of a step ``dt`` chosen by :func:`select_time_step` (solved here if not already)."""
        if self.state is None:
            raise ValueError("these references were built without their state: no further time steps")
        dt = float(dt)
        known = {**self.further_steps, **self.time_stepping}
        solutions = known[dt] if dt in known else time_stepping(self.state, dt)
        pairs = [(s.reaction, s.mode) for s in solutions]
        return select_time_step(pairs, len(solutions.continua), self.impulse_mode)

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
class MultiContactReferences:
    """Rigid solutions of the ``k``-contact formulations at a system's initial state, and the chosen impulse
    ``(k, 2)``. A formulation that does not apply there (an impact for force-acceleration, a penetrating start)
    is ``None`` with its reason in ``not_applicable``."""

    state: MultiContactState
    force_acceleration: MultiContactSolutions | None
    impulse_velocity: MultiContactSolutions | None
    time_stepping: dict[float, MultiContactSolutions]
    impulse: np.ndarray | None
    impulse_rule: str
    impulse_mode: tuple[str, ...] | None = None
    not_applicable: dict[str, str] = dataclasses.field(default_factory=dict)

    def columns(self, integrals: np.ndarray) -> dict[str, float]:
        """CSV columns: ``Λ`` per contact (``impulse_velocity_n_1``, …) and the max-norm distance over every
        contact's ``(n, t)``."""
        if self.impulse is None:
            return {}
        distance = float(np.max(np.abs(np.asarray(integrals).reshape(-1) - self.impulse.reshape(-1))))
        return {**_per_contact("impulse_velocity", self.impulse), "distance_to_impulse_velocity": distance}

    def time_stepping_impulse(self, dt: float) -> tuple[np.ndarray | None, str]:
        """``δt λ̃`` ``(k, 2)`` of a step ``dt`` chosen by :func:`select_time_step` (solved here if not already)."""
        dt = float(dt)
        solutions = self.time_stepping[dt] if dt in self.time_stepping else multi_contact_time_stepping(self.state, dt)
        pairs = [(s.reactions, s.modes) for s in solutions]
        return select_time_step(pairs, len(solutions.continua), self.impulse_mode)

    def as_json(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "note": "k-contact rigid solutions at the initial state (Leine & Brogliato Sec. 2), reactions per contact",
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


def rigid_references(system: Any, options: dict[str, Any]) -> RigidReferences | MultiContactReferences:
    """Solve the rigid problems at the system's initial state (``options``: the study's ``[references]``).

    A :class:`PainleveRod` goes through the one-contact formulations (:class:`RigidReferences`), any other
    system (or a :class:`MultiContactState`) through the ``k``-contact ones (:class:`MultiContactReferences`).
    Every tolerance on the way is relative to the system's own scales (see ``docs/rigid.md``, "Units and
    scaling"): a rod rescaled in mass, length and gravity gives the rescaled references.
    """
    if not isinstance(system, (PainleveRod, ContactState)):
        return _multi_contact_references(system, options)
    state = ContactState.from_rod(system) if isinstance(system, PainleveRod) else system
    return _one_contact_references(state, options, contact_law_solutions)


def rigid_references_batch(
    systems: Sequence[Any], options: dict[str, Any], further_steps: Sequence[float] = ()
) -> list[RigidReferences | MultiContactReferences]:
    """:func:`rigid_references` of each system, equal to it bit for bit, computed together: the rods' states in
    one jitted call (:func:`~regcontact.rigid.state.rod_contact_states`) and their contact laws (impulse-velocity,
    time steps, force-acceleration at rest) in one batched enumeration
    (:func:`~regcontact.rigid.contact_law.contact_law_solutions_batch`, which solves a degenerate law the exact
    way). Other systems go through :func:`rigid_references` one at a time.

    ``further_steps``: time steps a caller will ask :meth:`RigidReferences.time_stepping_impulse` for (a δt → 0
    trend), solved in the same batch (rods only)."""
    rods = [i for i, system in enumerate(systems) if isinstance(system, PainleveRod)]
    states = dict(zip(rods, rod_contact_states([systems[i] for i in rods])))
    laws = _LawTable()
    forces = {}  # force-acceleration problems solved without the law (sliding or opening) need no second pass
    for i, state in states.items():
        first_pass = _one_contact_references(state, options, laws.record, further_steps=further_steps)
        if not _law_at_rest(state):
            forces[i] = first_pass.force_acceleration
    laws.solve()
    return [
        _one_contact_references(states[i], options, laws, forces.get(i), further_steps)
        if i in states
        else rigid_references(system, options)
        for i, system in enumerate(systems)
    ]


def _law_at_rest(state: ContactState, tol: float = 1e-9) -> bool:
    """Whether :func:`force_acceleration` solves the contact law at this state (closed, at rest; else it slides,
    opens, or does not apply), as it decides."""
    closed = abs(state.gap) <= tol * state.gap_scale
    return bool(closed and np.abs(state.contact_velocity).max() <= tol * state.velocity_scale)


class _LawTable:
    """The contact laws of many states: recorded on a first pass, solved in one batch, then answered from the
    table (a law not recorded is solved on the spot)."""

    def __init__(self) -> None:
        self.recorded: dict[tuple[bytes, bytes, float, float], tuple[np.ndarray, np.ndarray, float, float]] = {}
        self.answers: dict[tuple[bytes, bytes, float, float], LawSolutions] = {}

    @staticmethod
    def _key(W: np.ndarray, b: np.ndarray, mu: float, tol: float) -> tuple[bytes, bytes, float, float]:
        return np.asarray(W, float).tobytes(), np.asarray(b, float).tobytes(), float(mu), float(tol)

    def record(self, W: np.ndarray, b: np.ndarray, mu: float, tol: float) -> LawSolutions:
        """Note the law; answer "no solutions" (the first pass only collects)."""
        self.recorded[self._key(W, b, mu, tol)] = (np.asarray(W, float), np.asarray(b, float), float(mu), float(tol))
        return [], ()

    def solve(self) -> None:
        for tol in {tol for *_, tol in self.recorded.values()}:
            keys = [key for key, law in self.recorded.items() if law[3] == tol]
            W, b, mu = (np.array([self.recorded[key][j] for key in keys]) for j in range(3))
            self.answers.update(zip(keys, contact_law_solutions_batch(W, b, mu, tol)))

    def __call__(self, W: np.ndarray, b: np.ndarray, mu: float, tol: float) -> LawSolutions:
        found = self.answers.get(self._key(W, b, mu, tol))
        return contact_law_solutions(W, b, mu, tol) if found is None else found


def _one_contact_references(
    state: ContactState,
    options: dict[str, Any],
    law: LawSolver,
    forces: RigidSolutions | None = None,
    further_steps: Sequence[float] = (),
) -> RigidReferences:
    """:func:`rigid_references` of one contact, its laws solved by ``law`` (``forces``: the force-acceleration
    solutions, if already known; ``further_steps``: time steps to solve ahead)."""
    if forces is None:
        forces = force_acceleration(state, law=law)
    impulses = impulse_velocity(state, law=law) if options.get("impulse_velocity", True) else None
    if impulses is None:
        impulse, rule = None, "impulse-velocity reference switched off"
    else:
        impulse, rule = select_impulse(impulses, forces)
    mode = None
    if impulse is not None:  # Λ = 0 is returned as exact zeros, any other Λ is a solution's own reaction
        mode = "opening" if not np.any(impulse) else next(s.mode for s in impulses or () if s.reaction is impulse)
    steps = {float(dt): time_stepping(state, float(dt), law=law) for dt in options.get("time_stepping_dt", [])}
    ahead = {float(dt): time_stepping(state, float(dt), law=law) for dt in further_steps if float(dt) not in steps}
    return RigidReferences(
        force_acceleration=forces,
        impulse_velocity=impulses,
        time_stepping=steps,
        impulse=impulse,
        impulse_rule=rule,
        state=state,
        impulse_mode=mode,
        further_steps=ahead,
    )


def _multi_contact_references(system: Any, options: dict[str, Any]) -> MultiContactReferences:
    state = system if isinstance(system, MultiContactState) else MultiContactState.from_system(system)
    not_applicable: dict[str, str] = {}
    try:
        forces = multi_contact_force_acceleration(state)
    except ValueError as error:  # an impact (or a penetrating start): no force-acceleration problem
        forces, not_applicable["force_acceleration"] = None, str(error)
    impulses, impulse, mode = None, None, None
    if not options.get("impulse_velocity", True):
        rule = "impulse-velocity reference switched off"
    else:
        try:
            impulses = multi_contact_impulse_velocity(state)
        except ValueError as error:  # a penetrating start
            not_applicable["impulse_velocity"] = str(error)
            rule = f"impulse-velocity problem not applicable ({error}): none chosen"
        else:
            impulse, rule = select_multi_contact_impulse(impulses, forces)
            if impulse is not None:  # as for one contact: Λ = 0 as exact zeros, else a solution's own reactions
                free = ("F",) * state.num_contacts
                mode = free if not np.any(impulse) else next(s.modes for s in impulses if s.reactions is impulse)
    steps = {}
    for dt in options.get("time_stepping_dt", []):
        steps[float(dt)] = multi_contact_time_stepping(state, float(dt))
    return MultiContactReferences(
        state=state,
        force_acceleration=forces,
        impulse_velocity=impulses,
        time_stepping=steps,
        impulse=impulse,
        impulse_rule=rule,
        impulse_mode=mode,
        not_applicable=not_applicable,
    )
