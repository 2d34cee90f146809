"""Isotropic friction for a contact with a 2-vector slip: a planar friction law applied along the slip (the
friction disk).

A planar law gives the tangential force ``λ_t(ġ_t, λ_n, μ)`` of a slip rate ``ġ_t``; it is odd in ``ġ_t`` and
opposes it. Its isotropic extension to a slip ``u ∈ ℝ²`` is the same law on the slip speed, along the slip:

    λ_T = λ_t(|u|, λ_n, μ) · u / |u|        (λ_T = 0 at u = 0).

For viscous-limited Coulomb friction (:class:`~regcontact.contact.friction_laws.ViscousCoulomb`) this is the viscous
force ``−γ_t u`` capped at ``μ λ_n`` in magnitude, ``λ_T = −min(γ_t, μ λ_n / |u|) u``: the friction disk, whose
force lies in the disk ``|λ_T| ≤ μ λ_n`` and opposes the slip, ``λ_T · u ≤ 0``. With the slip along one axis
(``u = (u₁, 0)``) it is the planar law on ``u₁`` (``u₁/|u₁| = ±1`` exactly and the law is odd; measured: equal
to one unit in the last place).
"""

from __future__ import annotations

import jax.numpy as jnp
from jaxtyping import Array, Float

from regcontact.contact.friction_laws import AbstractFrictionLaw

__all__ = ["friction_disk"]


def friction_disk(
    law: AbstractFrictionLaw, slip: Float[Array, "... 2"], normal_force: Float[Array, "..."], mu: Float[Array, "..."]
) -> Float[Array, "... 2"]:
    """``λ_T = λ_t(|u|, λ_n, μ) u/|u|`` of every contact (module docstring); differentiable at ``u = 0``."""
    moving = jnp.any(slip != 0, axis=-1)
    resting = jnp.where(moving[..., None], slip, 1.0)  # no 0/0 in the derivative of the norm at rest
    # hypot(u₁, 0) is |u₁| exactly, so u/|u| is exactly ±1 along one axis
    speed = jnp.where(moving, jnp.hypot(resting[..., 0], resting[..., 1]), 0.0)
    direction = jnp.where(moving[..., None], resting / jnp.where(moving, speed, 1.0)[..., None], 0.0)
    return law(speed, normal_force, mu)[..., None] * direction
