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

A surface ``s(y) = 0`` is watched on one side at a time, so that a restart *on* the surface (where ``s`` is zero
up to the root finder's tolerance) cannot fire again at once: on the side ``s > 0`` only a crossing downwards is
watched, on the side ``s ≤ 0`` only a crossing upwards. After each restart the side flips.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import equinox as eqx
import jax.numpy as jnp
from jaxtyping import Array, Bool, Float

from regcontact.dynamics import RodContact

__all__ = ["RESTART_SURFACES", "FrozenContact", "RestartSurface", "crossing_events"]


class FrozenContact(eqx.Module):
    """A normal law with its contact state held fixed: ``contact_force`` while ``closed``, zero while open."""

    law: eqx.Module
    closed: Bool[Array, ""]

    def __call__(self, gap: Float[Array, ""], gap_rate: Float[Array, ""]) -> Float[Array, ""]:
        return jnp.where(self.closed, self.law.contact_force(gap, gap_rate), 0.0)


@dataclasses.dataclass(frozen=True)
class RestartSurface:
    """A switching surface ``value(y, args) = 0`` and how to hold the state of its side fixed.

    ``hold(args, above)`` returns the vector-field arguments for a piece that starts on the side
    ``value > 0`` (``above``) or ``value ≤ 0``.
    """

    value: Callable[[Float[Array, "8"], RodContact], Float[Array, ""]]
    hold: Callable[[RodContact, Bool[Array, ""]], RodContact]


def _normal_gap(y: Float[Array, "8"], args: RodContact) -> Float[Array, ""]:
    return args.rod.gap(y[:3])[0]


def _hold_contact(args: RodContact, above: Bool[Array, ""]) -> RodContact:
    return RodContact(rod=args.rod, normal=FrozenContact(law=args.normal, closed=~above), friction=args.friction)


#: Restart surfaces by config name. ``contact``: ``g_n = 0`` (touch-down and lift-off), for normal laws with a
#: ``contact_force`` branch.
RESTART_SURFACES: dict[str, RestartSurface] = {"contact": RestartSurface(value=_normal_gap, hold=_hold_contact)}


def crossing_events(
    surface: RestartSurface, above: Bool[Array, ""]
) -> tuple[tuple[Callable, Callable], tuple[bool, bool]]:
    """Two diffrax condition functions and their directions: (downwards, upwards) crossings of ``surface``.

    Only the one for the current side is live; the other is a constant that never crosses zero.
    """

    def downwards(t, y, args, **kwargs):
        return jnp.where(above, surface.value(y, args), 1.0)

    def upwards(t, y, args, **kwargs):
        return jnp.where(above, -1.0, surface.value(y, args))

    return (downwards, upwards), (False, True)
