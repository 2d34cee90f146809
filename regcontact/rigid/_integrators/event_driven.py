"""Event-driven integration with index sets (Leine & Brogliato Sec. 2): smooth segments, located events, LCPs.

Between events the contact modes are fixed (one per contact: ``"F"`` free, ``"T"`` sticking, ``"S±"`` sliding)
and the motion is a smooth ODE: the reactions solve the mode's equations

    F: λ = 0,     T: g̈_n = 0, g̈_t = 0,     S±: g̈_n = 0, λ_t = ∓μ λ_n        (g̈ = G λ + W M⁻¹ h + Ẇ v)

(the least-squares, minimum-norm reactions where they are statically indeterminate: the two-point rod sticking
flat), and ``M v̇ = h + Wᵀ λ``, ``q̇ = v`` is integrated by scipy's ``solve_ivp`` (DOP853, ``rtol``, ``atol``).
The segment ends at the first event, located by ``solve_ivp``'s root finder on the dense output (so event times
are as accurate as the integration, ``rtol``):

- a free contact's gap ``g_n`` reaching 0 from above → impact;
- a closed contact's ``λ_n`` reaching 0 → detachment;
- a sliding contact's slip ``ġ_t`` reaching 0 → stick test;
- a sticking contact's ``μ λ_n − |λ_t|`` reaching 0 → slip onset.

At every restart (the start, each event) the state is first projected onto the closed contacts (``g_n = 0`` by
one linearised step on ``q``; ``ġ_n = 0``, and ``ġ_t = 0`` where it is below ``tol`` of the velocity scale, by
the ``M``-orthogonal projection of ``v``) so the index sets are exact, then:

1. a closed contact approaching (``ġ_n < 0``) is an impact, resolved by the ``impact_law`` (an
   :class:`~regcontact.rigid.AbstractImpactLaw`): :class:`~regcontact.rigid.NewtonImpact` the impact LCP (Newton
   restitution, Coulomb friction, over every closed contact), :class:`~regcontact.rigid.DarbouxKellerImpact`
   Coulomb friction during the impact (Poisson restitution), :class:`~regcontact.rigid.CompliantLimitImpact` the
   impact law a compliant contact model converges to as α → ∞; where the law admits several outcomes,
   ``selection`` picks one;
2. the force-acceleration LCP (:func:`~regcontact.rigid.force_acceleration`, Eqs. 2.9–2.11)
   gives the new modes. If it has no solution (Painlevé's inconsistency), the impact law's impact without
   collision (tangential impact) is applied — for :class:`~regcontact.rigid.NewtonImpact` a non-zero solution of
   the impulse-velocity LCP with ``e = 0``, for the laws that integrate the impact their process started at the
   impacting contacts of each consistent case — and step 2 is repeated from the new velocity.

*Indeterminacy* (several solutions): ``selection`` decides, ``"painleve"`` (default) taking the smallest total
normal reaction ``Σ λ_n`` (the zero force if admissible: lift-off rather than contact; the smallest non-zero
impulse of an impact without collision) and ``"least_energy"`` the smallest rate of kinetic energy
``vᵀ (h + Wᵀ λ)`` for forces (the most dissipative) and the smallest kinetic energy after an impulse. Ties go to
the other criterion. At a detachment or slip-onset event the solution that changes the event's contact is
preferred (the old mode has its reaction on the boundary, and continuing in it would end the next segment at
once); if the LCP offers none (the boundary solutions coincide to round-off), the contact is switched by hand:
to ``"F"``, or to sliding against the friction force. ``"lemke"`` is not offered here: it is a rule for a time
step's LCP.

numpy and scipy on the host: the contact problems have a few unknowns and the segments are sequential (see
:mod:`regcontact.rigid._integrators.trajectory`).
"""

from __future__ import annotations

