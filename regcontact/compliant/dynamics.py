"""A compliant system as one vector field for diffrax: any :class:`~regcontact.systems.system.AbstractSystem`.

State (a pytree, :class:`CompliantState`): the coordinates ``q``, velocities ``v`` and the running force
integrals ``∫λ dt`` of every contact, shape ``(k, 2)`` (normal, tangential), whose limit as α → ∞ is compared
with the rigid impulses. Equations (Preclik & Rüde Eq. 21, for ``k`` contacts):

    q̇ = v,        M(q) v̇ = h(q, v, t) + Σ_i W_iᵀ λ_i(g_i, ġ_i),        d(∫λ_i)/dt = λ_i.

The contact laws act on every contact at once: they are elementwise in ``(g_n, ġ_n)`` and ``(ġ_t, λ_n, μ)``.
"""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float

from regcontact.contact import AbstractFrictionLaw
from regcontact.contact.normal_laws import AbstractNormalLaw
from regcontact.systems.system import AbstractSystem

__all__ = ["CompliantState", "CompliantSystem", "contact_forces", "flat_vector_field", "initial_state", "vector_field"]


class CompliantState(eqx.Module):
    """``q``, ``v`` and the force integrals ``∫λ dt`` (``k × 2``: normal, tangential per contact).

    :attr:`flat` is the same state as one vector ``(q, v, ∫λ_n,1, ∫λ_t,1, …)`` (eight numbers for the rod), for
    code that wants one, such as SciPy's ``solve_ivp``; :meth:`from_flat` reads it back. Both work on batches.
    """

    q: Float[Array, "... n"]
    v: Float[Array, "... n"]
    impulses: Float[Array, "... k 2"]

    @property
    def flat(self) -> Float[Array, "... 2n+2k"]:
        impulses = self.impulses.reshape(*self.impulses.shape[:-2], -1)
        return jnp.concatenate([self.q, self.v, impulses], axis=-1)

    @classmethod
    def from_flat(cls, y: Float[Array, "... 2n+2k"], n: int) -> CompliantState:
        y = jnp.asarray(y)
        return cls(q=y[..., :n], v=y[..., n : 2 * n], impulses=y[..., 2 * n :].reshape(*y.shape[:-1], -1, 2))


class CompliantSystem(eqx.Module):
    """Arguments of the vector field: the system and its contact laws, already scaled to one α."""

    system: AbstractSystem
    normal: AbstractNormalLaw
    friction: AbstractFrictionLaw


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


def contact_forces(args: CompliantSystem, q: Float[Array, " n"], v: Float[Array, " n"]) -> Float[Array, "k 2"]:
    """``(λ_n, λ_t)`` of every contact at a configuration and velocity."""
    system = args.system
    gaps = system.gaps(q)
    rates = _times_velocity(system.jacobians(q), v)
    normal = args.normal(gaps[:, 0], rates[:, 0])
    tangential = args.friction(rates[:, 1], normal, system.friction_coefficients)
    return jnp.stack([normal, tangential], axis=-1)


def vector_field(t: ArrayLike, state: CompliantState, args: CompliantSystem) -> CompliantState:
    """``d(state)/dt`` of the compliant system."""
    system = args.system
    forces = contact_forces(args, state.q, state.v)
    generalised = system.forces(state.q, state.v, t) + _transpose_times(system.jacobians(state.q), forces)
    return CompliantState(q=state.v, v=system.mass_solve(state.q, generalised), impulses=forces)


def flat_vector_field(t: Float[Array, ""], y: Float[Array, " 2n+2k"], args: CompliantSystem) -> Float[Array, " 2n+2k"]:
    """:func:`vector_field` on the flat form of the state (:attr:`CompliantState.flat`)."""
    n = jnp.shape(y)[-1] - 2 * args.system.NUM_CONTACTS
    return vector_field(t, CompliantState.from_flat(y, n // 2), args).flat


def initial_state(system: AbstractSystem) -> CompliantState:
    """The system's initial state with zero force integrals."""
    q0, v0 = system.initial_state()
    return CompliantState(q=q0, v=v0, impulses=jnp.zeros((system.NUM_CONTACTS, 2)))
