"""Work-precision benchmark of the compliant Painlevé rod: regcontact's Radau IIA (diffrax) vs SciPy's Radau.

    PYTHONPATH=. python benchmarks/work_precision.py [--quick]

The runs are the Table 1 runs (Preclik & Rüde Sec. 2.1, ``studies/table1.toml``): the rod starts in contact at
rest in the normal direction and is integrated over one *contact time* ``t_c = π √(m_n / k_n(α))``, or until the
``contact_open`` event, whichever comes first (the Table 1 termination rule). ``atol = rtol / 100``.

Printed, from this one run:

1. the reference: ``RadauIIA5_literal_tolerances`` at rtol 1e-13, against itself at 1e-12 and against SciPy's
   Radau at rtol 1e-13 (an independent implementation);
2. for α = 1e3 … 1e12 and rtol = 1e-6 … 1e-11: accepted and rejected steps (from the solution's statistics),
   wall time after compilation (best of 5), the error of the force integrals ``∫λ_n, ∫λ_t`` against the
   reference; the compile time, once;
3. the same runs with SciPy's ``solve_ivp(method="Radau")``, given a plain numpy vector field and its
   hand-derived analytic Jacobian (``benchmarks/scipy_rod.py``, what a SciPy user writes), one timed run each
   after a warm-up; SciPy reports accepted steps, not rejected ones. One line compares, on one solve, these
   numpy callbacks with jitted JAX ones (``flat_vector_field`` and ``jax.jacfwd`` of it, called from SciPy, the
   baseline of earlier versions): steps, evaluations and factorisations of each, and the time each takes;
4. per (α, rtol): SciPy's time over ours *at matched accuracy*: SciPy's cheapest run (over its rtol grid down
   to 1e-13) whose error is at most ours, or at most ten times the reference's own uncertainty where ours is
   below that;
5. the six-α Table 1 sweep as one vmapped, compiled call (``regcontact.compliant.sweep``), and the same six
   solves in sequence inside one compiled call (``lax.map``), vs SciPy doing the six solves at matched accuracy;
6. the targets of issue 5, met or not;
7. a touch-down run (the rod dropped onto a spring-damper ground; several contact switches, the force jumps at
   touch-down) with and without restarts at ``g_n = 0``.

``--quick`` runs a reduced grid (for checking the script, not for quoting).
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from scipy.integrate import solve_ivp

import regcontact  # noqa: F401  (float64)
from benchmarks.scipy_rod import ScipyRod
from regcontact.compliant import SOLVER_STATUSES, Case, Controls, SolveSettings, solve, sweep
from regcontact.compliant.dynamics import CompliantState, CompliantSystem, flat_vector_field, initial_state
from regcontact.compliant.termination import contact_time
from regcontact.contact import ContactModel
from regcontact.studies.compliant_study import build_cases
from regcontact.studies.loading import load_study
from regcontact.systems.rod import PainleveRod

ALPHAS = [10.0**e for e in range(3, 13)]
RTOLS = [10.0**-e for e in range(6, 12)]
SCIPY_RTOLS = [10.0**-e for e in range(6, 14)]
REFERENCE_RTOL = 1e-13
SWEEP_RTOL = 1e-10  # the sweep the targets are judged on
SWEEP_RTOLS = [1e-7, 1e-8, 1e-9, 1e-10]  # every sweep printed
TABLE1 = Path(__file__).resolve().parent.parent / "studies" / "table1.toml"
REPEATS = 5
TABLE1_SETTINGS = SolveSettings(solver="RadauIIA5", events=("contact_open",))


def atol_of(rtol: float) -> float:
    return rtol * 1e-2


def machine() -> str:
    """CPU model and core count, JAX device, versions."""
    model = platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        names = [
            line.split(":", 1)[1].strip() for line in cpuinfo.read_text().splitlines() if line.startswith("model name")
        ]
        model = f"{names[0]} ({len(names)} cores)" if names else model
    return f"{model}; JAX {jax.__version__} on {jax.devices()[0].platform}; Python {platform.python_version()}"


def best_time(call, repeats: int = REPEATS):
    """Best wall time of ``call()`` over ``repeats`` runs (each to completion), and its last result."""
    best, result = np.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        result = jax.block_until_ready(call())
        best = min(best, time.perf_counter() - start)
    return best, result


def error_of(integrals, reference) -> float:
    return float(np.max(np.abs(np.asarray(integrals) - reference)))


def print_table(title: str, header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    print(f"\n{title}")
    print("  ".join(h.rjust(w) for h, w in zip(header, widths)))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(c.rjust(w) for c, w in zip(row, widths)))


def print_grid(title: str, alphas: list[float], rtols: list[float], cell) -> None:
    rows = [[f"{a:g}", *(cell(a, r) for r in rtols)] for a in alphas]
    print_table(title, ["alpha \\ rtol", *(f"{r:.0e}" for r in rtols)], rows)


# -- the solves -------------------------------------------------------------------------------------------


def table1_solve(solver: str):
    """A jitted single solve ``(alpha, rtol) -> CompliantRun`` of the Table 1 rod (compiled once for all α, rtol)."""
    rod, contact = PainleveRod(), ContactModel()
    settings = SolveSettings(solver=solver, events=("contact_open",))

    @eqx.filter_jit
    def run(alpha, rtol):
        controls = Controls(rtol=rtol, atol=rtol * 1e-2, t_max=contact_time(rod, alpha))
        return solve(rod, contact, alpha, controls, settings)

    return lambda alpha, rtol: run(jnp.asarray(alpha), jnp.asarray(rtol))


CALLBACK_ALPHA, CALLBACK_RTOL = 1e6, 1e-10  # the one solve on which numpy and JAX callbacks are compared


def numpy_callbacks(alpha: float):
    """The Table 1 rod at ``alpha`` as SciPy's ``(fun, jac)``: plain numpy, hand-derived Jacobian."""
    rod, contact = PainleveRod(), ContactModel()
    model = ScipyRod.from_laws(rod, *contact.at_stiffness(alpha))
    return model.fun, model.jac


