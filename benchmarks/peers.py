"""regcontact against the strongest peers a user would pick, at matched accuracy, from one run: SciPy's Radau and
SUNDIALS CVODE (BDF, dense, analytic Jacobian) with plain and with numba-compiled callbacks; with XLA's two CPU
schedules side by side.

    pip install -e ".[bench]"; PYTHONPATH=. python benchmarks/peers.py [--repeats 5]

Every section runs twice, each time in a fresh process (XLA reads its schedule when JAX starts): with **no flag**
(what regcontact chooses by itself: ``import regcontact`` asks for XLA's sequential schedule,
``--xla_cpu_enable_concurrency_optimized_scheduler=false``, and ``use_host_cores``, which the sweep section calls
as ``regcontact run`` does, takes it back; any such flag in the caller's ``XLA_FLAGS`` is removed for this arm)
and with **JAX's default** (concurrency-optimised) schedule, named explicitly (``=true``).

1. **The cost of a step.** The Table 1 rod (α = 1e3 … 1e12, rtol 1e-10): regcontact's default ``RadauIIA5``
   (semismooth Newton on the velocities, a 3n × 3n system) and the same solver with the full 3N × 3N stage
   system (what it did before), wall time per solve and per step, best of ``--repeats``.
2. **Single solves at matched accuracy.** The error of the force integrals against a tight reference
   (regcontact at rtol 1e-13, literal tolerances); regcontact's ``RadauIIA5`` and ``RadauIIA9`` (order 9) at
   rtol 1e-10; each peer at the cheapest rtol of a grid whose error is no larger. Peers and regcontact run in
   turns (interleaved), best of ``--repeats`` each. Where no peer rtol reaches our error, the ratio against the
   peer's tightest rtol (1e-13), still less accurate, is a lower bound (``>``).
3. **A 256-case sweep.** The Table 1 family of ``benchmarks/throughput.py`` (μ, φ₀, α drawn with a fixed seed):
   regcontact's ``sweep`` (``RadauIIA5`` and ``RadauIIA9``) on every host core (cases ordered by α, as a study
   orders them) against CVODE (numba callbacks) in a pool of one process per core at rtol 1e-10 … 1e-13, each
   with the number of cases in which CVODE is at least as accurate as regcontact (errors against regcontact at
   rtol 1e-13, literal tolerances).

At the end, the ratios against CVODE with numba callbacks under both schedules, side by side.
"""

from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from scipy.integrate import solve_ivp

import regcontact
from benchmarks.cvode_rod import cvode_solve
from benchmarks.scipy_rod import ScipyRod
from benchmarks.work_precision import atol_of, error_of, machine, print_table, table1_solve
from regcontact.compliant import IMPLICIT_SOLVERS, SolveSettings, lane_utilisation, sweep, sweep_chunk_size
from regcontact.compliant.dynamics import initial_state
from regcontact.compliant.solvers import RadauIIA5
from regcontact.compliant.termination import contact_time
from regcontact.contact import ContactModel
from regcontact.systems.rod import PainleveRod

ALPHAS = [1e3, 1e6, 1e9, 1e12]
OUR_RTOL = 1e-10
OURS = ("RadauIIA5", "RadauIIA9")  # section 2's and 3's solvers, each at OUR_RTOL
PEER_RTOLS = [1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13]
REFERENCE_RTOL = 1e-13
SWEEP_CASES = 256
SWEEP_PEER_RTOLS = [1e-10, 1e-11, 1e-12, 1e-13]  # CVODE's, with how many cases each makes as accurate as ours

# the solver as it was before the velocity-only Newton, for section 1's comparison only
IMPLICIT_SOLVERS["RadauIIA5_full_newton"] = RadauIIA5


