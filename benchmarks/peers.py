"""regcontact against the strongest peers a user would pick, at matched accuracy, from one run: SciPy's Radau and
SUNDIALS CVODE (BDF, dense, analytic Jacobian) with plain and with numba-compiled callbacks.

    pip install -e ".[bench]"; PYTHONPATH=. python benchmarks/peers.py [--repeats 5]

1. **The cost of a step.** The Table 1 rod (α = 1e3 … 1e12, rtol 1e-10): regcontact's default ``RadauIIA5``
   (semismooth Newton on the velocities, a 3n × 3n system) and the same solver with the full 3N × 3N stage
   system (what it did before), wall time per solve and per step, best of ``--repeats``.
2. **Single solves at matched accuracy.** The error of the force integrals against a tight reference
   (regcontact at rtol 1e-13, literal tolerances); regcontact at rtol 1e-10; each peer at the cheapest rtol of a
   grid whose error is no larger. Peers and regcontact run in turns (interleaved), best of ``--repeats`` each.
3. **A 256-case sweep.** The Table 1 family of ``benchmarks/throughput.py`` (μ, φ₀, α drawn with a fixed seed):
   regcontact's ``sweep`` on every host core (cases ordered by α, as a study orders them) against CVODE (numba
   callbacks) in a pool of one process per core at rtol 1e-10 … 1e-13, each with the number of cases in which
   CVODE is at least as accurate as regcontact (errors against regcontact at rtol 1e-13, literal tolerances).
"""

from __future__ import annotations

import argparse
import functools
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
from regcontact.compliant import simulate
from regcontact.compliant.dynamics import initial_state
from regcontact.compliant.simulate import SolveSettings
from regcontact.compliant.solvers import RadauIIA5
from regcontact.compliant.termination import contact_time
from regcontact.contact.contact_model import ContactModel
from regcontact.systems.rod import PainleveRod

ALPHAS = [1e3, 1e6, 1e9, 1e12]
OUR_RTOL = 1e-10
PEER_RTOLS = [1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13]
REFERENCE_RTOL = 1e-13
SWEEP_CASES = 256
SWEEP_PEER_RTOLS = [1e-10, 1e-11, 1e-12, 1e-13]  # CVODE's, with how many cases each makes as accurate as ours

# the solver as it was before the velocity-only Newton, for section 1's comparison only
simulate.IMPLICIT_SOLVERS["RadauIIA5_full_newton"] = RadauIIA5


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


def _schedule() -> str:
    if SEQUENTIAL_SCHEDULE in os.environ.get("XLA_FLAGS", ""):
        return f"one device, XLA_FLAGS={SEQUENTIAL_SCHEDULE}"
    return "one device, XLA's default schedule"


def best(call, repeats: int) -> dict:
    runs = [call() for _ in range(repeats)]
    fastest = min(runs, key=lambda r: r["time"])
    return {**fastest, "median": statistics.median(r["time"] for r in runs)}


def step_cost(repeats: int) -> None:
    rows = []
    solvers = {name: our_solve(name) for name in ("RadauIIA5", "RadauIIA5_full_newton")}
    for alpha in ALPHAS:
        row = [f"{alpha:g}"]
        for call in solvers.values():
            call(alpha, OUR_RTOL)
            run = best(functools.partial(call, alpha, OUR_RTOL), repeats)
            row += [str(run["steps"]), f"{1e3 * run['time']:.2f}", f"{1e6 * run['time'] / run['steps']:.1f}"]
        rows.append(row)
    print_table(
        f"1. Cost of a step, Table 1 rod at rtol 1e-10, {_schedule()} (best of the repeats; per step = per solve "
        "/ steps)",
        ["alpha", "steps", "ms/solve", "us/step", "full Newton: steps", "ms/solve", "us/step"],
        rows,
    )


def matched(repeats: int) -> dict[float, float]:
    reference_run, ours = our_solve("RadauIIA5_literal_tolerances"), our_solve("RadauIIA5")
    for name in PEERS:  # warm up: imports, numba compilation
        PEERS[name](1e3, 1e-8)
    matched_rtol: dict[float, float] = {}
    rows: list[list[str]] = []
    ratios: dict[str, list[float]] = {name: [] for name in PEERS}
    for alpha in ALPHAS:
        reference = reference_run(alpha, REFERENCE_RTOL)["F"]
        ours(alpha, OUR_RTOL)
        our_run = best(functools.partial(ours, alpha, OUR_RTOL), repeats)
        our_error = error_of(our_run["F"], reference)
        row = [
            f"{alpha:g}",
            f"{our_error:.1e}",
            f"{1e3 * min(ours(alpha, OUR_RTOL)['cpu'] for _ in range(repeats)):.2f}",
        ]
        for name, peer in PEERS.items():
            chosen = None
            for rtol in PEER_RTOLS:  # loosest first: the cheapest rtol that reaches our error
                trial = peer(alpha, rtol)
                if trial["ok"] and error_of(trial["F"], reference) <= our_error:
                    chosen = rtol
                    break
            if chosen is None:
                row += ["not reached", "", "", ""]
                continue
            if name == "CVODE numba" and alpha == 1e6:
                matched_rtol[alpha] = chosen
            # interleaved: ours and the peer in turns
            peer_runs, our_runs = [], []
            for _ in range(repeats):
                peer_runs.append(peer(alpha, chosen))
                our_runs.append(ours(alpha, OUR_RTOL))
            wall = min(r["time"] for r in peer_runs) / min(r["time"] for r in our_runs)
            cpu = min(r["cpu"] for r in peer_runs) / min(r["cpu"] for r in our_runs)
            ratios[name].append(cpu)
            row += [f"{chosen:.0e}", f"{1e3 * min(r['cpu'] for r in peer_runs):.2f}", f"{cpu:.2f}x", f"{wall:.2f}x"]
        rows.append(row)
    header = ["alpha", "our error", "our CPU ms"]
    for name in PEERS:
        header += [f"{name} rtol", "CPU ms", "faster (CPU)", "(wall)"]
    print_table(
        f"2. Single solves at matched accuracy ({_schedule()}; ours at rtol {OUR_RTOL:g}; each peer at the loosest "
        "rtol reaching our error; CPU and wall time, best of the repeats, interleaved)",
        header,
        rows,
    )
    for name, values in ratios.items():
        if values:
            mean = float(np.exp(np.mean(np.log(values))))
            spread = f"{min(values):.2f}-{max(values):.2f}x"
            print(f"   {name}: ours faster by {mean:.2f}x in CPU time (geometric mean; {spread})")
    return matched_rtol


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


