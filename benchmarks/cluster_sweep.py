"""Cluster benchmark: solves/s of a sweep on a two-worker Dask ``LocalCluster`` against one process on the same
machine, and what each chunk costs around its solve (its checkpoint on disk, a Dask round trip).

    PYTHONPATH=. python benchmarks/cluster_sweep.py [--cases-per-axis N]

The study is ``studies/table1.toml`` swept over N μ × N φ₀ × 20 α (default N = 10: 2,000 cases, the Table 1
rule, ``RadauIIA5`` at rtol 1e-10) in chunks of 64.

1. **One process**, ``regcontact run``'s set-up (one host device per core, every chunk sharded across them), and
   one process with one device; each a fresh process, solve time after compilation (``timings_s.solve_s``).
2. **Two-worker LocalCluster** (one worker process per core, one device each; the client holds the results):
   the sweep twice on the same cluster, the first including the workers' start-up compilation, the second
   warm. Solve time is the wall time from sending the chunks to the last one back.
3. **Per chunk**: the time :class:`~regcontact.studies.chunk_checkpoints.ChunkCheckpoints` takes to keep a
   chunk of 64 cases (pickle, write, fsync, rename), and a Dask round trip of a task that does nothing
   (one at a time, and 200 at once).
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
CHUNK = 64


def _overrides(n: int) -> list[str]:
    return [
        f"sweep.system.mu={{linspace=[1.4, 2.5, {n}]}}",
        f"sweep.system.phi0={{linspace=[0.85, 1.2, {n}]}}",
        "sweep.alpha={logspace=[3, 8, 20]}",
        f"sweep.chunk_size={CHUNK}",
    ]


def _loaded(n: int):
    from regcontact.studies.loading import load_study

    return load_study(ROOT / "studies" / "table1.toml", _overrides(n))


def _child(n: int) -> None:
    """One process: the sweep on this process's devices; prints its timings as JSON."""
    from regcontact.compliant.devices import use_host_cores

    use_host_cores()
    from regcontact.studies import compliant_study

    loaded = _loaded(n)
    result = compliant_study.CompliantSweepStudy().run(loaded.config)
    print(json.dumps({"cases": len(result.rows), "device": result.device, **result.timings}))


def _one_process(n: int, devices: int) -> dict:
    environment = {**os.environ, "JAX_NUM_CPU_DEVICES": str(devices), "REGCONTACT_COMPILATION_CACHE": "off"}
    completed = subprocess.run(
        [sys.executable, __file__, "--child", "--cases-per-axis", str(n)],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    return json.loads(completed.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases-per-axis", type=int, default=10)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    n = args.cases_per_axis
    if args.child:
        _child(n)
        return
    os.environ["REGCONTACT_COMPILATION_CACHE"] = "off"  # the workers compile afresh, as on a new machine
    print(f"load average at the start: {os.getloadavg()[0]:.2f} (the machine may be shared)")
    for devices in (2, 1):
        timing = _one_process(n, devices)
        rate = timing["cases"] / timing["solve_s"]
        print(
            f"one process, {timing['device']}: {timing['cases']} cases, compile {timing['compile_s']:.1f} s, "
            f"solve {timing['solve_s']:.2f} s = {rate:.0f} cases/s"
        )

    from regcontact.compliant.devices import use_host_cores

    use_host_cores(2)
    from regcontact.studies import compliant_study
    from regcontact.studies.chunk_checkpoints import ChunkCheckpoints
    from regcontact.studies.sweep_engines import DaskEngine

    saves: list[float] = []

    class TimedCheckpoints(ChunkCheckpoints):
        def save(self, first, runs):
            start = time.perf_counter()
            super().save(first, runs)
            saves.append(time.perf_counter() - start)

    loaded = _loaded(n)
    start = time.perf_counter()
    with DaskEngine.connect(local_workers=2) as engine:
        print(f"LocalCluster of 2 workers started in {time.perf_counter() - start:.1f} s")
        for label in ("first (workers compile)", "second (warm)"):
            with tempfile.TemporaryDirectory() as folder:
                checkpoints = TimedCheckpoints(Path(folder) / "chunks", loaded.config)
                saves.clear()
                result = compliant_study.CompliantSweepStudy().run(
                    loaded.config, checkpoints=checkpoints, engine=engine
                )
            solve_s = result.timings["solve_s"]
            print(
                f"2-worker LocalCluster, {label}: {len(result.rows)} cases in {solve_s:.2f} s = "
                f"{len(result.rows) / solve_s:.0f} cases/s; keeping a chunk of {CHUNK}: median "
                f"{1e3 * statistics.median(saves):.1f} ms over {len(saves)} chunks"
            )
        client = engine.client
        one_by_one = []
        for _ in range(50):
            start = time.perf_counter()
            client.submit(int, 0, pure=False).result()
            one_by_one.append(time.perf_counter() - start)
        start = time.perf_counter()
        client.gather([client.submit(int, i, pure=False) for i in range(200)])
        at_once = (time.perf_counter() - start) / 200
        print(
            f"Dask round trip of an empty task: {1e3 * statistics.median(one_by_one):.1f} ms one at a time "
            f"(median of 50), {1e3 * at_once:.2f} ms each when 200 are sent at once"
        )
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
