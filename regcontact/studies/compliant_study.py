"""The convergence study of the compliant Painlevé rod: sweep α (and optionally rod parameters) to the rigid limit.

For each case the rod is integrated from its initial state (Preclik Sec. 2.1) with the compliant contact at
stiffness multiplier α until the run's termination rule, and the force integrals ``∫λ_n dt, ∫λ_t dt`` are set
beside the rigid predictions for the same rod: the impulse-velocity LCP (Sec. 3) and, where asked, the
time-stepping LCP (Sec. 4). All cases run in one vmapped, jitted call (chunked).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import jax.tree_util as jtu
import numpy as np
from jaxtyping import ArrayLike

from regcontact.compliant.devices import sweep_devices
from regcontact.compliant.outcome import END_MODES, classify
from regcontact.compliant.run_checks import RUN_CHECKS
from regcontact.compliant.simulate import (
    IMPLICIT_SOLVERS,
    SOLVER_STATUSES,
    Case,
    CompliantRun,
    SolveSettings,
    sweep_chunk_size,
)
from regcontact.compliant.switches import RESTART_SURFACES
from regcontact.compliant.termination import EVENTS
from regcontact.contact.friction_laws import FRICTION_LAWS, AbstractFrictionLaw
from regcontact.contact.normal_laws import NORMAL_LAWS, AbstractJumpingNormalLaw, AbstractNormalLaw
from regcontact.convergence import DRIFT_TOLERANCE, MIN_TAIL_POINTS, ROUNDOFF_FACTOR, TAIL_DECADES, analyse
from regcontact.studies import config as cfg
from regcontact.studies.chunk_checkpoints import ChunkCheckpoints
from regcontact.studies.compliant_cases import SweepCases, sweep_cases
from regcontact.studies.grid_dataset import GridAxis
from regcontact.studies.study_result import StudyResult
from regcontact.studies.sweep_engines import AbstractSweepEngine, LocalEngine
from regcontact.studies.sweep_plan import ALPHA, SweepPlan, column_name, plan_sweep, sweep_fields
from regcontact.studies.system_config import SYSTEM_KINDS, kind_fields, system_kind

__all__ = ["CHUNKED", "KIND", "TABLE_COLUMNS", "build_cases", "check", "plan", "run", "schema"]

KIND = "compliant_sweep"
#: Its ``run`` takes chunk checkpoints and a sweep engine (``regcontact run --resume``, ``--scheduler``).
CHUNKED = True

_PARAMETER_PARSERS = {"positive": cfg.positive, "nonnegative": cfg.nonnegative}


#: A law class, as the config names it.
Law = type[AbstractNormalLaw] | type[AbstractFrictionLaw]


def _law_fields(law: Law, default: Callable[[str], float]) -> dict[str, cfg.Field]:
    return {
        name: cfg.Field(_PARAMETER_PARSERS[kind], default(name), f"{name}: a number ({kind})")
        for name, kind in law.PARAMETERS.items()
    }


def _exponent_fields(law: Law) -> dict[str, cfg.Field]:
    return {name: cfg.Field(cfg.finite, law.EXPONENTS[name], f"α-exponent of {name}") for name in law.PARAMETERS}


def schema(raw: dict[str, Any]) -> dict[str, Any]:
    """The schema of a compliant sweep; the tables of law parameters depend on the laws the config names, and
    ``[sweep]`` takes every sweepable key of the others (:mod:`regcontact.studies.sweep_plan`)."""
    contact = raw.get("contact", {}) if isinstance(raw.get("contact", {}), dict) else {}
    normal_name = contact.get("normal_law", "spring_damper")
    friction_name = contact.get("friction_law", "viscous_coulomb")
    normal = NORMAL_LAWS.get(normal_name, next(iter(NORMAL_LAWS.values())))
    friction = FRICTION_LAWS.get(friction_name, next(iter(FRICTION_LAWS.values())))
    kind = system_kind(raw)
    single = {
        "study": cfg.study_fields(KIND),
        "system": kind_fields(kind),
        "contact": {
            "normal_law": cfg.Field(cfg.choice(*NORMAL_LAWS), "spring_damper", "a normal law name"),
            "friction_law": cfg.Field(cfg.choice(*FRICTION_LAWS), "viscous_coulomb", "a friction law name"),
            "normal": _law_fields(normal, lambda name: 1.0),
            "friction": _law_fields(friction, lambda name: 1.0),
            "normal_exponents": _exponent_fields(normal),
            "friction_exponents": _exponent_fields(friction),
        },
        "solver": {
            "name": cfg.Field(cfg.choice(*IMPLICIT_SOLVERS), "RadauIIA5", "an implicit diffrax solver"),
            "rtol": cfg.Field(cfg.in_open_interval(0.0, 1.0), 1e-10, "relative tolerance"),
            "atol": cfg.Field(cfg.positive, 1e-12, "absolute tolerance"),
            "max_steps": cfg.Field(cfg.positive_int, 100_000, "step budget per run"),
            "restart_at": cfg.Field(
                cfg.list_of(cfg.choice(*RESTART_SURFACES), 0, "surface names"),
                [],
                "switching surfaces to locate and restart at, holding the contact state in between",
            ),
        },
        "termination": {
            "events": cfg.Field(cfg.list_of(cfg.choice(*EVENTS), 0, "event names"), ["contact_open"], "events"),
            "time_limit": cfg.Field(
                cfg.float_or_choice(cfg.positive, "contact_time"), "contact_time", "a time > 0 or 'contact_time'"
            ),
            "contact_times": cfg.Field(cfg.positive, 1.0, "window length in contact times"),
        },
        "references": {
            "impulse_velocity": cfg.Field(cfg.boolean, True, "compare with the impulse-velocity LCP"),
            "time_stepping_dt": cfg.Field(
                cfg.list_of(cfg.positive, 0, "positive time steps"), [], "time steps of the time-stepping LCP"
            ),
        },
        "paper": {
            "source": cfg.Field(str, "", "where the paper's values come from"),
            "alpha": cfg.Field(cfg.list_of(cfg.positive, 0, "positive numbers"), [], "α of the paper's values"),
            "int_lambda_n": cfg.Field(cfg.list_of(cfg.finite, 0, "numbers"), [], "paper's ∫λ_n per alpha"),
            "int_lambda_t": cfg.Field(cfg.list_of(cfg.finite, 0, "numbers"), [], "paper's ∫λ_t per alpha"),
        },
    }
    alpha = cfg.Field(
        cfg.values_of(cfg.positive, "positive numbers"), cfg.REQUIRED, "a non-empty list of α > 0, or a range"
    )
    chunk_size = cfg.Field(
        cfg.positive_int, None, "cases per vmapped call (default: automatic, from the devices and their memory)"
    )
    return {**single, "sweep": {**sweep_fields(single, alpha), "chunk_size": chunk_size}}


def _pruned(table: dict[str, Any]) -> dict[str, Any]:
    """A validated table of swept keys without the keys not swept (``None``) and the tables left empty."""
    kept: dict[str, Any] = {}
    for key, value in table.items():
        if isinstance(value, dict):
            value = _pruned(value)
        if value is not None and value != {}:
            kept[key] = value
    return kept


def plan(config: dict[str, Any]) -> SweepPlan:
    """The axes of a validated compliant study's ``[sweep]``."""
    return plan_sweep(config, schema(config))


