"""Every solution of the planar Signorini–Coulomb law in exact rational arithmetic: the oracle of the any-μ tests.

For ``u = G λ + b`` on ``k`` contacts each contact is in one of its modes, and each mode fixes two linear equations
and leaves inequalities to check (:mod:`regcontact.rigid._formulations.contact_modes`):

    F   λ_n = 0, λ_t = 0                     u_n ≥ 0
    T   u_n = 0, u_t = 0                     λ_n ≥ 0, μ λ_n − |λ_t| ≥ 0
    S±  u_n = 0, λ_t ± μ λ_n = 0             λ_n ≥ 0, ± u_t ≥ 0          (S+: slip u_t > 0, friction −μ λ_n)

and a contact whose slip direction ``s = ±1`` is given (force-acceleration, friction folded in) has only ``F`` and
its sliding mode. A float is an exact rational, so the ``4^k`` systems are solved exactly (``fractions``) for the
very data the code was given: the answer is the true solution set of that data, for any ``μ`` (``1e300`` is an
integer of a thousand bits).

The code decides at round-off, so data on which a decision is closer to its threshold than the data's own
precision are *ambiguous* and skipped (:class:`Ambiguous`): a mode system singular with solutions (a continuum),
an inequality whose value lies within ``margin`` of its *sensitivity*, or a normal reaction at (or within its
precision of) zero whose friction, ``μ`` times that precision, would show (a contact at normal rest whose normal
row does not see its friction, ``G_nt = 0``, with ``μ`` beyond ``1/tol``: the data do not say whether a normal
reaction of ``1e-12`` of the others, and with it a friction of their size, acts), or ``b = 0`` (a homogeneous
law, whose solutions form a cone: no scale to judge it against). The sensitivity of a value ``a·λ + c`` is
``|a| (|λ| + δλ) + |c|`` in the data's uncertainty model, the one the code works in: the rows taken from ``G`` and
``b`` uncertain by ``‖G‖∞`` and ``‖b‖∞``, the constant rows (``λ = 0``, ``λ_t ± μ λ_n = 0``) exact, and ``δλ =
|A⁻¹| (E |λ| + e)`` the first-order effect of those uncertainties on the mode system's solution (Skeel). So a
sliding mode whose normal coefficient ``G_nn ∓ μ G_nt`` is not fixed by the data (``G_nt`` at round-off and
``μ`` huge: the flat rod) is ambiguous, while ``λ_n = 1e-300`` of a well-determined sliding contact is not.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np

LABELS = ("F", "T", "S+", "S-")


#: The code's relative tolerance (the LCP enumeration's ``tol``), and the relative difference of reactions it shows.
_CODE_TOL = 1e-12
_SHOWS = 1e-10


class Ambiguous(Exception):
    """The data do not decide the solution set at their own precision (see the module docstring)."""


def _solve(A: list[list[Fraction]], r: list[Fraction]) -> tuple[list[Fraction] | None, bool]:
    """``(x, True)`` for a regular ``A``; ``(None, consistent)`` for a singular one (Gauss–Jordan, exact)."""
    n = len(A)
    rows = [row[:] + [value] for row, value in zip(A, r)]
    pivots: list[int] = []
    rank = 0
    for column in range(n):
        pivot = next((i for i in range(rank, n) if rows[i][column] != 0), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        head = rows[rank][column]
        rows[rank] = [x / head for x in rows[rank]]
        for i in range(n):
            if i != rank and rows[i][column] != 0:
                factor = rows[i][column]
                rows[i] = [x - factor * y for x, y in zip(rows[i], rows[rank])]
        pivots.append(column)
        rank += 1
    if rank < n:
        return None, all(rows[i][n] == 0 for i in range(rank, n))
    x = [Fraction(0)] * n
    for i, column in enumerate(pivots):
        x[column] = rows[i][n]
    return x, True


def exact_law_solutions(G, b, mu, slip_direction=None, margin=1e-7):
    """Every solution ``(reactions (k, 2) as Fractions, modes)`` of the law for ``u = G λ + b``, distinct and in no
    particular order; :class:`Ambiguous` where the data do not decide it (module docstring)."""
    G, b, mu = np.asarray(G, float), np.asarray(b, float), np.atleast_1d(np.asarray(mu, float))
    k = mu.shape[0]
    slip = np.zeros(k, dtype=int) if slip_direction is None else np.asarray(slip_direction, dtype=int)
    Gx = [[Fraction(float(x)) for x in row] for row in G]
    bx = [Fraction(float(x)) for x in b]
    mux = [Fraction(float(m)) for m in mu]
    norm_G, norm_b = float(np.abs(G).sum(axis=1).max()), float(np.abs(b).max())
    size = norm_b / norm_G if norm_G > 0 else 0.0  # the law's typical reaction
    if norm_b == 0:
        raise Ambiguous("b = 0: a homogeneous law")
    choices = [("F", "S+" if s > 0 else "S-") if s else LABELS for s in slip]
    found: dict[tuple[Fraction, ...], list[Fraction]] = {}
    for modes in product(*choices):
        A = [[Fraction(0)] * (2 * k) for _ in range(2 * k)]
        r = [Fraction(0)] * (2 * k)
        from_G = [False] * (2 * k)
        for i, mode in enumerate(modes):
            n, t = 2 * i, 2 * i + 1
            if mode == "F":
                A[n][n] = A[t][t] = Fraction(1)
                continue
            A[n], r[n], from_G[n] = Gx[n][:], -bx[n], True
            if mode == "T":
                A[t], r[t], from_G[t] = Gx[t][:], -bx[t], True
            else:
                A[t][t], A[t][n] = Fraction(1), (mux[i] if mode == "S+" else -mux[i])
        lam, consistent = _solve(A, r)
        if lam is not None and _singular_at_data_precision(A, from_G, norm_G):
            consistent, lam = _consistent_at_data_precision(A, r, from_G, norm_G, norm_b), None
        if lam is None:
            if consistent:
                raise Ambiguous(f"modes {modes}: a singular system with solutions (a continuum)")
            continue
        spread = _sensitivity(A, r, lam, from_G, norm_G, norm_b)
        admissible = True
        for i, mode in enumerate(modes):
            n, t = 2 * i, 2 * i + 1
            lam_f = np.array([float(x) for x in lam])
            u_n = sum((Gx[n][j] * lam[j] for j in range(2 * k)), bx[n])
            u_t = sum((Gx[t][j] * lam[j] for j in range(2 * k)), bx[t])
            rate_terms = norm_G * (float(np.abs(lam_f).sum()) + float(spread.sum())) + norm_b
            checks = []
            if mode == "F":
                checks.append((u_n, rate_terms))
            else:
                checks.append((lam[n], abs(float(lam[n])) + float(spread[n])))
                # λ_n at (or within its precision of) zero: the data do not fix λ_n better than the code's tolerance
                # times its spread, and friction multiplies that by μ; where that much friction shows, the code's
                # answer (no reaction, a sliding or a sticking one, or a continuum between) is the data's to decide
                reach = float(mux[i]) * _CODE_TOL * float(spread[n])
                if abs(float(lam[n])) <= margin * float(spread[n]) and reach > _SHOWS * (abs(float(lam[t])) + size):
                    raise Ambiguous(f"modes {modes}: contact {i}'s λ_n ≈ 0 with friction reach {reach:.3g}")
                if mode == "T":
                    cone = mux[i] * lam[n] - abs(lam[t])
                    checks.append(
                        (
                            cone,
                            float(mux[i]) * (abs(float(lam[n])) + float(spread[n]))
                            + abs(float(lam[t]))
                            + float(spread[t]),
                        )
                    )
                elif not slip[i]:
                    checks.append((u_t if mode == "S+" else -u_t, rate_terms))
            for value, terms in checks:
                if value != 0 and abs(float(value)) <= margin * terms:
                    raise Ambiguous(f"modes {modes}: contact {i}'s inequality {float(value):.3g} vs {terms:.3g}")
                admissible = admissible and value >= 0
        if admissible:
            found.setdefault(tuple(lam), lam)
    solutions = []
    for lam in found.values():
        modes = []
        for i in range(k):
            n, t = 2 * i, 2 * i + 1
            u_t = sum((Gx[t][j] * lam[j] for j in range(2 * k)), bx[t])
            if lam[n] == 0 and lam[t] == 0:
                modes.append("F")
            elif slip[i]:
                modes.append("S+" if slip[i] > 0 else "S-")
            elif u_t == 0:
                modes.append("T")
            else:
                modes.append("S+" if u_t > 0 else "S-")
        solutions.append((np.array(lam, dtype=object).reshape(k, 2), tuple(modes)))
    return solutions


def _uncertainty(A, from_G, norm_G):
    """The uncertainty of each entry of a mode system: ``‖G‖∞`` in the rows from ``G``, the entry itself elsewhere."""
    A_f = np.array([[float(x) for x in row] for row in A])
    return A_f, np.where(np.array(from_G)[:, None], norm_G, np.abs(A_f))


def _singular_at_data_precision(A, from_G, norm_G):
    """Whether a mode system regular in exact arithmetic is within ``1e-9`` of a singular one in its uncertainty
    (componentwise distance to singularity ``1/ρ(|A⁻¹| E)``): a rank-deficient ``G`` (a planar body on two contacts
    has three degrees of freedom) computed in floating point."""
    A_f, E = _uncertainty(A, from_G, norm_G)
    try:
        inverse = np.linalg.inv(A_f)
    except np.linalg.LinAlgError:
        return True
    with np.errstate(over="ignore", invalid="ignore"):
        radius = np.abs(np.linalg.eigvals(np.abs(inverse) @ E)).max()
    return not radius < 1e9


def _consistent_at_data_precision(A, r, from_G, norm_G, norm_b):
    """Whether a numerically singular mode system has solutions within ``1e-6`` of its rows' own terms; in between
    the data do not say (:class:`Ambiguous`)."""
    A_f, E = _uncertainty(A, from_G, norm_G)
    r_f = np.array([float(x) for x in r])
    size = np.maximum(E.max(axis=1), 1e-300)
    x = np.linalg.lstsq(A_f / size[:, None], r_f / size, rcond=None)[0]
    terms = E @ np.abs(x) + np.where(np.array(from_G), norm_b, 0.0)
    misfit = (np.abs(A_f @ x - r_f) / np.maximum(terms, 1e-300)).max()
    if 1e-12 < misfit < 1e-6:
        raise Ambiguous(f"a numerically singular mode system with misfit {misfit:.3g}")
    return misfit <= 1e-12


def _sensitivity(A, r, lam, from_G, norm_G, norm_b):
    """``|A⁻¹| (E |λ| + e)``: how far the uncertainty of the data moves the mode system's solution (floats)."""
    A_f, E = _uncertainty(A, from_G, norm_G)
    lam_f = np.abs(np.array([float(x) for x in lam]))
    e = np.where(np.array(from_G), norm_b, 0.0)
    try:
        inverse = np.linalg.inv(A_f)
    except np.linalg.LinAlgError:
        raise Ambiguous("a mode system regular in exact arithmetic, singular in floating point") from None
    with np.errstate(over="ignore", invalid="ignore"):
        spread = np.abs(inverse) @ (E @ lam_f + e)
    return np.nan_to_num(spread, nan=np.inf)
