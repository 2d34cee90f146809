"""All reactions satisfying the planar Signorini–Coulomb law for a contact quantity ``u = W λ + b``.

The three rigid formulations differ only in what ``u``, ``W`` and ``b`` are (contact acceleration, velocity
after an impulse, velocity at the end of a step); the law (Eqs. 7–9, 14–15, 19) and its solution are shared.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact.rigid.lcp import FrictionLCP, FrictionSolutions, friction_lcp, friction_solutions
from regcontact.rigid.lcp.friction_batch import friction_solutions_batch
from regcontact.rigid.solutions import ContactMode, contact_mode

__all__ = ["LawSolutions", "LawSolver", "contact_law_solutions", "contact_law_solutions_batch"]

#: Every ``(reaction, u, mode)`` of the law and the bounding boxes of continua of reactions.
LawSolutions = tuple[
    list[tuple[NDArray[np.float64], NDArray[np.float64], ContactMode]], tuple[NDArray[np.float64], ...]
]
#: What solves the law for ``(W, b, μ, tol)``: :func:`contact_law_solutions` or an equal stand-in.
LawSolver = Callable[[NDArray[np.float64], NDArray[np.float64], float, float], LawSolutions]


def contact_law_solutions(delassus: ArrayLike, free: ArrayLike, mu: float, tol: float = 1e-9) -> LawSolutions:
    """Every ``(reaction, u, mode)`` of the law, and the bounding boxes of continua of reactions (if any)."""
    problem = friction_lcp(delassus, free, mu)
    return with_modes(problem, friction_solutions(problem), tol)


def contact_law_solutions_batch(
    delassus: NDArray[np.float64], free: NDArray[np.float64], mu: NDArray[np.float64], tol: float = 1e-9
) -> list[LawSolutions]:
    """:func:`contact_law_solutions` for each of ``N`` laws (``(N, 2, 2)``, ``(N, 2)``, ``(N,)``), equal to it bit
    for bit: the clear-cut ones by the batched enumeration
    (:func:`~regcontact.rigid.lcp.friction_batch.friction_solutions_batch`), the others one at a time."""
    found = friction_solutions_batch(delassus, free, mu)
    return [
        contact_law_solutions(W, b, float(m), tol)
        if one is None
        else with_modes(friction_lcp(W, b, float(m)), one, tol)
        for W, b, m, one in zip(delassus, free, mu, found)
    ]


def with_modes(problem: FrictionLCP, found: FrictionSolutions, tol: float = 1e-9) -> LawSolutions:
    """The reactions ``found`` for ``problem``, each with its ``u`` and mode, and the continua."""
    W, b = problem.delassus, problem.free
    norm_W = np.abs(W).sum(axis=1).max()
    solutions = []
    for reaction in found.reactions:
        u = problem.contact_rate(reaction)
        reaction_scale = max(np.abs(reaction).max(), np.abs(b).max() / norm_W)
        slip_scale = norm_W * np.abs(reaction).max() + np.abs(b).max()
        mode = contact_mode(reaction[0], u[1], reaction_scale, slip_scale, tol)
        solutions.append((reaction, u, mode))
    return solutions, found.continua