def check(config: dict[str, Any], overridden: list[str]) -> list[str]:
    """Cross-field checks a per-key schema cannot express; returns notes on what was resolved.

    ``[sweep]`` keeps only the keys that are swept, and its ``zip`` groups must name swept keys of equal
    lengths. Every distinct system of the sweep passes its kind's check. A contact-time window needs a normal
    law with a linear stiffness (``LINEAR_STIFFNESS``); otherwise the time limit must be given in time units.
    Restarting at ``contact`` needs a law with a touch-down jump.

    The paper's values belong to the system written in the file. If ``--set`` changed a ``system.*`` key or the
    sweep runs over system parameters, they describe another system and are dropped, with a note.
    """
    fixed = {key: config["sweep"][key] for key in (ALPHA, "chunk_size", "zip")}
    config["sweep"] = {**fixed, **_pruned({k: v for k, v in config["sweep"].items() if k not in fixed})}
    axes = plan(config)
    system_keys = [key for key in axes.keys if key.startswith("system.")]
    _, first = axes.distinct(system_keys)
    columns = {key: axes.values(key) for key in system_keys}
    kind_check = SYSTEM_KINDS[config["system"]["kind"]].check
    for case in first:
        kind_check({**config["system"], **{column_name(key): columns[key][case] for key in system_keys}})
    normal_law = config["contact"]["normal_law"]
    limit_key = "termination.time_limit"
    limits = axes.per_case(limit_key, config["termination"]["time_limit"])
    if "contact_time" in limits and NORMAL_LAWS[normal_law].LINEAR_STIFFNESS is None:
        raise cfg.ConfigError(
            limit_key,
            "contact_time",
            f"a time > 0: the normal law {normal_law!r} has no linear stiffness k to define t_c = π √(m_n / k)",
        )
    if "contact" in config["solver"]["restart_at"] and not issubclass(
        NORMAL_LAWS[normal_law], AbstractJumpingNormalLaw
    ):
        raise cfg.ConfigError(
            "solver.restart_at",
            config["solver"]["restart_at"],
            f"no 'contact': the normal law {normal_law!r} has no touch-down jump (no contact_force branch)",
        )
    paper = config["paper"]
    for key in ("int_lambda_n", "int_lambda_t"):
        if paper[key] and len(paper[key]) != len(paper["alpha"]):
            raise cfg.ConfigError(f"paper.{key}", paper[key], f"{len(paper['alpha'])} numbers, one per paper.alpha")
    changed = [key for key in overridden if key.startswith("system.")]
    changed += [f"sweep.{column_name(key)}" for key in system_keys]
    if changed and paper["alpha"]:
        config["paper"] = {**paper, "alpha": [], "int_lambda_n": [], "int_lambda_t": []}
        return [f"paper values not shown: they are for the file's system, and {', '.join(changed)} changed it"]
    return []


