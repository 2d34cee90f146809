"""Integrate a compliant system with an implicit diffrax solver: one run, or a vmapped batch of runs.

Two kinds of input are kept apart on purpose:

* :class:`SolveSettings` is static (solver, events, step budget): changing it recompiles.
* Everything numeric — the system, the contact model, α, tolerances, the time limit — is a JAX array, so a
  new value reuses the compiled sweep.

A batch is solved by one ``jit``-compiled ``vmap`` over its cases (in chunks of a fixed size, so that every
chunk reuses one compilation). Under ``vmap`` each case keeps its own step size, events and status: a case
that fails is reported as failed, the rest of the batch stands.
"""

from __future__ import annotations

import dataclasses
import math
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
import tqdm
from jax.sharding import Mesh, NamedSharding, PartitionSpec
from jaxtyping import Array, ArrayLike, Bool, Float, Int

from regcontact._argument_checks import (
    FINITE,
    MAX_STEPS,
    NONNEGATIVE,
    POSITIVE,
    UNIT_INTERVAL,
    ArgumentError,
    Rule,
    check_argument,
    check_arguments,
    check_count,
)
from regcontact._readable_repr import readable_repr
from regcontact.compliant._exported_sweeps import exported_or_traced
from regcontact.compliant.devices import automatic_chunk_size, sweep_devices
from regcontact.compliant.dynamics import CompliantState, CompliantSystem, initial_state, vector_field
from regcontact.compliant.initial_penetration import penetrated_initial_state
from regcontact.compliant.run_checks import RUN_CHECKS, check_inputs, check_run
from regcontact.compliant.switches import RESTART_SURFACES, exit_condition, exit_values
from regcontact.compliant.termination import EVENTS
from regcontact.contact import ContactModel
from regcontact.contact.normal_laws import AbstractJumpingNormalLaw
from regcontact.systems.system import AbstractSystem

if TYPE_CHECKING:
    import diffrax

__all__ = [
    "IMPLICIT_SOLVERS",
    "SOLVER_STATUSES",
    "Case",
    "CompliantRun",
    "Controls",
    "SolveSettings",
    "SweepTimings",
    "batch_agreement",
    "batch_size",
    "case_bytes",
    "cost_order",
    "lane_utilisation",
    "cases_bar",
    "chunk_starts",
    "pace_line",
    "solve",
    "sweep",
    "sweep_chunk_size",
    "trajectory",
]


def _diffrax_solver(name: str) -> Callable[[], diffrax.AbstractSolver]:
    def make() -> diffrax.AbstractSolver:
        import diffrax  # imported here, as in every function of this module that solves (see below)

        return getattr(diffrax, name)()

    return make


def _radau(stages: int = 3, **options: Any) -> Callable[[], diffrax.AbstractSolver]:
    def make() -> diffrax.AbstractSolver:
        from regcontact.compliant.solvers import RadauIIA5, RadauIIA9

        return (RadauIIA9 if stages == 5 else RadauIIA5)(**options)

    return make


#: Implicit diffrax solvers by config name, each a function that makes one. ``RadauIIA5`` reads rtol/atol as
#: Hairer's RADAU5 does (its order-3 error estimate is held to ``0.1 rtol^(2/3)``); ``RadauIIA5_literal_tolerances``
#: holds it to rtol itself; ``RadauIIA5_hybrid`` is ``RadauIIA5`` with the split simplified-Newton fast path
#: (``newton="hybrid"``); ``RadauIIA9`` is the five-stage Radau IIA of order 9 (its order-5 estimate held to
#: ``0.1 rtol^(3/5)``, as Hairer's RADAU reads rtol). The compliant field has ``q̇ = v`` and force integrals that
#: feed nothing back, so the semismooth Newton runs on the velocities only (``second_order=True``: the same
#: iterates, an ``sn × sn`` system instead of ``sN × sN`` for ``s`` stages).
#:
#: diffrax is imported where a solve is traced, not with this module: a study that loads its kept sweep
#: (:mod:`regcontact.compliant._exported_sweeps`) and a config check never need it (0.2 s of start-up).
IMPLICIT_SOLVERS: dict[str, Callable[[], diffrax.AbstractSolver]] = {
    "Kvaerno3": _diffrax_solver("Kvaerno3"),
    "Kvaerno4": _diffrax_solver("Kvaerno4"),
    "Kvaerno5": _diffrax_solver("Kvaerno5"),
    "ImplicitEuler": _diffrax_solver("ImplicitEuler"),
    "RadauIIA5": _radau(second_order=True),
    "RadauIIA5_literal_tolerances": _radau(radau5_tolerances=False, second_order=True),
    "RadauIIA5_hybrid": _radau(newton="hybrid"),
    "RadauIIA9": _radau(stages=5, second_order=True),
}

