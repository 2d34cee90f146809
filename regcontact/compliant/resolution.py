"""What float64 can resolve about a contact: the smallest gap and normal speed that are not round-off.

The gap ``g_n = y − (l/2) sin φ`` is a difference of two numbers of the size of the body, so its computed value
carries a round-off of about one unit in the last place of the body's length ``ℓ``: ``u ℓ`` with
``u = 2⁻⁵²``. Measured on the Painlevé rod started in contact at normal rest: for the first ~10⁻⁸ s the computed
gap jumps between ``0`` and ``−1.1e-16 = u ℓ / 2`` from step to step, while the true penetration ``b t²/2`` is
far below that. A sign test on such a gap is a coin toss, so every decision the solver takes on a gap
(lift-off events, touch-down and lift-off restarts) uses a threshold above it:

    ε_g = GAP_ROUNDOFF_ULPS · u · ℓ           (ℓ: the system's length scale; 32 ulps, ≈ 1.4e-14 for ℓ = 2)

and a normal speed counts as separating only above ``ε_v = GAP_ROUNDOFF_ULPS · u · Σ_j |W_nj v_j|``, the
round-off scale of ``ġ_n = W_n v`` (per contact).

What the threshold costs: an opening smaller than ``ε_g`` is not reported as a lift-off. Every shipped normal
law carries no force at ``g_n > 0`` while separating, so the force integrals do not depend on where between
``0`` and ``ε_g`` the opening is declared; only the reported time of the event moves, by ``ε_g / ġ_n``.

What it does not resolve: when the contact's own load-bearing penetration ``λ_n / k(α)`` is itself inside
``±ε_g``, the sign of the gap, hence whether the contact carries its load, is round-off, and no solver setting
helps (α ≳ 1e14 for the Table 1 rod): :mod:`regcontact.compliant.run_checks` reports such a run as unresolved.
"""

from __future__ import annotations

import jax.numpy as jnp
from jaxtyping import Array, Float

from regcontact.systems.system import AbstractSystem

__all__ = ["GAP_ROUNDOFF_ULPS", "gap_resolution", "normal_speed_resolution"]

#: The margin of the thresholds over one unit in the last place (observed noise: ≤ 1 ulp of ℓ).
GAP_ROUNDOFF_ULPS = 32.0

_EPS = float(jnp.finfo(jnp.float64).eps)


def gap_resolution(system: AbstractSystem) -> Float[Array, ""]:
    """``ε_g``: gaps within ``±ε_g`` of zero are indistinguishable from round-off."""
    return GAP_ROUNDOFF_ULPS * _EPS * system.length_scale


def normal_speed_resolution(system: AbstractSystem, q: Float[Array, " n"], v: Float[Array, " n"]) -> Float[Array, " k"]:
    """``ε_v`` of every contact: the round-off scale of the computed normal speed ``ġ_n = W_n v`` at ``(q, v)``."""
    return GAP_ROUNDOFF_ULPS * _EPS * jnp.sum(jnp.abs(system.jacobians(q)[:, 0, :] * v[None, :]), axis=-1)
