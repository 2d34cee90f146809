"""When the sliding rod has no force solution: Eqs. 10–12 and Appendix A of Preclik & Rüde.

For the rod sliding left (``ġ_t < 0``) in contact at rest in the normal direction, the force-acceleration
problem reduces to the scalar ``A λ_n − b ≥ 0 ⊥ λ_n ≥ 0`` (Eq. 11) with

    A(φ, μ) = 1/m + l²/(4I) cos²φ − μ l²/(4I) sin φ cos φ           (Eq. 10)
    b       = −(f_y/m + (l/2) sin φ ω² − (l/2) cos φ τ/I).

With ``A < 0`` there is no solution if ``b > 0`` and two if ``b < 0``; ``b < 0`` for ``ω = 0`` exactly when
``τ < 2 f_y I / (m l cos φ)`` (Eq. 12). ``A`` is smallest at ``tan φ* = 1/μ + √(1/μ² + 1)`` (Eq. 26),
whatever ``m, l, I``; the smallest ``μ`` for which some angle gives ``A < 0`` solves ``A(φ*(μ), μ) = 0``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["critical_angle", "critical_friction", "painleve_coefficient", "torque_threshold"]


def painleve_coefficient(
    phi: ArrayLike, mu: ArrayLike, mass: float = 1.0, length: float = 2.0, inertia: float | None = None
) -> NDArray[np.float64]:
    """``A(φ, μ)`` of Eq. 10 (slender rod ``I = m l²/12`` by default); broadcasts over ``phi`` and ``mu``."""
    inertia = mass * length**2 / 12.0 if inertia is None else inertia
    phi, mu = np.asarray(phi, dtype=float), np.asarray(mu, dtype=float)
    k = length**2 / (4.0 * inertia)
    return 1.0 / mass + k * np.cos(phi) ** 2 - mu * k * np.sin(phi) * np.cos(phi)


def critical_angle(mu: ArrayLike) -> NDArray[np.float64]:
    """``φ*(μ)`` of Eq. 26, the angle in ``(0, π/2)`` minimising ``A`` for friction ``μ > 0``."""
    mu = np.asarray(mu, dtype=float)
    return np.arctan(1.0 / mu + np.sqrt(1.0 / mu**2 + 1.0))


def critical_friction(mass: float = 1.0, length: float = 2.0, inertia: float | None = None) -> float:
    """Smallest ``μ`` with ``A(φ*(μ), μ) ≤ 0``: the onset of the paradox, found by root bracketing.

    ``A(φ*(μ), μ)`` decreases from ``1/m`` (at ``μ → 0``) without bound, so a root exists and is unique.
    """
    from scipy.optimize import brentq  # imported here: importing the package need not wait for SciPy

    def minimum_of_A(mu: float) -> float:
        return float(painleve_coefficient(critical_angle(mu), mu, mass, length, inertia))

    upper = 1.0
    while minimum_of_A(upper) > 0.0:
        upper *= 2.0
    return brentq(minimum_of_A, 1e-12, upper, xtol=1e-15, rtol=4 * np.finfo(float).eps)


def torque_threshold(
    phi: float, mass: float = 1.0, length: float = 2.0, inertia: float | None = None, gravity: float = 1.0
) -> float:
    """``2 f_y I / (m l cos φ)`` with ``f_y = −m g``: for ``ω = 0``, ``b < 0`` exactly below this torque (Eq. 12)."""
    inertia = mass * length**2 / 12.0 if inertia is None else inertia
    return 2.0 * (-mass * gravity) * inertia / (mass * length * np.cos(phi))