#: Columns printed by ``regcontact run`` (the CSV has them all); with several contacts the integrals of contact
#: ``i`` are ``int_lambda_n_i``, ``int_lambda_t_i``.
TABLE_COLUMNS = [
    "alpha",
    *dict.fromkeys(name for kind in SYSTEM_KINDS.values() for name in kind.fields),
    "int_lambda_n",
    "int_lambda_t",
    *(f"int_lambda_{part}_{i}" for i in (1, 2) for part in ("n", "t")),
    "paper_int_lambda_n",
    "paper_int_lambda_t",
    "impulse_velocity_n",
    "impulse_velocity_t",
    *(f"impulse_velocity_{part}_{i}" for i in (1, 2) for part in ("n", "t")),
    "distance_to_impulse_velocity",
    "termination",
    "n_steps",
    "status",
    "check",
]


# -- building the batch --------------------------------------------------------------------------------------


def build_cases(config: dict[str, Any]) -> tuple[list[dict[str, Any]], Case]:
    """One row of swept values per case (``alpha`` first; α varies fastest) and the batched :class:`Case`."""
    built = sweep_cases(config, plan(config))
    return [built.label(i) for i in range(built.size)], built.cases


# -- the study -----------------------------------------------------------------------------------------------


def _paper_values(config: dict[str, Any], alpha: float) -> dict[str, float]:
    paper = config["paper"]
    matches = [i for i, a in enumerate(paper["alpha"]) if np.isclose(a, alpha, rtol=1e-12)]
    if not matches:
        return {}
    values = {}
    for key in ("int_lambda_n", "int_lambda_t"):
        if paper[key]:
            values[f"paper_{key}"] = paper[key][matches[0]]
    return values


