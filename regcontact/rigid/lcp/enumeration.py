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
from itertools import combinations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact.rigid.lcp.complementarity import clip_round_off, lcp_residual, solutions_coincide

__all__ = ["LCPSolutions", "SolutionContinuum", "all_solutions"]

# Relative round-off of the points computed here (256 ulps, ≈ 5.7e-14): a polyhedron thinner than about this,
# relative to its solutions' size, counts as one point (data computed in floating point do not fix such a width).
ROUND_OFF = 256 * float(np.finfo(float).eps)


@dataclass(frozen=True)
class SolutionContinuum:
    """A polyhedron ``P_S`` with more than one point: every point of it solves the LCP.

    Its points are ``z = particular + unit · directionsᵀ t`` for the ``t`` with ``constraints @ t ≤ bounds``
    (the signs of ``z_S`` and ``w_N``, each row scaled to unit size). ``support`` is the index set ``S``;
    ``directions`` (orthonormal rows) span the null space of ``M_SS`` lifted to ``ℝⁿ``; ``unit`` is the typical
    size of a solution; ``extremes`` holds the points that minimise and maximise each coordinate of ``t`` (for
    a segment: its two ends; finite ones only); ``bounded`` says whether ``P_S`` is bounded.
    """

    support: tuple[int, ...]
    particular: NDArray[np.float64]
    directions: NDArray[np.float64]
    unit: float
    constraints: NDArray[np.float64]
    bounds: NDArray[np.float64]
    extremes: NDArray[np.float64]
    bounded: bool

    def point(self, t: ArrayLike) -> NDArray[np.float64]:
        """The solution with null-space coordinates ``t``."""
        return self.particular + self.unit * (self.directions.T @ np.asarray(t, dtype=float))

    def range(self, functional: ArrayLike, tol: float = 1e-10) -> tuple[float, float]:
        """Smallest and largest value of ``functional · z`` over the continuum (``±inf`` when unbounded)."""
        functional = np.asarray(functional, dtype=float)
        c = self.directions @ functional
        ends = []
        for sign in (1.0, -1.0):
            t = _optimise(sign * c, self.constraints, self.bounds, tol)
            ends.append(-sign * np.inf if t is None else float(functional @ self.point(t)))
        return ends[0], ends[1]

    def contains(self, z: ArrayLike, tol: float = 1e-8) -> bool:
        """Whether ``z`` lies in the continuum, up to ``tol`` relative to the size of ``z`` or ``unit``."""
        z = np.asarray(z, dtype=float)
        t = self.directions @ (z - self.particular) / self.unit
        size = max(np.abs(z).max(initial=0.0), np.abs(self.particular).max(initial=0.0), self.unit)
        in_span = np.abs(self.point(t) - z).max(initial=0.0) <= tol * size
        return bool(in_span and np.all(self.constraints @ t <= self.bounds + tol))


@dataclass(frozen=True)
class LCPSolutions:
    """All solutions of an LCP found by :func:`all_solutions`.

    ``solutions`` (one row each, distinct) holds every point obtained as a single-point ``P_S``: all isolated
    solutions, and also those vertices of continua that a nonsingular index set reaches. ``continua`` lists the
    index sets whose solutions form a continuum; ``isolated`` is true when there are none. ``scale``
    (``‖q‖∞ / ‖M‖₂``) is the typical size of a solution, against which points count as equal.
    """

    solutions: NDArray[np.float64]
    continua: tuple[SolutionContinuum, ...]
    scale: float

    @property
    def isolated(self) -> bool:
        return not self.continua

    def __len__(self) -> int:
        return self.solutions.shape[0]

    def contains(self, z: ArrayLike, tol: float = 1e-8) -> bool:
        """Whether ``z`` is one of the solutions or lies in a continuum, up to ``tol`` relative to the size of
        the points compared or to ``scale``, whichever is larger."""
        listed = any(solutions_coincide(z, point, tol, self.scale) for point in self.solutions)
        return listed or any(continuum.contains(z, tol) for continuum in self.continua)


