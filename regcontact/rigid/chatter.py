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

from dataclasses import dataclass

import numpy as np

from regcontact.rigid.darboux_keller import RestitutionLaw, darboux_keller_map

__all__ = ["ChatterDirection", "bounce", "chatter_directions", "reverse_chatter_possible"]


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


def _ratio_map(a, b, A, B, C, mu, r, law, rho: float) -> tuple[float, float]:
    """``(R(ρ), e(ρ))`` from the incoming velocity ``(ρ, −1)``."""
    u, v = bounce(a, b, A, B, C, mu, rho, -1.0, r, law)
    return u / (-v), -v


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
    """Every direction ``ρ*`` in ``[−span, span]`` that the bounce map keeps (``R(ρ*) = ρ*``, found where
    ``R(ρ) − ρ`` changes sign on a grid, refined by bisection), with ``e`` and ``R'`` there."""
    grid = np.linspace(-span, span, samples)
    residual = np.array([_ratio_map(a, b, A, B, C, mu, r, law, rho)[0] - rho for rho in grid])
    found: list[ChatterDirection] = []
    for i in np.flatnonzero(np.sign(residual[:-1]) * np.sign(residual[1:]) <= 0):
        low, high = grid[i], grid[i + 1]
        f_low = residual[i]
        if f_low == 0.0:
            high = low
        for _ in range(60):
            middle = 0.5 * (low + high)
            f_mid = _ratio_map(a, b, A, B, C, mu, r, law, middle)[0] - middle
            if (f_mid > 0) == (f_low > 0) and f_mid != 0.0:
                low, f_low = middle, f_mid
            else:
                high = middle
        rho = 0.5 * (low + high)
        image, e = _ratio_map(a, b, A, B, C, mu, r, law, rho)
        if abs(image - rho) > 1e-6 * max(1.0, abs(rho)):
            continue  # a jump of R across the grid cell, not a fixed point
        h = 1e-6 * max(1.0, abs(rho))
        slope = (
            _ratio_map(a, b, A, B, C, mu, r, law, rho + h)[0] - _ratio_map(a, b, A, B, C, mu, r, law, rho - h)[0]
        ) / (2 * h)
        if not found or abs(found[-1].ratio - rho) > 1e-9 * max(1.0, abs(rho)):
            found.append(ChatterDirection(float(rho), float(e), float(slope)))
    return found


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
