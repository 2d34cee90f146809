"""``RadauIIA5`` with its default semismooth Newton against ``newton="hybrid"`` (issue 11, point 6).

    PYTHONPATH=. python benchmarks/radau_newton.py [--sizes 256,2048] [--repeats 3]

On the Table 1 rod family of ``benchmarks/throughput.py`` (μ ∈ [1.4, 2.5], φ₀ ∈ [0.85, 1.2], α ∈ [1e3, 1e8],
rtol 1e-10, atol 1e-12, one vmapped chunk on one device): solves/s of both solvers, compiled once each and then
timed in turns (default, hybrid, default, …) so that a drift of the shared machine hits both alike; medians of
``--repeats`` calls. Then the force integrals of both, on that batch and on the six Table 1 cases of
``studies/table1.toml``: the largest absolute difference, and the step counts.
"""

from __future__ import annotations

import argparse
import os
import statistics

import jax
import numpy as np

import regcontact  # noqa: F401  (float64)
from benchmarks.throughput import TABLE1_ALPHAS, _batch, family
from regcontact.compliant import SolveSettings, sweep

SOLVERS = ("RadauIIA5", "RadauIIA5_hybrid")


def compare(batch, size: int, repeats: int) -> dict[str, dict]:
    """Compile both solvers for one chunk of ``size``, time them in turns; runs and timings per solver."""
    device = jax.devices()[:1]
    out: dict[str, dict] = {}
    for name in SOLVERS:
        settings = SolveSettings(solver=name, events=("contact_open",))
        runs, timings = sweep(batch, settings, chunk_size=size, devices=device)
        out[name] = dict(settings=settings, runs=runs, compile_s=timings.compile_s, run_s=[])
    for _ in range(repeats):
        for name in SOLVERS:
            out[name]["run_s"].append(sweep(batch, out[name]["settings"], chunk_size=size, devices=device)[1].run_s)
    return out


def describe(out: dict[str, dict], size: int) -> None:
    default, hybrid = (out[name] for name in SOLVERS)
    for name in SOLVERS:
        r = out[name]
        runs = r["runs"]
        median = statistics.median(r["run_s"])
        print(
            f"  {name:18s} compile {r['compile_s']:5.1f} s   solve {median:7.3f} s "
            f"[{min(r['run_s']):.3f} … {max(r['run_s']):.3f}]   {size / median:7.1f} solves/s   "
            f"steps max {int(runs.num_steps.max())}, accepted total {int(runs.num_accepted_steps.sum())}, "
            f"rejected total {int(runs.num_rejected_steps.sum())}, failed {int((~runs.ok).sum())}"
        )
    speedup = statistics.median(default["run_s"]) / statistics.median(hybrid["run_s"])
    diff = np.abs(np.asarray(default["runs"].force_integrals) - np.asarray(hybrid["runs"].force_integrals)).max()
    print(f"  hybrid / default speed: {speedup:.2f}x;  max |force integral difference| {diff:.1e}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="256,2048")
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    print(f"{os.cpu_count()} CPU cores, JAX {jax.__version__}, one device; load average {os.getloadavg()[0]:.1f}")
    table1 = _batch([dict(alpha=a) for a in TABLE1_ALPHAS])
    print("Table 1 (studies/table1.toml, six alphas, rtol 1e-10):")
    describe(compare(table1, len(TABLE1_ALPHAS), options.repeats), len(TABLE1_ALPHAS))
    for size in (int(s) for s in options.sizes.split(",")):
        print(f"Table 1 rod family, {size} lanes:")
        describe(compare(_batch(family(size)), size, options.repeats), size)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
