"""Normal contact laws: the normal force λ_n as a pure function of the gap g_n and its rate ġ_n.

Each law is an equinox module whose fields are its parameters (JAX arrays), so a batch of laws is a pytree
with a leading batch axis and a new parameter value never recompiles. A law never pulls: λ_n ≥ 0 everywhere.
"""

from __future__ import annotations

from typing import ClassVar

import equinox as eqx
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float

__all__ = ["NORMAL_LAWS", "SpringDamper"]

Scalar = Float[Array, ""]


def _f64(a: ArrayLike) -> Scalar:
    return jnp.asarray(a, dtype=float)


class SpringDamper(eqx.Module):
    """Preclik & Rüde Eq. 22: a spring with damping on approach only.

        λ_n = 0                               if g_n > 0
        λ_n = −k g_n − γ_n min(ġ_n, 0)        otherwise

    Both terms are non-negative in contact, so the law is never adhesive; the damper dissipates only while the
    bodies approach, so a separating contact is a conservative spring. The force is continuous in (g_n, ġ_n);
    its derivative jumps on g_n = 0 and on ġ_n = 0.
    """

    #: Parameter name -> "positive" or "nonnegative" (what a config may give at α = 1).
    PARAMETERS: ClassVar[dict[str, str]] = {"stiffness": "positive", "damping": "nonnegative"}

    stiffness: Scalar
    damping: Scalar

    def __init__(self, stiffness: ArrayLike = 1.0, damping: ArrayLike = 1.0):
        self.stiffness = _f64(stiffness)
        self.damping = _f64(damping)

    def __call__(self, gap: Scalar, gap_rate: Scalar) -> Scalar:
        force = -self.stiffness * gap - self.damping * jnp.minimum(gap_rate, 0.0)
        return jnp.where(gap > 0.0, 0.0, force)


#: Normal laws by config name.
NORMAL_LAWS: dict[str, type[eqx.Module]] = {"spring_damper": SpringDamper}