#: diffrax's result codes, by name, in the order used by :attr:`CompliantRun.status` (last: a code not listed here).
SOLVER_STATUSES: tuple[str, ...] = (
    "successful",
    "event_occurred",
    "max_steps_reached",
    "dt_min_reached",
    "max_steps_rejected",
    "singular",
    "breakdown",
    "stagnation",
    "nonlinear_max_steps_reached",
    "nonlinear_divergence",
    "nonfinite",
    "nonfinite_input",
    "conlim",
    "internal_error",
    "unknown",
)


@dataclasses.dataclass(frozen=True)
class SolveSettings:
    """Static choices of a solve; each distinct value compiles once.

    The default solver is the studies' ``RadauIIA5``: diffrax's Kvaerno5 (the default before) stalls at
    rtol ≤ 1e-8 for α ≥ 1e6 (``docs/solvers.md``).

    ``events`` end a run (:data:`regcontact.compliant.termination.EVENTS`); ``restart_at`` names switching surfaces
    (:data:`regcontact.compliant.switches.RESTART_SURFACES`) that are located and restarted from, inside the same
    compiled loop, without ending the run. ``max_steps`` is a whole number from 1 to
    :data:`~regcontact._argument_checks.MAX_STEPS` (1e12), the config's rule for ``solver.max_steps``.

    Raises:
        ValueError: an unknown name or a step budget out of range, naming it: ``max_steps = 0: expected a
            positive integer ≤ 1e+12``.
    """

    solver: str = "RadauIIA5"
    events: tuple[str, ...] = ("contact_open",)
    max_steps: int = 100_000
    restart_at: tuple[str, ...] = ()

    def __post_init__(self):
        if not isinstance(self.solver, str) or self.solver not in IMPLICIT_SOLVERS:
            raise ArgumentError("solver", self.solver, "one of " + ", ".join(map(repr, IMPLICIT_SOLVERS)))
        for name, known in (("events", EVENTS), ("restart_at", RESTART_SURFACES)):
            names = getattr(self, name)
            expected = "a tuple of names from " + ", ".join(map(repr, known))
            if isinstance(names, str) or not isinstance(names, Sequence):
                raise ArgumentError(name, names, expected)
            unknown = [entry for entry in names if not isinstance(entry, str) or entry not in known]
            if unknown:
                raise ArgumentError(name, names, f"{expected} (not {unknown[0]!r})")
            object.__setattr__(self, name, tuple(names))  # hashable: the settings are a compilation's key
        object.__setattr__(self, "max_steps", check_count("max_steps", self.max_steps, MAX_STEPS))


class Controls(eqx.Module):
    """Numeric controls of a solve: tolerances and time limit (arrays: changing them does not recompile).

    The defaults are the studies' tolerances (rtol 1e-10, atol 1e-12: force integrals converged to ~1e-11 with
    ``RadauIIA5``). There is no default end time: what the run integrates depends on it (a fixed time of 1
    integrates the weight-bearing force for 1 s, not the impulse of Table 1), so it must be chosen, e.g. as a
    number of contact times (:func:`regcontact.compliant.termination.contact_time`).

    Concrete values (Python numbers, numpy arrays, eager JAX arrays) are checked with the config's rules, a batch
    elementwise; traced values (under ``jit``/``vmap``) are checked by the solve itself, which reports a run with
    a tolerance out of range as ``check_name == "invalid_tolerance"`` (:mod:`regcontact.compliant.run_checks`).

    Args:
        rtol: relative tolerance, in (0, 1).
        atol: absolute tolerance, positive.
        t_max: end time of the run, positive (required).

    Raises:
        ValueError: a value out of range, naming it: ``rtol = 2.0: expected a number in (0, 1)``.

    Examples:
        >>> import regcontact as rc
        >>> rod = rc.PainleveRod()
        >>> rc.Controls(t_max=rc.contact_time(rod, 1e6))
        Controls(rtol=1e-10, atol=1e-12, t_max=0.00237482)
    """

    #: The rule of each argument (the config's ``solver.rtol``, ``solver.atol``, ``termination.time_limit``).
    ARGUMENT_RULES: ClassVar[dict[str, Rule]] = {"rtol": UNIT_INTERVAL, "atol": POSITIVE, "t_max": POSITIVE}

    rtol: Float[Array, ""]
    atol: Float[Array, ""]
    t_max: Float[Array, ""]

    def __init__(self, rtol: ArrayLike = 1e-10, atol: ArrayLike = 1e-12, t_max: ArrayLike | None = None):
        if t_max is None:
            raise TypeError(
                "Controls needs t_max, the end time of the run: e.g. t_max=contact_time(rod, stiffness) for "
                "one contact time (the Table 1 window), or a fixed time"
            )
        check_arguments(self.ARGUMENT_RULES, rtol=rtol, atol=atol, t_max=t_max)
        self.rtol = jnp.asarray(rtol, dtype=float)
        self.atol = jnp.asarray(atol, dtype=float)
        self.t_max = jnp.asarray(t_max, dtype=float)

    def __repr__(self) -> str:
        return readable_repr(self)