def our_solve(solver: str):
    """A timed single solve of the Table 1 rod with ``solver`` (``work_precision.table1_solve``, compiled once)."""
    run = table1_solve(solver)

    def call(alpha: float, rtol: float):
        start, cpu = time.perf_counter(), time.process_time()
        result = jax.block_until_ready(run(alpha, rtol))
        return dict(
            F=np.asarray(result.force_integrals),
            time=time.perf_counter() - start,
            cpu=time.process_time() - cpu,
            steps=int(result.num_steps),
            ok=bool(result.ok),
        )

    return call


def peer_problem(alpha: float, **rod_parameters: float):
    rod = PainleveRod(**rod_parameters)
    model = ScipyRod.from_laws(rod, *ContactModel().at_stiffness(alpha))
    return model, np.asarray(initial_state(rod).flat), float(contact_time(rod, alpha))


def scipy_radau(alpha: float, rtol: float) -> dict:
    model, y0, t_end = peer_problem(alpha)
    start, cpu = time.perf_counter(), time.process_time()
    sol = solve_ivp(model.fun, (0.0, t_end), y0, method="Radau", rtol=rtol, atol=atol_of(rtol), jac=model.jac)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return dict(F=sol.y[6:8, -1], time=elapsed, cpu=cpu, steps=len(sol.t) - 1, ok=sol.status == 0)


def cvode(alpha: float, rtol: float, callbacks: str) -> dict:
    model, y0, t_end = peer_problem(alpha)
    run = cvode_solve(model, y0, t_end, rtol, atol_of(rtol), callbacks)
    return dict(F=run["y"][6:8], time=run["time"], cpu=run["cpu"], steps=None, ok=run["ok"])


PEERS: dict[str, Callable[[float, float], dict]] = {
    "SciPy Radau": scipy_radau,
    "CVODE numpy": functools.partial(cvode, callbacks="numpy"),
    "CVODE numba": functools.partial(cvode, callbacks="numba"),
}


FLAG = "--xla_cpu_enable_concurrency_optimized_scheduler"
#: The two arms: no flag (regcontact's own choice on import: the sequential schedule) and JAX's default, named.
SCHEDULES = {"no flag": "", "JAX's default": f"{FLAG}=true"}


def _schedule() -> str:
    flags = os.environ.get("XLA_FLAGS", "")
    if f"{FLAG}=true" in flags:
        return "XLA's default concurrent schedule (named in XLA_FLAGS)"
    if regcontact._SCHEDULE_SET_ON_IMPORT:
        return "no flag set: regcontact's sequential schedule"
    if not flags:
        return "no flag set: XLA's default schedule, as use_host_cores leaves it"
    return f"XLA_FLAGS={flags}"


def best(call, repeats: int) -> dict:
    runs = [call() for _ in range(repeats)]
    fastest = min(runs, key=lambda r: r["time"])
    return {**fastest, "median": statistics.median(r["time"] for r in runs)}


def step_cost(repeats: int) -> None:
    rows = []
    solvers = {name: our_solve(name) for name in ("RadauIIA5", "RadauIIA5_full_newton", "RadauIIA9")}
    for alpha in ALPHAS:
        row = [f"{alpha:g}"]
        for call in solvers.values():
            call(alpha, OUR_RTOL)
            run = best(functools.partial(call, alpha, OUR_RTOL), repeats)
            row += [str(run["steps"]), f"{1e3 * run['time']:.2f}", f"{1e6 * run['time'] / run['steps']:.1f}"]
        rows.append(row)
    print_table(
        f"1. Cost of a step, Table 1 rod at rtol 1e-10, one device, {_schedule()} (best of the repeats; per step = "
        "per solve / steps, accepted and rejected)",
        ["alpha", "steps", "ms/solve", "us/step", "full Newton: steps", "ms/solve", "us/step"]
        + ["RadauIIA9: steps", "ms/solve", "us/step"],
        rows,
    )


