"""Rigid slip of one contact, planar or spatial, to its end: a jam, a crossing, a lift-off or a stop."""

from __future__ import annotations

from collections.abc import Callable

import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float

from regcontact._argument_checks import FINITE, POSITIVE, UNIT_INTERVAL, check_argument
from regcontact.rigid._checks import at_least
from regcontact.rigid._painleve.dynamic_jam import planar_rigid_slip
from regcontact.rigid._painleve.slip import RigidSlip, one_contact
from regcontact.rigid._painleve.spatial_slip import spatial_rigid_slip
from regcontact.systems.system import AbstractSystem

__all__ = ["rigid_slip"]

#: Per tangent dimension: the default ``s_max`` (planar slip approaches a jam only as ``s → ∞``, so it runs longer),
#: the integration, ``(system, state0, s_max, saves, tolerance, rtol) → RigidSlip``, and which tolerance it takes.
_PATHS: dict[int, tuple[float, Callable[..., RigidSlip], str]] = {
    1: (40.0, planar_rigid_slip, "jam_tolerance"),
    2: (20.0, spatial_rigid_slip, "stop_fraction"),
}


def rigid_slip(
    system: AbstractSystem,
    q0: Float[Array, " n"] | None = None,
    v0: Float[Array, " n"] | None = None,
    t0: ArrayLike = 0.0,
    s_max: float | None = None,
    saves: int = 400,
    jam_tolerance: float = 1e-5,
    stop_fraction: float = 1e-6,
    rtol: float = 1e-10,
) -> RigidSlip:
    """Rigid slip of the one contact of ``system`` (planar or spatial) from ``(q0, v0, t0)``, integrated in the time
    ``s`` of ``dt = p ds`` (smooth through ``p = 0``) until it ends.

    A planar contact slips until it jams at the G-spot (extrapolated there by Eqs. 33–34), lifts off, stops or
    reaches ``p = 0`` elsewhere; a spatial one until its ``p(ϕ)`` falls through 0 (a crossing, Sec. 7.2), it lifts
    off or stops. :data:`~regcontact.rigid.SLIP_OUTCOMES` names the outcome.

    Arguments:
        system: a one-contact system; the start must be in contact and slipping with ``p > 0 > b``.
        q0: the start's coordinates (default: the system's initial state).
        v0: the start's velocities (default: the system's initial state).
        t0: the start's time.
        s_max: the end of the integration in ``s`` (default 40 planar, 20 spatial).
        saves: samples uniform in ``s`` (planar: over ``[0, s_max]``; spatial: from the start to the end).
        jam_tolerance: a planar jam is ``p`` and ``b`` below this fraction of their start.
        stop_fraction: a spatial slip has stopped when ``|u|`` is below this fraction of its start.
        rtol: the integration's relative tolerance.

    Returns:
        A :class:`~regcontact.rigid.RigidSlip`. jit- and vmap-able; concrete arguments are checked (``ValueError``
        in one line), traced ones that are not finite give the outcome ``"not finite"``.

    Example:
        >>> slip = rigid_slip(rod)  # doctest: +SKIP
        >>> SLIP_OUTCOMES[int(slip.outcome)]  # doctest: +SKIP
        'jam'
    """
    one_contact(system)
    default_s_max, path, tolerance_name = _PATHS[type(system).TANGENT_DIM]
    if q0 is None or v0 is None:
        q0, v0 = system.initial_state()
    for name, value in (("q0", q0), ("v0", v0), ("t0", t0)):
        check_argument(name, value, FINITE)
    s_max = default_s_max if s_max is None else s_max
    check_argument("s_max", s_max, POSITIVE)
    check_argument("saves", saves, at_least(1))
    check_argument("jam_tolerance", jam_tolerance, UNIT_INTERVAL)
    check_argument("stop_fraction", stop_fraction, UNIT_INTERVAL)
    check_argument("rtol", rtol, UNIT_INTERVAL)
    state0 = (jnp.asarray(q0, float), jnp.asarray(v0, float), jnp.asarray(t0, float))
    tolerance = {"jam_tolerance": jam_tolerance, "stop_fraction": stop_fraction}[tolerance_name]
    return path(system, state0, s_max, int(saves), tolerance, rtol)
