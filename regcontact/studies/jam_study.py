"""The ``dynamic_jam`` study kind: Painlevé rods whose rigid slip jams, run through the jam by the compliant model
for a list of α and normal laws, and what follows the jam classified (``docs/dynamic_jam.md``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, final

import numpy as np

from regcontact.convergence import MIN_ORDER, MIN_TAIL_POINTS, fit_order
from regcontact.studies import config as cfg
from regcontact.studies._study_kind import AbstractStudyKind, Estimate
from regcontact.studies.study_result import StudyResult
from regcontact.studies.study_size import BASE_BYTES, SAMPLE_BYTES, STARTUP_S, DeviceSet, lengths
from regcontact.studies.system_config import START_FIELDS, kind_fields, rod_from_config

__all__ = ["CASES", "DynamicJamStudy", "verdict"]

# From the shipped study's cold runs (its results.json timings, load factor about 2).
JAM_RIGID_S = 9.0
JAM_CALL_S = 8.0
JAM_RUN_S = 0.1

_KIND = "dynamic_jam"

#: The rods a study can run: the searched G1 and G2 rods and the ``[system]`` table's rod.
CASES = ("G1", "G2", "system")

#: The normal laws of the shipped study (Preclik's Eq. 22, Champneys' Eq. 31, Hunt–Crossley), by config name.
DEFAULT_LAWS = ["spring_damper", "champneys_fast_scale", "hunt_crossley"]

#: The rod's parameters written into ``results.json`` (as ``[system]`` keys: a searched rod can be run by them).
ROD_KEYS = ("mass", "length", "inertia", "gravity", "torque", "force_x", "mu", "phi0", "vx0", "omega0")

#: Said of a G2 jam (``docs/dynamic_jam.md``): an outcome there is not robust, whatever one batch shows.
INDETERMINATE = (
    "; past a G2 jam p < 0 < b: lift-off and an impulse are both consistent, and which one a run takes moves with "
    "perturbations at the level of round-off"
)

_TABLE_COLUMNS = [
    "rod",
    "law",
    "alpha",
    "outcome",
    "lag",
    "excess_impulse_n",
    "jump_impulse_error",
    "slip_end",
    "normal_velocity_end",
    "velocity_error",
    "ok",
]


def _system_reference(system: dict[str, Any]):
    """The jam of the ``[system]`` rod; ``ConfigError`` if its rigid slip does not reach a G-spot."""
    from regcontact.rigid import jam_reference

    try:
        return jam_reference(rod_from_config(system))
    except ValueError as error:
        raise cfg.ConfigError(
            "system.phi0", system["phi0"], f"a start whose rigid slip reaches a G-spot ({error})"
        ) from None


def _contact(law: str, friction_exponent: float):
    from regcontact.contact import ContactModel, ViscousCoulomb
    from regcontact.studies._law_config import normal_law_class

    return ContactModel(normal=normal_law_class(law)(), friction_exponents=ViscousCoulomb(friction_exponent))


def verdict(alpha: np.ndarray, outcomes: list[str], distance: np.ndarray | None) -> dict[str, Any]:
    """Whether the outcomes settle in α and the order at which ``distance`` (to the settled outcome's rigid
    counterpart, ``None`` if it has none) falls over the settled α (module docstring)."""
    settled = 1
    while settled < len(outcomes) and outcomes[-settled - 1] == outcomes[-1]:
        settled += 1
    if settled < MIN_TAIL_POINTS:
        return {"outcome": None, "settled_from_alpha": None, "order": None, "local_orders": None, "converges": False}
    found: dict[str, Any] = {"outcome": outcomes[-1], "settled_from_alpha": float(alpha[-settled])}
    fit = None
    if distance is not None and np.all(distance[-settled:] > 0):
        fit = fit_order(alpha[-settled:], distance[-settled:])
    if fit is None:
        return {**found, "order": None, "local_orders": None, "converges": False}
    falling = all(local > 0 for local in fit.local_orders)
    converges = fit.order >= MIN_ORDER and falling
    return {**found, "order": fit.order, "local_orders": list(fit.local_orders), "converges": converges}


def _rod_reference(case: str, config: dict[str, Any]):
    """The rod of ``case``, its jam reference and Eqs. 33–34 at the jam."""
    from regcontact.rigid import g_spot_linearisation, jam_reference, search_jamming_rod

    if case == "system":
        rod = rod_from_config(config["system"])
        reference = _system_reference(config["system"])
    else:
        rod = search_jamming_rod(case).rod  # type: ignore[arg-type]  # case is "G1" or "G2" here
        reference = jam_reference(rod)
    linearisation = g_spot_linearisation(rod, reference.q, reference.v, reference.t_jam)
    return rod, reference, linearisation


def _rod_value(value: Any) -> Any:
    """A rod parameter as written into ``results.json``: a number, or a load profile's fields by name."""
    from regcontact.systems import AbstractLoad

    if isinstance(value, AbstractLoad):
        fields = {name: getattr(value, name) for name in type(value).__dataclass_fields__}
        return {name: np.asarray(item).tolist() for name, item in fields.items() if item is not None}
    return float(value)


