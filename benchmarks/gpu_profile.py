"""What a GPU runs in one step of a vmapped sweep: kernels a step, time in kernels against time between them.

    PYTHONPATH=. python benchmarks/gpu_profile.py [--size 16384]
    PYTHONPATH=. python benchmarks/gpu_profile.py --device cpu --size 64   # to check the script

One chunk of ``--size`` cases of the Table 1 family (``benchmarks/gpu_throughput.py``'s cases, rtol 1e-10) is
solved once to compile, once timed, and once under ``jax.profiler``. A vmapped loop runs every lane for as many
steps as its slowest case, so "a step" is one iteration of that loop: the chunk's largest ``num_steps``. From the
trace: the kernels the device ran (events on its stream lines) and their summed time, per step, by kind; the
host's launches and synchronisations. Time between kernels (the wall time a step less its kernels' time) is
what launches, synchronisations and the host's loop control cost; the kernels' time is the work.
"""

from __future__ import annotations

import argparse
import collections
import re
import tempfile
import time
from pathlib import Path

import jax
import numpy as np
from jax.profiler import ProfileData

from benchmarks.gpu_throughput import cases
from regcontact.compliant import SolveSettings, sweep
from regcontact.compliant.compilation_cache import use_compilation_cache
from regcontact.compliant.devices import describe_devices


def _kind(name: str) -> str:
    """A kernel's name without its numbering (``loop_select_fusion_12`` → ``loop_select_fusion``)."""
    return re.sub(r"([._]\d+)+$", "", name.split("(")[0].strip())


def _busy_ns(intervals: list[tuple[int, int]]) -> int:
    """Length of the union of ``(start, end)`` intervals: time in which at least one kernel ran."""
    total, current_start, current_end = 0, None, None
    for start, end in sorted(intervals):
        if current_end is None or start > current_end:
            if current_end is not None and current_start is not None:
                total += current_end - current_start
            current_start, current_end = start, end
        else:
            current_end = max(current_end, end)
    if current_end is not None and current_start is not None:
        total += current_end - current_start
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=16384)
    parser.add_argument("--device", choices=["cpu", "gpu"], default="gpu")
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    use_compilation_cache()  # the folder REGCONTACT_COMPILATION_CACHE names (gpu_card.sh: one per run), or off
    device = jax.devices(args.device)[0]
    settings = SolveSettings(solver="RadauIIA5", events=("contact_open",))
    batch = cases(args.size)
    runs, timings = sweep(batch, settings, chunk_size=args.size, devices=[device])
    start = time.perf_counter()
    runs, _ = sweep(batch, settings, chunk_size=args.size, devices=[device])
    wall = time.perf_counter() - start
    steps = int(np.asarray(runs.num_steps).max())
    print(f"{describe_devices([device])}; jax {jax.__version__}; one chunk of {args.size} cases")
    print(f"compile {timings.compile_s:.1f} s; solve {wall:.3f} s; loop steps (slowest lane) {steps}; ")
    print(f"wall a step {1e6 * wall / steps:.1f} µs; failed {int((~np.asarray(runs.ok)).sum())}")

    with tempfile.TemporaryDirectory() as folder:
        jax.profiler.start_trace(folder)
        start = time.perf_counter()
        sweep(batch, settings, chunk_size=args.size, devices=[device])
        traced_wall = time.perf_counter() - start
        jax.profiler.stop_trace()
        data = ProfileData.from_file(str(next(Path(folder).rglob("*.xplane.pb"))))

    lines: collections.Counter[str] = collections.Counter()
    kernel_counts: collections.Counter[str] = collections.Counter()
    kernel_ns: collections.Counter[str] = collections.Counter()
    intervals: list[tuple[int, int]] = []
    host_calls: collections.Counter[str] = collections.Counter()
    device_plane = f"/device:{'GPU' if args.device == 'gpu' else 'CPU'}:0"
    for plane in data.planes:
        for line in plane.lines:
            events = list(line.events)
            lines[f"{plane.name} | {line.name}"] += len(events)
            if plane.name.startswith(device_plane) and line.name.startswith("Stream"):
                for event in events:
                    kernel_counts[_kind(event.name)] += 1
                    kernel_ns[_kind(event.name)] += int(event.duration_ns)
                    intervals.append((int(event.start_ns), int(event.end_ns)))
            elif plane.name.startswith("/host"):
                for event in events:
                    if re.match(r"(cu|cuda)\w*(Launch|Memcpy|Synchronize|EventRecord|StreamWait|Graph)", event.name):
                        host_calls[event.name] += 1

    print(f"traced solve {traced_wall:.3f} s (the profiler slows it)")
    print("trace lines (events): " + "; ".join(f"{name} ({count})" for name, count in lines.most_common(12)))
    kernels = sum(kernel_counts.values())
    busy = _busy_ns(intervals) * 1e-9
    if kernels:
        kernel_s = sum(kernel_ns.values()) * 1e-9
        print(
            f"kernels a step: {kernels / steps:.1f}; kernel time a step {1e6 * kernel_s / steps:.1f}"
            f" µs (busy {1e6 * busy / steps:.1f} µs) of {1e6 * traced_wall / steps:.1f} µs traced wall: "
            f"{busy / traced_wall:.2f} of the time a kernel runs"
        )
        print(
            f"mean kernel {1e6 * kernel_s / kernels:.2f} µs; gap a kernel {1e6 * (traced_wall - busy) / kernels:.2f} µs"
        )
        print(f"  {'a step':>7}  {'µs a step':>9}  kernel")
        for kind, count in kernel_counts.most_common(args.top):
            print(f"  {count / steps:7.2f}  {1e-3 * kernel_ns[kind] / steps:9.2f}  {kind}")
    else:
        print("no kernel events on the device's stream lines (see the trace lines above)")
    if host_calls:
        print("host driver calls a step: " + "; ".join(f"{n} {c / steps:.1f}" for n, c in host_calls.most_common(8)))


if __name__ == "__main__":
    main()