def sweep_section(rtol: float, repeats: int) -> None:
    from benchmarks.throughput import _batch, family

    parameters = sorted(family(SWEEP_CASES), key=lambda p: p["alpha"])  # as a study orders them (cost_order)
    batch = _batch(parameters)
    settings = SolveSettings(solver="RadauIIA5", events=("contact_open",))
    runs, timings = simulate.sweep(batch, settings)  # chunks as `regcontact run` cuts them
    compile_s = timings.compile_s
    ours_wall, ours_cpu = [], []
    for _ in range(repeats):
        cpu = time.process_time()
        ours_wall.append(simulate.sweep(batch, settings)[1].run_s)
        ours_cpu.append(time.process_time() - cpu)
    failed = int((~runs.ok).sum())
    tight = eqx.tree_at(
        lambda b: (b.controls.rtol, b.controls.atol),
        batch,
        (jnp.full(SWEEP_CASES, REFERENCE_RTOL), jnp.full(SWEEP_CASES, atol_of(REFERENCE_RTOL))),
    )
    reference = np.asarray(
        simulate.sweep(tight, SolveSettings(solver="RadauIIA5_literal_tolerances", events=("contact_open",)))[
            0
        ].force_integrals
    )
    our_errors = np.abs(np.asarray(runs.force_integrals) - reference).max(axis=1)
    chunk = simulate.sweep_chunk_size(batch, jax.devices())
    utilisation = simulate.lane_utilisation(runs.num_steps, chunk // len(jax.devices()))
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
    print(
        f"\n3. {SWEEP_CASES}-case sweep (Table 1 family, rtol {OUR_RTOL:g}; {len(jax.devices())} host devices; "
        f"chunks of {chunk}; compile {compile_s:.1f} s; {failed} failed; lane utilisation {utilisation:.2f}): "
        f"regcontact {1e3 * min(ours_wall):.0f} ms wall, {1e3 * min(ours_cpu):.0f} ms CPU (best of {repeats})"
    )
    for peer_rtol in peer_wall:
        what = " (matched at α = 1e6 in section 2)" if peer_rtol == rtol else ""
        wall, cpu = min(peer_wall[peer_rtol]), min(peer_cpu[peer_rtol])
        peer_errors = np.abs(peer_F[peer_rtol] - reference).max(axis=1)
        as_accurate = int(np.sum(peer_errors <= our_errors))
        print(
            f"   CVODE numba in {processes} processes at rtol {peer_rtol:g}{what}: {1e3 * wall:.0f} ms wall, "
            f"{1e3 * cpu:.0f} ms CPU (solves only): ours faster by {cpu / min(ours_cpu):.2f}x in "
            f"CPU time, {wall / min(ours_wall):.2f}x in wall time; at least as accurate as ours in {as_accurate} of "
            f"{SWEEP_CASES} cases (error median {np.median(peer_errors):.1e}, ours {np.median(our_errors):.1e})"
        )


#: XLA's CPU scheduler spreads independent thunks over its thread pool; a single solve is a long chain of tiny
#: ones, and handing them between threads costs more than they do (measured: 18.4 against 10.1 µs a step).
SEQUENTIAL_SCHEDULE = "--xla_cpu_enable_concurrency_optimized_scheduler=false"


def _part(part: str, args: argparse.Namespace, *extra: str, flags: str = "") -> str:
    """Run one part in a fresh process (JAX's device split and flags are fixed when it starts); print its output."""
    env = dict(os.environ)
    if flags:
        env["XLA_FLAGS"] = f"{env.get('XLA_FLAGS', '')} {flags}".strip()
    command = [sys.executable, __file__, "--part", part, "--repeats", str(args.repeats), *extra]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    print(out, end="", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--part", choices=["steps", "single", "sweep"], help="one section alone, in this process")
    parser.add_argument("--rtol", type=float, default=1e-12, help="--part sweep: CVODE's rtol matched at α = 1e6")
    args = parser.parse_args()
    if args.part == "steps":
        step_cost(args.repeats)
    elif args.part == "single":
        print(f"\nmatched rtol at α = 1e6: {matched(args.repeats).get(1e6, 1e-10):g}")
    elif args.part == "sweep":
        regcontact.use_host_cores()
        sweep_section(args.rtol, args.repeats)
    else:
        print(f"{machine()}; load average {os.getloadavg()[0]:.2f} at the start")
        _part("steps", args)
        _part("steps", args, flags=SEQUENTIAL_SCHEDULE)
        single = _part("single", args, flags=SEQUENTIAL_SCHEDULE)
        rtol = single.rsplit("matched rtol at α = 1e6: ", 1)[-1].split()[0]
        _part("sweep", args, "--rtol", rtol)
        print(f"\nload average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
