"""Champneys' rod (``m = 1``, ``ℓ = 1``, ``r² = 1/3``) in slip, written out by hand as an independent reference for
the rigid slip: ``λ_N = −b/p`` and the angle's equation of motion."""

from __future__ import annotations

import numpy as np


def slip_equations(rod):
    """``(normal, field)`` of a Painlevé rod in slip: ``normal(θ, ω) = (p, b)``, the Painlevé parameter and the free
    normal acceleration, and ``field(t, (θ, ω))`` for SciPy's ``solve_ivp``."""
    mu, torque, gravity = float(rod.mu), float(rod.torque), float(rod.gravity)

    def normal(theta, omega):
        painleve = 1 + 3 * np.cos(theta) ** 2 - 3 * mu * np.sin(theta) * np.cos(theta)
        free = -gravity - 3 * np.cos(theta) * torque + omega**2 * np.sin(theta)
        return painleve, free

    def field(t, x):
        theta, omega = x
        painleve, free = normal(theta, omega)
        force = -free / painleve
        return [omega, 3 * (torque - np.cos(theta) * force + mu * np.sin(theta) * force)]

    return normal, field
