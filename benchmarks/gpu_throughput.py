"""Solves/s of one compiled sweep on a GPU, against the chunk width, with the lane utilisation of each width.

    PYTHONPATH=. python benchmarks/gpu_throughput.py [--sizes 1024,4096,16384,65536] [--repeats 3]
    PYTHONPATH=. python benchmarks/gpu_throughput.py --cases 131072 --sizes 16384,65536   # a sweep in chunks
    PYTHONPATH=. python benchmarks/gpu_throughput.py --device cpu --sizes 64,256   # to check the script

The target is 50,000 solves/s at rtol 1e-10 on one H100. The cases are the Table 1 rod family of
``benchmarks/throughput.py`` (μ ∈ [1.4, 2.5], φ₀ ∈ [0.85, 1.2], α ∈ [1e3, 1e8] log-uniform, fixed seed), each run
over one contact time or until ``contact_open`` with ``RadauIIA5`` at rtol 1e-10, atol 1e-12, built as arrays (one
vmapped constructor, no loop over cases) and ordered by α as a study orders them (``cost_order``).

For each size: ``sweep`` of ``size`` cases in one chunk on the first device of the back end (the compilation,
then the best of ``--repeats`` solves), solves/s, the failed cases, the slowest case's steps, the time of one
iteration of the vmapped step loop, and the lane utilisation (useful lane-steps over executed ones: a vmapped
loop runs every lane as long as its slowest). With ``--cases N`` each size is instead the chunk width of a sweep
of the first ``N`` cases, as ``regcontact run`` solves a study: ordered by α, cut into chunks, the next chunk
launched while the last is read back. The compilation is kept in the folder ``REGCONTACT_COMPILATION_CACHE``
names (or the user's cache folder; ``off`` for none), so a second run reports a warm compile.
"""

from __future__ import annotations

import argparse
import os

import jax
import jax.numpy as jnp
import numpy as np

import regcontact  # noqa: F401  (float64)
from benchmarks.throughput import ATOL, RTOL, family
from regcontact.compliant import Case, Controls, SolveSettings, cost_order, lane_utilisation, sweep
from regcontact.compliant.compilation_cache import use_compilation_cache
from regcontact.compliant.devices import describe_devices
from regcontact.compliant.termination import contact_time
from regcontact.contact import ContactModel
from regcontact.systems.rod import PainleveRod


def cases(count: int) -> Case:
    """The first ``count`` cases of the family as one batched :class:`Case`, ordered by α."""
    drawn = family(count)
    mu, phi0, alpha = (jnp.asarray([case[key] for case in drawn]) for key in ("mu", "phi0", "alpha"))
    model = ContactModel()

    def one(mu, phi0, alpha):
        rod = PainleveRod(mu=mu, phi0=phi0)
        t_max = contact_time(rod, model.at_stiffness(alpha)[0].stiffness)
        return Case(rod, model, alpha, Controls(jnp.asarray(RTOL), jnp.asarray(ATOL), t_max))

    batch = jax.vmap(one)(mu, phi0, alpha)
    order = cost_order(batch)
    return jax.tree_util.tree_map(lambda leaf: np.asarray(leaf)[order], batch)


def _loop_steps(steps: np.ndarray, chunk: int) -> int:
    """Iterations of the vmapped step loop over every chunk: each runs as long as its slowest lane."""
    return sum(int(steps[first : first + chunk].max()) for first in range(0, steps.size, chunk))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1024,4096,16384,65536")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--device", choices=["cpu", "gpu"], default="gpu")
    parser.add_argument(
        "--cases", type=int, default=None, help="a sweep of this many cases in chunks of each size (default: one chunk)"
    )
    args = parser.parse_args()
    use_compilation_cache()  # the folder REGCONTACT_COMPILATION_CACHE names (gpu_card.sh: one per run), or off
    device = jax.devices(args.device)[0]
    settings = SolveSettings(solver="RadauIIA5", events=("contact_open",))
    flags = os.environ.get("XLA_FLAGS", "")
    print(f"{describe_devices([device])}; jax {jax.__version__}; rtol {RTOL:g}, atol {ATOL:g}; XLA_FLAGS={flags!r}")
    print("lanes    compile s  solve s (best)  solves/s  failed  steps max  µs a step  lane utilisation")
    if args.cases:
        print(f"a sweep of {args.cases} cases ordered by alpha, in chunks of each width")
    for size in map(int, args.sizes.split(",")):
        batch = cases(args.cases or size)
        total = args.cases or size
        runs, timings = sweep(batch, settings, chunk_size=size, devices=[device])
        best = min(sweep(batch, settings, chunk_size=size, devices=[device])[1].run_s for _ in range(args.repeats))
        steps = np.asarray(runs.num_steps)
        per_step = 1e6 * best / _loop_steps(steps, size)
        print(
            f"{size:6d}  {timings.compile_s:10.1f}  {best:14.3f}  {total / best:8.0f}  {int((~runs.ok).sum()):6d}  "
            f"{int(steps.max()):9d}  {per_step:9.1f}  {lane_utilisation(steps, size):16.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