class CompliantRun(eqx.Module):
    """Outcome of one compliant run (batched along a leading axis after :func:`sweep`).

    ``termination`` is 0 when the run reached ``t_max`` and ``i + 1`` when ``settings.events[i]`` ended it;
    ``status`` indexes :data:`SOLVER_STATUSES` (what diffrax reports); ``check`` indexes
    :data:`regcontact.compliant.run_checks.RUN_CHECKS` (whether the finished run is consistent); ``num_restarts`` counts
    restarts at ``settings.restart_at``. Step counts add up over the restarted pieces. A run is good only when
    :attr:`ok`.
    """

    t_end: Float[Array, ""]
    state_end: CompliantState
    termination: Int[Array, ""]
    status: Int[Array, ""]
    check: Int[Array, ""]
    num_steps: Int[Array, ""]
    num_accepted_steps: Int[Array, ""]
    num_rejected_steps: Int[Array, ""]
    num_restarts: Int[Array, ""]

    @property
    def ok(self) -> Bool[Array, ...]:
        """Finished (``successful`` or ``event_occurred``) and passed every check."""
        return (self.status <= 1) & (self.check == 0)

    @property
    def status_name(self) -> str | np.ndarray:
        """diffrax's result by name (:data:`SOLVER_STATUSES`): a string, or an array of them for a batch."""
        return _names(SOLVER_STATUSES, self.status)

    @property
    def check_name(self) -> str | np.ndarray:
        """The consistency check the run failed, or ``"passed"`` (:data:`~regcontact.compliant.run_checks.
        RUN_CHECKS`): a string, or an array of them for a batch."""
        return _names(RUN_CHECKS, self.check)

    @property
    def force_integrals(self) -> Float[Array, "... 2k"]:
        """``(∫λ_n dt, ∫λ_t dt)`` from the start to ``t_end``, contact after contact (two numbers for one)."""
        impulses = self.state_end.impulses
        return impulses.reshape(*impulses.shape[:-2], -1)


def _names(names: tuple[str, ...], codes: ArrayLike) -> str | np.ndarray:
    """The names of integer codes (read on the host)."""
    index = np.asarray(codes)
    return names[int(index)] if index.ndim == 0 else np.asarray(names)[index]


def _status_index(result: Any) -> Int[Array, ""]:
    """Index of ``result`` in :data:`SOLVER_STATUSES`; a code this list does not know maps to ``"unknown"``,
    never to success."""
    import diffrax

    known = SOLVER_STATUSES[:-1]
    matches = jnp.stack([result == getattr(diffrax.RESULTS, name) for name in known])
    return jnp.where(jnp.any(matches), jnp.argmax(matches), len(known))


def _diffeqsolve(
    args: CompliantSystem,
    t0: Float[Array, ""],
    state0: CompliantState,
    controls: Controls,
    settings: SolveSettings,
    above: Bool[Array, "surfaces k"],
    saveat: diffrax.SaveAt,
) -> diffrax.Solution:
    """The one diffrax call behind every compliant solve: from ``(t0, state0)`` to the first terminating event,
    restart crossing or ``t_max``.

    Each restart surface holds every contact on its side ``above`` during the piece and watches only that
    side's exit, one condition per contact. The event conditions are a pair of tuples, (terminating, restart),
    so that a terminating event takes precedence when both trigger in the same step. Every condition fires on a
    rising crossing, located by bisection on the step's dense output
    (:class:`~regcontact.compliant.solvers.CrossingBisection`).
    """
    import diffrax

    from regcontact.compliant.solvers import CrossingBisection

    terminating = tuple(EVENTS[name] for name in settings.events)
    restarts = []
    for i, name in enumerate(settings.restart_at):
        surface = RESTART_SURFACES[name]
        args = surface.hold(args, above[i])
        restarts += [exit_condition(surface, above[i], contact) for contact in range(above.shape[1])]
    if terminating or restarts:
        event = diffrax.Event(
            cond_fn=(terminating, tuple(restarts)),
            root_finder=CrossingBisection(),  # type: ignore[call-arg]  # equinox defaults mypy does not see
            direction=((True,) * len(terminating), (True,) * len(restarts)),
        )
    else:
        event = None
    return diffrax.diffeqsolve(
        diffrax.ODETerm(vector_field),
        IMPLICIT_SOLVERS[settings.solver](),
        t0=t0,
        t1=controls.t_max,
        dt0=None,
        y0=state0,
        args=args,
        saveat=saveat,
        stepsize_controller=diffrax.PIDController(rtol=controls.rtol, atol=controls.atol),
        event=event,
        max_steps=settings.max_steps,
        throw=False,
    )


