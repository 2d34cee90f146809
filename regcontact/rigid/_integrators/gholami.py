"""Gholami, Nasri & Kövecses: time stepping with an LCP in the normal impulses only, friction regularised.

Their Eq. 1 adds to the normal-contact LCP a term ``D_k`` (kinetic friction, proportional to the normal impulse)
and a term ``b_s`` (static friction, regularised in velocity); the extended abstract gives neither formula, so
they are derived here for a velocity regularisation with threshold ``v_s`` (``threshold``). Contact ``i``'s phase
at a step is decided from the slip velocity ``ġ_t,i = W_t,i v`` at the start of the step (the previous step's):

- kinetic, ``|ġ_t,i| > v_s``: the friction impulse is ``−μ_i s_i P_n,i`` with ``s_i = sgn ġ_t,i``, so the normal
  impulse acts along ``d_i = W_n,iᵀ − μ_i s_i W_t,iᵀ`` (the ``D + D_k`` row);
- static, ``|ġ_t,i| ≤ v_s``: the regularised law ``λ_t = −μ λ_n ġ_t / v_s`` with the normal impulse of the
  previous step, implicit in the new slip velocity: ``P_t,i = −c_i ġ_t,i'`` with ``c_i = μ_i P_n,i^prev / v_s``
  (a mass: impulse per velocity); ``d_i = W_n,iᵀ``. It is bounded by the cone of the previous normal impulse as
  long as ``|ġ_t'| ≤ v_s``; a slip velocity above ``v_s`` makes the next step kinetic. This is the ``b_s`` term:
  it moves into the effective mass ``A = M + Σ_static c_i W_t,iᵀ W_t,i`` instead of the right-hand side, which
  keeps the step stable however small ``v_s`` is (the explicit form is unstable for ``c_i δt`` above the mass).

With ``D̃ = [d_i]`` the step is ``A v' = M v + δt h + D̃ P_n``, ``q' = q + δt v'``, and the normal impulses solve

    w = W_n v' + g_n/δt = N P_n + r ≥ 0  ⊥  P_n ≥ 0,      N = W_n A⁻¹ D̃,   r = W_n A⁻¹ (M v + δt h) + g_n/δt,

an LCP of ``k`` unknowns (Eq. 1 with the velocities eliminated). All its solutions are enumerated (``2^k``
supports) and the selection rule of :mod:`regcontact.rigid._formulations.selection_rules` picks one. Where the previous
normal impulse is unknown (the first step) it is predicted by the same step without static friction. A contact
that was open has ``P_n^prev = 0``: its first closed step has no static friction. Modes: ``"F"`` no normal
impulse, ``"T"`` static phase (regularised stick), ``"S±"`` kinetic.

As ``v_s → 0`` the static phase holds the contact at a slip velocity ``≤ v_s`` while the friction needed is
inside the cone, and the kinetic phase is Coulomb's law: the scheme tends to Moreau–Jean's with Coulomb friction,
for ``v_s`` above the velocity change of one step (``μ g δt`` for a block) — below it a stopping contact
chatters between the two kinetic directions.

numpy on the host: ``k`` unknowns per step, sequential in time (see :mod:`regcontact.rigid._integrators.trajectory`).
"""

from __future__ import annotations

import itertools
import time as clock

import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact.rigid._formulations.selection_rules import check_selection_rule, select_solution
from regcontact.rigid._formulations.solutions import ContactLabel
from regcontact.rigid._integrators.moreau_jean import moreau_jean_step_arrays
from regcontact.rigid._integrators.trajectory import RigidTrajectory, TrajectoryStatistics, check_positive
from regcontact.rigid._state import SystemSnapshots
from regcontact.rigid.lcp._lemke import lemke
from regcontact.systems.system import AbstractSystem, check_is_system

__all__ = ["gholami_time_stepping", "normal_impulse_lcp_solutions"]


def normal_impulse_lcp_solutions(N: NDArray[np.float64], r: NDArray[np.float64], tol: float = 1e-9) -> list[NDArray]:
    """Every solution ``P ≥ 0`` of ``w = N P + r ≥ 0, Pᵀ w = 0`` by its ``2^k`` supports (a singular block gets
    its least-squares point, kept if consistent); tolerances relative to ``‖N‖∞ ‖P‖∞ + ‖r‖∞``."""
    k = r.shape[0]
    norm_N = max(np.abs(N).sum(axis=1).max(), 1e-300)
    found: list[NDArray[np.float64]] = []
    for support in itertools.product((False, True), repeat=k):
        S = np.flatnonzero(support)
        P = np.zeros(k)
        if S.size:
            block, rhs = N[np.ix_(S, S)], -r[S]
            P[S], *_ = np.linalg.lstsq(block, rhs, rcond=None)
        w = N @ P + r
        zero = tol * (norm_N * np.abs(P).max() + np.abs(r).max())
        if np.all(P >= -zero / norm_N) and np.all(w >= -zero) and np.all(np.abs(w[S]) <= zero):
            P = np.maximum(P, 0.0)
            if not any(np.abs(P - other).max() <= 1e2 * zero / norm_N for other in found):
                found.append(P)
    return found


