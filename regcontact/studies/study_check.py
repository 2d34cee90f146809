"""What a study would do, without doing it: its cases, chunks and devices, and a rough estimate of the time.

The estimate is a measurement scaled, not a model: the compliant Table 1 rod swept over 10,000 cases at
rtol 1e-10 took 33.6 s of solving after 4.7 s of compiling on two CPU devices (a 2-core machine, shared, in
November 2026; ``docs/performance.md``), 6.7 ms per case per device. Other systems, tolerances and machines differ,
easily by a factor of a few; on a GPU nothing was measured, so nothing is estimated.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["COMPILE_S", "SOLVE_S_PER_CASE_PER_CPU", "check_lines"]

#: Seconds to compile a compliant sweep on a CPU, without the compilation cache (measured, see the docstring).
COMPILE_S = 4.7
#: Seconds of solving per case and CPU device at rtol 1e-10 (measured, see the docstring).
SOLVE_S_PER_CASE_PER_CPU = 33.6 / 10_000 * 2


def check_lines(kind: str, config: dict[str, Any]) -> list[str]:
    """The lines ``regcontact check`` prints for a validated study (JAX started, on the devices it would use)."""
    if kind != "compliant_sweep":
        return [f"kind {kind}: valid; its cost is not estimated (only compliant sweeps have an estimate)"]
    from regcontact.compliant.devices import automatic_chunk_size, describe_devices, sweep_devices
    from regcontact.compliant.simulate import case_bytes
    from regcontact.studies.compliant_cases import sweep_cases
    from regcontact.studies.compliant_sweep import CompliantSweep

    devices = sweep_devices()
    sweep = CompliantSweep.from_config(config)
    built = sweep_cases(sweep)
    total = sweep.size
    count = len(devices)
    given = sweep.chunk_size
    chunk = automatic_chunk_size(total, devices, case_bytes(built.cases)) if given is None else max(1, given)
    chunk = count * math.ceil(min(chunk, total) / count)
    chunks = math.ceil(total / chunk)
    lines = [
        f"cases: {total:,} ({len(built.system_tables):,} distinct systems)",
        f"chunks: {chunks:,} of {chunk:,} cases" + ("" if given is not None else " (chosen from the devices)"),
        f"devices: {describe_devices(devices)}",
    ]
    if devices[0].platform != "cpu":
        lines.append("time: not estimated (no GPU figure was measured)")
        return lines
    solve_s = chunks * chunk * SOLVE_S_PER_CASE_PER_CPU / count
    lines.append(
        f"time: roughly {COMPILE_S + solve_s:.0f} s (compile ~{COMPILE_S:.0f} s, less with the compilation cache; "
        f"solve ~{solve_s:.1f} s, scaled from the Table 1 rod at rtol 1e-10 on a 2-core CPU: other systems and "
        "tolerances differ)"
    )
    return lines