def _first_event(masks: tuple) -> Int[Array, ""]:
    """``i + 1`` for the first triggered mask in ``masks``, 0 if none."""
    if not masks:
        return jnp.asarray(0)
    stacked = jnp.stack(masks)
    return jnp.where(jnp.any(stacked), jnp.argmax(stacked) + 1, 0)


def _past_exits(surfaces, above, state, args) -> Bool[Array, "surfaces k"]:
    """Whether each contact lies past the exit of its side of each surface."""
    if not surfaces:
        return jnp.zeros(above.shape, bool)
    return jnp.stack([exit_values(surface, above[i], state, args) > 0.0 for i, surface in enumerate(surfaces)])


def _last(tree):
    return jtu.tree_map(lambda leaf: leaf[-1], tree)


def solve(
    system: AbstractSystem,
    contact: ContactModel,
    alpha: Float[Array, ""],
    controls: Controls,
    settings: SolveSettings = SolveSettings(),
    state0: CompliantState | None = None,
) -> CompliantRun:
    """Integrate the compliant system at stiffness multiplier ``alpha`` from ``state0`` (default: its initial
    state).

    A ``lax.while_loop`` (so it jits and vmaps like one solve) runs pieces: each ends at a terminating event,
    at ``t_max``, or at a crossing of a restart surface by one contact, where the next piece starts with a
    fresh solver. Without ``settings.restart_at`` there is one piece. A run that exhausts ``max_steps`` over
    its pieces ends with status ``max_steps_reached``. The finished run is checked
    (:mod:`regcontact.compliant.run_checks`): a run whose end contradicts the physics is reported by
    ``CompliantRun.check``, never as a plain success.

    Args:
        system: the body, e.g. :class:`~regcontact.systems.rod.PainleveRod`.
        contact: the contact laws and their α-exponents.
        alpha: the stiffness multiplier α, positive.
        controls: tolerances and the end time.
        settings: solver, events, step budget and restart surfaces (static: a new value recompiles).
        state0: the initial state (default: the system's own, :func:`~regcontact.compliant.dynamics.initial_state`).

    Returns:
        The run: ``t_end``, the end state with the force integrals, how it ended (``termination``, ``status``,
        ``check``; by name ``status_name``, ``check_name``), step counts, and ``ok``.

    Examples:
        >>> import regcontact as rc
        >>> rod, alpha = rc.PainleveRod(), 1e6
        >>> run = rc.solve(rod, rc.ContactModel(), alpha, rc.Controls(t_max=rc.contact_time(rod, alpha)))
        >>> run.status_name, run.force_integrals.round(6).tolist()
        ('successful', [0.325839, 0.437779])
    """
    import diffrax

    check_argument("alpha", alpha, POSITIVE)
    state0 = initial_state(system) if state0 is None else _checked_state(system, state0)
    inputs = check_inputs(system, contact, alpha, controls.rtol, controls.atol, controls.t_max, state0)
    # A run whose inputs break a rule is not integrated: it ends where it starts, with the check that failed.
    controls = eqx.tree_at(lambda c: c.t_max, controls, jnp.where(inputs == 0, controls.t_max, 0.0))
    normal, friction = contact.at_stiffness(alpha)
    args = CompliantSystem(system=system, normal=normal, friction=friction)
    if "contact" in settings.restart_at and not isinstance(normal, AbstractJumpingNormalLaw):
        raise ValueError(f"restart at 'contact' needs a normal law with a contact_force branch, not {normal!r}")
    surfaces = [RESTART_SURFACES[name] for name in settings.restart_at]
    k = system.NUM_CONTACTS
    above = (
        jnp.stack([surface.starts_above(state0, args) for surface in surfaces]) if surfaces else jnp.zeros((0, k), bool)
    )

    def unfinished(carry):
        *_, finished = carry
        return ~finished

    def next_piece(carry):
        t, state, above, steps, restarts, *_ = carry
        sol = _diffeqsolve(args, t, state, controls, settings, above, diffrax.SaveAt(t1=True))
        terminating, crossings = sol.event_mask if sol.event_mask is not None else ((), ())
        termination = _first_event(tuple(terminating))
        crossing = _first_event(tuple(crossings)) - 1  # index of (surface, contact), surface-major; −1: none
        restarted = (crossing >= 0) & (termination == 0)
        # Every contact past its exit switches, not only the one that triggered: contacts can cross together
        # (a rod dropped flat touches down with both ends in the same step). The trigger switches even if the
        # state re-interpolated at a root on the step's end rounds back onto the surface.
        state_end = _last(sol.ys)
        trigger = jnp.arange(above.size).reshape(above.shape) == crossing
        above = above ^ (restarted & (_past_exits(surfaces, above, state_end, args) | trigger))
        statistics = ("num_steps", "num_accepted_steps", "num_rejected_steps")
        steps = steps + jnp.stack([sol.stats[name] for name in statistics])
        out_of_steps = steps[0] >= settings.max_steps
        result = diffrax.RESULTS.where(restarted & out_of_steps, diffrax.RESULTS.max_steps_reached, sol.result)
        finished = ~restarted | out_of_steps
        return sol.ts[-1], state_end, above, steps, restarts + restarted, termination, result, finished

    start = (
        jnp.asarray(0.0),
        state0,
        above,
        jnp.zeros(3, int),
        jnp.asarray(0),
        jnp.asarray(0),
        diffrax.RESULTS.successful,
        inputs != 0,
    )
    t_end, state_end, above_end, steps, restarts, termination, result, _ = jax.lax.while_loop(
        unfinished, next_piece, start
    )
    held = args
    for i, surface in enumerate(surfaces):
        held = surface.hold(held, above_end[i])
    missed_switch = (termination == 0) & jnp.any(_past_exits(surfaces, above_end, state_end, args))
    lift_off_index = settings.events.index("contact_open") + 1 if "contact_open" in settings.events else -1
    consistency = check_run(held, state0, state_end, termination == lift_off_index, missed_switch, controls.rtol)
    check = jnp.where(inputs != 0, inputs, consistency)
    return CompliantRun(
        t_end=t_end,
        state_end=state_end,
        termination=termination,
        status=_status_index(result),
        check=check,
        num_steps=steps[0],
        num_accepted_steps=steps[1],
        num_rejected_steps=steps[2],
        num_restarts=restarts,
    )


