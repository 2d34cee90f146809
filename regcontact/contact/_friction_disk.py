"""Isotropic friction for a contact with a 2-vector slip: a planar friction law applied along the slip (the
friction disk; ``docs/spatial_contact.md``)."""

from __future__ import annotations

import jax.numpy as jnp
from jaxtyping import Array, Float

from regcontact.contact._friction_laws import AbstractFrictionLaw

__all__ = ["friction_disk"]


def friction_disk(
    law: AbstractFrictionLaw, slip: Float[Array, "... 2"], normal_force: Float[Array, "..."], mu: Float[Array, "..."]
) -> Float[Array, "... 2"]:
    """The tangential force of a planar friction law applied isotropically: ``λ_T = λ_t(|u|, λ_n, μ) u/|u|``
    (``0`` at ``u = 0``, where it is differentiable). For viscous Coulomb friction it is the friction disk,
    ``λ_T = −min(γ_t, μλ_n/|u|) u``; with the slip along one axis it is the planar law on that axis.

    Args:
        law: the planar friction law ``λ_t(ġ_t, λ_n, μ)``.
        slip: the slip velocities ``u`` of the contacts.
        normal_force: their normal forces ``λ_n``.
        mu: their friction coefficients.

    Returns:
        The tangential forces ``λ_T``, one 2-vector per contact.

    Examples:
        >>> import jax.numpy as jnp
        >>> from regcontact.contact import ViscousCoulomb, friction_disk
        >>> friction_disk(ViscousCoulomb(), jnp.array([3.0, 4.0]), jnp.array(1.0), jnp.array(0.5))
        Array([-0.3, -0.4], dtype=float64)
    """
    moving = jnp.any(slip != 0, axis=-1)
    resting = jnp.where(moving[..., None], slip, 1.0)  # no 0/0 in the derivative of the norm at rest
    # hypot(u₁, 0) is |u₁| exactly, so u/|u| is exactly ±1 along one axis
    speed = jnp.where(moving, jnp.hypot(resting[..., 0], resting[..., 1]), 0.0)
    direction = jnp.where(moving[..., None], resting / jnp.where(moving, speed, 1.0)[..., None], 0.0)
    return law(speed, normal_force, mu)[..., None] * direction
