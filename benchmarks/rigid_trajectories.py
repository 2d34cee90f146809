"""The rod of Preclik Sec. 2.1 over 3 s: Moreau–Jean at δt = 1e-2 … 1e-5 and the event-driven run (issue 12).

Prints, per run, wall time, steps, LCP solves and the mode sequence; then cProfile's top entries of one run.
Usage: ``PYTHONPATH=. python benchmarks/rigid_trajectories.py [smallest δt exponent, default 5]``.
"""

import cProfile
import pstats
import sys
import time

from regcontact.rigid import event_driven, moreau_jean
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


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