def _integral_columns(integrals: ArrayLike, ok: bool) -> dict[str, float | None]:
    """``int_lambda_n``, ``int_lambda_t`` for one contact; ``int_lambda_n_i``, ``int_lambda_t_i`` for several.
    A failed run's integrals are not results: blank (``None``)."""
    pairs = np.asarray(integrals).reshape(-1, 2)
    suffixes = [""] if len(pairs) == 1 else [f"_{i + 1}" for i in range(len(pairs))]
    columns: dict[str, float | None] = {}
    for suffix, (normal, tangential) in zip(suffixes, pairs):
        columns[f"int_lambda_n{suffix}"] = float(normal) if ok else None
        columns[f"int_lambda_t{suffix}"] = float(tangential) if ok else None
    return columns


if TYPE_CHECKING:  # the rigid references (and SciPy) are imported when a study runs, not to validate it
    from regcontact.rigid.references import RigidReferences


def _reference_columns(reference: RigidReferences, integrals: ArrayLike, ok: bool) -> dict[str, Any]:
    """The reference's columns; a failed run has no distance to it."""
    columns: dict[str, Any] = dict(reference.columns(np.asarray(integrals)))
    if not ok and "distance_to_impulse_velocity" in columns:
        columns["distance_to_impulse_velocity"] = None
    return columns


# -- convergence to the rigid references -----------------------------------------------------------------------

#: Decades of δt below the smallest listed one over which the time-stepping solution's own δt → 0 trend is taken.
TREND_DECADES = 3
#: The rigid LCP solutions are exact to round-off: their δt trend is judged at this relative tolerance.
LCP_RTOL = 1e-12


def _trend_steps(listed: list[float]) -> list[float]:
    """The listed steps and ``TREND_DECADES`` decades below the smallest, largest first."""
    smallest = min(listed)
    return sorted({*map(float, listed), *(smallest * 10.0**-j for j in range(1, TREND_DECADES + 1))}, reverse=True)


def _system_convergence(
    alpha: np.ndarray,
    integrals: np.ndarray,
    reference: RigidReferences,
    config: dict[str, Any],
    rtol: float,
    atol: float,
) -> dict[str, Any]:
    """Per reference: order, fit, limit, its distance and warnings (:func:`~regcontact.convergence.analyse`)."""
    shape = integrals.shape[1:]
    entry: dict[str, Any] = {}
    if reference.impulse is None:
        entry["impulse_velocity"] = {"reference": None, "warnings": [f"no reference: {reference.impulse_rule}"]}
    else:
        impulse = np.reshape(reference.impulse, shape)
        entry["impulse_velocity"] = analyse(alpha, integrals, impulse, rtol, atol).as_json()
    listed = config["references"]["time_stepping_dt"]
    if not listed:
        return entry
    entry["time_stepping"] = {}
    for dt in listed:
        step, rule = reference.time_stepping_impulse(dt)
        if step is None:
            entry["time_stepping"][repr(float(dt))] = {"reference": None, "warnings": [f"no reference: {rule}"]}
        else:
            entry["time_stepping"][repr(float(dt))] = analyse(
                alpha, integrals, np.reshape(step, shape), rtol, atol
            ).as_json()
    if reference.impulse is not None:
        steps = _trend_steps(listed)
        chosen = [reference.time_stepping_impulse(dt) for dt in steps]
        kept = [(dt, step) for dt, (step, _) in zip(steps, chosen) if step is not None]
        if len(kept) < 2:
            entry["time_stepping_trend"] = {"warnings": ["fewer than two time steps with a chosen solution: no trend"]}
        else:
            dts = np.array([dt for dt, _ in kept])
            trend = analyse(
                1.0 / dts, [np.reshape(step, shape) for _, step in kept], np.reshape(reference.impulse, shape), LCP_RTOL
            )
            document = trend.as_json()
            document["dt"] = dts.tolist()
            document["fit_dt_range"] = (
                None if trend.fit is None else sorted((1.0 / np.array(trend.fit.alpha_range)).tolist())
            )
            entry["time_stepping_trend"] = document
    return entry


