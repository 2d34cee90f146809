"""The ``chatter`` study kind: a contact bouncing to rest, the compliant model at a sweep of α against the rigid
sequence and its accumulation (Zeno) point (``docs/results.md``)."""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Mapping
from typing import Any, final

import numpy as np
from numpy.typing import NDArray

from regcontact.contact import ClippedKelvinVoigt, ContactModel, ViscousCoulomb, law_exponents
from regcontact.rigid import (
    COULOMB_MU_LIMIT,
    ChatterSequence,
    chatter_sequence,
    compliant_limit_map,
    kelvin_voigt_restitution,
    limit_law,
    touchdown_lead,
)
from regcontact.studies import config as cfg
from regcontact.studies._study_kind import AbstractStudyKind, Estimate
from regcontact.studies.study_result import StudyResult
from regcontact.studies.study_size import BASE_BYTES, SAMPLE_BYTES, STARTUP_S, DeviceSet, lengths, rtol_factor
from regcontact.studies.system_config import START_FIELDS, kind_fields, system_from_config

__all__ = ["ChatterStudy", "contact_model", "rigid_sequence"]

# From the shipped study's cold runs (its results.json timings, load factor about 2).
CHATTER_RIGID_S = 4.0
CHATTER_COMPILE_S = 4.0
CHATTER_RUN_S = 0.15

_KIND = "chatter"
#: The first touch-downs whose times are compared with the rigid ones.
COMPARED_TOUCHDOWNS = 5

_TABLE_COLUMNS = [
    "alpha",
    "touchdowns",
    "last_touchdown",
    "zeno_time",
    "last_touchdown_minus_zeno",
    "touchdown_time_error",
    "slip_at_zeno",
    "zeno_slip",
    "ok",
]


def contact_model(system: dict[str, Any], compliant: dict[str, Any]) -> ContactModel:
    """A clipped Kelvin–Voigt law at damping ratio ``ζ`` for the normal mass ``1/C`` (``k ∝ α``, ``γ ∝ √α``) and
    viscous-limited Coulomb friction ``γ_t = c_t α^e``."""
    damping = 2.0 * compliant["damping_ratio"] / math.sqrt(system["C"])  # ζ = γ/(2√(k m_n)), k = 1, m_n = 1/C
    return ContactModel(
        ClippedKelvinVoigt(1.0, damping),  # type: ignore[arg-type]  # equinox's __init__ takes numbers
        ViscousCoulomb(compliant["friction_damping"]),
        law_exponents(ClippedKelvinVoigt, damping=0.5),
        ViscousCoulomb(compliant["friction_damping_exponent"]),
    )


#: The keys the rigid sequence depends on (it is computed once for the check and the run).
_SEQUENCE_KEYS = (
    ("system", ("a", "b", "A", "B", "C", "mu", "slip0", "normal_velocity0")),
    ("compliant", ("damping_ratio", "friction_damping", "friction_damping_exponent")),
)


def rigid_sequence(config: dict[str, Any]) -> ChatterSequence:
    """The bounce map of the compliant model's limit impact law from the configured touch-down."""
    return _rigid_sequence(tuple(float(config[table][key]) for table, keys in _SEQUENCE_KEYS for key in keys))


@functools.lru_cache(maxsize=8)
def _rigid_sequence(values: tuple[float, ...]) -> ChatterSequence:
    split = len(_SEQUENCE_KEYS[0][1])
    system = dict(zip(_SEQUENCE_KEYS[0][1], values[:split]))
    law = limit_law(contact_model(system, dict(zip(_SEQUENCE_KEYS[1][1], values[split:]))))
    A, B, C, mu = system["A"], system["B"], system["C"], system["mu"]

    def impact(u: float, v: float) -> tuple[float, float]:
        outcome = compliant_limit_map(A, B, C, mu, u, v, law)
        return outcome.u, outcome.v

    return chatter_sequence(system["a"], system["b"], impact, system["slip0"], system["normal_velocity0"])


def _check_resolution(config: dict[str, Any], impact_times: NDArray) -> None:
    """Refuse a sample grid too coarse to see the compared touch-downs: a touch-down is found where a sample in
    flight is followed by one in contact, so the spacing must be below the shortest compared rigid flight and the
    contact's duration at the largest α (its undamped half period ``π / √(α C)``, ``k = α``, ``m_n = 1/C``)."""
    horizon, samples = config["horizon"], config["horizon"]["samples"]
    flights = np.diff(impact_times[:COMPARED_TOUCHDOWNS])
    contact = math.pi / math.sqrt(max(config["compliant"]["alpha"]) * config["system"]["C"])
    shortest = min(float(flights.min(initial=math.inf)), contact)
    needed = math.floor(horizon["t_end"] / shortest) + 2
    if samples < needed:
        raise cfg.ConfigError(
            "horizon.samples",
            samples,
            f"at least {needed:,} samples over t_end = {horizon['t_end']:g}: a spacing below the shortest compared "
            f"flight ({float(flights.min(initial=math.inf)):.3g}) and the contact time at the largest α "
            f"({contact:.3g}), so that every compared touch-down is seen",
        )


