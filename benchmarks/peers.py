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
   regcontact's ``sweep`` on every host core against CVODE (numba callbacks) in a pool of one process per core
   at the rtol that matched at α = 1e6 in section 2.
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import os
import statistics
import time

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from scipy.integrate import solve_ivp

import regcontact
from benchmarks.cvode_rod import cvode_solve
from benchmarks.scipy_rod import ScipyRod
from benchmarks.work_precision import error_of, machine, print_table
from regcontact.compliant import simulate
from regcontact.compliant.dynamics import initial_state
from regcontact.compliant.simulate import Controls, SolveSettings, solve
from regcontact.compliant.solvers import RadauIIA5
from regcontact.compliant.termination import contact_time
from regcontact.contact.contact_model import ContactModel
from regcontact.systems.rod import PainleveRod

ALPHAS = [1e3, 1e6, 1e9, 1e12]
OUR_RTOL = 1e-10
PEER_RTOLS = [1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13]
REFERENCE_RTOL = 1e-13
SWEEP_CASES = 256

# the solver as it was before the velocity-only Newton, for section 1's comparison only
simulate.IMPLICIT_SOLVERS["RadauIIA5_full_newton"] = RadauIIA5


def atol_of(rtol: float) -> float:
    return rtol * 1e-2


def our_solve(solver: str):
    rod, contact = PainleveRod(), ContactModel()
    settings = SolveSettings(solver=solver, events=("contact_open",))

    @eqx.filter_jit
    def run(alpha, rtol):
        controls = Controls(rtol=rtol, atol=rtol * 1e-2, t_max=contact_time(rod, alpha))
        return solve(rod, contact, alpha, controls, settings)

    def call(alpha: float, rtol: float):
        start = time.perf_counter()
        result = jax.block_until_ready(run(jnp.asarray(alpha), jnp.asarray(rtol)))
        return dict(
            F=np.asarray(result.force_integrals),
            time=time.perf_counter() - start,
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
    start = time.perf_counter()
    sol = solve_ivp(model.fun, (0.0, t_end), y0, method="Radau", rtol=rtol, atol=atol_of(rtol), jac=model.jac)
    return dict(F=sol.y[6:8, -1], time=time.perf_counter() - start, steps=len(sol.t) - 1, ok=sol.status == 0)


def cvode(alpha: float, rtol: float, callbacks: str) -> dict:
    model, y0, t_end = peer_problem(alpha)
    run = cvode_solve(model, y0, t_end, rtol, atol_of(rtol), callbacks)
    return dict(F=run["y"][6:8], time=run["time"], steps=None, ok=run["ok"])


PEERS = {
    "SciPy Radau": scipy_radau,
    "CVODE numpy": functools.partial(cvode, callbacks="numpy"),
    "CVODE numba": functools.partial(cvode, callbacks="numba"),
}


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
        "1. Cost of a step, Table 1 rod at rtol 1e-10 (best of the repeats; per step = per solve / steps)",
        ["alpha", "steps", "ms/solve", "us/step", "full Newton: steps", "ms/solve", "us/step"],
        rows,
    )