import time as clock
from typing import cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact._argument_checks import FINITE, POSITIVE, UNIT_INTERVAL, check_argument
from regcontact.rigid._checks import at_least
from regcontact.rigid._formulations.force_acceleration import force_acceleration
from regcontact.rigid._formulations.solutions import ContactLabel
from regcontact.rigid._impacts.impact_law import AbstractImpactLaw, NewtonImpact, RigidImpact
from regcontact.rigid._integrators.trajectory import (
    EventKind,
    RigidEvent,
    RigidTrajectory,
    TrajectoryStatistics,
    check_positive,
)
from regcontact.rigid._state import ContactState, SystemSnapshots
from regcontact.systems.system import AbstractSystem, check_is_system

__all__ = ["event_driven"]

INDETERMINACY_RULES = ("painleve", "least_energy")
#: The default impact law: the impact LCP with ``e = 0`` (an immutable module, shared).
PLASTIC_IMPACT = NewtonImpact()


def event_driven(
    system: AbstractSystem,
    t_end: float,
    selection: str = "painleve",
    impact_law: AbstractImpactLaw = PLASTIC_IMPACT,
    q0: ArrayLike | None = None,
    v0: ArrayLike | None = None,
    rtol: float = 1e-10,
    atol: float = 1e-12,
    tol: float = 1e-7,
    max_events: int = 10_000,
    sample_times: ArrayLike | None = None,
) -> RigidTrajectory:
    """Integrate ``system`` from ``(q0, v0)`` (default: its initial state) to ``t_end``, event by event.

    ``impact_law`` resolves impacts (an :class:`~regcontact.rigid.AbstractImpactLaw`; default the impact LCP
    with ``e = 0``); ``selection`` picks among several solutions (module docstring); ``rtol``, ``atol`` the
    integration's (and so the event times') tolerances; ``tol`` the relative level below which gaps and contact
    velocities count as zero at a restart.
    Samples are ``solve_ivp``'s steps; at an impulsive event ``times`` repeats, the two samples being the states
    before and after. ``sample_times`` adds samples at those times (read off each segment's dense output, as
    accurate as the integration), for comparison on a common grid. ``RuntimeError`` after ``max_events`` events
    (an accumulation of impacts), or where a free contact ends a segment below the ground (an accumulation whose
    rebounds fell below the velocity tolerance: the run stops rather than pass through the ground). Arguments are
    checked first (``ValueError`` in one line: finite states, ``0 < rtol, tol < 1``, ``atol > 0``, ``max_events`` an
    integer ``≥ 0``; ``TypeError`` for an ``impact_law`` that is no :class:`~regcontact.rigid.AbstractImpactLaw`).
    """
    check_is_system("system", system)
    t_end = check_positive("t_end", t_end)
    check_argument("rtol", rtol, UNIT_INTERVAL)
    check_argument("atol", atol, POSITIVE)
    check_argument("tol", tol, UNIT_INTERVAL)
    check_argument("max_events", max_events, at_least(0))
    for name, value in (("q0", q0), ("v0", v0), ("sample_times", sample_times)):
        check_argument(name, None if value is None else np.asarray(value, dtype=float), FINITE)
    if not isinstance(impact_law, AbstractImpactLaw):
        raise TypeError(f"impact_law = {impact_law!r}: expected an AbstractImpactLaw (NewtonImpact(), …)")
    if selection not in INDETERMINACY_RULES:
        raise ValueError(f"selection = {selection!r}: expected one of {', '.join(INDETERMINACY_RULES)}")
    snapshots = SystemSnapshots(system)
    k = snapshots.num_contacts
    q = snapshots.initial_state[0] if q0 is None else np.asarray(q0, dtype=float)
    v = snapshots.initial_state[1] if v0 is None else np.asarray(v0, dtype=float)
    run = _Run(snapshots, impact_law, selection, tol, rtol, atol)
    extra = np.unique(np.asarray([] if sample_times is None else sample_times, dtype=float))
    times, qs, vs = [0.0], [q], [v]
    modes: list[tuple[ContactLabel, ...]] = []
    impulses: list[NDArray[np.float64]] = []
    events: list[RigidEvent] = []
    t, trigger = 0.0, None
    segments = rhs_calls = 0
    start = clock.perf_counter()
    while t < t_end:
        if len(events) > max_events:
            raise RuntimeError(f"more than max_events = {max_events} events before t = {t:.6g}")
        q, v, segment_modes, impulse, restart_events = run.restart(t, q, v, trigger)
        events.extend(restart_events)
        if restart_events:  # an impulse: the state after it, at the same time
            times.append(t)
            qs.append(q)
            vs.append(v)
            modes.append(segment_modes)
            impulses.append(impulse)
        segments += 1
        sol, calls = run.segment(t, t_end, q, v, segment_modes)
        rhs_calls += calls
        ended = [i for i, hit in enumerate(sol.t_events) if hit.size]
        if ended:
            index = min(ended, key=lambda i: sol.t_events[i][0])
            t_event, y = float(sol.t_events[index][0]), sol.y_events[index][0]
            kind, contact = run.event_names[index]
            trigger = (kind, contact)
        else:
            t_event, y, trigger = float(sol.t[-1]), sol.y[:, -1], None
        run.check_free_gaps(t_event, y, segment_modes)
        inside = sol.t < t_event
        steps, states = sol.t[inside][1:], sol.y[:, inside][:, 1:]
        wanted = extra[(extra > t) & (extra < t_event)]
        if wanted.size:
            steps = np.concatenate([steps, wanted])
            states = np.column_stack([states, sol.sol(wanted)])
            order = np.argsort(steps, kind="stable")
            steps, states = steps[order], states[:, order]
        for time_, y_ in zip(np.append(steps, t_event), np.column_stack([states, y]).T):
            times.append(float(time_))
            qs.append(y_[: q.shape[0]])
            vs.append(y_[q.shape[0] :])
            modes.append(segment_modes)
            impulses.append(np.zeros((k, 2)))
        t, q, v = t_event, y[: q.shape[0]].copy(), y[q.shape[0] :].copy()
        if trigger is not None and trigger[0] != "impact":  # impacts are recorded at the restart, with the impulse
            events.append(RigidEvent(t, cast(EventKind, trigger[0]), trigger[1], np.zeros((k, 2)), segment_modes))
    statistics = TrajectoryStatistics(
        steps=segments,
        lcp_solves=run.lcp_solves,
        events=len(events),
        ambiguous_steps=run.ambiguous,
        wall_time=clock.perf_counter() - start,
        rhs_evaluations=rhs_calls,
    )
    return RigidTrajectory(
        f"event_driven[{selection}]",
        np.array(times),
        np.array(qs),
        np.array(vs),
        tuple(modes),
        np.array(impulses).reshape(-1, k, 2),
        statistics,
        tuple(events),
    )


