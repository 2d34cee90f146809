"""Throughput benchmark: solves/s against batch size on one core and on all cores, SciPy's Radau one process per
core on the same cases, and what a whole ``regcontact run`` costs around its solver.

    PYTHONPATH=. python benchmarks/throughput.py [--quick] [--rounds N]

The cases are issue 11's Table 1 rod family: the Sec. 2.1 rod with μ ∈ [1.4, 2.5], φ₀ ∈ [0.85, 1.2] and
α ∈ [1e3, 1e8] (log-uniform), drawn with a fixed seed, each run over one contact time or until
``contact_open`` (the Table 1 rule) with ``RadauIIA5`` at rtol 1e-10, atol 1e-12.

1. Solves/s of :func:`regcontact.compliant.sweep` (one chunk per batch, timed after compilation) in
   three set-ups, each a fresh process (the host device count is fixed when JAX starts): **1 core** (the
   process pinned to one core with ``taskset``, one device), **1 device** (no pinning, one device: what a
   Python user gets without :func:`regcontact.use_host_cores`), **all cores** (one host device per core,
   the batch sharded across them: what ``regcontact run`` does). The set-ups run in turns, ``--rounds``
   times, and the table gives medians over every timed call, since the machine may be shared.
2. SciPy ``solve_ivp(method="Radau")`` on the same cases with the plain numpy field and analytic Jacobian of
   ``benchmarks/scipy_rod.py``, at the same rtol/atol (not at matched accuracy: ``work_precision.py`` does
   that), one process per core; and the six-α Table 1 sweep on all cores against SciPy's six solves.
3. Whole-study overhead: ``regcontact run studies/stiffness_sweep.toml`` (96 cases) twice with a fresh
   compilation cache folder; total time against compile + solve from ``results.json``, and the second
   run's compile time (the persistent cache).
4. Issue 11's target for the study layer: ``regcontact run studies/table1.toml`` swept over 20 μ × 20 φ₀ ×
   25 α = 10,000 cases (400 rods), whole run against compile + solve (target: at most 2×).
   ``--whole-study-only`` runs sections 3 and 4 alone.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE1_ALPHAS = [1e3, 1e4, 1e5, 1e6, 1e7, 1e8]
RTOL, ATOL = 1e-10, 1e-12
SEED = 11


def family(count: int) -> list[dict[str, float]]:
    """``count`` Table 1 rods: μ, φ₀, α drawn with a fixed seed."""
    import numpy as np

    rng = np.random.default_rng(SEED)
    mu = rng.uniform(1.4, 2.5, count)
    phi0 = rng.uniform(0.85, 1.2, count)
    alpha = 10.0 ** rng.uniform(3.0, 8.0, count)
    return [dict(mu=float(m), phi0=float(p), alpha=float(a)) for m, p, a in zip(mu, phi0, alpha)]


def _rod(p: dict[str, float]):
    """The rod of a case: the Table 1 rod (``PainleveRod()``) with the case's μ and φ₀, where it has them."""
    from regcontact.systems.rod import PainleveRod

    return PainleveRod(**{key: p[key] for key in ("mu", "phi0") if key in p})


# -- the JAX worker: one process per set-up ------------------------------------------------------------------


def _batch(parameters: list[dict[str, float]]):
    import jax.numpy as jnp
    import jax.tree_util as jtu

    from regcontact.compliant import Case, Controls
    from regcontact.compliant.termination import contact_time
    from regcontact.contact import ContactModel

    model = ContactModel()
    cases = []
    for p in parameters:
        rod = _rod(p)
        t_max = contact_time(rod, model.at_stiffness(p["alpha"])[0].stiffness)
        cases.append(Case(rod, model, jnp.asarray(p["alpha"]), Controls(RTOL, ATOL, t_max)))
    return jtu.tree_map(lambda *leaves: jnp.stack(leaves), *cases)


def worker(devices: int, sizes: list[int], repeats: int) -> None:
    """Print one JSON line per batch size: compile time and every timed run."""
    import regcontact

    regcontact.use_host_cores(devices)
    from regcontact.compliant import SolveSettings, sweep
    from regcontact.compliant.devices import describe_devices, sweep_devices

    settings = SolveSettings(solver="RadauIIA5", events=("contact_open",))
    chosen = sweep_devices()[:devices]
    for size in sizes:
        batch = _batch(family(size))
        runs, timings = sweep(batch, settings, chunk_size=size, devices=chosen)
        times = [sweep(batch, settings, chunk_size=size, devices=chosen)[1].run_s for _ in range(repeats)]
        print(
            json.dumps(
                dict(
                    size=size,
                    devices=describe_devices(chosen),
                    compile_s=timings.compile_s,
                    run_s=times,
                    failed=int((~runs.ok).sum()),
                    steps_max=int(runs.num_accepted_steps.max()),
                )
            ),
            flush=True,
        )
    table1 = _batch([dict(alpha=a) for a in TABLE1_ALPHAS])  # the rod of studies/table1.toml
    sweep(table1, settings, devices=chosen)
    times = [sweep(table1, settings, devices=chosen)[1].run_s for _ in range(repeats)]
    print(json.dumps(dict(size="table1", run_s=times)), flush=True)


