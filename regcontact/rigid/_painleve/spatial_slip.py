"""Rigid slip of one spatial contact, and where it crosses into the Painlevé region (Champneys & Várkonyi Sec. 7).

While the contact slips with ``u ≠ 0`` in the direction ``ϕ`` (``u = |u| (cos ϕ, sin ϕ)``), Coulomb friction is
``λ_T = −μ λ_N (cos ϕ, sin ϕ)`` (Eq. 37) and the normal acceleration is ``v̇ = b + p(ϕ) λ_N`` with
``p(ϕ) = C − μ Bᵀ(cos ϕ, sin ϕ)`` (Eqs. 38–39). The rigid force–acceleration problem of one contact in slip
(:func:`spatial_slip_problem`) has the free mode (consistent if ``b ≥ 0``) and the slip mode with
``λ_N = −b/p`` (consistent if ``λ_N > 0``, i.e. ``b p < 0``): a unique consistent mode where ``p > 0``, both or none
where ``p < 0``.

Unlike the planar case, ``p`` depends on the velocities through ``ϕ``. Sustained slip moves ``X = (q, v, t)`` by

    dX/dt = F(X) + λ_N N(X),   F = (v, M⁻¹h, 1),   N = (0, M⁻¹(W_nᵀ − μ W_Tᵀ(cos ϕ, sin ϕ)), 0),

and in the time ``s`` of ``dt = p ds`` by the smooth field ``dX/ds = p F − b N``. At ``p = 0`` with ``b < 0`` this is
``−b N ≠ 0`` and ``dp/ds = −b ∇p·N``, which is not zero in general because ``N`` turns the slip direction: the slip
crosses ``p = 0`` transversally, away from the G-spot (Sec. 7.2), with ``λ_N = −b/p → ∞`` like ``(t* − t)^(−1/2)``
(``p dp/dt = dp/ds``) and a finite normal impulse. :func:`spatial_rigid_slip` integrates it in ``s`` and locates the
crossing.
"""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Bool, Float

from regcontact._argument_checks import FINITE, check_argument
from regcontact.rigid._painleve.slip import RigidSlip, SlipState, one_contact
from regcontact.systems import AbstractSystem, spatial_contact_space_form

__all__ = ["SpatialSlipProblem", "spatial_rescaled_slip_field", "spatial_rigid_slip", "spatial_slip_problem"]


class SpatialSlipProblem(eqx.Module):
    """The rigid force–acceleration problem of one slipping spatial contact at one state: the slip direction ``ϕ``,
    the Painlevé parameter ``p(ϕ)``, the free normal acceleration ``b``, the slip mode's forces ``λ_N = −b/p`` and
    ``λ_T = −μ λ_N (cos ϕ, sin ϕ)``, and which modes are consistent."""

    phi: Float[Array, ""]
    painleve: Float[Array, ""]
    free_normal_acceleration: Float[Array, ""]
    normal_force: Float[Array, ""]
    tangential_force: Float[Array, "2"]
    free_consistent: Bool[Array, ""]
    slip_consistent: Bool[Array, ""]


def spatial_slip_problem(
    system: AbstractSystem, q: Float[Array, " n"], v: Float[Array, " n"], t: ArrayLike = 0.0
) -> SpatialSlipProblem:
    """The rigid slip problem of the one contact at ``(q, v, t)`` (in contact, slipping: ``u ≠ 0``)."""
    one_contact(system)
    for name, value in (("q", q), ("v", v), ("t", t)):
        check_argument(name, value, FINITE)
    form = spatial_contact_space_form(system, q, v, t)
    slip = system.jacobians(q)[0, 1:] @ v
    phi = jnp.arctan2(slip[1], slip[0])
    mu = system.friction_coefficients[0]
    p = form.painleve(mu, phi)
    normal = -form.b / p
    return SpatialSlipProblem(
        phi=phi,
        painleve=p,
        free_normal_acceleration=form.b,
        normal_force=normal,
        tangential_force=-mu * normal * jnp.stack([jnp.cos(phi), jnp.sin(phi)]),
        free_consistent=form.b >= 0,
        slip_consistent=normal > 0,
    )


def _normal_force_direction(system: AbstractSystem, q: Float[Array, " n"], v: Float[Array, " n"]):
    """``M⁻¹(W_nᵀ − μ W_Tᵀ ê)``: what a unit normal force of slip along ``ê = u/|u|`` does to the velocities."""
    rows = system.jacobians(q)[0]
    slip = rows[1:] @ v
    direction = slip / jnp.linalg.norm(slip)
    return system.mass_solve(q, rows[0] - system.friction_coefficients[0] * (direction @ rows[1:]))


def spatial_rescaled_slip_field(system: AbstractSystem, state: SlipState) -> SlipState:
    """``dX/ds = p F − b N``: rigid slip in the time ``s`` of ``dt = p ds``, smooth through ``p = 0``."""
    q, v, t = state
    problem = spatial_slip_problem(system, q, v, t)
    p, b = problem.painleve, problem.free_normal_acceleration
    acceleration = p * system.mass_solve(q, system.forces(q, v, t)) - b * _normal_force_direction(system, q, v)
    return p * v, acceleration, p


def _painleve(system: AbstractSystem, state: SlipState) -> Float[Array, ""]:
    return spatial_slip_problem(system, *state).painleve


