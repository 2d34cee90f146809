"""The rigid jump into stick at a jam: the impulse that stops the slip at the G-spot, and the rigid slip taken there.

Rigid slip reaches the G-spot ``p = b = 0`` in finite time (:func:`~regcontact.rigid.rigid_slip`) and cannot go on
in slip. On the impact scale the contact moves with the impulse only (Darboux–Keller, ``docs/impacts.md``): in
slip ``du/dI = B − sμA`` and ``dv/dI = p``, which is zero at the G-spot, so a normal impulse there slows the slip
without moving the normal velocity. :func:`stick_jump` is the impulse that brings the slip to zero,
``I* = |u⁻| / |B − sμA|`` (tangential ``−sμ I*``), and the velocities it leaves: ``u⁺ = 0``, ``v⁺ = 0``. It is
the limit of a Darboux–Keller impact started just past the G-spot (``p → 0⁻``), whose compression then vanishes,
with any restitution rule that scales compression (Poisson ``r = 0``, energetic, Newton). :func:`jam_reference` is
what a compliant run through the jam is compared with (:mod:`regcontact.passages`).
"""

from __future__ import annotations

import dataclasses

import equinox as eqx
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Float

from regcontact._argument_checks import FINITE, check_argument
from regcontact.rigid._painleve.dynamic_jam import slip_sign
from regcontact.rigid._painleve.rigid_slip import rigid_slip
from regcontact.rigid._painleve.slip import SLIP_OUTCOMES
from regcontact.systems.reduced_two_contact import contact_space_form
from regcontact.systems.system import AbstractSystem, check_is_system

__all__ = ["JamReference", "StickJump", "jam_reference", "stick_jump"]


class StickJump(eqx.Module):
    """The rigid impulse that stops the slip at the G-spot: ``(I_n, I_t)``, the slip before, the velocities after."""

    normal_impulse: Float[Array, ""]
    tangential_impulse: Float[Array, ""]
    slip_before: Float[Array, ""]
    v_after: Float[Array, " n"]


def stick_jump(system: AbstractSystem, q: Float[Array, " n"], v: Float[Array, " n"], t: ArrayLike = 0.0) -> StickJump:
    """The impulse along the slip's cone edge that brings the slip ``u = ġ_t`` of the one contact to zero,
    ``I* = |u| / |B − sμA|``, and ``v⁺ = v + M⁻¹(W_n − sμW_t)ᵀ I*`` (module docstring). At a G-spot (``p = 0``) it
    leaves the normal velocity unchanged."""
    check_is_system("system", system)
    for name, value in (("q", q), ("v", v), ("t", t)):
        check_argument(name, value, FINITE)
    form = contact_space_form(system, q, v, t)
    sign = slip_sign(system, q, v)
    mu = system.friction_coefficients[0]
    slip = system.jacobians(q)[0, 1] @ v
    impulse = jnp.abs(slip) / jnp.abs(form.B[0, 0] - sign * mu * form.A[0, 0])
    rows = system.jacobians(q)[0]
    v_after = v + system.mass_solve(q, (rows[0] - sign * mu * rows[1]) * impulse)
    return StickJump(normal_impulse=impulse, tangential_impulse=-sign * mu * impulse, slip_before=slip, v_after=v_after)


@dataclasses.dataclass(frozen=True)
class JamReference:
    """The rigid slip of a system from its initial state to the G-spot: when (``t_jam``), its force integrals up to
    then (``impulse``: normal, tangential), the state there, and the :func:`stick_jump` at it."""

    t_jam: float
    impulse: tuple[float, float]
    q: np.ndarray
    v: np.ndarray
    jump: StickJump


def jam_reference(system: AbstractSystem) -> JamReference:
    """The rigid slip of ``system`` from its initial state, which must jam (``ValueError`` otherwise), taken to
    the G-spot itself (``p = 0``: the jam state of :func:`~regcontact.rigid.rigid_slip`)."""
    check_is_system("system", system)
    q0, v0 = system.initial_state()
    slip = rigid_slip(system, q0, v0)
    outcome = SLIP_OUTCOMES[int(slip.outcome)]
    if outcome != "jam":
        raise ValueError(f"the rigid slip of this system ends with {outcome!r}, not at a G-spot")
    q, v, t = slip.jam
    sign = float(slip_sign(system, q0, v0))
    normal = float(slip.jam_normal_impulse)
    return JamReference(
        t_jam=float(t),
        impulse=(normal, -sign * float(system.friction_coefficients[0]) * normal),
        q=np.asarray(q),
        v=np.asarray(v),
        jump=stick_jump(system, q, v, t),
    )