def matched(repeats: int) -> dict:
    """Section 2; returns, per solver of ours and peer, the CPU-time ratios by α (``">x"``: a lower bound), and
    the rtol at which CVODE (numba) matched ``RadauIIA5`` at α = 1e6."""
    reference_run = our_solve("RadauIIA5_literal_tolerances")
    ours = {name: our_solve(name) for name in OURS}
    for name in PEERS:  # warm up: imports, numba compilation
        PEERS[name](1e3, 1e-8)
    summary: dict = {"ratios": {f"{o} / {p}": {} for o in OURS for p in PEERS}, "matched_rtol": 1e-12}
    for our_name, our_call in ours.items():
        rows: list[list[str]] = []
        ratios: dict[str, list[float]] = {name: [] for name in PEERS}
        for alpha in ALPHAS:
            reference = reference_run(alpha, REFERENCE_RTOL)["F"]
            our_call(alpha, OUR_RTOL)
            our_run = best(functools.partial(our_call, alpha, OUR_RTOL), repeats)
            our_error = error_of(our_run["F"], reference)
            our_cpu = min(our_call(alpha, OUR_RTOL)["cpu"] for _ in range(repeats))
            row = [f"{alpha:g}", f"{our_error:.1e}", f"{1e3 * our_cpu:.2f}"]
            for name, peer in PEERS.items():
                chosen, bound = None, False
                for rtol in PEER_RTOLS:  # loosest first: the cheapest rtol that reaches our error
                    trial = peer(alpha, rtol)
                    if trial["ok"] and error_of(trial["F"], reference) <= our_error:
                        chosen = rtol
                        break
                if chosen is None:  # not reached: the tightest rtol, still less accurate, gives a lower bound
                    chosen, bound = PEER_RTOLS[-1], True
                if name == "CVODE numba" and alpha == 1e6 and our_name == "RadauIIA5" and not bound:
                    summary["matched_rtol"] = chosen
                # interleaved: ours and the peer in turns
                peer_runs, our_runs = [], []
                for _ in range(repeats):
                    peer_runs.append(peer(alpha, chosen))
                    our_runs.append(our_call(alpha, OUR_RTOL))
                if not any(r["ok"] for r in peer_runs):
                    row += [f"{chosen:.0e}", "failed", "", ""]
                    continue
                wall = min(r["time"] for r in peer_runs) / min(r["time"] for r in our_runs)
                cpu = min(r["cpu"] for r in peer_runs) / min(r["cpu"] for r in our_runs)
                mark = ">" if bound else ""
                if not bound:
                    ratios[name].append(cpu)
                summary["ratios"][f"{our_name} / {name}"][f"{alpha:g}"] = f"{mark}{cpu:.2f}x"
                peer_error = error_of(peer_runs[-1]["F"], reference)
                rtol_cell = f"{chosen:.0e}" + (f" (error {peer_error:.0e})" if bound else "")
                row += [rtol_cell, f"{1e3 * min(r['cpu'] for r in peer_runs):.2f}", f"{mark}{cpu:.2f}x"]
                row += [f"{mark}{wall:.2f}x"]
            rows.append(row)
        header = ["alpha", "our error", "our CPU ms"]
        for name in PEERS:
            header += [f"{name} rtol", "CPU ms", "faster (CPU)", "(wall)"]
        print_table(
            f"2. Single solves at matched accuracy, ours {our_name} ({_schedule()}; ours at rtol {OUR_RTOL:g}; each "
            "peer at the loosest rtol reaching our error, '>' where none does; CPU and wall time, best of the "
            "repeats, interleaved)",
            header,
            rows,
        )
        for name, values in ratios.items():
            if values:
                mean = float(np.exp(np.mean(np.log(values))))
                spread = f"{min(values):.2f}-{max(values):.2f}x"
                print(
                    f"   {name}: {our_name} faster by {mean:.2f}x in CPU time (geometric mean over the α it reaches; "
                    f"{spread})"
                )
                summary["ratios"][f"{our_name} / {name}"]["mean"] = f"{mean:.2f}x"
    return summary


