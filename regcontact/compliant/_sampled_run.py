"""A sampled compliant run of any system: one RadauIIA5 solve from a state to a time limit or to lift-off (the
smallest gap rising through the round-off resolution ``ε_g``, :mod:`regcontact.compliant.resolution`), its states
at given times. jit- and vmap-able over α and the system.
"""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Bool, Float, Int

from regcontact._argument_checks import FINITE, MAX_STEPS, POSITIVE, check_argument, check_arguments, check_count
from regcontact.compliant._solve import Controls
from regcontact.compliant.dynamics import CompliantState, CompliantSystem, vector_field
from regcontact.compliant.resolution import GAP_ROUNDOFF_ULPS
from regcontact.compliant.run_checks import check_inputs
from regcontact.contact import ContactModel
from regcontact.systems.system import AbstractSystem

__all__ = ["SampledRun", "sampled_run"]

_EPS = float(jnp.finfo(jnp.float64).eps)


class SampledRun(eqx.Module):
    """One compliant run: the states at the requested times (``inf`` after the end), where it ended, whether the
    contact opened there (``lifted``), whether the solver succeeded and the inputs passed their checks (``ok``),
    the input check that failed (``check``, an index into :data:`~regcontact.compliant.run_checks.RUN_CHECKS`, 0
    if none: a run with bad traced inputs is not integrated, and its samples are its start) and its step counts."""

    samples: CompliantState
    t_end: Float[Array, ""]
    state_end: CompliantState
    lifted: Bool[Array, ""]
    ok: Bool[Array, ""]
    num_steps: Float[Array, ""]
    check: Int[Array, ""]


def sampled_run(
    system: AbstractSystem,
    contact: ContactModel,
    alpha: Float[ArrayLike, ""],
    state0: CompliantState,
    t_max: Float[ArrayLike, ""],
    ts: Float[Array, " m"],
    rtol: float = 1e-8,
    atol: float = 1e-10,
    max_steps: int = 200_000,
    stop_at_lift_off: bool = True,
) -> SampledRun:
    """Integrate from ``(0, state0)`` until a contact opens (if ``stop_at_lift_off``) or ``t_max``; the states at
    ``ts`` and at the end.

    A path of its own beside :func:`~regcontact.compliant.trajectory`: it takes RadauIIA5 with its defaults (the
    Newton iteration on the full stage system), one lift-off condition over all contacts and two saves (the samples
    and the end), as the spatial crossing study's results were computed.

    Concrete arguments are checked with the solve's rules (``ValueError`` naming the argument); traced ones in the
    run, as :func:`~regcontact.compliant.run_checks.check_inputs` does for the solve.

    Args:
        system: any system (e.g. :class:`~regcontact.systems.SpatialRod`).
        contact: the contact laws and their α-exponents.
        alpha: the stiffness multiplier α, positive.
        state0: the initial state (e.g. :func:`~regcontact.compliant.initial_penetration.slipping_initial_state`).
        t_max: the end time, positive.
        ts: the times to sample at.
        rtol: the step-size controller's relative tolerance.
        atol: its absolute tolerance.
        max_steps: the step budget.
        stop_at_lift_off: end the run when a contact opens.

    Returns:
        The run: the samples (``inf`` after the end), where it ended, ``lifted``, ``ok``, ``check``, steps.
    """
    import diffrax

    from regcontact.compliant.solvers import CrossingBisection, RadauIIA5, StepFloorController

    check_argument("alpha", alpha, POSITIVE)
    check_arguments(Controls.ARGUMENT_RULES, t_max=t_max, rtol=rtol, atol=atol)
    check_count("max_steps", max_steps, MAX_STEPS)
    contact.check_contacts(system.NUM_CONTACTS)
    for name in ("q", "v", "impulses"):
        check_argument(f"state0.{name}", getattr(state0, name), FINITE)
    inputs = check_inputs(system, contact, alpha, rtol, atol, t_max, state0)
    valid = inputs == 0
    # A run whose inputs break a rule is not integrated: it ends where it starts.
    t_max, ts = jnp.where(valid, t_max, 0.0), jnp.where(valid, jnp.asarray(ts), 0.0)
    normal, friction = contact.at_stiffness(jnp.asarray(alpha, dtype=float))
    args = CompliantSystem(system=system, normal=normal, friction=friction)
    threshold = GAP_ROUNDOFF_ULPS * _EPS * system.length_scale

    def opened(t, y, args, **kwargs):
        return jnp.min(args.system.gaps(y.q)[:, 0]) - threshold

    event = (
        diffrax.Event(
            cond_fn=opened,
            root_finder=CrossingBisection(),  # type: ignore[call-arg]  # equinox defaults mypy does not see
            direction=True,
        )
        if stop_at_lift_off
        else None
    )
    solution = diffrax.diffeqsolve(
        diffrax.ODETerm(vector_field),
        RadauIIA5(),
        t0=0.0,
        t1=t_max,
        dt0=None,
        y0=state0,
        args=args,
        saveat=diffrax.SaveAt(subs=[diffrax.SubSaveAt(ts=ts), diffrax.SubSaveAt(t1=True)]),
        stepsize_controller=StepFloorController(rtol=rtol, atol=atol),
        event=event,
        max_steps=max_steps,
        throw=False,
    )
    samples, last = solution.ys
    ok = (solution.result == diffrax.RESULTS.successful) | (solution.result == diffrax.RESULTS.event_occurred)
    return SampledRun(
        samples=samples,
        t_end=solution.ts[1][-1],
        state_end=jax.tree_util.tree_map(lambda x: x[-1], last),
        lifted=jnp.asarray(solution.event_mask) if stop_at_lift_off else jnp.asarray(False),
        ok=ok & valid,
        num_steps=solution.stats["num_steps"],
        check=inputs,
    )
