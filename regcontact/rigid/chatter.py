"""Chatter and reverse chatter of one contact: the bounce map ``g = f ∘ i`` of Champneys & Várkonyi Sec. 3.3.

Late in a chattering sequence the normal velocities are small, and one bounce is the impact map ``i``
(:func:`~regcontact.rigid.darboux_keller.darboux_keller_map`) followed by a free flight ``f`` under the free
accelerations ``(a, b)``, ``b < 0`` (Eq. 28: flight time ``t = −2 v⁺/b``):

    f:  (u⁺, v⁺) ↦ (u⁺ − (2a/b) v⁺,  −v⁺).

Both maps are homogeneous of degree one in the velocities, so the sequence's direction ``ρ = u⁻/(−v⁻)`` follows a
map of its own, ``ρ ↦ R(ρ)``, and its size is multiplied at every bounce by the effective restitution
``e = v⁻_{n+1}/v⁻_n = v⁺/(−v⁻)`` (Eq. 29). A sequence that settles on a direction ``ρ*`` (a fixed point of ``R``)
chatters forward to a Zeno point when ``e(ρ*) < 1``; with ``e(ρ*) > 1`` it is a *reverse chatter*: run backwards
it accumulates at an instant from which a whole continuum of motions emerges. Without a slip–stick transition in
the impact ``e = r`` (Poisson and Newton exactly; the energetic law too where the slip does not change), so
``e > 1`` needs a stick or a reversal during the impact (Nordmark et al.).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from regcontact.rigid.darboux_keller import RestitutionLaw, darboux_keller_map

__all__ = [
    "ChatterDirection",
    "ChatterSequence",
    "bounce",
    "bounce_directions",
    "chatter_directions",
    "chatter_sequence",
    "reverse_chatter_possible",
]


def bounce(
    a: float, b: float, A: float, B: float, C: float, mu: float, u: float, v: float, r: float, law: RestitutionLaw
) -> tuple[float, float]:
    """``g(u⁻, v⁻)``: the impact, then the free flight to the next impact; ``(u⁻_{n+1}, v⁻_{n+1})``."""
    if not b < 0:
        raise ValueError(f"b = {b}: chatter needs a free normal acceleration towards the contact (b < 0)")
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


def bounce_directions(
    a: float, b: float, impact: Impact, span: float = 50.0, samples: int = 2001
) -> list[ChatterDirection]:
    """Every direction ``ρ*`` in ``[−span, span]`` that the bounce map of the impact law ``impact(u⁻, v⁻) → (u⁺,
    v⁺)`` (homogeneous of degree one) keeps under the free accelerations ``(a, b)``: ``R(ρ*) = ρ*``, found where
    ``R(ρ) − ρ`` changes sign on a grid and refined by bisection, with ``e`` and ``R'`` there."""
    if not b < 0:
        raise ValueError(f"b = {b}: chatter needs a free normal acceleration towards the contact (b < 0)")

    def ratio_map(rho: float) -> tuple[float, float]:
        """``(R(ρ), e(ρ))`` from the incoming velocity ``(ρ, −1)``."""
        u_plus, v_plus = impact(rho, -1.0)
        return (u_plus - (2.0 * a / b) * v_plus) / v_plus, v_plus

    grid = np.linspace(-span, span, samples)
    residual = np.array([ratio_map(rho)[0] - rho for rho in grid])
    found: list[ChatterDirection] = []
    for i in np.flatnonzero(np.sign(residual[:-1]) * np.sign(residual[1:]) <= 0):
        low, high = grid[i], grid[i + 1]
        f_low = residual[i]
        if f_low == 0.0:
            high = low
        for _ in range(60):
            middle = 0.5 * (low + high)
            f_mid = ratio_map(middle)[0] - middle
            if (f_mid > 0) == (f_low > 0) and f_mid != 0.0:
                low, f_low = middle, f_mid
            else:
                high = middle
        rho = 0.5 * (low + high)
        image, e = ratio_map(rho)
        if abs(image - rho) > 1e-6 * max(1.0, abs(rho)):
            continue  # a jump of R across the grid cell, not a fixed point
        h = 1e-6 * max(1.0, abs(rho))
        slope = (ratio_map(rho + h)[0] - ratio_map(rho - h)[0]) / (2 * h)
        if not found or abs(found[-1].ratio - rho) > 1e-9 * max(1.0, abs(rho)):
            found.append(ChatterDirection(float(rho), float(e), float(slope)))
    return found


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
    restitution ``r`` (``law``)."""

    def impact(u: float, v: float) -> tuple[float, float]:
        outcome = darboux_keller_map(A, B, C, mu, u, v, r, law)
        return outcome.u, outcome.v

    return bounce_directions(a, b, impact, span, samples)


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
    """Whether a kept direction has ``e > 1`` (:func:`chatter_directions` on ``samples`` grid points)."""
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
    if not b < 0:
        raise ValueError(f"b = {b}: chatter needs a free normal acceleration towards the contact (b < 0)")
    if not v < 0:
        raise ValueError(f"v = {v}: a chatter starts with an impact (v < 0)")
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
