"""The force-acceleration problem of Preclik & Rüde, Sec. 2 (Eqs. 5–10).

For a closed contact (``g_n = 0``) at rest in the normal direction (``ġ_n = 0``) the reaction force ``λ`` must
satisfy ``g̈_n ≥ 0 ⊥ λ_n ≥ 0`` (Eq. 7) with ``g̈ = W λ + J M⁻¹ f + J̇ v`` (Eq. 4) and Coulomb's law:

- sliding (``ġ_t ≠ 0``, Eq. 8): friction opposes the slip at the cone's edge, ``λ_t = −sgn(ġ_t) μ λ_n``, leaving
  the scalar problem ``(W_nn − sgn(ġ_t) μ W_nt) λ_n + b_n ≥ 0 ⊥ λ_n ≥ 0`` (Eq. 10 for the rod);
- at rest (``ġ_t = 0``, Eq. 9): the box condition on ``g̈_t``.

It may have no solution (Sec. 2.1) or several (Sec. 2.2): all are returned.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from regcontact.rigid.contact_law import LawSolver, contact_law_solutions
from regcontact.rigid.lcp import all_solutions
from regcontact.rigid.solutions import ContactMode, RigidSolution, RigidSolutions, contact_mode
from regcontact.rigid.state import ContactState, as_contact_state
from regcontact.systems.rod import PainleveRod

__all__ = ["force_acceleration"]


def force_acceleration(
    state: ContactState | PainleveRod, tol: float = 1e-9, law: LawSolver = contact_law_solutions
) -> RigidSolutions:
    """Every reaction force of the force-acceleration problem, with its mode (a rod: at its initial state).

    A separated contact (``g_n > 0``) or a separating one (``ġ_n > 0``) carries no force (Eqs. 5, 6): the
    single solution is ``λ = 0``, opening. A penetrating (``g_n < 0``) or colliding (``ġ_n < 0``) contact has no
    force solution at all (it needs an impulse) and raises ``ValueError``. Zero tests are relative: ``tol``
    times the state's ``gap_scale`` or ``velocity_scale``; the LCPs are solved in their own units
    (:meth:`~regcontact.rigid.lcp.FrictionLCP.nondimensional`), so a rescaled body gives rescaled forces.
    ``law`` solves the law at rest (as for :func:`~regcontact.rigid.impulse_velocity.impulse_velocity`).
    """
    state = as_contact_state(state, "force_acceleration")
    length_scale = state.gap_scale
    velocity_scale = state.velocity_scale
    g_n = state.gap
    slip_n, slip_t = state.contact_velocity
    if g_n < -tol * length_scale or slip_n < -tol * velocity_scale:
        raise ValueError(
            f"force_acceleration needs g_n ≥ 0 and ġ_n ≥ 0 (no penetration, no collision); got g_n = {g_n:.3g}, "
            f"ġ_n = {slip_n:.3g}: use impulse_velocity"
        )
    if g_n > tol * length_scale or slip_n > tol * velocity_scale:
        return _from_reactions(state, [(np.zeros(2), "opening")], ())

    W, b = state.delassus, state.free_acceleration
    if abs(slip_t) <= tol * velocity_scale:
        solutions, continua = law(W, b, state.mu, tol)
        return _from_reactions(state, [(reaction, mode) for reaction, _, mode in solutions], continua)

    direction = -np.sign(slip_t)  # friction opposes the slip: λ_t = direction · μ λ_n
    coefficient = W[0, 0] + direction * state.mu * W[0, 1]
    found = all_solutions([[coefficient]], [b[0]])
    reaction_scale = abs(b[0]) / np.abs(W).sum(axis=1).max()

    def reaction(lam_n: float) -> NDArray[np.float64]:
        return np.array([lam_n, direction * state.mu * lam_n if state.mu else 0.0])

    reactions = [
        (reaction(lam_n), contact_mode(lam_n, slip_t, max(lam_n, reaction_scale), velocity_scale, tol))
        for (lam_n,) in found.solutions
    ]
    continua = tuple(
        np.sort(np.array([reaction(lo), reaction(hi)]), axis=0)
        for lo, hi in (continuum.range([1.0]) for continuum in found.continua)
    )
    return _from_reactions(state, reactions, continua)


def _from_reactions(
    state: ContactState,
    reactions: list[tuple[NDArray[np.float64], ContactMode]],
    continua: tuple[NDArray[np.float64], ...],
) -> RigidSolutions:
    """Package reaction forces with their contact accelerations and generalised accelerations."""
    solutions = tuple(
        RigidSolution(
            reaction=reaction,
            mode=mode,
            contact_rate=state.delassus @ reaction + state.free_acceleration,
            acceleration=state.acceleration(reaction),
        )
        for reaction, mode in reactions
    )
    return RigidSolutions("force_acceleration", solutions, continua)
