"""Lemke's complementary pivoting method for the LCP ``w = M z + q ≥ 0, z ≥ 0, zᵀ w = 0``.

The method walks along the almost-complementary path of the augmented system
``w − M z − d z₀ = q`` (covering vector ``d > 0``, artificial variable ``z₀``) until ``z₀`` leaves the basis
(a solution) or the entering column has no positive entry (ray termination). Degenerate steps are resolved by
the lexicographic ratio test, which perturbs ``q`` to ``q + (ε, ε², …)`` and cannot cycle.

Numerical care:

- the basis matrix is factorised afresh at each pivot (no drift from long chains of tableau updates);
- a pivot entry counts as positive only above ``tol`` times the largest entry of its column;
- entries of ``q``, of the basic values and of ``B⁻¹`` below ``tol`` times the largest of their kind are
  zero for the decisions, and a row ties with the minimum ratio when the step would take its value to zero
  up to that round-off level, so degenerate ties are seen as ties and the lexicographic rule can act;
- the final ``z`` is checked against the original data (``w = M z + q``); it is called solved only if its
  relative residuals (:func:`~regcontact.rigid.lcp.lcp_residual`) are within ``tol``, and
  ``"inaccurate"`` otherwise (also when a basis turns out singular in floating point), so a wrong ``z`` is
  never reported as a solution.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact.rigid.lcp._complementarity import clip_round_off, lcp_residual
from regcontact.rigid.lcp._enumeration import DataScales, accept_in_own_units, solve_accuracy

__all__ = ["LemkeResult", "LemkeStatus", "lemke"]

LemkeStatus = Literal["solved", "ray_termination", "pivot_limit", "inaccurate"]


@dataclass(frozen=True)
class LemkeResult:
    """Outcome of :func:`lemke`.

    ``z`` and ``w = M z + q`` are the last basic solution (with ``z₀`` dropped); they solve the LCP only when
    ``status == "solved"``. ``pivots`` counts the pivots taken, the initial entry of ``z₀`` included.
    """

    z: NDArray[np.float64]
    w: NDArray[np.float64]
    status: LemkeStatus
    pivots: int

    @property
    def solved(self) -> bool:
        return self.status == "solved"


def default_pivot_limit(n: int) -> int:
    """Cap used when none is given: typical problems take about ``n`` pivots, Murty's worst cases ``2ⁿ``."""
    return max(1000, 100 * n)


def lemke(
    M: ArrayLike,
    q: ArrayLike,
    max_pivots: int | None = None,
    tol: float = 1e-12,
    covering: ArrayLike | None = None,
    scales: DataScales | None = None,
) -> LemkeResult:
    """Solve LCP(M, q) by Lemke's method with lexicographic degeneracy resolution.

    Args:
        M: ``(n, n)`` matrix.
        q: ``(n,)`` vector.
        max_pivots: cap on pivots; ``None`` for :func:`default_pivot_limit`.
        tol: relative tolerance for pivot entries, ratio ties and the final verification.
        covering: covering vector ``d > 0`` (default all ones).
        scales: the round-off each entry of ``M`` and ``q`` carries; given, the final ``z`` is verified row by row
            in those units (:func:`~regcontact.rigid.lcp._enumeration.accept_in_own_units`, with the final basis
            solve's own round-off) instead of against ``‖M‖``: a friction LCP with ``μ`` far from one is then
            called solved only if its cone rows hold to their own terms.

    Returns:
        :class:`LemkeResult`. ``"ray_termination"`` means the path left along an unbounded ray: for
        copositive-plus ``M`` this proves the LCP infeasible; for general ``M`` it proves nothing.
    """
    M = np.atleast_2d(np.asarray(M, dtype=float))
    q = np.atleast_1d(np.asarray(q, dtype=float))
    n = q.shape[0]
    if M.shape != (n, n):
        raise ValueError(f"M has shape {M.shape}, expected ({n}, {n}) to match q")
    d = np.ones(n) if covering is None else np.asarray(covering, dtype=float)
    if d.shape != (n,) or np.any(d <= 0):
        raise ValueError("the covering vector must have shape (n,) and be strictly positive")
    limit = default_pivot_limit(n) if max_pivots is None else max_pivots

    q_decisions = _chop(q, tol)  # entries of q at round-off level below the rest count as zero
    if np.all(q_decisions >= 0):
        return _finish(M, q, np.zeros(n), "solved", 0, tol, scales, np.zeros(n))

    # Columns of [I, −M, −d]: index j < n is w_j, n ≤ j < 2n is z_{j−n}, 2n is z₀.
    columns = np.hstack([np.eye(n), -M, -d[:, None]])
    artificial = 2 * n
    basis = np.arange(n)

    # Initial pivot: z₀ enters at the level that makes every w non-negative; the row that binds leaves.
    # Under the lexicographic perturbation q + (ε, ε², …) ties go to the largest index.
    ratios = -q_decisions / d
    top = ratios.max()
    ties = np.flatnonzero(ratios >= top - tol * np.abs(ratios).max())
    row = ties[-1]
    entering = artificial
    pivots = 0
    try:
        while True:
            leaving = basis[row]
            basis[row] = entering
            pivots += 1
            if leaving == artificial or pivots >= limit:
                values = np.linalg.solve(columns[:, basis], q)
                status: LemkeStatus = "solved" if leaving == artificial else "pivot_limit"
                accuracy = _z_from_basis(basis, solve_accuracy(columns[:, basis], values, q), n)
                return _finish(M, q, _z_from_basis(basis, values, n), status, pivots, tol, scales, accuracy)
            entering = leaving + n if leaving < n else leaving - n  # the complement of the leaving variable
            B = columns[:, basis]
            solved = np.linalg.solve(B, np.column_stack([q, columns[:, entering], np.eye(n)]))
            values, direction, inverse = solved[:, 0], solved[:, 1], solved[:, 2:]
            row = _lexicographic_ratio_row(values, direction, inverse, basis == artificial, tol)
            if row is None:
                z = _z_from_basis(basis, values, n)
                return _finish(M, q, z, "ray_termination", pivots, tol, scales, np.zeros(n))
    except np.linalg.LinAlgError:  # a basis singular in floating point: the path cannot be followed
        return LemkeResult(z=np.full(n, np.nan), w=np.full(n, np.nan), status="inaccurate", pivots=pivots)


