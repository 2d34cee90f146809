"""The planar Signorini–Coulomb condition of one contact as a standard LCP (Erleben's β splitting).

Given the contact quantity that is linear in the reaction ``λ = (λ_n, λ_t)``,

    u = W λ + b        (W: Delassus matrix J M⁻¹ Jᵀ; u = g̈, ġ⁺ or ġ' depending on the formulation),

the contact law of Preclik & Rüde (Eqs. 7–9, 14–15, 19) is

    u_n ≥ 0 ⊥ λ_n ≥ 0,
    −μ λ_n ≤ λ_t ≤ μ λ_n  with  u_t < 0 ⇒ λ_t = +μ λ_n,  u_t > 0 ⇒ λ_t = −μ λ_n,  else u_t = 0

(friction opposes slip). Splitting ``λ_t = λ⁺ − λ⁻`` and adding ``β ≥ 0`` (the slip speed ``|u_t|`` when
sliding) gives the standard LCP in ``z = (λ_n, λ⁺, λ⁻, β)``:

    w_n = u_n          ≥ 0 ⊥ λ_n ≥ 0
    w⁺  = u_t + β      ≥ 0 ⊥ λ⁺  ≥ 0
    w⁻  = −u_t + β     ≥ 0 ⊥ λ⁻  ≥ 0
    w_β = μλ_n − λ⁺ − λ⁻ ≥ 0 ⊥ β ≥ 0.

Every solution of the contact law gives one of the LCP (``λ± = max(±λ_t, 0)``, ``β = |u_t|``) and every LCP
solution maps back to one of the law. The map is not one-to-one: with ``λ_n = 0`` any ``β ≥ |u_t|`` works and
when sticking ``λ⁺, λ⁻`` may both be positive; :func:`friction_solutions` therefore collapses the LCP's
solution set onto distinct reactions and reports a continuum only when the *reactions* form one.
For ``W`` positive semi-definite, ``zᵀ M z = λᵀ W λ + μ λ_n β ≥ 0``: the matrix is copositive.

Units. ``z`` mixes reactions (``λ_n, λ⁺, λ⁻``) with a rate (``β``), and ``w`` mixes rates (``w_n, w⁺, w⁻``)
with a reaction (``w_β``): ``M`` holds ``W`` (rate per reaction) next to the pure numbers ``1``, ``μ``. The
generic LCP solvers judge zeros and singular blocks relative to ``‖M‖``, which is meaningless for such a matrix
once ``W`` is far from 1 (a rod of mass 1e12 has ``W ≈ 1e-12``: its sticking block looks singular). With a
reaction scale ``ρ`` and a rate scale ``σ``, ``λ = ρ λ̃``, ``β = σ β̃``, ``u = σ ũ`` turn the law into the same
law for ``ũ = W̃ λ̃ + b̃`` with ``W̃ = (ρ/σ) W``, ``b̃ = b/σ``; its LCP is ``D_w M D_z`` with
``D_z = diag(ρ, ρ, ρ, σ)``, ``D_w = diag(1/σ, 1/σ, 1/σ, 1/ρ)`` and ``q̃ = D_w q``. :meth:`FrictionLCP.nondimensional`
takes ``σ ≈ ‖b‖∞`` and ``σ/ρ ≈ ‖W‖∞``, so that ``‖W̃‖∞`` and ``‖b̃‖∞`` are O(1), and
:func:`friction_solutions` solves that problem and multiplies the reactions by ``ρ``.

Any ``μ``. No units make the whole matrix of order one for every ``μ``: the cone row holds ``μ`` beside the rate
rows' ``W̃ ≈ 1``, and a sticking solution has ``λ_n ~ λ_t`` while a sliding one at large ``μ`` has ``λ_n = |λ_t|/μ``.
So the search is told how each entry is made (:meth:`FrictionLCP.data_scales`, :func:`law_data_scales`) and judges
each index set in its own units (:class:`~regcontact.rigid.lcp.DataScales`), and it never puts ``λ⁺``
beside ``λ⁻`` in a support: such a solution is a split of one with either zero, up to ``λ⁺ + λ⁻ = μ λ_n``, whose
difference (the friction) carries the split's round-off. Right from ``μ = 0`` to :data:`CHECKED_MU` = 1e300
(``docs/rigid.md``, "Any friction coefficient").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact.rigid.lcp._complementarity import solutions_coincide
from regcontact.rigid.lcp._enumeration import ROUND_OFF, DataScales, LCPSolutions, SolutionContinuum, all_solutions

__all__ = ["CHECKED_MU", "FrictionLCP", "FrictionSolutions", "friction_lcp", "friction_solutions"]

#: The friction coefficients every rigid formulation is checked over, ``0 … 1e300``
#: (``tests/rigid/test_rigid_any_mu.py``). Beyond, ``μ`` times a Delassus matrix of order one nears the largest
#: float: a sliding contact's folded column ``G_·n − s μ G_·t`` overflows near ``1e308`` (refused where it does,
#: :func:`~regcontact.rigid.lcp.multi_contact_friction_lcp`); the rigid study refuses ``μ`` above this.
CHECKED_MU = 1e300

# Rows of this matrix map the LCP unknowns z = (λ_n, λ⁺, λ⁻, β) to the reaction (λ_n, λ_t).
_TO_REACTION = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, -1.0, 0.0]])


@dataclass(frozen=True)
class FrictionLCP:
    """LCP(M, q) equivalent to the planar contact law for ``u = W λ + b`` with friction coefficient ``mu``."""

    M: NDArray[np.float64]
    q: NDArray[np.float64]
    delassus: NDArray[np.float64]
    free: NDArray[np.float64]
    mu: float

    def reaction(self, z: ArrayLike) -> NDArray[np.float64]:
        """``(λ_n, λ_t)`` from an LCP vector ``z = (λ_n, λ⁺, λ⁻, β)``."""
        return _TO_REACTION @ np.asarray(z, dtype=float)

    def contact_rate(self, reaction: ArrayLike) -> NDArray[np.float64]:
        """``u = W λ + b`` for a reaction ``λ = (λ_n, λ_t)``."""
        return self.delassus @ np.asarray(reaction, dtype=float) + self.free

    def lcp_vector(self, reaction: ArrayLike) -> NDArray[np.float64]:
        """The canonical LCP vector ``(λ_n, max(λ_t, 0), max(−λ_t, 0), |u_t|)`` of a reaction."""
        lam_n, lam_t = np.asarray(reaction, dtype=float)
        slip = self.contact_rate(reaction)[1]
        return np.array([lam_n, max(lam_t, 0.0), max(-lam_t, 0.0), abs(slip)])

    def scales(self) -> tuple[float, float]:
        """``(ρ, σ)``: a reaction scale and a rate scale, ``σ`` the power of two nearest to ``‖b‖∞`` and
        ``σ/ρ`` the one nearest to ``‖W‖∞``. With ``b = 0`` (a homogeneous law, whose solutions form a cone)
        ``σ`` is taken equal to ``σ/ρ``, so ``ρ = 1``; with ``W = 0`` (reactions do not move the contact)
        ``ρ = σ``. Powers of two make the rescaling exact in floating point."""
        norm_W = _nearest_power_of_two(np.abs(self.delassus).sum(axis=1).max())
        rate = _nearest_power_of_two(np.abs(self.free).max(), default=norm_W)
        return rate / norm_W, rate

    def data_scales(self) -> DataScales:
        """The round-off each entry carries (:func:`law_data_scales`)."""
        return law_data_scales(self.M, self.delassus, self.free, np.array([3]), np.array([], dtype=int), self.mu)

    def nondimensional(self) -> tuple[FrictionLCP, float, float]:
        """The same law in units of :meth:`scales`: ``(problem for ũ = (ρ/σ) W λ̃ + b/σ, ρ, σ)``.

        Its ``M`` and ``q`` are ``D_w M D_z`` and ``D_w q`` (see the module docstring), with entries of
        order one whatever the units of ``W`` and ``b``; its reactions times ``ρ`` are this problem's.
        """
        reaction_scale, rate_scale = self.scales()
        scaled = friction_lcp(self.delassus * (reaction_scale / rate_scale), self.free / rate_scale, self.mu)
        return scaled, reaction_scale, rate_scale


def _nearest_power_of_two(x: float, default: float = 1.0) -> float:
    """``2^round(log₂ x)`` for ``x > 0``; ``default`` for ``x = 0``."""
    return math.ldexp(1.0, round(math.log2(x))) if x > 0 else default


def law_data_scales(
    M: NDArray[np.float64],
    delassus: NDArray[np.float64],
    free: NDArray[np.float64],
    cone_rows: NDArray[np.int_],
    folded: NDArray[np.int_],
    folded_mu: ArrayLike,
) -> DataScales:
    """The uncertainty of a friction LCP's entries (:class:`~regcontact.rigid.lcp.DataScales`), from
    how each is made.

    Rate rows (``u_n``, ``u_t ± β``) are computed from ``G`` and ``b``: their reaction entries carry errors of
    the size ``‖G‖∞`` (a folded column ``G_·n − s μ G_·t``: ``(1 + μ) ‖G‖∞``), their constants of ``‖b‖∞``; the
    slack ``β`` enters them with an exact ``1``. The cone rows ``μ λ_n − λ⁺ − λ⁻`` (``cone_rows``) are exact
    numbers: each entry is its own scale, and ``q = 0`` there. So ``μ`` of any size never swamps the rate rows,
    and a cone row is held to its own terms.
    """
    size = M.shape[0]
    norm_G = float(np.abs(delassus).sum(axis=1).max(initial=0.0))
    entries = np.full((size, size), norm_G)
    entries[:, folded] *= 1.0 + np.asarray(folded_mu, dtype=float)
    slack = cone_rows  # β of a contact is the unknown of its cone row
    entries[:, slack] = np.abs(M[:, slack])
    entries[cone_rows] = np.abs(M[cone_rows])
    constants = np.full(size, float(np.abs(free).max(initial=0.0)))
    constants[cone_rows] = 0.0
    return DataScales(entries=entries, constants=constants)


def friction_lcp(delassus: ArrayLike, free: ArrayLike, mu: float) -> FrictionLCP:
    """Build the standard LCP of the contact law for ``u = W λ + b`` (see the module docstring)."""
    W = np.asarray(delassus, dtype=float)
    b = np.asarray(free, dtype=float)
    if W.shape != (2, 2) or b.shape != (2,):
        raise ValueError(f"expected a 2×2 Delassus matrix and a 2-vector, got {W.shape} and {b.shape}")
    if not (math.isfinite(mu) and mu >= 0):
        raise ValueError(f"mu = {mu!r}: expected a finite friction coefficient ≥ 0")
    (w_nn, w_nt), (w_tn, w_tt) = W
    M = np.array(
        [
            [w_nn, w_nt, -w_nt, 0.0],
            [w_tn, w_tt, -w_tt, 1.0],
            [-w_tn, -w_tt, w_tt, 1.0],
            [mu, -1.0, -1.0, 0.0],
        ]
    )
    q = np.array([b[0], b[1], -b[1], 0.0])
    return FrictionLCP(M=M, q=q, delassus=W, free=b, mu=float(mu))


@dataclass(frozen=True)
class FrictionSolutions:
    """Distinct reactions solving the contact law, and whether the reactions form a continuum.

    ``reactions`` has one row ``(λ_n, λ_t)`` per solution. ``continua`` holds, for each continuum of
    reactions, its bounding box ``[[min λ_n, min λ_t], [max λ_n, max λ_t]]`` (``±inf`` where unbounded).
    """

    reactions: NDArray[np.float64]
    continua: tuple[NDArray[np.float64], ...]

    @property
    def isolated(self) -> bool:
        return not self.continua


def friction_solutions(problem: FrictionLCP, tol: float = 1e-12) -> FrictionSolutions:
    """Every reaction solving the contact law, from :func:`~regcontact.rigid.lcp.all_solutions` on its LCP.

    The LCP solved is the nondimensional one (:meth:`FrictionLCP.nondimensional`), so every tolerance of the
    search is relative to the law's own scales: a law rescaled by any ``(ρ, σ)`` gives the rescaled reactions.
    """
    scaled, reaction_scale, _ = problem.nondimensional()
    found = _reactions(scaled, tol)
    return FrictionSolutions(
        reactions=reaction_scale * found.reactions, continua=tuple(reaction_scale * box for box in found.continua)
    )


def _reactions(problem: FrictionLCP, tol: float) -> FrictionSolutions:
    """Distinct reactions of a (well-scaled) friction LCP, from every solution of the LCP."""
    found = all_solutions(problem.M, problem.q, tol=tol, scales=problem.data_scales(), apart=[(1, 2)])
    reactions = [problem.reaction(z) for z in found.solutions]
    accuracies = [np.abs(_TO_REACTION) @ error for error in _accuracy(found)]
    continua = []
    for continuum in found.continua:
        lam_n = continuum.range(_TO_REACTION[0])
        lam_t = continuum.range(_TO_REACTION[1])
        ends = np.array([[lam_n[0], lam_t[0]], [lam_n[1], lam_t[1]]])
        if reactions_fixed(continuum, _TO_REACTION, ends):
            reactions.append(problem.reaction(continuum.extremes[0]))  # only β or the λ± split vary
            accuracies.append(np.abs(_TO_REACTION) @ _extreme_accuracy(continuum))
        else:
            continua.append(ends)
    return FrictionSolutions(
        reactions=distinct_reactions(problem, reactions, tol, accuracies), continua=tuple(continua)
    )


def _extreme_accuracy(continuum: SolutionContinuum) -> NDArray[np.float64]:
    """The round-off of a continuum's first extreme point (zeros where the search does not know it)."""
    return np.zeros_like(continuum.extremes[0]) if continuum.accuracy is None else continuum.accuracy[0]