_vector_field = jax.jit(flat_vector_field)
_jacobian = jax.jit(jax.jacfwd(flat_vector_field, argnums=1))


def jax_callbacks(alpha: float):
    """The same ``(fun, jac)`` as jitted JAX calls (``flat_vector_field``, ``jax.jacfwd`` of it): the baseline of
    earlier versions of this benchmark, kept only to measure what the callbacks cost."""
    rod, contact = PainleveRod(), ContactModel()
    normal, friction = contact.at_stiffness(alpha)
    args = CompliantSystem(system=rod, normal=normal, friction=friction)

    def fun(t, y):
        return np.asarray(_vector_field(t, y, args))

    def jac(t, y):
        return np.asarray(_jacobian(t, y, args))

    return fun, jac


def scipy_solve(alpha: float, rtol: float, callbacks=numpy_callbacks) -> dict:
    """SciPy's Radau on the same run, with the analytic Jacobian.

    SciPy gets no ``contact_open`` event: it never fires in these runs (section 2 marks any of ours that it
    ended), and SciPy's event test counts the start value ``g_n = 0`` followed by a first step too short to
    change ``g_n`` as an upcrossing, which would end its run at once.
    """
    rod = PainleveRod()
    y0 = np.asarray(initial_state(rod).flat)
    fun, jac = callbacks(alpha)
    fun(0.0, y0), jac(0.0, y0)  # compile (JAX callbacks) outside the timing
    start = time.perf_counter()
    t_end = float(contact_time(rod, alpha))
    sol = solve_ivp(fun, (0.0, t_end), y0, method="Radau", rtol=rtol, atol=atol_of(rtol), jac=jac)
    elapsed = time.perf_counter() - start
    return dict(
        F=sol.y[6:8, -1], accepted=len(sol.t) - 1, time=elapsed, ok=sol.status == 0, work=(sol.nfev, sol.njev, sol.nlu)
    )


