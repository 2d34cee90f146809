"""Switching surfaces that a solve locates and restarts at, holding the contact state fixed in between.

Where a contact law's *force* jumps across a surface, no step-size control can step over it at large α: the
step that holds the jump must shrink until ``(jump in acceleration) × h`` is below the tolerance, which at
α = 1e8 is below the spacing of floating-point numbers near ``t`` (measured: the solve stalls at touch-down).
Preclik & Rüde's spring-damper (Eq. 22) jumps on touch-down: at ``g_n = 0`` with ``ġ_n < 0`` the damping force
``γ_n |ġ_n|`` switches on at once. Locating the surface with an event is not enough either, since diffrax
looks for sign changes only between *accepted* steps, and no step across the jump is accepted. So between
located switches the contact state is held fixed (*mode freezing*): while open the normal force is zero, while
closed it is the law's closed branch continued smoothly across ``g_n = 0`` (``contact_force``). Each piece is
then smooth up to kinks, the crossing is found by root finding on the dense output, and the next piece starts
there with the other state. Between switches the frozen field equals the law, so the model is unchanged.

Surfaces where only the Jacobian jumps (``ġ_n = 0`` for the one-sided damper, the edges of the viscous band of
the friction law) need no restart: the Radau solver's Newton iteration on stage Jacobians steps over them
(measured, ``docs/solvers.md``).

**Hysteresis.** Each side has its own exit, a rising crossing of a condition that is negative on that side: a closed
contact opens when ``g_n`` rises through ``ε_g`` (the gap's round-off resolution,
:mod:`regcontact.compliant.resolution`), an open one closes when ``g_n`` falls below ``0``. A piece therefore never
starts on its own exit: diffrax detects a crossing by the signs at the two ends of a step (``old ≤ 0 < new``), and a
piece started exactly on its surface (condition ``0.0``) can never register the crossing. Measured before (one
surface ``g_n = 0`` for both sides; α = 1e12, rtol 1e-10, the rod dropped on the ground): a lift-off restart landed
at ``g_n = 0.0`` exactly, the open piece after it never saw the ground, and the rod ended 2.65 cm inside it,
reported ``successful``; the computed gap also chattered across zero on round-off (11–25 restarts where the physics
has a handful). Crossings are located by bisection (:class:`~regcontact.compliant.solvers.CrossingBisection`), which
cannot leave the sign change of the step and hands on the state past the surface.

**Never adhesive.** While closed the frozen force is ``max(contact_force, 0)``: a contact rising into the band
``0 < g_n < ε_g`` is let go as the law lets it go, not held by the continued spring (before: the closed branch
pulled with ``−k g_n`` a contact that had risen by 7e-10 back down, and Newton-located "lift-offs" landed on the
hump). On an approach inside the band the damper acts up to ``ε_g`` early; it stops the same approach, so its
impulse is the same and only positions move, by less than ``ε_g``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import ClassVar

import jax.numpy as jnp
from jaxtyping import Array, Bool, Float

from regcontact.compliant.dynamics import CompliantState, CompliantSystem
from regcontact.compliant.resolution import gap_resolution
from regcontact.contact import AbstractJumpingNormalLaw, AbstractNormalLaw, AbstractPeakNormalLaw

__all__ = ["RESTART_SURFACES", "FrozenContact", "FrozenPeaks", "RestartSurface", "exit_condition", "exit_values"]


class FrozenContact(AbstractNormalLaw):
    """A normal law with every contact's state held fixed: ``max(contact_force, 0)`` where ``closed``, else zero.

    ``closed`` has one entry per contact; the law acts elementwise on the contacts' gaps and rates. A held law
    has no parameters of its own (it is built after the α-scaling).
    """

    PARAMETERS: ClassVar[dict[str, str]] = {}
    EXPONENTS: ClassVar[dict[str, float]] = {}
    LINEAR_STIFFNESS: ClassVar[str | None] = None

    law: AbstractJumpingNormalLaw
    closed: Bool[Array, " k"]

    def __call__(self, gap: Float[Array, " k"], gap_rate: Float[Array, " k"]) -> Float[Array, " k"]:
        return jnp.where(self.closed, jnp.maximum(self.law.contact_force(gap, gap_rate), 0.0), 0.0)

    def elastic_energy(self, gap: Float[Array, " k"]) -> Float[Array, " k"]:
        return self.law.elastic_energy(gap)


class FrozenPeaks(AbstractNormalLaw):
    """A peak law (:class:`~regcontact.contact.AbstractPeakNormalLaw`) with every contact's branch held fixed:
    ``law.force(g, ġ, peaks)`` where ``unloading``, else the first-loading force ``law.force(g, ġ, 0)``.

    Within a piece the held law is memoryless and continuous (the loading branch needs no peak: a contact pressed
    deeper than its peak is on the loading line either way). Its energy is what the contact would return: the
    first-loading energy while loading, the unloading line's stored energy (``law.stored_energy``) while
    unloading, so a run's energy can only fall (the energy check of :mod:`regcontact.compliant.run_checks`).
    """

    PARAMETERS: ClassVar[dict[str, str]] = {}
    EXPONENTS: ClassVar[dict[str, float]] = {}
    LINEAR_STIFFNESS: ClassVar[str | None] = None

    law: AbstractPeakNormalLaw
    unloading: Bool[Array, " k"]
    peaks: Float[Array, " k"]

    def __call__(self, gap: Float[Array, " k"], gap_rate: Float[Array, " k"]) -> Float[Array, " k"]:
        return self.law.force(gap, gap_rate, jnp.where(self.unloading, self.peaks, 0.0))

    def elastic_energy(self, gap: Float[Array, " k"]) -> Float[Array, " k"]:
        return jnp.where(self.unloading, self.law.stored_energy(gap, self.peaks), self.law.elastic_energy(gap))


@dataclasses.dataclass(frozen=True)
class RestartSurface:
    """A switching surface of every contact, with a separate exit from each side, and how to hold a side.

    ``leave_below(state, args, memory)`` is, per contact, negative on the lower side and rises through zero where
    a piece there ends; ``leave_above`` likewise for the upper side. ``starts_above(state, args)`` says on which
    side each contact of a run starting at ``state`` is; ``hold(args, above, memory)`` returns the vector-field
    arguments for a piece with each contact held on its side ``above``.

    ``memory`` is one number per contact that the surface keeps across restarts: ``record(state, args)``, taken
    where a contact switches sides (and at the start), e.g. the penetration at which a peak law turns to unload.
    A surface without ``record`` keeps zeros and ignores them.
    """

    leave_below: Callable[[CompliantState, CompliantSystem, Float[Array, " k"]], Float[Array, " k"]]
    leave_above: Callable[[CompliantState, CompliantSystem, Float[Array, " k"]], Float[Array, " k"]]
    starts_above: Callable[[CompliantState, CompliantSystem], Bool[Array, " k"]]
    hold: Callable[[CompliantSystem, Bool[Array, " k"], Float[Array, " k"]], CompliantSystem]
    record: Callable[[CompliantState, CompliantSystem], Float[Array, " k"]] | None = None


def _normal_gaps(state: CompliantState, args: CompliantSystem) -> Float[Array, " k"]:
    return args.system.gaps(state.q)[:, 0]


def _normal_rates(state: CompliantState, args: CompliantSystem) -> Float[Array, " k"]:
    return (args.system.jacobians(state.q) @ state.v)[:, 0]


def _hold_contacts(args: CompliantSystem, above: Bool[Array, " k"], memory: Float[Array, " k"]) -> CompliantSystem:
    del memory
    if not isinstance(args.normal, AbstractJumpingNormalLaw):
        raise TypeError(f"holding contacts needs a normal law with a touch-down jump, not {type(args.normal).__name__}")
    return CompliantSystem(
        system=args.system, normal=FrozenContact(law=args.normal, closed=~above), friction=args.friction
    )


def _hold_peaks(args: CompliantSystem, above: Bool[Array, " k"], memory: Float[Array, " k"]) -> CompliantSystem:
    if not isinstance(args.normal, AbstractPeakNormalLaw):
        raise TypeError(f"holding peaks needs a peak normal law, not {type(args.normal).__name__}")
    return CompliantSystem(
        system=args.system, normal=FrozenPeaks(law=args.normal, unloading=above, peaks=memory), friction=args.friction
    )


def _turning(state: CompliantState, args: CompliantSystem) -> Float[Array, " k"]:
    """``min(ġ_n, −g_n)``: rises through zero where a penetrated contact stops approaching (it cannot rise through
    zero on touch-down, where ``ġ_n < 0``, nor while the contact is open)."""
    return jnp.minimum(_normal_rates(state, args), -_normal_gaps(state, args))


def _reloaded_or_open(state: CompliantState, args: CompliantSystem, peaks: Float[Array, " k"]) -> Float[Array, " k"]:
    """``max(δ − δ_max − ε_g, g_n − ε_g)``: rises through zero where an unloading contact is pressed back past its
    peak, or opens (both beyond round-off)."""
    gaps, resolution = _normal_gaps(state, args), gap_resolution(args.system)
    return jnp.maximum(-gaps - peaks - resolution, gaps - resolution)


#: Restart surfaces by config name. "Above" is the side named second.
#:
#: ``contact``: touch-down (``g_n`` falls below 0) and lift-off (``g_n`` rises through ``ε_g``) of every contact,
#: for normal laws with a ``contact_force`` branch; above is open.
#:
#: ``peak``: loading and unloading of a peak law (:class:`~regcontact.contact.AbstractPeakNormalLaw`); above is
#: unloading from the peak, recorded as the penetration ``−g_n`` where the contact turns (``ġ_n`` rises through 0
#: while ``g_n < 0``). An unloading contact loads again when pressed past its peak or once it has opened.
RESTART_SURFACES: dict[str, RestartSurface] = {
    "contact": RestartSurface(
        leave_below=lambda state, args, memory: _normal_gaps(state, args) - gap_resolution(args.system),
        leave_above=lambda state, args, memory: -_normal_gaps(state, args),
        starts_above=lambda state, args: _normal_gaps(state, args) > gap_resolution(args.system),
        hold=_hold_contacts,
    ),
    "peak": RestartSurface(
        leave_below=lambda state, args, memory: _turning(state, args),
        leave_above=_reloaded_or_open,
        starts_above=lambda state, args: _turning(state, args) > 0.0,
        hold=_hold_peaks,
        record=lambda state, args: -_normal_gaps(state, args),
    ),
}


def exit_values(
    surface: RestartSurface,
    above: Bool[Array, " k"],
    memory: Float[Array, " k"],
    state: CompliantState,
    args: CompliantSystem,
) -> Float[Array, " k"]:
    """Every contact's exit condition from its current side of ``surface``: positive once past the exit."""
    return jnp.where(above, surface.leave_above(state, args, memory), surface.leave_below(state, args, memory))


def exit_condition(
    surface: RestartSurface, above: Bool[Array, " k"], memory: Float[Array, " k"], contact: int
) -> Callable:
    """The diffrax condition (rising crossings) of ``contact``'s exit from its current side of ``surface``."""

    def condition(t, y, args, **kwargs):
        del t, kwargs
        return exit_values(surface, above, memory, y, args)[contact]

    return condition
