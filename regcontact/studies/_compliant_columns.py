"""The table of a compliant study: one row per case, with its swept values, force integrals, the paper's and
the rigid references' values, and how the run went.

A failed run keeps its row with blank integrals (``None``); its integrals as far as it got go to
``partial_results`` in the JSON instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from jaxtyping import ArrayLike

from regcontact.compliant import SOLVER_STATUSES, CompliantRun
from regcontact.compliant.outcome import END_MODES, UNCLASSIFIED, classify
from regcontact.compliant.run_checks import RUN_CHECKS
from regcontact.studies._compliant_limit_reference import LimitReference, LimitReferences
from regcontact.studies.compliant_cases import SweepCases
from regcontact.studies.compliant_sweep import CompliantSweep
from regcontact.studies.system_config import SYSTEM_KINDS

if TYPE_CHECKING:  # the rigid references (and SciPy) are imported when a study runs, not to validate it
    from regcontact.rigid import RigidReferences

__all__ = ["TABLE_COLUMNS", "case_rows"]

#: Columns printed by ``regcontact run`` (the CSV has them all); with several contacts the integrals of contact
#: ``i`` are ``int_lambda_n_i``, ``int_lambda_t_i``.
TABLE_COLUMNS = [
    "alpha",
    *dict.fromkeys(name for kind in SYSTEM_KINDS.values() if not kind.spatial for name in kind.fields),
    "int_lambda_n",
    "int_lambda_t",
    *(f"int_lambda_{part}_{i}" for i in (1, 2) for part in ("n", "t")),
    "paper_int_lambda_n",
    "paper_int_lambda_t",
    "impulse_velocity_n",
    "impulse_velocity_t",
    *(f"impulse_velocity_{part}_{i}" for i in (1, 2) for part in ("n", "t")),
    "distance_to_impulse_velocity",
    "distance_to_compliant_limit",
    "termination",
    "n_steps",
    "status",
    "check",
]


def _per_contact(prefix: str, values: ArrayLike, ok: bool = True) -> dict[str, float | None]:
    """``{prefix}_n``, ``{prefix}_t`` for one contact; ``{prefix}_n_i``, ``{prefix}_t_i`` for several. A failed
    run's integrals are not results: blank (``None``)."""
    pairs = np.asarray(values).reshape(-1, 2)
    suffixes = [""] if len(pairs) == 1 else [f"_{i + 1}" for i in range(len(pairs))]
    columns: dict[str, float | None] = {}
    for suffix, (normal, tangential) in zip(suffixes, pairs):
        columns[f"{prefix}_n{suffix}"] = float(normal) if ok else None
        columns[f"{prefix}_t{suffix}"] = float(tangential) if ok else None
    return columns


def _reference_columns(reference: RigidReferences, integrals: ArrayLike, ok: bool) -> dict[str, Any]:
    """The reference's columns; a failed run has no distance to it."""
    columns: dict[str, Any] = dict(reference.columns(np.asarray(integrals)))
    if not ok and "distance_to_impulse_velocity" in columns:
        columns["distance_to_impulse_velocity"] = None
    return columns


def _limit_columns(limit: LimitReference, integrals: ArrayLike, ok: bool) -> dict[str, float | None]:
    """The compliant limit's impulses (``compliant_limit_n``, … as the integrals are named) and the max-norm
    distance of the integrals to them; none where the reference does not apply, no distance for a failed run."""
    if limit.impulse is None:
        return {}
    distance = float(np.max(np.abs(np.ravel(integrals) - np.ravel(limit.impulse))))
    return {**_per_contact("compliant_limit", limit.impulse), "distance_to_compliant_limit": distance if ok else None}


def case_rows(
    sweep: CompliantSweep,
    batch: SweepCases,
    runs: CompliantRun,
    references: list[RigidReferences],
    limits: LimitReferences,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The rows of the table, one per case, and the partial results of the failed runs."""
    cases, settings = batch.cases, sweep.settings
    impulsive, end_modes = (np.asarray(codes) for codes in classify(cases, runs, settings))
    events = ("time_limit", *settings.events)
    # Every field on the host once, as Python numbers: indexing a device array (or a module's property) per row
    # dispatches (or recomputes the whole batch) per row.
    t_max = np.asarray(cases.controls.t_max).tolist()
    all_integrals, all_ok = np.asarray(runs.force_integrals), np.asarray(runs.ok).tolist()
    t_end, termination, statuses, checks = (
        np.asarray(field).tolist() for field in (runs.t_end, runs.termination, runs.status, runs.check)
    )
    steps, accepted, rejected, restarts = (
        np.asarray(field).tolist()
        for field in (runs.num_steps, runs.num_accepted_steps, runs.num_rejected_steps, runs.num_restarts)
    )
    impulsive, end_modes = impulsive.tolist(), end_modes.tolist()
    rows, partial = [], []
    for i in range(sweep.size):
        label = sweep.label(i)
        reference = references[batch.system_ids[i]]
        integrals = all_integrals[i]
        status, check = SOLVER_STATUSES[statuses[i]], RUN_CHECKS[checks[i]]
        ok = all_ok[i]
        row = {
            **label,
            # A failed run's integrals are not results: blank here, kept in the JSON under "partial_results".
            **_per_contact("int_lambda", integrals, ok),
            **sweep.paper.at(label["alpha"]),
            **_reference_columns(reference, integrals, ok),
            **_limit_columns(limits.of_case(i), integrals, ok),
            "t_end": t_end[i],
            "t_max": t_max[i],
            "termination": events[termination[i]] if ok else "failed",
            "n_steps": steps[i],
            "n_accepted": accepted[i],
            "n_rejected": rejected[i],
            "n_restarts": restarts[i],
            "status": status,
            "check": check,
            # What the run did (regcontact.compliant.outcome): an impulse or not, and how it ended.
            "impulsive": impulsive[i] if ok else None,
            "end_mode": END_MODES[int(end_modes[i])] if ok and end_modes[i] != UNCLASSIFIED else None,
        }
        rows.append(row)
        if not ok:
            partial.append(
                {
                    **label,
                    **_per_contact("int_lambda", integrals),
                    "t_end": row["t_end"],
                    "stopped_by": events[termination[i]],
                    "status": status,
                    "check": check,
                }
            )
    return rows, partial