def _convergence(
    config: dict[str, Any], built: SweepCases, runs: CompliantRun, references: list[RigidReferences]
) -> dict[str, Any]:
    """The ``"convergence"`` entry of ``results.json``: for each α-series of the sweep (the cases that agree on
    every swept key but α; labelled ``"system"`` by those keys) and each rigid reference, how the force
    integrals approach it as α grows (failed runs left out, with a warning)."""
    force_integrals, ok = np.asarray(runs.force_integrals), np.asarray(runs.ok)
    axes = built.plan
    alpha_axis = axes.axis_of(ALPHA)
    others = [key for key in axes.keys if axes.axis_of(key) != alpha_axis]
    series, firsts = axes.distinct(others)
    rtols, atols = np.asarray(built.cases.controls.rtol), np.asarray(built.cases.controls.atol)
    entries = []
    for j, first in enumerate(firsts):
        cases = np.flatnonzero(series == j)
        label = {column_name(key): built.labels[column_name(key)][first] for key in others}
        good = cases[ok[cases]]
        if not good.size:
            entries.append({"system": label, "warnings": ["every run failed: no convergence"]})
            continue
        alpha = np.asarray(built.labels[ALPHA])[good]
        integrals = np.reshape(force_integrals[good], (good.size, -1, 2))
        if integrals.shape[1:] == (1, 2):
            integrals = integrals[:, 0]
        reference = references[built.system_ids[first]]
        rtol, atol = float(np.max(rtols[cases])), float(np.max(atols[cases]))
        entry = {"system": label, **_system_convergence(alpha, integrals, reference, config, rtol, atol)}
        warnings = []
        if len(set(built.system_ids[cases].tolist())) > 1:
            warnings.append("the system changes along this α-series: compared with its first case's references")
        if good.size < cases.size:
            left_out = ", ".join(f"{built.labels[ALPHA][i]:g}" for i in cases if not ok[i])
            warnings.append(f"failed runs left out: α = {left_out}")
        if warnings:
            entry["warnings"] = warnings
        entries.append(entry)
    document: dict[str, Any] = {
        "distance": "max-norm over every contact's (n, t) of the force integrals minus the reference",
        "tail_rule": f"last {TAIL_DECADES:g} decades of α (at least {MIN_TAIL_POINTS} points)",
        "drift_tolerance": DRIFT_TOLERANCE,
        "roundoff_floor": f"{ROUNDOFF_FACTOR:g} (rtol · size + atol), size = the largest |reference| or |integral|",
        "time_stepping_trend_dt": "the listed δt and " + f"{TREND_DECADES} decades below the smallest",
        "systems": entries,
    }
    limit_key = "termination.time_limit"
    limits = axes.per_case(limit_key, config["termination"]["time_limit"])
    fixed_times = sorted({limit for limit in limits if limit != "contact_time"})
    if fixed_times:
        document["note"] = (
            f"the runs end at a fixed time ({', '.join(f'{limit:g}' for limit in fixed_times)}), not after the "
            "impulsive phase: the integrals include the forces after it and need not tend to an impulse"
        )
    return document


def _number(value: float) -> str:
    """``1e5``, ``0.01``, ``2.5e-7``: short, for α and δt."""
    return f"{value:.3g}".replace("e+0", "e").replace("e+", "e").replace("e-0", "e-")


def _vector(values: Any) -> str:
    flat = np.ravel(values)
    return "(" + ", ".join(f"{v:.6g}" for v in flat) + ")"


def _reference_line(name: str, entry: dict[str, Any], variable: str = "α") -> list[str]:
    """``impulse_velocity Λ = (…): order 0.503 over α 1e5…1e8 (residual …); limit (…), 2.1e-06 from it``."""
    if entry.get("reference") is None:
        return [f"  {name}: " + "; ".join(entry["warnings"])]
    head = f"  {name} {_vector(entry['reference'])}: "
    if entry["order"] is None:
        head += "no order"
    else:
        low, high = entry["fit_dt_range"] if variable == "δt" else entry["fit_alpha_range"]
        head += f"order {entry['order']:.3f} in {variable} over {variable} {_number(low)}…{_number(high)} "
        head += f"(fit residual {entry['fit_residual']:.1e} decades)"
    if entry["limit"] is not None:
        head += f"; limit {_vector(entry['limit'])}, {entry['distance_of_limit']:.1e} from it"
    return [head, *(f"    warning: {warning}" for warning in entry["warnings"])]


