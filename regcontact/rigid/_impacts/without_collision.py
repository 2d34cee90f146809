"""Impacts without collision (IWC): an impulse at contacts that touch without approaching (``v⁻ = 0``).

A slipping contact whose Painlevé parameter ``p = C − sμB`` is negative presses itself in: on the impact scale
``dv/dI = p < 0``, so a normal impulse, once started, drives its normal velocity negative and compression begins
at once. Where rigid slip has no consistent force (``b < 0``, Painlevé's inconsistent case) such an impulse must
happen; where ``b > 0`` it competes with lift-off (the indeterminate case), and which one happens is decided on
the compliant contact's fast scale (:func:`iwc_liftoff_velocity`).

With several contacts (Champneys & Várkonyi Sec. 6.3) an impulse may act at any non-empty subset of them while
the others lift off. ``p_ij``, the normal acceleration of contact ``i`` per unit normal force of contact ``j``
on its friction cone against its slip, is the Painlevé matrix (:func:`slip_painleve_matrix`); for two contacts the
cases are ``"IF"`` (impulse at contact 1, contact 2 lifts off: ``p₁₁ < 0 < p₂₁``), ``"FI"`` (``p₂₂ < 0 < p₁₂``)
and ``"II"`` (both, possible only where the cone of the columns ``p₁``, ``p₂`` meets the negative quadrant: a
necessary condition, not a sufficient one; the impact process decides). :func:`iwc_cases` lists the consistent
ones. The impact itself starts from a seed: the impacting contacts are given a normal approach
:data:`SEED` times the slip speed, the outcome being that far from the limit ``v⁻ → 0⁻``; the fast dynamics
grows from it exponentially (:func:`seeded_velocity`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact._argument_checks import FINITE, NONNEGATIVE, POSITIVE, UNIT_INTERVAL, check_argument
from regcontact.rigid._state import ContactState, as_contact_state
from regcontact.systems.system import AbstractSystem

__all__ = [
    "SEED",
    "IWCCases",
    "iwc_cases",
    "iwc_liftoff_velocity",
    "iwc_start",
    "slip_painleve_matrix",
    "realised_case",
    "seeded_velocity",
]

#: The seed of an impact without collision: the normal approach given to the impacting contacts, relative to the
#: largest slip speed.
SEED = 1e-10


def _slip_signs(G: NDArray, mu: NDArray, w: NDArray) -> NDArray:
    """Each contact's slip sign under its own normal impulse: its slip's sign, at zero slip the single-contact rule
    (stick, ``0``, where ``|B| ≤ μA``, else slip along ``sgn B``)."""
    k = mu.shape[0]
    signs = np.sign(w[:, 1])
    for j in range(k):
        if signs[j] == 0:
            A, B = G[2 * j + 1, 2 * j + 1], G[2 * j + 1, 2 * j]
            signs[j] = 0.0 if abs(B) <= mu[j] * A else np.sign(B)
    return signs


def slip_painleve_matrix(delassus: ArrayLike, mu: ArrayLike, velocity: ArrayLike) -> NDArray[np.float64]:
    """The Painlevé matrix ``P`` ``(k, k)`` of contacts with Delassus matrix ``delassus`` ``(2k, 2k)`` (normal and
    tangential rows interleaved), friction ``mu`` ``(k,)`` and contact velocities ``velocity`` ``(k, 2)`` (``v_n``,
    ``u_t``): ``P_ij = G_{n_i n_j} − s_j μ_j G_{n_i t_j}``, the normal acceleration of contact ``i`` per unit
    normal force of contact ``j`` slipping along ``s_j = sgn u_j``. A contact at zero slip takes the mode its own
    impulse gives it: slip along ``sgn G_{t_j n_j}`` outside its cone, else stick (its column is
    ``G_{n n_j} − G_{n t_j} G_{t_j n_j} / G_{t_j t_j}``). For one contact ``P = [[p]]``, ``p = C − sμB``."""
    G = np.asarray(delassus, dtype=float)
    mu_ = np.asarray(mu, dtype=float).reshape(-1)
    w = np.asarray(velocity, dtype=float).reshape(-1, 2)
    for name, value, rule in (("delassus", G, FINITE), ("mu", mu_, NONNEGATIVE), ("velocity", w, FINITE)):
        check_argument(name, value, rule)
    k = mu_.shape[0]
    if G.shape != (2 * k, 2 * k) or w.shape != (k, 2):
        raise ValueError(f"delassus {G.shape}, velocity {w.shape}: expected ({2 * k}, {2 * k}) and ({k}, 2)")
    signs = _slip_signs(G, mu_, w)
    P = np.empty((k, k))
    for j in range(k):
        n, t = 2 * j, 2 * j + 1
        tau = -signs[j] * mu_[j] if signs[j] != 0 else -G[t, n] / G[t, t]
        P[:, j] = G[0::2, n] + tau * G[0::2, t]
    return P


def _consistent(P: NDArray, impacting: tuple[int, ...]) -> bool:
    """Whether some impulses ``λ ≥ 0`` (not all zero) at the ``impacting`` contacts press each of them in
    (``(Pλ)_i < 0``) and lift every other one (``(Pλ)_j > 0``): a linear programme on the margin, whose optimum
    for one impacting contact ``s`` (``λ_s = 1``) is the smallest of ``−P_ss``, the ``P_js`` and 1."""
    k = P.shape[0]
    S = list(impacting)
    scale = max(float(np.abs(P).max()), 1e-300)
    if len(S) == 1:
        (s,) = S
        margin = min(-P[s, s], *(P[j, s] for j in range(k) if j != s), 1.0)
        return bool(margin > 1e-12 * scale)
    from scipy.optimize import linprog

    signs = np.array([1.0 if i in impacting else -1.0 for i in range(k)])  # rows: sign · (Pλ) + t ≤ 0
    # variables λ_S (≥ 0) and the margin t ≤ 1: maximise t with Σ λ = 1
    A_ub = np.column_stack([signs[:, None] * P[:, S], np.ones(k)])
    A_eq = np.concatenate([np.ones(len(S)), [0.0]])[None, :]
    bounds = [(0.0, None)] * len(S) + [(None, 1.0)]
    result = linprog(
        np.concatenate([np.zeros(len(S)), [-1.0]]), A_ub=A_ub, b_ub=np.zeros(k), A_eq=A_eq, b_eq=[1.0], bounds=bounds
    )
    return bool(result.status == 0 and -result.fun > 1e-12 * scale)


@dataclass(frozen=True)
class IWCCases:
    """The impacts without collision a state admits: the Painlevé matrix ``p`` of its closed contacts, the free
    normal accelerations ``b`` (finite forces, no reactions) and the consistent cases, each a string with ``"I"``
    (impulse) or ``"F"`` (lifts off) per closed contact in order (``"IF"``, ``"FI"``, ``"II"`` for two). A case
    with one impacting contact is consistent (Sec. 6.3's rigid conditions); one with several is only possible (a
    necessary condition): its impact process decides."""

    contacts: tuple[int, ...]
    p: NDArray[np.float64]
    b: NDArray[np.float64]
    cases: tuple[str, ...]


def _case_string(impacting: tuple[int, ...], k: int) -> str:
    return "".join("I" if i in impacting else "F" for i in range(k))


def cases_of(P: NDArray) -> tuple[str, ...]:
    """The consistent IWC cases of Painlevé matrix ``P`` (:class:`IWCCases`), one impacting contact first."""
    k = P.shape[0]
    subsets = [s for size in range(1, k + 1) for s in itertools.combinations(range(k), size)]
    return tuple(_case_string(s, k) for s in subsets if _consistent(P, s))


def iwc_cases(state: ContactState | AbstractSystem, tol: float = 1e-9) -> IWCCases:
    """The impacts without collision at the closed contacts of ``state`` (a
    :class:`~regcontact.rigid.ContactState` or a system at its initial state), ``|g_n| ≤ tol`` of its length, each
    at rest normally (``|v_n| ≤ tol`` of the velocity scale): :class:`IWCCases`. ``ValueError`` in one line if a
    closed contact approaches or separates (an ordinary impact, or none), or none is closed."""
    check_argument("tol", tol, UNIT_INTERVAL)
    state = as_contact_state(state)
    closed = np.flatnonzero(np.abs(state.gaps) <= tol * state.gap_scale)
    if closed.size == 0:
        raise ValueError(f"iwc_cases: every contact is open (g_n = {state.gaps})")
    w = state.contact_velocity[closed]
    moving = np.abs(w[:, 0]) > tol * state.velocity_scale
    if moving.any():
        raise ValueError(f"iwc_cases: closed contacts with v_n = {w[moving, 0]} ≠ 0: not an impact without collision")
    rows = np.column_stack([2 * closed, 2 * closed + 1]).reshape(-1)
    P = slip_painleve_matrix(
        state.delassus[np.ix_(rows, rows)], state.mu[closed], np.column_stack([0 * w[:, 0], w[:, 1]])
    )
    return IWCCases(tuple(int(i) for i in closed), P, state.free_acceleration[closed, 0].copy(), cases_of(P))


def seeded_velocity(G: NDArray, mu: NDArray, w: NDArray, case: str | None, where: str) -> tuple[NDArray, NDArray]:
    """The contact velocities ``w`` ``(k, 2)`` of contacts at rest normally with the impacting ones of ``case``
    seeded (a normal approach :data:`SEED` times the largest slip speed), and the impacting contacts' ``|p_ii|``
    (their growth rates on the impact scale, as ``C_ii`` are for an approach). ``case=None``: the one consistent
    case (:func:`cases_of`); ``ValueError`` in one line, starting with ``where``, if there is none, several, or
    ``case`` is not one of the consistent ones."""
    k = w.shape[0]
    P = slip_painleve_matrix(G, mu, np.column_stack([np.zeros(k), w[:, 1]]))
    consistent = cases_of(P)
    if not consistent:
        raise ValueError(
            f"{where}: no closed contact approaches (v_n < 0) or presses itself in (Painlevé matrix {P.tolist()}): "
            "no impact"
        )
    if case is None:
        if len(consistent) > 1:
            raise ValueError(f"{where}: impacts without collision {', '.join(consistent)} are possible: pass case=")
        case = consistent[0]
    if not (isinstance(case, str) and len(case) == k and set(case) <= {"I", "F"}):
        raise ValueError(f"case = {case!r}: expected 'I' or 'F' for each of the {k} closed contacts")
    if case not in consistent:
        raise ValueError(f"{where}: case {case!r} is not consistent (possible: {', '.join(consistent)})")
    impacting = np.array([c == "I" for c in case])
    speed = max(float(np.abs(w[:, 1]).max()), 1e-300)
    seeded = np.column_stack([np.where(impacting, -SEED * speed, 0.0), w[:, 1]])
    return seeded, np.abs(np.diag(P)[impacting])


def iwc_start(
    G: NDArray, mu: NDArray, w: NDArray, zero: float, case: str | None, where: str
) -> tuple[NDArray, NDArray | None]:
    """Where an impact of the closed contacts (Delassus ``G``, friction ``mu``, velocities ``w`` ``(k, 2)``)
    starts: ``w`` itself if one approaches (``v_n < −zero``; ``case`` unused), else an impact without collision
    at those at rest normally (``|v_n| ≤ zero``), seeded by :func:`seeded_velocity` with ``case`` over them, and
    their growth rates. ``ValueError`` in one line, starting with ``where``, where there is no impact."""
    if (w[:, 0] < -zero).any():
        return w, None
    rest = np.flatnonzero(np.abs(w[:, 0]) <= zero)
    if rest.size == 0:
        raise ValueError(f"{where}: no closed contact approaches (v_n < 0): no impact")
    rows = np.column_stack([2 * rest, 2 * rest + 1]).reshape(-1)
    seeded, growth = seeded_velocity(G[np.ix_(rows, rows)], mu[rest], w[rest], case, where)
    start = w.copy()
    start[rest] = seeded
    return start, growth


def realised_case(impulses: ArrayLike, rtol: float = 1e-6) -> str:
    """Which contacts carried a normal impulse (``"I"``, above ``rtol`` of the largest) and which did not
    (``"F"``), for impulses ``(k, 2)`` (normal, tangential): the case an impact process realised."""
    P_n = np.asarray(impulses, dtype=float).reshape(-1, 2)[:, 0]
    largest = float(np.abs(P_n).max(initial=0.0))
    return "".join("I" if value > rtol * largest and largest > 0 else "F" for value in P_n)


def iwc_liftoff_velocity(p: float, b: float, stiffness: float, damping: float) -> float:
    """The touch-down speed that separates an impact without collision from lift-off for one slipping contact with
    a linear spring and a damper on approach (:class:`~regcontact.contact.SpringDamper`) in Painlevé's
    indeterminate case, ``p < 0 < b`` (Hogan & Kristiansen's boundary).

    In contact, ``g̈ = b + p λ_n`` with ``λ_n = −k g − c ġ``: the slip equilibrium ``g* = b/(pk) < 0`` is a saddle
    (``p < 0`` turns the spring around), ``z̈ = |p|k z + |p|c ż`` for ``z = g − g*``, and its stable manifold
    ``ż = σ z``, ``σ = (|p|c − √(p²c² + 4|p|k))/2 < 0``, divides the states that lift off from those that dig in.
    A contact touching down at ``g = 0`` with ``ġ = −v`` digs in (IWC) for ``v > −σ g*`` and lifts off for
    ``v < −σ g*``: the returned ``v* = |σ| b/(|p| k)``. As ``k ∝ α``, ``c ∝ √α`` it vanishes as ``α^(−1/2)``:
    in the rigid limit a touch-down at any speed digs in, and a contact at rest lifts off.

    **Arguments:** ``p < 0``, ``b > 0`` (``ValueError`` otherwise), ``stiffness > 0``, ``damping ≥ 0``.
    """
    for name, value, rule in (
        ("b", b, POSITIVE),
        ("stiffness", stiffness, POSITIVE),
        ("damping", damping, NONNEGATIVE),
    ):
        check_argument(name, value, rule)
    if not float(p) < 0:
        raise ValueError(f"p = {p}: expected p < 0 (a contact that presses itself in)")
    a = abs(float(p))
    sigma = 0.5 * (a * damping - math.sqrt((a * damping) ** 2 + 4.0 * a * stiffness))
    return abs(sigma) * float(b) / (a * float(stiffness))
