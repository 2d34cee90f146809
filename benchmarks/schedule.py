"""XLA's CPU schedule against the work: single solves, small batches and sweeps, on one and on all host devices,
with XLA's concurrency-optimised scheduler (JAX's default) and with the sequential one.

    PYTHONPATH=. python benchmarks/schedule.py [--rounds 3] [--repeats 5] [--quick] [--work sweep] [--devices 2]

The schedule is fixed when JAX starts (``XLA_FLAGS``; a per-compilation ``compiler_options`` entry is accepted by
jaxlib 0.10.2 but changes nothing, checked here in section 0), so every set-up is a fresh process, and the set-ups
run in turns, ``--rounds`` times; each figure is the median over every timed call of every round. Each arm names
its schedule explicitly (``--xla_cpu_enable_concurrency_optimized_scheduler=true`` or ``=false``), so the
comparison does not depend on what regcontact sets by itself.

Work, all of it the Table 1 rod family at rtol 1e-10 (``benchmarks/throughput.py``'s cases):

* **single**: one jitted solve of the Table 1 rod at α = 1e3, 1e6, 1e9, 1e12, with ``RadauIIA5`` and with
  ``RadauIIA9``: µs a step (the four solves' time over their steps);
* **batch 8**: one vmapped chunk of 8 cases through ``sweep``;
* **sweep 256**: 256 cases, ordered by α and cut into chunks as a study cuts them, through ``sweep``.

Section 0 (``compiler_options``) prints whether a per-compilation setting changes the compiled program.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLAG = "--xla_cpu_enable_concurrency_optimized_scheduler"
SCHEDULES = {"concurrent (JAX's default)": f"{FLAG}=true", "sequential": f"{FLAG}=false"}
ALPHAS = [1e3, 1e6, 1e9, 1e12]
RTOL = 1e-10


def worker(devices: int, repeats: int, sweep_cases: int, work: list[str]) -> None:
    """Print one JSON line: every timed call of each piece of work, in this process's schedule."""
    import regcontact

    regcontact.use_host_cores(devices)
    import jax
    import jax.numpy as jnp

    from benchmarks.throughput import _batch, family
    from regcontact import ContactModel, Controls, PainleveRod, contact_time, solve
    from regcontact.compliant import SolveSettings, sweep
    from regcontact.compliant.compilation_cache import use_compilation_cache

    use_compilation_cache()
    rod, contact = PainleveRod(), ContactModel()
    out: dict[str, list[float]] = {}
    for solver in ("RadauIIA5", "RadauIIA9") if "single" in work else ():
        settings = SolveSettings(solver=solver, events=("contact_open",))

        @jax.jit
        def run(alpha, rtol, settings=settings):
            controls = Controls(rtol=rtol, atol=rtol * 1e-2, t_max=contact_time(rod, alpha))
            return solve(rod, contact, alpha, controls, settings)

        arguments = [(jnp.asarray(alpha), jnp.asarray(RTOL)) for alpha in ALPHAS]
        steps = sum(int(run(*a).num_steps) for a in arguments)
        per_step = []
        for _ in range(repeats):
            start = time.perf_counter()
            for a in arguments:
                jax.block_until_ready(run(*a))
            per_step.append(1e6 * (time.perf_counter() - start) / steps)
        out[f"single {solver}, us/step"] = per_step
    settings = SolveSettings(solver="RadauIIA5", events=("contact_open",))
    if "batch" in work:
        small = _batch(family(8))
        sweep(small, settings, chunk_size=8)
        out["batch 8, ms"] = [1e3 * sweep(small, settings, chunk_size=8)[1].run_s for _ in range(repeats)]
    if "sweep" in work:
        cases = _batch(sorted(family(sweep_cases), key=lambda p: p["alpha"]))
        sweep(cases, settings)
        out[f"sweep {sweep_cases}, ms"] = [1e3 * sweep(cases, settings)[1].run_s for _ in range(repeats)]
    print(json.dumps(out), flush=True)


