"""Where the time of a vmapped ``RadauIIA5`` step goes, on the Table 1 rod family (issue 11, point 6).

    PYTHONPATH=. python benchmarks/radau_profile.py [--lanes 256] [--repeats 7]

1. The whole vmapped sweep (one device): wall time, the steps of the slowest lane, time per loop step.
2. The pieces of one Newton iteration, each as its own jitted, vmapped call over the batch's initial states
   (medians of ``--repeats``): the vector field at three stages, the three stage Jacobians (``jacfwd``), the
   ``3n × 3n`` solve of the semismooth Newton, and the ``n × n`` real and complex solves of Hairer's split form.
3. Newton iterations per step: the iteration count of every step of every lane (read through a host callback
   while the step's Newton loop is traced, so this run is slower and not timed), and how many iterations the
   vmapped loop runs per step (the largest over the lanes, which is what every lane waits for).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import statistics
import time

import jax
import jax.numpy as jnp
import numpy as np

import regcontact  # noqa: F401  (float64)
from benchmarks.throughput import _batch, family
from regcontact.compliant import SolveSettings, sweep
from regcontact.compliant.dynamics import CompliantSystem, flat_vector_field, initial_state
from regcontact.compliant.solvers import radau_iia


def _median_time(function, *args, repeats: int) -> float:
    jax.block_until_ready(function(*args))
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        jax.block_until_ready(function(*args))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def pieces(batch, repeats: int) -> dict[str, float]:
    """Median ms per batched call of each piece of a Newton iteration."""
    normal, friction = jax.vmap(lambda c: c.contact.at_stiffness(c.alpha))(batch)
    args = CompliantSystem(system=batch.system, normal=normal, friction=friction)
    y = jax.vmap(lambda system: initial_state(system).flat)(batch.system)
    n = y.shape[-1]
    h = 1e-3 / jnp.asarray(batch.alpha)
    A_inv = jnp.asarray(radau_iia._TABLEAU.A_inv)
    Y = y[:, None, :] + 1e-6 * jnp.arange(3.0)[None, :, None]

    def field(Y, args, h):
        return jax.vmap(lambda y: h * flat_vector_field(0.0, y, args))(Y)

    def jacobians(Y, args, h):
        return jax.vmap(jax.jacfwd(lambda y: h * flat_vector_field(0.0, y, args)))(Y)

    hJ = jax.jit(jax.vmap(jacobians))(Y, args, h)
    big = jax.vmap(lambda hJ: jnp.kron(A_inv, jnp.eye(n)) - jax.scipy.linalg.block_diag(*hJ))(hJ)
    rhs = Y.reshape(Y.shape[0], -1)
    small = 3.6 * jnp.eye(n) - hJ[:, -1]
    small_complex = (2.7 + 3.1j) * jnp.eye(n) - hJ[:, -1].astype(complex)
    solve = jax.jit(jax.vmap(jnp.linalg.solve))
    return {
        "vector field, 3 stages": _median_time(jax.jit(jax.vmap(field)), Y, args, h, repeats=repeats) * 1e3,
        "stage Jacobians (jacfwd), 3": _median_time(jax.jit(jax.vmap(jacobians)), Y, args, h, repeats=repeats) * 1e3,
        f"solve {3 * n}x{3 * n} real": _median_time(solve, big, rhs, repeats=repeats) * 1e3,
        f"solve {n}x{n} real": _median_time(solve, small, y, repeats=repeats) * 1e3,
        f"solve {n}x{n} complex": _median_time(solve, small_complex, y.astype(complex), repeats=repeats) * 1e3,
        f"LU factor {n}x{n} real": _median_time(jax.jit(jax.vmap(jax.scipy.linalg.lu_factor)), small, repeats=repeats)
        * 1e3,
    }


@contextlib.contextmanager
def _counting_newton_iterations(record):
    """While a Radau step is traced, report each Newton loop's iteration count (its carry's first entry)."""
    original = jax.lax.while_loop
    original_step = radau_iia.RadauIIA5.step

    def while_loop(cond, body, init):
        out = original(cond, body, init)
        jax.debug.callback(record, out[0], out[-2])
        return out

    def step(self, *args, **kwargs):
        jax.lax.while_loop = while_loop
        try:
            return original_step(self, *args, **kwargs)
        finally:
            jax.lax.while_loop = original

    radau_iia.RadauIIA5.step = step  # type: ignore[method-assign]
    try:
        yield
    finally:
        radau_iia.RadauIIA5.step = original_step  # type: ignore[method-assign]


def iteration_counts(batch, settings) -> tuple[np.ndarray, np.ndarray]:
    """Every (step, loop, lane) Newton iteration count, and the loops' converged flags (``RadauIIA5_hybrid``:
    two loops a step, the simplified Newton and the semismooth fallback)."""
    counts, converged = [], []

    def record(k, ok):
        counts.append(np.asarray(k))
        converged.append(np.asarray(ok))

    with _counting_newton_iterations(record):  # another max_steps: a fresh trace, not the compiled solve
        sweep(
            batch,
            dataclasses.replace(settings, max_steps=settings.max_steps + 1),
            chunk_size=len(batch.alpha),
            devices=jax.devices()[:1],
        )
    # Under vmap the callback runs once per lane, lane after lane: one row of the batch's size per step.
    lanes, loops = len(batch.alpha), 2 if settings.solver == "RadauIIA5_hybrid" else 1
    return np.asarray(counts).reshape(-1, loops, lanes), np.asarray(converged).reshape(-1, loops, lanes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lanes", type=int, default=256)
    parser.add_argument("--repeats", type=int, default=7)
    options = parser.parse_args()
    batch = _batch(family(options.lanes))
    settings = SolveSettings(solver="RadauIIA5", events=("contact_open",))
    device = jax.devices()[:1]

    runs, timings = sweep(batch, settings, chunk_size=options.lanes, devices=device)
    times = [sweep(batch, settings, chunk_size=options.lanes, devices=device)[1].run_s for _ in range(3)]
    run_s = statistics.median(times)
    steps = np.asarray(runs.num_steps)
    print(f"{options.lanes} lanes, one device: compile {timings.compile_s:.1f} s, solve {run_s:.3f} s (median of 3)")
    print(
        f"  steps per lane: median {np.median(steps):.0f}, max {steps.max()} (accepted max "
        f"{np.asarray(runs.num_accepted_steps).max()}); loop steps run = max: {run_s / steps.max() * 1e3:.3f} ms each"
    )
    print(f"\npieces of one Newton iteration, batched over {options.lanes} lanes (median ms per call):")
    for name, ms in pieces(batch, options.repeats).items():
        print(f"  {name:32s} {ms:8.3f}")

    for solver in ("RadauIIA5", "RadauIIA5_hybrid"):
        counts, converged = iteration_counts(batch, dataclasses.replace(settings, solver=solver))
        for loop, name in enumerate(["Newton"] if counts.shape[1] == 1 else ["simplified Newton", "fallback"]):
            print(f"\n{solver}, {name} iterations ({counts.shape[0]} vmapped steps x {counts.shape[2]} lanes):")
            k, ok = counts[:, loop], converged[:, loop]
            values, number = np.unique(k, return_counts=True)
            print("  per lane and step: " + ", ".join(f"{v}: {c / k.size:.1%}" for v, c in zip(values, number)))
            print(f"  mean per lane {k.mean():.2f}; not converged {1 - ok.mean():.2%}")
            slowest = k.max(axis=1)
            values, number = np.unique(slowest, return_counts=True)
            print(
                "  run by the vmapped loop (max over lanes), steps: "
                + ", ".join(f"{v}: {c}" for v, c in zip(values, number))
            )
            print(f"  mean run {slowest.mean():.2f} vs mean per lane {k.mean():.2f}")


if __name__ == "__main__":
    main()