def run_worker(setup: str, cores: int, sizes: list[int], repeats: int) -> list[dict]:
    devices = cores if setup == "all cores" else 1
    command = [sys.executable, __file__, "--worker", str(devices), "--sizes", ",".join(map(str, sizes))]
    command += ["--repeats", str(repeats)]
    if setup == "1 core":
        command = ["taskset", "-c", str(sorted(os.sched_getaffinity(0))[0]), *command]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REGCONTACT_COMPILATION_CACHE": "off"}
    out = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


# -- SciPy, one process per core ------------------------------------------------------------------------------


def scipy_case(p: dict[str, float]) -> tuple[float, int, bool]:
    """One SciPy Radau solve of a case: wall seconds, accepted steps, success."""
    import numpy as np
    from scipy.integrate import solve_ivp

    import regcontact  # noqa: F401  (float64)
    from benchmarks.scipy_rod import ScipyRod
    from regcontact.compliant.dynamics import initial_state
    from regcontact.compliant.termination import contact_time
    from regcontact.contact import ContactModel

    rod, model = _rod(p), ContactModel()
    normal, friction = model.at_stiffness(p["alpha"])
    field = ScipyRod.from_laws(rod, normal, friction)
    y0 = np.asarray(initial_state(rod).flat)
    t_end = float(contact_time(rod, normal.stiffness))
    start = time.perf_counter()
    sol = solve_ivp(field.fun, (0.0, t_end), y0, method="Radau", rtol=RTOL, atol=ATOL, jac=field.jac)
    return time.perf_counter() - start, len(sol.t) - 1, sol.status == 0


def scipy_pool(parameters: list[dict[str, float]], processes: int) -> tuple[float, list]:
    """Wall time of all solves on ``processes`` worker processes (started and warmed up before timing)."""
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        pool.map(scipy_case, parameters[:processes])  # import and warm up every worker
        start = time.perf_counter()
        results = pool.map(scipy_case, parameters, chunksize=1)
        return time.perf_counter() - start, results


# -- whole-study overhead -------------------------------------------------------------------------------------


#: Section 4's sweep: the Table 1 study over 20 μ × 20 φ₀ × 25 α.
TEN_THOUSAND = [
    "sweep.mu={linspace=[1.4, 2.5, 20]}",
    "sweep.phi0={linspace=[0.85, 1.2, 20]}",
    "sweep.alpha={logspace=[3, 8, 25]}",
]


def study_runs(config: str, overrides: list[str] | None = None, count: int = 2) -> list[dict]:
    """``regcontact run CONFIG`` ``count`` times with a fresh compilation cache folder: wall time and
    results.json's timings."""
    cache = Path(tempfile.mkdtemp(prefix="regcontact-cache-"))
    sets = [part for override in overrides or [] for part in ("--set", override)]
    rows = []
    try:
        for _ in range(count):
            out = Path(tempfile.mkdtemp(prefix="regcontact-out-"))
            env = {**os.environ, "PYTHONPATH": str(ROOT), "REGCONTACT_COMPILATION_CACHE": str(cache)}
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "regcontact.cli", "run", config, "--out", str(out), *sets],
                env=env,
                cwd=ROOT,
                capture_output=True,
                check=False,
            )
            wall = time.perf_counter() - start
            results = json.loads((out / "results.json").read_text())
            rows.append(dict(wall=wall, **results["timings_s"]))
            shutil.rmtree(out, ignore_errors=True)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return rows


def _study_line(label: str, row: dict) -> str:
    solver = row["compile_s"] + row["solve_s"]
    return (
        f"   {label}: process {row['wall']:.1f} s, study {row['total_s']:.1f} s = compile "
        f"{row['compile_s']:.2f} s + solve {row['solve_s']:.2f} s + the rest {row['total_s'] - solver:.1f} s "
        f"(study / (compile + solve) = {row['total_s'] / solver:.2f})"
    )


def whole_studies() -> None:
    """Sections 3 and 4: whole ``regcontact run`` commands against their compile + solve time."""
    runs = study_runs("studies/stiffness_sweep.toml")
    print("\n3. whole study: regcontact run studies/stiffness_sweep.toml (96 cases), fresh compilation cache")
    for label, row in zip(["first run", "second run (cache warm)"], runs):
        print(_study_line(label, row))
    (row,) = study_runs("studies/table1.toml", TEN_THOUSAND, count=1)
    print("\n4. whole study: regcontact run studies/table1.toml with " + " ".join(TEN_THOUSAND))
    print("   (10,000 cases, 400 rods; fresh compilation cache; target: study ≤ 2 × (compile + solve))")
    print(_study_line("run", row))


