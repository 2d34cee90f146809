"""Compliant runs through a jam, and what follows the jam, against the rigid jump into stick.

Rigid slip reaches the G-spot in finite time (:func:`~regcontact.rigid.rigid_slip`); the rigid prediction there is the
jump into stick (:func:`~regcontact.rigid.stick_jump`, :func:`~regcontact.rigid.jam_reference`).
:func:`~regcontact.passages.pass_through` runs the compliant model of a planar contact through the G-spot: for every α
of a batch (one jit-compiled vmap), started on the rigid slip's load
(:func:`~regcontact.compliant.initial_penetration.slipping_initial_state`), integrated until the contact opens or
``t_jam + window``, and sampled around the jam (:class:`JamPassage`). :meth:`JamPassage.classify` reads off what
followed the jam, against the rigid slip's own force integral up to ``t_jam``:

* the **excess impulse** ``ΔP = P(t_end) − P_rigid(t_jam)``: what the compliant contact delivered beyond the rigid
  slip's (integrable, also in case G1) force; it is an **impulse** when ``ΔP_n`` exceeds what the slow force can deliver
  over the lag, ``ΔP_n > κ F |t_end − t_jam|`` (the rule of :mod:`regcontact.compliant.outcome`);
* the **lag** ``t_end − t_jam`` (lift-off after the jam if positive) and the **impulse time**, where half the excess
  impulse has been delivered, relative to ``t_jam``;
* the slip and normal velocity at the jam (compliant, at ``t_jam``) and at the end.

The outcome (:data:`~regcontact.passages.BEYOND_JAM_OUTCOMES`): ``jump_into_stick`` (an impulse that stops the slip:
``|u⁺|`` below :data:`STOPPED_SLIP` of ``|u⁻|``), ``impact_in_slip`` (an impulse after which the contact still slips),
``lift_off`` (the contact opens with no impulse), ``stays_in_contact`` (neither, by ``t_jam + window``), ``failed`` (the
solve failed). An impulse with the contact not approaching before (``ġ_n ≈ 0`` at the jam) is an impact without
collision (IWC); a jump into stick is one whose slip stops.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Bool, Float

from regcontact._argument_checks import NONNEGATIVE, POSITIVE, RELATIVE_TOLERANCE, check_argument
from regcontact.compliant import Controls, SolveSettings, solve, trajectory
from regcontact.compliant.dynamics import CompliantSystem, contact_forces
from regcontact.compliant.initial_penetration import slipping_initial_state
from regcontact.compliant.outcome import IMPULSIVE_FACTOR
from regcontact.compliant.termination import slow_force_scale
from regcontact.contact import ContactModel
from regcontact.passages._passage import AbstractPassage, PassageOutcome
from regcontact.rigid import JamReference
from regcontact.rigid._checks import at_least
from regcontact.systems.system import AbstractSystem

__all__ = ["STOPPED_SLIP", "BeyondJam", "JamPassage", "pass_jam"]

#: The slip has stopped when ``|u⁺|`` is below this fraction of the slip at the jam.
STOPPED_SLIP = 0.05

#: The default tolerances of :func:`pass_jam`. RadauIIA5 at rtol 1e-10 takes 20–100 times the steps through the
#: jam at α ≥ 1e8 (and runs out of them at 1e10) for the same numbers to 1e-6 (``docs/dynamic_jam.md``).
RTOL, ATOL = 1e-8, 1e-10


class JamPassage(AbstractPassage):
    """Compliant runs through a jam, one per α (leading axis): how each ended, its state at ``t_jam`` and at the
    end, and ``samples`` times between the jam and the end with the normal force integral, the contact forces,
    the slip and the normal velocity there (``nan`` where the run had ended)."""

    alpha: Float[Array, " a"]
    ok: Bool[Array, " a"]
    lifted: Bool[Array, " a"]
    t_end: Float[Array, " a"]
    v_end: Float[Array, "a n"]
    impulse_end: Float[Array, "a 2"]
    rates_end: Float[Array, "a 2"]
    impulse_at_jam: Float[Array, "a 2"]
    rates_at_jam: Float[Array, "a 2"]
    times: Float[Array, "a m"]
    normal_impulse: Float[Array, "a m"]
    forces: Float[Array, "a m 2"]
    rates: Float[Array, "a m 2"]

    def classify(self, system: AbstractSystem, reference: JamReference) -> BeyondJam:
        """What followed the jam in each run (module docstring), against the rigid slip of ``reference``."""
        return _classify(system, self, reference)


def pass_jam(
    system: AbstractSystem,
    contact: ContactModel,
    alphas: ArrayLike,
    reference: JamReference,
    window: float = 0.3,
    rtol: float = RTOL,
    atol: float = ATOL,
    samples: int = 400,
    max_steps: int = 200_000,
) -> JamPassage:
    """Compliant runs of ``system`` (one contact, slipping at the start) through the jam of ``reference`` at
    ``t_jam``, one jitted
    vmap over ``alphas``: each starts on the rigid slip's load and ends where the contact opens or at
    ``t_jam + window``; a second pass samples it at ``t_jam`` and at ``samples`` times spanning
    ``[t_jam − d, t_end]`` (``d = |t_end − t_jam|``). Concrete arguments are checked first (``ValueError`` in one
    line)."""
    t_jam = reference.t_jam
    for name, value, rule in (
        ("alphas", alphas, POSITIVE),
        ("t_jam", t_jam, NONNEGATIVE),
        ("window", window, POSITIVE),
        ("rtol", rtol, RELATIVE_TOLERANCE),
        ("atol", atol, POSITIVE),
        ("samples", samples, at_least(1)),
        ("max_steps", max_steps, at_least(1)),
    ):
        check_argument(name, value, rule)
    settings = SolveSettings(events=("contact_open",), max_steps=max_steps)
    controls = Controls(rtol=rtol, atol=atol, t_max=t_jam + window)
    nan = jnp.nan

    def one(alpha):
        normal, friction = contact.at_stiffness(alpha)
        args = CompliantSystem(system, normal, friction)
        state0 = slipping_initial_state(system, normal)
        run = solve(system, contact, alpha, controls, settings, state0=state0)
        span = jnp.abs(run.t_end - t_jam)
        grid = jnp.linspace(jnp.minimum(t_jam, run.t_end) - span, run.t_end, samples)
        grid = jnp.clip(grid, 0.0, run.t_end)
        ts = jnp.sort(jnp.concatenate([jnp.asarray([t_jam]), grid]))
        at_jam = jnp.searchsorted(ts, t_jam)
        ys, _ = trajectory(system, contact, alpha, controls, settings, ts, state0)
        reached = jnp.all(jnp.isfinite(ys.q), axis=-1)
        forces = jax.vmap(lambda q, v: contact_forces(args, q, v)[0])(ys.q, ys.v)
        rates = jnp.einsum("mcn,mn->mc", jax.vmap(system.jacobians)(ys.q)[:, 0], ys.v)
        impulses = ys.impulses[:, 0]
        keep = lambda x: jnp.where(reached.reshape(-1, *([1] * (x.ndim - 1))), x, nan)  # noqa: E731
        forces, rates, impulses = keep(forces), keep(rates), keep(impulses)
        end_rates = system.jacobians(run.state_end.q)[0] @ run.state_end.v
        return (
            run.ok,
            run.termination == 1,
            run.t_end,
            run.state_end.v,
            run.state_end.impulses[0],
            end_rates,
            impulses[at_jam],
            rates[at_jam],
            *(jnp.delete(x, at_jam, axis=0, assume_unique_indices=True) for x in (ts, impulses[:, 0], forces, rates)),
        )

    alphas = jnp.asarray(alphas, float)
    ok, lifted, t_end, v_end, impulse_end, rates_end, impulse_jam, rates_jam, ts, p_n, forces, rates = jax.jit(
        jax.vmap(one)
    )(alphas)
    return JamPassage(
        alpha=alphas,
        ok=ok,
        lifted=lifted,
        t_end=t_end,
        v_end=v_end,
        impulse_end=impulse_end,
        rates_end=rates_end,
        impulse_at_jam=impulse_jam,
        rates_at_jam=rates_jam,
        times=ts,
        normal_impulse=p_n,
        forces=forces,
        rates=rates,
    )


@dataclasses.dataclass(frozen=True)
class BeyondJam(PassageOutcome):
    """What followed the jam in each run of a :class:`JamPassage` (numpy arrays over α; module docstring).

    ``outcome`` indexes :data:`~regcontact.passages.BEYOND_JAM_OUTCOMES`; ``lag`` is ``t_end − t_jam``; ``impulse`` the
    excess ``(ΔP_n, ΔP_t)``; ``impulse_time`` where half of ``ΔP_n`` was delivered, relative to ``t_jam`` (``nan``
    without an impulse); ``slip_before``, ``normal_velocity_before`` the compliant rates at ``t_jam`` and
    ``slip_after``, ``normal_velocity_after`` at the end; ``velocity_error`` the largest difference between the
    velocities at the end and those the rigid :func:`stick_jump` leaves.
    """

    lag: np.ndarray
    impulse: np.ndarray
    impulse_time: np.ndarray
    slip_before: np.ndarray
    slip_after: np.ndarray
    normal_velocity_before: np.ndarray
    normal_velocity_after: np.ndarray
    velocity_error: np.ndarray


def _half_time(times: np.ndarray, excess: np.ndarray, half: float) -> float:
    """The first sampled time where ``excess`` reaches ``half``, interpolated linearly (``nan`` if never)."""
    finite = np.isfinite(excess)
    times, excess = times[finite], excess[finite]
    above = np.flatnonzero(excess >= half)
    if above.size == 0 or above[0] == 0:
        return float(times[above[0]]) if above.size else np.nan
    i = above[0]
    return float(np.interp(half, excess[i - 1 : i + 1], times[i - 1 : i + 1]))


def _classify(system: AbstractSystem, passage: JamPassage, reference: JamReference) -> BeyondJam:
    rigid = np.asarray(reference.impulse)
    t_jam = reference.t_jam
    lag = np.asarray(passage.t_end) - t_jam
    excess = np.asarray(passage.impulse_end) - rigid
    force = float(slow_force_scale(system))
    impulsive = excess[:, 0] > IMPULSIVE_FACTOR * force * np.abs(lag)
    slip_before = np.asarray(passage.rates_at_jam)[:, 1]
    slip_before = np.where(np.isfinite(slip_before), slip_before, float(reference.jump.slip_before))
    slip_after = np.asarray(passage.rates_end)[:, 1]
    stopped = np.abs(slip_after) < STOPPED_SLIP * np.abs(slip_before)
    lifted = np.asarray(passage.lifted)
    outcome = np.where(impulsive, np.where(stopped, 0, 1), np.where(lifted, 2, 3))
    outcome = np.where(np.asarray(passage.ok), outcome, 4)
    times = np.asarray(passage.times)
    p_n = np.asarray(passage.normal_impulse) - rigid[0]
    impulse_time = np.array(
        [_half_time(times[i], p_n[i], 0.5 * excess[i, 0]) - t_jam if impulsive[i] else np.nan for i in range(len(lag))]
    )
    velocity_error = np.max(np.abs(np.asarray(passage.v_end) - np.asarray(reference.jump.v_after)), axis=-1)
    return BeyondJam(
        alpha=np.asarray(passage.alpha),
        outcome=outcome,
        lag=lag,
        impulse=excess,
        impulse_time=impulse_time,
        slip_before=slip_before,
        slip_after=slip_after,
        normal_velocity_before=np.asarray(passage.rates_at_jam)[:, 0],
        normal_velocity_after=np.asarray(passage.rates_end)[:, 0],
        velocity_error=velocity_error,
    )
