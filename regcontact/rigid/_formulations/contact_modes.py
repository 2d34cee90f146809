"""Every solution of the planar Signorini–Coulomb law of ``k`` contacts, by enumerating contact modes.

The same problem as the LCP enumeration behind :func:`~regcontact.rigid._formulations.contact_law.law_solutions`
(``u = G λ + b``, every contact with the full law), solved the fast way for trajectories, where it is solved
once per time step. Each contact is in one of four modes, each fixing two linear equations and leaving
inequalities to check:

    F   λ_n = 0, λ_t = 0                    check u_n ≥ 0
    T   u_n = 0, u_t = 0                    check λ_n ≥ 0, |λ_t| ≤ μ λ_n
    S+  u_n = 0, λ_t = −μ λ_n               check λ_n ≥ 0, u_t ≥ 0
    S−  u_n = 0, λ_t = +μ λ_n               check λ_n ≥ 0, u_t ≤ 0

so the ``4^k`` mode combinations (4 for one contact, 16 for two) are ``4^k`` small linear systems, solved in one
batched call, instead of the ``2^{4k}`` index sets of the LCP (16 for one contact, 256 for two). A combination
whose system is singular (a statically indeterminate contact set: the two-point rod sticking flat) gets its
minimum-norm solution, which is kept if it is consistent and admissible; that point represents the continuum.
Solutions are collapsed onto distinct reactions and labelled exactly as the LCP enumeration labels them
(a reaction at round-off level: ``"F"``). Whether a mode's system is singular is judged in its own units
(:func:`mode_systems_regular`), so ``μ`` may be anywhere from 0 to 1e300. If no combination gives a solution
(it does not happen for a positive definite ``G``), the LCP enumeration is asked.

numpy on the host: these are problems of 2–4 unknowns, once per step of a sequential integration; JAX dispatch
would cost more than the arithmetic.
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact.rigid._formulations.contact_law import law_solutions
from regcontact.rigid._formulations.solutions import ContactLabel, contact_labels
from regcontact.rigid.lcp._enumeration import block_units

__all__ = ["law_solutions_by_mode"]

_TEMPLATES: dict[tuple[float, ...], tuple[NDArray[np.int_], NDArray[np.float64], NDArray[np.float64]]] = {}


def _templates(mu: NDArray[np.float64]) -> tuple[NDArray[np.int_], NDArray[np.float64], NDArray[np.float64]]:
    """For the ``4^k`` mode combinations (``F…F`` first): the modes ``(4^k, k)`` as ``0, 1, 2, 3`` = ``F, T, S+,
    S−``, which rows of the system are rows of ``G`` (``(4^k, 2k)``, 0/1) and the constant rows ``(4^k, 2k, 2k)``
    (the ``λ = 0`` and ``λ_t = ∓μ λ_n`` rows); cached per ``μ``."""
    key = tuple(float(m) for m in mu)
    if key not in _TEMPLATES:
        k = mu.shape[0]
        combos = np.array(list(itertools.product(range(4), repeat=k)), dtype=int).reshape(-1, k)
        rows_of_G = np.zeros((combos.shape[0], 2 * k))
        constant = np.zeros((combos.shape[0], 2 * k, 2 * k))
        for c, modes in enumerate(combos):
            for i, mode in enumerate(modes):
                n, t = 2 * i, 2 * i + 1
                if mode == 0:
                    constant[c, n, n] = constant[c, t, t] = 1.0
                    continue
                rows_of_G[c, n] = 1.0
                if mode == 1:
                    rows_of_G[c, t] = 1.0
                else:
                    constant[c, t, t] = 1.0
                    constant[c, t, n] = mu[i] if mode == 2 else -mu[i]
        _TEMPLATES[key] = (combos, rows_of_G, constant)
    return _TEMPLATES[key]


def law_solutions_by_mode(
    G: NDArray[np.float64], b: NDArray[np.float64], mu: NDArray[np.float64], tol: float = 1e-9
) -> list[tuple[NDArray[np.float64], tuple[ContactLabel, ...]]]:
    """Every distinct reaction ``(k, 2)`` solving the law for ``u = G λ + b`` on all ``k`` contacts, with its
    modes; the reactions are ordered by mode combination (``F…F`` first)."""
    k = mu.shape[0]
    combos, rows_of_G, constant = _templates(mu)
    A = rows_of_G[:, :, None] * G + constant
    r = -rows_of_G * b
    norm_G = max(np.abs(G).sum(axis=1).max(), 1e-300)
    norm_b = np.abs(b).max()
    scale = np.abs(A).max(axis=(1, 2))
    regular = mode_systems_regular(A, rows_of_G, constant, norm_G)
    if regular.all():
        reactions = np.linalg.solve(A, r[..., None])[..., 0]
    else:
        reactions = np.full(r.shape, np.nan)
        reactions[regular] = np.linalg.solve(A[regular], r[regular][..., None])[..., 0]
        for c in np.flatnonzero(~regular):
            x, *_ = np.linalg.lstsq(A[c], r[c], rcond=None)
            if np.abs(A[c] @ x - r[c]).max() <= tol * (scale[c] * np.abs(x).max() + np.abs(r[c]).max()):
                reactions[c] = x
    admissible = _admissible(
        np.asarray(reactions.reshape(-1, k, 2), dtype=np.float64),
        np.asarray((reactions @ G.T + b).reshape(-1, k, 2), dtype=np.float64),
        combos,
        mu,
        norm_G,
        norm_b,
        tol,
    )
    found = [reactions[c].reshape(k, 2) for c in np.flatnonzero(admissible)]
    if not found:
        return law_solutions(G, b, mu, list(range(k)), [0] * k, tol)[0]
    distinct: list[NDArray[np.float64]] = []
    reaction_scale = norm_b / norm_G
    for lam in found:
        size_here = max(np.abs(lam).max(), reaction_scale, 1e-300)
        if not any(np.abs(lam - other).max() <= 1e2 * tol * size_here for other in distinct):
            distinct.append(lam)
    return [
        (lam, contact_labels(lam, (G @ lam.reshape(-1) + b).reshape(-1, 2), [0] * k, G, b, tol)) for lam in distinct
    ]


def mode_systems_regular(
    A: NDArray[np.float64], rows_of_G: NDArray[np.float64], constant: NDArray[np.float64], norm_G: ArrayLike
) -> NDArray[np.bool_]:
    """Which mode systems ``A`` ``(…, C, 2k, 2k)`` are regular, judged in their own units.

    Rows taken from ``G`` carry round-off of the size ``‖G‖∞`` (``norm_G``, broadcast over the leading axes);
    the constant rows (``λ = 0``, ``λ_t ± μ λ_n = 0``) are exact numbers. Columns, then rows, are scaled by powers
    of two so that the largest of these uncertainties in each is one
    (:func:`~regcontact.rigid.lcp._enumeration.block_units`); the system is regular when that matrix's determinant
    exceeds ``1e-12``. A ``μ`` of any size thus never makes a sliding mode look singular beside rows of order
    ``‖G‖``, while a cancellation inside ``G`` (the Painlevé boundary) still does.
    """
    norm = np.asarray(norm_G, dtype=float)[..., None, None, None]
    entries = np.where(rows_of_G[..., :, None] > 0, norm, np.abs(constant))
    c, r, _ = block_units(np.broadcast_to(entries, A.shape))
    return np.asarray(np.abs(np.linalg.det(r[..., :, None] * A * c[..., None, :])) > 1e-12)


def _admissible(
    lam: NDArray[np.float64],
    u: NDArray[np.float64],
    modes: NDArray[np.int_],
    mu: NDArray[np.float64],
    norm_G: float | NDArray[np.float64],
    norm_b: float | NDArray[np.float64],
    tol: float,
) -> NDArray[np.bool_]:
    """Which mode combinations' reactions ``(…, C, k, 2)`` (NaN: no solution) satisfy their inequalities (to
    ``tol``), given the contact rates ``u`` ``(…, C, k, 2)``; leading batch axes broadcast with ``norm_G``,
    ``norm_b`` (``(…, 1, 1)``) and ``mu`` (``(…, 1, k)``)."""
    size = np.abs(lam).max(axis=(-2, -1))[..., None]
    reaction_zero = tol * np.maximum(size, norm_b / norm_G)
    rate_zero = tol * (norm_G * size + norm_b)
    lam_n, lam_t, u_n, u_t = lam[..., 0], lam[..., 1], u[..., 0], u[..., 1]
    # a sliding contact's normal reaction is 1/μ of its friction: its sign is judged on that scale
    normal_zero = np.where(modes >= 2, reaction_zero / np.maximum(mu, 1.0), reaction_zero)
    ok = np.where(modes == 0, u_n >= -rate_zero, lam_n >= -normal_zero)  # NaN compares False, quietly
    ok &= (modes != 1) | (np.abs(lam_t) <= mu * lam_n + reaction_zero)
    ok &= (modes != 2) | (u_t >= -rate_zero)
    ok &= (modes != 3) | (u_t <= rate_zero)
    return ok.all(axis=-1) & np.isfinite(size[..., 0])
