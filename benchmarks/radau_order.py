"""Radau IIA of order 9 (``RadauIIA9``, five stages) against order 5 (``RadauIIA5``): steps, thunks and time.

    PYTHONPATH=. python benchmarks/radau_order.py [--repeats 5] [--quick]

1. **The Table 1 rod**, α = 1e3 … 1e12, rtol 1e-8 … 1e-13 (``atol = rtol/100``): accepted/rejected steps, the
   error of the force integrals against a reference (``RadauIIA5_literal_tolerances`` at rtol 1e-13, with its
   own uncertainty: its distance to the same at 1e-12), and single-solve time, the two solvers in turns
   (interleaved), best of ``--repeats``; then, per α, order 9 at the loosest rtol that reaches order 5's error at
   rtol 1e-10, and the time ratio.
2. **What a step runs**: XLA thunks a step of each solver (``benchmarks/step_thunks.py``, α = 1e6).
3. **Landings**: the rod dropped onto the spring-damper ground (α = 1e4, 1e8; touch-downs, where the force
   jumps, and lift-offs, restarted at), rtol 1e-8 … 1e-12: steps, restarts, error against a reference
   (literal tolerances, rtol 1e-13), time.
4. **A sweep**: 256 cases of the Table 1 family (``benchmarks/throughput.py``), ordered by α and chunked as a
   study does, on every host device, at rtol 1e-10 and 1e-12: wall time (best of ``--repeats``), lane
   utilisation, errors against a reference sweep (literal tolerances, rtol 1e-13).

Every section runs on XLA's sequential CPU schedule, named here in ``XLA_FLAGS`` (so ``use_host_cores`` keeps it
for section 4): the two orders are compared within one schedule (``benchmarks/schedule.py`` measures the
schedules). The flags are printed.
"""

from __future__ import annotations

import argparse
import os
import time

if "xla_cpu_enable_concurrency_optimized_scheduler" not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = (
        os.environ.get("XLA_FLAGS", "") + " --xla_cpu_enable_concurrency_optimized_scheduler=false"
    ).strip()

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

import regcontact
from benchmarks.step_thunks import count_thunks
from benchmarks.work_precision import atol_of, error_of, machine, print_table
from regcontact.compliant import (
    SOLVER_STATUSES,
    Controls,
    SolveSettings,
    lane_utilisation,
    solve,
    sweep,
    sweep_chunk_size,
)
from regcontact.compliant.dynamics import CompliantState, initial_state
from regcontact.compliant.termination import contact_time
from regcontact.contact import ContactModel, SpringDamper, ViscousCoulomb
from regcontact.systems.rod import PainleveRod

SOLVERS = ("RadauIIA5", "RadauIIA9")
ALPHAS = [10.0**e for e in range(3, 13)]
RTOLS = [10.0**-e for e in range(8, 14)]
REFERENCE = "RadauIIA5_literal_tolerances"
REFERENCE_RTOL = 1e-13
MATCHED_AT = 1e-10  # order 5's rtol whose error order 9 is matched to


def _timed(call):
    start = time.perf_counter()
    result = jax.block_until_ready(call())
    return time.perf_counter() - start, result


