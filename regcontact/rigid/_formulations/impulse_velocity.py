"""The impulse-velocity (impact) problem: Preclik & Rüde Sec. 3 (Eqs. 13–15), Leine & Brogliato Eqs. 2.16–2.18
for ``k`` contacts.

Impulses ``Λ_i`` jump the velocity, ``M (v⁺ − v⁻) = Σ W_iᵀ Λ_i`` (Eq. 13), and the contact law acts on the
contact velocities after them, ``ġ⁺ = W v⁻ + G Λ``: Signorini on the normal one, with Newton's restitution
(Eq. 14 for ``e = 0``), and the Coulomb box on the tangential one (Eq. 15). Unlike the force-acceleration problem
it always has a solution; it may have several, or a continuum.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from regcontact.rigid._formulations.contact_law import LawSolver, formulation_solutions
from regcontact.rigid._formulations.solutions import ContactSolutions
from regcontact.rigid._state import ContactState, as_contact_state
from regcontact.rigid.lcp._multi_contact_friction import multi_contact_friction_solutions
from regcontact.systems.system import AbstractSystem

__all__ = ["impulse_velocity"]


def impulse_velocity(
    state: ContactState | AbstractSystem,
    restitution: ArrayLike = 0.0,
    tol: float = 1e-9,
    law: LawSolver = multi_contact_friction_solutions,
) -> ContactSolutions:
    """Every set of contact impulses, with a mode per contact and the velocities after them (a system: at its
    initial state).

    Impulses act on the closed contacts ``I_S``; the law is Signorini on ``ξ_n = ġ_n⁺ + e min(ġ_n⁻, 0)``
    (Newton's restitution coefficient ``e`` in ``[0, 1]``, per contact or one for all, default ``0``: completely
    inelastic; the ``min`` keeps a separating contact from being pulled back) and Coulomb on ``ġ_t⁺`` (no
    tangential restitution). ``contact_rates`` are ``(ξ_n, ġ_t⁺)`` on ``I_S`` and ``ġ⁺`` elsewhere. Open
    contacts carry no impulse; a penetrating one raises ``ValueError``. ``law`` solves the law's LCP.
    """
    state = as_contact_state(state)
    sets = state.index_sets(tol)
    for i in sets.all_contacts:
        if state.gaps[i] < -tol * state.gap_scale:
            raise ValueError(f"impulse-velocity needs g_n ≥ 0; contact {i} has g_n = {state.gaps[i]:.3g}")
    e = np.broadcast_to(np.asarray(restitution, dtype=float), (state.num_contacts,))
    if np.any(e < 0) or np.any(e > 1):
        raise ValueError(f"restitution coefficients must lie in [0, 1], got {restitution!s}")
    active = list(sets.closed)
    G = state.delassus
    free = state.contact_velocity.copy()
    for i in active:
        if e[i]:
            free[i, 0] += e[i] * min(free[i, 0], 0.0)
    b = free.reshape(-1)
    slip = [0] * len(active)
    return formulation_solutions(
        "impulse_velocity", sets, G, b, state.mu, active, slip, tol, law, velocity=state.velocity_after
    )