def _reference_entry(rod, reference, linearisation) -> dict[str, Any]:
    from regcontact.rigid import jam_case

    alphas = [float(linearisation.alpha1), float(linearisation.alpha2), float(linearisation.alpha3)]
    jump = reference.jump
    return {
        "rod": {key: _rod_value(getattr(rod, key)) for key in ROD_KEYS},
        "t_jam": reference.t_jam,
        "slip_impulse": list(reference.impulse),
        "q_jam": reference.q.tolist(),
        "v_jam": reference.v.tolist(),
        "alpha1_alpha2_alpha3": alphas,
        "jam_case": jam_case(*alphas),
        "jump_into_stick": {
            "normal_impulse": float(jump.normal_impulse),
            "tangential_impulse": float(jump.tangential_impulse),
            "slip_before": float(jump.slip_before),
            "v_after": np.asarray(jump.v_after).tolist(),
        },
    }


def _describe(case: str, law: str, found: dict[str, Any], alpha: np.ndarray, outcomes: list[str]) -> str:
    head = f"{case}, {law}:"
    if found["outcome"] is None:
        return f"{head} the outcome changes with α ({', '.join(outcomes)}): no convergence in α"
    span = f"{found['outcome']} at every α from {found['settled_from_alpha']:g} to {alpha[-1]:g}"
    if found["order"] is None:
        return f"{head} {span}; no rigid counterpart to measure a distance to"
    measure = "|ΔP_n − I*|" if found["outcome"] == "jump_into_stick" else "|lag|"
    if found["converges"]:
        trend = "converges"
    elif found["order"] < MIN_ORDER:
        trend = f"not shown to converge (order below {MIN_ORDER:g})"
    else:
        trend = "not shown to converge (it does not fall at every step of the fit)"
    return f"{head} {span}; {measure}: order {found['order']:.2f} over the last decades, {trend}"