class _Run:
    """The pieces of one event-driven run: restarts (projection, impacts, force LCP) and smooth segments."""

    def __init__(
        self,
        snapshots: SystemSnapshots,
        impact_law: AbstractImpactLaw,
        selection: str,
        tol: float,
        rtol: float,
        atol: float,
    ):
        self.snapshots, self.impact_law, self.selection, self.tol = snapshots, impact_law, selection, tol
        self.rtol, self.atol = rtol, atol
        self.lcp_solves = self.ambiguous = 0
        self.event_names: list[tuple[str, int]] = []
        q0, v0 = snapshots.initial_state
        state = snapshots(q0, v0, 0.0)
        # A velocity of the problem's own size: the larger of the initial contact velocities and √(L |g̈_free|).
        acceleration = np.abs(state.free_acceleration).max()
        self.velocity_unit = max(state.velocity_scale, np.sqrt(snapshots.length_scale * acceleration), 1e-300)

    # -- restarts ---------------------------------------------------------------------------------------------

    def project(self, t: float, q: NDArray, v: NDArray) -> tuple[NDArray, NDArray]:
        """Closed contacts onto ``g_n = 0``; their small normal (and tangential) velocities onto zero."""
        M, _, W, _, gaps = self.snapshots.arrays(q, v, t)
        closed = np.abs(gaps) <= self.tol * self.snapshots.length_scale
        if not closed.any():
            return q, v
        W_n = W[0::2][closed]
        M_inv = np.linalg.inv(M)
        q = q - M_inv @ W_n.T @ np.linalg.lstsq(W_n @ M_inv @ W_n.T, gaps[closed], rcond=None)[0]
        M, _, W, _, gaps = self.snapshots.arrays(q, v, t)
        rates = (W @ v).reshape(-1, 2)
        small = np.abs(rates) <= self.tol * self.velocity_unit
        small[~(np.abs(gaps) <= self.tol * self.snapshots.length_scale)] = False
        small[:, 1] &= small[:, 0]
        rows = W[small.reshape(-1)]
        if rows.size:
            v = v - M_inv @ rows.T @ np.linalg.lstsq(rows @ M_inv @ rows.T, rows @ v, rcond=None)[0]
            v = np.where(np.abs(v) <= 1e-13 * self.velocity_unit, 0.0, v)  # at rest is exactly at rest
        return q, v

    def restart(
        self, t: float, q: NDArray, v: NDArray, trigger: tuple[str, int] | None
    ) -> tuple[NDArray, NDArray, tuple[ContactLabel, ...], NDArray, list[RigidEvent]]:
        """``(q, v, modes, impulse applied, events)`` at a restart."""
        k = self.snapshots.num_contacts
        total = np.zeros((k, 2))
        events: list[RigidEvent] = []
        for _ in range(4):
            q, v = self.project(t, q, v)
            state = self.snapshots(q, v, t)
            rates = state.contact_velocity
            closed = np.abs(state.gaps) <= self.tol * self.snapshots.length_scale
            approaching = closed & (rates[:, 0] < -self.tol * self.velocity_unit)
            if approaching.any():
                reactions, v, labels = self.impact(state)
                total = total + reactions
                contact = int(np.flatnonzero(approaching)[0])
                events.append(RigidEvent(t, "impact", contact, reactions, labels))
                continue
            forces = force_acceleration(state, self.tol)
            self.lcp_solves += 1
            if len(forces) == 0 and forces.isolated:
                impulse = self.impulse_without_collision(state)
                v, total = impulse.velocity, total + impulse.impulses
                events.append(RigidEvent(t, "impact_without_collision", None, impulse.impulses, impulse.modes))
                continue
            return q, v, self.choose_modes(state, forces, trigger), total, events
        raise RuntimeError(f"no consistent contact mode after repeated impulses at t = {t:.6g}")

    def impact(self, state: ContactState) -> tuple[NDArray, NDArray, tuple[ContactLabel, ...]]:
        """``(impulses (k, 2), v⁺, modes after)`` of an impact under the run's impact law (the rule picks among
        several outcomes)."""
        outcomes = self.impact_law(state, self.tol)
        self.lcp_solves += 1
        if not outcomes:
            raise RuntimeError(f"{type(self.impact_law).__name__} gave no outcome of the impact")
        self.ambiguous += len(outcomes) > 1
        normal = np.array([o.impulses[:, 0].sum() for o in outcomes])
        energy = np.array([o.kinetic_energy for o in outcomes])
        chosen = outcomes[_pick(normal, energy, self.selection)]
        return chosen.impulses, chosen.velocity, chosen.modes

    def impulse_without_collision(self, state: ContactState) -> RigidImpact:
        """The outcome of the impact law's impact without collision the rule picks, at a state with no consistent
        force."""
        candidates = self.impact_law.without_collision(state, self.tol)
        self.lcp_solves += 1
        if not candidates:
            raise RuntimeError(
                f"{type(self.impact_law).__name__} gives no impact without collision at an inconsistent state"
            )
        self.ambiguous += len(candidates) > 1
        normal = np.array([o.impulses[:, 0].sum() for o in candidates])
        energy = np.array([o.kinetic_energy for o in candidates])
        return candidates[_pick(normal, energy, self.selection)]

    def choose_modes(self, state: ContactState, forces, trigger) -> tuple[ContactLabel, ...]:
        """The modes of the force solution the rule picks, preferring a change at the triggering contact."""
        solutions = list(forces)
        if not solutions:  # only continua (degenerate data): keep the contacts closed as they are
            return tuple("T" if i in forces.index_sets.tangential_rest else "F" for i in range(state.num_contacts))
        if trigger is not None and trigger[0] in ("detachment", "slip_onset"):
            kind, contact = trigger
            wanted = ("F",) if kind == "detachment" else ("S+", "S-")
            changed = [s for s in solutions if s.modes[contact] in wanted]
            if changed:
                solutions = changed
            else:
                modes = list(solutions[0].modes)
                if kind == "detachment":
                    modes[contact] = "F"
                else:
                    modes[contact] = "S+" if solutions[0].reactions[contact, 1] < 0 else "S-"
                return tuple(modes)
        self.ambiguous += len(solutions) > 1
        normal = np.array([s.reactions[:, 0].sum() for s in solutions])
        power = np.array(
            [
                float(state.velocity @ (state.applied_force + state.jacobian_matrix.T @ s.reactions.reshape(-1)))
                for s in solutions
            ]
        )
        return solutions[_pick(normal, power, self.selection)].modes

    # -- smooth segments --------------------------------------------------------------------------------------

    def check_free_gaps(self, t: float, y: NDArray, modes: tuple[ContactLabel, ...]) -> None:
        """``RuntimeError`` where a contact free in the segment ends it below the ground (deeper than ``tol``
        lengths): its impact was not found, as at an accumulation of impacts (a Zeno point) whose rebounds fall below
        the velocity tolerance. The run stops there rather than go on through the ground."""
        n = y.shape[0] // 2
        gaps = self.snapshots.arrays(y[:n], y[n:], t)[4]
        depth = self.tol * self.snapshots.length_scale
        below = [i for i, mode in enumerate(modes) if mode == "F" and gaps[i] < -depth]
        if below:
            i = below[0]
            raise RuntimeError(
                f"contact {i} is free but at g_n = {gaps[i]:.3g} at t = {t:.6g}: its impact was missed, as at an "
                "accumulation of impacts (a Zeno point); end the run before it (t_end) or use a time-stepping "
                "integrator (moreau_jean)"
            )

    def reactions(self, t: float, q: NDArray, v: NDArray, modes: tuple[ContactLabel, ...]):
        """``(λ (k, 2), v̇, ġ (k, 2))`` of the mode's equations at ``(q, v, t)``."""
        M, h, W, rates, _ = self.snapshots.arrays(q, v, t)
        k = len(modes)
        M_inv = np.linalg.inv(M)
        response = M_inv @ W.T
        G, b = W @ response, W @ (M_inv @ h) + rates
        A, r = np.zeros((2 * k, 2 * k)), np.zeros(2 * k)
        for i, mode in enumerate(modes):
            n, t_ = 2 * i, 2 * i + 1
            if mode == "F":
                A[n, n] = A[t_, t_] = 1.0
                continue
            A[n], r[n] = G[n], -b[n]
            if mode == "T":
                A[t_], r[t_] = G[t_], -b[t_]
            else:
                mu = self.snapshots.mu[i]
                A[t_, t_], A[t_, n] = 1.0, (mu if mode == "S+" else -mu)
        lam = np.linalg.lstsq(A, r, rcond=None)[0]
        acceleration = M_inv @ h + response @ lam
        return lam.reshape(k, 2), acceleration, (W @ v).reshape(k, 2)

    def segment(self, t: float, t_end: float, q: NDArray, v: NDArray, modes: tuple[ContactLabel, ...]):
        """``solve_ivp`` from ``t`` with fixed ``modes`` until ``t_end`` or the first event.

        A free contact leaving the ground starts at ``g_n = 0``, itself a root of its impact event: where the first
        step already reaches its return, the root finder can return the start. Such a segment is integrated again
        with that contact's event at ``g_n = 1e-13`` of the length scale (an event time changed by that over the
        speed) and a first step of a tenth of the contact's estimated flight ``2 ġ_n/(−g̈_n)``, so that a step ends
        while it is up."""
        lifting: set[int] = set()
        while True:
            sol, calls = self._segment(t, t_end, q, v, modes, lifting)
            started = {
                i
                for (kind, i), hit in zip(self.event_names, sol.t_events)
                if kind == "impact" and hit.size and hit[0] == t and i not in lifting
            }
            if not started:
                return sol, calls
            lifting |= started

    def _segment(
        self, t: float, t_end: float, q: NDArray, v: NDArray, modes: tuple[ContactLabel, ...], lifting: set[int]
    ):
        from scipy.integrate import solve_ivp  # imported here: importing the package need not wait for SciPy

        n = q.shape[0]
        calls = [0]
        offset = 1e-13 * self.snapshots.length_scale
        first_step = None
        if lifting:
            _, acceleration, rates = self.reactions(t, q, v, modes)
            W = self.snapshots.arrays(q, v, t)[2]
            falls = [(rates[i, 0], -(W[2 * i] @ acceleration)) for i in lifting]
            flights = [2.0 * rate / fall for rate, fall in falls if rate > 0 and fall > 0]
            first_step = 0.1 * min(flights) if flights else None

        def rhs(time, y):
            calls[0] += 1
            return np.concatenate([y[n:], self.reactions(time, y[:n], y[n:], modes)[1]])

        events, self.event_names = [], []
        for i, mode in enumerate(modes):
            if mode == "F":
                shift = offset if i in lifting else 0.0
                gap = lambda time, y, i=i, shift=shift: self.snapshots.arrays(y[:n], y[n:], time)[4][i] - shift  # noqa: E731
                events.append(_event(gap, -1))
                self.event_names.append(("impact", i))
                continue
            events.append(_event(lambda time, y, i=i: self.reactions(time, y[:n], y[n:], modes)[0][i, 0], -1))
            self.event_names.append(("detachment", i))
            if mode == "T":
                mu = self.snapshots.mu[i]

                def cone(time, y, i=i, mu=mu):
                    lam = self.reactions(time, y[:n], y[n:], modes)[0][i]
                    return mu * lam[0] - abs(lam[1])

                events.append(_event(cone, -1))
                self.event_names.append(("slip_onset", i))
            else:
                events.append(
                    _event(
                        lambda time, y, i=i: self.reactions(time, y[:n], y[n:], modes)[2][i, 1],
                        -1 if mode == "S+" else 1,
                    )
                )
                self.event_names.append(("stick_test", i))
        sol = solve_ivp(
            rhs,
            (t, t_end),
            np.concatenate([q, v]),
            method="DOP853",
            rtol=self.rtol,
            atol=self.atol,
            events=events,
            dense_output=True,
            first_step=first_step,
        )
        return sol, calls[0]


def _event(function, direction: int):
    """A terminal ``solve_ivp`` event crossing zero in ``direction``."""
    function.terminal = True
    function.direction = direction
    return function


def _pick(first: NDArray, second: NDArray, selection: str) -> int:
    """Smallest ``first`` (``"painleve"``) or ``second`` (``"least_energy"``), ties to the other."""
    primary, secondary = (first, second) if selection == "painleve" else (second, first)
    scale = max(np.abs(primary).max(), 1e-300)
    ties = np.flatnonzero(primary <= primary.min() + 1e-9 * scale)
    return int(ties[np.argmin(secondary[ties])])
