"""Dense output of a step as a polynomial in the local time ``s = (t − t0) / (t1 − t0)``.

Collocation (Radau IIA) and Rosenbrock (Rodas) methods both deliver, with each step, a polynomial

    u(s) = y0 + Σ_{k=1..d} β_k s^k,        u(0) = y0,

that diffrax uses for ``SaveAt(ts=...)``, dense solutions and the root finding of events.
"""

from __future__ import annotations

import jax.numpy as jnp
import jax.tree_util as jtu
from diffrax import AbstractLocalInterpolation
from jaxtyping import Array, PyTree, Shaped

__all__ = ["PolynomialInterpolation"]


class PolynomialInterpolation(AbstractLocalInterpolation):
    """``y(t0 + s (t1 − t0)) = y0 + Σ_k coeffs[k−1] s^k`` on one step.

    ``coeffs`` has ``y0``'s structure with a leading axis of length ``d`` (lowest power first).
    """

    t0: Shaped[Array, ""]  # type: ignore[misc]  # an equinox AbstractVar/ClassVar override, which mypy reads as a clash
    t1: Shaped[Array, ""]  # type: ignore[misc]  # an equinox AbstractVar/ClassVar override, which mypy reads as a clash
    y0: PyTree[Array]
    coeffs: PyTree[Array]

    def evaluate(self, t0, t1=None, left: bool = True) -> PyTree[Array]:
        del left
        if t1 is not None:
            return jtu.tree_map(lambda a, b: b - a, self.evaluate(t0), self.evaluate(t1))
        s = (t0 - self.t0) / (self.t1 - self.t0)

        def horner(y0, coeffs):
            acc = jnp.zeros_like(y0)
            for beta in coeffs[::-1]:
                acc = (acc + beta) * s
            return y0 + acc

        return jtu.tree_map(horner, self.y0, self.coeffs)