def _cvode_case(problem: tuple[list[float], np.ndarray, float], rtol: float) -> tuple[float, np.ndarray]:
    """The CPU seconds and force integrals of one CVODE solve from plain numbers (the parent process builds them,
    so no JAX runs in the pool)."""
    params, y0, t_end = problem
    run = cvode_solve(ScipyRod(*params), y0, t_end, rtol, atol_of(rtol), "numba")
    return run["cpu"], run["y"][6:8]


def _cvode_problems(parameters: list[dict]) -> list[tuple[list[float], np.ndarray, float]]:
    problems = []
    for p in parameters:
        model, y0, t_end = peer_problem(p["alpha"], mu=p["mu"], phi0=p["phi0"])
        problems.append((model.params.tolist(), y0, t_end))
    return problems


def sweep_section(rtol: float, repeats: int) -> dict:
    from benchmarks.throughput import _batch, family

    parameters = sorted(family(SWEEP_CASES), key=lambda p: p["alpha"])  # as a study orders them (cost_order)
    batch = _batch(parameters)
    tight = eqx.tree_at(
        lambda b: (b.controls.rtol, b.controls.atol),
        batch,
        (jnp.full(SWEEP_CASES, REFERENCE_RTOL), jnp.full(SWEEP_CASES, atol_of(REFERENCE_RTOL))),
    )
    reference = np.asarray(
        sweep(tight, SolveSettings(solver="RadauIIA5_literal_tolerances", events=("contact_open",)))[0].force_integrals
    )
    chunk = sweep_chunk_size(batch, jax.devices())
    ours: dict[str, dict] = {}
    for name in OURS:
        settings = SolveSettings(solver=name, events=("contact_open",))
        runs, timings = sweep(batch, settings)  # chunks as `regcontact run` cuts them
        wall, cpu = [], []
        for _ in range(repeats):
            start = time.process_time()
            wall.append(sweep(batch, settings)[1].run_s)
            cpu.append(time.process_time() - start)
        ours[name] = dict(
            wall=min(wall),
            cpu=min(cpu),
            compile_s=timings.compile_s,
            failed=int((~runs.ok).sum()),
            errors=np.abs(np.asarray(runs.force_integrals) - reference).max(axis=1),
            utilisation=lane_utilisation(runs.num_steps, chunk // len(jax.devices())),
        )
    processes = os.cpu_count() or 1
    problems = _cvode_problems(parameters)
    peer_wall: dict[float, list[float]] = {peer_rtol: [] for peer_rtol in SWEEP_PEER_RTOLS}
    peer_cpu: dict[float, list[float]] = {peer_rtol: [] for peer_rtol in SWEEP_PEER_RTOLS}
    peer_F: dict[float, np.ndarray] = {}
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        pool.starmap(_cvode_case, [(problem, 1e-8) for problem in problems[: 4 * processes]])  # import, compile
        for _ in range(repeats):
            for peer_rtol in peer_wall:
                start = time.perf_counter()
                solved = pool.starmap(_cvode_case, [(problem, peer_rtol) for problem in problems], chunksize=8)
                peer_wall[peer_rtol].append(time.perf_counter() - start)
                peer_cpu[peer_rtol].append(sum(cpu for cpu, _ in solved))
                peer_F[peer_rtol] = np.stack([F for _, F in solved])
    summary: dict = {}
    print(
        f"\n3. {SWEEP_CASES}-case sweep (Table 1 family, rtol {OUR_RTOL:g}; {len(jax.devices())} host devices; "
        f"chunks of {chunk}; {_schedule()}; best of {repeats})"
    )
    for name, our in ours.items():
        print(
            f"   regcontact {name}: {1e3 * our['wall']:.0f} ms wall, {1e3 * our['cpu']:.0f} ms CPU (compile "
            f"{our['compile_s']:.1f} s; {our['failed']} failed; lane utilisation {our['utilisation']:.2f}; error "
            f"median {np.median(our['errors']):.1e})"
        )
    for peer_rtol in peer_wall:
        what = " (matched at α = 1e6 in section 2)" if peer_rtol == rtol else ""
        wall, cpu = min(peer_wall[peer_rtol]), min(peer_cpu[peer_rtol])
        peer_errors = np.abs(peer_F[peer_rtol] - reference).max(axis=1)
        print(
            f"   CVODE numba in {processes} processes at rtol {peer_rtol:g}{what}: {1e3 * wall:.0f} ms wall, "
            f"{1e3 * cpu:.0f} ms CPU (solves only; error median {np.median(peer_errors):.1e})"
        )
        for name, our in ours.items():
            as_accurate = int(np.sum(peer_errors <= our["errors"]))
            print(
                f"      {name} faster by {cpu / our['cpu']:.2f}x in CPU time, {wall / our['wall']:.2f}x in wall time; "
                f"CVODE at least as accurate in {as_accurate} of {SWEEP_CASES} cases"
            )
            summary[f"{name} / CVODE numba sweep at rtol {peer_rtol:g} (wall; as accurate in)"] = (
                f"{wall / our['wall']:.2f}x ({as_accurate}/{SWEEP_CASES})"
            )
    return summary


def _part(part: str, args: argparse.Namespace, *extra: str, flags: str = "") -> dict:
    """Run one part in a fresh process (JAX's device split and flags are fixed when it starts); print its output,
    return its summary line."""
    env = dict(os.environ)
    inherited = " ".join(flag for flag in env.get("XLA_FLAGS", "").split() if not flag.startswith(FLAG))
    env["XLA_FLAGS"] = f"{inherited} {flags}".strip()
    command = [sys.executable, __file__, "--part", part, "--repeats", str(args.repeats), *extra]
    command += ["--quick"] if args.quick else []
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    shown, _, summary = out.partition("SUMMARY ")
    print(shown, end="", flush=True)
    return json.loads(summary) if summary else {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--part", choices=["steps", "single", "sweep"], help="one section alone, in this process")
    parser.add_argument("--rtol", type=float, default=1e-12, help="--part sweep: CVODE's rtol matched at α = 1e6")
    parser.add_argument("--quick", action="store_true", help="two α, a 64-case sweep: to check the script")
    args = parser.parse_args()
    if args.quick:
        global ALPHAS, SWEEP_CASES
        ALPHAS, SWEEP_CASES = [1e3, 1e9], 64
    if args.part == "steps":
        step_cost(args.repeats)
    elif args.part == "single":
        print(f"SUMMARY {json.dumps(matched(args.repeats))}")
    elif args.part == "sweep":
        regcontact.use_host_cores()
        print(f"SUMMARY {json.dumps(sweep_section(args.rtol, args.repeats))}")
    else:
        print(f"{machine()}; load average {os.getloadavg()[0]:.2f} at the start")
        summaries: dict[str, dict] = {}
        for flags in SCHEDULES.values():
            _part("steps", args, flags=flags)
        for arm, flags in SCHEDULES.items():
            summaries[arm] = _part("single", args, flags=flags)
        rtol = str(summaries["no flag"].get("matched_rtol", 1e-12))
        for arm, flags in SCHEDULES.items():
            summaries[arm] |= _part("sweep", args, "--rtol", rtol, flags=flags)
        print("\nSide by side: ours against CVODE with numba callbacks (CPU time per solve; wall time per sweep)")
        rows = []
        for key in summaries["no flag"]["ratios"]:
            if not key.endswith("CVODE numba"):
                continue
            for column in [*(f"{alpha:g}" for alpha in ALPHAS), "mean"]:
                cells = [summaries[arm]["ratios"][key].get(column, "n/a") for arm in SCHEDULES]
                rows.append([key, column, *cells])
        for key in summaries["no flag"]:
            if key.endswith(")"):
                rows.append([key, "", *(summaries[arm].get(key, "n/a") for arm in SCHEDULES)])
        print_table(
            "",
            ["ours / peer", "alpha", *(f"{arm} (XLA_FLAGS: {flags or 'none'})" for arm, flags in SCHEDULES.items())],
            rows,
        )
        print(f"\nload average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
