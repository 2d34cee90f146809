"""Compliant runs through a 3D crossing, and what follows it, against the rigid impact without collision.

Rigid slip of one spatial contact can cross ``p = 0`` transversally (:func:`~regcontact.rigid.rigid_slip`); the rigid
prediction there is an impact without collision (:func:`~regcontact.rigid.crossing_impact`,
:func:`~regcontact.rigid.crossing_reference`). :func:`~regcontact.passages.pass_through` runs the compliant model of a
spatial contact through the crossing for a batch of α (one jit-compiled vmap): started on the rigid slip's load
(:func:`~regcontact.compliant.initial_penetration.slipping_initial_state`), with no lift-off event, to ``t* + window``,
sampled at the end of the impulse ``t* + Δ(α)`` (``Δ``: ``IMPACT_TIMES`` contact times, ``→ 0`` like ``α^(−1/2)``) and
at the end (:class:`CrossingPassage`); :meth:`CrossingPassage.classify` says what followed, with the outcome names of
the planar jam (:data:`~regcontact.passages.BEYOND_JAM_OUTCOMES`).
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Bool, Float

from regcontact._argument_checks import POSITIVE, RELATIVE_TOLERANCE, check_argument
from regcontact.compliant import CompliantSystem, contact_forces, sampled_run
from regcontact.compliant.initial_penetration import slipping_initial_state
from regcontact.compliant.outcome import IMPULSIVE_FACTOR
from regcontact.compliant.resolution import GAP_ROUNDOFF_ULPS
from regcontact.contact import ContactModel, select_contacts
from regcontact.passages._jam import STOPPED_SLIP
from regcontact.passages._passage import AbstractPassage, PassageOutcome
from regcontact.rigid import CrossingReference
from regcontact.rigid._checks import at_least
from regcontact.systems import AbstractSystem, spatial_contact_space_form

__all__ = ["IMPACT_TIMES", "CrossingPassage", "PastCrossing", "pass_crossing"]

#: The impulse is over ``IMPACT_TIMES`` contact times ``π √(m_n / k_n(α))`` after the crossing (measured on the
#: Fig. 17 rod: the normal force is back to the slow motion's within two).
IMPACT_TIMES = 5.0


class CrossingPassage(AbstractPassage):
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

    def classify(self, system: AbstractSystem, reference: CrossingReference) -> PastCrossing:
        """What followed the crossing in each run (see :class:`PastCrossing`), against ``reference``."""
        return _classify(system, self, reference)


def pass_crossing(
    system: AbstractSystem,
    contact: ContactModel,
    alphas: ArrayLike,
    reference: CrossingReference,
    window: float = 0.3,
    samples: int = 300,
    rtol: float = 1e-8,
    atol: float = 1e-12,
    max_steps: int = 200_000,
) -> CrossingPassage:
    """Compliant runs of ``system`` through the crossing of ``reference`` at ``t_cross``, one jitted vmap over
    ``alphas`` (module docstring); samples on a grid geometric in ``t − t*`` from ``Δ/100`` to ``window``, and before
    ``t*``. Concrete arguments are checked first (``ValueError`` in one line)."""
    t_cross = reference.t_cross
    for name, value, rule in (
        ("alphas", alphas, POSITIVE),
        ("t_cross", t_cross, POSITIVE),
        ("window", window, POSITIVE),
        ("samples", samples, at_least(4)),
        ("rtol", rtol, RELATIVE_TOLERANCE),
        ("atol", atol, POSITIVE),
        ("max_steps", max_steps, at_least(1)),
    ):
        check_argument(name, value, rule)

    def one(alpha):
        normal, friction = contact.at_stiffness(alpha)
        args = CompliantSystem(system, normal, friction)
        q0, _ = system.initial_state()
        row = system.jacobians(q0)[0, 0]
        normal_mass = 1.0 / (row @ system.mass_solve(q0, row))
        stiffness = getattr(select_contacts(normal, 0), "stiffness", alpha)  # the crossing contact's
        delta = IMPACT_TIMES * jnp.pi * jnp.sqrt(normal_mass / stiffness)
        after = jnp.geomspace(delta / 100, window, samples // 2)
        before = -jnp.geomspace(jnp.minimum(window, t_cross) * 0.99, delta / 100, samples - samples // 2 - 1)
        ts = jnp.sort(jnp.concatenate([t_cross + before, jnp.asarray([t_cross]) + delta, t_cross + after]))
        run = sampled_run(
            system, contact, alpha, slipping_initial_state(system, normal), t_cross + window, ts, rtol, atol,
            max_steps=max_steps, stop_at_lift_off=False,
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
class PastCrossing(PassageOutcome):
    """What followed the crossing in each run of a :class:`CrossingPassage` (numpy arrays over α).

    ``outcome`` indexes :data:`~regcontact.passages.BEYOND_JAM_OUTCOMES` for the impulse (``jump_into_stick``:
    an impulse that stopped the slip); ``impulse`` the excess ``P(t* + Δ) − P_rigid(t*)`` (normal, tangential 1, 2);
    ``impulse_error`` its distance to the rigid IWC's and ``velocity_error`` the largest difference between the
    velocities at ``t* + Δ`` and the IWC's ``v⁺``; ``bounce`` the largest gap after the impulse (a flight, ``0`` if
    the contact stayed closed); ``end_slip`` the slip at ``t* + window`` and ``end_closed`` whether the contact is
    closed there.
    """

    impulse: np.ndarray
    impulse_error: np.ndarray
    velocity_error: np.ndarray
    slip_after: np.ndarray
    normal_velocity_after: np.ndarray
    bounce: np.ndarray
    end_slip: np.ndarray
    end_closed: np.ndarray


def _classify(system: AbstractSystem, passage: CrossingPassage, reference: CrossingReference) -> PastCrossing:
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
