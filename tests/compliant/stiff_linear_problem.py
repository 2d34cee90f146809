"""The stiff linear test problem (Prothero–Robinson), ``y' = −L (y − sin t) + cos t``, ``y(0) = 1``: its exact
solution ``sin t + e^(−L t)`` has a transient as fast as ``L`` is large, then lies on the slow manifold
``y = sin t``. Shared by the tests of the Radau IIA solvers."""

from __future__ import annotations

import diffrax
import equinox as eqx
import jax.numpy as jnp
import numpy as np


def prothero_robinson(t, y, L):
    """The vector field."""
    return -L * (y - jnp.sin(t)) + jnp.cos(t)


def prothero_robinson_exact(t, L):
    """The exact solution from ``y(0) = 1``."""
    return np.sin(t) + np.exp(-L * t)


@eqx.filter_jit
def solve_linear(solver, L, rtol):
    """``solver`` on ``[0, 2]`` from ``y(0) = 1`` at ``rtol`` (``atol = rtol/100``), every step saved."""
    return diffrax.diffeqsolve(
        diffrax.ODETerm(prothero_robinson),
        solver,
        0.0,
        2.0,
        None,
        jnp.array([1.0]),
        args=L,
        saveat=diffrax.SaveAt(steps=True),
        stepsize_controller=diffrax.PIDController(rtol=rtol, atol=rtol * 1e-2),
        max_steps=1000,
    )