def callback_cost(alpha: float = CALLBACK_ALPHA, rtol: float = CALLBACK_RTOL, repeats: int = 3) -> str:
    """One SciPy solve with the numpy callbacks and with the jitted JAX ones: steps, work and best time of each."""
    runs = {}
    for name, callbacks in [("numpy", numpy_callbacks), ("JAX", jax_callbacks)]:
        scipy_solve(alpha, rtol, callbacks)  # warm-up
        tries = [scipy_solve(alpha, rtol, callbacks) for _ in range(repeats)]
        runs[name] = min(tries, key=lambda s: s["time"])
    ours, old = runs["numpy"], runs["JAX"]
    work = " vs ".join("/".join(map(str, run["work"])) for run in (ours, old))
    return (
        f"   numpy callbacks vs jitted JAX ones (the earlier baseline), α = {alpha:g}, rtol {rtol:g}, best of "
        f"{repeats}: {ours['accepted']} vs {old['accepted']} steps, nfev/njev/nlu {work}, "
        f"{1e3 * ours['time']:.0f} vs {1e3 * old['time']:.0f} ms: JAX's {old['time'] / ours['time']:.1f}x slower"
    )


# -- the sections -----------------------------------------------------------------------------------------


def references(alphas, scipy_runs):
    reference_run = table1_solve("RadauIIA5_literal_tolerances")
    reference = {a: np.asarray(reference_run(a, REFERENCE_RTOL).force_integrals) for a in alphas}
    looser = {a: np.asarray(reference_run(a, 10 * REFERENCE_RTOL).force_integrals) for a in alphas}
    uncertainty = {a: max(error_of(looser[a], reference[a]), 1e-15) for a in alphas}
    rows = [
        [
            f"{a:g}",
            f"{reference[a][0]:.15f}",
            f"{reference[a][1]:.15f}",
            f"{uncertainty[a]:.1e}",
            f"{error_of(scipy_runs[(a, REFERENCE_RTOL)]['F'], reference[a]):.1e}",
        ]
        for a in alphas
    ]
    print_table(
        f"1. reference force integrals (RadauIIA5_literal_tolerances, rtol {REFERENCE_RTOL:g})",
        ["alpha", "int_lambda_n", "int_lambda_t", "vs rtol 1e-12", "vs SciPy 1e-13"],
        rows,
    )
    return reference, uncertainty


def our_grid(alphas, rtols, reference):
    run = table1_solve("RadauIIA5")
    start = time.perf_counter()
    jax.block_until_ready(run(alphas[0], rtols[0]))
    compile_s = time.perf_counter() - start
    grid = {}
    for a in alphas:
        for r in rtols:
            elapsed, result = best_time(lambda a=a, r=r: run(a, r))
            ended_well = SOLVER_STATUSES[int(result.status)] == "successful" and int(result.termination) == 0
            grid[(a, r)] = dict(
                accepted=int(result.num_accepted_steps),
                rejected=int(result.num_rejected_steps),
                time=elapsed,
                F=np.asarray(result.force_integrals),
                error=error_of(result.force_integrals, reference[a]),
                ok=ended_well,
            )
    print(
        f"\n2. regcontact RadauIIA5 (RADAU5 tolerance map), single jitted solves; compiled once in {compile_s:.1f} s"
        " ('!': did not reach t_c)"
    )
    print_grid(
        "   accepted/rejected steps",
        alphas,
        rtols,
        lambda a, r: f"{grid[(a, r)]['accepted']}/{grid[(a, r)]['rejected']}" + ("" if grid[(a, r)]["ok"] else "!"),
    )
    print_grid(
        f"   wall time after compilation [ms], best of {REPEATS}",
        alphas,
        rtols,
        lambda a, r: f"{1e3 * grid[(a, r)]['time']:.1f}",
    )
    print_grid(
        "   error of the force integrals vs the reference", alphas, rtols, lambda a, r: f"{grid[(a, r)]['error']:.0e}"
    )
    return grid


def scipy_grid(alphas, scipy_rtols, scipy_runs, reference, callbacks_line):
    print(
        "\n3. SciPy solve_ivp(Radau), plain numpy vector field and hand-derived analytic Jacobian"
        " (benchmarks/scipy_rod.py); one run each after a warm-up ('!': failed)"
    )
    print(callbacks_line)
    print_grid(
        "   accepted steps",
        alphas,
        scipy_rtols,
        lambda a, r: f"{scipy_runs[(a, r)]['accepted']}" + ("" if scipy_runs[(a, r)]["ok"] else "!"),
    )
    print_grid("   wall time [ms]", alphas, scipy_rtols, lambda a, r: f"{1e3 * scipy_runs[(a, r)]['time']:.0f}")
    print_grid(
        "   error of the force integrals vs the reference",
        alphas,
        scipy_rtols,
        lambda a, r: f"{error_of(scipy_runs[(a, r)]['F'], reference[a]):.0e}",
    )


