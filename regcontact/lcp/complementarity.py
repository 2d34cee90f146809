"""Residuals of a linear complementarity problem, measured against the scale of its data.

The LCP(M, q) asks for ``z ≥ 0`` with ``w = M z + q ≥ 0`` and ``zᵀ w = 0``. A computed ``z`` carries
round-off of order ``ε (‖M‖ ‖z‖ + ‖q‖)`` however well or badly conditioned ``M`` is (the principal solve is
backward stable), so every check here is relative to that scale, never absolute.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["LCPResidual", "lcp_residual", "lcp_scale"]


def lcp_scale(M: ArrayLike, q: ArrayLike, z: ArrayLike) -> float:
    """Size of the terms that make up ``w = M z + q``: ``max(‖M‖∞ ‖z‖∞, ‖q‖∞)``; 1 when both vanish."""
    M, q, z = np.asarray(M, float), np.asarray(q, float), np.asarray(z, float)
    norm_M = np.abs(M).sum(axis=1).max(initial=0.0)
    scale = max(norm_M * np.abs(z).max(initial=0.0), np.abs(q).max(initial=0.0))
    return scale if scale > 0.0 else 1.0


@dataclass(frozen=True)
class LCPResidual:
    """How far ``z`` is from solving LCP(M, q), relative to :func:`lcp_scale`.

    ``infeasibility`` is the largest violation of ``z ≥ 0`` or ``w ≥ 0``, ``natural`` is
    ``max |min(z, w)|`` (the natural-map residual, zero exactly at solutions) and ``product`` is ``|zᵀ w|``
    divided by the scale times ``max(‖z‖∞, ‖w‖∞)``.
    """

    infeasibility: float
    natural: float
    product: float
    scale: float

    def within(self, tol: float) -> bool:
        """True when every relative residual is at most ``tol``."""
        return max(self.infeasibility, self.natural, self.product) <= tol


def lcp_residual(M: ArrayLike, q: ArrayLike, z: ArrayLike) -> LCPResidual:
    """Relative residuals of ``z`` for LCP(M, q), with ``w`` recomputed as ``M z + q``."""
    M, q, z = np.asarray(M, float), np.asarray(q, float), np.asarray(z, float)
    w: NDArray[np.float64] = M @ z + q
    scale = lcp_scale(M, q, z)
    infeasibility = max(0.0, -z.min(initial=0.0), -w.min(initial=0.0)) / scale
    natural = np.abs(np.minimum(z, w)).max(initial=0.0) / scale
    size = max(np.abs(z).max(initial=0.0), np.abs(w).max(initial=0.0), 1e-300)
    product = abs(float(z @ w)) / (scale * size)
    return LCPResidual(float(infeasibility), float(natural), float(product), scale)
