"""Start-up benchmark: how long a re-run takes from the command to its first solve, and a cold import.

    PYTHONPATH=. python benchmarks/first_solve.py [--runs N] [--study studies/table1.toml]

1. ``regcontact run STUDY`` with a fresh compilation cache folder, once to fill it (traced, compiled, kept), then
   ``--runs`` times again. For each run: seconds from starting the process to the line saying the compiled sweep
   is ready (the first chunk is launched right after it), and to the end of the command.
2. ``python -c "import regcontact"`` ``--runs`` times: the package imports without JAX until a solve needs it.

Medians (min–max) over the runs. Targets: under 1 s from command to first solve on a re-run; a cold import under
1 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
READY = "compiled the vmapped"


def _timed_run(command: list[str], environment: dict[str, str]) -> tuple[float | None, float]:
    """Seconds to the compiled-sweep line on stderr (None if it never came) and to the process's end."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, bufsize=1, env=environment, cwd=ROOT
    )
    assert process.stderr is not None
    ready = None
    for line in process.stderr:
        if ready is None and READY in line:
            ready = time.perf_counter() - start
    if process.wait() != 0:
        raise SystemExit(f"{' '.join(command)} failed with exit status {process.returncode}")
    return ready, time.perf_counter() - start


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} s ({min(values):.3f}–{max(values):.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--study", default="studies/table1.toml")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        environment = os.environ | {"REGCONTACT_COMPILATION_CACHE": str(Path(folder) / "cache")}
        command = [sys.executable, "-m", "regcontact", "run", args.study, "--out", str(Path(folder) / "out")]
        first_ready, first_total = _timed_run(command, environment)
        runs = [_timed_run(command, environment) for _ in range(args.runs)]
    ready = [r for r, _ in runs if r is not None]
    print(f"regcontact run {args.study}, {args.runs} re-runs with a kept compilation cache")
    print(f"  first run (traces, compiles, keeps): to first solve {first_ready:.3f} s, whole {first_total:.3f} s")
    print(f"  re-run, command to first solve:      {_spread(ready)}   (target < 1 s)")
    print(f"  re-run, whole command:               {_spread([total for _, total in runs])}")
    imports = []
    for _ in range(args.runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import regcontact"], check=True, cwd=ROOT)
        imports.append(time.perf_counter() - start)
    print(f"python -c 'import regcontact' (cold process): {_spread(imports)}   (target < 1 s)")


if __name__ == "__main__":
    main()
