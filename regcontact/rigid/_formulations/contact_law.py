"""Every solution of the planar Signorini–Coulomb law on a set of contacts, labelled: what the three rigid
formulations share.

The formulations differ only in what ``u = G λ + b`` is (contact acceleration, velocity after an impulse,
velocity at the end of a step) and on which contacts the law acts; :func:`law_solutions` solves the law on the
``active`` contacts (the others carry nothing, ``"F"``) through its LCP
(:mod:`regcontact.rigid.lcp._multi_contact_friction`) and labels every solution
(:func:`~regcontact.rigid._formulations.solutions.contact_labels`).

The LCP solver is a parameter (:data:`LawSolver`): a study asks for the laws of many states at once, and
:class:`LawTable` collects them on a first pass, solves the one-contact ones in one batched enumeration
(:func:`~regcontact.rigid.lcp.friction_solutions_batch`, equal to the one-at-a-time search bit for
bit) and answers the second pass from the table.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from regcontact.rigid._formulations.solutions import ContactLabel, ContactSolution, ContactSolutions, contact_labels
from regcontact.rigid._state import IndexSets
from regcontact.rigid.lcp._friction_batch import friction_solutions_batch
from regcontact.rigid.lcp._multi_contact_friction import (
    MultiContactFrictionLCP,
    MultiContactFrictionSolutions,
    multi_contact_friction_lcp,
    multi_contact_friction_solutions,
)

__all__ = ["LabelledSolutions", "LawSolver", "LawTable", "formulation_solutions", "law_solutions"]

#: What solves a law's LCP: :func:`~regcontact.rigid.lcp.multi_contact_friction_solutions` or an equal stand-in.
LawSolver = Callable[[MultiContactFrictionLCP], MultiContactFrictionSolutions]
#: Every ``(reactions (k, 2), modes)`` of the law, and the bounding boxes ``(2, k, 2)`` of continua of reactions.
#: The generalised velocity after, or acceleration under, reactions ``(k, 2)``.
Outcome = Callable[[NDArray[np.float64]], NDArray[np.float64]]
LabelledSolutions = tuple[list[tuple[NDArray[np.float64], tuple[ContactLabel, ...]]], tuple[NDArray[np.float64], ...]]


def law_solutions(
    G: NDArray[np.float64],
    b: NDArray[np.float64],
    mu: NDArray[np.float64],
    active: list[int],
    slip_direction: list[int],
    tol: float,
    solve: LawSolver = multi_contact_friction_solutions,
) -> LabelledSolutions:
    """Solve the law for ``u = G λ + b`` on the ``active`` contacts (others: no reaction, ``"F"``) and label every
    solution. A contact with ``slip_direction`` ±1 slides on (force-acceleration, Leine & Brogliato Eq. 2.9): its
    friction is folded in at the cone's edge and it keeps its direction."""
    k = mu.shape[0]
    if not active:
        return [(np.zeros((k, 2)), ("F",) * k)], ()
    rows = np.ravel([[2 * i, 2 * i + 1] for i in active])
    G_active, b_active = G[np.ix_(rows, rows)], b[rows]
    problem = multi_contact_friction_lcp(G_active, b_active, mu[active], slip_direction)
    found = solve(problem)
    labelled = []
    for reactions in found.reactions:
        labels = contact_labels(reactions, problem.contact_rate(reactions), slip_direction, G_active, b_active, tol)
        modes: list[ContactLabel] = ["F"] * k
        full = np.zeros((k, 2))
        for position, i in enumerate(active):
            modes[i] = labels[position]
        full[active] = reactions
        labelled.append((full, tuple(modes)))
    continua = []
    for box in found.continua:
        full_box = np.zeros((2, k, 2))
        full_box[:, active] = box
        continua.append(full_box)
    return labelled, tuple(continua)


def formulation_solutions(
    formulation: str,
    index_sets: IndexSets,
    G: NDArray[np.float64],
    b: NDArray[np.float64],
    mu: NDArray[np.float64],
    active: list[int],
    slip_direction: list[int],
    tol: float,
    law: LawSolver,
    velocity: Outcome | None = None,
    acceleration: Outcome | None = None,
) -> ContactSolutions:
    """:func:`law_solutions` as a formulation's :class:`ContactSolutions`: each solution with its contact rates
    ``u = G λ + b`` ``(k, 2)`` and the generalised ``velocity`` after it or ``acceleration`` it causes (functions
    of the reactions)."""
    found, continua = law_solutions(G, b, mu, active, slip_direction, tol, law)
    solutions = tuple(
        ContactSolution(
            reactions=reactions,
            modes=modes,
            contact_rates=(G @ reactions.reshape(-1) + b).reshape(-1, 2),
            velocity=None if velocity is None else velocity(reactions),
            acceleration=None if acceleration is None else acceleration(reactions),
        )
        for reactions, modes in found
    )
    return ContactSolutions(formulation, solutions, index_sets, continua)


class LawTable:
    """The contact laws of many states: recorded on a first pass (:meth:`record`, answering "no solutions"),
    solved together (:meth:`solve`), then answered from the table (a law not recorded is solved on the spot)."""

    def __init__(self) -> None:
        self.recorded: dict[tuple[bytes, ...], MultiContactFrictionLCP] = {}
        self.answers: dict[tuple[bytes, ...], MultiContactFrictionSolutions] = {}

    @staticmethod
    def _key(problem: MultiContactFrictionLCP) -> tuple[bytes, ...]:
        return tuple(
            np.asarray(a).tobytes() for a in (problem.delassus, problem.free, problem.mu, problem.slip_direction)
        )

    def record(self, problem: MultiContactFrictionLCP) -> MultiContactFrictionSolutions:
        """Note the law; answer "no solutions" (the first pass only collects)."""
        self.recorded[self._key(problem)] = problem
        return MultiContactFrictionSolutions(reactions=np.zeros((0, problem.num_contacts, 2)), continua=())

    def solve(self) -> None:
        """Solve the recorded laws: one-contact full laws in one batch, the others one at a time when asked."""
        keys = [key for key, p in self.recorded.items() if p.num_contacts == 1 and not p.slip_direction.any()]
        if not keys:
            return
        problems = [self.recorded[key] for key in keys]
        found = friction_solutions_batch(
            np.array([p.delassus for p in problems]),
            np.array([p.free for p in problems]),
            np.array([p.mu[0] for p in problems]),
        )
        for key, problem, one in zip(keys, problems, found):
            if one is None:  # a degenerate law: the exact search
                self.answers[key] = multi_contact_friction_solutions(problem)
            else:
                self.answers[key] = MultiContactFrictionSolutions(
                    reactions=one.reactions.reshape(-1, 1, 2),
                    continua=tuple(box.reshape(2, 1, 2) for box in one.continua),
                )

    def __call__(self, problem: MultiContactFrictionLCP) -> MultiContactFrictionSolutions:
        found = self.answers.get(self._key(problem))
        return multi_contact_friction_solutions(problem) if found is None else found
