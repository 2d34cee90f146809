"""A user's copy of Preclik & Rüde's Eq. 22, written outside the package: the same force as the built-in
``spring_damper`` (``−k g_n − γ min(ġ_n, 0)`` in contact, none outside), built with the same defaults, so a study
run with it must give the built-in law's numbers."""

from typing import ClassVar

import jax.numpy as jnp

from regcontact import AbstractNormalLaw


class OwnSpringDamper(AbstractNormalLaw):
    """``λ_n = −k g_n − γ min(ġ_n, 0)`` for ``g_n ≤ 0``, zero above; ``k, γ ∝ α``."""

    PARAMETERS: ClassVar[dict[str, str]] = {"stiffness": "positive", "damping": "nonnegative"}
    EXPONENTS: ClassVar[dict[str, float]] = {"stiffness": 1.0, "damping": 1.0}
    LINEAR_STIFFNESS: ClassVar[str | None] = "stiffness"

    stiffness: jnp.ndarray
    damping: jnp.ndarray

    def __init__(self, stiffness=1.0, damping=1.0):
        self.stiffness = jnp.asarray(stiffness, float)
        self.damping = jnp.asarray(damping, float)

    def __call__(self, gap, gap_rate):
        return jnp.where(gap > 0.0, 0.0, -self.stiffness * gap - self.damping * jnp.minimum(gap_rate, 0.0))

    def elastic_energy(self, gap):
        return 0.5 * self.stiffness * jnp.maximum(-gap, 0.0) ** 2


class NeedsArguments(AbstractNormalLaw):
    """A law that cannot be built from its defaults (it has none)."""

    PARAMETERS: ClassVar[dict[str, str]] = {"stiffness": "positive"}
    EXPONENTS: ClassVar[dict[str, float]] = {"stiffness": 1.0}
    LINEAR_STIFFNESS: ClassVar[str | None] = "stiffness"

    stiffness: jnp.ndarray

    def __init__(self, stiffness):
        self.stiffness = jnp.asarray(stiffness, float)

    def __call__(self, gap, gap_rate):
        return jnp.maximum(-self.stiffness * gap, 0.0)

    def elastic_energy(self, gap):
        return 0.5 * self.stiffness * jnp.maximum(-gap, 0.0) ** 2
