"""The compliant-limit reference of a sweep: one compiled call for every system against SciPy one by one, and the
3,200-case sweep's time outside compile and solve.

    PYTHONPATH=. python benchmarks/limit_reference.py [--quick]

1. 200 Painlevé rods (Table 1's rod, μ ∈ [1.4, 2.5] × φ₀ ∈ [0.85, 1.2], 10 × 20), each an impact without collision
   under Preclik & Rüde's contact model: :func:`regcontact.rigid.compliant_limits` (first call: compile or
   compilation-cache load; then warm) against :func:`regcontact.rigid.compliant_limit` (SciPy's DOP853, one rod
   at a time, the same tolerances), and the largest difference of their impulses.
2. ``regcontact run studies/stiffness_sweep.toml`` over those 200 rods × 16 α (3,200 cases, a fresh output
   folder; run twice, the second as a user's re-run finds its compilation cache and kept exports):
   ``results.json``'s total, compile, solve, rigid-reference and limit-reference times, and the time a case
   spends outside compile and solve (target: at most 0.5 ms). Compile is the sweep's and what JAX spent tracing
   and compiling the references' and rows' own programs (``host_compile_s``, measured by JAX's compile events).

``--quick`` takes 20 rods (SciPy and batched) and skips section 2.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
MU = np.linspace(1.4, 2.5, 10)
PHI0 = np.linspace(0.85, 1.2, 20)
ALPHA = np.logspace(3, 8, 16)


def _machine() -> str:
    import jax

    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    return (
        f"machine: {cpu} ({os.cpu_count()} cores); JAX {jax.__version__} on {jax.default_backend()}; "
        f"Python {platform.python_version()}; load average at the start: "
        + " / ".join(f"{x:.1f}" for x in os.getloadavg())
    )


def limits_side_by_side(quick: bool) -> None:
    import regcontact as rc
    from regcontact.rigid import compliant_limit, compliant_limits
    from regcontact.rigid._state import as_contact_state

    mus, phis = (MU[:2], PHI0) if quick else (MU, PHI0)
    states = [as_contact_state(rc.PainleveRod(mu=float(m), phi0=float(p))) for m in mus for p in phis]
    if quick:
        states = states[:20]
    model = rc.ContactModel()
    models = [model] * len(states)
    n = len(states)
    start = time.perf_counter()
    batched = compliant_limits(states, models)
    first = time.perf_counter() - start
    start = time.perf_counter()
    batched = compliant_limits(states, models)
    warm = time.perf_counter() - start
    start = time.perf_counter()
    scipy, differences = [], []
    for state, answer in zip(states, batched):
        try:
            outcome, _ = compliant_limit(state, model)
        except (ValueError, RuntimeError) as error:
            scipy.append(error)
            assert isinstance(answer, Exception) and str(answer) == str(error)
            continue
        scipy.append(outcome)
        assert not isinstance(answer, Exception), answer
        differences.append(float(np.abs(answer[0].impulses - outcome.impulses).max()))
    one_by_one = time.perf_counter() - start
    impacts = sum(not isinstance(x, Exception) for x in scipy)
    print(f"1. compliant limits of {n} Painlevé rods ({impacts} impacts without collision, {n - impacts} no impact)")
    print(f"   SciPy one by one:  {one_by_one:8.2f} s = {1e3 * one_by_one / n:7.2f} ms a rod")
    print(f"   batched, first:    {first:8.2f} s (trace and compile: a Python session without the compilation cache)")
    print(f"   batched, warm:     {warm:8.2f} s = {1e3 * warm / n:7.2f} ms a rod: {one_by_one / warm:.0f}x")
    print(f"   largest |P_batched − P_scipy|: {max(differences, default=0.0):.1e}")


def whole_sweep() -> None:
    overrides = {
        "sweep.mu": MU,
        "sweep.phi0": PHI0,
        "sweep.alpha": ALPHA,
    }
    cases = len(MU) * len(PHI0) * len(ALPHA)
    study = ROOT / "studies" / "table1.toml"
    print(f"2. regcontact run studies/table1.toml over {len(MU) * len(PHI0)} rods × {len(ALPHA)} α = {cases:,} cases")
    for attempt in ("first run", "re-run"):
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "sweep"
            command = [sys.executable, "-m", "regcontact", "run", str(study), "--out", str(out)]
            for key, values in overrides.items():
                command += ["--set", f"{key}=[{', '.join(repr(float(v)) for v in values)}]"]
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
            wall = time.perf_counter() - start
            document = json.loads((out / "results.json").read_text())
        t = document["timings_s"]
        compile_s = t["compile_s"] + t["host_compile_s"]
        outside = t["total_s"] - compile_s - t["solve_s"]
        print(
            f"   {attempt}: command {wall:.1f} s; run {t['total_s']:.1f} s: compile {compile_s:.2f} s (the sweep "
            f"{t['compile_s']:.2f} s, the references and rows {t['host_compile_s']:.2f} s), "
            f"solve {t['solve_s']:.1f} s; rigid references {t['rigid_references_s']:.2f} s, compliant limits "
            f"{t['limit_references_s']:.2f} s (their compile included)"
        )
        print(
            f"      outside compile and solve: {outside:.2f} s = {1e3 * outside / cases:.2f} ms a case "
            "(target ≤ 0.5 ms)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20 rods, no whole sweep")
    args = parser.parse_args()
    print("Compliant-limit references: batched against SciPy one by one; the 3,200-case sweep's study layer")
    print(_machine())
    limits_side_by_side(args.quick)
    if not args.quick:
        whole_sweep()


if __name__ == "__main__":
    main()
