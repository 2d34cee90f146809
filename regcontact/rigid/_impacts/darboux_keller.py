"""Darboux–Keller impact of one contact: Coulomb friction during the impact, integrated in the normal impulse.

On the impact's time scale the finite forces drop out and the contact-space velocities (slip ``u``, normal ``v``)
move with the contact impulses only (Champneys & Várkonyi Eqs. 24–25, with the normal impulse ``I`` as the
clock, Stronge):

    du/dI = A τ + B,        dv/dI = B τ + C,        τ = dI_T/dI ∈ [−μ, μ],

``A = G_tt``, ``B = G_tn``, ``C = G_nn`` the contact's Delassus entries (:class:`~regcontact.systems.ContactSpaceForm`).
Coulomb's law fixes ``τ``: ``τ = −sμ`` while slipping with ``s = sgn u``; at ``u = 0`` the contact sticks
(``τ = −B/A``) when ``|B| ≤ μA``, and otherwise slips at once in the direction ``s = sgn B`` (the only one with
``s du/dI > 0``). Every phase is a straight line in the ``(u, v)`` plane; the corners are slip–stick
transitions and slip reversals (``s (B − sμA) < 0``: the slip runs through zero). This module follows the lines
exactly, corner by corner: the closed form of the map of Sec. 3.2 (Fig. 10).

*Compression* lasts while ``v < 0`` and ends at ``v = 0`` (impulse ``I_c``, normal work ``W_c = ∫ v dI < 0``).
An impact without collision (``v⁻ = 0``) starts one where ``dv/dI < 0`` at ``v = 0``: sliding with a negative
Painlevé parameter ``p^s = C − sμB``. *Restitution* then runs until

- ``"poisson"``: ``I = (1 + r) I_c`` (Poisson's impulse ratio ``r``);
- ``"energetic"``: the normal work of restitution is ``−r² W_c`` (Stronge's energetic coefficient ``r``);
- ``"newton"``: ``v = −r v⁻`` (Newton's kinematic coefficient; for an impact without collision the impact ends
  with compression).

An impact can have no end: sliding on with ``dv/dI ≤ 0`` and a slip that never reaches zero, the impulse grows
without bound (``status = "unbounded"``): the impact law gives no outcome, and says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from regcontact._argument_checks import FINITE, NONNEGATIVE, UNIT_INTERVAL, check_argument
from regcontact.rigid._checks import RESTITUTION, scalar
from regcontact.rigid._impacts.impact_process import ProcessOutcome, impact_process
from regcontact.rigid._impacts.without_collision import iwc_start
from regcontact.rigid._state import ContactState, as_contact_state
from regcontact.systems.system import AbstractSystem

__all__ = [
    "RESTITUTION_LAWS",
    "RestitutionLaw",
    "ImpactOutcome",
    "check_impact_arguments",
    "ImpactPhase",
    "contact_space_energy",
    "darboux_keller",
    "darboux_keller_map",
]

RestitutionLaw = Literal["poisson", "energetic", "newton"]
RESTITUTION_LAWS: tuple[RestitutionLaw, ...] = ("poisson", "energetic", "newton")
PhaseKind = Literal["S+", "S-", "T"]
Stage = Literal["compression", "restitution"]

#: Phases at most: every corner is a slip–stick change or a reversal, and a straight line has at most two.
MAX_PHASES = 16


@dataclass(frozen=True)
class ImpactPhase:
    """One straight piece of the impact: the contact's mode (``"S+"``, ``"S-"`` slip, ``"T"`` stick), the stage,
    and the normal impulse ``I`` and velocities ``(u, v)`` where it starts and ends."""

    mode: PhaseKind
    stage: Stage
    start_impulse: float
    end_impulse: float
    start: tuple[float, float]
    end: tuple[float, float]


@dataclass(frozen=True)
class ImpactOutcome:
    """The velocities after the impact ``(u⁺, v⁺)``, the impulses ``(I_N, I_T)``, the compression impulse, the
    phases in order, and ``status``: ``"ended"``, ``"no_impact"`` (the contact separates or rests without an
    impulse) or ``"unbounded"`` (no finite impulse ends the impact)."""

    u: float
    v: float
    normal_impulse: float
    tangential_impulse: float
    compression_impulse: float
    phases: tuple[ImpactPhase, ...]
    status: Literal["ended", "no_impact", "unbounded"]

    @property
    def modes(self) -> tuple[PhaseKind, ...]:
        """The modes of the phases, in order (``("S+", "T")``: slip, then stick)."""
        return tuple(phase.mode for phase in self.phases)


def _rates(mode: PhaseKind, A: float, B: float, C: float, mu: float) -> tuple[float, float, float]:
    """``(du/dI, dv/dI, dI_T/dI)`` in a mode."""
    if mode == "T":
        return 0.0, C - B * B / A, -B / A
    s = 1.0 if mode == "S+" else -1.0
    return B - s * mu * A, C - s * mu * B, -s * mu


def _mode(u: float, A: float, B: float, mu: float, zero: float) -> PhaseKind:
    """The mode at slip ``u``: its sign, or at ``u = 0`` stick if the cone holds it, else slip along ``sgn B``."""
    if u > zero:
        return "S+"
    if u < -zero:
        return "S-"
    if abs(B) <= mu * A:
        return "T"
    return "S+" if B > 0 else "S-"


def _work_root(v: float, dv: float, work_left: float) -> float:
    """The smallest ``ΔI ≥ 0`` with ``v ΔI + ½ dv ΔI² = work_left`` (``inf`` if none)."""
    if dv == 0.0:
        return work_left / v if v > 0 else math.inf
    disc = v * v + 2.0 * dv * work_left
    if disc < 0:
        return math.inf
    roots = [(-v + sign * math.sqrt(disc)) / dv for sign in (1.0, -1.0)]
    ahead = [root for root in roots if root >= 0]
    return min(ahead) if ahead else math.inf


def check_impact_arguments(
    A: float, B: float, C: float, mu: float, restitution: float, law: RestitutionLaw | None = None
) -> None:
    """``ValueError`` in one line unless ``(A, B, C)`` is finite and positive definite (``A > 0``, ``AC > B²``),
    ``μ`` is a finite number ``≥ 0``, the restitution is in ``[0, 1]`` and ``law`` (if given) is a restitution law.
    A finite ``μ`` as large as a float gets is fine; ``μ = inf`` is refused (its limit, stick wherever the slip
    can be stopped, is not this map's business)."""
    A, B, C = (scalar(name, value, FINITE) for name, value in (("A", A), ("B", B), ("C", C)))
    if not (A > 0 and A * C > B * B):
        raise ValueError(f"A = {A}, B = {B}, C = {C}: the Delassus matrix [[A, B], [B, C]] must be positive definite")
    scalar("mu", mu, NONNEGATIVE)
    scalar("restitution", restitution, RESTITUTION)
    if law is not None and law not in RESTITUTION_LAWS:
        raise ValueError(f"law = {law!r}: expected one of {', '.join(RESTITUTION_LAWS)}")


def darboux_keller_map(
    A: float,
    B: float,
    C: float,
    mu: float,
    u: float,
    v: float,
    restitution: float = 0.0,
    law: RestitutionLaw = "poisson",
    tol: float = 1e-12,
) -> ImpactOutcome:
    """The impact of one contact in contact-space form (``A > 0``, ``AC > B²``, ``μ ≥ 0``) from ``(u⁻, v⁻)``,
    ``v⁻ ≤ 0``, with restitution coefficient ``r`` in ``[0, 1]`` of the ``law`` (module docstring).

    Velocities count as zero below ``tol`` (in ``(0, 1)``) times the incoming speed ``max(|u⁻|, |v⁻|)``. Every
    argument must be finite: ``ValueError`` naming the first that is not.
    """
    check_impact_arguments(A, B, C, mu, restitution, law)
    A, B, C, mu, restitution = (float(x) for x in (A, B, C, mu, restitution))
    u, v = scalar("u", u, FINITE), scalar("v", v, FINITE)
    tol = scalar("tol", tol, UNIT_INTERVAL)
    return impact_map(A, B, C, mu, u, v, restitution, law, tol)


def impact_map(
    A: float,
    B: float,
    C: float,
    mu: float,
    u: float,
    v: float,
    restitution: float,
    law: RestitutionLaw,
    tol: float = 1e-12,
) -> ImpactOutcome:
    """:func:`darboux_keller_map` without its argument checks, for callers that checked them once and map many
    velocities (the bounce map's direction scan)."""
    speed = max(abs(u), abs(v))
    zero = tol * speed
    if v > zero:
        raise ValueError(f"v = {v}: the contact separates, no impact (expected v ≤ 0)")
    v = min(v, 0.0) if v < -zero else 0.0
    incoming_v = v
    I = T = work = 0.0
    compression_impulse: float | None = None
    compression_work = 0.0
    phases: list[ImpactPhase] = []
    mode = _mode(u, A, B, mu, zero)
    if v == 0.0 and _rates(mode, A, B, C, mu)[1] >= 0:
        return ImpactOutcome(u, 0.0, 0.0, 0.0, 0.0, (), "no_impact")
    for _ in range(MAX_PHASES):
        du, dv, dT = _rates(mode, A, B, C, mu)
        stage: Stage = "compression" if compression_impulse is None else "restitution"
        steps = {"slip ends": math.inf, "stage ends": math.inf}
        if (mode == "S+" and u > 0 > du) or (mode == "S-" and u < 0 < du):  # the slip runs down to zero
            steps["slip ends"] = -u / du
        if stage == "compression":
            if dv > 0:
                steps["stage ends"] = -v / dv if v < 0 else 0.0
        elif law == "poisson":
            steps["stage ends"] = (1.0 + restitution) * compression_impulse - I  # type: ignore[operator]
        elif law == "newton":
            target = -restitution * incoming_v
            if dv > 0:
                steps["stage ends"] = max((target - v) / dv, 0.0)
        else:
            steps["stage ends"] = _work_root(v, dv, compression_work * (1.0 - restitution**2) - work)
        event = min(steps, key=lambda name: steps[name])
        step = steps[event]
        if not math.isfinite(step):
            phases.append(ImpactPhase(mode, stage, I, math.inf, (u, v), (math.nan, math.nan)))
            return ImpactOutcome(math.nan, math.nan, math.inf, math.nan, math.nan, tuple(phases), "unbounded")
        start = (u, v)
        work += v * step + 0.5 * dv * step * step
        I, T = I + step, T + dT * step
        u = 0.0 if event == "slip ends" else u + du * step
        v = 0.0 if (event == "stage ends" and stage == "compression") else v + dv * step
        phases.append(ImpactPhase(mode, stage, I - step, I, start, (u, v)))
        if event == "stage ends":
            if stage == "compression":
                compression_impulse, compression_work = I, work
            # Newton ends an impact without collision with its compression; Poisson's r = 0 restitutes nothing
            ends = stage == "restitution" or (law == "newton" and incoming_v == 0.0)
            if ends or (law == "poisson" and restitution == 0.0):
                return ImpactOutcome(u, v, I, T, float(compression_impulse or 0.0), _merged(phases), "ended")
        mode = _mode(u, A, B, mu, zero) if event == "slip ends" else mode
    raise RuntimeError(f"the impact did not end within {MAX_PHASES} phases")  # pragma: no cover - bounded above


def _merged(phases: list[ImpactPhase]) -> tuple[ImpactPhase, ...]:
    """Phases without the empty ones (a stage that ends where it starts)."""
    return tuple(phase for phase in phases if phase.end_impulse > phase.start_impulse)


def contact_space_energy(A: float, B: float, C: float, u: float, v: float) -> float:
    """``½ [u v] [[A, B], [B, C]]⁻¹ [u v]ᵀ``: the kinetic energy the contact's velocities carry."""
    M = np.linalg.inv(np.array([[A, B], [B, C]]))
    w = np.array([u, v])
    return 0.5 * float(w @ M @ w)


def darboux_keller(
    state: ContactState | AbstractSystem,
    restitution: float = 0.0,
    law: RestitutionLaw = "poisson",
    tol: float = 1e-9,
    case: str | None = None,
) -> tuple[ImpactOutcome | ProcessOutcome, NDArray[np.float64]]:
    """The Darboux–Keller impact at the closed contacts of a state (a system: at its initial state), ``|g_n| ≤
    tol`` of its length, and the generalised velocity after it, ``v⁺ = v + M⁻¹ Wᵀ P``.

    One closed contact: the map (:func:`darboux_keller_map`) of its contact-space form (``A = G_tt``,
    ``B = G_tn``, ``C = G_nn``, ``u = ġ_t``, ``v = ġ_n``), an :class:`ImpactOutcome`. Several: how the normal
    impulses share the impact is not fixed by Coulomb's law and a restitution coefficient; it depends on the
    contacts' compliances. For ``restitution = 0`` they are shared as by equal linear dampers in the contacts, the
    limit of Preclik & Rüde's law (:func:`~regcontact.rigid.compliant_limit` with friction
    faster than the impact), integrated with Coulomb friction until the contacts come to rest
    (:func:`~regcontact.rigid.impact_process`; a :class:`~regcontact.rigid.impact_process.
    ProcessOutcome`); a positive restitution needs a compliance model (``compliant_limit``) and is refused.

    Impacts without collision (:mod:`~regcontact.rigid._impacts.without_collision`): one closed contact at
    ``v⁻ = 0`` is the map's (an impulse if ``p < 0``, else ``status = "no_impact"``); several, none approaching,
    start from a seed at the contacts ``case`` marks ``"I"`` (``"IF"``, ``"FI"``, ``"II"``; ``None``: the one
    consistent case). ``ValueError`` in one line where several closed contacts have no impact (none approaches
    or presses itself in), several cases are possible and ``case`` is not given, or for arguments out of range.
    """
    check_argument("restitution", restitution, RESTITUTION)
    check_argument("tol", tol, UNIT_INTERVAL)
    if law not in RESTITUTION_LAWS:
        raise ValueError(f"law = {law!r}: expected one of {', '.join(RESTITUTION_LAWS)}")
    state = as_contact_state(state)
    closed = np.flatnonzero(np.abs(state.gaps) <= tol * state.gap_scale)
    w = state.contact_velocity
    if closed.size == 0:
        raise ValueError(f"darboux_keller: every contact is open (g_n = {state.gaps}): no impact")
    impulses = np.zeros((state.num_contacts, 2))
    G = state.delassus
    if closed.size == 1:
        i = int(closed[0])
        n, t = 2 * i, 2 * i + 1
        (v, u) = w[i]
        outcome = darboux_keller_map(G[t, t], G[t, n], G[n, n], float(state.mu[i]), u, v, restitution, law)
        impulses[i] = outcome.normal_impulse, outcome.tangential_impulse
        return outcome, state.velocity_after(impulses)
    if restitution != 0.0:
        raise ValueError(
            f"darboux_keller: restitution = {restitution} at {closed.size} closed contacts: how a restitution is "
            "shared needs the contacts' compliances (use the compliant_limit impact law with a contact model)"
        )
    rows = np.column_stack([2 * closed, 2 * closed + 1]).reshape(-1)
    G_closed = G[np.ix_(rows, rows)]
    start, growth = iwc_start(G_closed, state.mu[closed], w[closed], tol * state.velocity_scale, case, "darboux_keller")
    rates = np.diag(G_closed)[0::2] if growth is None else np.concatenate([np.diag(G_closed)[0::2], growth])
    process = impact_process(G_closed, state.mu[closed], start, _equal_dampers, "coulomb", rates=rates, decays=True)
    impulses[closed] = process.impulses
    velocity = w.copy()
    # an impact without collision ends where its impulses take the unseeded velocities
    velocity[closed] = (
        process.velocity if growth is None else w[closed] + (G_closed @ process.impulses.reshape(-1)).reshape(-1, 2)
    )
    return ProcessOutcome(velocity, impulses, process.ended, process.segments), state.velocity_after(impulses)


def _equal_dampers(gaps: NDArray[np.float64], rates: NDArray[np.float64]) -> NDArray[np.float64]:
    """Unit linear dampers on approach, ``λ_n = −min(ġ_n, 0)`` in closed contacts: how several contacts share a
    plastic impact (only the ratio of the dampers matters)."""
    return np.where(gaps > 0, 0.0, -np.minimum(rates, 0.0))