#: Past this many systems the convergence block shows the first and last :data:`SHOWN_SYSTEMS` and counts the
#: warnings (every system is in ``results.json``), so that it fits on a screen.
MAX_PRINTED_SYSTEMS = 10
SHOWN_SYSTEMS = 3


def _convergence_lines(convergence: dict[str, Any]) -> list[str]:
    """The convergence block ``regcontact run`` prints after the table; for many systems, the first and last few
    and each distinct warning once, with the number of systems that have it."""
    lines = [
        "convergence as α → ∞ (d = max-norm distance of the force integrals to the reference, d ∝ α^-order fitted "
        f"over the {convergence['tail_rule']}; limit extrapolated with that order from the last two α):"
    ]
    systems = convergence["systems"]
    if len(systems) <= MAX_PRINTED_SYSTEMS:
        lines += _system_lines(systems)
    else:
        left_out = len(systems) - 2 * SHOWN_SYSTEMS
        first, last = (
            [line for line in _system_lines(part) if not line.lstrip().startswith("warning: ")]
            for part in (systems[:SHOWN_SYSTEMS], systems[-SHOWN_SYSTEMS:])
        )
        lines += [*first, f"… {left_out:,} more systems …", *last]
        counts: dict[str, int] = {}
        for line in _system_lines(systems):
            if line.lstrip().startswith("warning: "):
                counts[line.strip()] = counts.get(line.strip(), 0) + 1
        if counts:
            lines.append(f'warnings over all {len(systems):,} systems (each in results.json, under "convergence"):')
            lines += [f"  {warning} ({count:,} systems)" for warning, count in counts.items()]
    if "note" in convergence:
        lines.append(f"note: {convergence['note']}")
    return lines


def _system_lines(systems: list[dict[str, Any]]) -> list[str]:
    """The convergence lines of each system: its label, its warnings and one line per reference."""
    lines: list[str] = []
    for entry in systems:
        if entry["system"]:
            lines.append("system " + ", ".join(f"{k}={v:g}" for k, v in entry["system"].items()) + ":")
        lines += [f"  warning: {warning}" for warning in entry.get("warnings", [])]
        if "impulse_velocity" in entry:
            lines += _reference_line("impulse_velocity Λ =", entry["impulse_velocity"])
        for dt, step in entry.get("time_stepping", {}).items():
            lines += _reference_line(f"time_stepping δt = {_number(float(dt))}, δt·λ̃ =", step)
        if "time_stepping_trend" in entry:
            trend = entry["time_stepping_trend"]
            if "order" in trend:
                lines += _reference_line("time stepping δt·λ̃ → Λ as δt → 0, Λ =", trend, "δt")
            else:
                lines += [f"  time stepping as δt → 0: {'; '.join(trend['warnings'])}"]
    return lines


def _shown(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float | int) and not isinstance(value, bool) else str(value)


def _failure_line(row: dict[str, Any], keys: list[str]) -> str:
    """``alpha=1e+06, mu=1.5, phi0=0.9: max_steps_reached`` (every swept key, the status, a failed check)."""
    values = ", ".join(f"{name}={_shown(row[name])}" for name in keys)
    reason = row["status"] if row["check"] == "passed" else f"{row['status']}, check {row['check']} failed"
    return f"{values}: {reason}"


