"""Beyond the 3D crossing: the compliant model run through the transversal crossing of ``p = 0`` by a slipping spatial
contact, and the rigid impact it converges to.

Past the crossing (``p(ϕ) < 0``, ``b < 0``) neither slip (``λ_N = −b/p < 0``) nor free motion is consistent
(Sec. 7.1): rigid slip has no continuation. On the impact scale the contact moves with the impulse only
(Darboux–Keller): while it slips, ``du/dI = B − μ A ê`` and ``dv/dI = p(ϕ)`` with ``ê = u/|u|``. At the crossing
``v = 0`` and ``p = 0``; ``ϕ`` keeps turning the way it turned, so ``p < 0`` and the normal velocity becomes
negative: an impact without collision (IWC). :func:`crossing_impact` integrates it with Poisson's rule ``r = 0``
(compression until ``v = 0``, no restitution, the limit of a damped law whose damping grows as fast as its
stiffness): in slip until the slip stops, then, if the contact still approaches and sticking is inside the cone
(``|A⁻¹B| ≤ μ``), in stick (``λ_T = −A⁻¹B λ_N``, ``dv/dI = C − BᵀA⁻¹B > 0``) until ``v = 0``.

:func:`pass_crossing` runs the compliant model of the system through the crossing for a batch of α (one jit-compiled
vmap): started on the rigid slip's load (:func:`~regcontact.compliant.initial_penetration.slipping_initial_state`),
with no lift-off event, to ``t* + window``, sampled at the end of the impulse ``t* + Δ(α)`` (``Δ``: ``IMPACT_TIMES``
contact times, ``→ 0`` like ``α^(−1/2)``) and at the end. :func:`classify_crossing` says what followed, with the
outcome names of the planar jam (:data:`~regcontact.rigid.beyond_jam.BEYOND_JAM_OUTCOMES`).
"""

from __future__ import annotations

import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Bool, Float

from regcontact._argument_checks import FINITE, POSITIVE, UNIT_INTERVAL, check_argument
from regcontact.compliant import CompliantSystem, contact_forces, sampled_run
from regcontact.compliant.initial_penetration import slipping_initial_state
from regcontact.compliant.outcome import IMPULSIVE_FACTOR
from regcontact.compliant.resolution import GAP_ROUNDOFF_ULPS
from regcontact.contact.contact_model import ContactModel
from regcontact.rigid._analysis_checks import at_least
from regcontact.rigid.beyond_jam import BEYOND_JAM_OUTCOMES, STOPPED_SLIP
from regcontact.rigid.spatial_slip import SPATIAL_SLIP_OUTCOMES, spatial_rigid_slip
from regcontact.systems import AbstractSystem, spatial_contact_space_form

__all__ = [
    "IMPACT_TIMES",
    "CrossingImpact",
    "CrossingPassage",
    "CrossingReference",
    "PastCrossing",
    "classify_crossing",
    "crossing_impact",
    "crossing_reference",
    "pass_crossing",
]

#: The impulse is over ``IMPACT_TIMES`` contact times ``π √(m_n / k_n(α))`` after the crossing (measured on the
#: Fig. 17 rod: the normal force is back to the slow motion's within two).
IMPACT_TIMES = 5.0


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

    for name, value, rule in (("q", q, FINITE), ("v", v, FINITE), ("rtol", rtol, UNIT_INTERVAL)):
        check_argument(name, value, rule)

    from regcontact.compliant.solvers import CrossingBisection

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
    slip = jax.jit(spatial_rigid_slip)(system)
    outcome = SPATIAL_SLIP_OUTCOMES[int(slip.outcome)]
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


class CrossingPassage(eqx.Module):
    """Compliant runs through a crossing, one per α (leading axis): solver success; the impulse window ``Δ``; at
    ``t* + Δ`` the force integrals, velocities and contact rates; at the end the same; the largest gap after
    ``t* + Δ`` (a bounce) and the samples (times, normal force, gap, rates)."""

    alpha: Float[Array, " a"]
    ok: Bool[Array, " a"]
    impact_window: Float[Array, " a"]
    impulse_after: Float[Array, "a 3"]
    v_after: Float[Array, "a n"]
    rates_after: Float[Array, "a 3"]
    impulse_end: Float[Array, "a 3"]
    v_end: Float[Array, "a n"]
    rates_end: Float[Array, "a 3"]
    largest_gap: Float[Array, " a"]
    times: Float[Array, "a m"]
    normal_force: Float[Array, "a m"]
    gap: Float[Array, "a m"]
    rates: Float[Array, "a m 3"]