def _checked_state(system: AbstractSystem, state0: CompliantState) -> CompliantState:
    """``state0`` if it has the shapes of ``system``'s state (known even when traced) and, where concrete, finite
    values; else ``ArgumentError`` naming the part at fault."""
    expected = jax.eval_shape(initial_state, system)
    for name in ("q", "v", "impulses"):
        value, wanted = getattr(state0, name), getattr(expected, name).shape
        if np.shape(value) != wanted:
            raise ArgumentError(
                f"state0.{name}",
                value,
                f"shape {wanted}, as {type(system).__name__}'s initial_state() gives it",
                shown=f"an array of shape {np.shape(value)}",
            )
        check_argument(f"state0.{name}", value, FINITE)
    return state0


def trajectory(
    system: AbstractSystem,
    contact: ContactModel,
    alpha: Float[Array, ""],
    controls: Controls,
    settings: SolveSettings,
    ts: Float[Array, " m"],
    state0: CompliantState | None = None,
) -> tuple[CompliantState, Int[Array, ""]]:
    """The state at the times ``ts`` (within ``[0, t_max]``, leaves with a leading axis) from ``state0`` (default:
    the system's initial state) and the solver status.

    Times after an event that ended the run hold ``inf``, as diffrax leaves them.
    """
    import diffrax

    if settings.restart_at:
        raise ValueError("trajectory runs one piece; use settings without restart_at")
    check_argument("alpha", alpha, POSITIVE)
    normal, friction = contact.at_stiffness(alpha)
    args = CompliantSystem(system=system, normal=normal, friction=friction)
    no_surfaces = jnp.zeros((0, system.NUM_CONTACTS), bool)
    sol = _diffeqsolve(
        args,
        jnp.asarray(0.0),
        initial_state(system) if state0 is None else _checked_state(system, state0),
        controls,
        settings,
        no_surfaces,
        diffrax.SaveAt(ts=ts),
    )
    assert sol.ys is not None  # SaveAt(ts=...) always saves
    return sol.ys, _status_index(sol.result)


class Case(eqx.Module):
    """Everything numeric about one run; a batch of cases is a ``Case`` whose leaves have a leading axis."""

    #: The rule of each numeric argument (the config's ``sweep.alpha``, ``system.initial_penetration``).
    ARGUMENT_RULES: ClassVar[dict[str, Rule]] = {"alpha": POSITIVE, "penetration": NONNEGATIVE}

    system: AbstractSystem
    contact: ContactModel
    alpha: Float[Array, ""]
    controls: Controls
    #: Depth the closed contacts start pressed in by (:mod:`regcontact.compliant.initial_penetration`).
    penetration: Float[Array, ""]

    def __init__(
        self,
        system: AbstractSystem,
        contact: ContactModel,
        alpha: ArrayLike,
        controls: Controls,
        penetration: ArrayLike | None = None,
    ):
        check_arguments(self.ARGUMENT_RULES, alpha=alpha, penetration=penetration)
        self.system = system
        self.contact = contact
        self.alpha = jnp.asarray(alpha, dtype=float)
        self.controls = controls
        # Shaped like alpha, so that a batch built with a batched alpha has a batched penetration too.
        self.penetration = jnp.zeros_like(self.alpha) if penetration is None else jnp.asarray(penetration, float)


