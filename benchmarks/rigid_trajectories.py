"""The rod of Preclik Sec. 2.1 over 3 s: Moreau–Jean at δt = 1e-2 … 1e-5 and the event-driven run (issue 12).

Prints, per run, wall time, steps, LCP solves and the mode sequence; then cProfile's top entries of one run;
then a sweep of 64 Sec. 2.1 rods (μ, φ₀ drawn with a fixed seed) over 3 s at δt = 1e-3, stepped together by
``moreau_jean_batch`` against one by one by ``moreau_jean``.
Usage: ``PYTHONPATH=. python benchmarks/rigid_trajectories.py [smallest δt exponent, default 5]``.
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
    sweep()


def sweep(count: int = 64, t_end: float = 3.0, dt: float = 1e-3) -> None:
    """Many rods, batched against one by one: wall times, per lane-step costs, and the largest difference."""
    rng = np.random.default_rng(0)
    rods = [
        PainleveRod(mu=float(m), phi0=float(p))
        for m, p in zip(rng.uniform(1, 2.5, count), rng.uniform(0.6, 1.3, count))
    ]
    moreau_jean_batch(rods[:2], 10 * dt, dt)  # compile the batched evaluation once
    start = time.perf_counter()
    batch = moreau_jean_batch(rods, t_end, dt)
    batched = time.perf_counter() - start
    start = time.perf_counter()
    alone = [moreau_jean(rod, t_end, dt) for rod in rods]
    one_by_one = time.perf_counter() - start
    lane_steps = count * batch[0].statistics.steps
    dq = max(float(np.abs(b.q - a.q).max()) for b, a in zip(batch, alone))
    same = sum(b.modes == a.modes for b, a in zip(batch, alone))
    fallback = sum(b.statistics.fallback_steps for b in batch)
    print(
        f"\n{count} rods (μ 1–2.5, φ0 0.6–1.3) over {t_end:g} s at δt = {dt:g}: batched {batched:.2f} s, one by one "
        f"{one_by_one:.2f} s = {one_by_one / batched:.1f}x; per lane-step {1e6 * batched / lane_steps:.1f} µs against "
        f"{1e6 * one_by_one / lane_steps:.1f} µs; largest |Δq| {dq:.1e}; equal modes {same}/{count}; "
        f"{fallback} of {lane_steps} lane-steps by the one-system step"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
