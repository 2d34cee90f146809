"""Integrate the compliant rod with an implicit diffrax solver: one run, or a vmapped batch of runs.

Two kinds of input are kept apart on purpose:

* :class:`SolveSettings` is static (solver, events, step budget): changing it recompiles.
* Everything numeric — the rod, the contact model, α, tolerances, the time limit — is a JAX array, so a new
  value reuses the compiled sweep.

A batch is solved by one ``jit``-compiled ``vmap`` over its cases (in chunks of a fixed size, so that every
chunk reuses one compilation). Under ``vmap`` each case keeps its own step size, events and status: a case
that fails is reported as failed, the rest of the batch stands.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import diffrax
import equinox as eqx
import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
import optimistix as optx
from jaxtyping import Array, ArrayLike, Float, Int

from regcontact.contact_model import ContactModel
from regcontact.dynamics import RodContact, initial_rod_state, rod_vector_field
from regcontact.rod import PainleveRod
from regcontact.termination import EVENTS

__all__ = [
    "IMPLICIT_SOLVERS",
    "SOLVER_STATUSES",
    "Case",
    "Controls",
    "RodRun",
    "SolveSettings",
    "SweepTimings",
    "batch_size",
    "rod_trajectory",
    "solve_rod",
    "sweep",
]

#: Implicit diffrax solvers by config name.
IMPLICIT_SOLVERS: dict[str, Callable[[], diffrax.AbstractSolver]] = {
    "Kvaerno3": diffrax.Kvaerno3,
    "Kvaerno4": diffrax.Kvaerno4,
    "Kvaerno5": diffrax.Kvaerno5,
    "ImplicitEuler": diffrax.ImplicitEuler,
}

#: diffrax's result codes, by name, in the order used by :attr:`RodRun.status` (last: a code not listed here).
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
    """Static choices of a solve; each distinct value compiles once."""

    solver: str = "Kvaerno5"
    events: tuple[str, ...] = ("contact_open",)
    max_steps: int = 100_000

    def __post_init__(self):
        if self.solver not in IMPLICIT_SOLVERS:
            raise ValueError(f"unknown solver {self.solver!r}; expected one of {sorted(IMPLICIT_SOLVERS)}")
        unknown = [e for e in self.events if e not in EVENTS]
        if unknown:
            raise ValueError(f"unknown events {unknown}; expected a subset of {sorted(EVENTS)}")


class Controls(eqx.Module):
    """Numeric controls of a solve: tolerances and time limit (arrays: changing them does not recompile)."""


    rtol: Float[Array, ""]
    atol: Float[Array, ""]
    t_max: Float[Array, ""]

    def __init__(self, rtol: ArrayLike = 1e-8, atol: ArrayLike = 1e-10, t_max: ArrayLike = 1.0):
        self.rtol = jnp.asarray(rtol, dtype=float)
        self.atol = jnp.asarray(atol, dtype=float)
        self.t_max = jnp.asarray(t_max, dtype=float)


class RodRun(eqx.Module):
    """Outcome of one compliant-rod run (batched along a leading axis after :func:`sweep`).

    ``termination`` is 0 when the run reached ``t_max`` and ``i + 1`` when ``settings.events[i]`` ended it;
    ``status`` indexes :data:`SOLVER_STATUSES`.
    """

    t_end: Float[Array, ""]
    y_end: Float[Array, "8"]
    termination: Int[Array, ""]
    status: Int[Array, ""]
    num_steps: Int[Array, ""]
    num_accepted_steps: Int[Array, ""]
    num_rejected_steps: Int[Array, ""]

    @property
    def force_integrals(self) -> Float[Array, "... 2"]:
        """``(∫λ_n dt, ∫λ_t dt)`` from the start to ``t_end``."""
        return self.y_end[..., 6:8]


def _status_index(result: diffrax.RESULTS) -> Int[Array, ""]:
    """Index of ``result`` in :data:`SOLVER_STATUSES`; a code this list does not know maps to ``"unknown"``,
    never to success."""
    known = SOLVER_STATUSES[:-1]
    matches = jnp.stack([result == getattr(diffrax.RESULTS, name) for name in known])
    return jnp.where(jnp.any(matches), jnp.argmax(matches), len(known))


def _diffeqsolve(
    rod: PainleveRod,
    contact: ContactModel,
    alpha: Float[Array, ""],
    controls: Controls,
    settings: SolveSettings,
    saveat: diffrax.SaveAt,
) -> diffrax.Solution:
    """The one diffrax call behind every compliant-rod solve."""
    normal, friction = contact.at_stiffness(alpha)
    args = RodContact(rod=rod, normal=normal, friction=friction)
    if settings.events:
        conditions = {name: EVENTS[name] for name in settings.events}
        root_finder = optx.Newton(rtol=1e-10, atol=1e-13)
        event = diffrax.Event(cond_fn=conditions, root_finder=root_finder, direction=True)
    else:
        event = None
    return diffrax.diffeqsolve(
        diffrax.ODETerm(rod_vector_field),
        IMPLICIT_SOLVERS[settings.solver](),
        t0=0.0,
        t1=controls.t_max,
        dt0=None,
        y0=initial_rod_state(rod),
        args=args,
        saveat=saveat,
        stepsize_controller=diffrax.PIDController(rtol=controls.rtol, atol=controls.atol),
        event=event,
        max_steps=settings.max_steps,
        throw=False,
    )


def solve_rod(
    rod: PainleveRod,
    contact: ContactModel,
    alpha: Float[Array, ""],
    controls: Controls,
    settings: SolveSettings,
) -> RodRun:
    """Integrate the compliant rod at stiffness multiplier ``alpha`` from its initial state to its end."""
    sol = _diffeqsolve(rod, contact, alpha, controls, settings, diffrax.SaveAt(t1=True))
    if settings.events:
        masks = jnp.stack([sol.event_mask[name] for name in settings.events])
        termination = jnp.where(jnp.any(masks), jnp.argmax(masks) + 1, 0)
    else:
        termination = jnp.asarray(0)
    return RodRun(
        t_end=sol.ts[-1],
        y_end=sol.ys[-1],
        termination=termination,
        status=_status_index(sol.result),
        num_steps=sol.stats["num_steps"],
        num_accepted_steps=sol.stats["num_accepted_steps"],
        num_rejected_steps=sol.stats["num_rejected_steps"],
    )


def rod_trajectory(
    rod: PainleveRod,
    contact: ContactModel,
    alpha: Float[Array, ""],
    controls: Controls,
    settings: SolveSettings,
    ts: Float[Array, " n"],
) -> tuple[Float[Array, "n 8"], Int[Array, ""]]:
    """The state at the times ``ts`` (within ``[0, t_max]``) and the solver status index.

    Times after an event that ended the run hold ``inf``, as diffrax leaves them.
    """
    sol = _diffeqsolve(rod, contact, alpha, controls, settings, diffrax.SaveAt(ts=ts))
    return sol.ys, _status_index(sol.result)


class Case(eqx.Module):
    """Everything numeric about one run; a batch of cases is a ``Case`` whose leaves have a leading axis."""

    rod: PainleveRod
    contact: ContactModel
    alpha: Float[Array, ""]
    controls: Controls


@dataclasses.dataclass(frozen=True)
class SweepTimings:
    """Wall-clock seconds: compiling the vmapped solve, and running every chunk after compilation."""

    compile_s: float
    run_s: float


_COMPILED: dict = {}


def _compiled_batch_solve(batch: Case, settings: SolveSettings):
    """The jit-compiled, vmapped solve for batches shaped like ``batch`` (compiled once per shape)."""
    leaves, treedef = jtu.tree_flatten(batch)
    key = (settings, treedef, tuple((leaf.shape, leaf.dtype) for leaf in leaves))
    if key not in _COMPILED:
        solve_batch = jax.vmap(lambda case: solve_rod(case.rod, case.contact, case.alpha, case.controls, settings))
        _COMPILED[key] = jax.jit(solve_batch).lower(batch).compile()
    return _COMPILED[key]


def batch_size(cases: Case) -> int:
    """Number of cases in a batched :class:`Case`."""
    return int(jnp.shape(cases.alpha)[0])


def _take(tree, index):
    return jtu.tree_map(lambda leaf: jnp.asarray(leaf)[index], tree)


def sweep(
    cases: Case,
    settings: SolveSettings,
    chunk_size: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> tuple[RodRun, SweepTimings]:
    """Solve a batch of cases with one compiled, vmapped call per chunk; never a Python loop of solves.

    The batch is cut into chunks of ``chunk_size`` (default: the whole batch), the last one padded by repeating
    its final case, so every chunk reuses one compilation. ``progress`` receives a line of text after the
    compilation and after each chunk. Returns host (numpy) arrays, one entry per case, and the timings.
    """
    total = batch_size(cases)
    chunk = total if chunk_size is None else max(1, min(chunk_size, total))
    say = progress or (lambda message: None)

    start = time.perf_counter()
    compiled = _compiled_batch_solve(_take(cases, np.arange(chunk)), settings)
    compile_s = time.perf_counter() - start
    say(f"compiled the vmapped {settings.solver} solve for chunks of {chunk} in {compile_s:.1f} s")

    start = time.perf_counter()
    pieces = []
    for first in range(0, total, chunk):
        index = np.minimum(np.arange(first, first + chunk), total - 1)
        result = jax.block_until_ready(compiled(_take(cases, index)))
        count = min(chunk, total - first)
        pieces.append(jtu.tree_map(lambda leaf: np.asarray(leaf)[:count], result))
        say(f"solved {first + count}/{total} cases ({time.perf_counter() - start:.2f} s)")
    run_s = time.perf_counter() - start
    runs = jtu.tree_map(lambda *leaves: np.concatenate(leaves), *pieces)
    return runs, SweepTimings(compile_s=compile_s, run_s=run_s)
