"""Starting a compliant run with its contacts pressed into the ground (Preclik & Rüde Sec. 5.2).

Sec. 5.2 claims that in the non-unique case the force integrals tend to (0, 0) "independent of initial
interpenetration being present or not". A finite penetration ``δ`` at the start carries an elastic energy
``½ k δ²`` and an initial force ``k δ``, so the claim only means something once ``δ`` is tied to α: with
``δ = c α^(−p)`` and ``k ∝ α``, ``p = 1`` gives an order-one initial force and ``p = 1/2`` an order-one stored
energy. The study layer turns ``{coefficient = c, power = p}`` into one depth per case.

The body is moved, not the ground: from its initial configuration ``q₀`` along the directions an impulse at the
closed contacts would move it, ``Δq = M⁻¹ W_nᵀ s`` (the displacement of least kinetic metric, which needs nothing
of the body but the system interface), with ``s`` chosen by Newton's method so that every contact closed at the
start has ``g_n = −δ`` and every open one keeps its gap. The velocities are kept.

:func:`slipping_initial_state` chooses the depth for a body that starts slipping on one contact: the depth at
which the normal law carries the rigid slip's force, so that the run starts on the load instead of falling in.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float

from regcontact.compliant.dynamics import CompliantState, initial_state
from regcontact.compliant.resolution import gap_resolution
from regcontact.contact import AbstractNormalLaw, select_contacts
from regcontact.systems._spatial_form import spatial_contact_space_form
from regcontact.systems.reduced_two_contact import contact_space_form
from regcontact.systems.system import AbstractSystem

__all__ = ["DEPTH_BISECTIONS", "NEWTON_ITERATIONS", "penetrated_initial_state", "slipping_initial_state"]

#: Newton iterations on the gaps (they are smooth in ``q``; each iteration squares the error of the last).
NEWTON_ITERATIONS = 4


def penetrated_initial_state(system: AbstractSystem, depth: Float[ArrayLike, ""]) -> CompliantState:
    """The system's initial state with every contact that starts closed pressed in by ``depth`` (≥ 0).

    ``depth = 0`` returns :func:`~regcontact.compliant.dynamics.initial_state` exactly (the same bits).
    """
    start = initial_state(system)
    depth = jnp.asarray(depth, dtype=float)
    q0 = start.q
    gaps0 = system.gaps(q0)[:, 0]
    closed = gaps0 <= gap_resolution(system)
    target = jnp.where(closed, -depth, gaps0)

    def newton(q, _):
        rows = system.jacobians(q)[:, 0, :]
        directions = jax.vmap(lambda row: system.mass_solve(q, row))(rows)  # M⁻¹ W_nᵀ, one row per contact
        delassus = rows @ directions.T
        step = jnp.linalg.solve(delassus, target - system.gaps(q)[:, 0])
        return q + directions.T @ step, None

    q, _ = jax.lax.scan(newton, q0, None, length=NEWTON_ITERATIONS)
    q = jnp.where(depth == 0.0, q0, q)
    return CompliantState(q=q, v=start.v, impulses=start.impulses)


#: Bisection steps on ``log δ`` for :func:`slipping_initial_state` (from 1e-30 to 1: to round-off).
DEPTH_BISECTIONS = 200


def _planar_slipping_state(system: AbstractSystem, normal: AbstractNormalLaw) -> CompliantState:
    """A planar contact: ``p = C − sign(ġ_t) μ B`` (:func:`~regcontact.systems.contact_space_form`), the contacts
    pressed in by :func:`penetrated_initial_state`."""
    q0, v0 = system.initial_state()
    form = contact_space_form(system, q0, v0)
    sign = jnp.sign(system.jacobians(q0)[0, 1] @ v0)
    painleve = form.C[0, 0] - sign * system.friction_coefficients[0] * form.B[0, 0]
    force = -form.b[0] / painleve

    def carried(log_depth):
        state = penetrated_initial_state(system, jnp.exp(log_depth))
        rate = system.jacobians(state.q)[0, 0] @ state.v  # moved, the body's ġ_n is no longer exactly zero
        return select_contacts(normal, 0)(system.gaps(state.q)[0, 0], rate)

    def bisect(_, bracket):
        low, high = bracket
        middle = 0.5 * (low + high)
        above = carried(middle) > force
        return jnp.where(above, low, middle), jnp.where(above, middle, high)

    low, high = jax.lax.fori_loop(0, DEPTH_BISECTIONS, bisect, (jnp.log(1e-30), jnp.zeros(())))
    return penetrated_initial_state(system, jnp.exp(0.5 * (low + high)))


def _pressed(system: AbstractSystem, q0: Float[Array, " n"], depth: Float[Array, ""]) -> Float[Array, " n"]:
    """``q0`` moved along ``M⁻¹W_nᵀ`` until the one contact's gap is ``−depth`` (spatial contacts)."""

    def newton(q, _):
        row = system.jacobians(q)[0, 0]
        direction = system.mass_solve(q, row)
        return q + direction * (-depth - system.gaps(q)[0, 0]) / (row @ direction), None

    return jax.lax.scan(newton, q0, None, length=NEWTON_ITERATIONS)[0]