def all_solutions(M: ArrayLike, q: ArrayLike, tol: float = 1e-12, max_size: int = 16) -> LCPSolutions:
    """Every solution of LCP(M, q) (``w = M z + q ≥ 0``, ``z ≥ 0``, ``zᵀ w = 0``).

    Args:
        M: ``(n, n)`` matrix.
        q: ``(n,)`` vector.
        tol: relative tolerance: feasibility and complementarity (as in
            :func:`~regcontact.rigid.lcp.complementarity.lcp_residual`) and the singular values of ``M_SS``
            below ``tol ‖M‖₂``, which count as zero.
        max_size: largest ``n`` accepted (the search visits ``2ⁿ`` index sets).
    """
    M = np.atleast_2d(np.asarray(M, dtype=float))
    q = np.atleast_1d(np.asarray(q, dtype=float))
    n = q.shape[0]
    if M.shape != (n, n):
        raise ValueError(f"M has shape {M.shape}, expected ({n}, {n}) to match q")
    if n > max_size:
        raise ValueError(f"all_solutions searches 2^n complementary index sets; n = {n} exceeds max_size = {max_size}")
    norm_M = float(np.linalg.norm(M, 2)) if n else 0.0
    z_scale = np.abs(q).max(initial=0.0) / norm_M if norm_M > 0 else 0.0  # typical size of a solution
    points: list[NDArray[np.float64]] = []
    continua: list[SolutionContinuum] = []
    for mask in range(2**n):
        support = np.array([i for i in range(n) if mask >> i & 1], dtype=int)
        point, continuum = _solutions_with_support(M, q, support, norm_M, tol)
        if point is not None:
            _add_distinct(points, point, M, q, 1e2 * tol, z_scale)
        if continuum is not None:
            continua.append(continuum)
    solutions = np.array(points).reshape(len(points), n)
    return LCPSolutions(solutions=solutions, continua=tuple(continua), scale=z_scale)


def _solutions_with_support(
    M: NDArray[np.float64], q: NDArray[np.float64], support: NDArray[np.int_], norm_M: float, tol: float
) -> tuple[NDArray[np.float64] | None, SolutionContinuum | None]:
    """``P_S`` as (its single point or None, the continuum or None)."""
    n = q.shape[0]
    if support.size == 0:
        return _accept(M, q, np.zeros(n), tol), None
    block = M[np.ix_(support, support)]
    rhs = -q[support]
    z = np.zeros(n)
    U, sigma, Vt = np.linalg.svd(block)
    rank = int(np.sum(sigma > tol * norm_M))
    if rank == support.size:
        z[support] = np.linalg.solve(block, rhs)
        return _accept(M, q, z, tol), None
    # Singular at the data's precision (a direct solve would only amplify round-off into a huge z that still
    # passes a residual test relative to ‖M‖‖z‖): the solutions with this pattern lie in an affine space.
    z[support] = Vt[:rank].T @ ((U[:, :rank].T @ rhs) / sigma[:rank])
    residual = block @ z[support] - rhs
    if np.abs(residual).max() > tol * max(np.abs(q).max(), norm_M * np.abs(z).max()):
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
    """Analyse ``P_S = {z = particular + unit Dᵀ t : z_S ≥ 0, w_N ≥ 0}`` by small LPs in ``t``.

    ``t`` is measured in units of the typical solution size and every constraint row is scaled to unit size,
    so the LP solver's own (absolute) tolerances act relative to the problem. LP vertices are recomputed from
    their active constraints and verified as LCP solutions, so reported points are accurate to round-off.
    ``P_S`` counts as a continuum when its extreme points differ by more than :data:`ROUND_OFF` solution units:
    its extent, however thin, not a fixed fraction of the solutions' size.
    """
    n = q.shape[0]
    off = np.setdiff1d(np.arange(n), support)
    directions = np.zeros((null_rows.shape[0], n))
    directions[:, support] = null_rows
    norm_M = np.abs(M).sum(axis=1).max()
    norm_M = norm_M if norm_M > 0 else 1.0
    unit = max(np.abs(particular).max(), np.abs(q).max() / norm_M)
    unit = unit if unit > 0 else 1.0  # M z + q = 0 is homogeneous: its solutions form a cone, any unit will do
    # z_S = particular_S + unit Dᵀt ≥ 0  and  w_N = w_N(particular) + unit (M D)ᵀ t ≥ 0, as rows A t ≤ b.
    A = np.vstack([-unit * null_rows.T, -unit * (M[np.ix_(off, support)] @ null_rows.T)])
    b = np.concatenate([particular[support], M[off] @ particular + q[off]])
    row_scale = np.concatenate([np.full(support.size, unit), np.full(off.size, unit * norm_M)])
    A, b = A / row_scale[:, None], b / row_scale
    constant = np.abs(A).max(axis=1) <= tol  # sign conditions that do not depend on t
    if np.any(b[constant] < -tol):
        return None, None
    A, b = A[~constant], b[~constant]
    r = null_rows.shape[0]
    if _optimise(np.zeros(r), A, b, tol) is None:
        return None, None
    ts, extremes, bounded = [], [], True
    for k in range(r):
        for sign in (1.0, -1.0):
            t = _optimise(sign * np.eye(r)[k], A, b, tol)
            point = None if t is None else _accept(M, q, particular + unit * (directions.T @ t), tol)
            bounded = bounded and t is not None
            if point is not None:
                ts.append(t)
                extremes.append(point)
    if not ts:
        return None, None  # the LP's own tolerance let through a polyhedron with no verified point
    if bounded and np.ptp(np.array(ts), axis=0).max() <= ROUND_OFF * max(1.0, np.abs(np.array(ts)).max()):
        return extremes[0], None
    continuum = SolutionContinuum(
        support=tuple(int(i) for i in support),
        particular=particular,
        directions=directions,
        unit=unit,
        constraints=A,
        bounds=b,
        extremes=np.array(extremes),
        bounded=bounded,
    )
    return None, continuum


