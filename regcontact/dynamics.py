"""The compliant rod as one first-order vector field for diffrax.

State ``y = (q, v, ∫λ_n dt, ∫λ_t dt)`` with ``q = (x, y, φ)`` and ``v = (v_x, v_y, ω)``, eight numbers.
Equations (Preclik & Rüde Eq. 21): ``q̇ = v``, ``M v̇ = f + Jᵀ λ(g, ġ)``, and the running force integrals,
whose limit as α → ∞ is compared with the rigid impulses.
"""

from __future__ import annotations

import equinox as eqx
import jax.numpy as jnp
from jaxtyping import Array, Float

from regcontact.rod import PainleveRod

__all__ = ["RodContact", "contact_forces", "rod_vector_field", "initial_rod_state", "STATE_SIZE"]

STATE_SIZE = 8


class RodContact(eqx.Module):
    """Arguments of the vector field: the rod and its contact laws, already scaled to one α."""

    rod: PainleveRod
    normal: eqx.Module
    friction: eqx.Module


def contact_forces(args: RodContact, q: Float[Array, "3"], v: Float[Array, "3"]) -> Float[Array, "2"]:
    """``(λ_n, λ_t)`` at a configuration and velocity."""
    rod = args.rod
    gap = rod.gap(q)
    gap_rate = rod.jacobian(q) @ v
    normal = args.normal(gap[0], gap_rate[0])
    tangential = args.friction(gap_rate[1], normal, rod.mu)
    return jnp.stack([normal, tangential])


def rod_vector_field(t: Float[Array, ""], y: Float[Array, "8"], args: RodContact) -> Float[Array, "8"]:
    """``dy/dt`` of the compliant rod (time enters only through the state)."""
    del t
    rod = args.rod
    q, v = y[:3], y[3:6]
    lam = contact_forces(args, q, v)
    generalised = rod.applied_force() + rod.jacobian(q).T @ lam
    inverse_mass = 1.0 / jnp.stack([rod.mass, rod.mass, rod.inertia])
    return jnp.concatenate([v, inverse_mass * generalised, lam])


def initial_rod_state(rod: PainleveRod) -> Float[Array, "8"]:
    """The rod's initial state with zero force integrals."""
    q0, v0 = rod.initial_state()
    return jnp.concatenate([q0, v0, jnp.zeros(2)])
