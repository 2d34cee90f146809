"""The instantaneous impulse-velocity problem of Preclik & Rüde, Sec. 3 (Eqs. 13–15).

An impulse ``Λ`` jumps the velocity, ``M (v⁺ − v⁻) = Jᵀ Λ`` (Eq. 13), and the contact law acts on the
contact velocity after it, ``ġ⁺ = J v⁻ + W Λ``: ``ġ_n⁺ ≥ 0 ⊥ Λ_n ≥ 0`` (Eq. 14) and the Coulomb box on
``ġ_t⁺`` (Eq. 15). Unlike the force-acceleration problem it always has a solution; it may have several.
"""

from __future__ import annotations

import numpy as np

from regcontact.rigid.contact_law import LawSolver, contact_law_solutions
from regcontact.rigid.solutions import ContactMode, RigidSolution, RigidSolutions
from regcontact.rigid.state import ContactState, as_contact_state
from regcontact.systems.rod import PainleveRod

__all__ = ["impulse_velocity"]


def impulse_velocity(
    state: ContactState | PainleveRod, tol: float = 1e-9, law: LawSolver = contact_law_solutions
) -> RigidSolutions:
    """Every contact impulse ``Λ = (Λ_n, Λ_t)`` with its mode and the velocities after it (a rod: at its
    initial state).

    The contact must be closed (``g_n = 0``, relative to ``tol`` times the state's ``gap_scale``): impulses do
    not move positions, so an open contact carries none (the single solution ``Λ = 0``) and a penetrating one
    raises ``ValueError``. ``law`` solves the contact law (a stand-in equal to :func:`contact_law_solutions`:
    answers computed for many states at once).
    """
    state = as_contact_state(state, "impulse_velocity")
    length_scale = state.gap_scale
    if state.gap < -tol * length_scale:
        raise ValueError(f"impulse_velocity needs g_n ≥ 0, got g_n = {state.gap:.3g}")
    if state.gap > tol * length_scale:
        opening: ContactMode = "opening"
        solutions = [(np.zeros(2), state.contact_velocity, opening)]
        continua: tuple = ()
    else:
        solutions, continua = law(state.delassus, state.contact_velocity, state.mu, tol)
    return RigidSolutions(
        "impulse_velocity",
        tuple(
            RigidSolution(reaction=impulse, mode=mode, contact_rate=rate, velocity=state.velocity_after(impulse))
            for impulse, rate, mode in solutions
        ),
        continua,
    )
