"""The compliant model of a spatial system (:class:`~regcontact.systems.spatial_system.AbstractSpatialSystem`): a
normal law on every contact's gap and the friction disk (:func:`~regcontact.contact.friction_disk`)
on its 2-vector slip,

    q̇ = v,        M(q) v̇ = h(q, v, t) + Σ_i W_iᵀ λ_i,        λ_i = (λ_n(g_n,i, ġ_n,i), λ_T(u_i, λ_n,i, μ_i)),

with the running force integrals ``∫λ_i dt`` (``k × 3``: normal, tangent 1, tangent 2) in the state. The planar
vector field (:mod:`regcontact.compliant.dynamics`) is a separate path and unchanged.
"""

from __future__ import annotations

import equinox as eqx
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float

from regcontact.contact import AbstractFrictionLaw, friction_disk
from regcontact.contact.normal_laws import AbstractNormalLaw
from regcontact.systems.spatial_system import AbstractSpatialSystem

__all__ = ["SpatialCompliantState", "SpatialCompliantSystem", "spatial_contact_forces", "spatial_vector_field"]


class SpatialCompliantState(eqx.Module):
    """``q``, ``v`` and the force integrals ``∫λ dt`` of every contact (``k × 3``: normal, tangent 1, tangent 2)."""

    q: Float[Array, "... n"]
    v: Float[Array, "... n"]
    impulses: Float[Array, "... k 3"]


class SpatialCompliantSystem(eqx.Module):
    """Arguments of the vector field: the spatial system and its contact laws, already scaled to one α (the
    friction law is applied as the friction disk)."""

    system: AbstractSpatialSystem
    normal: AbstractNormalLaw
    friction: AbstractFrictionLaw


def spatial_contact_forces(
    args: SpatialCompliantSystem, q: Float[Array, " n"], v: Float[Array, " n"]
) -> Float[Array, "k 3"]:
    """``(λ_n, λ_T1, λ_T2)`` of every contact at a configuration and velocity."""
    system = args.system
    jacobians = system.jacobians(q)
    k, _, n = jacobians.shape
    rates = (jacobians.reshape(3 * k, n) @ v).reshape(k, 3)
    normal = args.normal(system.gaps(q)[:, 0], rates[:, 0])
    tangential = friction_disk(args.friction, rates[:, 1:], normal, system.friction_coefficients)
    return jnp.concatenate([normal[:, None], tangential], axis=-1)


def spatial_vector_field(
    t: ArrayLike, state: SpatialCompliantState, args: SpatialCompliantSystem
) -> SpatialCompliantState:
    """``d(state)/dt`` of the compliant spatial system."""
    system = args.system
    forces = spatial_contact_forces(args, state.q, state.v)
    jacobians = system.jacobians(state.q)
    k, _, n = jacobians.shape
    generalised = system.forces(state.q, state.v, t) + jacobians.reshape(3 * k, n).T @ forces.reshape(3 * k)
    return SpatialCompliantState(q=state.v, v=system.mass_solve(state.q, generalised), impulses=forces)