def _spatial_slipping_state(system: AbstractSystem, normal: AbstractNormalLaw) -> CompliantState:
    """A spatial contact: ``p(ϕ)`` of the slip direction ``ϕ`` (:func:`~regcontact.systems.
    spatial_contact_space_form`), the one contact pressed in by a Newton step of its own (:func:`_pressed`)."""
    q0, v0 = system.initial_state()
    form = spatial_contact_space_form(system, q0, v0)
    slip = system.jacobians(q0)[0, 1:] @ v0
    force = -form.b / form.painleve(system.friction_coefficients[0], jnp.arctan2(slip[1], slip[0]))

    def carried(log_depth):
        q = _pressed(system, q0, jnp.exp(log_depth))
        return select_contacts(normal, 0)(system.gaps(q)[0, 0], system.jacobians(q)[0, 0] @ v0)

    def bisect(_, bracket):
        low, high = bracket
        middle = 0.5 * (low + high)
        above = carried(middle) > force
        return jnp.where(above, low, middle), jnp.where(above, middle, high)

    low, high = jax.lax.fori_loop(0, DEPTH_BISECTIONS, bisect, (jnp.log(1e-30), jnp.zeros(())))
    q = _pressed(system, q0, jnp.exp(0.5 * (low + high)))
    return CompliantState(q=q, v=v0, impulses=jnp.zeros((system.NUM_CONTACTS, 3)))


#: How a one-contact system starting to slip is pressed in, by tangent dimension. Two paths: each keeps the
#: arithmetic its studies' results were computed with (the planar one presses every closed contact by a Newton
#: step on the Delassus matrix, the spatial one its one contact by a division).
_SLIPPING_STATES = {1: _planar_slipping_state, 2: _spatial_slipping_state}


def slipping_initial_state(system: AbstractSystem, normal: AbstractNormalLaw) -> CompliantState:
    """The initial state of a one-contact system that starts slipping, pressed in along ``M⁻¹W_nᵀ`` to the depth at
    which ``normal`` (already at its α) carries the rigid slip's normal force ``−b/p``, with ``p`` the Painlevé
    parameter of the slip (planar: of its sign; spatial: of its direction ``ϕ``, Champneys' Eq. 39). The
    velocities are kept.

    A start at zero depth carries no force where the rigid slip needs ``−b/p``: the contact first falls in and
    rings, and a law with little damping (Hunt–Crossley at fixed ``c``, any law where ``p`` is small) keeps that
    ringing for the whole run. Started on the load it has to carry, a compliant run follows the rigid slip.
    """
    return _SLIPPING_STATES[type(system).TANGENT_DIM](system, normal)
