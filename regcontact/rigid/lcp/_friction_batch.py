"""Every reaction of many one-contact friction LCPs at once: the enumeration of :func:`friction_solutions`, batched.

:func:`friction_solutions` visits the index sets of the LCP in ``z = (λ_n, λ⁺, λ⁻, β)`` one problem at a
time, and analyses each singular index set with linear programs (HiGHS): about 15 LPs per problem, 85 % of its
time. Here the index sets are visited for all problems together (one batched SVD and solve per index set, the
same LAPACK calls as the one-problem search, so the same bits), and the singular index sets are recognised
instead of solved. The search never puts ``λ⁺`` and ``λ⁻`` in one support (a solution with both is a split of one
with either zero, :func:`~regcontact.rigid.lcp.all_solutions`' ``apart``); of the twelve index sets left, two are
singular for a regular ``W`` and ``μ > 0`` (in their own units, :class:`~regcontact.rigid.lcp.DataScales`),
with one-dimensional null spaces and solution sets known in closed form:

``{β}`` and ``{λ_n, β}``
    ``λ = 0`` with any slip ``β ≥ |u_t|``: a continuum of the LCP that is the single reaction ``Λ = 0``, present
    when ``b_n ≥ 0`` (``{λ_n, β}`` only adds it again, at round-off ``λ_n``, when ``b_n`` is zero to round-off).

A problem is taken on this fast path only when those facts hold with a clear margin: the same index sets and
no others singular, ``b_n`` away from the thresholds of both. Any other problem (a singular ``W``, ``μ = 0``, the
Painlevé boundary ``W_nn ± μ W_nt = 0``, …) gets ``None`` and the caller solves it with
:func:`friction_solutions`. On the fast path the result is :func:`friction_solutions`' own, bit for bit: the same
points from the same solves, accepted and merged by the same functions, in the same order.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from regcontact.rigid.lcp._enumeration import (
    _masks,
    accept_in_own_units,
    add_distinct_in_own_units,
    block_units,
    solve_accuracy,
)
from regcontact.rigid.lcp._friction import (
    _TO_REACTION,
    FrictionLCP,
    FrictionSolutions,
    distinct_reactions,
    friction_lcp,
)

__all__ = ["friction_solutions_batch"]

# Index sets as bit masks of z = (λ_n, λ⁺, λ⁻, β): those the one-problem search visits (never λ⁺ with λ⁻), and the
# rank of each that is singular for a regular W, μ > 0.
_MASKS = _masks(4, [(1, 2)])
_SINGULAR_RANKS = {0b1000: 0, 0b1001: 1}


def friction_solutions_batch(
    delassus: NDArray[np.float64], free: NDArray[np.float64], mu: NDArray[np.float64], tol: float = 1e-12
) -> list[FrictionSolutions | None]:
    """:func:`~regcontact.rigid.lcp.friction_solutions` of ``friction_lcp(delassus[i], free[i], mu[i])`` for
    each ``i`` (``(N, 2, 2)``, ``(N, 2)``, ``(N,)``), or ``None`` where the problem is off the fast path (module
    docstring); the results are those of the one-problem search, bit for bit."""
    count = len(mu)
    scaled: list[FrictionLCP] = []
    reaction_scales = np.empty(count)
    for i in range(count):
        problem, reaction_scales[i], _ = friction_lcp(delassus[i], free[i], float(mu[i])).nondimensional()
        scaled.append(problem)
    if not count:
        return []
    M = np.stack([problem.M for problem in scaled])
    q = np.stack([problem.q for problem in scaled])
    data = [problem.data_scales() for problem in scaled]
    E = np.stack([scales.entries for scales in data])
    Q = np.stack([scales.constants for scales in data])
    fast = _clear_cut(scaled, M, q, E, Q)
    points: list[list[NDArray[np.float64]]] = [[] for _ in range(count)]
    errors: list[list[NDArray[np.float64]]] = [[] for _ in range(count)]
    for mask in _MASKS:
        support = np.array([i for i in range(4) if mask >> i & 1], dtype=int)
        z, units, accuracy = np.zeros((count, 4)), np.zeros((count, 4)), np.zeros((count, 4))
        if support.size:
            block = M[:, support[:, None], support[None, :]]
            c, r, u = block_units(E[:, support[:, None], support[None, :]])
            sigma = np.linalg.svd(r[:, :, None] * block * c[:, None, :])[1]
            rank = np.sum(sigma > tol * u[:, None], axis=1)
            singular = rank < support.size
            expected = _SINGULAR_RANKS.get(mask, support.size)  # singular exactly where W regular makes it so
            fast &= rank == expected
            regular = fast & ~singular
            if mask in _SINGULAR_RANKS or not regular.any():
                continue
            rhs = -q[regular][:, support]
            solved = np.linalg.solve(block[regular], rhs[..., None])[..., 0]
            z[np.ix_(regular, support)] = solved
            c = c[regular]
            units[np.ix_(regular, support)] = c * np.abs(solved / c).max(axis=1, keepdims=True)
            accuracy[np.ix_(regular, support)] = solve_accuracy(block[regular], solved, rhs)
        else:
            regular = fast.copy()
        for j in np.flatnonzero(regular & _roughly_solves(M, q, z, units, accuracy, E, Q, tol)).tolist():
            point = accept_in_own_units(M[j], q[j], z[j], units[j], accuracy[j], data[j], tol)
            if point is not None:
                add_distinct_in_own_units(
                    points[j], errors[j], point, accuracy[j], M[j], q[j], 1e2 * tol, data[j].solution_scale()
                )
    results: list[FrictionSolutions | None] = []
    for i, problem in enumerate(scaled):
        if not fast[i]:
            results.append(None)
            continue
        reactions = [problem.reaction(point) for point in points[i]]
        accuracies = [np.abs(_TO_REACTION) @ error for error in errors[i]]
        if _free_at_round_off(problem):  # {β}: Λ = 0, after the isolated points as the one-problem search lists it
            reactions.append(np.zeros(2))
            accuracies.append(np.zeros(2))
        found = distinct_reactions(problem, reactions, tol, accuracies)
        results.append(FrictionSolutions(reactions=reaction_scales[i] * found, continua=()))
    return results


def _roughly_solves(
    M: NDArray[np.float64],
    q: NDArray[np.float64],
    z: NDArray[np.float64],
    units: NDArray[np.float64],
    accuracy: NDArray[np.float64],
    E: NDArray[np.float64],
    Q: NDArray[np.float64],
    tol: float,
) -> NDArray[np.bool_]:
    """Which ``z`` come within four times :func:`accept_in_own_units`' allowances of solving their LCP: a superset
    of those it accepts, so only these are tested exactly."""
    slack = 4.0 * (tol * units + accuracy)
    clipped = np.where((z < 0) & (z >= -slack), 0.0, z)
    w = np.einsum("nij,nj->ni", M, clipped) + q
    allowance = 4.0 * (
        tol * (np.einsum("nij,nj->ni", E, np.abs(clipped)) + Q) + np.einsum("nij,nj->ni", np.abs(M), accuracy)
    )
    ok = np.all(clipped >= 0, axis=1) & np.all(w >= -allowance, axis=1)
    return ok & np.all((clipped <= 0) | (np.abs(w) <= allowance), axis=1) & np.all(np.isfinite(z), axis=1)


def _free_at_round_off(problem: FrictionLCP) -> bool:
    """Whether ``b_n ≥ 0`` up to round-off (``−1e-12 ‖q‖∞``, the singular search's threshold; :func:`_clear_cut`
    keeps ``b_n`` clear of it): then ``λ = 0`` solves the law."""
    return bool(problem.free[0] >= -0.5e-12 * np.abs(problem.q).max())


def _clear_cut(
    scaled: list[FrictionLCP],
    M: NDArray[np.float64],
    q: NDArray[np.float64],
    E: NDArray[np.float64],
    Q: NDArray[np.float64],
    tol: float = 1e-12,
) -> NDArray[np.bool_]:
    """Which problems have the singular index sets of the module docstring with their solution sets decided by a
    clear margin (the index sets' ranks are checked by the caller); ``M``, ``q`` and their round-off ``E``, ``Q``
    stacked."""
    q_max = np.abs(q).max(axis=1)
    b_n = np.array([problem.free[0] for problem in scaled])
    mu = np.array([problem.mu for problem in scaled])
    ok = (mu > 0.0) & (q_max > 0.0)
    ok &= ~((-2e-12 * q_max < b_n) & (b_n < -0.5e-12 * q_max))  # {β}: Λ = 0 present or not, clearly
    # {λ_n, β} as the one-problem search sees it (its block [[W_nn, 0], [μ, 0]] singular in its own units): the
    # residual of its least-squares point against the threshold above which it has no solution. b_n in the range
    # at round-off: a copy of Λ = 0 (present), or clearly not.
    support = np.array([0, 3])
    block = M[:, support[:, None], support[None, :]]
    c, r, u = block_units(E[:, support[:, None], support[None, :]])
    U, sigma, Vt = np.linalg.svd(r[:, :, None] * block * c[:, None, :])
    rhs = -q[:, support]
    y = Vt[:, 0, :] * (np.einsum("ni,ni->n", U[:, :, 0], r * rhs) / sigma[:, 0])[:, None]
    residual = np.abs(r * (np.einsum("nij,nj->ni", block, c * y) - rhs)).max(axis=1)
    threshold = tol * np.maximum(np.abs(r * Q[:, support]).max(axis=1), u * np.abs(y).max(axis=1))
    free = b_n >= -0.5e-12 * q_max  # _free_at_round_off
    return ok & (((residual < 1e-2 * threshold) & free) | (residual > 1e2 * threshold))