@dataclasses.dataclass(frozen=True)
class SweepTimings:
    """Wall-clock seconds: compiling the vmapped solve, and running every chunk after compilation."""

    compile_s: float
    run_s: float


_COMPILED: dict = {}

#: The mesh axis a sweep's chunks are sharded along.
CASES_AXIS = "cases"


def _cases_sharding(devices: tuple[jax.Device, ...]) -> NamedSharding:
    """Leading (case) axis split evenly over ``devices``, everything else whole."""
    return NamedSharding(Mesh(np.array(devices), (CASES_AXIS,)), PartitionSpec(CASES_AXIS))


def _compiled_batch_solve(batch: Case, settings: SolveSettings, devices: tuple[jax.Device, ...] | None = None):
    """The jit-compiled, vmapped solve for batches shaped like ``batch`` on ``devices`` (default: the first
    device of JAX's default back end), compiled once per shape and device set.

    On several devices each device solves its share of the lanes. Where the solve traces under ``shard_map``
    (the Radau solvers), each runs its own vmapped loop and stops when its own lanes are done. Elsewhere (the
    Kvaerno solvers: lineax's structure checks reject ``shard_map``'s values) XLA partitions the vmapped solve
    along the case axis, and the devices agree once per loop iteration on whether any lane still runs (an
    all-reduce of one flag): 20 % slower on two host devices (128 Table 1 cases: 0.46–0.58 s against
    0.62–0.65 s). Either way a lane computes exactly what it computes unsharded.
    """
    devices = devices or (jax.devices()[0],)
    leaves, treedef = jtu.tree_flatten(batch)
    key = (settings, treedef, tuple((leaf.shape, leaf.dtype) for leaf in leaves), devices)
    if key not in _COMPILED:
        solve_batch = jax.vmap(
            lambda case: solve(
                case.system,
                case.contact,
                case.alpha,
                case.controls,
                settings,
                state0=penetrated_initial_state(case.system, case.penetration),
            )
        )
        sharding = _cases_sharding(devices)
        if len(devices) == 1:
            mapped = solve_batch
        else:
            # Lanes never talk to each other, so shard_map's check of varying values has nothing to check (and
            # diffrax's loop carries start as unvarying constants, which it would reject).
            mapped = jax.shard_map(
                solve_batch, mesh=sharding.mesh, in_specs=sharding.spec, out_specs=sharding.spec, check_vma=False
            )
        kept = exported_or_traced(mapped, batch, sharding, _run_structure(), (settings, devices))
        if kept is not None:
            _COMPILED[key] = kept
            return kept
        shapes = jtu.tree_map(lambda leaf: jax.ShapeDtypeStruct(leaf.shape, leaf.dtype), batch)
        partitioned = jax.jit(solve_batch, in_shardings=sharding, out_shardings=sharding)
        if len(devices) == 1:
            lowered = partitioned.lower(shapes)
        else:
            try:
                lowered = jax.jit(mapped, in_shardings=sharding, out_shardings=sharding).lower(shapes)
            except ValueError:
                lowered = partitioned.lower(shapes)
        _COMPILED[key] = lowered.compile()
    return _COMPILED[key]


def _run_structure() -> CompliantRun:
    """A :class:`CompliantRun` of placeholders: its pytree structure rebuilds a kept sweep's flat outputs."""
    zero = jnp.zeros(())
    fields: dict[str, Any] = {field.name: zero for field in dataclasses.fields(CompliantRun)}
    return CompliantRun(**fields | {"state_end": CompliantState(q=zero, v=zero, impulses=zero)})


