"""The record of rigid slip of one contact, planar or spatial, and the codes of how it ends."""

from __future__ import annotations

import equinox as eqx
from jaxtyping import Array, Float, Int

from regcontact.systems.system import AbstractSystem, check_is_system

__all__ = ["SLIP_OUTCOMES", "RigidSlip", "SlipState", "one_contact"]

#: ``(q, v, t)``: the state the slip flow moves, time included (the loads may depend on it).
SlipState = tuple[Float[Array, " n"], Float[Array, " n"], Float[Array, ""]]

#: :attr:`RigidSlip.outcome` codes: 0 still slipping at ``s_max``; 1 jam, a planar contact at the G-spot (``p`` and
#: ``b`` fell below ``jam_tolerance`` of their start, or ``p`` to its round-off and ``b`` below that tolerance);
#: 2 lift-off (``b`` rose through 0 at ``p > 0``, located on the step, or ``b ≥ 0`` at the start); 3 the slip
#: stopped (planar: ``s ġ_t`` fell through 0; spatial: ``|u|`` fell below ``stop_fraction`` of its start; located);
#: 4 ``p`` reached 0 away from the G-spot at a planar contact (beyond its round-off, or at it with ``|b|`` not
#: falling: ``λ_n`` not integrable, not expected, Sec. 5.1); 5 no slip to follow: the start has ``p ≤ 0`` (a
#: Painlevé state) or no slip (a spatial start also ``b ≥ 0``); 6 a start or ``μ`` that is not finite (traced
#: values; concrete ones are refused with ``ValueError``); 7 crossing, a spatial contact's ``p(ϕ)`` fell through 0
#: transversally (Sec. 7.2).
SLIP_OUTCOMES: tuple[str, ...] = (
    "slipping",
    "jam",
    "lift-off",
    "slip stopped",
    "p ≤ 0 away from the G-spot",
    "no slip at the start",
    "not finite",
    "crossing",
)


class RigidSlip(eqx.Module):
    """Rigid slip of one contact (``d`` tangent directions) sampled uniformly in the time ``s`` of ``dt = p ds``
    (samples after the end are ``nan``), and its end.

    Along the slip: ``phi`` the slip direction (``u = |u| (cos ϕ, sin ϕ)``; planar: 0 or π), ``painleve`` ``p``,
    ``free_normal_acceleration`` ``b``, ``normal_impulse`` ``∫λ_n dt = −∫b ds`` from the start (finite in ``s``
    even where ``λ_n`` diverges). At the end: ``end`` (the state), ``end_s``, ``end_normal_impulse``,
    ``end_tangential_impulse`` (``∫λ_t dt``, ``d`` numbers), ``end_free_normal_acceleration``, ``end_phi`` and
    ``end_painleve_rate`` (``dp/ds``: at a crossing, negative and away from zero when it is transversal). After a
    jam, ``jam`` is the state at the G-spot and ``jam_normal_impulse`` the impulse up to it, the end extrapolated
    by Eqs. 33–34 (``nan`` for the other outcomes). :data:`SLIP_OUTCOMES` names ``outcome``.
    """

    s: Float[Array, " saves"]
    t: Float[Array, " saves"]
    q: Float[Array, "saves n"]
    v: Float[Array, "saves n"]
    phi: Float[Array, " saves"]
    painleve: Float[Array, " saves"]
    free_normal_acceleration: Float[Array, " saves"]
    normal_impulse: Float[Array, " saves"]
    outcome: Int[Array, ""]
    end: SlipState
    end_s: Float[Array, ""]
    end_normal_impulse: Float[Array, ""]
    end_tangential_impulse: Float[Array, " d"]
    end_free_normal_acceleration: Float[Array, ""]
    end_phi: Float[Array, ""]
    end_painleve_rate: Float[Array, ""]
    jam: SlipState
    jam_normal_impulse: Float[Array, ""]

    def normal_force(self) -> Float[Array, " saves"]:
        """``λ_n = −b/p`` along the slip."""
        return -self.free_normal_acceleration / self.painleve


def one_contact(system: AbstractSystem) -> None:
    """Refuse anything but a system, and a system with more than one contact, in one line (the slip analyses are
    of one slipping contact)."""
    check_is_system("system", system)
    if type(system).NUM_CONTACTS != 1:
        raise ValueError(
            f"{type(system).__name__} has {type(system).NUM_CONTACTS} contacts: expected one (the slip analysis is "
            "for a single slipping contact)"
        )
