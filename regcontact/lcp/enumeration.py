"""Every solution of a small LCP, by exhaustive search over complementary index sets.

For an index set ``S`` (the components of ``z`` allowed to be positive; ``w_S = 0``, ``z_N = 0`` on the
complement ``N``) the solutions with that pattern form the polyhedron

    P_S = { z : z_N = 0,  M_SS z_S + q_S = 0,  z_S ≥ 0,  w_N = M_NS z_S + q_N ≥ 0 }.

Every solution lies in ``P_S`` for ``S`` its support, so the union over all ``2ⁿ`` sets is the whole solution
set. When ``M_SS`` is nonsingular ``P_S`` is at most one point. When it is singular ``P_S`` lies in an affine
space of the null-space dimension; small linear programs decide whether it is empty, a single (still isolated)
point, or a *continuum* of solutions, as in ``z₁ + z₂ = 1`` for ``M = [[1, 1], [1, 1]]``, ``q = (−1, −1)``.

The search costs ``2ⁿ`` small solves, so it is meant for the small problems of contact mechanics (a few
unknowns per contact); :func:`all_solutions` refuses sizes above ``max_size``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import linprog

from regcontact.lcp.complementarity import lcp_residual

__all__ = ["LCPSolutions", "SolutionContinuum", "all_solutions"]


@dataclass(frozen=True)
class SolutionContinuum:
    """A polyhedron ``P_S`` with more than one point: every point of it solves the LCP.

    The points are ``z = particular + directionsᵀ t`` for ``t`` with ``constraints @ t ≤ bounds`` (the signs
    of ``z_S`` and ``w_N``, divided by the data scale). ``support`` is the index set ``S``; ``directions``
    (orthonormal rows) span the null space of ``M_SS`` lifted to ``ℝⁿ``; ``extremes`` holds the points that
    minimise and maximise each coordinate of ``t`` (for a segment: its two ends; finite ones only);
    ``bounded`` says whether ``P_S`` is bounded.
    """

    support: tuple[int, ...]
    particular: NDArray[np.float64]
    directions: NDArray[np.float64]
    constraints: NDArray[np.float64]
    bounds: NDArray[np.float64]
    extremes: NDArray[np.float64]
    bounded: bool

    def range(self, functional: ArrayLike) -> tuple[float, float]:
        """Smallest and largest value of ``functional · z`` over the continuum (``±inf`` when unbounded)."""
        c = self.directions @ np.asarray(functional, dtype=float)
        ends = []
        for sign in (1.0, -1.0):
            t = _optimise(sign * c, self.constraints, self.bounds)
            ends.append(-sign * np.inf if t is None else float(np.dot(functional, self.point(t))))
        return ends[0], ends[1]

    def point(self, t: ArrayLike) -> NDArray[np.float64]:
        """The solution with null-space coordinates ``t``."""
        return self.particular + self.directions.T @ np.asarray(t, dtype=float)


@dataclass(frozen=True)
class LCPSolutions:
    """All solutions of an LCP found by :func:`all_solutions`.

    ``solutions`` (one row each, distinct) holds every point obtained as a single-point ``P_S``: all isolated
    solutions, and also those vertices of continua that a nonsingular index set reaches. ``continua`` lists the
    index sets whose solutions form a continuum; ``isolated`` is true when there are none.
    """

    solutions: NDArray[np.float64]
    continua: tuple[SolutionContinuum, ...]

    @property
    def isolated(self) -> bool:
        return not self.continua

    def __len__(self) -> int:
        return self.solutions.shape[0]


def all_solutions(M: ArrayLike, q: ArrayLike, tol: float = 1e-10, max_size: int = 16) -> LCPSolutions:
    """Every solution of LCP(M, q) (``w = M z + q ≥ 0``, ``z ≥ 0``, ``zᵀ w = 0``).

    Args:
        M: ``(n, n)`` matrix.
        q: ``(n,)`` vector.
        tol: relative tolerance: feasibility and complementarity (as in
            :func:`~regcontact.lcp.complementarity.lcp_residual`) and the singular values of ``M_SS``
            below ``tol ‖M‖₂``, which count as zero.
        max_size: largest ``n`` accepted (the search visits ``2ⁿ`` index sets).
    """
    M = np.atleast_2d(np.asarray(M, dtype=float))
    q = np.atleast_1d(np.asarray(q, dtype=float))
    n = q.shape[0]
    if M.shape != (n, n):
        raise ValueError(f"M has shape {M.shape}, expected ({n}, {n}) to match q")
    if n > max_size:
        raise ValueError(
            f"all_solutions searches 2^n complementary index sets; n = {n} exceeds max_size = {max_size}"
        )
    norm_M = np.linalg.norm(M, 2) if n else 0.0
    points: list[NDArray[np.float64]] = []
    continua: list[SolutionContinuum] = []
    for mask in range(2**n):
        support = np.array([i for i in range(n) if mask >> i & 1], dtype=int)
        point, continuum = _solutions_with_support(M, q, support, norm_M, tol)
        if point is not None and not any(_same_point(point, other, tol) for other in points):
            points.append(point)
        if continuum is not None:
            continua.append(continuum)
    solutions = np.array(points).reshape(len(points), n)
    return LCPSolutions(solutions=solutions, continua=tuple(continua))


def _solutions_with_support(
    M: NDArray[np.float64], q: NDArray[np.float64], support: NDArray[np.int_], norm_M: float, tol: float
) -> tuple[NDArray[np.float64] | None, SolutionContinuum | None]:
    """``P_S`` as (its single point or None, the continuum or None)."""
    n = q.shape[0]
    if support.size == 0:
        return _accept(M, q, np.zeros(n), tol), None
    block = M[np.ix_(support, support)]
    U, sigma, Vt = np.linalg.svd(block)
    rank = int(np.sum(sigma > tol * norm_M))
    rhs = -q[support]
    z = np.zeros(n)
    if rank == support.size:
        z[support] = np.linalg.solve(block, rhs)
        return _accept(M, q, z, tol), None
    z_support = Vt[:rank].T @ ((U[:, :rank].T @ rhs) / sigma[:rank])
    z[support] = z_support
    residual = block @ z_support - rhs
    if np.abs(residual).max() > tol * max(np.abs(q).max(), norm_M * np.abs(z).max(), 1e-300):
        return None, None  # q_S outside the range of M_SS: no solution with this pattern
    return _singular_polyhedron(M, q, support, z, Vt[rank:], tol)


def _singular_polyhedron(
    M: NDArray[np.float64],
    q: NDArray[np.float64],
    support: NDArray[np.int_],
    particular: NDArray[np.float64],
    null_rows: NDArray[np.float64],
    tol: float,
) -> tuple[NDArray[np.float64] | None, SolutionContinuum | None]:
    """Analyse ``P_S = {particular + Dᵀ t ≥ 0, M (particular + Dᵀ t) + q ≥ 0 off the support}`` by LPs.

    Constraints are divided by the data scale so that the LP solver's own (absolute) feasibility tolerance
    acts relative to the problem. LP vertices are recomputed from their active constraints, so reported
    points are accurate to round-off. ``P_S`` counts as a continuum when it extends over more than ``1e-6``
    of the size of its points in some null direction.
    """
    n = q.shape[0]
    off = np.setdiff1d(np.arange(n), support)
    directions = np.zeros((null_rows.shape[0], n))
    directions[:, support] = null_rows
    A = np.vstack([-null_rows.T, -(M[np.ix_(off, support)] @ null_rows.T)])
    b = np.concatenate([particular[support], M[off] @ particular + q[off]])
    scale = max(np.abs(q).max(), np.abs(M).sum(axis=1).max() * np.abs(particular).max(), 1e-300)
    A, b = A / scale, b / scale
    r = null_rows.shape[0]
    if _optimise(np.zeros(r), A, b) is None:
        return None, None
    ts, bounded = [], True
    for k in range(r):
        for sign in (1.0, -1.0):
            t = _optimise(sign * np.eye(r)[k], A, b)
            if t is None:
                bounded = False
            else:
                ts.append(t)
    extremes = np.array([particular + directions.T @ t for t in ts]).reshape(len(ts), n)
    size = max(np.abs(extremes).max(initial=0.0), scale / max(np.abs(M).max(), 1e-300))
    extent = np.ptp(np.array(ts), axis=0).max(initial=0.0) if ts else 0.0
    if bounded and extent <= 1e-6 * size:
        return _accept(M, q, extremes[0], tol), None
    continuum = SolutionContinuum(
        support=tuple(int(i) for i in support),
        particular=particular,
        directions=directions,
        constraints=A,
        bounds=b,
        extremes=extremes,
        bounded=bounded,
    )
    return None, continuum


def _optimise(c: NDArray[np.float64], A: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64] | None:
    """A minimiser of ``c · t`` over ``A t ≤ b``, polished on its active constraints; None if the LP is
    infeasible or unbounded (the callers know which from context)."""
    result = linprog(c, A_ub=A, b_ub=b, bounds=[(None, None)] * c.shape[0], method="highs")
    if result.status != 0:
        return None
    t = result.x
    active = A @ t >= b - 1e-7 * max(np.abs(b).max(initial=0.0), 1.0)
    if np.linalg.matrix_rank(A[active]) == c.shape[0]:
        t = np.linalg.lstsq(A[active], b[active])[0]  # the vertex, from its defining constraints
    return t


def _accept(M: NDArray[np.float64], q: NDArray[np.float64], z: NDArray[np.float64], tol: float) -> NDArray[np.float64] | None:
    """``z`` with round-off negatives clipped if it solves the LCP to ``tol``, else None."""
    scale = lcp_residual(M, q, z).scale
    if z.min(initial=0.0) < -tol * scale:
        return None
    z = np.maximum(z, 0.0)
    return z if lcp_residual(M, q, z).within(tol) else None


def _same_point(a: NDArray[np.float64], b: NDArray[np.float64], tol: float) -> bool:
    """Equal up to ``1e3 tol`` relative to their size (degenerate solutions come from several index sets)."""
    size = max(np.abs(a).max(initial=0.0), np.abs(b).max(initial=0.0))
    return bool(np.abs(a - b).max(initial=0.0) <= 1e3 * tol * size)
