"""The batched solve: a batch of cases solved by one ``jit``-compiled ``vmap`` per chunk, sharded over devices.

Chunks have a fixed size (the last one padded), so every chunk reuses one compilation. Under ``vmap`` each case
keeps its own step size, events and status: a case that fails is reported as failed, the rest of the batch stands.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec
from jaxtyping import Array, ArrayLike, Float

from regcontact._argument_checks import NONNEGATIVE, POSITIVE, Rule, check_arguments, check_count
from regcontact._exported_programs import exported_or_traced
from regcontact.compliant._progress import SweepProgress
from regcontact.compliant._solve import CompliantRun, Controls, SolveSettings, solve
from regcontact.compliant.devices import automatic_chunk_size, sweep_devices
from regcontact.compliant.dynamics import CompliantState, initial_state
from regcontact.compliant.initial_penetration import penetrated_initial_state
from regcontact.contact import ContactModel
from regcontact.systems.system import AbstractSystem

__all__ = [
    "Case",
    "SweepTimings",
    "batch_agreement",
    "batch_size",
    "case_bytes",
    "chunk_starts",
    "cost_order",
    "lane_utilisation",
    "sweep",
    "sweep_chunk_size",
]


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
    """A :class:`~regcontact.compliant.CompliantRun` of placeholders: its pytree structure rebuilds a kept sweep's
    flat outputs."""
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
    With ``announce_above`` cases or more to solve, the pace of the first chunk is said
    (:class:`~regcontact.compliant.SweepProgress`). ``progress`` receives a line of text after the compilation
    (and after each chunk when no bar is shown);
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
        ``(runs, timings)``: a :class:`~regcontact.compliant.CompliantRun` batched along the cases, and
        :class:`SweepTimings`.
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
    with SweepProgress(total, left, say, progress_bar, announce_above, started=start) as shown:
        running = launch(firsts[0]) if firsts else None
        for i, first in enumerate(firsts):
            result, running = running, (launch(firsts[i + 1]) if i + 1 < len(firsts) else None)
            count_here = min(chunk, total - first)
            pieces[first] = jtu.tree_map(lambda leaf, n=count_here: np.asarray(leaf)[:n], result)
            if on_chunk is not None:
                on_chunk(first, pieces[first])
            shown.chunk_done(count_here)
    run_s = time.perf_counter() - start
    runs = jtu.tree_map(lambda *leaves: np.concatenate(leaves), *(pieces[first] for first in sorted(pieces)))
    return runs, SweepTimings(compile_s=compile_s, run_s=run_s)
