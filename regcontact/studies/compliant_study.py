"""The convergence study of the compliant Painlevé rod: sweep α (and optionally rod parameters) to the rigid limit.

For each case the rod is integrated from its initial state (Preclik Sec. 2.1) with the compliant contact at
stiffness multiplier α until the run's termination rule, and the force integrals ``∫λ_n dt, ∫λ_t dt`` are set
beside the rigid predictions for the same rod: the impulse-velocity LCP (Sec. 3) and, where asked, the
time-stepping LCP (Sec. 4). All cases run in one vmapped, jitted call (chunked).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
from jaxtyping import ArrayLike

from regcontact.compliant.devices import describe_devices, sweep_devices
from regcontact.compliant.outcome import END_MODES, classify
from regcontact.compliant.run_checks import RUN_CHECKS
from regcontact.compliant.simulate import (
    IMPLICIT_SOLVERS,
    SOLVER_STATUSES,
    Case,
    Controls,
    SolveSettings,
    sweep,
)
from regcontact.compliant.switches import RESTART_SURFACES
from regcontact.compliant.termination import EVENTS, contact_time
from regcontact.contact.contact_model import ContactModel
from regcontact.contact.friction_laws import FRICTION_LAWS, AbstractFrictionLaw
from regcontact.contact.normal_laws import NORMAL_LAWS, AbstractJumpingNormalLaw, AbstractNormalLaw
from regcontact.convergence import DRIFT_TOLERANCE, MIN_TAIL_POINTS, ROUNDOFF_FACTOR, TAIL_DECADES, analyse
from regcontact.rigid.references import MultiContactReferences, RigidReferences, rigid_references_batch
from regcontact.studies import config as cfg
from regcontact.studies.study_result import StudyResult
from regcontact.studies.system_config import (
    SYSTEM_KINDS,
    initial_penetration,
    kind_fields,
    system_from_config,
    system_kind,
)

__all__ = ["KIND", "TABLE_COLUMNS", "build_cases", "check", "run", "schema", "swept_systems"]

KIND = "compliant_sweep"

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
    """The schema of a compliant sweep; the tables of law parameters depend on the laws the config names."""
    contact = raw.get("contact", {}) if isinstance(raw.get("contact", {}), dict) else {}
    normal_name = contact.get("normal_law", "spring_damper")
    friction_name = contact.get("friction_law", "viscous_coulomb")
    normal = NORMAL_LAWS.get(normal_name, next(iter(NORMAL_LAWS.values())))
    friction = FRICTION_LAWS.get(friction_name, next(iter(FRICTION_LAWS.values())))
    kind = system_kind(raw)
    sweep_axes = {
        name: cfg.Field(cfg.values_of(field.parse, "values"), None, f"values of system.{name} to sweep")
        for name, field in SYSTEM_KINDS[kind].fields.items()
    }
    return {
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
        "sweep": {
            "alpha": cfg.Field(
                cfg.values_of(cfg.positive, "positive numbers"), cfg.REQUIRED, "a non-empty list of α > 0, or a range"
            ),
            "chunk_size": cfg.Field(
                cfg.positive_int, None, "cases per vmapped call (default: automatic, from the devices and their memory)"
            ),
            **sweep_axes,
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


def check(config: dict[str, Any], overridden: list[str]) -> list[str]:
    """Cross-field checks a per-key schema cannot express; returns notes on what was resolved.

    A contact-time window needs a normal law with a linear stiffness (``LINEAR_STIFFNESS``); otherwise the time
    limit must be given in time units. Restarting at ``contact`` needs a law with a touch-down jump.

    The paper's values belong to the system written in the file. If ``--set`` changed a ``system.*`` key or the
    sweep runs over system parameters, they describe another system and are dropped, with a note.
    """
    for system in swept_systems(config)[1]:
        SYSTEM_KINDS[config["system"]["kind"]].check(system)
    normal_law = config["contact"]["normal_law"]
    if config["termination"]["time_limit"] == "contact_time" and NORMAL_LAWS[normal_law].LINEAR_STIFFNESS is None:
        raise cfg.ConfigError(
            "termination.time_limit",
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
    changed += [f"sweep.{name}" for name in _system_keys(config) if config["sweep"][name] is not None]
    if changed and paper["alpha"]:
        config["paper"] = {**paper, "alpha": [], "int_lambda_n": [], "int_lambda_t": []}
        return [f"paper values not shown: they are for the file's system, and {', '.join(changed)} changed it"]
    return []


def _system_keys(config: dict[str, Any]) -> list[str]:
    return list(SYSTEM_KINDS[config["system"]["kind"]].fields)


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


def _contact(contact: dict[str, Any]) -> ContactModel:
    normal = NORMAL_LAWS[contact["normal_law"]]
    friction = FRICTION_LAWS[contact["friction_law"]]
    return ContactModel(
        normal=normal(**contact["normal"]),
        friction=friction(**contact["friction"]),
        normal_exponents=normal(**contact["normal_exponents"]),
        friction_exponents=friction(**contact["friction_exponents"]),
    )


def swept_systems(config: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """The swept system keys and one full system table per combination of their values."""
    axes = [name for name in _system_keys(config) if config["sweep"][name] is not None]
    combos = itertools.product(*(config["sweep"][name] for name in axes))
    return axes, [{**config["system"], **dict(zip(axes, values))} for values in combos]


def _stack(trees: list) -> Any:
    return jtu.tree_map(lambda *leaves: jnp.stack(leaves), *trees)


def build_cases(config: dict[str, Any]) -> tuple[list[dict[str, Any]], Case]:
    """One row of swept values per case (systems outer, α inner) and the batched :class:`Case`."""
    axes, systems = swept_systems(config)
    contact = _contact(config["contact"])
    termination, solver = config["termination"], config["solver"]
    labels, cases = [], []
    for system in systems:
        built = system_from_config(system)
        for alpha in config["sweep"]["alpha"]:
            if termination["time_limit"] == "contact_time":
                normal = contact.at_stiffness(alpha)[0]
                name = type(normal).LINEAR_STIFFNESS
                assert name is not None  # check() refuses a contact-time window for a law without one
                stiffness = getattr(normal, name)
                t_max = termination["contact_times"] * contact_time(built, stiffness)
            else:
                t_max = termination["time_limit"]
            controls = Controls(rtol=solver["rtol"], atol=solver["atol"], t_max=t_max)
            depth = initial_penetration(system, alpha)
            cases.append(Case(system=built, contact=contact, alpha=alpha, controls=controls, penetration=depth))
            labels.append({"alpha": alpha, **{name: system[name] for name in axes}})
    return labels, _stack(cases)


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


References = RigidReferences | MultiContactReferences


def _reference_columns(reference: References, integrals: ArrayLike, ok: bool) -> dict[str, Any]:
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
    alpha: np.ndarray, integrals: np.ndarray, reference: References, config: dict[str, Any]
) -> dict[str, Any]:
    """Per reference: order, fit, limit, its distance and warnings (:func:`~regcontact.convergence.analyse`)."""
    rtol, atol = config["solver"]["rtol"], config["solver"]["atol"]
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
    config: dict[str, Any],
    labels: list[dict[str, Any]],
    force_integrals: ArrayLike,
    ok: ArrayLike,
    references: list[References],
    axes: list[str],
    systems: list[dict[str, Any]],
) -> dict[str, Any]:
    """The ``"convergence"`` entry of ``results.json``: for each swept system and each rigid reference, how the
    force integrals approach it as α grows (failed runs left out, with a warning)."""
    force_integrals, ok = np.asarray(force_integrals), np.asarray(ok)
    per_system = len(config["sweep"]["alpha"])
    entries = []
    for j, (system, reference) in enumerate(zip(systems, references)):
        cases = range(j * per_system, (j + 1) * per_system)
        good = [i for i in cases if ok[i]]
        if not good:
            entries.append({"system": {k: system[k] for k in axes}, "warnings": ["every run failed: no convergence"]})
            continue
        alpha = np.array([labels[i]["alpha"] for i in good])
        integrals = np.array([np.reshape(force_integrals[i], (-1, 2)) for i in good])
        if integrals.shape[1:] == (1, 2):
            integrals = integrals[:, 0]
        entry = {"system": {k: system[k] for k in axes}, **_system_convergence(alpha, integrals, reference, config)}
        if len(good) < per_system:
            left_out = ", ".join(f"{labels[i]['alpha']:g}" for i in cases if not ok[i])
            entry["warnings"] = [f"failed runs left out: α = {left_out}"]
        entries.append(entry)
    document: dict[str, Any] = {
        "distance": "max-norm over every contact's (n, t) of the force integrals minus the reference",
        "tail_rule": f"last {TAIL_DECADES:g} decades of α (at least {MIN_TAIL_POINTS} points)",
        "drift_tolerance": DRIFT_TOLERANCE,
        "roundoff_floor": f"{ROUNDOFF_FACTOR:g} (rtol · size + atol), size = the largest |reference| or |integral|",
        "time_stepping_trend_dt": "the listed δt and " + f"{TREND_DECADES} decades below the smallest",
        "systems": entries,
    }
    if config["termination"]["time_limit"] != "contact_time":
        document["note"] = (
            f"the runs end at a fixed time ({config['termination']['time_limit']:g}), not after the impulsive "
            "phase: the integrals include the forces after it and need not tend to an impulse"
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


def _convergence_lines(convergence: dict[str, Any]) -> list[str]:
    """The convergence block ``regcontact run`` prints after the table."""
    lines = [
        "convergence as α → ∞ (d = max-norm distance of the force integrals to the reference, d ∝ α^-order fitted "
        f"over the {convergence['tail_rule']}; limit extrapolated with that order from the last two α):"
    ]
    for entry in convergence["systems"]:
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
    if "note" in convergence:
        lines.append(f"note: {convergence['note']}")
    return lines


def _failure_line(row: dict[str, Any], axes: list[str]) -> str:
    """``alpha=1e+06, mu=1.5, phi0=0.9: max_steps_reached`` (every swept key, the status, a failed check)."""
    keys = ", ".join(f"{name}={row[name]:g}" for name in ("alpha", *axes))
    reason = row["status"] if row["check"] == "passed" else f"{row['status']}, check {row['check']} failed"
    return f"{keys}: {reason}"


def run(config: dict[str, Any], progress: Callable[[str], None] = lambda message: None) -> StudyResult:
    """Run the sweep and return its table, references, solver statistics and timings."""
    labels, cases = build_cases(config)
    settings = SolveSettings(
        solver=config["solver"]["name"],
        events=tuple(config["termination"]["events"]),
        max_steps=config["solver"]["max_steps"],
        restart_at=tuple(config["solver"]["restart_at"]),
    )
    axes, systems = swept_systems(config)
    progress(f"{len(labels)} cases: {len(systems)} system(s) × {len(config['sweep']['alpha'])} values of α")

    built = [system_from_config(system) for system in systems]
    references = rigid_references_batch(built, config["references"])
    devices = sweep_devices()
    runs, timings = sweep(
        cases, settings, chunk_size=config["sweep"]["chunk_size"], progress=progress, devices=devices, progress_bar=True
    )
    impulsive, end_modes = (np.asarray(codes) for codes in classify(cases, runs, settings))

    events = ("time_limit", *settings.events)
    per_system = len(config["sweep"]["alpha"])
    rows, partial = [], []
    for i, label in enumerate(labels):
        reference = references[i // per_system]
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
            "t_max": float(cases.controls.t_max[i]),
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
    convergence = _convergence(config, labels, runs.force_integrals, runs.ok, references, axes, systems)
    return StudyResult(
        name=config["study"]["name"],
        kind=KIND,
        rows=rows,
        references=(
            {
                "systems": [
                    {"system": {k: system[k] for k in axes}, **reference.as_json()}
                    for system, reference in zip(systems, references)
                ]
            }
            if axes
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
        failures=[_failure_line(row, axes) for row in failed],
        summary=_convergence_lines(convergence),
        extra={"convergence": convergence, **({"partial_results": partial} if partial else {})},
        device=describe_devices(devices),
    )