def _lexicographic_ratio_row(
    values: NDArray[np.float64],
    direction: NDArray[np.float64],
    inverse: NDArray[np.float64],
    is_artificial: NDArray[np.bool_],
    tol: float,
) -> int | None:
    """Row leaving the basis, or ``None`` when the entering column has no positive entry (a ray).

    Minimum ratio ``values / direction`` over rows with a positive pivot. A row ties with the minimum when
    stepping by the minimum ratio would take its value to zero up to round-off (``tol`` times the largest
    value). Ties go to the artificial ``z₀`` (ending the path with a solution), else are broken column by
    column on ``B⁻¹ / direction`` with the same criterion.
    """
    candidates = np.flatnonzero(direction > tol * np.abs(direction).max(initial=0.0))
    if candidates.size == 0:
        return None
    table = np.column_stack([_chop(np.maximum(values, 0.0), tol), _chop(inverse, tol)])
    for column in range(table.shape[1]):
        entries = table[candidates, column]
        low = (entries / direction[candidates]).min()
        scale = np.abs(table[:, column]).max()
        candidates = candidates[entries - direction[candidates] * low <= tol * scale]
        if column == 0 and np.any(is_artificial[candidates]):
            return int(candidates[is_artificial[candidates]][0])
        if candidates.size == 1:
            break
    return int(candidates[0])


def _chop(a: NDArray[np.float64], tol: float) -> NDArray[np.float64]:
    """Set entries below ``tol`` times the largest one to exactly zero, so that degenerate (zero) basic values
    and structural zeros of ``B⁻¹`` tie exactly instead of through round-off."""
    return np.where(np.abs(a) <= tol * np.abs(a).max(initial=0.0), 0.0, a)


def _z_from_basis(basis: NDArray[np.int_], values: NDArray[np.float64], n: int) -> NDArray[np.float64]:
    """The ``z`` part of a basic solution (non-basic variables are zero; ``w`` and ``z₀`` are dropped)."""
    z = np.zeros(n)
    for position, variable in enumerate(basis):
        if n <= variable < 2 * n:
            z[variable - n] = values[position]
    return z


def _finish(
    M: NDArray[np.float64],
    q: NDArray[np.float64],
    z: NDArray[np.float64],
    status: LemkeStatus,
    pivots: int,
    tol: float,
    scales: DataScales | None,
    accuracy: NDArray[np.float64],
) -> LemkeResult:
    """Clip round-off negatives of ``z``, recompute ``w``, and downgrade an unverified "solved" (verified against
    ``‖M‖``, or row by row in the units of ``scales`` with ``z``'s own round-off ``accuracy``)."""
    if scales is None:
        z = clip_round_off(M, q, z, tol)
        verified = lcp_residual(M, q, z).within(tol)
    else:
        units = np.full_like(z, np.abs(z).max(initial=0.0))
        accepted = accept_in_own_units(M, q, z, units, accuracy, scales, tol)
        verified = accepted is not None
        z = z if accepted is None else accepted
    w = M @ z + q
    if status == "solved" and not verified:
        status = "inaccurate"
    return LemkeResult(z=z, w=w, status=status, pivots=pivots)
