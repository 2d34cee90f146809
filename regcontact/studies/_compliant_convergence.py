"""The ``"convergence"`` entry of a compliant study's ``results.json``: how each α-series approaches each rigid
reference and the compliant limit (:func:`regcontact.convergence.analyse`), which of the impulse-velocity and
the compliant-limit impulses it converges to, and how the time-stepping solution itself tends to the impulse as
δt → 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from regcontact.compliant import CompliantRun
from regcontact.compliant.outcome import IMPULSIVE_FACTOR
from regcontact.convergence import (
    DRIFT_TOLERANCE,
    MIN_ORDER,
    MIN_TAIL_POINTS,
    ROUNDOFF_FACTOR,
    TAIL_DECADES,
    analyse,
)
from regcontact.studies._compliant_limit_reference import LimitReference, LimitReferences
from regcontact.studies.compliant_cases import SweepCases
from regcontact.studies.compliant_sweep import CompliantSweep
from regcontact.studies.sweep_plan import ALPHA, column_name

if TYPE_CHECKING:  # the rigid references (and SciPy) are imported when a study runs, not to validate it
    from regcontact.rigid import RigidReferences

__all__ = ["CONVERGES_TO_RULE", "LCP_RTOL", "TREND_DECADES", "converges_to", "convergence", "trend_steps"]

#: Decades of δt below the smallest listed one over which the time-stepping solution's own δt → 0 trend is taken.
TREND_DECADES = 3
#: The rigid LCP solutions are exact to round-off: their δt trend is judged at this relative tolerance.
LCP_RTOL = 1e-12


def trend_steps(listed: tuple[float, ...]) -> list[float]:
    """The listed steps and ``TREND_DECADES`` decades below the smallest, largest first."""
    smallest = min(listed)
    return sorted({*map(float, listed), *(smallest * 10.0**-j for j in range(1, TREND_DECADES + 1))}, reverse=True)


#: Which of the two impact references an α-series converges to (docs/convergence.md, "Which law").
CONVERGES_TO_RULE = (
    f"a reference the integrals converge to: the order fitted over the tail and the local order of its last "
    f"interval both ≥ {MIN_ORDER:g}, or the last two distances at round-off"
)


def _approached(entry: dict[str, Any]) -> bool:
    """Whether an analysed reference passes :data:`CONVERGES_TO_RULE`."""
    distances, floor = entry["distances"], entry["roundoff_floor"]
    if len(distances) >= 2 and max(distances[-2:]) <= floor:
        return True
    order, local = entry["order"], entry["local_orders"]
    return order is not None and order >= MIN_ORDER and bool(local) and local[-1] >= MIN_ORDER


def converges_to(impulse: dict[str, Any], limit: dict[str, Any]) -> dict[str, Any]:
    """Which of the impulse-velocity and compliant-limit references (their :func:`analyse` documents) the
    integrals converge to (:data:`CONVERGES_TO_RULE`: none, one or both), and how far apart the two laws are."""
    names = [name for name, entry in (("impulse_velocity", impulse), ("compliant_limit", limit)) if _approached(entry)]
    apart = float(np.max(np.abs(np.subtract(impulse["reference"], limit["reference"]))))
    return {"references": names, "laws_differ_by": apart}


def _limit_convergence(
    alpha: np.ndarray, integrals: np.ndarray, limit: LimitReference, rtol: float, atol: float
) -> dict[str, Any]:
    """The compliant limit analysed as the other references are, with the velocity after the limit impact."""
    if limit.impulse is None:
        return {"reference": None, "warnings": [f"no reference: {limit.absent_because}"]}
    assert limit.velocity_after is not None
    document = analyse(alpha, integrals, np.reshape(limit.impulse, integrals.shape[1:]), rtol, atol).as_json()
    return {
        **document,
        "velocity_after": limit.velocity_after.tolist(),
        "ended": limit.ended,
        "friction_during_impact": limit.friction,
    }


def _system_convergence(
    alpha: np.ndarray,
    integrals: np.ndarray,
    reference: RigidReferences,
    limit: LimitReference,
    time_steps: tuple[float, ...],
    rtol: float,
    atol: float,
) -> dict[str, Any]:
    """Per reference: order, fit, limit, its distance and warnings (:func:`~regcontact.convergence.analyse`);
    which impact law the integrals converge to, where both exist."""
    shape = integrals.shape[1:]
    entry: dict[str, Any] = {}
    if reference.impulse is None:
        entry["impulse_velocity"] = {"reference": None, "warnings": [f"no reference: {reference.impulse_rule}"]}
    else:
        impulse = np.reshape(reference.impulse, shape)
        entry["impulse_velocity"] = analyse(alpha, integrals, impulse, rtol, atol).as_json()
    entry["compliant_limit"] = _limit_convergence(alpha, integrals, limit, rtol, atol)
    if entry["impulse_velocity"]["reference"] is not None and entry["compliant_limit"]["reference"] is not None:
        entry["converges_to"] = converges_to(entry["impulse_velocity"], entry["compliant_limit"])
    if not time_steps:
        return entry
    entry["time_stepping"] = {}
    for dt in time_steps:
        step, rule = reference.time_stepping_impulse(dt)
        if step is None:
            entry["time_stepping"][repr(float(dt))] = {"reference": None, "warnings": [f"no reference: {rule}"]}
        else:
            entry["time_stepping"][repr(float(dt))] = analyse(
                alpha, integrals, np.reshape(step, shape), rtol, atol
            ).as_json()
    if reference.impulse is not None:
        steps = trend_steps(time_steps)
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


def convergence(
    sweep: CompliantSweep,
    batch: SweepCases,
    runs: CompliantRun,
    references: list[RigidReferences],
    limits: LimitReferences,
    impulsive: np.ndarray,
) -> dict[str, Any]:
    """The ``"convergence"`` entry of ``results.json``: for each α-series of the sweep (the cases that agree on
    every swept key but α; labelled ``"system"`` by those keys) and each reference, how the force integrals
    approach it as α grows (failed runs left out, with a warning), and which impact law they converge to where
    both the impulse-velocity and the compliant-limit references exist and some run of the series had an
    impulsive phase in its window (``impulsive``, per case: :func:`~regcontact.compliant.outcome.classify`); a
    series without one gets a warning instead of a verdict, since integrals that hold no impulse say nothing
    about an impact law."""
    force_integrals, ok = np.asarray(runs.force_integrals), np.asarray(runs.ok)
    others, series, firsts = sweep.alpha_series()
    rtols, atols = sweep.numbers("solver.rtol"), sweep.numbers("solver.atol")
    entries = []
    for j, first in enumerate(firsts):
        cases = np.flatnonzero(series == j)
        label = {column_name(key): sweep.labels[column_name(key)][first] for key in others}
        good = cases[ok[cases]]
        if not good.size:
            entries.append({"system": label, "warnings": ["every run failed: no convergence"]})
            continue
        alpha = sweep.alpha[good]
        integrals = np.reshape(force_integrals[good], (good.size, -1, 2))
        if integrals.shape[1:] == (1, 2):
            integrals = integrals[:, 0]
        reference = references[batch.system_ids[first]]
        rtol, atol = float(np.max(rtols[cases])), float(np.max(atols[cases]))
        entry = {
            "system": label,
            **_system_convergence(
                alpha, integrals, reference, limits.of_case(first), sweep.time_stepping_dt, rtol, atol
            ),
        }
        warnings = []
        if not np.any(impulsive[good]):
            entry.pop("converges_to", None)
            warnings.append(
                "no run of this α-series had an impulsive phase in its window (∫Σλ_n within "
                f"{IMPULSIVE_FACTOR:g} times what the slow forces give in the run's time): its integrals hold no "
                "impulse, so no verdict on the impact law they approach"
            )
        if len(set(batch.system_ids[cases].tolist())) > 1:
            warnings.append("the system changes along this α-series: compared with its first case's references")
        if len(set(limits.ids[cases].tolist())) > 1:
            warnings.append("the contact model changes along this α-series: compared with its first case's limit")
        if good.size < cases.size:
            left_out = ", ".join(f"{sweep.labels[ALPHA][i]:g}" for i in cases if not ok[i])
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
        "converges_to_rule": CONVERGES_TO_RULE,
        "systems": entries,
    }
    # Only runs that reached a fixed time limit hold forces after their impulsive phase: a run an event ended
    # (the contact opened) does not, whatever its limit was.
    at_limit = (np.asarray(runs.termination) == 0) & ok
    time_limits = sweep.per_case("termination.time_limit")
    fixed_times = sorted({time_limits[i] for i in np.flatnonzero(at_limit) if not isinstance(time_limits[i], str)})
    if fixed_times:
        document["note"] = (
            f"the runs end at a fixed time ({', '.join(f'{limit:g}' for limit in fixed_times)}), not after the "
            "impulsive phase: the integrals include the forces after it (e.g. the weight of a body left resting on "
            "the ground) and need not tend to an impulse; a distance to a reference that does not fall is what such "
            "a study measures, not a failed run"
        )
    return document
