"""The planar Signorini–Coulomb law of ``k`` coupled contacts as one standard LCP (Erleben's β splitting).

The one-contact problem (:mod:`regcontact.rigid.lcp._friction`) for ``k`` contacts. The contact quantities are linear
in the reactions ``λ = (λ_n,1, λ_t,1, …, λ_n,k, λ_t,k)``,

    u = G λ + b        (G = W M⁻¹ Wᵀ, 2k × 2k, rows and columns ordered contact by contact, normal first),

and every contact ``i`` obeys the law of the one-contact module with its own ``μ_i``. Each contact contributes
the four unknowns ``(λ_n, λ⁺, λ⁻, β)`` and the four rows ``(u_n, u_t + β, −u_t + β, μλ_n − λ⁺ − λ⁻)``: the
LCP of size ``4k`` is ``z = (z₁, …, z_k)`` with block ``(i, j)`` of ``M``

    [ G_ni,nj   G_ni,tj  −G_ni,tj   0   ]
    [ G_ti,nj   G_ti,tj  −G_ti,tj   δij ]        q_i = (b_ni, b_ti, −b_ti, 0).
    [−G_ti,nj  −G_ti,tj   G_ti,tj   δij ]
    [ μi δij    −δij     −δij       0   ]

For ``k = 1`` this is exactly :func:`~regcontact.rigid.lcp.friction_lcp`'s matrix, entry for entry.

*Folded sliding contacts* (Leine & Brogliato Eqs. 2.9–2.11). In the force-acceleration problem a contact that
already slips (``ġ_t ≠ 0``) has its friction fixed at the cone's edge, ``λ_t = −μ sgn(ġ_t) λ_n``. Such a contact
(``slip_direction`` ±1) keeps only the unknown ``λ_n`` and the row ``u_n``; its column of ``G`` becomes
``G_·,n + (−s μ) G_·,t`` (the ``W_N + W_G μ_G`` of Eq. 2.9).

*Units* exactly as for one contact: with the reaction unit ``ρ`` and the rate unit ``σ`` (powers of two,
``σ ≈ ‖b‖∞``, ``σ/ρ ≈ ‖G‖∞``, :meth:`MultiContactFrictionLCP.scales`) the law for ``ũ = (ρ/σ) G λ̃ + b/σ`` is
solved and its reactions multiplied by ``ρ``. For ``G`` positive semi-definite and no folded contact,
``zᵀ M z = λᵀ G λ + Σ μ_i λ_n,i β_i ≥ 0``: ``M`` is copositive.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact.rigid.lcp._complementarity import solutions_coincide
from regcontact.rigid.lcp._enumeration import DataScales, SolutionContinuum, all_solutions
from regcontact.rigid.lcp._friction import (
    _accuracy,
    _extreme_accuracy,
    _nearest_power_of_two,
    law_data_scales,
    reactions_fixed,
)

__all__ = [
    "MultiContactFrictionLCP",
    "MultiContactFrictionSolutions",
    "multi_contact_friction_lcp",
    "multi_contact_friction_solutions",
]


@dataclass(frozen=True)
class MultiContactFrictionLCP:
    """LCP(M, q) equivalent to the law of ``k`` contacts for ``u = G λ + b``.

    ``delassus`` is ``G`` (2k × 2k), ``free`` is ``b`` (2k), ``mu`` and ``slip_direction`` have one entry per
    contact (``0``: the full law, four unknowns; ``±1``: slipping in the ± tangential direction, friction folded
    in, one unknown). ``offsets[i]`` is where contact ``i``'s unknowns start in ``z``; ``to_reaction``
    (2k × size) maps ``z`` to the flattened reactions.
    """

    M: NDArray[np.float64]
    q: NDArray[np.float64]
    delassus: NDArray[np.float64]
    free: NDArray[np.float64]
    mu: NDArray[np.float64]
    slip_direction: NDArray[np.int_]
    offsets: NDArray[np.int_]
    to_reaction: NDArray[np.float64]

    @property
    def num_contacts(self) -> int:
        return int(self.mu.shape[0])

    def reaction(self, z: ArrayLike) -> NDArray[np.float64]:
        """Reactions ``(k, 2)``, rows ``(λ_n, λ_t)``, from an LCP vector ``z``."""
        return (self.to_reaction @ np.asarray(z, dtype=float)).reshape(self.num_contacts, 2)

    def contact_rate(self, reactions: ArrayLike) -> NDArray[np.float64]:
        """``u = G λ + b`` as ``(k, 2)`` for reactions ``(k, 2)``."""
        flat = np.asarray(reactions, dtype=float).reshape(-1)
        return (self.delassus @ flat + self.free).reshape(self.num_contacts, 2)

    def lcp_vector(self, reactions: ArrayLike) -> NDArray[np.float64]:
        """The canonical ``z`` of reactions: ``(λ_n, max(λ_t, 0), max(−λ_t, 0), |u_t|)`` per full-law contact,
        ``λ_n`` per folded one."""
        reactions = np.asarray(reactions, dtype=float).reshape(self.num_contacts, 2)
        slip = self.contact_rate(reactions)[:, 1]
        parts = []
        for i, (lam_n, lam_t) in enumerate(reactions):
            if self.slip_direction[i]:
                parts.append([lam_n])
            else:
                parts.append([lam_n, max(lam_t, 0.0), max(-lam_t, 0.0), abs(slip[i])])
        return np.concatenate(parts)

    def scales(self) -> tuple[float, float]:
        """``(ρ, σ)`` as :meth:`~regcontact.rigid.lcp.FrictionLCP.scales`: ``σ`` the power of two nearest ``‖b‖∞``,
        ``σ/ρ`` the one nearest ``‖G‖∞`` (``b = 0``: ``ρ = 1``; ``G = 0``: ``ρ = σ``)."""
        norm_G = _nearest_power_of_two(np.abs(self.delassus).sum(axis=1).max())
        rate = _nearest_power_of_two(np.abs(self.free).max(), default=norm_G)
        return rate / norm_G, rate

    def split_pairs(self) -> list[tuple[int, int]]:
        """The unknowns ``(λ⁺, λ⁻)`` of each full-law contact: never both in a searched support (``apart`` of
        :func:`~regcontact.rigid.lcp.all_solutions`)."""
        return [(int(a) + 1, int(a) + 2) for a, s in zip(self.offsets, self.slip_direction) if not s]

    def data_scales(self) -> DataScales:
        """The round-off each entry carries (:func:`~regcontact.rigid.lcp._friction.law_data_scales`)."""
        full = self.slip_direction == 0
        folded = self.slip_direction != 0
        return law_data_scales(
            self.M, self.delassus, self.free, self.offsets[full] + 3, self.offsets[folded], self.mu[folded]
        )

    def nondimensional(self) -> tuple[MultiContactFrictionLCP, float, float]:
        """``(the law for ũ = (ρ/σ) G λ̃ + b/σ, ρ, σ)``: entries of order one; its reactions times ``ρ`` are
        this problem's (the rescaling is exact: ``ρ, σ`` are powers of two)."""
        reaction_scale, rate_scale = self.scales()
        scaled = multi_contact_friction_lcp(
            self.delassus * (reaction_scale / rate_scale), self.free / rate_scale, self.mu, self.slip_direction
        )
        return scaled, reaction_scale, rate_scale