def _accuracy(found: LCPSolutions) -> NDArray[np.float64]:
    """The round-off of each of ``found``'s solutions (zeros where the search does not know it)."""
    return np.zeros_like(found.solutions) if found.accuracy is None else found.accuracy


def reactions_fixed(continuum: SolutionContinuum, to_reaction: NDArray[np.float64], ends: NDArray[np.float64]) -> bool:
    """Whether the reactions ``to_reaction @ z`` are one and the same over a continuum of the LCP, whose reaction
    bounding box is ``ends`` (``[[min], [max]]``).

    Decided by structure, not by how far apart sampled points lie: the reactions cannot move when every
    null-space direction of the continuum maps to zero reaction (``β`` and the ``λ⁺, λ⁻`` split, whose columns
    of ``to_reaction`` cancel exactly); otherwise they move unless the box is a point to round-off
    (:data:`~regcontact.rigid.lcp._enumeration.ROUND_OFF` of its size), e.g. a split direction combined with a
    reaction direction the polyhedron has no extent along. A continuum of reactions however thin stays one.
    """
    directions = continuum.directions
    directions = directions / np.maximum(np.linalg.norm(directions, axis=1, keepdims=True), 1e-300)  # unit rows
    image = np.abs(to_reaction @ directions.T).max(initial=0.0)
    if image <= ROUND_OFF * np.abs(to_reaction).max(initial=0.0):
        return True
    size = max(np.abs(ends[np.isfinite(ends)]).max(initial=0.0), 1e-300)
    return bool(np.all(np.isfinite(ends)) and np.ptp(ends, axis=0).max() <= ROUND_OFF * size)


def distinct_reactions(
    problem: FrictionLCP,
    reactions: list[NDArray[np.float64]],
    tol: float,
    accuracies: list[NDArray[np.float64]] | None = None,
) -> NDArray[np.float64]:
    """``reactions`` without repeats (``(m, 2)``, first occurrences kept): equal to ``1e2 tol`` relative to their
    size or to the problem's typical reaction ``‖b‖∞ / max|W|``, plus both reactions' round-off
    (``accuracies``, where known: ``λ_t = λ⁺ − λ⁻`` of two large split parts is only as exact as they are)."""
    norm_W = np.abs(problem.delassus).max()
    reaction_scale = np.abs(problem.free).max() / norm_W if norm_W > 0 else 0.0  # typical size of a reaction
    errors = [np.zeros(2)] * len(reactions) if accuracies is None else accuracies
    distinct: list[NDArray[np.float64]] = []
    kept: list[NDArray[np.float64]] = []
    for reaction, error in zip(reactions, errors):
        if not any(
            solutions_coincide(reaction, other, 1e2 * tol, reaction_scale, None if accuracies is None else error + e)
            for other, e in zip(distinct, kept)
        ):
            distinct.append(reaction)
            kept.append(error)
    return np.array(distinct).reshape(len(distinct), 2)