def batch_agreement(
    solver: str, rtol: float, atol: float, backend: str | None = None, same_compilation: bool = True
) -> tuple[float, float]:
    """``(rtol, atol)`` to which a case solved in a batch agrees with the same case solved alone.

    What a batch promises, per back end:

    * **CPU**, through :func:`sweep` (the case alone, among other cases, in a padded chunk: one vmapped
      compilation): agreement to round-off (``1e-10`` relative, ``1e-14`` absolute) and the same steps. Not
      always bit for bit: XLA vectorises elementwise work over the batch, and a lane whose numbers fall in the
      scalar tail of a SIMD loop may round differently (measured: the same case in lanes 0 and 2 of a batch
      of three, 1e-15 apart).
    * **A vmapped solve against a separately compiled, un-vmapped one** (``same_compilation=False``, any back
      end), and **GPU**: XLA compiles the two differently, so their round-off differs. Where a run ends at an
      event whose crossing is grazing, the event time is fixed only to the gap's round-off over the crossing
      speed, ``u ℓ / ġ_n`` (measured on CPU: 1.1e-10 in time, 4.5e-9 in the state, at a lift-off with
      ``ġ_n ≈ 2e-6``), and an adaptive solver may also take other steps.
    * **GPU** (and any other back end): a batched solve uses other kernels than a single one (batched LU,
      reductions), so the round-off differs; an adaptive solver turns a round-off difference into a different
      sequence of accepted steps, and each of the two runs then carries its own global error. Their
      difference is bounded by twice the global error, taken here as ``10 τ`` (``τ |y| + 10 atol`` in
      ``y``), with ``τ`` the tolerance the solver holds its local error to: ``0.1 rtol^(2/3)`` for
      ``RadauIIA5`` (RADAU5's reading), ``rtol`` otherwise. Measured on an H100: 4.2e-9 relative at
      Kvaerno5, rtol 1e-7 (bound 1e-6).

    A lane interaction (a result that moves by more than this when its neighbours change) is a bug.
    """
    backend = backend or jax.default_backend()
    if backend == "cpu" and same_compilation:
        return 1e-10, 1e-14
    tau = 0.1 * rtol ** (2.0 / 3.0) if solver in ("RadauIIA5", "RadauIIA5_hybrid") else rtol
    return 10.0 * tau, 10.0 * atol


def batch_size(cases: Case) -> int:
    """Number of cases in a batched :class:`Case`."""
    return int(np.shape(cases.alpha)[0])


def _take(tree, index):
    return jtu.tree_map(lambda leaf: leaf[index], tree)


def cost_order(cases: Case) -> np.ndarray:
    """An order of the cases that puts cases of similar cost side by side: by ``α`` (stable), which sets the
    number of steps (about ten more per decade). A vmapped chunk runs every lane as long as its slowest, so a
    chunk of similar cases wastes fewer lane-steps (measured on the Table 1 family, chunks of 32: 0.83 of the
    executed lane-steps useful in the drawn order, 0.89 sorted, 14 % less time)."""
    return np.argsort(np.asarray(cases.alpha), kind="stable")


def lane_utilisation(num_steps: ArrayLike, chunk: int) -> float:
    """Useful lane-steps over executed lane-steps of cases solved ``chunk`` lanes at a time, in the order solved
    (a sharded chunk: its share on one device): each vmapped loop runs all its lanes for as many steps as its
    longest case, the padding of the last one included."""
    steps = np.asarray(num_steps)
    executed = sum(chunk * int(steps[first : first + chunk].max()) for first in range(0, steps.size, chunk))
    return float(steps.sum() / executed) if executed else 1.0


def case_bytes(cases: Case) -> int:
    """An upper estimate of the device memory one case of a vmapped Radau solve takes: four copies of its
    ``3d × 3d`` stage-Jacobian Newton matrix (``d`` the state size). Measured with XLA's memory analysis of the
    compiled sweep, the Table 1 rod (``d = 8``) takes 11.7 kB a case, 2.5 such matrices."""
    one = _take(cases, 0)
    state_size = jax.eval_shape(lambda system: initial_state(system).flat, one.system).size
    return 4 * 8 * (3 * state_size) ** 2


def cases_bar(total: int, shown: bool):
    """A bar on stderr with cases done, solves/s and the time left; quiet when ``shown`` is false or stderr is
    not a terminal."""
    return tqdm.tqdm(
        total=total,
        disable=None if shown else True,
        file=sys.stderr,
        unit=" solves",
        desc="solving",
        bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} cases [{elapsed}<{remaining}, {rate_fmt}]",
        dynamic_ncols=True,
        leave=True,
    )


def sweep_chunk_size(cases: Case, devices: Sequence[jax.Device], chunk_size: int | None = None) -> int:
    """Cases per vmapped call of a :func:`sweep` of ``cases`` on ``devices``: ``chunk_size`` (default:
    :func:`~regcontact.compliant.devices.automatic_chunk_size`) at most the batch, rounded up to a multiple of
    the device count."""
    total = batch_size(cases)
    count = len(devices)
    chunk = (
        automatic_chunk_size(total, devices, case_bytes(cases))
        if chunk_size is None
        else check_count("chunk_size", chunk_size)
    )
    return count * math.ceil(min(chunk, total) / count)


def chunk_starts(total: int, chunk: int, done: Mapping[int, CompliantRun] | None = None) -> list[int]:
    """The first case of every chunk of ``chunk`` cases of a batch of ``total`` that ``done`` does not hold
    whole (a held chunk of another length counts as missing)."""
    done = done or {}
    return [
        first
        for first in range(0, total, chunk)
        if first not in done or int(np.shape(done[first].t_end)[0]) != min(chunk, total - first)
    ]