def matched(repeats: int) -> dict[float, float]:
    reference_run, ours = our_solve("RadauIIA5_literal_tolerances"), our_solve("RadauIIA5")
    for name in PEERS:  # warm up: imports, numba compilation
        PEERS[name](1e3, 1e-8)
    matched_rtol: dict[float, float] = {}
    rows, ratios = [], {name: [] for name in PEERS}
    for alpha in ALPHAS:
        reference = reference_run(alpha, REFERENCE_RTOL)["F"]
        ours(alpha, OUR_RTOL)
        our_run = best(functools.partial(ours, alpha, OUR_RTOL), repeats)
        our_error = error_of(our_run["F"], reference)
        row = [f"{alpha:g}", f"{our_error:.1e}", f"{1e3 * our_run['time']:.2f}"]
        for name, peer in PEERS.items():
            chosen = None
            for rtol in PEER_RTOLS:  # loosest first: the cheapest rtol that reaches our error
                trial = peer(alpha, rtol)
                if trial["ok"] and error_of(trial["F"], reference) <= our_error:
                    chosen = rtol
                    break
            if chosen is None:
                row += ["not reached", "", ""]
                continue
            if name == "CVODE numba" and alpha == 1e6:
                matched_rtol[alpha] = chosen
            # interleaved: ours and the peer in turns
            peer_times, our_times = [], []
            for _ in range(repeats):
                peer_times.append(peer(alpha, chosen)["time"])
                our_times.append(ours(alpha, OUR_RTOL)["time"])
            ratio = min(peer_times) / min(our_times)
            ratios[name].append(ratio)
            row += [f"{chosen:.0e}", f"{1e3 * min(peer_times):.2f}", f"{ratio:.2f}x"]
        rows.append(row)
    header = ["alpha", "our error", "our ms"]
    for name in PEERS:
        header += [f"{name} rtol", "ms", "ours faster by"]
    print_table(
        f"2. Single solves at matched accuracy (ours at rtol {OUR_RTOL:g}; each peer at the loosest rtol reaching "
        "our error; best of the repeats, interleaved)",
        header,
        rows,
    )
    for name, values in ratios.items():
        if values:
            mean = float(np.exp(np.mean(np.log(values))))
            print(f"   {name}: ours faster by {mean:.2f}x (geometric mean; {min(values):.2f}-{max(values):.2f}x)")
    return matched_rtol


def _cvode_case(problem: tuple[list[float], np.ndarray, float], rtol: float) -> float:
    """One CVODE solve from plain numbers (the parent process builds them, so no JAX runs in the pool)."""
    params, y0, t_end = problem
    return cvode_solve(ScipyRod(*params), y0, t_end, rtol, atol_of(rtol), "numba")["time"]


def _cvode_problems(parameters: list[dict]) -> list[tuple[list[float], np.ndarray, float]]:
    problems = []
    for p in parameters:
        model, y0, t_end = peer_problem(p["alpha"], mu=p["mu"], phi0=p["phi0"])
        problems.append((model.params.tolist(), y0, t_end))
    return problems


def sweep_section(rtol: float, repeats: int) -> None:
    from benchmarks.throughput import _batch, family

    parameters = family(SWEEP_CASES)
    batch = _batch(parameters)
    settings = SolveSettings(solver="RadauIIA5", events=("contact_open",))
    runs, timings = simulate.sweep(batch, settings, chunk_size=SWEEP_CASES)
    compile_s = timings.compile_s
    ours = [simulate.sweep(batch, settings, chunk_size=SWEEP_CASES)[1].run_s for _ in range(repeats)]
    failed = int((~runs.ok).sum())
    processes = os.cpu_count() or 1
    problems = _cvode_problems(parameters)
    peer: dict[float, list[float]] = {rtol: [], OUR_RTOL: []}
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        pool.starmap(_cvode_case, [(problem, rtol) for problem in problems[:processes]])  # import, compile
        for _ in range(repeats):
            for peer_rtol in peer:
                start = time.perf_counter()
                pool.starmap(_cvode_case, [(problem, peer_rtol) for problem in problems], chunksize=8)
                peer[peer_rtol].append(time.perf_counter() - start)
    print(
        f"\n3. {SWEEP_CASES}-case sweep (Table 1 family, rtol {OUR_RTOL:g}; {len(jax.devices())} host devices; "
        f"compile {compile_s:.1f} s; {failed} failed): regcontact {1e3 * min(ours):.0f} ms (best of {repeats})"
    )
    for peer_rtol, times in peer.items():
        what = "matched at α = 1e6" if peer_rtol == rtol else "the same rtol, less accurate"
        print(
            f"   CVODE numba in {processes} processes at rtol {peer_rtol:g} ({what}): {1e3 * min(times):.0f} ms: "
            f"ours faster by {min(times) / min(ours):.2f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"{machine()}; load average {os.getloadavg()[0]:.2f} at the start")
    step_cost(args.repeats)
    rtol = matched(args.repeats).get(1e6, 1e-10)
    sweep_section(rtol, args.repeats)
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    regcontact.use_host_cores()
    main()