def matched(scipy_runs, scipy_rtols, reference, uncertainty):
    """``(alpha, error) -> SciPy's cheapest run at least as accurate``, or ``None``."""

    def cheapest(alpha: float, error: float):
        target = max(error, 10 * uncertainty[alpha])
        runs = [scipy_runs[(alpha, r)] for r in scipy_rtols]
        good = [s for s in runs if s["ok"] and error_of(s["F"], reference[alpha]) <= target]
        return min(good, key=lambda s: s["time"]) if good else None

    return cheapest


def speed_ups(alphas, rtols, grid, cheapest):
    def cell(a, r):
        match = cheapest(a, grid[(a, r)]["error"])
        return "n/a" if match is None else f"{match['time'] / grid[(a, r)]['time']:.0f}x"

    print_grid("4. speed-up at matched accuracy: SciPy's cheapest run at least as accurate / ours", alphas, rtols, cell)


def table1_sweep(reference, cheapest, rtol: float) -> tuple[float, float]:
    """The six-α sweep of ``studies/table1.toml`` at ``rtol``: vmapped, in sequence, and SciPy."""
    loaded = load_study(TABLE1, [f"solver.rtol={rtol}", f"solver.atol={atol_of(rtol)}"])
    _, cases = build_cases(loaded.config)
    runs, timings = sweep(cases, TABLE1_SETTINGS)
    vmapped_s = min(sweep(cases, TABLE1_SETTINGS)[1].run_s for _ in range(REPEATS))

    def one(case: Case):
        return solve(case.system, case.contact, case.alpha, case.controls, TABLE1_SETTINGS)

    in_sequence = jax.jit(lambda cases: jax.lax.map(one, cases))
    jax.block_until_ready(in_sequence(cases))
    sequence_s, _ = best_time(lambda: in_sequence(cases))

    rows, scipy_s = [], 0.0
    for i, alpha in enumerate(float(a) for a in np.asarray(cases.alpha)):
        error = error_of(runs.force_integrals[i], reference[alpha])
        match = cheapest(alpha, error)
        scipy_s += np.nan if match is None else match["time"]
        rows.append(
            [
                f"{alpha:g}",
                f"{runs.num_accepted_steps[i]}/{runs.num_rejected_steps[i]}",
                f"{error:.0e}",
                SOLVER_STATUSES[int(runs.status[i])],
                "n/a" if match is None else f"{match['accepted']}",
                "n/a" if match is None else f"{1e3 * match['time']:.0f}",
            ]
        )
    print_table(
        f"5. Table 1 sweep, six α at rtol {rtol:g}: vmapped call {1e3 * vmapped_s:.1f} ms "
        f"(compile {timings.compile_s:.1f} s), the six in sequence in one call (lax.map) {1e3 * sequence_s:.1f} ms, "
        f"SciPy's six at matched accuracy {1e3 * scipy_s:.0f} ms: {scipy_s / vmapped_s:.1f}x (vmapped), "
        f"{scipy_s / sequence_s:.1f}x (in sequence); best of {REPEATS}",
        ["alpha", "ours acc/rej", "ours error", "status", "SciPy steps", "SciPy ms"],
        rows,
    )
    return vmapped_s, scipy_s / vmapped_s


def targets(alphas, grid, vmapped_s, ratio) -> None:
    if not (SWEEP_RTOL in {r for _, r in grid} and 1e-11 in {r for _, r in grid}):
        return
    at, tighter = ({a: grid[(a, r)] for a in alphas} for r in (1e-10, 1e-11))
    steps = np.array([at[a]["accepted"] for a in alphas])
    print("\n6. targets of issue 5")
    print(
        f"   every α from {alphas[0]:g} to {alphas[-1]:g} reaches t_c at rtol 1e-10: {all(at[a]['ok'] for a in alphas)}"
    )
    print(
        f"   force integrals at rtol 1e-10 vs the reference: max error {max(at[a]['error'] for a in alphas):.1e}; "
        f"vs rtol 1e-11 at most {max(error_of(at[a]['F'], tighter[a]['F']) for a in alphas):.1e} (target 1e-8)"
    )
    print(
        f"   accepted steps at rtol 1e-10: {steps.min()} to {steps.max()} (target at most 500); "
        f"least-squares growth {np.polyfit(np.log10(alphas), steps, 1)[0]:.1f} steps per decade of α "
        f"({steps[0]} at α = {alphas[0]:g}, {steps[-1]} at α = {alphas[-1]:g})"
    )
    print(
        f"   Table 1 sweep vmapped: {1e3 * vmapped_s:.0f} ms (target under 100 ms); "
        f"{ratio:.1f}x SciPy at matched accuracy (target at least 20x)"
    )