def table1(alphas: list[float], rtols: list[float], repeats: int) -> None:
    rod, contact = PainleveRod(), ContactModel()

    def solver(name: str):
        settings = SolveSettings(solver=name, events=("contact_open",), max_steps=20_000)

        @eqx.filter_jit
        def run(alpha, rtol):
            controls = Controls(rtol=rtol, atol=rtol * 1e-2, t_max=contact_time(rod, alpha))
            return solve(rod, contact, alpha, controls, settings)

        return lambda alpha, rtol: run(jnp.asarray(alpha), jnp.asarray(rtol))

    reference_run = solver(REFERENCE)
    reference = {a: np.asarray(reference_run(a, REFERENCE_RTOL).force_integrals) for a in alphas}
    uncertainty = {a: error_of(reference_run(a, 10 * REFERENCE_RTOL).force_integrals, reference[a]) for a in alphas}
    runs = {name: solver(name) for name in SOLVERS}
    grid: dict[tuple[str, float, float], dict] = {}
    for a in alphas:
        for r in rtols:
            for run in runs.values():
                run(a, r)  # compiled (once per solver), warm
            times: dict[str, list[float]] = {name: [] for name in SOLVERS}
            results = {}
            for _ in range(repeats):
                for name, run in runs.items():
                    elapsed, results[name] = _timed(lambda run=run, a=a, r=r: run(a, r))
                    times[name].append(elapsed)
            for name, result in results.items():
                grid[name, a, r] = dict(
                    accepted=int(result.num_accepted_steps),
                    rejected=int(result.num_rejected_steps),
                    ok=bool(result.ok) and SOLVER_STATUSES[int(result.status)] == "successful",
                    error=error_of(result.force_integrals, reference[a]),
                    time=min(times[name]),
                )
    print_table(
        f"1. Table 1 rod: reference {REFERENCE} at rtol {REFERENCE_RTOL:g}, its uncertainty (vs rtol "
        f"{10 * REFERENCE_RTOL:g}) per α",
        ["alpha", *(f"{a:g}" for a in alphas)],
        [["uncertainty", *(f"{uncertainty[a]:.0e}" for a in alphas)]],
    )
    for what, cell in [
        ("accepted/rejected steps ('!': not ok)", lambda g: f"{g['accepted']}/{g['rejected']}{'' if g['ok'] else '!'}"),
        ("error of the force integrals", lambda g: f"{g['error']:.0e}"),
        (f"time a solve [ms], best of {repeats}, interleaved", lambda g: f"{1e3 * g['time']:.2f}"),
    ]:
        rows = []
        for a in alphas:
            rows.append(
                [f"{a:g}", *(f"{cell(grid['RadauIIA5', a, r])} | {cell(grid['RadauIIA9', a, r])}" for r in rtols)]
            )
        print_table(f"   {what}: RadauIIA5 | RadauIIA9", ["alpha \\ rtol", *(f"{r:.0e}" for r in rtols)], rows)
    rows = [
        [f"{a:g}", *(f"{grid['RadauIIA5', a, r]['time'] / grid['RadauIIA9', a, r]['time']:.2f}x" for r in rtols)]
        for a in alphas
    ]
    print_table(
        "   RadauIIA5 time / RadauIIA9 time at the same rtol", ["alpha \\ rtol", *(f"{r:.0e}" for r in rtols)], rows
    )
    if MATCHED_AT in rtols:
        rows, ratios = [], []
        for a in alphas:
            five = grid["RadauIIA5", a, MATCHED_AT]
            target = max(five["error"], 10 * uncertainty[a])
            matches = [r for r in sorted(rtols, reverse=True) if grid["RadauIIA9", a, r]["ok"]]
            chosen = next((r for r in matches if grid["RadauIIA9", a, r]["error"] <= target), None)
            if chosen is None:
                rows.append([f"{a:g}", f"{five['error']:.0e}", "not reached", "", "", ""])
                continue
            nine = grid["RadauIIA9", a, chosen]
            ratios.append(five["time"] / nine["time"])
            rows.append(
                [
                    f"{a:g}",
                    f"{five['error']:.0e}",
                    f"{chosen:.0e}",
                    f"{nine['error']:.0e}",
                    f"{five['accepted'] + five['rejected']} / {nine['accepted'] + nine['rejected']}",
                    f"{ratios[-1]:.2f}x",
                ]
            )
        print_table(
            f"   matched accuracy: RadauIIA9 at the loosest rtol reaching RadauIIA5's error at rtol {MATCHED_AT:g} (or "
            "10x the reference's uncertainty)",
            ["alpha", "order 5 error", "order 9 rtol", "order 9 error", "steps 5 / 9", "time 5 / time 9"],
            rows,
        )
        if ratios:
            mean = float(np.exp(np.mean(np.log(ratios))))
            print(f"   geometric mean {mean:.2f}x ({min(ratios):.2f}-{max(ratios):.2f}x)")


def thunks() -> None:
    rows = []
    for name in SOLVERS:
        steps, kinds = count_thunks(name, 1e6, 3)
        total = 3 * steps
        top = ", ".join(f"{kind} {count / total:.1f}" for kind, count in kinds.most_common(4))
        rows.append([name, str(steps), f"{sum(kinds.values()) / total:.1f}", top])
    print_table(
        "2. XLA thunks a step (Table 1 rod, α = 1e6, rtol 1e-10; benchmarks/step_thunks.py)",
        ["solver", "steps", "thunks/step", "most frequent"],
        rows,
    )