@final
class DynamicJamStudy(AbstractStudyKind):
    """``kind = "dynamic_jam"``: per rod (G1, G2, or the ``[system]`` rod) the rigid slip to its G-spot and the
    rigid jump into stick; per rod and normal law a sweep of α through the jam, each run's outcome classified,
    and whether the outcome settles and converges in α."""

    NAME = _KIND
    TABLE_COLUMNS = _TABLE_COLUMNS

    def schema(self, raw: dict[str, Any]) -> dict[str, Any]:
        from regcontact.studies._law_config import memoryless_normal_law

        rods = raw.get("rods", {})
        cases = rods.get("cases", ["G1", "G2"]) if isinstance(rods, dict) else None
        if isinstance(raw.get("system"), dict) and isinstance(cases, list) and "system" not in cases:
            raise cfg.ConfigError("rods.cases", cases, "a list with 'system' in it when a [system] table is given")
        return {
            "study": cfg.study_fields(_KIND),
            "rods": {
                "cases": cfg.Field(
                    cfg.list_of(cfg.choice(*CASES), 1, "rod names"),
                    ["G1", "G2"],
                    "the rods run: 'G1', 'G2' (found by search) and 'system' (the [system] table's rod)",
                ),
            },
            # how a compliant run starts is fixed here: on the rigid slip's load
            "system": {key: field for key, field in kind_fields("painleve_rod").items() if key not in START_FIELDS},
            "compliant": {
                "alpha": cfg.alpha_field(ascending=True),
                "normal_laws": cfg.Field(
                    cfg.list_of(memoryless_normal_law("compliant.normal_laws"), 1, "normal law names or class paths"),
                    DEFAULT_LAWS,
                    "normal laws, each with its constructor's parameters at α = 1 and its default α-exponents",
                ),
                "friction_damping_exponent": cfg.Field(
                    cfg.finite,
                    1.0,
                    "e in γ_t = α^e of viscous Coulomb friction (≥ 1: Coulomb's law during the impulse)",
                ),
                "window": cfg.Field(cfg.positive, 0.3, "each run ends where the contact opens or at t_jam + window"),
                "samples": cfg.Field(cfg.positive_int, 400, "sample times around the jam (for the impulse time)"),
                **cfg.solve_fields(1e-8, 1e-10, 200_000),
            },
        }

    def check(self, config: dict[str, Any], overridden: list[str]) -> list[str]:
        del overridden
        for key, values in (
            ("rods.cases", config["rods"]["cases"]),
            ("compliant.normal_laws", config["compliant"]["normal_laws"]),
        ):
            if len(set(values)) != len(values):
                raise cfg.ConfigError(key, values, "each name at most once")
        if "system" in config["rods"]["cases"]:
            _system_reference(config["system"])
        return []

    def estimate(self, config: Mapping[str, Any], devices: DeviceSet) -> Estimate:
        del devices
        rods, laws, alphas = lengths(config, "rods.cases", "compliant.normal_laws", "compliant.alpha")
        cases = rods * laws * alphas
        phases = {
            "start": STARTUP_S,
            "rigid slips": rods * JAM_RIGID_S,
            "compile": rods * laws * JAM_CALL_S,
            "solve": cases * JAM_RUN_S,
        }
        memory = BASE_BYTES + cases * config["compliant"]["samples"] * SAMPLE_BYTES
        return Estimate(cases, f"{rods} rods × {laws} laws × {alphas} α", memory, phases)

    def run(self, config: dict[str, Any], progress: Callable[[str], None] = lambda message: None) -> StudyResult:
        from regcontact.passages import pass_through

        compliant = config["compliant"]
        alpha = np.asarray(compliant["alpha"], dtype=float)
        cases, laws = config["rods"]["cases"], compliant["normal_laws"]
        rows: list[dict[str, Any]] = []
        references: dict[str, Any] = {}
        convergence: dict[str, dict[str, Any]] = {}
        failures, summary, timings = [], [], {}
        calls, done, solving = len(cases) * len(laws), 0, 0.0
        for case in cases:
            progress(f"{case}: rigid slip to the G-spot" + (" (searching the rod)" if case != "system" else ""))
            start = time.perf_counter()
            rod, reference, linearisation = _rod_reference(case, config)
            timings[f"{case}_rigid_s"] = time.perf_counter() - start
            references[case] = _reference_entry(rod, reference, linearisation)
            jump = float(reference.jump.normal_impulse)
            summary.append(
                f"{case}: rigid slip jams at t_jam = {reference.t_jam:.6g} (case {references[case]['jam_case']}, "
                f"α₁, α₂, α₃ = {', '.join(f'{a:.4g}' for a in references[case]['alpha1_alpha2_alpha3'])}); "
                f"jump into stick I* = {jump:.6g}" + (INDETERMINATE if references[case]["jam_case"] == "G2" else "")
            )
            for law in laws:
                left = "" if not done else f", about {solving / done * (calls - done):.0f} s left"
                progress(f"[{done + 1}/{calls}] {case}, {law}: {len(alpha)} values of α (one vmapped call{left})")
                start = time.perf_counter()
                passage = pass_through(
                    rod,
                    _contact(law, compliant["friction_damping_exponent"]),
                    alpha,
                    reference,
                    window=compliant["window"],
                    rtol=compliant["rtol"],
                    atol=compliant["atol"],
                    samples=compliant["samples"],
                    max_steps=compliant["max_steps"],
                )
                result = passage.classify(rod, reference)
                elapsed = time.perf_counter() - start
                timings[f"{case}_{law}_s"], solving, done = elapsed, solving + elapsed, done + 1
                outcomes = result.outcome_names
                for i, a in enumerate(alpha):
                    ok = outcomes[i] != "failed"
                    if not ok:
                        failures.append(f"{case}, {law}, α = {a:g}: the compliant run failed")
                    rows.append(
                        {
                            "rod": case,
                            "law": law,
                            "alpha": float(a),
                            "outcome": outcomes[i],
                            "lag": float(result.lag[i]),
                            "excess_impulse_n": float(result.impulse[i, 0]),
                            "excess_impulse_t": float(result.impulse[i, 1]),
                            "jump_impulse": jump,
                            "jump_impulse_error": float(result.impulse[i, 0] - jump),
                            "impulse_time": float(result.impulse_time[i]),
                            "slip_at_jam": float(result.slip_before[i]),
                            "slip_end": float(result.slip_after[i]),
                            "normal_velocity_at_jam": float(result.normal_velocity_before[i]),
                            "normal_velocity_end": float(result.normal_velocity_after[i]),
                            "velocity_error": float(result.velocity_error[i]),
                            "ok": ok,
                        }
                    )
                distance = {
                    "jump_into_stick": np.abs(result.impulse[:, 0] - jump),
                    "lift_off": np.abs(result.lag),
                }.get(outcomes[-1])
                found = verdict(alpha, outcomes, distance)
                convergence[f"{case}/{law}"] = found
                summary.append(_describe(case, law, found, alpha, outcomes))
        return StudyResult(
            name=config["study"]["name"],
            kind=_KIND,
            rows=rows,
            references={"rigid": references},
            timings=timings,
            failures=failures,
            summary=summary,
            extra={"convergence": convergence},
        )
