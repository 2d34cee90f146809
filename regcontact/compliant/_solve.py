"""One compliant solve: a system integrated at one α with an implicit diffrax solver, to its end or an event.

Two kinds of input are kept apart on purpose: :class:`SolveSettings` is static (solver, events, step budget:
changing it recompiles); everything numeric (the system, the contact model, α, :class:`Controls`) is a JAX array,
so a new value reuses the compiled solve.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
from jaxtyping import Array, ArrayLike, Bool, Float, Int

from regcontact._argument_checks import (
    FINITE,
    MAX_STEPS,
    POSITIVE,
    RELATIVE_TOLERANCE,
    ArgumentError,
    Rule,
    check_argument,
    check_arguments,
    check_count,
    is_traced,
)
from regcontact._readable_repr import readable_repr
from regcontact.compliant.dynamics import CompliantState, CompliantSystem, initial_state, vector_field
from regcontact.compliant.run_checks import RUN_CHECKS, check_inputs, check_run
from regcontact.compliant.switches import RESTART_SURFACES, exit_condition, exit_values
from regcontact.compliant.termination import EVENTS
from regcontact.contact import AbstractJumpingNormalLaw, AbstractPeakNormalLaw, ContactModel
from regcontact.systems.system import AbstractSystem

if TYPE_CHECKING:
    import diffrax

__all__ = [
    "IMPLICIT_SOLVERS",
    "SOLVER_STATUSES",
    "CompliantRun",
    "Controls",
    "SolveSettings",
    "solve",
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
#: (:mod:`regcontact._exported_programs`) and a config check never need it (0.2 s of start-up).
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

#: diffrax's result codes, by name, in the order used by :attr:`CompliantRun.status`.
_DIFFRAX_STATUSES: tuple[str, ...] = (
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
)

#: The statuses of a run: diffrax's result codes, then ``invalid_times`` (a trajectory or force history whose
#: traced sample times broke their rule: not integrated, every sample nan) and ``unknown`` (a diffrax code not
#: listed here).
SOLVER_STATUSES: tuple[str, ...] = (*_DIFFRAX_STATUSES, "invalid_times", "unknown")


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
    A run that reaches a point where no step meets the tolerance ends there with ``status_name ==
    "dt_min_reached"`` (:class:`~regcontact.compliant.solvers.StepFloorController`).

    Args:
        rtol: relative tolerance, in [2.2e-14, 1) (100 float64 epsilons or more: a smaller one cannot be met).
        atol: absolute tolerance, positive.
        t_max: end time of the run, positive (required).

    Raises:
        ValueError: a value out of range, naming it: ``rtol = 2.0: expected a number in [2.2e-14, 1) …``.

    Examples:
        >>> import regcontact as rc
        >>> rod = rc.PainleveRod()
        >>> rc.Controls(t_max=rc.contact_time(rod, 1e6))
        Controls(rtol=1e-10, atol=1e-12, t_max=0.00237482)
    """

    #: The rule of each argument (the config's ``solver.rtol``, ``solver.atol``, ``termination.time_limit``).
    ARGUMENT_RULES: ClassVar[dict[str, Rule]] = {"rtol": RELATIVE_TOLERANCE, "atol": POSITIVE, "t_max": POSITIVE}

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
    """Outcome of one compliant run (batched along a leading axis after :func:`~regcontact.compliant.sweep`).

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

    matches = jnp.stack([result == getattr(diffrax.RESULTS, name) for name in _DIFFRAX_STATUSES])
    return jnp.where(jnp.any(matches), jnp.argmax(matches), SOLVER_STATUSES.index("unknown"))


def _diffeqsolve(
    args: CompliantSystem,
    t0: Float[Array, ""],
    state0: CompliantState,
    controls: Controls,
    settings: SolveSettings,
    above: Bool[Array, "surfaces k"],
    memory: Float[Array, "surfaces k"],
    saveat: diffrax.SaveAt,
) -> diffrax.Solution:
    """The one diffrax call behind every compliant solve: from ``(t0, state0)`` to the first terminating event,
    restart crossing or ``t_max``.

    Each restart surface holds every contact on its side ``above`` (with its ``memory``, e.g. a peak) during the
    piece and watches only that side's exit, one condition per contact. The event conditions are a pair of
    tuples, (terminating, restart), so that a terminating event takes precedence when both trigger in the same
    step. Every condition fires on a rising crossing, located by bisection on the step's dense output
    (:class:`~regcontact.compliant.solvers.CrossingBisection`).
    """
    import diffrax

    from regcontact.compliant.solvers import CrossingBisection, StepFloorController

    terminating = tuple(EVENTS[name] for name in settings.events)
    restarts = []
    for i, name in enumerate(settings.restart_at):
        surface = RESTART_SURFACES[name]
        args = surface.hold(args, above[i], memory[i])
        restarts += [exit_condition(surface, above[i], memory[i], contact) for contact in range(above.shape[1])]
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
        stepsize_controller=StepFloorController(rtol=controls.rtol, atol=controls.atol),
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


def _past_exits(surfaces, above, memory, state, args) -> Bool[Array, "surfaces k"]:
    """Whether each contact lies past the exit of its side of each surface."""
    if not surfaces:
        return jnp.zeros(above.shape, bool)
    return jnp.stack(
        [exit_values(surface, above[i], memory[i], state, args) > 0.0 for i, surface in enumerate(surfaces)]
    )


def _recorded(surfaces, memory, state, args) -> Float[Array, "surfaces k"]:
    """What each surface records at ``state`` (:attr:`~regcontact.compliant.switches.RestartSurface.record`); a
    surface that records nothing keeps ``memory``."""
    rows = [memory[i] if surface.record is None else surface.record(state, args) for i, surface in enumerate(surfaces)]
    return jnp.stack(rows) if rows else memory


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
    fresh solver. Without ``settings.restart_at`` there is one piece. A peak law
    (:class:`~regcontact.contact.AbstractPeakNormalLaw`) needs ``restart_at`` to hold ``"peak"``: its peaks are
    recorded where a contact turns to unload. A run that exhausts ``max_steps`` over
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

    check_argument("alpha", alpha, POSITIVE)
    contact.check_contacts(system.NUM_CONTACTS)
    state0 = initial_state(system) if state0 is None else _checked_state(system, state0)
    inputs = check_inputs(system, contact, alpha, controls.rtol, controls.atol, controls.t_max, state0)
    # A run whose inputs break a rule is not integrated: it ends where it starts, with the check that failed.
    controls = eqx.tree_at(lambda c: c.t_max, controls, jnp.where(inputs == 0, controls.t_max, 0.0))
    normal, friction = contact.at_stiffness(alpha)
    args = CompliantSystem(system=system, normal=normal, friction=friction)
    pieces = _pieces(args, state0, controls, settings, inputs != 0)
    t_end, state_end, above_end, memory_end, steps, restarts, termination, result = pieces.end
    surfaces = [RESTART_SURFACES[name] for name in settings.restart_at]
    held = _held(args, settings, above_end, memory_end)
    missed_switch = (termination == 0) & jnp.any(_past_exits(surfaces, above_end, memory_end, state_end, args))
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


def _held(
    args: CompliantSystem, settings: SolveSettings, above: Bool[Array, "surfaces k"], memory: Float[Array, "surfaces k"]
) -> CompliantSystem:
    """``args`` with the laws held as each restart surface of ``settings`` holds them on the sides ``above`` with
    ``memory`` (a peak law's branch and peaks): the field of the piece those belong to."""
    for i, name in enumerate(settings.restart_at):
        args = RESTART_SURFACES[name].hold(args, above[i], memory[i])
    return args


class _Pieces(eqx.Module):
    """What :func:`_pieces` returns: the loop's end ``(t, state, above, memory, steps, restarts, termination,
    result)`` and, when asked for times, the states there with each sample's ``above`` and ``memory``."""

    end: tuple
    samples: CompliantState | None
    above: Bool[Array, "m surfaces k"] | None
    memory: Float[Array, "m surfaces k"] | None


def _pieces(
    args: CompliantSystem,
    state0: CompliantState,
    controls: Controls,
    settings: SolveSettings,
    finished: Bool[Array, ""],
    ts: Float[Array, " m"] | None = None,
) -> _Pieces:
    """Run :func:`solve`'s loop of pieces from ``state0`` (nothing when ``finished``); with ``ts``, also the state
    at each of those times, taken from the piece that holds it, with that piece's restart sides and memory.

    A piece saves at ``ts`` clipped to ``[t, t_max]`` (diffrax wants them there) and keeps the ones inside
    ``[t, t_end]`` of the piece; times after an event that ended the run hold ``inf``, as diffrax leaves them."""
    import diffrax

    normal = args.normal
    if "contact" in settings.restart_at and not isinstance(normal, AbstractJumpingNormalLaw):
        raise ValueError(f"restart at 'contact' needs a normal law with a contact_force branch, not {normal!r}")
    if isinstance(normal, AbstractPeakNormalLaw) != ("peak" in settings.restart_at):
        raise ValueError(f"restart_at names 'peak' exactly for a peak normal law (one that remembers), not {normal!r}")
    surfaces = [RESTART_SURFACES[name] for name in settings.restart_at]
    k = args.system.NUM_CONTACTS
    above = (
        jnp.stack([surface.starts_above(state0, args) for surface in surfaces]) if surfaces else jnp.zeros((0, k), bool)
    )
    remembers = any(surface.record is not None for surface in surfaces)
    memory = jnp.zeros(above.shape)
    if remembers:
        memory = _recorded(surfaces, memory, state0, args)
    if ts is None:
        sampled: tuple = ()
    else:
        ts = jnp.asarray(ts, dtype=float)
        m = ts.shape[0]
        sampled = (
            jtu.tree_map(lambda leaf: jnp.full((m, *leaf.shape), jnp.inf, leaf.dtype), state0),
            jnp.zeros((m, *above.shape), bool),
            jnp.zeros((m, *above.shape)),
        )

    def unfinished(carry):
        return ~carry[8]

    def next_piece(carry):
        t, state, above, memory, steps, restarts, _, _, _, *sampled = carry
        if ts is None:
            saveat = diffrax.SaveAt(t1=True)
        else:  # the end and the samples apart (one SaveAt puts t1 after the last time saved before an event)
            saveat = diffrax.SaveAt(
                subs=[diffrax.SubSaveAt(t1=True), diffrax.SubSaveAt(ts=jnp.clip(ts, t, controls.t_max))]
            )
        sol = _diffeqsolve(args, t, state, controls, settings, above, memory, saveat)
        ends, piece = (sol.ys, None) if ts is None else sol.ys
        t_end = sol.ts[-1] if ts is None else sol.ts[0][-1]
        terminating, crossings = sol.event_mask if sol.event_mask is not None else ((), ())
        termination = _first_event(tuple(terminating))
        crossing = _first_event(tuple(crossings)) - 1  # index of (surface, contact), surface-major; −1: none
        restarted = (crossing >= 0) & (termination == 0)
        # Every contact past its exit switches, not only the one that triggered: contacts can cross together
        # (a rod dropped flat touches down with both ends in the same step). The trigger switches even if the
        # state re-interpolated at a root on the step's end rounds back onto the surface.
        state_end = _last(ends)
        if ts is not None:
            states, above_at, memory_at = sampled
            inside = (ts >= t) & (ts <= t_end) & jnp.all(jnp.isfinite(piece.q), axis=-1)

            def keep(new, old):
                return jnp.where(inside.reshape(-1, *([1] * (old.ndim - 1))), new, old)

            sampled = [
                jtu.tree_map(keep, piece, states),
                keep(jnp.broadcast_to(above, above_at.shape), above_at),
                keep(jnp.broadcast_to(memory, memory_at.shape), memory_at),
            ]
        trigger = jnp.arange(above.size).reshape(above.shape) == crossing
        switched = restarted & (_past_exits(surfaces, above, memory, state_end, args) | trigger)
        above = above ^ switched
        if remembers:  # only surfaces that record (a peak law's) carry memory across restarts
            memory = jnp.where(switched, _recorded(surfaces, memory, state_end, args), memory)
        statistics = ("num_steps", "num_accepted_steps", "num_rejected_steps")
        steps = steps + jnp.stack([sol.stats[name] for name in statistics])
        out_of_steps = steps[0] >= settings.max_steps
        result = diffrax.RESULTS.where(restarted & out_of_steps, diffrax.RESULTS.max_steps_reached, sol.result)
        finished = ~restarted | out_of_steps
        return (t_end, state_end, above, memory, steps, restarts + restarted, termination, result, finished, *sampled)

    start = (
        jnp.asarray(0.0),
        state0,
        above,
        memory,
        jnp.zeros(3, int),
        jnp.asarray(0),
        jnp.asarray(0),
        diffrax.RESULTS.successful,
        finished,
        *sampled,
    )
    end = jax.lax.while_loop(unfinished, next_piece, start)
    if ts is None:
        return _Pieces(end=tuple(end[:8]), samples=None, above=None, memory=None)
    return _Pieces(end=tuple(end[:8]), samples=end[9], above=end[10], memory=end[11])


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
    """The state at the times ``ts`` (leaves with a leading axis) from ``state0`` (default: the system's initial
    state) and the solver status.

    Without ``settings.restart_at`` it is one diffrax solve; with it, :func:`solve`'s loop of pieces (a peak law,
    :class:`~regcontact.contact.BilinearSpring`, needs ``restart_at=("peak",)``), each sample taken from the piece
    that holds its time. Times after an event that ended the run hold ``inf``, as diffrax leaves them.

    ``ts`` is a 1-D array of times, non-decreasing, within ``[0, t_max]``. Concrete times that are not are refused
    (``ts[2] = 0.5: expected times non-decreasing within [0, t_max = 1.0] (ts[1] = 0.7 before it)``); traced
    ones (under ``jit``/``vmap``) have no value to refuse, so a run whose times break the rule is not integrated,
    every one of its samples is ``nan`` and its status is ``invalid_times``.

    Raises:
        ValueError: ``ts`` not 1-D, empty, not finite, decreasing somewhere, or outside ``[0, t_max]``, naming
            the first time at fault.
    """
    states, _, _, status = _held_trajectory(system, contact, alpha, controls, settings, ts, state0)
    return states, status


def _held_trajectory(
    system: AbstractSystem,
    contact: ContactModel,
    alpha: Float[Array, ""],
    controls: Controls,
    settings: SolveSettings,
    ts: Float[Array, " m"],
    state0: CompliantState | None = None,
) -> tuple[CompliantState, Bool[Array, "m surfaces k"], Float[Array, "m surfaces k"], Int[Array, ""]]:
    """:func:`trajectory`, with the restart surfaces' sides and memory at each sample (what holds the laws there:
    :meth:`~regcontact.compliant.switches.RestartSurface.hold`)."""
    import diffrax

    check_argument("alpha", alpha, POSITIVE)
    contact.check_contacts(system.NUM_CONTACTS)
    normal, friction = contact.at_stiffness(alpha)
    args = CompliantSystem(system=system, normal=normal, friction=friction)
    state0 = initial_state(system) if state0 is None else _checked_state(system, state0)
    ts = _checked_times(ts, controls.t_max)
    # Traced times are checked in the run: times that break the rule are not integrated (t_max = 0, every saved
    # time 0, so diffrax has nothing to refuse), and their samples are nan.
    good = _times_hold(ts, controls.t_max) if is_traced((ts, controls.t_max)) else None
    if good is not None:
        ts = jnp.where(good, ts, 0.0)
        controls = eqx.tree_at(lambda c: c.t_max, controls, jnp.where(good, controls.t_max, 0.0))
    m, k, surfaces = jnp.shape(ts)[0], system.NUM_CONTACTS, len(settings.restart_at)
    if surfaces:
        finished = jnp.asarray(False) if good is None else ~good
        pieces = _pieces(args, state0, controls, settings, finished, ts)
        assert pieces.samples is not None and pieces.above is not None and pieces.memory is not None
        samples, above, memory, status = pieces.samples, pieces.above, pieces.memory, _status_index(pieces.end[7])
    else:
        if isinstance(normal, AbstractPeakNormalLaw):
            raise ValueError(f"a peak normal law (one that remembers) needs restart_at=('peak',): {normal!r}")
        no_surfaces = jnp.zeros((0, k), bool)
        sol = _diffeqsolve(
            args, jnp.asarray(0.0), state0, controls, settings, no_surfaces, jnp.zeros((0, k)), diffrax.SaveAt(ts=ts)
        )
        assert sol.ys is not None  # SaveAt(ts=...) always saves
        samples, above, memory = sol.ys, jnp.zeros((m, 0, k), bool), jnp.zeros((m, 0, k))
        status = _status_index(sol.result)
    if good is not None:
        samples = jtu.tree_map(lambda leaf: jnp.where(good, leaf, jnp.nan), samples)
        status = jnp.where(good, status, SOLVER_STATUSES.index("invalid_times"))
    return samples, above, memory, status


def _checked_times(ts: Any, t_max: Any) -> Float[Array, " m"]:
    """``ts`` as a float array if it is a 1-D array of one or more times (its shape is known even when traced)
    and, where concrete, finite, non-decreasing and within ``[0, t_max]`` (``t_max`` where it is concrete);
    else ``ArgumentError`` naming the first time at fault."""
    concrete = not is_traced(ts)
    if concrete and np.size(ts) != 0:  # an empty array is refused by its shape, below
        check_argument("ts", ts, FINITE)
    if np.ndim(ts) != 1 or np.shape(ts)[0] == 0:
        raise ArgumentError("ts", ts, "a 1-D array of one or more times", shown=f"an array of shape {np.shape(ts)}")
    if not concrete:
        return jnp.asarray(ts, dtype=float)
    times = np.asarray(ts, dtype=float)
    limit = None if is_traced(t_max) else float(t_max)
    above = times > limit if limit is not None else np.zeros(times.shape, bool)
    falls = np.concatenate([[False], times[1:] < times[:-1]])
    bad = (times < 0.0) | above | falls
    if np.any(bad):
        i = int(np.argmax(bad))
        within = "[0, t_max]" if limit is None else f"[0, t_max = {limit!r}]"
        before = f" (ts[{i - 1}] = {float(times[i - 1])!r} before it)" if falls[i] else ""
        raise ArgumentError(f"ts[{i}]", float(times[i]), f"times non-decreasing within {within}{before}")
    return jnp.asarray(ts, dtype=float)


def _times_hold(ts: Float[Array, " m"], t_max: Float[Array, ""]) -> Bool[Array, ""]:
    """Whether the times ``ts`` are finite, non-decreasing and within ``[0, t_max]``: :func:`_checked_times`'s
    rule, as a JAX boolean, for times or an end time traced in a compiled run."""
    inside = jnp.all(jnp.isfinite(ts) & (ts >= 0.0) & (ts <= t_max))
    return inside & jnp.all(ts[1:] >= ts[:-1])
