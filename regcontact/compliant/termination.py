"""What ends a compliant run: events (diffrax condition functions) and the time limit.

A run ends at the first of its events or at its time limit ``t_max``, whichever comes first.

Events
    ``contact_open``: the smallest gap ``min_i g_n,i`` rises through ``ε_g``, the gaps' round-off resolution
    (:mod:`regcontact.compliant.resolution`): the body has left the ground, every contact is open (for one contact: it
    has opened). A threshold at zero fired on round-off
    (a rod started in contact at normal rest "lifted off" after 9 steps at α = 1e8, with a computed gap of
    ±1e-16); the force integrals are the same either way, since the laws carry no force at ``g_n > 0``.
``impulse_end``: the end of the impulsive phase. The total normal force ``Σ_i λ_n,i`` falls back below
    ``IMPULSE_END_FACTOR`` times the force scale of the slow motion, ``F = Σ_i m_n,i ‖g̈_i,free‖`` (the contact
    forces that would hold the free contact accelerations ``W M⁻¹ h + Ẇ v`` at the initial state). A rising
    crossing of ``1 − Σλ_n / (κ F)``: it starts positive (a contact at rest carries no force), goes negative
    while the impulse's ``O(α)`` forces act, and fires when they have decayed — whatever α, and before the
    order-one force of the slow motion that follows (which the contact-time window integrates). The condition
    is the force itself, read off the state, so solver noise enters it once, ``α·δ(g, ġ)`` against ``κ F``:
    unlike a rule on ``λ̇_n`` (the README measured that one's sign turning to noise from α ≈ 1e5 on). Runs
    without an impulse never fire it and end at their time limit. A system without applied load (``F = 0``)
    never fires it either.

Time limits
    A fixed time, or a number of *contact times* ``t_c = π √(m_n / k_n(α))``: the duration of a contact
    through an undamped linear spring of stiffness ``k_n(α)`` under the effective normal mass
    ``m_n = 1 / (W M⁻¹ Wᵀ)_nn`` at the initial state (with several contacts: the largest ``m_n``, so that the
    window holds the longest of them). It tends to zero as α grows but much more slowly than
    the fast scale of the impulse (∝ 1/α up to a logarithm), so a window of a few ``t_c`` holds the whole
    impulsive phase and only an ``O(t_c) = O(α^-1/2)`` share of the regular force that follows it.

    A law without a linear stiffness (Hunt–Crossley) has no contact time; its window is a number of *impact
    times* ``π / r``, ``r`` the slowest of the law's own impact rates at α for the contacts' inverse normal masses
    and the impact speed at the initial state (:func:`impact_time`): for a linear spring it is ``t_c`` again.
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Float

from regcontact._argument_checks import POSITIVE, check_argument
from regcontact.compliant.dynamics import CompliantState, CompliantSystem, contact_forces
from regcontact.compliant.resolution import gap_resolution
from regcontact.contact import AbstractNormalLaw
from regcontact.systems.system import AbstractSystem

__all__ = [
    "EVENTS",
    "IMPULSE_END_FACTOR",
    "contact_open",
    "contact_time",
    "effective_normal_mass",
    "impact_inputs",
    "impact_time",
    "impulse_end",
    "slow_force_scale",
    "window_expectation",
]


def contact_open(t, y: CompliantState, args: CompliantSystem, **kwargs) -> Float[Array, ""]:
    """Condition ``min_i g_n,i − ε_g``; an upcrossing of zero means every contact has opened beyond round-off."""
    del t, kwargs
    return jnp.min(args.system.gaps(y.q)[:, 0]) - gap_resolution(args.system)


#: ``κ``: the impulsive phase ends when the normal force falls below ``κ`` times the slow force scale.
IMPULSE_END_FACTOR = 10.0


def slow_force_scale(system: AbstractSystem) -> Float[Array, ""]:
    """``F = Σ_i m_n,i ‖W_i M⁻¹ h + Ẇ_i v‖`` at the initial state: the size of the contact forces of the slow
    motion (the forces that would hold the free contact accelerations), in the units of ``λ``."""
    q0, v0 = system.initial_state()
    jacobians = system.jacobians(q0)
    free = jnp.einsum("kcn,n->kc", jacobians, system.mass_solve(q0, system.forces(q0, v0, 0.0)))
    free = free + system.jacobian_rates(q0, v0)
    masses = 1.0 / _inverse_normal_masses(system, q0, jacobians)
    return jnp.sum(masses * jnp.linalg.norm(free, axis=-1))


def impulse_end(t, y: CompliantState, args: CompliantSystem, **kwargs) -> Float[Array, ""]:
    """Condition ``1 − Σ_i λ_n,i / (κ F)``; its upcrossing of zero ends the impulsive phase (module docstring)."""
    del kwargs
    normal = contact_forces(args, y.q, y.v)[:, 0]
    scale = IMPULSE_END_FACTOR * slow_force_scale(args.system)
    return jnp.where(scale > 0.0, 1.0 - jnp.sum(normal) / jnp.where(scale > 0.0, scale, 1.0), -1.0)


#: Every event by its config name; each triggers on an upcrossing of zero.
EVENTS = {"contact_open": contact_open, "impulse_end": impulse_end}


def _inverse_normal_masses(system: AbstractSystem, q: Array, jacobians: Array) -> Float[Array, " k"]:
    """``C_ii = (W M⁻¹ Wᵀ)_nn`` of each contact at ``q`` (``jacobians``: the system's there)."""
    normal_rows = jacobians[:, 0, :]
    inverse_mass_rows = jax.vmap(lambda row: system.mass_solve(q, row))(normal_rows)
    return jnp.sum(normal_rows * inverse_mass_rows, axis=-1)


def effective_normal_mass(system: AbstractSystem) -> Float[Array, ""]:
    """``m_n = 1 / (W M⁻¹ Wᵀ)_nn`` at the initial configuration; the largest over the contacts."""
    q0, _ = system.initial_state()
    return jnp.max(1.0 / _inverse_normal_masses(system, q0, system.jacobians(q0)))


def contact_time(system: AbstractSystem, stiffness: Float[Array, ""]) -> Float[Array, ""]:
    """``π √(m_n / k)``: half a period of the effective normal mass on a spring of stiffness ``k``.

    Args:
        system: the body; ``m_n`` is :func:`effective_normal_mass` (the largest over its contacts).
        stiffness: the linear spring stiffness ``k`` (for Eq. 22 at stiffness multiplier α: ``k = α``).

    Returns:
        The contact time, the window of the Table 1 study.

    Examples:
        >>> import regcontact as rc
        >>> float(rc.contact_time(rc.PainleveRod(), 1e6))
        0.0023748208234474514
    """
    return jnp.pi * jnp.sqrt(effective_normal_mass(system) / stiffness)


def impact_inputs(system: AbstractSystem) -> tuple[Float[Array, " k"], Float[Array, ""]]:
    """What a normal law's impact time needs of a body at its initial state: each contact's inverse normal mass
    ``C_ii = (W M⁻¹ Wᵀ)_nn`` and the impact speed, the largest component of the contact velocities ``W v``
    (the speed of a landing, the slip that drives an impact without collision)."""
    q0, v0 = system.initial_state()
    jacobians = system.jacobians(q0)
    speed = jnp.max(jnp.abs(jnp.einsum("kcn,n->kc", jacobians, v0)))
    return _inverse_normal_masses(system, q0, jacobians), speed


def impact_time(law: AbstractNormalLaw, inverse_masses: ArrayLike, speed: float) -> float:
    """``π / r``, with ``r`` the slowest of the law's impact rates (:meth:`~regcontact.contact.AbstractNormalLaw.
    impact_rates`) for contacts of inverse normal masses ``inverse_masses`` hit at ``speed``: the window of a law
    without a linear stiffness, from its own parameters at α (``docs/convergence.md``, "Windows").

    For a linear spring it is the contact time ``π √(m_n / k)`` (and longer where the damping ``γ C`` is the
    slower rate); for Hertz's ``k δⁿ`` it is ``π (k C v^(n−1))^(−1/(n+1))``, within 3 % of the duration of an
    elastic landing at ``v`` for ``n = 3/2`` (3.22 of those units). ``ValueError`` in one line for a law that does
    not derive its rates, or a body that starts with no contact velocity (no impact speed); ``ArgumentError``
    naming the value for a speed or an inverse mass that is not a positive, finite number (NaN, ±inf)."""
    if np.all(np.asarray(speed) == 0.0):
        raise ValueError("the body starts with no contact velocity, so no impact speed sets the law's time scale")
    check_argument("speed", speed, POSITIVE)
    check_argument("inverse_masses", inverse_masses, POSITIVE)
    rates = law.impact_rates(np.asarray(inverse_masses, dtype=float), float(speed))
    if not rates:
        raise ValueError(f"{type(law).__name__} has no positive impact rate at these contacts")
    return math.pi / min(rates)


def window_expectation(window: float) -> str:
    """What a stiffness multiplier α must give when a run's window is a number of contact times, said where the
    window it gives (``inf`` or ``0``) is no time: ``k(α)`` underflowed to zero or overflowed."""
    if window == float("inf"):
        cause = "k(α) is zero in float64"
    elif window == 0.0:
        cause = "k(α) overflows float64"
    else:
        cause = "k(α) is not a number"
    return f"an α whose contact time π √(m_n / k(α)) is a positive, finite time (here t_c = {window:g}: {cause})"
