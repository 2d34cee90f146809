"""The rigid impact at a 3D crossing: the transversal crossing of ``p = 0`` by a slipping spatial contact.

Past the crossing (``p(ϕ) < 0``, ``b < 0``) neither slip (``λ_N = −b/p < 0``) nor free motion is consistent
(Sec. 7.1): rigid slip has no continuation. On the impact scale the contact moves with the impulse only
(Darboux–Keller): while it slips, ``du/dI = B − μ A ê`` and ``dv/dI = p(ϕ)`` with ``ê = u/|u|``. At the crossing
``v = 0`` and ``p = 0``; ``ϕ`` keeps turning the way it turned, so ``p < 0`` and the normal velocity becomes
negative: an impact without collision (IWC). :func:`crossing_impact` integrates it with Poisson's rule ``r = 0``
(compression until ``v = 0``, no restitution, the limit of a damped law whose damping grows as fast as its
stiffness): in slip until the slip stops, then, if the contact still approaches and sticking is inside the cone
(``|A⁻¹B| ≤ μ``), in stick (``λ_T = −A⁻¹B λ_N``, ``dv/dI = C − BᵀA⁻¹B > 0``) until ``v = 0``.
:func:`crossing_reference` is what a compliant run through the crossing is compared with
(:mod:`regcontact.passages`).
"""

from __future__ import annotations

import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, Bool, Float

from regcontact._argument_checks import FINITE, UNIT_INTERVAL, check_argument
from regcontact.rigid._painleve.rigid_slip import rigid_slip
from regcontact.rigid._painleve.slip import SLIP_OUTCOMES
from regcontact.systems import AbstractSystem, spatial_contact_space_form
from regcontact.systems.system import check_is_system

__all__ = ["CrossingImpact", "CrossingReference", "crossing_impact", "crossing_reference"]


class CrossingImpact(eqx.Module):
    """The rigid IWC at a crossing (module docstring): the normal impulse in slip and in total, the tangential
    impulse, the velocities after, whether the slip stopped, and whether the stick phase was inside the cone."""

    slip_impulse: Float[Array, ""]
    normal_impulse: Float[Array, ""]
    tangential_impulse: Float[Array, "2"]
    v_after: Float[Array, " n"]
    slip_stopped: Bool[Array, ""]
    stick_in_cone: Bool[Array, ""]


def crossing_impact(
    system: AbstractSystem, q: Float[Array, " n"], v: Float[Array, " n"], rtol: float = 1e-11
) -> CrossingImpact:
    """The Darboux–Keller impact with ``r = 0`` of the one contact from ``(q, v)`` (module docstring)."""
    import diffrax

    from regcontact._crossing_bisection import CrossingBisection

    check_is_system("system", system)
    for name, value, rule in (("q", q, FINITE), ("v", v, FINITE), ("rtol", rtol, UNIT_INTERVAL)):
        check_argument(name, value, rule)

    rows = system.jacobians(q)[0]
    mu = system.friction_coefficients[0]
    speed0 = jnp.linalg.norm(rows[1:] @ v)

    def slip_rate(impulse, y, args):
        velocity, _ = y
        slip = rows[1:] @ velocity
        friction = -mu * slip / jnp.linalg.norm(slip)
        return system.mass_solve(q, rows[0] + friction @ rows[1:]), friction

    def stopped(t, y, args, **kwargs):
        return 1e-12 * speed0 - jnp.linalg.norm(rows[1:] @ y[0])

    def separating(t, y, args, **kwargs):
        return rows[0] @ y[0] - jnp.where(t > 0, 0.0, 1.0)  # v = 0 at the start: only a later return counts

    solution = diffrax.diffeqsolve(
        diffrax.ODETerm(slip_rate),
        diffrax.Tsit5(),
        t0=0.0,
        t1=1e3,  # far beyond any impulse that stops an O(1) slip of an O(1) mass
        dt0=1e-6,
        y0=(v, jnp.zeros(2)),
        stepsize_controller=diffrax.PIDController(rtol=rtol, atol=rtol * 1e-3),
        event=diffrax.Event(
            cond_fn=(stopped, separating),
            root_finder=CrossingBisection(),  # type: ignore[call-arg]  # equinox defaults mypy does not see
            direction=(True, True),
        ),
        max_steps=100_000,
        throw=False,
    )
    assert solution.ys is not None
    v1, tangential1 = solution.ys[0][-1], solution.ys[1][-1]
    slip_impulse = solution.ts[-1]
    form = spatial_contact_space_form(system, q, v1)
    stick_friction = -jnp.linalg.solve(form.A, form.B)
    approaching = rows[0] @ v1 < 0
    schur = form.C - form.B @ jnp.linalg.solve(form.A, form.B)
    stick_impulse = jnp.where(approaching, -(rows[0] @ v1) / schur, 0.0)
    v2 = v1 + system.mass_solve(q, rows[0] + stick_friction @ rows[1:]) * stick_impulse
    return CrossingImpact(
        slip_impulse=slip_impulse,
        normal_impulse=slip_impulse + stick_impulse,
        tangential_impulse=tangential1 + stick_friction * stick_impulse,
        v_after=v2,
        slip_stopped=jnp.linalg.norm(rows[1:] @ v1) <= 1e-9 * speed0,
        stick_in_cone=jnp.linalg.norm(stick_friction) <= mu,
    )


@dataclasses.dataclass(frozen=True)
class CrossingReference:
    """The rigid slip of a spatial system from its start to its crossing of ``p = 0``: when (``t_cross``), its force
    integrals up to then (normal, tangential 1, tangential 2), the state there, ``b`` there, and the rigid IWC."""

    t_cross: float
    impulse: tuple[float, float, float]
    q: np.ndarray
    v: np.ndarray
    free_normal_acceleration: float
    impact: CrossingImpact


def crossing_reference(system: AbstractSystem) -> CrossingReference:
    """The rigid slip of ``system`` from its initial state, which must cross ``p = 0`` (``ValueError`` otherwise)."""
    check_is_system("system", system)
    slip = jax.jit(rigid_slip)(system)
    outcome = SLIP_OUTCOMES[int(slip.outcome)]
    if outcome != "crossing":
        raise ValueError(f"the rigid slip of this system ends with {outcome!r}, not at a crossing of p = 0")
    q, v, t = slip.end
    tangential = np.asarray(slip.end_tangential_impulse)
    return CrossingReference(
        t_cross=float(t),
        impulse=(float(slip.end_normal_impulse), float(tangential[0]), float(tangential[1])),
        q=np.asarray(q),
        v=np.asarray(v),
        free_normal_acceleration=float(slip.end_free_normal_acceleration),
        impact=jax.jit(crossing_impact)(system, q, v),
    )