def _crossings(times: NDArray, gaps: NDArray, downwards: bool) -> NDArray:
    """Times where the gap crosses zero (downwards: closing), linearly interpolated between samples."""
    before, after = gaps[:-1], gaps[1:]
    hit = (before > 0) & (after <= 0) if downwards else (before <= 0) & (after > 0)
    i = np.flatnonzero(hit)
    return times[i] + (times[i + 1] - times[i]) * before[i] / (before[i] - after[i])


def _compliant_runs(config: dict[str, Any], grid: NDArray) -> tuple[dict[str, NDArray], dict[str, float]]:
    import jax
    import jax.numpy as jnp

    from regcontact.compliant import Controls, SolveSettings, trajectory
    from regcontact.compliant.dynamics import CompliantState

    compliant = config["compliant"]
    system = system_from_config(config["system"])
    model = contact_model(config["system"], compliant)
    settings = SolveSettings(events=(), max_steps=compliant["max_steps"])
    ts = jnp.asarray(grid)
    lead, exponent = touchdown_lead(system, model), limit_law(model).scale_exponent
    q0, v0 = system.initial_state()

    def one(alpha):
        controls = Controls(rtol=compliant["rtol"], atol=compliant["atol"], t_max=float(grid[-1]))
        # start as early before touch-down as the law's forces set in, so the first impact meets the rigid one
        start = CompliantState(q=q0 - v0 * lead * alpha**-exponent, v=v0, impulses=jnp.zeros((1, 2)))
        states, status = trajectory(system, model, alpha, controls, settings, ts, start)
        gaps = jax.vmap(system.gaps)(states.q)[:, 0, 0]
        rates = jnp.einsum("mkn,mn->mk", jax.vmap(system.jacobians)(states.q)[:, 0], states.v)
        return gaps, rates[:, 1], status

    batch = jnp.asarray(compliant["alpha"], dtype=float)
    start = time.perf_counter()
    compiled = jax.jit(jax.vmap(one)).lower(batch).compile()
    compile_s = time.perf_counter() - start
    start = time.perf_counter()
    gaps, slips, status = jax.block_until_ready(compiled(batch))
    run_s = time.perf_counter() - start
    leads = lead * np.asarray(compliant["alpha"], dtype=float) ** -exponent
    data = {"gaps": np.asarray(gaps), "slips": np.asarray(slips), "status": np.asarray(status), "leads": leads}
    return data, {"compliant_compile_s": compile_s, "compliant_run_s": run_s}