def load_average() -> str:
    return " / ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small batches, one round: to check the script")
    parser.add_argument("--rounds", type=int, default=2, help="turns of the three set-ups (default 2)")
    parser.add_argument("--whole-study-only", action="store_true", help="only sections 3 and 4 (whole runs)")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--sizes", help=argparse.SUPPRESS)
    parser.add_argument("--repeats", type=int, default=5, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.worker:
        worker(options.worker, [int(s) for s in options.sizes.split(",")], options.repeats)
        return

    from benchmarks.work_precision import machine
    from regcontact.compliant.devices import available_cores

    cores = available_cores()
    sizes = [16, 64] if options.quick else [16, 64, 256]
    rounds = 1 if options.quick else options.rounds
    repeats = 2 if options.quick else 5
    print("Throughput benchmark: Table 1 rod family (μ 1.4–2.5, φ0 0.85–1.2, α 1e3–1e8), RadauIIA5 rtol 1e-10")
    print(f"machine: {machine()}; {cores} cores available to this process")
    print(f"load average (1/5/15 min) at the start: {load_average()}")
    if options.whole_study_only:
        whole_studies()
        print(f"\nload average (1/5/15 min) at the end: {load_average()}")
        return

    setups = ["1 core", "1 device", "all cores"]
    timings: dict[tuple[str, object], list[float]] = {}
    compile_s: dict[tuple[str, int], list[float]] = {}
    notes: dict[str, str] = {}
    for _ in range(rounds):
        for setup in setups:
            for row in run_worker(setup, cores, sizes, repeats):
                timings.setdefault((setup, row["size"]), []).extend(row["run_s"])
                if row["size"] != "table1":
                    compile_s.setdefault((setup, row["size"]), []).append(row["compile_s"])
                    notes[setup] = row["devices"]
                    if row["failed"]:
                        notes[f"{setup} failed"] = f"{row['failed']} failed cases at size {row['size']}"

    def rate(setup: str, size: int) -> float:
        return size / statistics.median(timings[(setup, size)])

    print(f"\n1. solves/s of one sweep call after compilation; median of {rounds * repeats} calls ({rounds} rounds)")
    for setup in setups:
        print(f"   {setup:>9}: {notes[setup]}")
    header = ["cases", *(f"{s} [1/s]" for s in setups), "all/1 core", "compile (all) [s]"]
    print("   " + "  ".join(f"{h:>16}" for h in header))
    for size in sizes:
        cells = [f"{size}", *(f"{rate(s, size):.0f}" for s in setups)]
        cells.append(f"{rate('all cores', size) / rate('1 core', size):.2f}x")
        cells.append(f"{statistics.median(compile_s[('all cores', size)]):.1f}")
        print("   " + "  ".join(f"{c:>16}" for c in cells))
    spread = {s: [size / t for t in timings[(s, sizes[-1])]] for s in setups}
    print(
        f"   spread at {sizes[-1]} cases (min–max solves/s): "
        + "; ".join(f"{s} {min(v):.0f}–{max(v):.0f}" for s, v in spread.items())
    )
    for key, note in notes.items():
        if key.endswith("failed"):
            print(f"   note: {key}: {note}")

    cases = family(64 if not options.quick else 16)  # SciPy takes ~0.1 s a solve: 64 keep this section short
    scipy_s, results = scipy_pool(cases, cores)
    ok = sum(r[2] for r in results)
    steps = [r[1] for r in results]
    ours = rate("all cores", len(cases)) if len(cases) in sizes else float("nan")
    print(
        f"\n2. SciPy Radau (numpy field, analytic Jacobian), rtol {RTOL:g}, {cores} processes: {len(cases)} cases in "
        f"{scipy_s:.2f} s = {len(cases) / scipy_s:.0f} solves/s ({ok}/{len(cases)} successful, "
        f"{min(steps)}–{max(steps)} accepted steps); regcontact on all cores: {ours:.0f} solves/s = "
        f"{ours / (len(cases) / scipy_s):.1f}x"
    )
    table1_params = [dict(alpha=a) for a in TABLE1_ALPHAS]
    scipy_table1 = statistics.median(scipy_pool(table1_params, cores)[0] for _ in range(3))
    for setup in setups:
        ours_table1 = statistics.median(timings[(setup, "table1")])
        print(
            f"   Table 1 six-α sweep, {setup}: {1e3 * ours_table1:.0f} ms; SciPy's six on {cores} processes "
            f"{1e3 * scipy_table1:.0f} ms: {scipy_table1 / ours_table1:.1f}x"
        )

    if not options.quick:
        whole_studies()
    print(f"\nload average (1/5/15 min) at the end: {load_average()}")


if __name__ == "__main__":
    main()
