"""What XLA runs in one step of a single Radau IIA solve: thunks counted from a ``jax.profiler`` trace.

    PYTHONPATH=. python benchmarks/step_thunks.py [--solver RadauIIA9] [--alpha 1e6]

On the CPU a compiled program is a chain of thunks (fusions, dots, library calls, copies), each with its own
executor overhead; for a step of tiny operations their number, not their arithmetic, sets the cost. The Table 1
rod at α = 1e6, rtol 1e-10, is solved ``--solves`` times under the profiler (with ten, the trace drops events);
every XLA event on the executor's threads is counted and divided by the steps taken (accepted and rejected).
Times under the profiler are inflated by the tracing itself, so only counts are printed. ``import regcontact``
asks for XLA's sequential CPU schedule (``docs/performance.md``), so the thunks run on one thread, as timed.
"""

from __future__ import annotations

import argparse
import collections
import re
import tempfile
from pathlib import Path

import jax
import jax.numpy as jnp
from jax.profiler import ProfileData

import regcontact  # noqa: F401  (float64, the sequential schedule)
from regcontact import ContactModel, Controls, PainleveRod, contact_time, solve
from regcontact.compliant import SolveSettings


def count_thunks(solver: str = "RadauIIA5", alpha: float = 1e6, solves: int = 3) -> tuple[int, collections.Counter]:
    """Steps of one solve, and the thunks of ``solves`` solves by kind (numbered copies merged)."""
    rod, contact, settings = PainleveRod(), ContactModel(), SolveSettings(solver=solver, events=("contact_open",))

    @jax.jit
    def run(alpha, rtol):
        return solve(
            rod, contact, alpha, Controls(rtol=rtol, atol=rtol * 1e-2, t_max=contact_time(rod, alpha)), settings
        )

    arguments = jnp.asarray(alpha), jnp.asarray(1e-10)
    steps = int(jax.block_until_ready(run(*arguments)).num_steps)
    with tempfile.TemporaryDirectory() as folder:
        jax.profiler.start_trace(folder)
        for _ in range(solves):
            jax.block_until_ready(run(*arguments))
        jax.profiler.stop_trace()
        data = ProfileData.from_file(str(next(Path(folder).rglob("*.xplane.pb"))))
    kinds: collections.Counter[str] = collections.Counter()
    for plane in data.planes:
        for line in plane.lines:
            if not line.name.startswith("tf_XLAEigen"):  # the threads that execute thunks
                continue
            for event in line.events:
                if not event.name.startswith(("ThunkExecutor", "end:")):
                    kinds[re.sub(r"(\.\d+)+$", "", event.name)] += 1
    return steps, kinds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--solves", type=int, default=3)  # more overflow the trace buffer
    parser.add_argument("--alpha", type=float, default=1e6)
    parser.add_argument("--solver", default="RadauIIA5")
    args = parser.parse_args()
    steps, kinds = count_thunks(args.solver, args.alpha, args.solves)
    print(
        f"{args.solver}, Table 1 rod, alpha = {args.alpha:g}, rtol 1e-10: {steps} steps a solve, {args.solves} solves"
    )
    print(f"thunks a step: {sum(kinds.values()) / (steps * args.solves):.1f}")
    for kind, count in kinds.most_common(25):
        print(f"  {count / (steps * args.solves):6.2f}  {kind}")


if __name__ == "__main__":
    main()