def compiler_options_check() -> str:
    """Whether ``compiler_options={"xla_cpu_enable_concurrency_optimized_scheduler": False}`` changes the
    compiled program of a single solve (it is accepted; the flag in ``XLA_FLAGS`` does change it)."""
    code = (
        "import jax, jax.numpy as jnp, regcontact\n"
        "from regcontact import ContactModel, Controls, PainleveRod, contact_time, solve\n"
        "from regcontact.compliant import SolveSettings\n"
        "rod, contact, s = PainleveRod(), ContactModel(), SolveSettings(events=('contact_open',))\n"
        "f = lambda a, r: solve(rod, contact, a, Controls(rtol=r, atol=r*1e-2, t_max=contact_time(rod, a)), s)\n"
        "low = jax.jit(f).lower(jnp.asarray(1e6), jnp.asarray(1e-10))\n"
        "a = low.compile().as_text()\n"
        "b = low.compile(compiler_options={'xla_cpu_enable_concurrency_optimized_scheduler': False}).as_text()\n"
        "print(a == b, hash(a))\n"
    )
    texts = {}
    for name, flag in SCHEDULES.items():
        env = {**os.environ, "PYTHONPATH": str(ROOT), "XLA_FLAGS": flag, "REGCONTACT_COMPILATION_CACHE": "off"}
        texts[name] = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        ).stdout.split()
    same_options = texts["concurrent (JAX's default)"][0] == "True"
    same_flags = texts["concurrent (JAX's default)"][1] == texts["sequential"][1]
    return (
        f"0. compiler_options on one compilation: program {'unchanged' if same_options else 'changed'}; "
        f"XLA_FLAGS at start-up: program {'unchanged' if same_flags else 'changed'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one round, two repeats, a 64-case sweep")
    parser.add_argument("--worker", type=int, help="(internal) host devices of a worker process")
    parser.add_argument("--sweep-cases", type=int, default=256)
    parser.add_argument("--work", default="single,batch,sweep", help="which work: single, batch, sweep")
    parser.add_argument("--devices", default="", help="host device counts (default: 1 and every core)")
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.repeats, args.sweep_cases = 1, 2, 64
    if args.worker:
        worker(args.worker, args.repeats, args.sweep_cases, args.work.split(","))
        return
    from benchmarks.work_precision import machine

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    print(f"{machine()}; load average {os.getloadavg()[0]:.2f} at the start")
    if "single" in args.work:
        print(compiler_options_check(), flush=True)
    counts = sorted({int(d) for d in args.devices.split(",")} if args.devices else {1, cores})
    setups = [(devices, name) for devices in counts for name in SCHEDULES]
    results: dict[tuple[int, str], dict[str, list[float]]] = {setup: {} for setup in setups}
    with tempfile.TemporaryDirectory() as cache:
        for _ in range(args.rounds):
            for devices, name in setups:
                env = {
                    **os.environ,
                    "PYTHONPATH": str(ROOT),
                    "XLA_FLAGS": f"{os.environ.get('XLA_FLAGS', '')} {SCHEDULES[name]}".strip(),
                    "REGCONTACT_COMPILATION_CACHE": cache,
                }
                command = [sys.executable, __file__, "--worker", str(devices), "--repeats", str(args.repeats)]
                command += ["--sweep-cases", str(args.sweep_cases), "--work", args.work]
                out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
                for key, values in json.loads(out.splitlines()[-1]).items():
                    results[devices, name].setdefault(key, []).extend(values)
    keys = list(results[setups[0]])
    print(f"\nmedians over {args.rounds} rounds x {args.repeats} calls; less is faster")
    header = ["work", *(f"{d} device{'s' if d > 1 else ''}, {n.split()[0]}" for d, n in setups)]
    header += [f"{d} dev.: concurrent / sequential" for d in counts]
    rows = []
    for key in keys:
        medians = {setup: statistics.median(results[setup][key]) for setup in setups}
        ratios = [medians[d, "concurrent (JAX's default)"] / medians[d, "sequential"] for d in counts]
        rows.append([key, *(f"{medians[s]:.2f}" for s in setups), *(f"{r:.2f}x" for r in ratios)])
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    print("  ".join(h.rjust(w) for h, w in zip(header, widths)))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(c.rjust(w) for c, w in zip(row, widths)))
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