def pass_crossing(
    system: AbstractSystem,
    contact: ContactModel,
    alphas: ArrayLike,
    t_cross: float,
    window: float = 0.3,
    samples: int = 300,
    rtol: float = 1e-8,
    atol: float = 1e-12,
) -> CrossingPassage:
    """Compliant runs of ``system`` through its crossing at ``t_cross``, one jitted vmap over ``alphas`` (module
    docstring); samples on a grid geometric in ``t − t*`` from ``Δ/100`` to ``window``, and before ``t*``.
    Concrete arguments are checked first (``ValueError`` in one line)."""
    if not isinstance(contact, ContactModel):
        raise TypeError(f"contact = {contact!r}: expected a ContactModel")
    for name, value, rule in (
        ("alphas", alphas, POSITIVE),
        ("t_cross", t_cross, POSITIVE),
        ("window", window, POSITIVE),
        ("samples", samples, at_least(4)),
        ("rtol", rtol, UNIT_INTERVAL),
        ("atol", atol, POSITIVE),
    ):
        check_argument(name, value, rule)

    def one(alpha):
        normal, friction = contact.at_stiffness(alpha)
        args = CompliantSystem(system, normal, friction)
        q0, _ = system.initial_state()
        row = system.jacobians(q0)[0, 0]
        normal_mass = 1.0 / (row @ system.mass_solve(q0, row))
        stiffness = getattr(normal, "stiffness", alpha)
        delta = IMPACT_TIMES * jnp.pi * jnp.sqrt(normal_mass / stiffness)
        after = jnp.geomspace(delta / 100, window, samples // 2)
        before = -jnp.geomspace(jnp.minimum(window, t_cross) * 0.99, delta / 100, samples - samples // 2 - 1)
        ts = jnp.sort(jnp.concatenate([t_cross + before, jnp.asarray([t_cross]) + delta, t_cross + after]))
        run = sampled_run(
            system, contact, alpha, slipping_initial_state(system, normal), t_cross + window, ts, rtol, atol,
            stop_at_lift_off=False,
        )  # fmt: skip
        ys = run.samples
        forces = jax.vmap(lambda q, v: contact_forces(args, q, v)[0])(ys.q, ys.v)
        rates = jax.vmap(lambda q, v: system.jacobians(q)[0] @ v)(ys.q, ys.v)
        gaps = jax.vmap(lambda q: system.gaps(q)[0, 0])(ys.q)
        k = jnp.searchsorted(ts, t_cross + delta)
        end = run.state_end
        largest = jnp.max(jnp.where(ts > t_cross + delta, gaps, -jnp.inf))
        return (
            run.ok, delta, ys.impulses[k, 0], ys.v[k], rates[k], end.impulses[0], end.v,
            system.jacobians(end.q)[0] @ end.v, largest, ts, forces[:, 0], gaps, rates,
        )  # fmt: skip

    alphas = jnp.asarray(alphas, float)
    out = jax.jit(jax.vmap(one))(alphas)
    return CrossingPassage(alphas, *out)


@dataclasses.dataclass(frozen=True)
class PastCrossing:
    """What followed the crossing in each run of a :class:`CrossingPassage` (numpy arrays over α).

    ``outcome`` indexes :data:`~regcontact.rigid.beyond_jam.BEYOND_JAM_OUTCOMES` for the impulse (``jump_into_stick``:
    an impulse that stopped the slip); ``impulse`` the excess ``P(t* + Δ) − P_rigid(t*)`` (normal, tangential 1, 2);
    ``impulse_error`` its distance to the rigid IWC's and ``velocity_error`` the largest difference between the
    velocities at ``t* + Δ`` and the IWC's ``v⁺``; ``bounce`` the largest gap after the impulse (a flight, ``0`` if
    the contact stayed closed); ``end_slip`` the slip at ``t* + window`` and ``end_closed`` whether the contact is
    closed there.
    """

    alpha: np.ndarray
    outcome: np.ndarray
    impulse: np.ndarray
    impulse_error: np.ndarray
    velocity_error: np.ndarray
    slip_after: np.ndarray
    normal_velocity_after: np.ndarray
    bounce: np.ndarray
    end_slip: np.ndarray
    end_closed: np.ndarray

    @property
    def outcome_names(self) -> list[str]:
        return [BEYOND_JAM_OUTCOMES[int(code)] for code in self.outcome]


def classify_crossing(system: AbstractSystem, passage: CrossingPassage, reference: CrossingReference) -> PastCrossing:
    """What followed the crossing in each run (see :class:`PastCrossing`), against ``reference``."""
    excess = np.asarray(passage.impulse_after) - np.asarray(reference.impulse)
    rows = np.asarray(system.jacobians(jnp.asarray(reference.q))[0])
    form = spatial_contact_space_form(system, jnp.asarray(reference.q), jnp.asarray(reference.v))
    slow = abs(reference.free_normal_acceleration) / float(form.C)  # the slow force scale m_n |b| at the crossing
    window = np.asarray(passage.impact_window)
    impulsive = excess[:, 0] > IMPULSIVE_FACTOR * slow * window
    slip_before = np.linalg.norm(rows[1:] @ reference.v)
    slip_after = np.linalg.norm(np.asarray(passage.rates_after)[:, 1:], axis=-1)
    stopped = slip_after < STOPPED_SLIP * slip_before
    threshold = GAP_ROUNDOFF_ULPS * np.finfo(float).eps * float(system.length_scale)
    end_closed = np.asarray(passage.gap)[:, -1] <= threshold
    outcome = np.where(impulsive, np.where(stopped, 0, 1), np.where(~end_closed, 2, 3))
    outcome = np.where(np.asarray(passage.ok), outcome, 4)
    impact = reference.impact
    rigid_excess = np.concatenate([[float(impact.normal_impulse)], np.asarray(impact.tangential_impulse)])
    return PastCrossing(
        alpha=np.asarray(passage.alpha),
        outcome=outcome,
        impulse=excess,
        impulse_error=np.max(np.abs(excess - rigid_excess), axis=-1),
        velocity_error=np.max(np.abs(np.asarray(passage.v_after) - np.asarray(impact.v_after)), axis=-1),
        slip_after=slip_after,
        normal_velocity_after=np.asarray(passage.rates_after)[:, 0],
        bounce=np.maximum(np.asarray(passage.largest_gap), 0.0),
        end_slip=np.asarray(passage.rates_end)[:, 1:],
        end_closed=end_closed,
    )
