"""The time-stepping problem of Preclik & Rüde, Sec. 4 (Eqs. 16–19), and its convergence as ``δt → 0``.

One semi-implicit Euler step: ``v' = v + δt M⁻¹ (f + Jᵀ λ̃)`` (Eq. 17). The contact law acts on
``u = (g_n/δt + ġ_n', ġ_t')`` with ``ġ' = J v'`` (Eq. 19, the Signorini condition scaled by ``1/δt``), which is
linear in the impulse ``δt λ̃``: ``u = W (δt λ̃) + J (v + δt M⁻¹ f) + (g_n/δt, 0)``.

As ``δt → 0`` the step's impulsive solutions approach those of the impulse-velocity problem with an
``O(δt)`` error (Secs. 4.1, 4.2): :func:`time_stepping_convergence` measures that order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact.rigid.contact_law import LawSolver, contact_law_solutions
from regcontact.rigid.impulse_velocity import impulse_velocity
from regcontact.rigid.solutions import ContactMode, RigidSolution, RigidSolutions
from regcontact.rigid.state import ContactState, as_contact_state
from regcontact.systems.rod import PainleveRod

__all__ = ["TimeSteppingConvergence", "time_stepping", "time_stepping_convergence"]


def time_stepping(
    state: ContactState | PainleveRod, dt: float, tol: float = 1e-9, law: LawSolver = contact_law_solutions
) -> RigidSolutions:
    """Every solution of one time step of length ``dt`` (a rod: from its initial state); reactions are the
    impulses ``δt λ̃``; ``law`` as for :func:`~regcontact.rigid.impulse_velocity.impulse_velocity`."""
    state = as_contact_state(state, "time_stepping")
    if not dt > 0:
        raise ValueError(f"the time step must be positive, got dt = {dt}")
    free_velocity = state.velocity + dt * np.linalg.solve(state.mass_matrix, state.applied_force)
    free = state.jacobian @ free_velocity + np.array([state.gap / dt, 0.0])
    W = state.delassus
    solutions, continua = law(W, free, state.mu, tol)
    return RigidSolutions(
        "time_stepping",
        tuple(
            RigidSolution(
                reaction=impulse,
                mode=mode,
                contact_rate=rate,
                velocity=free_velocity + np.linalg.solve(state.mass_matrix, state.jacobian.T @ impulse),
            )
            for impulse, rate, mode in solutions
        ),
        continua,
    )


@dataclass(frozen=True)
class TimeSteppingConvergence:
    """Distances ``‖δt λ̃(δt) − Λ‖₂`` of the time-stepping solution of one mode to a reference impulse, and
    the order fitted to them (least-squares slope of ``log distance`` against ``log δt``)."""

    dt: NDArray[np.float64]
    distance: NDArray[np.float64]
    order: float
    reference: NDArray[np.float64]
    mode: ContactMode


def time_stepping_convergence(
    state: ContactState | PainleveRod,
    mode: ContactMode = "sticking",
    dts: ArrayLike | None = None,
    reference: ArrayLike | None = None,
) -> TimeSteppingConvergence:
    """Measure how the time-stepping solution with ``mode`` approaches ``reference`` as ``δt → 0``.

    ``reference`` defaults to the impulse-velocity solution with the same mode; ``dts`` to seven steps from
    ``1e-2`` down to ``1e-5``. Each step must have exactly one solution with ``mode`` (``LookupError``
    otherwise: for a large step the impulsive solution may leave the friction cone).
    """
    state = as_contact_state(state, "time_stepping_convergence")
    dts = np.geomspace(1e-2, 1e-5, 7) if dts is None else np.asarray(dts, dtype=float)
    if reference is None:
        reference = impulse_velocity(state).with_mode(mode).reaction
    reference = np.asarray(reference, dtype=float)
    distance = np.array([np.linalg.norm(time_stepping(state, dt).with_mode(mode).reaction - reference) for dt in dts])
    order = float(np.polyfit(np.log(dts), np.log(distance), 1)[0])
    return TimeSteppingConvergence(dt=dts, distance=distance, order=order, reference=reference, mode=mode)
