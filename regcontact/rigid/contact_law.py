"""All reactions satisfying the planar Signorini–Coulomb law for a contact quantity ``u = W λ + b``.

The three rigid formulations differ only in what ``u``, ``W`` and ``b`` are (contact acceleration, velocity
after an impulse, velocity at the end of a step); the law (Eqs. 7–9, 14–15, 19) and its solution are shared.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact.rigid.lcp import friction_lcp, friction_solutions
from regcontact.rigid.solutions import ContactMode, contact_mode

__all__ = ["contact_law_solutions"]


def contact_law_solutions(
    delassus: ArrayLike, free: ArrayLike, mu: float, tol: float = 1e-9
) -> tuple[list[tuple[NDArray[np.float64], NDArray[np.float64], ContactMode]], tuple[NDArray[np.float64], ...]]:
    """Every ``(reaction, u, mode)`` of the law, and the bounding boxes of continua of reactions (if any)."""
    problem = friction_lcp(delassus, free, mu)
    found = friction_solutions(problem)
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
