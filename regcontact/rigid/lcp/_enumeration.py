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

*What counts as zero.* By default every decision (a singular block, a violated sign, a round-off negative ``z``)
is relative to one scale for the whole problem, ``‖M‖`` and ``‖q‖``: right for data of one unit. A problem whose
rows and columns carry different units, or whose entries are exact structural numbers beside computed ones,
says so with :class:`DataScales`, the size of the round-off each entry of ``M`` and ``q`` can carry. Each index
set's block is then judged in its own units: its columns (the unknowns) and rows are scaled by powers of two
so that the largest uncertainty in each is one, the block is singular when its smallest singular value is
within ``tol`` of that uncertainty, and a point is accepted row by row: ``w_i`` may violate its sign by
``tol`` times its own uncertainty, ``Σ_j E_ij |z_j| + Q_i``, plus what the point's own round-off moves it
(``Σ_j |M_ij| δz_j``, :func:`solve_accuracy`). The friction cone's row ``μ λ_n − λ⁺ − λ⁻``
is the case in point: exact numbers, μ anywhere in ``[0, 1e300]``, next to rate rows of order one
(:mod:`regcontact.rigid.lcp._friction`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact.rigid.lcp._complementarity import clip_round_off, lcp_residual, solutions_coincide

__all__ = ["DataScales", "LCPSolutions", "SolutionContinuum", "all_solutions"]

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
    #: The units ``z`` was measured in when the continuum was found (powers of two, one per component; ones for
    #: the default :func:`all_solutions`): ``directions / scale`` are orthonormal rows.
    scale: NDArray[np.float64] | None = field(default=None, compare=False)
    #: The round-off of each of ``extremes`` (same shape), where known (with :class:`DataScales`).
    accuracy: NDArray[np.float64] | None = field(default=None, compare=False)

    def point(self, t: ArrayLike) -> NDArray[np.float64]:
        """The solution with null-space coordinates ``t``."""
        return self.particular + self.unit * (self.directions.T @ np.asarray(t, dtype=float))

    def range(self, functional: ArrayLike, tol: float = 1e-10) -> tuple[float, float]:
        """Smallest and largest value of ``functional · z`` over the continuum (``±inf`` when unbounded)."""
        functional = np.asarray(functional, dtype=float)
        c = self.directions @ functional
        c = c * powers_of_two(np.abs(c).max(initial=0.0))  # the LP sees a cost of order one in any units
        ends = []
        for sign in (1.0, -1.0):
            t = _optimise(sign * c, self.constraints, self.bounds, tol)
            ends.append(-sign * np.inf if t is None else float(functional @ self.point(t)))
        return ends[0], ends[1]

    def contains(self, z: ArrayLike, tol: float = 1e-8) -> bool:
        """Whether ``z`` lies in the continuum, up to ``tol`` relative to the size of ``z`` or ``unit``."""
        z = np.asarray(z, dtype=float)
        scale = np.ones_like(z) if self.scale is None else self.scale
        t = (self.directions / scale) @ ((z - self.particular) / scale) / self.unit
        size = max(np.abs(z).max(initial=0.0), np.abs(self.particular).max(initial=0.0), self.unit)
        in_span = np.abs(self.point(t) - z).max(initial=0.0) <= tol * size
        return bool(in_span and np.all(self.constraints @ t <= self.bounds + tol))


@dataclass(frozen=True)
class DataScales:
    """How much round-off each entry of an LCP's data can carry: the computed ``M_ij`` and ``q_i`` stand for any
    values within ``tol · entries_ij`` and ``tol · constants_i`` of them (absolute, non-negative).

    ``entries_ij = |M_ij|`` says an entry is an exact number known to relative ``tol`` (a structural ``1`` or a
    friction coefficient); one value ``s`` for a whole row says its entries are computed from numbers of size
    ``s`` and carry errors of that size (a row of a Delassus matrix). A zero scale makes the entry exact.
    """

    entries: NDArray[np.float64]
    constants: NDArray[np.float64]

    def __post_init__(self) -> None:
        entries = np.asarray(self.entries, dtype=float)
        constants = np.asarray(self.constants, dtype=float)
        n = constants.shape[0] if constants.ndim == 1 else -1
        if entries.shape != (n, n) or not (np.all(entries >= 0) and np.all(constants >= 0)):
            raise ValueError(
                f"DataScales: expected non-negative entries (n, n) and constants (n,), got {entries.shape}, "
                f"{constants.shape}"
            )
        object.__setattr__(self, "entries", entries)
        object.__setattr__(self, "constants", constants)

    def solution_scale(self) -> float:
        """The typical size of a solution, ``max_i Q_i / max_j E_ij`` over the rows with uncertain entries: the
        floor against which two points count as equal."""
        row = self.entries.max(axis=1, initial=0.0)
        ratios = self.constants[row > 0] / row[row > 0]
        return float(ratios.max(initial=0.0))


@dataclass(frozen=True)
class LCPSolutions:
    """All solutions of an LCP found by :func:`all_solutions`.

    ``solutions`` (one row each, distinct) holds every point obtained as a single-point ``P_S``: all isolated
    solutions, and also those vertices of continua that a nonsingular index set reaches. ``continua`` lists the
    index sets whose solutions form a continuum; ``isolated`` is true when there are none. ``scale``
    (``‖q‖∞ / ‖M‖₂``, or :meth:`DataScales.solution_scale`) is the typical size of a solution, against which
    points count as equal.
    """

    solutions: NDArray[np.float64]
    continua: tuple[SolutionContinuum, ...]
    scale: float
    #: The round-off of each solution's components (same shape as ``solutions``), where the search knows it
    #: (with :class:`DataScales`); zeros otherwise.
    accuracy: NDArray[np.float64] | None = field(default=None, compare=False)

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


def all_solutions(
    M: ArrayLike,
    q: ArrayLike,
    tol: float = 1e-12,
    max_size: int = 16,
    scales: DataScales | None = None,
    apart: Sequence[tuple[int, int]] = (),
) -> LCPSolutions:
    """Every solution of LCP(M, q) (``w = M z + q ≥ 0``, ``z ≥ 0``, ``zᵀ w = 0``).

    Args:
        M: ``(n, n)`` matrix.
        q: ``(n,)`` vector.
        tol: relative tolerance: feasibility and complementarity (as in
            :func:`~regcontact.rigid.lcp.lcp_residual`) and the singular values of ``M_SS``
            below ``tol ‖M‖₂``, which count as zero.
        max_size: largest ``n`` accepted (the search visits ``2ⁿ`` index sets).
        scales: the round-off each entry of ``M`` and ``q`` carries (:class:`DataScales`); given, every test is
            made in each index set's own units, row by row (module docstring), instead of against ``‖M‖``.
        apart: pairs of unknowns never searched together in a support, for problems whose every solution with both
            positive repeats one with either zero: the two friction parts ``λ⁺, λ⁻`` of one contact (subtracting
            ``min(λ⁺, λ⁻)`` from both keeps the reaction and the solution; the split, up to ``μ λ_n``, only adds
            round-off). The solution set is then listed by representatives.
    """
    M = np.atleast_2d(np.asarray(M, dtype=float))
    q = np.atleast_1d(np.asarray(q, dtype=float))
    n = q.shape[0]
    if M.shape != (n, n):
        raise ValueError(f"M has shape {M.shape}, expected ({n}, {n}) to match q")
    if n > max_size:
        raise ValueError(f"all_solutions searches 2^n complementary index sets; n = {n} exceeds max_size = {max_size}")
    # subnormal numbers carry no relative precision (and overflow where the search divides by them): zero
    M, q = _flushed(M), _flushed(q)
    if scales is not None:
        scales = DataScales(_flushed(scales.entries), _flushed(scales.constants))
    masks = _masks(n, apart)
    if scales is not None:
        return _all_solutions_in_own_units(M, q, tol, scales, masks)
    norm_M = float(np.linalg.norm(M, 2)) if n else 0.0
    z_scale = np.abs(q).max(initial=0.0) / norm_M if norm_M > 0 else 0.0  # typical size of a solution
    points: list[NDArray[np.float64]] = []
    continua: list[SolutionContinuum] = []
    for mask in masks:
        support = np.array([i for i in range(n) if mask >> i & 1], dtype=int)
        point, continuum = _solutions_with_support(M, q, support, norm_M, tol)
        if point is not None:
            _add_distinct(points, point, M, q, 1e2 * tol, z_scale)
        if continuum is not None:
            continua.append(continuum)
    solutions = np.array(points).reshape(len(points), n)
    return LCPSolutions(solutions=solutions, continua=tuple(continua), scale=z_scale)


def _flushed(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """``x`` with its subnormal entries (below the smallest normal float) set to zero."""
    return np.where(np.abs(x) < np.finfo(float).tiny, 0.0, x)


def _masks(n: int, apart: Sequence[tuple[int, int]]) -> list[int]:
    """The supports searched, as bit masks in increasing order: all ``2ⁿ`` but those holding a pair of ``apart``."""
    pairs = [(1 << i) | (1 << j) for i, j in apart]
    return [mask for mask in range(2**n) if not any(mask & pair == pair for pair in pairs)]


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
    reach = np.abs(b).max(initial=0.0)
    if result.status == 3 and reach >= _LP_INFINITY:
        # HiGHS reads bounds beyond 1e20 as none: a polyhedron that reaches that far (the split λ⁺ + λ⁻ ≤ μ λ_n
        # of a friction coefficient 1e30) looks unbounded. In t measured in units of its reach it is not.
        unit = float(powers_of_two(reach))
        result = linprog(c, A_ub=A, b_ub=b * unit, bounds=bounds, method="highs", options=options)
        if result.status == 0:
            result.x = result.x / unit
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


# HiGHS's infinite_bound: bounds at or beyond it count as none.
_LP_INFINITY = 1e20


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
    residual: Callable[[NDArray[np.float64]], float] | None = None,
) -> None:
    """Append ``point`` unless it coincides with a listed one; of two coinciding points keep the more accurate
    (smaller natural residual, or ``residual``), so a degenerate solution is reported at its best round-off."""
    if residual is None:

        def residual(z: NDArray[np.float64]) -> float:
            return lcp_residual(M, q, z).natural

    for index, other in enumerate(points):
        if solutions_coincide(point, other, tol, scale):
            if residual(point) < residual(other):
                points[index] = point
            return
    points.append(point)


def _accept(
    M: NDArray[np.float64], q: NDArray[np.float64], z: NDArray[np.float64], tol: float
) -> NDArray[np.float64] | None:
    """``z`` with round-off negatives clipped if it solves the LCP to ``tol``, else None."""
    z = clip_round_off(M, q, z, tol)
    return z if lcp_residual(M, q, z).within(tol) else None


# Every solution in each index set's own units (all_solutions with DataScales).


def powers_of_two(x: ArrayLike) -> NDArray[np.float64]:
    """``2^(−round(log₂ x))`` elementwise, the power of two nearest ``1/x``; ``1`` where ``x = 0``. Scaling by
    powers of two is exact in floating point, so a problem rescaled by them has the same bits, rescaled."""
    x = np.asarray(x, dtype=float)
    positive = x > 0
    exponents = np.clip(-np.round(np.log2(np.where(positive, x, 1.0))), -1022, 1023)  # normal numbers only
    return np.where(positive, np.exp2(exponents), 1.0)


def block_units(
    entries: NDArray[np.float64], columns: NDArray[np.float64] | None = None
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """``(c, r, u)`` of blocks' uncertainties ``(…, s, s)``: column units ``c`` (the largest uncertainty of each
    column becomes one), row units ``r`` (then that of each row does) and the largest uncertainty ``u`` left in
    ``r E c`` (one, or zero for an exact block). A column the block's rows do not see at all takes the units of
    ``columns`` (its largest uncertainty over the whole matrix), where given: the slack ``β`` of ``{β}``."""
    size = entries.max(axis=-2)
    if columns is not None:
        size = np.where(size > 0, size, columns)
    c = powers_of_two(size)
    scaled = entries * c[..., None, :]
    r = powers_of_two(scaled.max(axis=-1))
    u = (r[..., :, None] * scaled).max(axis=(-2, -1))
    return c, r, u


def _all_solutions_in_own_units(
    M: NDArray[np.float64], q: NDArray[np.float64], tol: float, scales: DataScales, masks: list[int]
) -> LCPSolutions:
    """:func:`all_solutions` with every test in the units of each index set (module docstring)."""
    n = q.shape[0]
    if scales.entries.shape != (n, n):
        raise ValueError(f"DataScales of shape {scales.entries.shape} for an LCP of size {n}")
    z_scale = scales.solution_scale()
    points: list[NDArray[np.float64]] = []
    accuracies: list[NDArray[np.float64]] = []
    continua: list[SolutionContinuum] = []
    for mask in masks:
        support = np.array([i for i in range(n) if mask >> i & 1], dtype=int)
        found, continuum = _own_units_support(M, q, support, scales, tol)
        if found is not None:
            add_distinct_in_own_units(points, accuracies, *found, M, q, 1e2 * tol, z_scale)
        if continuum is not None:
            continua.append(continuum)
    solutions = np.array(points).reshape(len(points), n)
    accuracy = np.array(accuracies).reshape(len(points), n)
    return LCPSolutions(solutions=solutions, continua=tuple(continua), scale=z_scale, accuracy=accuracy)


def add_distinct_in_own_units(
    points: list[NDArray[np.float64]],
    accuracies: list[NDArray[np.float64]],
    point: NDArray[np.float64],
    accuracy: NDArray[np.float64],
    M: NDArray[np.float64],
    q: NDArray[np.float64],
    tol: float,
    scale: float,
) -> None:
    """:func:`_add_distinct` for points with known round-off ``accuracy``: two points coincide when they differ by
    less than ``tol`` of their size plus both points' round-off, component by component (a point computed
    through a large cancellation, such as a split ``λ⁺ − λ⁻`` of two huge friction parts, is as exact as that);
    of two coinciding points the one with the smaller natural residual is kept, as :func:`_add_distinct` does
    (both are solutions to round-off: which one represents the point is a tie-break)."""
    for index, other in enumerate(points):
        if solutions_coincide(point, other, tol, scale, accuracy + accuracies[index]):
            if lcp_residual(M, q, point).natural < lcp_residual(M, q, other).natural:
                points[index], accuracies[index] = point, accuracy
            return
    points.append(point)
    accuracies.append(accuracy)


Located = tuple[NDArray[np.float64], NDArray[np.float64]]  # a verified point and its round-off


def _own_units_support(
    M: NDArray[np.float64], q: NDArray[np.float64], support: NDArray[np.int_], scales: DataScales, tol: float
) -> tuple[Located | None, SolutionContinuum | None]:
    """``P_S`` as (its single point and round-off, or None; the continuum or None), judged in the block's own
    units.

    The block ``M_SS`` is scaled by :func:`block_units` of its uncertainties, ``B̃ = r M_SS c``, and is singular
    when ``σ_min(B̃) ≤ tol u``: no choice of units for its unknowns and rows lifts it above its own round-off.
    A regular block's point is ``M_SS⁻¹(−q_S)`` (the unscaled solve: column scaling does not change LU's bits),
    accurate to :func:`solve_accuracy`.
    """
    n = q.shape[0]
    z = np.zeros(n)
    if support.size == 0:
        return _located(accept_in_own_units(M, q, z, np.zeros(n), np.zeros(n), scales, tol), np.zeros(n)), None
    block = M[np.ix_(support, support)]
    c, r, u = block_units(scales.entries[np.ix_(support, support)], scales.entries[:, support].max(axis=0))
    U, sigma, Vt = np.linalg.svd(r[:, None] * block * c)
    rank = int(np.sum(sigma > tol * u))
    rhs = -q[support]
    if rank == support.size:
        z[support] = np.linalg.solve(block, rhs)
        if not np.all(np.isfinite(z)):
            return None, None
        units, accuracy = np.zeros(n), np.zeros(n)
        units[support] = c * np.abs(z[support] / c).max()
        accuracy[support] = solve_accuracy(block, z[support], rhs)
        return _located(accept_in_own_units(M, q, z, units, accuracy, scales, tol), accuracy), None
    # Singular in its own units: the solutions with this pattern lie in an affine space (in units z̃ = z / c).
    y = Vt[:rank].T @ ((U[:, :rank].T @ (r * rhs)) / sigma[:rank])
    z[support] = c * y
    residual = r * (block @ z[support] - rhs)
    rhs_scale = np.abs(r * scales.constants[support]).max()
    if np.abs(residual).max() > tol * max(rhs_scale, float(u) * np.abs(y).max()):
        return None, None  # q_S outside the range of M_SS: no solution with this pattern
    return _own_units_polyhedron(M, q, support, z, c, r, float(u), Vt[rank:], scales, tol)


def _own_units_polyhedron(
    M: NDArray[np.float64],
    q: NDArray[np.float64],
    support: NDArray[np.int_],
    particular: NDArray[np.float64],
    c: NDArray[np.float64],
    r: NDArray[np.float64],
    u: float,
    null_rows: NDArray[np.float64],
    scales: DataScales,
    tol: float,
) -> tuple[Located | None, SolutionContinuum | None]:
    """:func:`_singular_polyhedron` in the block's units: ``z = particular + unit (D c)ᵀ t`` with ``D`` the
    orthonormal null rows in units ``z̃ = z / c``; the sign rows of ``z_S`` are ``z̃ ≥ 0`` and each row ``w_i ≥ 0``
    is divided by the uncertainty of its coefficients along the null directions (``unit Σ_j E_ij c_j |D_kj|``),
    so a coefficient below ``tol`` of it is zero and such a row is a condition on the particular point, decided
    by :func:`accept_in_own_units`' allowance."""
    n = q.shape[0]
    E, Q = scales.entries, scales.constants
    off = np.setdiff1d(np.arange(n), support)
    y = particular[support] / c
    rhs_size = np.abs(r * q[support]).max() / u if u > 0 else 0.0
    unit = max(float(np.abs(y).max()), rhs_size)
    unit = unit if unit > 0 else 1.0  # M z + q = 0 is homogeneous: its solutions form a cone, any unit will do
    scale = np.ones(n)
    scale[support] = c
    # components of the null directions at round-off of their largest are zero: a row that sees only those is a
    # condition on the particular point, not a constraint on t with a bound of 1e16
    largest = np.abs(null_rows).max(axis=1, keepdims=True)
    null_rows = np.where(np.abs(null_rows) <= ROUND_OFF * largest, 0.0, null_rows)
    directions = np.zeros((null_rows.shape[0], n))
    directions[:, support] = null_rows * c
    accuracy = np.zeros(n)
    accuracy[support] = ROUND_OFF * c * np.abs(y).max()
    # z̃_S = y + unit Dᵀ t ≥ 0
    A_z, b_z = -null_rows.T, y / unit
    constant_z = np.abs(A_z).max(axis=1) <= tol
    if np.any(b_z[constant_z] < -tol):
        return None, None
    # w_N = w_N(particular) + unit (M_NS c) Dᵀ t ≥ 0
    coefficients = unit * (M[np.ix_(off, support)] * c) @ null_rows.T
    size = unit * ((E[np.ix_(off, support)] * c) @ np.abs(null_rows.T)).max(axis=1, initial=0.0)
    size = np.maximum(size, np.abs(coefficients).max(axis=1, initial=0.0))
    w = M[off] @ particular + q[off]
    allowance = tol * (E[off] @ np.abs(particular) + Q[off]) + np.abs(M[off]) @ accuracy
    constant_w = np.abs(coefficients).max(axis=1, initial=0.0) <= tol * size
    if np.any(w[constant_w] < -allowance[constant_w]):
        return None, None
    keep = ~constant_w
    A = np.vstack([A_z[~constant_z], -coefficients[keep] / size[keep, None]])
    b = np.concatenate([b_z[~constant_z], w[keep] / size[keep]])
    reach = float(np.abs(b).max(initial=0.0))
    if reach > 1.0:  # the polyhedron lies further out than the particular point says: measure t in its units
        factor = 1.0 / float(powers_of_two(reach))
        unit, b = unit * factor, b / factor
    count = null_rows.shape[0]
    if _optimise(np.zeros(count), A, b, tol) is None:
        return None, None
    ts, extremes, errors, bounded = [], [], [], True
    for k in range(count):
        for sign in (1.0, -1.0):
            t = _optimise(sign * np.eye(count)[k], A, b, tol)
            bounded = bounded and t is not None
            if t is None:
                continue
            point = particular + unit * (directions.T @ t)
            units = np.zeros(n)
            units[support] = c * max(float(np.abs(point[support] / c).max()), float(np.abs(y).max()))
            error = ROUND_OFF * units + accuracy  # a vertex from its active constraints: round-off of its size
            accepted = accept_in_own_units(M, q, point, units, error, scales, tol)
            if accepted is not None:
                ts.append(t)
                extremes.append(accepted)
                errors.append(error)
    if not ts:
        return None, None  # the LP's own tolerance let through a polyhedron with no verified point
    if bounded and np.ptp(np.array(ts), axis=0).max() <= ROUND_OFF * max(1.0, np.abs(np.array(ts)).max()):
        return (extremes[0], errors[0]), None
    continuum = SolutionContinuum(
        support=tuple(int(i) for i in support),
        particular=particular,
        directions=directions,
        unit=unit,
        constraints=A,
        bounds=b,
        extremes=np.array(extremes),
        bounded=bounded,
        scale=scale,
        accuracy=np.array(errors),
    )
    return None, continuum


def solve_accuracy(block: NDArray[np.float64], z: NDArray[np.float64], rhs: NDArray[np.float64]) -> NDArray[np.float64]:
    """How far the computed solution ``z`` of ``block z = rhs`` (``(…, s, s)``, ``(…, s)``) is from the exact one,
    component by component, to first order: ``|B⁻¹| (|B z − rhs| + ROUND_OFF (|B| |z| + |rhs|))``, its actual
    residual (and the round-off of computing it) carried back through the inverse. Unchanged by any scaling of
    rows and columns, so a component of ``1e-300`` next to one of 1 (the normal reaction of a sliding contact at
    ``μ = 1e300``) gets its own error, not the other's; and it is the error of this ``z``, whatever the pivoting
    did (LU's backward error is small normwise, not entry by entry)."""
    inverse = np.abs(np.linalg.inv(block))
    residual = np.abs(block @ z[..., None] - rhs[..., None])
    terms = np.abs(block) @ np.abs(z)[..., None] + np.abs(rhs)[..., None]
    return np.asarray((inverse @ (residual + ROUND_OFF * terms))[..., 0], dtype=np.float64)


def _located(point: NDArray[np.float64] | None, accuracy: NDArray[np.float64]) -> Located | None:
    return None if point is None else (point, accuracy)


def accept_in_own_units(
    M: NDArray[np.float64],
    q: NDArray[np.float64],
    z: NDArray[np.float64],
    units: NDArray[np.float64],
    accuracy: NDArray[np.float64],
    scales: DataScales,
    tol: float,
) -> NDArray[np.float64] | None:
    """``z`` (round-off negatives clipped) if it is within its own ``accuracy`` of a solution of an LCP within
    ``tol`` of this one in the uncertainty of :class:`DataScales`, else None.

    ``z_j ≥ −(tol units_j + accuracy_j)`` is round-off (``units``: the size of ``z_j`` in its block's units); then
    every row needs ``w_i ≥ −a_i`` and, where ``z_i > 0``, ``|w_i| ≤ a_i``, with the row's own allowance
    ``a_i = tol (Σ_j E_ij |z_j| + Q_i) + Σ_j |M_ij| accuracy_j``: a row of exact numbers (the friction cone's) is
    held to its own terms, not to the size of the whole matrix.
    """
    if not np.all(np.isfinite(z)):
        return None
    z = np.where((z < 0) & (z >= -(tol * units + accuracy)), 0.0, z)
    if np.any(z < 0):
        return None
    M, q, E, Q = _rows_of_order_one(M, q, scales)
    w = M @ z + q
    allowance = tol * (E @ np.abs(z) + Q) + np.abs(M) @ accuracy
    if not (np.all(np.isfinite(w)) and np.all(np.isfinite(allowance))):
        return None
    if np.any(w < -allowance) or np.any(np.abs(w[z > 0]) > allowance[z > 0]):
        return None
    return z


def _rows_of_order_one(
    M: NDArray[np.float64], q: NDArray[np.float64], scales: DataScales
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """``M, q`` and their uncertainties with each row divided by the power of two nearest its largest entry: the
    row tests are the same (each row is judged against itself) and ``μ λ_n`` with ``μ`` near 1e300 cannot
    overflow."""
    E, Q = scales.entries, scales.constants
    size = np.maximum(np.maximum(np.abs(M).max(axis=1, initial=0.0), E.max(axis=1, initial=0.0)), np.maximum(Q, 0.0))
    s = powers_of_two(size)
    return s[:, None] * M, s * q, s[:, None] * E, s * Q
