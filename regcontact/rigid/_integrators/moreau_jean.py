"""Moreau–Jean time stepping: Preclik & Rüde's time-stepping LCP (Sec. 4, Eqs. 16–20) stepped over time.

Each step of length ``δt`` from ``(q, v)`` at ``t``, with ``M, h, W, g_n`` taken at the start of the step:

    v' = v + δt M⁻¹ h + M⁻¹ Σ_i W_iᵀ P_i,        q' = q + δt v'        (semi-implicit Euler),

where the impulses ``P_i = δt λ̃_i`` satisfy, at every contact (open ones too), the Signorini–Coulomb law on
``(g_n,i/δt + ġ_n,i', ġ_t,i')``: exactly :func:`~regcontact.rigid.time_stepping`'s problem
(``G = W M⁻¹ Wᵀ``, ``b = W (v + δt M⁻¹ h) + (g_n/δt, 0)``). Every solution is found (by contact modes,
:mod:`regcontact.rigid._formulations.contact_modes`) and one is continued with by the selection rule
(:mod:`regcontact.rigid._formulations.selection_rules`). The first step is therefore the time-stepping LCP's
solution chosen by that rule, to round-off.

numpy on the host: one problem of ``2k`` unknowns per step, each depending on the last (see
:mod:`regcontact.rigid._integrators.trajectory`).
"""

from __future__ import annotations

import time as clock

import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact.rigid._formulations.contact_modes import law_solutions_by_mode
from regcontact.rigid._formulations.selection_rules import SelectionRule, check_selection_rule, select_solution
from regcontact.rigid._formulations.solutions import ContactLabel
from regcontact.rigid._integrators.trajectory import RigidTrajectory, TrajectoryStatistics, check_positive
from regcontact.rigid._state import ContactState, SystemSnapshots
from regcontact.rigid.lcp._lemke import lemke
from regcontact.rigid.lcp._multi_contact_friction import multi_contact_friction_lcp
from regcontact.systems.system import AbstractSystem, check_is_system

__all__ = ["moreau_jean", "moreau_jean_step", "moreau_jean_step_arrays"]


def moreau_jean_step(
    state: ContactState, dt: float, selection: SelectionRule = "painleve", tol: float = 1e-9
) -> tuple[NDArray[np.float64], NDArray[np.float64], tuple[ContactLabel, ...], int]:
    """One step from ``state``: ``(impulses (k, 2), v', modes, number of solutions)``."""
    return moreau_jean_step_arrays(
        np.asarray(np.linalg.inv(state.mass_matrix), dtype=np.float64),
        state.applied_force,
        state.jacobian_matrix,
        state.gaps,
        state.velocity,
        state.mu,
        dt,
        check_selection_rule(selection),
        tol,
    )


def moreau_jean_step_arrays(
    M_inv: NDArray[np.float64],
    h: NDArray[np.float64],
    W: NDArray[np.float64],
    gaps: NDArray[np.float64],
    v: NDArray[np.float64],
    mu: NDArray[np.float64],
    dt: float,
    selection: SelectionRule,
    tol: float,
) -> tuple[NDArray[np.float64], NDArray[np.float64], tuple[ContactLabel, ...], int]:
    """:func:`moreau_jean_step` on raw arrays (``W`` as ``2k × n``), with ``M⁻¹`` given."""
    free_velocity = v + dt * (M_inv @ h)
    response = M_inv @ W.T  # generalised velocity per unit impulse, n × 2k
    G = W @ response
    b = W @ free_velocity
    b[0::2] += gaps / dt
    found = law_solutions_by_mode(G, b, mu, tol)
    reactions = np.array([lam.reshape(-1) for lam, _ in found])
    velocities = free_velocity + reactions @ response.T
    if len(found) == 1:
        return found[0][0], velocities[0], found[0][1], 1

    def lemke_reaction() -> NDArray[np.float64] | None:
        problem = multi_contact_friction_lcp(G, b, mu)
        scaled, reaction_scale, _ = problem.nondimensional()
        result = lemke(scaled.M, scaled.q, scales=scaled.data_scales())
        return reaction_scale * scaled.reaction(result.z) if result.solved else None

    mass = np.linalg.inv(M_inv)
    chosen = select_solution(
        selection,
        reactions[:, 0::2].sum(axis=1),
        0.5 * np.einsum("si,ij,sj->s", velocities, mass, velocities),
        [lam for lam, _ in found],
        lemke_reaction,
    )
    return found[chosen][0], velocities[chosen], found[chosen][1], len(found)


def moreau_jean(
    system: AbstractSystem,
    t_end: float,
    dt: float,
    selection: str = "painleve",
    q0: ArrayLike | None = None,
    v0: ArrayLike | None = None,
    tol: float = 1e-9,
) -> RigidTrajectory:
    """Step ``system`` from ``(q0, v0)`` (default: its initial state) at ``t = 0`` to ``t_end`` with steps ``dt``
    (the last one shortened to land on ``t_end``), continuing with the solution ``selection`` picks.

    ``ValueError`` for ``dt ≤ 0``, ``t_end ≤ 0`` or an unknown ``selection``, naming the parameter.
    """
    check_is_system("system", system)
    dt = check_positive("dt", dt)
    t_end = check_positive("t_end", t_end)
    rule = check_selection_rule(selection)
    snapshots = SystemSnapshots(system)
    q = snapshots.initial_state[0] if q0 is None else np.asarray(q0, dtype=float)
    v = snapshots.initial_state[1] if v0 is None else np.asarray(v0, dtype=float)
    steps = int(np.ceil(t_end / dt - 1e-9))
    times = np.minimum(np.arange(steps + 1) * dt, t_end)
    qs, vs = np.empty((steps + 1, q.shape[0])), np.empty((steps + 1, v.shape[0]))
    impulses = np.empty((steps, snapshots.num_contacts, 2))
    modes: list[tuple[ContactLabel, ...]] = []
    qs[0], vs[0] = q, v
    ambiguous = 0
    start = clock.perf_counter()
    for i in range(steps):
        h = times[i + 1] - times[i]
        M, force, W, _, gaps = snapshots.arrays(q, v, times[i])
        reactions, v, step_modes, count = moreau_jean_step_arrays(
            np.asarray(np.linalg.inv(M), dtype=np.float64), force, W, gaps, v, snapshots.mu, h, rule, tol
        )
        q = q + h * v
        qs[i + 1], vs[i + 1], impulses[i] = q, v, reactions
        modes.append(step_modes)
        ambiguous += count > 1
    statistics = TrajectoryStatistics(
        steps=steps, lcp_solves=steps, events=0, ambiguous_steps=ambiguous, wall_time=clock.perf_counter() - start
    )
    return RigidTrajectory(f"moreau_jean[{rule}]", times, qs, vs, tuple(modes), impulses, statistics)