def gholami_time_stepping(
    system: AbstractSystem,
    t_end: float,
    dt: float,
    threshold: float,
    selection: str = "painleve",
    q0: ArrayLike | None = None,
    v0: ArrayLike | None = None,
    tol: float = 1e-9,
) -> RigidTrajectory:
    """Step ``system`` from ``(q0, v0)`` (default: its initial state) to ``t_end`` with steps ``dt`` and the
    static/kinetic velocity ``threshold`` (``v_s``, > 0); impulses reported as ``(P_n, P_t)`` per contact.

    ``ValueError`` for ``dt ≤ 0``, ``t_end ≤ 0``, ``threshold ≤ 0`` or an unknown ``selection``, naming it.
    """
    check_is_system("system", system)
    dt = check_positive("dt", dt)
    t_end = check_positive("t_end", t_end)
    threshold = check_positive("threshold", threshold)
    rule = check_selection_rule(selection)
    snapshots = SystemSnapshots(system)
    mu, k = snapshots.mu, snapshots.num_contacts
    q = snapshots.initial_state[0] if q0 is None else np.asarray(q0, dtype=float)
    v = snapshots.initial_state[1] if v0 is None else np.asarray(v0, dtype=float)
    steps = int(np.ceil(t_end / dt - 1e-9))
    times = np.minimum(np.arange(steps + 1) * dt, t_end)
    qs, vs = np.empty((steps + 1, q.shape[0])), np.empty((steps + 1, v.shape[0]))
    impulses = np.empty((steps, k, 2))
    modes: list[tuple[ContactLabel, ...]] = []
    qs[0], vs[0] = q, v
    previous_normal: NDArray[np.float64] | None = None
    ambiguous = solves = fallbacks = 0
    start = clock.perf_counter()
    for i in range(steps):
        h = times[i + 1] - times[i]
        M, force, W, _, gaps = snapshots.arrays(q, v, times[i])
        slip = W[1::2] @ v
        kinetic = np.abs(slip) > threshold
        if previous_normal is None:  # predict the normal impulses by the step without static friction
            outcome = _step(M, force, W, gaps, v, mu, h, kinetic, np.sign(slip), np.zeros(k), rule, tol)
            previous_normal, solves = np.zeros(k) if outcome is None else outcome[0][:, 0], solves + 1
        damping = np.where(kinetic, 0.0, mu * previous_normal / threshold)
        outcome = _step(M, force, W, gaps, v, mu, h, kinetic, np.sign(slip), damping, rule, tol)
        solves += 1
        if outcome is None:  # Painlevé's inconsistency in the kinetic phase: the full Coulomb step
            reactions, v, step_modes, count = moreau_jean_step_arrays(
                np.asarray(np.linalg.inv(M), dtype=np.float64), force, W, gaps, v, mu, h, rule, tol
            )
            solves, fallbacks = solves + 1, fallbacks + 1
        else:
            (reactions, v, count), step_modes = outcome, _labels(outcome[0], kinetic, np.sign(slip))
        ambiguous += count > 1
        q = q + h * v
        qs[i + 1], vs[i + 1], impulses[i] = q, v, reactions
        previous_normal = reactions[:, 0]
        modes.append(step_modes)
    statistics = TrajectoryStatistics(
        steps=steps,
        lcp_solves=solves,
        events=0,
        ambiguous_steps=ambiguous,
        wall_time=clock.perf_counter() - start,
        fallback_steps=fallbacks,
    )
    return RigidTrajectory(f"gholami[{rule}]", times, qs, vs, tuple(modes), impulses, statistics)


def _step(M, force, W, gaps, v, mu, dt, kinetic, direction, damping, rule, tol):
    """One step: ``(impulses (k, 2), v', number of solutions)``, ``None`` if the LCP has no solution."""
    W_n, W_t = W[0::2], W[1::2]
    A = M + (W_t.T * damping) @ W_t
    D = W_n.T - W_t.T * np.where(kinetic, mu * direction, 0.0)  # n × k: the direction of each normal impulse
    momentum = M @ v + dt * force
    solved = np.linalg.solve(A, np.column_stack([D, momentum]))
    A_inv_D, A_inv_p = solved[:, :-1], solved[:, -1]
    N, r = W_n @ A_inv_D, W_n @ A_inv_p + gaps / dt
    found = normal_impulse_lcp_solutions(N, r, tol)
    if not found:
        return None
    velocities = [A_inv_p + A_inv_D @ P for P in found]

    def lemke_reaction() -> NDArray[np.float64] | None:
        result = lemke(N, r)
        return result.z if result.solved else None

    chosen = select_solution(
        rule,
        [float(P.sum()) for P in found],
        [0.5 * float(u @ M @ u) for u in velocities],
        found,
        lemke_reaction,
    )
    P_n, v_new = found[chosen], velocities[chosen]
    P_t = np.where(kinetic, -mu * direction * P_n, -damping * (W_t @ v_new))
    return np.column_stack([P_n, P_t]), v_new, len(found)


def _labels(reactions: NDArray[np.float64], kinetic: NDArray[np.bool_], direction: NDArray) -> tuple:
    """``"F"`` without normal impulse, ``"S±"`` kinetic, ``"T"`` static."""
    scale = max(np.abs(reactions).max(), 1e-300)
    labels: list[ContactLabel] = []
    for (P_n, _), is_kinetic, s in zip(reactions, kinetic, direction):
        if P_n <= 1e-12 * scale:
            labels.append("F")
        else:
            labels.append(("S+" if s > 0 else "S-") if is_kinetic else "T")
    return tuple(labels)
