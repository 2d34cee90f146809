"""The ``spatial_crossing`` study kind: a slipping spatial contact crossing ``p(ϕ) = 0`` away from the G-spot, run
through the crossing by the compliant model for a list of α (``docs/spatial_contact.md``)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from typing import Any, final

import numpy as np

from regcontact.convergence import MIN_ORDER, fit_order, why_no_order
from regcontact.studies import config as cfg
from regcontact.studies._study_kind import AbstractStudyKind, Estimate
from regcontact.studies.study_result import StudyResult
from regcontact.studies.study_size import BASE_BYTES, SAMPLE_BYTES, STARTUP_S, DeviceSet, lengths
from regcontact.studies.system_config import kind_fields, spatial_system_from_config, system_kind

__all__ = ["SpatialCrossingStudy", "reference"]

# From the shipped study's cold runs (its results.json timings, load factor about 2).
CROSSING_RIGID_S = 12.0
CROSSING_COMPILE_S = 8.0
CROSSING_RUN_S = 0.3

_KIND = "spatial_crossing"

_TABLE_COLUMNS = [
    "alpha",
    "outcome",
    "excess_impulse_n",
    "impulse_error",
    "velocity_error",
    "slip_speed_after",
    "bounce",
    "end_slip_x1",
    "end_slip_x2",
    "ok",
]

#: The distances whose order in α is fitted, by column.
FITTED = ("impulse_error", "velocity_error", "bounce")


def reference(config: dict[str, Any]):
    """The system of a validated config and its rigid slip to the crossing; ``ConfigError`` if the slip does not
    reach one."""
    from regcontact.rigid import crossing_reference

    system = spatial_system_from_config(config["system"])
    try:
        return system, crossing_reference(system)
    except ValueError as error:
        raise cfg.ConfigError(
            "system.slip0", config["system"]["slip0"], f"a start whose rigid slip crosses p = 0 ({error})"
        ) from None


def _reference_entry(system, found) -> dict[str, Any]:
    rows = np.asarray(system.jacobians(found.q)[0])
    slip = rows[1:] @ found.v
    impact = found.impact
    return {
        "t_cross": found.t_cross,
        "free_normal_acceleration": found.free_normal_acceleration,
        "slip_at_crossing": slip.tolist(),
        "slip_impulse": list(found.impulse),
        "q_cross": found.q.tolist(),
        "v_cross": found.v.tolist(),
        "impact_without_collision": {
            "normal_impulse": float(impact.normal_impulse),
            "normal_impulse_in_slip": float(impact.slip_impulse),
            "tangential_impulse": np.asarray(impact.tangential_impulse).tolist(),
            "v_after": np.asarray(impact.v_after).tolist(),
            "slip_stopped": bool(impact.slip_stopped),
            "stick_in_cone": bool(impact.stick_in_cone),
        },
    }


def _outcomes_line(alpha: np.ndarray, outcomes: list[str]) -> str:
    if len(set(outcomes)) == 1:
        return f"compliant: {outcomes[0]} at every α ({alpha[0]:g} … {alpha[-1]:g})"
    return "compliant: the outcome changes with α: " + ", ".join(f"{o} at {a:g}" for a, o in zip(alpha, outcomes))


@final
class SpatialCrossingStudy(AbstractStudyKind):
    """``kind = "spatial_crossing"``: the rigid slip of a spatial rod to its crossing and the impact without collision
    there, against compliant runs through the crossing at a sweep of α: each run's outcome, its distances to the
    rigid impulse and velocities, and their orders in α."""

    NAME = _KIND
    TABLE_COLUMNS = _TABLE_COLUMNS

    def schema(self, raw: dict[str, Any]) -> dict[str, Any]:
        from regcontact.studies._law_config import memoryless_normal_law

        return {
            "study": cfg.study_fields(_KIND),
            "system": kind_fields(system_kind(raw, spatial=True)),
            "compliant": {
                "alpha": cfg.alpha_field(ascending=True),
                "normal_law": cfg.Field(
                    memoryless_normal_law("compliant.normal_law"),
                    "spring_damper",
                    "the normal law (a name or a class path), its constructor's parameters at α = 1 and its default "
                    "α-exponents",
                ),
                "friction_damping_exponent": cfg.Field(
                    cfg.finite, 1.0, "e in γ_t = α^e of the friction disk (≥ 1: Coulomb's law during the impulse)"
                ),
                "window": cfg.Field(cfg.positive, 0.3, "each run ends at t* + window"),
                "samples": cfg.Field(cfg.positive_int, 300, "sample times around the crossing"),
                **cfg.solve_fields(1e-8, 1e-12),
            },
        }

    def check(self, config: dict[str, Any], overridden: list[str]) -> list[str]:
        del overridden
        _, found = reference(config)
        if not bool(found.impact.stick_in_cone):
            return ["the rigid IWC's stick phase leaves the friction cone: its impulse has no rule there"]
        return []

    def estimate(self, config: Mapping[str, Any], devices: DeviceSet) -> Estimate:
        del devices
        (alphas,) = lengths(config, "compliant.alpha")
        phases = {
            "start": STARTUP_S,
            "rigid slip": CROSSING_RIGID_S,
            "compile": CROSSING_COMPILE_S,
            "solve": alphas * CROSSING_RUN_S,
        }
        memory = BASE_BYTES + alphas * config["compliant"]["samples"] * SAMPLE_BYTES
        return Estimate(alphas, f"{alphas} α", memory, phases)

    def run(self, config: dict[str, Any], progress: Callable[[str], None] = lambda message: None) -> StudyResult:
        from regcontact.contact import ContactModel, ViscousCoulomb
        from regcontact.passages import pass_through
        from regcontact.studies._law_config import normal_law_class

        compliant = config["compliant"]
        alpha = np.asarray(compliant["alpha"], dtype=float)
        progress("rigid slip to the crossing of p = 0 and the impact without collision there")
        start = time.perf_counter()
        system, found = reference(config)
        timings = {"rigid_s": time.perf_counter() - start}
        contact = ContactModel(
            normal=normal_law_class(compliant["normal_law"])(),
            friction_exponents=ViscousCoulomb(compliant["friction_damping_exponent"]),
        )
        progress(f"compliant model at {len(alpha)} values of α (one vmapped call)")
        start = time.perf_counter()
        passage = pass_through(
            system,
            contact,
            alpha,
            found,
            window=compliant["window"],
            samples=compliant["samples"],
            rtol=compliant["rtol"],
            atol=compliant["atol"],
        )
        result = passage.classify(system, found)
        timings["compliant_s"] = time.perf_counter() - start
        outcomes = result.outcome_names
        rows, failures = [], []
        for i, a in enumerate(alpha):
            ok = outcomes[i] != "failed"
            if not ok:
                failures.append(f"α = {a:g}: the compliant run failed")
            rows.append(
                {
                    "alpha": float(a),
                    "outcome": outcomes[i],
                    "excess_impulse_n": float(result.impulse[i, 0]),
                    "excess_impulse_t1": float(result.impulse[i, 1]),
                    "excess_impulse_t2": float(result.impulse[i, 2]),
                    "impulse_error": float(result.impulse_error[i]),
                    "velocity_error": float(result.velocity_error[i]),
                    "slip_speed_after": float(result.slip_after[i]),
                    "normal_velocity_after": float(result.normal_velocity_after[i]),
                    "bounce": float(result.bounce[i]),
                    "end_slip_x1": float(result.end_slip[i, 0]),
                    "end_slip_x2": float(result.end_slip[i, 1]),
                    "end_closed": bool(result.end_closed[i]),
                    "ok": ok,
                }
            )
        entry = _reference_entry(system, found)
        orders: dict[str, dict[str, Any] | None] = {}
        for column in FITTED:
            values = np.array([row[column] for row in rows])
            fit = fit_order(alpha, values) if np.all(values > 0) else None
            orders[column] = None if fit is None else {"order": fit.order, "alpha_range": list(fit.alpha_range)}
        impact = entry["impact_without_collision"]
        slip = entry["slip_at_crossing"]
        summary = [
            f"rigid: the slip crosses p = 0 at t* = {found.t_cross:.6g} with b = {found.free_normal_acceleration:.4g} "
            f"and slip ({slip[0]:.4g}, {slip[1]:.4g}) (direction {math.atan2(slip[1], slip[0]):.4g} rad); normal "
            f"impulse of the slip up to t*: {found.impulse[0]:.6g}",
            f"rigid IWC at the crossing: normal impulse {impact['normal_impulse']:.6g} "
            f"({impact['normal_impulse_in_slip']:.6g} in slip), tangential "
            f"({impact['tangential_impulse'][0]:.6g}, {impact['tangential_impulse'][1]:.6g}); "
            + ("the slip stops" if impact["slip_stopped"] else "the slip does not stop")
            + (
                ""
                if impact["stick_in_cone"]
                else "; its stick phase leaves the cone (no rule: distances not meaningful)"
            ),
            _outcomes_line(alpha, outcomes),
        ]
        for column, label in zip(FITTED, ("impulse − IWC's", "velocities − IWC's v⁺", "bounce height")):
            order = orders[column]
            last = rows[-1][column]
            if order is None:
                values = np.array([row[column] for row in rows])
                why = why_no_order(alpha) or f"{int(np.sum(~(values > 0)))} value(s) not positive"
                summary.append(f"{label}: {last:.3g} at α = {alpha[-1]:g}; no order ({why})")
                continue
            trend = "falls" if order["order"] >= MIN_ORDER else "does not fall"
            summary.append(
                f"{label}: {last:.3g} at α = {alpha[-1]:g}, {trend} at order {order['order']:.2f} in α "
                f"(fitted over {order['alpha_range'][0]:g} … {order['alpha_range'][1]:g})"
            )
        summary.append(
            f"slip at t* + window: ({rows[-1]['end_slip_x1']:.5g}, {rows[-1]['end_slip_x2']:.5g}) "
            f"at α = {alpha[-1]:g}, " + ("contact closed" if rows[-1]["end_closed"] else "contact open")
        )
        return StudyResult(
            name=config["study"]["name"],
            kind=_KIND,
            rows=rows,
            references={"rigid": entry},
            timings=timings,
            failures=failures,
            summary=summary,
            extra={"convergence": orders},
        )
