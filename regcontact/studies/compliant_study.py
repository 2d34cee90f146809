"""The compliant study kind: sweep α (and any other sweepable key) towards the rigid limit.

Each case integrates its system from its initial state with the compliant contact at stiffness multiplier α until
the run's termination rule, and sets the force integrals ``∫λ_n dt, ∫λ_t dt`` beside the rigid predictions for
the same system: the impulse-velocity LCP (Preclik Sec. 3), at a landing the contact model's own limit impact law
(:mod:`~regcontact.studies.compliant_limit_reference`) and, where asked, the time-stepping LCP (Sec. 4). All
cases run in one vmapped, jitted call (chunked).

The config is read once, into a :class:`~regcontact.studies.compliant_sweep.CompliantSweep`; its schema and
cross-field rules are :mod:`~regcontact.studies.compliant_config`, the batch :mod:`~regcontact.studies.compliant_cases`,
the rows :mod:`~regcontact.studies.compliant_columns`, the convergence entry
:mod:`~regcontact.studies.compliant_convergence` and the printed lines :mod:`~regcontact.studies.compliant_text`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax.tree_util as jtu
import numpy as np

from regcontact.compliant import Case, CompliantRun, cost_order, lane_utilisation, sweep_chunk_size
from regcontact.compliant.devices import sweep_devices
from regcontact.studies.chunk_checkpoints import ChunkCheckpoints
from regcontact.studies.compliant_cases import sweep_cases
from regcontact.studies.compliant_columns import TABLE_COLUMNS, case_rows
from regcontact.studies.compliant_config import KIND, check, schema
from regcontact.studies.compliant_convergence import convergence, trend_steps
from regcontact.studies.compliant_limit_reference import limit_references
from regcontact.studies.compliant_sweep import CompliantSweep
from regcontact.studies.compliant_text import axes_line, convergence_lines, failure_line
from regcontact.studies.grid_dataset import GridAxis
from regcontact.studies.study_result import StudyResult
from regcontact.studies.sweep_engines import AbstractSweepEngine, LocalEngine
from regcontact.studies.sweep_plan import column_name

__all__ = ["CHUNKED", "KIND", "TABLE_COLUMNS", "build_cases", "check", "run", "schema"]

#: Its ``run`` takes chunk checkpoints and a sweep engine (``regcontact run --resume``, ``--scheduler``).
CHUNKED = True


def build_cases(config: dict[str, Any]) -> tuple[list[dict[str, Any]], Case]:
    """One row of swept values per case (``alpha`` first; α varies fastest) and the batched :class:`Case`."""
    sweep = CompliantSweep.from_config(config)
    return [sweep.label(i) for i in range(sweep.size)], sweep_cases(sweep).cases


def run(
    config: dict[str, Any],
    progress: Callable[[str], None] = lambda message: None,
    checkpoints: ChunkCheckpoints | None = None,
    engine: AbstractSweepEngine | None = None,
    announce_above: int | None = None,
) -> StudyResult:
    """Run the sweep and return its table, references, solver statistics and timings.

    ``checkpoints`` keeps each solved chunk on disk and supplies the chunks a former run of the same study
    kept; ``engine`` solves the chunks (default: here, :class:`LocalEngine`; or on a Dask cluster); with
    ``announce_above`` cases or more, the pace of the first chunk and the time the sweep will take are said."""
    sweep = CompliantSweep.from_config(config)
    batch = sweep_cases(sweep)
    progress(axes_line(sweep.plan, len(batch.system_tables)))

    systems = [jtu.tree_map(lambda leaf, j=j: leaf[j], batch.systems) for j in range(len(batch.system_tables))]
    from regcontact.rigid.references import ReferenceOptions, rigid_references_batch

    listed = sweep.time_stepping_dt
    options = ReferenceOptions(sweep.impulse_velocity, listed)
    references = rigid_references_batch(systems, options, trend_steps(listed) if listed else ())
    limits = limit_references(sweep, batch, [reference.state for reference in references])
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
    rows, partial = case_rows(sweep, batch, runs, references, limits)
    document = convergence(sweep, batch, runs, references, limits)
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
        timings={"compile_s": timings.compile_s, "solve_s": timings.run_s},
        failures=[failure_line(row, list(sweep.labels)) for row in failed],
        summary=convergence_lines(document),
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
