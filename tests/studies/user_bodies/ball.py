"""A ball (a point mass) above flat ground, and an undamped spring: a body and a normal law defined outside the
package, for the studies that name them by path (``tests/studies/test_user_body.py``, ``docs/own-body.md``).

The ball's contact point is the point mass itself: ``q = (x, y)``, the ground is ``y = 0``, so
``g = (g_n, g_t) = (y, x)``, ``W = [[0, 1], [1, 0]]`` (constant, ``Ẇ v = 0``), ``M = m I`` and ``h = (0, −m g)``.
"""

from typing import ClassVar

import jax.numpy as jnp

from regcontact import AbstractNormalLaw, AbstractSystem
from regcontact._argument_checks import FINITE, NONNEGATIVE, POSITIVE, check_arguments


class Ball(AbstractSystem):
    """A point mass ``m`` at height ``height`` with velocity ``(vx0, vy0)``, friction coefficient ``mu``."""

    NUM_CONTACTS: ClassVar[int] = 1
    ARGUMENT_RULES: ClassVar[dict] = {
        "mass": POSITIVE,
        "gravity": FINITE,
        "mu": NONNEGATIVE,
        "height": NONNEGATIVE,
        "vx0": FINITE,
        "vy0": FINITE,
    }

    mass: jnp.ndarray
    gravity: jnp.ndarray
    mu: jnp.ndarray
    height: jnp.ndarray
    vx0: jnp.ndarray
    vy0: jnp.ndarray

    def __init__(self, vy0, mass=1.0, gravity=0.0, mu=0.5, height=0.0, vx0=0.0):
        check_arguments(self.ARGUMENT_RULES, mass=mass, gravity=gravity, mu=mu, height=height, vx0=vx0, vy0=vy0)
        self.mass, self.gravity, self.mu = (jnp.asarray(a, float) for a in (mass, gravity, mu))
        self.height, self.vx0, self.vy0 = (jnp.asarray(a, float) for a in (height, vx0, vy0))

    def mass_matrix(self, q):
        return self.mass * jnp.eye(2)

    def forces(self, q, v, t):
        return jnp.stack([jnp.zeros_like(self.mass), -self.mass * self.gravity])

    def gaps(self, q):
        return jnp.stack([q[1], q[0]])[None]

    def jacobians(self, q):
        return jnp.array([[[0.0, 1.0], [1.0, 0.0]]])

    def jacobian_rates(self, q, v):
        return jnp.zeros((1, 2))

    @property
    def friction_coefficients(self):
        return self.mu[None]

    def potential_energy(self, q):
        return self.mass * self.gravity * q[1]

    def initial_state(self):
        return jnp.stack([jnp.zeros_like(self.height), self.height]), jnp.stack([self.vx0, self.vy0])

    @property
    def length_scale(self):
        return jnp.asarray(1.0)


class LinearSpring(AbstractNormalLaw):
    """An undamped spring that never pulls, ``λ_n = max(0, −k g_n)``: a ball dropped on it bounces back with its
    speed (restitution 1), after half a period ``π √(m / k)``."""

    PARAMETERS: ClassVar[dict[str, str]] = {"stiffness": "positive"}
    EXPONENTS: ClassVar[dict[str, float]] = {"stiffness": 1.0}
    LINEAR_STIFFNESS: ClassVar[str | None] = "stiffness"

    stiffness: jnp.ndarray

    def __init__(self, stiffness=1.0):
        self.stiffness = jnp.asarray(stiffness, float)

    def __call__(self, gap, gap_rate):
        return jnp.maximum(-self.stiffness * gap, 0.0)

    def elastic_energy(self, gap):
        return 0.5 * self.stiffness * jnp.maximum(-gap, 0.0) ** 2
