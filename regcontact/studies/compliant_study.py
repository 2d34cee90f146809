"""The compliant study kind (``compliant_sweep``): sweep α and any other sweepable key towards the rigid limit,
every case in one vmapped, jitted solve run in chunks, set beside the rigid references (``docs/results.md``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from typing import Any, final

import jax.tree_util as jtu
import numpy as np

from regcontact._compile_clock import CompileClock
from regcontact.compliant import Case, CompliantRun, cost_order, lane_utilisation, sweep_chunk_size
from regcontact.compliant.devices import sweep_devices
from regcontact.rigid import ReferenceOptions, rigid_references_batch
from regcontact.studies._compliant_columns import TABLE_COLUMNS, case_rows
from regcontact.studies._compliant_config import KIND, check, schema
from regcontact.studies._compliant_convergence import convergence, trend_steps
from regcontact.studies._compliant_limit_reference import limit_references
from regcontact.studies._compliant_text import axes_line, convergence_lines, failure_line, laws_line
from regcontact.studies._law_config import switched_laws
from regcontact.studies._study_kind import AbstractStudyKind, Estimate
from regcontact.studies.chunk_checkpoints import ChunkCheckpoints
from regcontact.studies.compliant_cases import sweep_cases
from regcontact.studies.compliant_sweep import CompliantSweep
from regcontact.studies.grid_dataset import GridAxis
from regcontact.studies.study_result import StudyResult
from regcontact.studies.study_size import (
    BASE_BYTES,
    HOST_BYTES_PER_CASE,
    DeviceSet,
    rtol_factor,
    solve_seconds,
)
from regcontact.studies.sweep_engines import AbstractSweepEngine, LocalEngine
from regcontact.studies.sweep_plan import column_name, plan_sweep

__all__ = ["CompliantSweepStudy", "build_cases"]

# Measured at a load factor of about 2.25 (load average 4.5 on 2 cores): 256 cases in chunks of 64 on 2 host
# devices 1.17 s at rtol 1e-10 (226 steps a case), 0.80 s at 1e-8 (144), 0.51 s at 1e-6 (88). The rows, CSV, JSON
# and grid of 1e5 cases: 0.4 ms and 1.75 kB a case (peak RSS 0.70 GB at 1e4 cases, 0.85 GB at 1e5).
# Cold runs (a fresh cache folder: nothing compiled or traced before; 2 cores, each time divided by the load factor
# (load + 1) / 2 over the run): table1 79 s at about 3.3 (compile 52.8 s), two_point_rod 152 s at 4.4 (116 s),
# reduced_single_contact 155 s at 6.1 (94.7 s); the rest of the run, besides compile and solve, 7.8–9.8 s idle.
#: Seconds to compile a sweep's vmapped solve on an idle machine, cold, by system kind (reduced_two_contact not
#: measured cold: its warm-cache time scaled as reduced_single_contact's).
COMPILE_S: dict[str, float] = {
    "painleve_rod": 16.0,
    "two_point_rod": 26.0,
    "reduced_single_contact": 15.5,
    "reduced_two_contact": 39.0,
}
#: Seconds of a cold compliant run besides its compile and solve, on an idle machine: starting Python and JAX,
#: importing the kinds, tracing the rigid references, writing the files.
START_S = 8.0
#: Seconds of solving per case and CPU device at rtol 1e-10.
SOLVE_S_PER_CASE_PER_CPU = 4.0e-3
#: Seconds of host work per case: the batch, the rows, the files.
HOST_S_PER_CASE = 0.18e-3
#: Seconds of the rigid references per distinct system (impulse-velocity LCP, time-stepping steps).
REFERENCE_S_PER_SYSTEM = 2e-3


def build_cases(config: dict[str, Any]) -> tuple[list[dict[str, Any]], Case]:
    """One row of swept values per case (``alpha`` first; α varies fastest) and the batched :class:`Case`."""
    sweep = CompliantSweep.from_config(config)
    return [sweep.label(i) for i in range(sweep.size)], sweep_cases(sweep).cases


def _run(
    config: dict[str, Any],
    progress: Callable[[str], None] = lambda message: None,
    checkpoints: ChunkCheckpoints | None = None,
    engine: AbstractSweepEngine | None = None,
    announce_above: int | None = None,
) -> StudyResult:
    """The sweep's table, references, solver statistics and timings (:meth:`CompliantSweepStudy.run`)."""
    sweep = CompliantSweep.from_config(config)
    with CompileClock() as before_solve:  # the references' own compile time is compile, not their work
        batch = sweep_cases(sweep)
        progress(axes_line(sweep.plan, len(batch.system_tables)))
        progress(laws_line(config["contact"], sweep.swept("contact.")))
        started = time.perf_counter()
        systems = [jtu.tree_map(lambda leaf, j=j: leaf[j], batch.systems) for j in range(len(batch.system_tables))]
        listed = sweep.time_stepping_dt
        options = ReferenceOptions(sweep.impulse_velocity, listed)
        references = rigid_references_batch(systems, options, trend_steps(listed) if listed else ())
        limits_started = time.perf_counter()
        limits = limit_references(sweep, batch, [reference.state for reference in references])
    references_s = {
        "rigid_references_s": limits_started - started,
        "limit_references_s": time.perf_counter() - limits_started,
    }
    devices = sweep_devices()
    chunk = sweep_chunk_size(batch.cases, devices, sweep.chunk_size)
    done: dict[int, CompliantRun] = {}
    if checkpoints is not None:
        chunk, done = checkpoints.resume(sweep.size, chunk)
        if done:
            progress(f"resuming: {checkpoints.summary()}")
    engine = engine or LocalEngine()
    order = cost_order(batch.cases)  # similar cases share a chunk; rows stay in the config's order
    runs, timings = engine.sweep(
        jtu.tree_map(lambda leaf: np.asarray(leaf)[order], batch.cases),
        sweep.settings,
        chunk,
        progress,
        devices,
        done,
        None if checkpoints is None else checkpoints.save,
        announce_above,
    )
    utilisation = lane_utilisation(runs.num_steps, max(1, chunk // len(devices)))  # each device runs its share
    runs = jtu.tree_map(lambda leaf: np.asarray(leaf)[np.argsort(order)], runs)
    with CompileClock() as rows_compile:
        rows, partial = case_rows(sweep, batch, runs, references, limits)
        impulsive = np.array([row["impulsive"] is True for row in rows])
        document = convergence(sweep, batch, runs, references, limits, impulsive)
    references_s["host_compile_s"] = before_solve.seconds + rows_compile.seconds
    failed = [row for row in rows if row["termination"] == "failed"]
    system_keys = [column_name(key) for key in sweep.swept("system.")]
    return StudyResult(
        name=sweep.name,
        kind=KIND,
        rows=rows,
        references=(
            {
                "systems": [
                    {"system": {k: table[k] for k in system_keys}, **reference.as_json()}
                    for table, reference in zip(batch.system_tables, references)
                ]
            }
            if system_keys
            else references[0].as_json()
        ),
        solver_statistics={
            "solver": sweep.settings.solver,
            "rtol": sweep.single["solver.rtol"],
            "atol": sweep.single["solver.atol"],
            "accepted_steps_total": int(np.sum(runs.num_accepted_steps)),
            "rejected_steps_total": int(np.sum(runs.num_rejected_steps)),
            "accepted_steps_max": int(np.max(runs.num_accepted_steps)),
            "lane_utilisation": utilisation,
            "failed_cases": len(failed),
        },
        timings={"compile_s": timings.compile_s, "solve_s": timings.run_s, **references_s},
        failures=[failure_line(row, list(sweep.labels)) for row in failed],
        summary=convergence_lines(document, sorted(set(np.asarray(sweep.alpha).tolist()))),
        extra={"convergence": document, **({"partial_results": partial} if partial else {})},
        device=engine.describe(devices),
        grid=[
            GridAxis(
                column_name(axis.keys[0]),
                {column_name(key): list(values) for key, values in zip(axis.keys, axis.values)},
            )
            for axis in sweep.plan.axes
        ],
    )


def _estimate(config: Mapping[str, Any], devices: DeviceSet) -> Estimate:
    plan = plan_sweep(config)
    cases = plan.size
    systems = math.prod(axis.length for axis in plan.axes if any(key.startswith("system.") for key in axis.keys))
    detail = " × ".join(f"{axis.length:,} {column_name(axis.keys[0])}" for axis in plan.axes)
    detail += f", {systems:,} distinct system" + ("s" if systems > 1 else "")
    a = plan.axis_of("solver.rtol")
    rtol = config["solver"]["rtol"] if a is None else min(plan.axes[a].values[plan.axes[a].keys.index("solver.rtol")])
    references = config["references"]
    per_system = REFERENCE_S_PER_SYSTEM * (1 + len(references["time_stepping_dt"]))
    phases = {
        "start": START_S,
        "compile": COMPILE_S.get(config["system"]["kind"], max(COMPILE_S.values())),
        "references": systems * per_system,
        "solve": solve_seconds(cases, SOLVE_S_PER_CASE_PER_CPU * rtol_factor(rtol), devices),
        "rows": cases * HOST_S_PER_CASE,
    }
    return Estimate(cases, detail, BASE_BYTES + cases * HOST_BYTES_PER_CASE, phases)


def _bytes_per_case(config: dict[str, Any]) -> int:
    """Device memory one case of a vmapped Radau solve takes, as :func:`~regcontact.compliant.case_bytes`
    estimates it (four ``3d × 3d`` Newton matrices, ``d`` the state size), for the sweep's first system."""
    import jax

    from regcontact.compliant.dynamics import initial_state
    from regcontact.studies.system_config import system_from_config

    system = system_from_config(CompliantSweep.from_config(config).system_table(0))
    state_size = jax.eval_shape(lambda system: initial_state(system).flat, system).size
    return 4 * 8 * (3 * state_size) ** 2


def _chunk_lines(config: dict[str, Any]) -> list[str]:
    """How the cases are cut into chunks, and the devices that would solve them: counted, never built."""
    from regcontact.compliant.devices import automatic_chunk_size, describe_devices

    devices = sweep_devices()
    total = plan_sweep(config).size
    count = len(devices)
    given = config["sweep"]["chunk_size"]
    if given is None:
        chunk = automatic_chunk_size(total, devices, _bytes_per_case(config))
    else:
        chunk = given
    chunk = count * math.ceil(min(chunk, total) / count)
    return [
        f"chunks: {math.ceil(total / chunk):,} of {chunk:,} cases" + ("" if given else " (chosen from the devices)"),
        f"devices: {describe_devices(devices)}",
    ]


@final
class CompliantSweepStudy(AbstractStudyKind):
    """``kind = "compliant_sweep"``: each case integrates its system with the compliant contact at stiffness
    multiplier α until its termination rule, and sets ``∫λ_n dt, ∫λ_t dt`` beside the rigid predictions for the
    same system (the impulse-velocity LCP, at a landing the contact model's own limit impact law, where asked the
    time-stepping LCP). Its cases run in chunks, here or on a Dask cluster."""

    NAME = KIND
    TABLE_COLUMNS = TABLE_COLUMNS
    CHUNKED = True

    def schema(self, raw: dict[str, Any]) -> dict[str, Any]:
        return schema(raw)

    def overridden(self, written: dict[str, Any], raw: dict[str, Any], overridden: list[str]) -> list[str]:
        return switched_laws(written, raw, overridden)

    def check(self, config: dict[str, Any], overridden: list[str]) -> list[str]:
        return check(config, overridden)

    def estimate(self, config: Mapping[str, Any], devices: DeviceSet) -> Estimate:
        return _estimate(config, devices)

    def run(
        self,
        config: dict[str, Any],
        progress: Callable[[str], None] = lambda message: None,
        checkpoints: ChunkCheckpoints | None = None,
        engine: AbstractSweepEngine | None = None,
        announce_above: int | None = None,
    ) -> StudyResult:
        """Run the sweep and return its table, references, solver statistics and timings.

        Args:
            config: the validated config.
            progress: receives progress lines.
            checkpoints: keeps each solved chunk on disk and supplies the chunks a former run of the same study
                kept.
            engine: solves the chunks (default: here, :class:`LocalEngine`; or on a Dask cluster).
            announce_above: with this many cases or more, the pace of the first chunk and the time the sweep will
                take are said.
        """
        return _run(config, progress, checkpoints, engine, announce_above)

    def check_lines(self, config: dict[str, Any]) -> list[str]:
        return _chunk_lines(config)
