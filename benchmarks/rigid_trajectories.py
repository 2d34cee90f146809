"""The rod of Preclik Sec. 2.1 over 3 s: Moreau–Jean at δt = 1e-2 … 1e-5 and the event-driven run (issue 12).

Prints, per run, wall time, steps, LCP solves and the mode sequence; then cProfile's top entries of one run; then
a sweep of Sec. 2.1 rods over (μ, φ₀) stepped by ``moreau_jean_batch`` against ``moreau_jean`` one by one.
Usage: ``PYTHONPATH=. python benchmarks/rigid_trajectories.py [smallest δt exponent, default 5] [--batch-only]``.
"""

import cProfile
import pstats
import sys
import time

import numpy as np

from regcontact.rigid import event_driven, moreau_jean, moreau_jean_batch
from regcontact.systems import PainleveRod


def describe(trajectory):
    runs = ", ".join(f"{t:.4f}s {''.join(m)}" for t, m in trajectory.mode_sequence())
    s = trajectory.statistics
    head = f"{trajectory.integrator:24s} wall {s.wall_time:7.2f} s  steps {s.steps:7d}  LCPs {s.lcp_solves:7d}"
    return f"{head}  modes: {runs}"


def main(smallest: int = 5) -> None:
    rod = PainleveRod()
    moreau_jean(rod, 0.01, 0.01)  # compile the system's evaluation once
    start = time.perf_counter()
    for exponent in range(2, smallest + 1):
        print(f"dt = 1e-{exponent}: " + describe(moreau_jean(rod, 3.0, 10.0**-exponent)))
    reference = event_driven(rod, 3.0)
    print("event driven: " + describe(reference))
    print("  events: " + ", ".join(f"{e.kind} at {e.time:.6f}" for e in reference.events))
    print(f"total {time.perf_counter() - start:.1f} s")
    profile = cProfile.Profile()
    profile.runcall(moreau_jean, rod, 3.0, 1e-3)
    pstats.Stats(profile).sort_stats("tottime").print_stats(8)


def sweep(size: int = 64, t_end: float = 3.0, dt: float = 1e-3, repeats: int = 3) -> None:
    """``size`` Sec. 2.1 rods on a (μ, φ₀) grid over ``t_end`` at ``dt``: batched against one by one (medians of
    ``repeats``), and whether the runs agree bit for bit."""
    side = int(np.sqrt(size))
    grid = [(mu, phi) for mu in np.linspace(0.3, 2.0, side) for phi in np.linspace(0.3, 1.3, size // side)]
    rods = [PainleveRod(mu=mu, phi0=phi) for mu, phi in grid]
    steps = int(round(t_end / dt))
    moreau_jean_batch(rods, dt, dt)  # compile the vmapped evaluation
    batched, alone = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        batch = moreau_jean_batch(rods, t_end, dt)
        batched.append(time.perf_counter() - start)
        start = time.perf_counter()
        single = [moreau_jean(rod, t_end, dt) for rod in rods]
        alone.append(time.perf_counter() - start)
    identical = all(
        a.modes == b.modes and np.array_equal(a.q, b.q) and np.array_equal(a.v, b.v) for a, b in zip(batch, single)
    )
    t_batch, t_alone = float(np.median(batched)), float(np.median(alone))
    print(
        f"sweep: {len(rods)} Sec. 2.1 rods (mu x phi0 grid), {t_end} s at dt = {dt:g} ({steps} steps), "
        f"medians of {repeats}"
    )
    print(f"  one by one  {t_alone:7.2f} s   {1e6 * t_alone / (steps * len(rods)):6.1f} us per rod-step")
    print(
        f"  batched     {t_batch:7.2f} s   {1e6 * t_batch / (steps * len(rods)):6.1f} us per rod-step, "
        f"{1e6 * t_batch / steps:7.1f} us per batch step   speed-up {t_alone / t_batch:.1f}x"
    )
    ambiguous = sum(t.statistics.ambiguous_steps for t in batch)
    serial = sum(t.statistics.serial_steps for t in batch)
    print(f"  bit-identical to one by one: {identical}; ambiguous steps {ambiguous}, serial steps {serial}")


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
    if "--batch-only" not in sys.argv:
        main(int(arguments[0]) if arguments else 5)
    sweep()