def touch_down() -> None:
    """The rod dropped onto the ground (several contact switches): restarts at g_n = 0 on and off."""
    rod = PainleveRod(mu=0.3, gravity=10.0, phi0=1.2, vx0=0.3)
    contact = ContactModel()
    y0 = CompliantState.from_flat(initial_state(rod).flat.at[1].add(0.02).at[4].set(-1.0), 3)
    reference_settings = SolveSettings(
        solver="RadauIIA5_literal_tolerances", events=(), restart_at=("contact",), max_steps=50_000
    )
    reference = {
        a: solve(rod, contact, jnp.asarray(a), Controls(rtol=1e-12, atol=1e-14, t_max=0.3), reference_settings, y0)
        for a in [1e3, 1e6, 1e8, 1e10, 1e12]
    }
    rows = []
    for restart_at in [(), ("contact",)]:
        settings = SolveSettings(solver="RadauIIA5", events=(), restart_at=restart_at, max_steps=20_000)
        run = eqx.filter_jit(
            lambda a, settings=settings: solve(
                rod, contact, a, Controls(rtol=1e-10, atol=1e-12, t_max=0.3), settings, y0
            )
        )
        for a, ref in reference.items():
            jax.block_until_ready(run(jnp.asarray(a)))
            elapsed, result = best_time(lambda run=run, a=a: run(jnp.asarray(a)), repeats=3)
            rows.append(
                [
                    "restart at g_n = 0" if restart_at else "no restarts",
                    f"{a:g}",
                    f"{int(result.num_accepted_steps)}/{int(result.num_rejected_steps)}",
                    f"{int(result.num_restarts)}",
                    SOLVER_STATUSES[int(result.status)],
                    f"{float(result.t_end):.3f}",
                    f"{error_of(result.force_integrals, np.asarray(ref.force_integrals)):.0e}",
                    f"{1e3 * elapsed:.0f}",
                ]
            )
    print_table(
        "7. touch-down: the rod (μ = 0.3, g = 10, φ0 = 1.2) dropped from 2 cm at 1 m/s onto the spring-damper "
        "(k = γ_n = γ_t = α), t = 0…0.3, rtol 1e-10; error of the force integrals vs rtol 1e-12 with restarts",
        ["solve", "alpha", "acc/rej", "restarts", "status", "t_end", "error", "ms"],
        rows,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="reduced grid, to check the script")
    options = parser.parse_args()
    alphas = [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e12] if options.quick else ALPHAS
    rtols = [1e-6, 1e-10, 1e-11] if options.quick else RTOLS
    scipy_rtols = [1e-6, 1e-9, 1e-12, 1e-13] if options.quick else SCIPY_RTOLS

    print("Work-precision benchmark: compliant Painlevé rod, Table 1 runs (one contact time t_c, or contact_open)")
    print(f"machine: {machine()}")

    scipy_solve(alphas[0], scipy_rtols[0])  # warm up SciPy
    scipy_runs = {(a, r): scipy_solve(a, r) for a in alphas for r in scipy_rtols}
    callbacks_line = callback_cost()
    reference, uncertainty = references(alphas, scipy_runs)
    grid = our_grid(alphas, rtols, reference)
    scipy_grid(alphas, scipy_rtols, scipy_runs, reference, callbacks_line)
    cheapest = matched(scipy_runs, scipy_rtols, reference, uncertainty)
    speed_ups(alphas, rtols, grid, cheapest)
    sweeps = {rtol: table1_sweep(reference, cheapest, rtol) for rtol in SWEEP_RTOLS}
    targets(alphas, grid, *sweeps[SWEEP_RTOL])
    touch_down()


if __name__ == "__main__":
    main()