def _axes_line(built: SweepCases) -> str:
    """``1600 cases: 40 mu × 40 phi0 × 1 alpha`` (zipped keys joined by ``+``)."""
    axes = " × ".join(f"{axis.length} {'+'.join(map(column_name, axis.keys))}" for axis in built.plan.axes)
    return f"{built.size} cases: {axes}, {len(built.system_tables)} distinct system(s)"


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
    built = sweep_cases(config, plan(config))
    cases = built.cases
    settings = SolveSettings(
        solver=config["solver"]["name"],
        events=tuple(config["termination"]["events"]),
        max_steps=config["solver"]["max_steps"],
        restart_at=tuple(config["solver"]["restart_at"]),
    )
    progress(_axes_line(built))

    systems = [jtu.tree_map(lambda leaf, j=j: leaf[j], built.systems) for j in range(len(built.system_tables))]
    listed = config["references"]["time_stepping_dt"]
    from regcontact.rigid.references import ReferenceOptions, rigid_references_batch

    options = ReferenceOptions(config["references"]["impulse_velocity"], tuple(listed))
    references = rigid_references_batch(systems, options, _trend_steps(listed) if listed else ())
    devices = sweep_devices()
    chunk = sweep_chunk_size(cases, devices, config["sweep"]["chunk_size"])
    done: dict[int, CompliantRun] = {}
    if checkpoints is not None:
        chunk, done = checkpoints.resume(built.size, chunk)
        if done:
            progress(f"resuming: {checkpoints.summary()}")
    engine = engine or LocalEngine()
    runs, timings = engine.sweep(
        cases,
        settings,
        chunk,
        progress,
        devices,
        done,
        None if checkpoints is None else checkpoints.save,
        announce_above,
    )
    impulsive, end_modes = (np.asarray(codes) for codes in classify(cases, runs, settings))

    events = ("time_limit", *settings.events)
    t_max = np.asarray(cases.controls.t_max)  # on the host: indexing a device array per row dispatches per row
    rows, partial = [], []
    for i in range(built.size):
        label = built.label(i)
        reference = references[built.system_ids[i]]
        integrals = runs.force_integrals[i]
        status, check = SOLVER_STATUSES[int(runs.status[i])], RUN_CHECKS[int(runs.check[i])]
        ok = bool(runs.ok[i])
        row = {
            **label,
            # A failed run's integrals are not results: blank here, kept in the JSON under "partial_results".
            **_integral_columns(integrals, ok),
            **_paper_values(config, label["alpha"]),
            **_reference_columns(reference, integrals, ok),
            "t_end": float(runs.t_end[i]),
            "t_max": float(t_max[i]),
            "termination": events[int(runs.termination[i])] if ok else "failed",
            "n_steps": int(runs.num_steps[i]),
            "n_accepted": int(runs.num_accepted_steps[i]),
            "n_rejected": int(runs.num_rejected_steps[i]),
            "n_restarts": int(runs.num_restarts[i]),
            "status": status,
            "check": check,
            # What the run did (regcontact.compliant.outcome): an impulse or not, and how it ended.
            "impulsive": bool(impulsive[i]) if ok else None,
            "end_mode": END_MODES[int(end_modes[i])] if ok else None,
        }
        rows.append(row)
        if not ok:
            partial.append(
                {
                    **label,
                    **_integral_columns(integrals, True),
                    "t_end": row["t_end"],
                    "stopped_by": events[int(runs.termination[i])],
                    "status": status,
                    "check": check,
                }
            )

    failed = [row for row in rows if row["termination"] == "failed"]
    convergence = _convergence(config, built, runs, references)
    system_keys = [column_name(key) for key in built.plan.keys if key.startswith("system.")]
    return StudyResult(
        name=config["study"]["name"],
        kind=KIND,
        rows=rows,
        references=(
            {
                "systems": [
                    {"system": {k: table[k] for k in system_keys}, **reference.as_json()}
                    for table, reference in zip(built.system_tables, references)
                ]
            }
            if system_keys
            else references[0].as_json()
        ),
        solver_statistics={
            "solver": settings.solver,
            "rtol": config["solver"]["rtol"],
            "atol": config["solver"]["atol"],
            "accepted_steps_total": int(np.sum(runs.num_accepted_steps)),
            "rejected_steps_total": int(np.sum(runs.num_rejected_steps)),
            "accepted_steps_max": int(np.max(runs.num_accepted_steps)),
            "failed_cases": len(failed),
        },
        timings={"compile_s": timings.compile_s, "solve_s": timings.run_s},
        failures=[_failure_line(row, list(built.labels)) for row in failed],
        summary=_convergence_lines(convergence),
        extra={"convergence": convergence, **({"partial_results": partial} if partial else {})},
        device=engine.describe(devices),
        grid=[
            GridAxis(
                column_name(axis.keys[0]),
                {column_name(key): list(values) for key, values in zip(axis.keys, axis.values)},
            )
            for axis in built.plan.axes
        ],
    )