def multi_contact_friction_lcp(
    delassus: ArrayLike, free: ArrayLike, mu: ArrayLike, slip_direction: ArrayLike | None = None
) -> MultiContactFrictionLCP:
    """Build the standard LCP of the ``k``-contact law for ``u = G λ + b`` (see the module docstring).

    ``free`` may be given as ``(k, 2)`` or flat ``(2k,)``; ``slip_direction`` defaults to all zeros (the full
    Coulomb law at every contact).
    """
    mu = np.atleast_1d(np.asarray(mu, dtype=float))
    k = mu.shape[0]
    G = np.asarray(delassus, dtype=float)
    b = np.asarray(free, dtype=float).reshape(-1)
    if G.shape != (2 * k, 2 * k) or b.shape != (2 * k,):
        raise ValueError(
            f"{k} contacts need a {2 * k}×{2 * k} Delassus matrix and {2 * k} free terms, got {G.shape}, {b.shape}"
        )
    if not np.all(np.isfinite(mu) & (mu >= 0)):
        raise ValueError(f"mu = {mu.tolist()!r}: expected finite friction coefficients ≥ 0")
    s = np.zeros(k, dtype=int) if slip_direction is None else np.asarray(slip_direction).astype(int)
    if s.shape != (k,) or np.any(np.abs(s) > 1):
        raise ValueError(f"slip_direction must hold one of -1, 0, +1 per contact, got {slip_direction!s}")
    sizes = np.where(s == 0, 4, 1)
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(int)
    size = int(sizes.sum())

    # Columns of G acting on each contact's unknowns (2k × size): the reaction a unit of the unknown makes.
    to_reaction = np.zeros((2 * k, size))
    columns = np.zeros((2 * k, size))
    for j in range(k):
        a, n, t = offsets[j], 2 * j, 2 * j + 1
        if s[j]:
            coupling = -s[j] * mu[j] + 0.0  # λ_t = −s μ λ_n: friction opposes the slip (+0.0: no −0)
            to_reaction[n, a], to_reaction[t, a] = 1.0, coupling
            with np.errstate(over="ignore", invalid="ignore"):  # refused below where μ G overflows
                columns[:, a] = G[:, n] + coupling * G[:, t]
        else:
            to_reaction[n, a], to_reaction[t, a + 1], to_reaction[t, a + 2] = 1.0, 1.0, -1.0
            columns[:, a], columns[:, a + 1], columns[:, a + 2] = G[:, n], G[:, t], -G[:, t]
    if not np.all(np.isfinite(columns)):
        folded = int(np.flatnonzero(s)[np.flatnonzero(~np.all(np.isfinite(columns[:, offsets[s != 0]]), axis=0))[0]])
        bound = np.finfo(float).max / (2.0 * np.abs(G[:, [2 * folded, 2 * folded + 1]]).max())
        raise ValueError(
            f"mu = {float(mu[folded])!r}: expected at most {bound:.3g} for sliding contact {folded}: its column "
            "G_·n − s μ G_·t overflows beyond"
        )
    M = np.zeros((size, size))
    q = np.zeros(size)
    for i in range(k):
        a, n, t = offsets[i], 2 * i, 2 * i + 1
        M[a] = columns[n]
        q[a] = b[n]
        if s[i]:
            continue
        M[a + 1], M[a + 2] = columns[t], -columns[t]
        M[a + 1, a + 3] = M[a + 2, a + 3] = 1.0
        M[a + 3, a], M[a + 3, a + 1], M[a + 3, a + 2] = mu[i], -1.0, -1.0
        q[a + 1], q[a + 2] = b[t], -b[t]
    return MultiContactFrictionLCP(
        M=M, q=q, delassus=G, free=b, mu=mu, slip_direction=s, offsets=offsets, to_reaction=to_reaction
    )