def pace_line(total: int, solved: int, seconds: float) -> str:
    """``100,000 cases: the first 64 took 0.25 s, about 6.5 min for all at this pace``: a sweep's size and time
    estimate, from its first chunk."""
    estimate = total * seconds / max(1, solved)
    shown = f"{estimate:.0f} s"
    for unit, size in (("h", 3600.0), ("min", 60.0)):
        if estimate >= 2 * size:
            shown = f"{estimate / size:.1f} {unit}"
            break
    return f"{total:,} cases: the first {solved} took {seconds:.2f} s, about {shown} for all at this pace"


def sweep(
    cases: Case,
    settings: SolveSettings,
    chunk_size: int | None = None,
    progress: Callable[[str], None] | None = None,
    devices: Sequence[jax.Device] | None = None,
    progress_bar: bool = False,
    done: Mapping[int, CompliantRun] | None = None,
    on_chunk: Callable[[int, CompliantRun], None] | None = None,
    announce_above: int | None = None,
) -> tuple[CompliantRun, SweepTimings]:
    """Solve a batch of cases with one compiled, vmapped call per chunk; never a Python loop of solves.

    The batch is cut into chunks of ``chunk_size`` cases (:func:`sweep_chunk_size`), each sharded evenly across
    ``devices`` (default: every device of JAX's default back end, :func:`~regcontact.compliant.devices.
    sweep_devices`). The last chunk is padded by repeating the final case, so every chunk reuses one
    compilation; padded lanes are dropped. Every case keeps its own status, sharded or not, and a sharded
    batch keeps :func:`batch_agreement`'s promise.

    ``done`` holds chunks solved before, by their first case: they are not solved again. ``on_chunk`` receives
    each chunk solved here (its first case, its runs) as soon as it is on the host, e.g. to keep it on disk.
    With ``announce_above`` cases or more to solve, the pace of the first chunk is said (:func:`pace_line`).
    ``progress`` receives a line of text after the compilation (and after each chunk when no bar is shown);
    ``progress_bar`` shows a bar with cases done, solves/s and the time left on stderr, if it is a terminal.
    Returns host (numpy) arrays, one entry per case, and the timings.

    Args:
        cases: a :class:`Case` whose leaves all have a leading batch axis (for one system and contact over α,
            :func:`~regcontact.compliant.alpha_sweep.alpha_sweep` builds it).
        settings: solver, events and step budget, shared by every case.
        chunk_size: cases per compiled call.
        progress: receives progress lines.
        devices: the devices to shard across.
        progress_bar: show a progress bar on a terminal.

    Returns:
        ``(runs, timings)``: a :class:`CompliantRun` batched along the cases, and :class:`SweepTimings`.
    """
    total = batch_size(cases)
    devices = tuple(devices or sweep_devices())
    count = len(devices)
    chunk = sweep_chunk_size(cases, devices, chunk_size)
    say = progress or (lambda message: None)
    host = jtu.tree_map(np.asarray, cases)
    sharding = _cases_sharding(devices)
    firsts = chunk_starts(total, chunk, done)
    pieces = {first: piece for first, piece in (done or {}).items() if first not in firsts}
    left = sum(min(chunk, total - first) for first in firsts)

    on = f"{count} {devices[0].platform} devices" if count > 1 else str(devices[0])
    if firsts:
        say(f"compiling the vmapped {settings.solver} solve for chunks of {chunk} on {on} …")
    start = time.perf_counter()
    compiled = _compiled_batch_solve(_take(host, np.arange(chunk) % total), settings, devices) if firsts else None
    compile_s = time.perf_counter() - start
    if compiled is not None:
        say(f"compiled the vmapped {settings.solver} solve for chunks of {chunk} on {on} in {compile_s:.1f} s")

    def launch(first: int):
        index = np.minimum(np.arange(first, first + chunk), total - 1)
        assert compiled is not None  # compiled whenever a chunk is left
        return compiled(jax.device_put(_take(host, index), sharding))

    start = time.perf_counter()
    solved = total - left
    with cases_bar(total, progress_bar) as bar:
        bar.update(solved)
        running = launch(firsts[0]) if firsts else None
        for i, first in enumerate(firsts):
            result, running = running, (launch(firsts[i + 1]) if i + 1 < len(firsts) else None)
            count_here = min(chunk, total - first)
            pieces[first] = jtu.tree_map(lambda leaf, n=count_here: np.asarray(leaf)[:n], result)
            if on_chunk is not None:
                on_chunk(first, pieces[first])
            bar.update(count_here)
            solved += count_here
            if i == 0 and announce_above is not None and left >= announce_above:
                say(pace_line(left, count_here, time.perf_counter() - start))
            if bar.disable:
                say(f"solved {solved}/{total} cases ({time.perf_counter() - start:.2f} s)")
    run_s = time.perf_counter() - start
    runs = jtu.tree_map(lambda *leaves: np.concatenate(leaves), *(pieces[first] for first in sorted(pieces)))
    return runs, SweepTimings(compile_s=compile_s, run_s=run_s)
