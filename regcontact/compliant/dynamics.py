"""A compliant system as one vector field for diffrax: any :class:`~regcontact.systems.system.AbstractSystem`.

State (a pytree, :class:`CompliantState`): the coordinates ``q``, velocities ``v`` and the running force
integrals ``∫λ dt`` of every contact, shape ``(k, 1+d)`` (normal, then tangential), whose limit as α → ∞ is
compared with the rigid impulses. Equations (Preclik & Rüde Eq. 21, for ``k`` contacts):

    q̇ = v,        M(q) v̇ = h(q, v, t) + Σ_i W_iᵀ λ_i(g_i, ġ_i),        d(∫λ_i)/dt = λ_i.

The contact laws act on every contact at once (a per-contact parameter broadcast with the contacts): the normal
law elementwise in ``(g_n, ġ_n)``; the friction law elementwise in ``(ġ_t, λ_n, μ)`` for planar contacts and
along the 2-vector slip (the friction disk, :func:`~regcontact.contact.friction_disk.friction_disk`) for spatial
ones, chosen by the system's ``TANGENT_DIM`` at trace time.
"""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float

from regcontact.contact import AbstractFrictionLaw, AbstractNormalLaw, check_per_contact, friction_disk
from regcontact.systems.system import AbstractSystem

__all__ = ["CompliantState", "CompliantSystem", "contact_forces", "flat_vector_field", "initial_state", "vector_field"]


class CompliantState(eqx.Module):
    """``q``, ``v`` and the force integrals ``∫λ dt`` (``k × (1+d)``: normal, then tangential, per contact).

    :attr:`flat` is the same state as one vector ``(q, v, ∫λ_n,1, ∫λ_t,1, …)`` (eight numbers for the rod), for
    code that wants one, such as SciPy's ``solve_ivp``; :meth:`from_flat` reads it back. Both work on batches.
    """

    q: Float[Array, "... n"]
    v: Float[Array, "... n"]
    impulses: Float[Array, "... k 1+d"]

    @property
    def flat(self) -> Float[Array, "... 2n+(1+d)k"]:
        impulses = self.impulses.reshape(*self.impulses.shape[:-2], -1)
        return jnp.concatenate([self.q, self.v, impulses], axis=-1)

    @classmethod
    def from_flat(cls, y: Float[Array, "... 2n+(1+d)k"], n: int, tangent_dim: int = 1) -> CompliantState:
        """The state of ``n`` coordinates whose contacts have ``tangent_dim`` tangential directions, read from
        :attr:`flat`."""
        y = jnp.asarray(y)
        impulses = y[..., 2 * n :].reshape(*y.shape[:-1], -1, 1 + tangent_dim)
        return cls(q=y[..., :n], v=y[..., n : 2 * n], impulses=impulses)


class CompliantSystem(eqx.Module):
    """Arguments of the vector field: the system and its contact laws, already scaled to one α (on spatial
    contacts the friction law is applied as the friction disk). A law's parameter is a number (every contact) or
    one value per contact (contact ``i`` gets entry ``i``, by broadcasting); another shape is refused here, in one
    line."""

    system: AbstractSystem
    normal: AbstractNormalLaw
    friction: AbstractFrictionLaw

    def __check_init__(self):
        k = type(self.system).NUM_CONTACTS
        check_per_contact(self.normal, k, "normal")
        check_per_contact(self.friction, k, "friction")


def _times_velocity(jacobians: Float[Array, "k 2 n"], v: Float[Array, " n"]) -> Float[Array, "k 2"]:
    """``W v``. On the CPU one ``(2k × n) @ n`` product: the rod's own arithmetic for ``k = 1``, and an elementwise
    product and a sum, which XLA fuses and vectorises, would round differently in the SIMD body and the scalar tail
    of a vmapped batch (measured: identical cases in lanes 0 and 2 of one batch differing by 1e-15), where the
    product keeps every lane's arithmetic the same. Elsewhere products and a sum: a GPU runs each tiny batched
    ``dot`` as a matrix-multiply kernel of its own, which the elementwise form, fused with the field, avoids
    (``docs/performance.md``, GPU)."""

    def product(jacobians, v):
        k, _, n = jacobians.shape
        return (jacobians.reshape(2 * k, n) @ v).reshape(k, 2)

    def fused(jacobians, v):
        return (jacobians * v[None, None, :]).sum(axis=-1)

    return jax.lax.platform_dependent(jacobians, v, cpu=product, default=fused)