@final
class ChatterStudy(AbstractStudyKind):
    """``kind = "chatter"``: one reduced contact from touch-down, a clipped Kelvin–Voigt law at a sweep of α against
    the rigid bounce sequence of its limit law: the touch-downs resolved, the last one's distance to the Zeno time,
    the touch-down times' error and the slip at the Zeno time."""

    NAME = _KIND
    TABLE_COLUMNS = _TABLE_COLUMNS

    def schema(self, raw: dict[str, Any]) -> dict[str, Any]:
        del raw
        return {
            "study": cfg.study_fields(_KIND),
            "system": {k: f for k, f in kind_fields("reduced_single_contact").items() if k not in START_FIELDS},
            "horizon": {
                "t_end": cfg.Field(cfg.positive, cfg.REQUIRED, "end time of the compliant runs (past the Zeno time)"),
                "samples": cfg.Field(cfg.positive_int, 20_000, "sample times of each compliant run"),
            },
            "compliant": {
                "alpha": cfg.alpha_field(),
                "damping_ratio": cfg.Field(cfg.in_open_interval(0.0, 1.0), 0.2, "ζ of the Kelvin–Voigt law, in (0, 1)"),
                "friction_damping": cfg.Field(cfg.positive, 1.0, "c_t in γ_t = c_t α^e"),
                "friction_damping_exponent": cfg.Field(
                    cfg.finite, 1.0, "e in γ_t = c_t α^e: above 1/2 Coulomb's law during an impact, 1/2 viscous"
                ),
                **cfg.solve_fields(1e-10, 1e-12, 200_000),
            },
        }

    def check(self, config: dict[str, Any], overridden: list[str]) -> list[str]:
        del overridden
        system = config["system"]
        if not system["b"] < 0:
            raise cfg.ConfigError("system.b", system["b"], "a free normal acceleration towards the contact (b < 0)")
        if not system["normal_velocity0"] < 0:
            raise cfg.ConfigError("system.normal_velocity0", system["normal_velocity0"], "an approach (< 0)")
        if config["compliant"]["friction_damping_exponent"] < 0.5:
            raise cfg.ConfigError(
                "compliant.friction_damping_exponent",
                config["compliant"]["friction_damping_exponent"],
                "at least 1/2 (friction acting during the impacts)",
            )
        system_from_config(system)  # the system's own rules (a Delassus matrix that is positive definite, …)
        law = limit_law(contact_model(system, config["compliant"]))
        if law.friction == "coulomb" and not system["mu"] <= COULOMB_MU_LIMIT:
            raise cfg.ConfigError(
                "system.mu",
                system["mu"],
                f"a friction coefficient at most {COULOMB_MU_LIMIT:g}, the range the rigid reference's impacts with "
                "Coulomb friction are resolved over",
            )
        try:
            zeno = rigid_sequence(config).zeno_time
        except ValueError as error:  # what the rigid sequence refuses, said as the config's
            form = {key: system[key] for key in ("A", "B", "C", "mu")}
            raise cfg.ConfigError("system", form, f"a contact the rigid bounce map takes ({error})") from None
        if not config["horizon"]["t_end"] > 1.2 * zeno:
            raise cfg.ConfigError(
                "horizon.t_end", config["horizon"]["t_end"], f"a time past 1.2 × the Zeno time t_∞ = {zeno:.6g}"
            )
        _check_resolution(config, rigid_sequence(config).times)
        return []

    def estimate(self, config: Mapping[str, Any], devices: DeviceSet) -> Estimate:
        del devices  # one jitted vmap over α
        (alphas,) = lengths(config, "compliant.alpha")
        samples = config["horizon"]["samples"]
        phases = {
            "start": STARTUP_S,
            "rigid sequence": CHATTER_RIGID_S,
            "compile": CHATTER_COMPILE_S,
            "solve": alphas * CHATTER_RUN_S * rtol_factor(config["compliant"]["rtol"]),
        }
        memory = BASE_BYTES + alphas * samples * SAMPLE_BYTES
        return Estimate(alphas, f"{alphas} α, {samples:,} samples each", memory, phases)

    def run(self, config: dict[str, Any], progress: Callable[[str], None] = lambda message: None) -> StudyResult:
        from regcontact.compliant import SOLVER_STATUSES

        progress("rigid chatter sequence (the compliant model's limit impact law)")
        rigid = rigid_sequence(config)
        grid = np.linspace(0.0, config["horizon"]["t_end"], config["horizon"]["samples"])
        progress(f"compliant model at {len(config['compliant']['alpha'])} values of α (one vmapped call)")
        data, timings = _compliant_runs(config, grid)
        rows, failures = [], []
        for i, alpha in enumerate(config["compliant"]["alpha"]):
            status = SOLVER_STATUSES[int(data["status"][i])]
            ok = status in ("successful", "event_occurred")
            if not ok:
                failures.append(f"α = {alpha:g}: the compliant run ended with {status}")
            gaps = data["gaps"][i]
            # the rigid clock: the compliant run started data["leads"][i] before the first touch-down
            touchdowns = _crossings(grid, gaps, downwards=True) - data["leads"][i]
            if touchdowns.size == 0 or gaps[0] <= 0:  # a law without force above the ground starts at g = 0
                touchdowns = np.concatenate([[0.0], touchdowns])
            compared = min(COMPARED_TOUCHDOWNS, touchdowns.size, rigid.times.size)
            last = float(touchdowns[-1])
            rows.append(
                {
                    "alpha": float(alpha),
                    "touchdowns": int(touchdowns.size),
                    "last_touchdown": last,
                    "zeno_time": rigid.zeno_time,
                    "last_touchdown_minus_zeno": last - rigid.zeno_time,
                    "touchdown_time_error": float(np.abs(touchdowns[:compared] - rigid.times[:compared]).max()),
                    "slip_at_zeno": float(np.interp(rigid.zeno_time + data["leads"][i], grid, data["slips"][i])),
                    "zeno_slip": rigid.zeno_slip,
                    "ok": ok and bool(gaps[-1] <= 0),
                }
            )
        summary = [
            f"rigid: {rigid.times.size} impacts followed (normal velocity to 1e-12 of the first), accumulating at "
            f"t_∞ = {rigid.zeno_time:.9g} with slip {rigid.zeno_slip:.6g}; a rigid integration stops there",
            f"compliant: the contact stays closed after its last touch-down, {rows[-1]['last_touchdown']:.6g} at "
            f"α = {rows[-1]['alpha']:g} ({rows[-1]['touchdowns']} touch-downs resolved on the sample grid)",
        ]
        return StudyResult(
            name=config["study"]["name"],
            kind=_KIND,
            rows=rows,
            references={
                "rigid": {
                    "impact_times": rigid.times.tolist(),
                    "incoming": rigid.incoming.tolist(),
                    "zeno_time": rigid.zeno_time,
                    "zeno_slip": rigid.zeno_slip,
                    "restitution_frictionless": kelvin_voigt_restitution(config["compliant"]["damping_ratio"]),
                }
            },
            timings=timings,
            failures=failures,
            summary=summary,
        )