def _optimise(
    c: NDArray[np.float64], A: NDArray[np.float64], b: NDArray[np.float64], tol: float
) -> NDArray[np.float64] | None:
    """A minimiser of ``c · t`` over ``A t ≤ b`` (rows of unit size), polished on its active constraints;
    None if the LP is infeasible or unbounded (the callers know which from context).

    HiGHS finds the optimum to its feasibility tolerance (``1e-10``), so the constraints within ``1e-7`` of its
    point are the candidates for the active set. When they meet in one point (to :data:`ROUND_OFF`) that point is
    the vertex. When they do not, the polyhedron is thinner than ``1e-7`` there and some candidates are the
    opposite faces; the vertex is then the best one of the candidates' vertices that satisfies every constraint
    to round-off, so a thin polyhedron keeps its width down to round-off instead of collapsing to a midpoint.
    Where no such vertex exists (faces crossing by more than round-off) the least-squares point is kept.
    """
    from scipy.optimize import linprog  # imported here: importing the package need not wait for SciPy

    options = {"primal_feasibility_tolerance": max(tol, 1e-10), "dual_feasibility_tolerance": max(tol, 1e-10)}
    bounds = [(None, None)] * c.shape[0]
    result = linprog(c, A_ub=A, b_ub=b, bounds=bounds, method="highs", options=options)
    if result.status != 0:
        return None
    t: NDArray[np.float64] = result.x
    near = A @ t >= b - 1e-7
    if np.linalg.matrix_rank(A[near]) == c.shape[0]:
        t = np.asarray(np.linalg.lstsq(A[near], b[near])[0], dtype=np.float64)  # the vertex, from its constraints
        if not np.all(_satisfied(A[near], b[near], t, equal=True)):
            vertex = _best_vertex(c, A, b, np.flatnonzero(near))
            # None: the faces cross, the polyhedron is empty to round-off; the least-squares point stays, for
            # the LCP's own tolerance to judge (it is at most one point, never a continuum).
            t = t if vertex is None else vertex
    return t


def _satisfied(
    A: NDArray[np.float64], b: NDArray[np.float64], t: NDArray[np.float64], equal: bool = False
) -> NDArray[np.bool_]:
    """Which rows of ``A t ≤ b`` (or ``A t = b``) hold up to :data:`ROUND_OFF` relative to the row's terms."""
    slack = b - A @ t
    slack = np.abs(slack) if equal else -slack
    return slack <= ROUND_OFF * (np.abs(A) @ np.abs(t) + np.abs(b))


def _best_vertex(
    c: NDArray[np.float64], A: NDArray[np.float64], b: NDArray[np.float64], rows: NDArray[np.int_]
) -> NDArray[np.float64] | None:
    """The vertex minimising ``c · t`` among those defined by ``r`` of ``rows`` and satisfying every row of
    ``A t ≤ b`` to round-off (the first such one on a tie); None if there is none."""
    r = c.shape[0]
    subsets = np.array(list(combinations(rows.tolist(), r)), dtype=int).reshape(-1, r)
    blocks = A[subsets]
    sigma = np.linalg.svd(blocks, compute_uv=False)
    regular = sigma[:, -1] > ROUND_OFF * sigma[:, 0]
    if not regular.any():
        return None
    vertices = np.linalg.solve(blocks[regular], b[subsets[regular]][..., None])[..., 0]
    feasible = [v for v in vertices if np.all(_satisfied(A, b, v))]
    if not feasible:
        return None
    values = [float(c @ v) for v in feasible]
    return feasible[int(np.argmin(values))]


def _add_distinct(
    points: list[NDArray[np.float64]],
    point: NDArray[np.float64],
    M: NDArray[np.float64],
    q: NDArray[np.float64],
    tol: float,
    scale: float,
) -> None:
    """Append ``point`` unless it coincides with a listed one; of two coinciding points keep the more accurate
    (smaller natural residual), so a degenerate solution is reported at its best round-off."""
    for index, other in enumerate(points):
        if solutions_coincide(point, other, tol, scale):
            if lcp_residual(M, q, point).natural < lcp_residual(M, q, other).natural:
                points[index] = point
            return
    points.append(point)


def _accept(
    M: NDArray[np.float64], q: NDArray[np.float64], z: NDArray[np.float64], tol: float
) -> NDArray[np.float64] | None:
    """``z`` with round-off negatives clipped if it solves the LCP to ``tol``, else None."""
    z = clip_round_off(M, q, z, tol)
    return z if lcp_residual(M, q, z).within(tol) else None
