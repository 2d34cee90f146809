"""What ends a compliant run: events (diffrax condition functions) and the time limit.

A run ends at the first of its events or at its time limit ``t_max``, whichever comes first.

Events
    ``contact_open``: the smallest gap ``min_i g_n,i`` rises through ``ε_g``, the gaps' round-off resolution
    (:mod:`regcontact.compliant.resolution`): the body has left the ground, every contact is open (for one contact: it
    has opened). A threshold at zero fired on round-off
    (a rod started in contact at normal rest "lifted off" after 9 steps at α = 1e8, with a computed gap of
    ±1e-16); the force integrals are the same either way, since the laws carry no force at ``g_n > 0``.

Time limits
    A fixed time, or a number of *contact times* ``t_c = π √(m_n / k_n(α))``: the duration of a contact
    through an undamped linear spring of stiffness ``k_n(α)`` under the effective normal mass
    ``m_n = 1 / (W M⁻¹ Wᵀ)_nn`` at the initial state (with several contacts: the largest ``m_n``, so that the
    window holds the longest of them). It tends to zero as α grows but much more slowly than
    the fast scale of the impulse (∝ 1/α up to a logarithm), so a window of a few ``t_c`` holds the whole
    impulsive phase and only an ``O(t_c) = O(α^-1/2)`` share of the regular force that follows it.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jaxtyping import Array, Float

from regcontact.compliant.dynamics import CompliantState, CompliantSystem
from regcontact.compliant.resolution import gap_resolution
from regcontact.systems.system import AbstractSystem

__all__ = ["EVENTS", "contact_open", "contact_time", "effective_normal_mass"]


def contact_open(t, y: CompliantState, args: CompliantSystem, **kwargs) -> Float[Array, ""]:
    """Condition ``min_i g_n,i − ε_g``; an upcrossing of zero means every contact has opened beyond round-off."""
    del t, kwargs
    return jnp.min(args.system.gaps(y.q)[:, 0]) - gap_resolution(args.system)


#: Every event by its config name; each triggers on an upcrossing of zero.
EVENTS = {"contact_open": contact_open}


def effective_normal_mass(system: AbstractSystem) -> Float[Array, ""]:
    """``m_n = 1 / (W M⁻¹ Wᵀ)_nn`` at the initial configuration; the largest over the contacts."""
    q0, _ = system.initial_state()
    normal_rows = system.jacobians(q0)[:, 0, :]
    inverse_mass_rows = jax.vmap(lambda row: system.mass_solve(q0, row))(normal_rows)
    return jnp.max(1.0 / jnp.sum(normal_rows * inverse_mass_rows, axis=-1))


def contact_time(system: AbstractSystem, stiffness: Float[Array, ""]) -> Float[Array, ""]:
    """``π √(m_n / k)``: half a period of the effective normal mass on a spring of stiffness ``k``."""
    return jnp.pi * jnp.sqrt(effective_normal_mass(system) / stiffness)