def _transpose_times(jacobians: Float[Array, "k 2 n"], forces: Float[Array, "k 2"]) -> Float[Array, " n"]:
    """``Σ_i W_iᵀ λ_i``: one ``(n × 2k) @ 2k`` product on the CPU, products and a sum elsewhere (as
    :func:`_times_velocity`)."""

    def product(jacobians, forces):
        k, _, n = jacobians.shape
        return jacobians.reshape(2 * k, n).T @ forces.reshape(2 * k)

    def fused(jacobians, forces):
        return (jacobians * forces[:, :, None]).sum(axis=(0, 1))

    return jax.lax.platform_dependent(jacobians, forces, cpu=product, default=fused)


def _planar_forces(args: CompliantSystem, q: Float[Array, " n"], v: Float[Array, " n"]) -> Float[Array, "k 2"]:
    system = args.system
    gaps = system.gaps(q)
    rates = _times_velocity(system.jacobians(q), v)
    normal = args.normal(gaps[:, 0], rates[:, 0])
    tangential = args.friction(rates[:, 1], normal, system.friction_coefficients)
    return jnp.stack([normal, tangential], axis=-1)


def _planar_generalised(
    system: AbstractSystem, q: Float[Array, " n"], v: Float[Array, " n"], t: ArrayLike, forces: Float[Array, "k 2"]
) -> Float[Array, " n"]:
    return system.forces(q, v, t) + _transpose_times(system.jacobians(q), forces)


def _spatial_forces(args: CompliantSystem, q: Float[Array, " n"], v: Float[Array, " n"]) -> Float[Array, "k 3"]:
    system = args.system
    jacobians = system.jacobians(q)
    k, _, n = jacobians.shape
    rates = (jacobians.reshape(3 * k, n) @ v).reshape(k, 3)
    normal = args.normal(system.gaps(q)[:, 0], rates[:, 0])
    tangential = friction_disk(args.friction, rates[:, 1:], normal, system.friction_coefficients)
    return jnp.concatenate([normal[:, None], tangential], axis=-1)


def _spatial_generalised(
    system: AbstractSystem, q: Float[Array, " n"], v: Float[Array, " n"], t: ArrayLike, forces: Float[Array, "k 3"]
) -> Float[Array, " n"]:
    jacobians = system.jacobians(q)
    k, _, n = jacobians.shape
    return system.forces(q, v, t) + jacobians.reshape(3 * k, n).T @ forces.reshape(3 * k)


#: The contact forces and the generalised force ``h + Σ W_iᵀλ_i`` by tangent dimension. Two paths, not one
#: reshaped by ``1 + d``: each keeps the arithmetic its results were computed with (the planar one picks its
#: products per platform, :func:`_times_velocity`; the spatial one is a product everywhere), so neither's numbers
#: move.
_CONTACT_ALGEBRA = {1: (_planar_forces, _planar_generalised), 2: (_spatial_forces, _spatial_generalised)}


def contact_forces(args: CompliantSystem, q: Float[Array, " n"], v: Float[Array, " n"]) -> Float[Array, "k 1+d"]:
    """``(λ_n, λ_t)`` of every contact at a configuration and velocity (``λ_t``: ``d`` numbers)."""
    forces, _ = _CONTACT_ALGEBRA[type(args.system).TANGENT_DIM]
    return forces(args, q, v)


def vector_field(t: ArrayLike, state: CompliantState, args: CompliantSystem) -> CompliantState:
    """``d(state)/dt`` of the compliant system."""
    system = args.system
    _, generalised = _CONTACT_ALGEBRA[type(system).TANGENT_DIM]
    forces = contact_forces(args, state.q, state.v)
    force = generalised(system, state.q, state.v, t, forces)
    return CompliantState(q=state.v, v=system.mass_solve(state.q, force), impulses=forces)


def flat_vector_field(
    t: Float[Array, ""], y: Float[Array, " 2n+(1+d)k"], args: CompliantSystem
) -> Float[Array, " 2n+(1+d)k"]:
    """:func:`vector_field` on the flat form of the state (:attr:`CompliantState.flat`)."""
    dimension = type(args.system).TANGENT_DIM
    n = jnp.shape(y)[-1] - (1 + dimension) * args.system.NUM_CONTACTS
    return vector_field(t, CompliantState.from_flat(y, n // 2, dimension), args).flat


def initial_state(system: AbstractSystem) -> CompliantState:
    """The system's initial state with zero force integrals."""
    q0, v0 = system.initial_state()
    return CompliantState(q=q0, v=v0, impulses=jnp.zeros((system.NUM_CONTACTS, 1 + system.TANGENT_DIM)))