@dataclass(frozen=True)
class MultiContactFrictionSolutions:
    """Distinct reactions solving the ``k``-contact law, and the continua of reactions.

    ``reactions`` is ``(number of solutions, k, 2)``. ``continua`` holds, for each continuum of reactions, its
    bounding box ``[[min λ per contact], [max λ per contact]]`` of shape ``(2, k, 2)`` (``±inf`` where
    unbounded); ``reactions`` then also lists the continuum's vertices that a nonsingular index set reaches.
    """

    reactions: NDArray[np.float64]
    continua: tuple[NDArray[np.float64], ...]

    @property
    def isolated(self) -> bool:
        return not self.continua


def multi_contact_friction_solutions(
    problem: MultiContactFrictionLCP, tol: float = 1e-12, max_size: int = 16
) -> MultiContactFrictionSolutions:
    """Every reaction solving the law, from :func:`~regcontact.rigid.lcp.all_solutions` on the nondimensional LCP.

    As :func:`~regcontact.rigid.lcp.friction_solutions` (for ``k = 1``, no folded contact, the same operations in the
    same order, hence the same bits): solutions are collapsed onto distinct reactions, a continuum of the LCP
    whose reactions do not move (only ``β`` or the ``λ±`` split vary) counts as one reaction, and identical
    boxes are reported once. ``max_size`` bounds the LCP's size (``2^size`` index sets; 16 is ``k = 4``).
    """
    scaled, reaction_scale, _ = problem.nondimensional()
    found = _reactions(scaled, tol, max_size)
    return MultiContactFrictionSolutions(
        reactions=reaction_scale * found.reactions, continua=tuple(reaction_scale * box for box in found.continua)
    )


