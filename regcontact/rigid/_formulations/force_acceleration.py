"""The force-acceleration problem: Preclik & Rüde Sec. 2 (Eqs. 5–10), Leine & Brogliato Eqs. 2.9–2.11 for
``k`` contacts.

For the contacts closed and at rest in the normal direction (``I_N``) the reaction forces must satisfy
``g̈_n ≥ 0 ⊥ λ_n ≥ 0`` (Eq. 7) with ``g̈ = G λ + W M⁻¹ h + Ẇ v`` (Eq. 4) and Coulomb's law:

- a contact that slides (``ġ_t ≠ 0``, Eq. 8) has its friction at the cone's edge opposing the slip,
  ``λ_t = −sgn(ġ_t) μ λ_n``, folded into its normal column (for the rod: the scalar problem of Eq. 10);
- a contact at rest (``ġ_t = 0``, Eq. 9) gets the box condition on ``g̈_t``.

It may have no solution (Sec. 2.1) or several (Sec. 2.2): all are returned.
"""

from __future__ import annotations

import numpy as np

from regcontact.rigid._formulations.contact_law import LawSolver, formulation_solutions
from regcontact.rigid._formulations.solutions import ContactSolutions
from regcontact.rigid._state import ContactState, as_contact_state
from regcontact.rigid.lcp._multi_contact_friction import multi_contact_friction_solutions
from regcontact.systems.system import AbstractSystem

__all__ = ["force_acceleration"]


def force_acceleration(
    state: ContactState | AbstractSystem, tol: float = 1e-9, law: LawSolver = multi_contact_friction_solutions
) -> ContactSolutions:
    """Every set of contact forces, with a mode per contact (a system: at its initial state).

    Contacts outside ``I_N`` (open, or closed and separating) carry no force, mode ``"F"``; their
    ``contact_rates`` are still ``g̈`` under the others' forces. ``I_H`` contacts get the Coulomb law on
    ``g̈_t``; ``I_N \\ I_H`` ones slide on, mode ``"F"`` or ``"S±"`` by ``ġ_t``. A penetrating contact, or a
    closed one approaching (``ġ_n < 0``: an impact, which needs an impulse), raises ``ValueError``. Zero tests
    are relative (``tol`` times the state's ``gap_scale`` or ``velocity_scale``) and the LCPs are solved in their
    own units, so a rescaled body gives rescaled forces. ``law`` solves the law's LCP (:data:`LawSolver`).
    """
    state = as_contact_state(state)
    sets = state.index_sets(tol)
    rate = state.contact_velocity
    gap_zero, rate_zero = tol * state.gap_scale, tol * state.velocity_scale
    for i in sets.all_contacts:
        if state.gaps[i] < -gap_zero or (i in sets.closed and rate[i, 0] < -rate_zero):
            raise ValueError(
                f"force-acceleration needs g_n ≥ 0, and ġ_n ≥ 0 where closed; contact {i} has "
                f"g_n = {state.gaps[i]:.3g}, ġ_n = {rate[i, 0]:.3g}: use impulse_velocity"
            )
    active = list(sets.normal_rest)
    slip = [0 if i in sets.tangential_rest else int(np.sign(rate[i, 1])) for i in active]
    G, b = state.delassus, state.free_acceleration.reshape(-1)
    return formulation_solutions(
        "force_acceleration", sets, G, b, state.mu, active, slip, tol, law, acceleration=state.acceleration
    )