def landings(rtols: list[float], repeats: int) -> None:
    rod = PainleveRod(mu=0.3, gravity=10.0, phi0=1.2, vx0=0.3)
    y0 = CompliantState.from_flat(initial_state(rod).flat.at[1].add(0.02).at[4].set(-1.0), 3)
    contact = ContactModel(
        normal=SpringDamper(stiffness=1.0, damping=0.1),
        friction=ViscousCoulomb(damping=1.0),
        normal_exponents=SpringDamper(stiffness=1.0, damping=0.5),
    )

    def solver(name: str):
        settings = SolveSettings(solver=name, events=(), restart_at=("contact",), max_steps=50_000)

        @eqx.filter_jit
        def run(alpha, rtol):
            return solve(rod, contact, alpha, Controls(rtol=rtol, atol=rtol * 1e-2, t_max=0.5), settings, y0)

        return lambda alpha, rtol: run(jnp.asarray(alpha), jnp.asarray(rtol))

    reference_run = solver(REFERENCE)
    runs = {name: solver(name) for name in SOLVERS}
    rows = []
    for a in [1e4, 1e8]:
        reference = np.asarray(reference_run(a, REFERENCE_RTOL).force_integrals)
        for r in rtols:
            cells: dict[str, list[str]] = {}
            times: dict[str, list[float]] = {name: [] for name in SOLVERS}
            for run in runs.values():
                run(a, r)
            for _ in range(repeats):
                for name, run in runs.items():
                    elapsed, result = _timed(lambda run=run, a=a, r=r: run(a, r))
                    times[name].append(elapsed)
                    cells[name] = [
                        f"{int(result.num_accepted_steps)}/{int(result.num_rejected_steps)}"
                        + ("" if bool(result.ok) else "!"),
                        str(int(result.num_restarts)),
                        f"{error_of(result.force_integrals, reference):.0e}",
                    ]
            rows.append(
                [
                    f"{a:g}",
                    f"{r:.0e}",
                    *(f"{' '.join(cells[name])} {1e3 * min(times[name]):.1f}" for name in SOLVERS),
                    f"{min(times['RadauIIA5']) / min(times['RadauIIA9']):.2f}x",
                ]
            )
    print_table(
        "3. landings: the rod (μ = 0.3, φ0 = 1.2) dropped from 2 cm at 1 m/s onto the spring-damper, t = 0…0.5, "
        "restarts at contact; each cell: acc/rej, restarts, error of the force integrals vs rtol 1e-13 (literal), ms "
        f"(best of {repeats}, interleaved)",
        ["alpha", "rtol", "RadauIIA5", "RadauIIA9", "time 5 / time 9"],
        rows,
    )


def sweeps(count: int, rtols: list[float], repeats: int) -> None:
    from benchmarks.throughput import _batch, family

    batch = _batch(sorted(family(count), key=lambda p: p["alpha"]))

    def at(rtol: float):
        return eqx.tree_at(
            lambda b: (b.controls.rtol, b.controls.atol),
            batch,
            (jnp.full(count, rtol), jnp.full(count, atol_of(rtol))),
        )

    reference_runs, _ = sweep(at(REFERENCE_RTOL), SolveSettings(solver=REFERENCE, events=("contact_open",)))
    reference = np.asarray(reference_runs.force_integrals)
    devices = jax.devices()
    chunk = sweep_chunk_size(batch, devices)
    rows = []
    for rtol in rtols:
        cases = at(rtol)
        for name in SOLVERS:
            settings = SolveSettings(solver=name, events=("contact_open",))
            runs, timings = sweep(cases, settings)
            wall = min(sweep(cases, settings)[1].run_s for _ in range(repeats))
            errors = np.abs(np.asarray(runs.force_integrals) - reference).max(axis=1)
            steps = np.asarray(runs.num_accepted_steps) + np.asarray(runs.num_rejected_steps)
            rows.append(
                [
                    f"{rtol:.0e}",
                    name,
                    f"{1e3 * wall:.0f}",
                    f"{timings.compile_s:.1f}",
                    f"{np.median(steps):.0f}",
                    f"{lane_utilisation(runs.num_steps, chunk // len(devices)):.2f}",
                    f"{np.median(errors):.0e}",
                    f"{errors.max():.0e}",
                    str(int((~np.asarray(runs.ok)).sum())),
                ]
            )
    print_table(
        f"4. a sweep: {count} cases of the Table 1 family, ordered by α, chunks of {chunk} on {len(devices)} host "
        f"devices; wall time best of {repeats}; errors vs {REFERENCE} at rtol {REFERENCE_RTOL:g}",
        ["rtol", "solver", "ms", "compile s", "median steps", "lane use", "median error", "max error", "failed"],
        rows,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="a reduced grid, to check the script")
    args = parser.parse_args()
    regcontact.use_host_cores()
    alphas = [1e3, 1e8, 1e12] if args.quick else ALPHAS
    rtols = [1e-8, 1e-10, 1e-12] if args.quick else RTOLS
    print(f"{machine()}; load average {os.getloadavg()[0]:.2f} at the start; XLA_FLAGS={os.environ.get('XLA_FLAGS')}")
    table1(alphas, rtols, args.repeats)
    thunks()
    landings([1e-8, 1e-10, 1e-12] if args.quick else [1e-8, 1e-9, 1e-10, 1e-11, 1e-12], args.repeats)
    sweeps(64 if args.quick else 256, [1e-10, 1e-12], args.repeats)
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