def _reactions(problem: MultiContactFrictionLCP, tol: float, max_size: int) -> MultiContactFrictionSolutions:
    """Distinct reactions of a (well-scaled) LCP, from every solution of the LCP."""
    k = problem.num_contacts
    found = all_solutions(
        problem.M, problem.q, tol=tol, max_size=max_size, scales=problem.data_scales(), apart=problem.split_pairs()
    )
    reactions = [problem.reaction(z).reshape(-1) for z in found.solutions]
    accuracies = [np.abs(problem.to_reaction) @ error for error in _accuracy(found)]
    continua: list[NDArray[np.float64]] = []
    for continuum in found.continua:
        ranges = [_range(continuum, functional) for functional in problem.to_reaction]
        ends = np.array([[lo for lo, _ in ranges], [hi for _, hi in ranges]])
        if reactions_fixed(continuum, problem.to_reaction, ends):
            reactions.append(problem.reaction(continuum.extremes[0]).reshape(-1))  # only β or the λ± split vary
            accuracies.append(np.abs(problem.to_reaction) @ _extreme_accuracy(continuum))
        elif not any(_same_box(ends, other) for other in continua):
            continua.append(ends)
    norm_G = np.abs(problem.delassus).max()
    reaction_scale = np.abs(problem.free).max() / norm_G if norm_G > 0 else 0.0  # typical size of a reaction
    distinct: list[NDArray[np.float64]] = []
    kept: list[NDArray[np.float64]] = []
    for reaction, error in zip(reactions, accuracies):
        if not any(
            solutions_coincide(reaction, other, 1e2 * tol, reaction_scale, error + e)
            for other, e in zip(distinct, kept)
        ):
            distinct.append(reaction)
            kept.append(error)
    return MultiContactFrictionSolutions(
        reactions=np.array(distinct).reshape(len(distinct), k, 2),
        continua=tuple(box.reshape(2, k, 2) for box in continua),
    )


def _range(continuum: SolutionContinuum, functional: NDArray[np.float64]) -> tuple[float, float]:
    """:meth:`SolutionContinuum.range`, unless its LP fails on a bounded continuum (it then reports ``±inf``):
    HiGHS gives up ("numerical difficulties") on a functional that is constant on the continuum up to round-off,
    such as ``λ_n`` of a statically indeterminate contact. The continuum's verified extreme points then give the
    range (exact for a constant functional)."""
    lo, hi = continuum.range(functional)
    if continuum.bounded and not (np.isfinite(lo) and np.isfinite(hi)):
        values = continuum.extremes @ functional
        lo, hi = float(values.min()), float(values.max())
    return lo, hi


def _same_box(a: NDArray[np.float64], b: NDArray[np.float64]) -> bool:
    """Whether two bounding boxes coincide (infinite ends equal, finite ones to 1e-9 of the boxes' size): several
    index sets often span the same continuum of reactions with different ``β`` or ``λ±`` splits."""
    if not np.array_equal(np.isfinite(a), np.isfinite(b)) or np.any(a[~np.isfinite(a)] != b[~np.isfinite(b)]):
        return False
    finite = np.isfinite(a)
    size = max(np.abs(a[finite]).max(initial=0.0), np.abs(b[finite]).max(initial=0.0), 1e-300)
    return bool(np.abs(a[finite] - b[finite]).max(initial=0.0) <= 1e-9 * size)
