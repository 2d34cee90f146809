"""The time-stepping problem: Preclik & Rüde Sec. 4 (Eqs. 16–19) for ``k`` contacts, and its convergence as
``δt → 0``.

One semi-implicit Euler step: ``v' = v + δt M⁻¹ (h + Σ W_iᵀ λ̃_i)`` (Eq. 17). Every contact obeys the law on
``u = (g_n/δt + ġ_n', ġ_t')`` with ``ġ' = W v'`` (Eq. 19, the Signorini condition scaled by ``1/δt``), which is
linear in the impulses ``δt λ̃``: ``u = G (δt λ̃) + W (v + δt M⁻¹ h) + (g_n/δt, 0)``; an open contact enters too
and a far one simply gets no impulse.

As ``δt → 0`` the step's impulsive solutions approach those of the impulse-velocity problem with an ``O(δt)``
error (Secs. 4.1, 4.2): :func:`time_stepping_convergence` measures that order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact.convergence import why_no_order
from regcontact.rigid._formulations.contact_law import LawSolver, formulation_solutions
from regcontact.rigid._formulations.impulse_velocity import impulse_velocity
from regcontact.rigid._formulations.solutions import ContactLabel, ContactSolutions
from regcontact.rigid._state import ContactState, as_contact_state
from regcontact.rigid.lcp._multi_contact_friction import multi_contact_friction_solutions
from regcontact.systems.system import AbstractSystem

__all__ = ["TimeSteppingConvergence", "time_stepping", "time_stepping_convergence"]


def time_stepping(
    state: ContactState | AbstractSystem,
    dt: float,
    tol: float = 1e-9,
    law: LawSolver = multi_contact_friction_solutions,
) -> ContactSolutions:
    """Every solution of one step of length ``dt`` (a system: from its initial state); reactions are the
    impulses ``δt λ̃``; ``law`` solves the law's LCP."""
    state = as_contact_state(state)
    if not dt > 0:
        raise ValueError(f"the time step must be positive, got dt = {dt}")
    sets = state.index_sets(tol)
    free_velocity = state.velocity + dt * np.linalg.solve(state.mass_matrix, state.applied_force)
    offset = np.zeros((state.num_contacts, 2))
    offset[:, 0] = state.gaps / dt
    b = state.jacobian_matrix @ free_velocity + offset.reshape(-1)
    G = state.delassus
    active = list(sets.all_contacts)

    def velocity(impulses: NDArray[np.float64]) -> NDArray[np.float64]:
        return free_velocity + np.linalg.solve(state.mass_matrix, state.jacobian_matrix.T @ impulses.reshape(-1))

    slip = [0] * len(active)
    return formulation_solutions("time_stepping", sets, G, b, state.mu, active, slip, tol, law, velocity)


@dataclass(frozen=True)
class TimeSteppingConvergence:
    """Distances ``‖δt λ̃(δt) − Λ‖₂`` of the time-stepping solution with ``modes`` to a reference impulse, and
    the order fitted to them (least-squares slope of ``log distance`` against ``log δt``; ``None`` with fewer
    than three distinct δt, :func:`~regcontact.convergence.why_no_order`)."""

    dt: NDArray[np.float64]
    distance: NDArray[np.float64]
    order: float | None
    reference: NDArray[np.float64]
    modes: tuple[ContactLabel, ...]


def time_stepping_convergence(
    state: ContactState | AbstractSystem,
    modes: tuple[ContactLabel, ...] = ("T",),
    dts: ArrayLike | None = None,
    reference: ArrayLike | None = None,
) -> TimeSteppingConvergence:
    """Measure how the time-stepping solution with ``modes`` (one per contact) approaches ``reference`` as
    ``δt → 0``.

    ``reference`` defaults to the impulse-velocity solution with the same modes; ``dts`` to seven steps from
    ``1e-2`` down to ``1e-5``. Each step must have exactly one solution with ``modes`` (``LookupError``
    otherwise: for a large step the impulsive solution may leave the friction cone).
    """
    state = as_contact_state(state)
    dts = np.geomspace(1e-2, 1e-5, 7) if dts is None else np.asarray(dts, dtype=float)
    if reference is None:
        reference = impulse_velocity(state).with_modes(*modes).reactions
    reference = np.asarray(reference, dtype=float).reshape(state.num_contacts, 2)
    distance = np.array(
        [np.linalg.norm(time_stepping(state, dt).with_modes(*modes).reactions - reference) for dt in dts]
    )
    order = None if why_no_order(dts, "δt") else float(np.polyfit(np.log(dts), np.log(distance), 1)[0])
    return TimeSteppingConvergence(dt=dts, distance=distance, order=order, reference=reference, modes=modes)
