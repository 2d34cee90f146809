"""Chatter and reverse chatter of one contact: the bounce map ``g = f ∘ i`` of Champneys & Várkonyi Sec. 3.3.

Late in a chattering sequence the normal velocities are small, and one bounce is the impact map ``i``
(:func:`~regcontact.rigid.darboux_keller_map`) followed by a free flight ``f`` under the free
accelerations ``(a, b)``, ``b < 0`` (Eq. 28: flight time ``t = −2 v⁺/b``):

    f:  (u⁺, v⁺) ↦ (u⁺ − (2a/b) v⁺,  −v⁺).

Both maps are homogeneous of degree one in the velocities, so the sequence's direction ``ρ = u⁻/(−v⁻)`` follows a
map of its own, ``ρ ↦ R(ρ) = c + u⁺/v⁺`` with ``c = 2a/(−b)`` and ``(u⁺, v⁺) = i(ρ, −1)``, and its size is
multiplied at every bounce by the effective restitution ``e = v⁺/(−v⁻)`` (Eq. 29). A sequence that settles on a
direction ``ρ*`` (a fixed point of ``R``) chatters forward to a Zeno point when ``e(ρ*) < 1``; with ``e(ρ*) > 1``
it is a *reverse chatter*: run backwards it accumulates at an instant from which a whole continuum of motions
emerges.

**When ``e = r``.** Newton's law gives ``e = r`` by definition. Poisson's and the energetic law give it where the
impact runs on one straight line of the ``(I, v)`` plane: ``dv/dI = p`` the same through compression and
restitution, so no slip–stick transition *and* no slip reversal (a reversal turns ``p⁺ = C − μB`` into
``p⁻ = C + μB``; only ``μB = 0`` keeps it). In general, with ``p̄_c`` and ``p̄_r`` the means of ``dv/dI`` over the
impulse of compression and of restitution, ``−v⁻ = p̄_c I_c`` and Poisson's ``v⁺ = p̄_r r I_c`` give
``e = r p̄_r/p̄_c``; for the energetic law with each stage on one line (``W_c = −v⁻²/(2p_c)``, restitution work
``v⁺²/(2p_r) = r²|W_c|``) ``e = r √(p_r/p_c)``. A reversal from the steeper ``p`` to the shallower one lowers
``e`` below ``r``; ``e > 1`` needs ``p̄_r > p̄_c/r``: a stick or a reversal that makes compression slow
(Nordmark et al.).

**Where the kept directions lie** (:func:`direction_bracket`). Start from ``(ρ, −1)`` and let ``s = sgn ρ``,
``x = |ρ|``, ``p_s = C − sμB`` and ``k_s = μA − sB`` (the slip's deceleration per unit impulse). If ``p_s > 0``, an
impact that slips throughout ends at ``I = (1 + r)/p_s`` with ``v⁺ = r`` under all three laws, and the slip lasts
that long exactly when ``x ≥ x_s = max(k_s, 0)(1 + r)/p_s``: beyond ``x_s`` the map is
``R(ρ) = (ρ − s k_s(1 + r)/p_s)/r + c``, whose one fixed point ``(s k_s(1 + r)/p_s − c r)/(1 − r)`` counts if
it lies there. If ``p_s ≤ 0`` (the Painlevé direction; then ``k_s > 0`` by Eq. 11), the slip stops while the
contact still compresses and the impact goes on in stick (``u⁺ = 0``) or in a reversed slip that never stops
(``s u⁺ < 0``): ``s R(ρ) ≤ s c`` on the whole half-line, so a fixed point there has ``x ≤ s c``. Every kept
direction thus lies in a bounded interval whatever ``c``: ``ρ* = c`` itself (an impact ending in stick) can lie
anywhere. And since a fixed point with ``e ≠ r`` has the slip stop (then ``s R ≤ s c``), every direction with
``e > 1`` has ``|ρ*| ≤ |c|``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from regcontact._argument_checks import FINITE, POSITIVE, UNIT_INTERVAL, check_argument
from regcontact.rigid._checks import at_least, scalar
from regcontact.rigid._impacts.darboux_keller import (
    RESTITUTION_LAWS,
    RestitutionLaw,
    check_impact_arguments,
    darboux_keller_map,
    impact_map,
)

__all__ = [
    "ChatterDirection",
    "ChatterSequence",
    "bounce",
    "bounce_directions",
    "chatter_directions",
    "chatter_sequence",
    "direction_bracket",
    "reverse_chatter_possible",
]


def _check_accelerations(a: float, b: float) -> None:
    b = scalar("b", b, FINITE)
    scalar("a", a, FINITE)
    if not b < 0:
        raise ValueError(f"b = {b}: chatter needs a free normal acceleration towards the contact (b < 0)")


def bounce(
    a: float, b: float, A: float, B: float, C: float, mu: float, u: float, v: float, r: float, law: RestitutionLaw
) -> tuple[float, float]:
    """``g(u⁻, v⁻)``: the impact, then the free flight to the next impact; ``(u⁻_{n+1}, v⁻_{n+1})``."""
    _check_accelerations(a, b)
    outcome = darboux_keller_map(A, B, C, mu, u, v, r, law)
    return outcome.u - (2.0 * a / b) * outcome.v, -outcome.v


@dataclass(frozen=True)
class ChatterDirection:
    """A direction ``ρ* = u⁻/(−v⁻)`` that the bounce map keeps, with the effective restitution ``e`` there and
    ``slope = R'(ρ*)``: the direction attracts bounces forward in time where ``|slope| < 1``, backward where
    ``|slope| > 1``."""

    ratio: float
    restitution: float
    slope: float


Impact = Callable[[float, float], tuple[float, float]]


def _grid(low: float, high: float, span: float, samples: int) -> NDArray[np.float64]:
    """Directions to sample in ``[low, high]``: ``samples`` uniform in ``[−span, span]``, and beyond ``span``
    geometric (``samples // 4`` a decade) out to the ends."""
    core = np.linspace(-span, span, samples)
    parts = [core[(core >= low) & (core <= high)], np.array([low, high])]
    per_decade = max(samples // 4, 10)
    for end, sign in ((high, 1.0), (-low, -1.0)):
        if end > span:
            parts.append(sign * np.geomspace(span, end, math.ceil(per_decade * math.log10(end / span)) + 1))
    return np.unique(np.concatenate(parts))


def bounce_directions(
    a: float,
    b: float,
    impact: Impact,
    span: float = 50.0,
    samples: int = 2001,
    reach: tuple[float, float] | None = None,
) -> list[ChatterDirection]:
    """Every direction ``ρ*`` in ``reach`` (default ``[−span, span]``) that the bounce map of the impact law
    ``impact(u⁻, v⁻) → (u⁺, v⁺)`` (homogeneous of degree one) keeps under the free accelerations ``(a, b)``:
    ``R(ρ*) = ρ*``, found where ``R(ρ) − ρ`` changes sign on a grid (``samples`` points uniform on
    ``[−span, span]``, geometric beyond) and refined by bisection, with ``e`` and ``R'`` there. Two fixed points
    closer than a grid cell can be missed."""
    _check_accelerations(a, b)
    check_argument("span", span, POSITIVE)
    check_argument("samples", samples, at_least(2))
    low, high = (-span, span) if reach is None else reach
    check_argument("reach", np.array([low, high]), FINITE)
    if not low < high:
        raise ValueError(f"reach = {(low, high)}: expected an interval (low < high)")

    def ratio_map(rho: float) -> tuple[float, float]:
        """``(R(ρ), e(ρ))`` from the incoming velocity ``(ρ, −1)``."""
        u_plus, v_plus = impact(rho, -1.0)
        if not v_plus > 0:  # no flight follows (or the impact has no end): no direction
            return math.nan, v_plus
        return (u_plus - (2.0 * a / b) * v_plus) / v_plus, v_plus

    grid = _grid(float(low), float(high), float(span), int(samples))
    residual = np.array([ratio_map(rho)[0] - rho for rho in grid])
    found: list[ChatterDirection] = []
    for i in np.flatnonzero(np.sign(residual[:-1]) * np.sign(residual[1:]) <= 0):
        low_, high_ = grid[i], grid[i + 1]
        f_low = residual[i]
        if f_low == 0.0:
            high_ = low_
        for _ in range(60):
            middle = 0.5 * (low_ + high_)
            f_mid = ratio_map(middle)[0] - middle
            if (f_mid > 0) == (f_low > 0) and f_mid != 0.0:
                low_, f_low = middle, f_mid
            else:
                high_ = middle
        rho = 0.5 * (low_ + high_)
        image, e = ratio_map(rho)
        if abs(image - rho) > 1e-6 * max(1.0, abs(rho)):
            continue  # a jump of R across the grid cell, not a fixed point
        h = 1e-6 * max(1.0, abs(rho))
        slope = (ratio_map(rho + h)[0] - ratio_map(rho - h)[0]) / (2 * h)
        if not found or abs(found[-1].ratio - rho) > 1e-9 * max(1.0, abs(rho)):
            found.append(ChatterDirection(float(rho), float(e), float(slope)))
    return found


def direction_bracket(a: float, b: float, A: float, B: float, C: float, mu: float, r: float) -> tuple[float, float]:
    """An interval of ``ρ`` that holds every direction the Darboux–Keller bounce map keeps, under any of the three
    restitution laws (module docstring: ``x_s`` and the tail's fixed point where ``p_s > 0``, ``s c`` where
    ``p_s ≤ 0``), widened by 1 % and 1 so that a fixed point on its edge lies inside."""
    _check_accelerations(a, b)
    check_impact_arguments(A, B, C, mu, r)
    a, b, A, B, C, mu, r = (float(x) for x in (a, b, A, B, C, mu, r))
    c = 2.0 * a / -b
    reach = {}
    for s in (1.0, -1.0):
        p, k = C - s * mu * B, mu * A - s * B
        if p > 0:
            tail = max(k, 0.0) * (1.0 + r) / p
            if 0.0 < r < 1.0:  # the fixed point of R on the tail, where R is linear
                tail = max(tail, s * (s * k * (1.0 + r) / p - c * r) / (1.0 - r))
        else:
            tail = max(s * c, 0.0)
        reach[s] = 1.01 * tail + 1.0
    return -reach[-1.0], reach[1.0]


def chatter_directions(
    a: float,
    b: float,
    A: float,
    B: float,
    C: float,
    mu: float,
    r: float,
    law: RestitutionLaw = "energetic",
    span: float = 50.0,
    samples: int = 2001,
) -> list[ChatterDirection]:
    """:func:`bounce_directions` of the Darboux–Keller impact of the contact-space form ``(A, B, C)``, ``μ`` and
    restitution ``r`` (``law``), over the whole ``ρ`` line: the search runs over :func:`direction_bracket`
    (``span``, ``samples``: the grid's uniform part)."""
    if law not in RESTITUTION_LAWS:
        raise ValueError(f"law = {law!r}: expected one of {', '.join(RESTITUTION_LAWS)}")
    reach = direction_bracket(a, b, A, B, C, mu, r)
    a, b, A, B, C, mu, r = (float(x) for x in (a, b, A, B, C, mu, r))

    def impact(u: float, v: float) -> tuple[float, float]:
        outcome = impact_map(A, B, C, mu, u, v, r, law)  # the arguments are checked above, the velocities finite
        return outcome.u, outcome.v

    return bounce_directions(a, b, impact, span, samples, reach)


def reverse_chatter_possible(
    a: float,
    b: float,
    A: float,
    B: float,
    C: float,
    mu: float,
    r: float,
    law: RestitutionLaw = "energetic",
    samples: int = 2001,
) -> bool:
    """Whether a kept direction has ``e > 1`` (:func:`chatter_directions`, ``samples`` uniform grid points)."""
    return any(d.restitution > 1.0 for d in chatter_directions(a, b, A, B, C, mu, r, law, samples=samples))


@dataclass(frozen=True)
class ChatterSequence:
    """A forward chatter from touch-down: the impact times ``times`` (the first at 0), the velocities before each
    impact ``incoming`` ``(n, 2)`` (``u⁻, v⁻``), and the accumulation (Zeno) point: ``zeno_time`` and the slip
    ``zeno_slip`` the sequence tends to (the geometric tail of the last bounces added), or ``nan`` where the
    sequence does not accumulate (``e ≥ 1`` at the end)."""

    times: NDArray[np.float64]
    incoming: NDArray[np.float64]
    zeno_time: float
    zeno_slip: float


def chatter_sequence(
    a: float,
    b: float,
    impact: Callable[[float, float], tuple[float, float]],
    u: float,
    v: float,
    max_impacts: int = 400,
    tol: float = 1e-12,
) -> ChatterSequence:
    """Follow the bounce map from touch-down with ``(u⁻, v⁻)``, ``v⁻ < 0``: ``impact(u⁻, v⁻) → (u⁺, v⁺)``, then the
    free flight of Eq. 28 under ``(a, b)``, ``b < 0``, lasting ``−2v⁺/b`` (the slip moves by ``a`` times it), until
    the normal velocity is below ``tol`` of the first one; the Zeno point adds the rest of the geometric series
    with the last bounce's ratio ``e``: ``Σ_{j>n} t_j = t_n e/(1 − e)``, and likewise for the slip."""
    _check_accelerations(a, b)
    u, v = scalar("u", u, FINITE), scalar("v", v, FINITE)
    if not v < 0:
        raise ValueError(f"v = {v}: a chatter starts with an impact (v < 0)")
    check_argument("max_impacts", max_impacts, at_least(1))
    check_argument("tol", tol, UNIT_INTERVAL)
    t, first = 0.0, abs(v)
    times, incoming = [0.0], [(u, v)]
    flight = slip_step = ratio = float("nan")
    for _ in range(max_impacts):
        u_plus, v_plus = impact(u, v)
        flight = -2.0 * v_plus / b
        slip_step = a * flight
        ratio = v_plus / -v
        t, u, v = t + flight, u_plus + slip_step, -v_plus
        if v_plus <= tol * first:
            break
        times.append(t)
        incoming.append((u, v))
    tail = ratio / (1.0 - ratio) if ratio < 1.0 else float("nan")
    zeno_time = t + flight * tail if v_plus > tol * first else t
    zeno_slip = u + slip_step * tail if v_plus > tol * first else u
    return ChatterSequence(np.array(times), np.array(incoming), float(zeno_time), float(zeno_slip))
