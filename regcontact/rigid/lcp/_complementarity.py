"""Residuals of a linear complementarity problem, measured against the scale of its data.

The LCP(M, q) asks for ``z ≥ 0`` with ``w = M z + q ≥ 0`` and ``zᵀ w = 0``. A computed ``z`` carries
round-off of order ``ε (‖M‖ ‖z‖ + ‖q‖)`` in ``w`` however well or badly conditioned ``M`` is (the principal
solve is backward stable), so every check here is relative to that scale, never absolute. ``z`` and ``w`` have
different units when ``‖M‖ ≠ 1``; ``z`` is compared in the units of ``w`` as ``‖M‖∞ z``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["LCPResidual", "clip_round_off", "lcp_residual", "lcp_scale", "solutions_coincide"]


def _norm(M: NDArray[np.float64]) -> float:
    """``‖M‖∞``, or 1 for the zero matrix (then ``z`` and ``w`` share no scale and ``z`` is taken as is)."""
    norm = float(np.abs(M).sum(axis=1).max(initial=0.0))
    return norm if norm > 0.0 else 1.0


def lcp_scale(M: ArrayLike, q: ArrayLike, z: ArrayLike) -> float:
    """Size of the terms that make up ``w = M z + q``: ``max(‖M‖∞ ‖z‖∞, ‖q‖∞)``; 1 when both vanish."""
    M, q, z = np.asarray(M, float), np.asarray(q, float), np.asarray(z, float)
    scale = max(_norm(M) * np.abs(z).max(initial=0.0), np.abs(q).max(initial=0.0))
    return scale if scale > 0.0 else 1.0


@dataclass(frozen=True)
class LCPResidual:
    """How far ``z`` is from solving LCP(M, q), relative to :func:`lcp_scale` (``s``).

    With ``ẑ = ‖M‖∞ z``: ``infeasibility`` is the largest violation of ``ẑ ≥ 0`` or ``w ≥ 0`` over ``s``,
    ``natural`` is ``max |min(ẑ, w)| / s`` (the natural-map residual, zero exactly at solutions) and
    ``product`` is ``|ẑᵀ w| / s²``. All three are a few ulps for a correctly computed solution.
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
    z_hat = _norm(M) * z
    infeasibility = max(0.0, -z_hat.min(initial=0.0), -w.min(initial=0.0)) / scale
    natural = np.abs(np.minimum(z_hat, w)).max(initial=0.0) / scale
    product = abs(float(z_hat / scale @ (w / scale)))
    return LCPResidual(float(infeasibility), float(natural), float(product), scale)


def solutions_coincide(a: ArrayLike, b: ArrayLike, tol: float, scale: float, accuracy: ArrayLike | None = None) -> bool:
    """Whether two computed solutions are the same point: equal up to ``tol`` relative to their size or to
    ``scale`` (the typical size of a solution), whichever is larger, and, component by component, up to
    ``accuracy`` (the two points' round-off added, where known). A degenerate solution is reached from several
    index sets, each with its own round-off."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    size = max(np.abs(a).max(initial=0.0), np.abs(b).max(initial=0.0), scale)
    if accuracy is None:
        return bool(np.abs(a - b).max(initial=0.0) <= tol * size)
    return bool(np.all(np.abs(a - b) <= tol * size + np.asarray(accuracy, float)))


def clip_round_off(M: ArrayLike, q: ArrayLike, z: ArrayLike, tol: float) -> NDArray[np.float64]:
    """``z`` with its negative entries set to zero where they are round-off: above ``−tol`` times the scale
    of ``z`` (:func:`lcp_scale` over ``‖M‖∞``). Larger negative entries are left for the residual to flag."""
    M, z = np.asarray(M, float), np.asarray(z, float)
    z_scale = lcp_scale(M, q, z) / _norm(M)
    return np.where((z < 0) & (z >= -tol * z_scale), 0.0, z)