#: The codes of :data:`~regcontact.rigid.SLIP_OUTCOMES` the spatial slip's ends take, in the order of its events
#: (still slipping, crossing, lift-off, slip stopped, no slip at the start, not finite).
_OUTCOME_CODES = (0, 7, 2, 3, 5, 6)


def spatial_rigid_slip(
    system: AbstractSystem, state0: SlipState, s_max: float, saves: int, stop_fraction: float, rtol: float
) -> RigidSlip:
    """:func:`~regcontact.rigid.rigid_slip` of a spatial contact after its checks: integrated in ``s`` (Tsit5)
    until ``p`` falls through 0 (a crossing), ``b`` rises through 0, the slip stops or ``s_max``; each end is
    located by bisection on the step; ``saves`` samples from the start to the end."""
    import diffrax

    from regcontact._crossing_bisection import CrossingBisection

    start = spatial_slip_problem(system, *state0)
    speed0 = jnp.linalg.norm(system.jacobians(state0[0])[0, 1:] @ state0[1])
    finite = jnp.all(jnp.isfinite(state0[0])) & jnp.all(jnp.isfinite(state0[1])) & jnp.isfinite(state0[2])
    finite = finite & jnp.isfinite(start.painleve) & jnp.isfinite(start.free_normal_acceleration)
    finite = finite & jnp.isfinite(system.friction_coefficients[0]) & jnp.isfinite(speed0)
    no_slip = ~finite | (start.painleve <= 0) | (start.free_normal_acceleration >= 0) | (speed0 == 0)

    def at_start(t, y, args, **kwargs):
        return no_slip

    def field(s, augmented, args):
        state, _, _ = augmented
        problem = spatial_slip_problem(system, *state)
        b = problem.free_normal_acceleration
        direction = jnp.stack([jnp.cos(problem.phi), jnp.sin(problem.phi)])
        # λ_N dt = −b ds, λ_T dt = −μ ê λ_N dt
        return spatial_rescaled_slip_field(system, state), -b, system.friction_coefficients[0] * b * direction

    def crossing(t, y, args, **kwargs):
        return -_painleve(system, y[0])

    def lift_off(t, y, args, **kwargs):
        return spatial_slip_problem(system, *y[0]).free_normal_acceleration

    def stopped(t, y, args, **kwargs):
        q, v, _ = y[0]
        return stop_fraction * speed0 - jnp.linalg.norm(system.jacobians(q)[0, 1:] @ v)

    event = diffrax.Event(
        cond_fn=(crossing, lift_off, stopped, at_start),
        root_finder=CrossingBisection(),  # type: ignore[call-arg]  # equinox defaults mypy does not see
        direction=(True, True, True, None),
    )

    def integrate(ts):
        return diffrax.diffeqsolve(
            diffrax.ODETerm(field),
            diffrax.Tsit5(),
            t0=0.0,
            t1=s_max,
            dt0=1e-3,
            y0=(state0, jnp.zeros(()), jnp.zeros(2)),
            saveat=diffrax.SaveAt(subs=[diffrax.SubSaveAt(ts=ts), diffrax.SubSaveAt(t1=True)]),
            stepsize_controller=diffrax.PIDController(rtol=rtol, atol=rtol * 1e-3),
            event=event,
            max_steps=100_000,
            throw=False,
        )

    # where it ends first (its s-scale is 1/p, unknown before), then samples uniform in s up to there
    ts = jnp.linspace(0.0, integrate(jnp.zeros(1)).ts[1][-1], saves)
    solution = integrate(ts)
    (samples, impulse, _), (last, last_impulse, last_tangential) = solution.ys
    q, v, t = samples
    end = jax.tree_util.tree_map(lambda x: x[-1], last)
    masks = solution.event_mask if solution.event_mask is not None else (False,) * 4
    fired = jnp.stack([jnp.asarray(m) for m in masks])
    outcome = jnp.where(jnp.any(fired), 1 + jnp.argmax(fired), 0)
    outcome = jnp.asarray(_OUTCOME_CODES)[jnp.where(no_slip, jnp.where(finite, 4, 5), outcome)]
    problems = jax.vmap(lambda qq, vv, tt: spatial_slip_problem(system, qq, vv, tt))(q, v, t)
    end_problem = spatial_slip_problem(system, *end)
    _, rate = jax.jvp(lambda x: _painleve(system, x), (end,), (spatial_rescaled_slip_field(system, end),))
    return RigidSlip(
        s=jnp.where(jnp.isfinite(t), ts, jnp.nan),
        t=t,
        q=q,
        v=v,
        phi=problems.phi,
        painleve=problems.painleve,
        free_normal_acceleration=problems.free_normal_acceleration,
        normal_impulse=impulse,
        outcome=outcome,
        end=end,
        end_s=solution.ts[1][-1],
        end_normal_impulse=last_impulse[-1],
        end_tangential_impulse=last_tangential[-1],
        end_free_normal_acceleration=end_problem.free_normal_acceleration,
        end_phi=end_problem.phi,
        end_painleve_rate=rate,
        jam=jax.tree_util.tree_map(lambda x: jnp.full_like(x, jnp.nan), end),  # a spatial slip crosses, never jams
        jam_normal_impulse=jnp.full_like(last_impulse[-1], jnp.nan),
    )
