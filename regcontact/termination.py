"""What ends a compliant-rod run: events (diffrax condition functions) and the time limit.

A run ends at the first of its events or at its time limit ``t_max``, whichever comes first.

Events
    ``contact_open``: the gap ``g_n`` rises through ``ε_g``, the gap's round-off resolution
    (:mod:`regcontact.resolution`): the rod has left the ground. A threshold at zero fired on round-off
    (a rod started in contact at normal rest "lifted off" after 9 steps at α = 1e8, with a computed gap of
    ±1e-16); the force integrals are the same either way, since the laws carry no force at ``g_n > 0``.

Time limits
    A fixed time, or a number of *contact times* ``t_c = π √(m_n / k_n(α))``: the duration of a contact
    through an undamped linear spring of stiffness ``k_n(α)`` under the effective normal mass
    ``m_n = 1 / (J M⁻¹ Jᵀ)_nn`` at the initial state. It tends to zero as α grows but much more slowly than
    the fast scale of the impulse (∝ 1/α up to a logarithm), so a window of a few ``t_c`` holds the whole
    impulsive phase and only an ``O(t_c) = O(α^-1/2)`` share of the regular force that follows it.
"""

from __future__ import annotations

import jax.numpy as jnp
from jaxtyping import Array, Float

from regcontact.dynamics import RodContact
from regcontact.resolution import gap_resolution
from regcontact.rod import PainleveRod

__all__ = ["EVENTS", "contact_open", "contact_time", "effective_normal_mass"]


def contact_open(t, y, args: RodContact, **kwargs) -> Float[Array, ""]:
    """Condition ``g_n − ε_g``; an upcrossing of zero means the contact has opened beyond round-off."""
    del t, kwargs
    return args.rod.gap(y[:3])[0] - gap_resolution(args.rod)


#: Every event by its config name; each triggers on an upcrossing of zero.
EVENTS = {"contact_open": contact_open}


def effective_normal_mass(rod: PainleveRod) -> Float[Array, ""]:
    """``m_n = 1 / (J M⁻¹ Jᵀ)_nn`` at the rod's initial configuration."""
    q0, _ = rod.initial_state()
    normal_row = rod.jacobian(q0)[0]
    inverse_mass = 1.0 / jnp.stack([rod.mass, rod.mass, rod.inertia])
    return 1.0 / jnp.sum(normal_row**2 * inverse_mass)


def contact_time(rod: PainleveRod, stiffness: Float[Array, ""]) -> Float[Array, ""]:
    """``π √(m_n / k)``: half a period of the effective normal mass on a spring of stiffness ``k``."""
    return jnp.pi * jnp.sqrt(effective_normal_mass(rod) / stiffness)
