"""The ``rigid_trajectories`` study kind: whole motions of one system, the compliant model at a sweep of α and the
rigid time steppers against the event-driven reference, on one time grid (``docs/results.md``)."""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, final

import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, Float
from numpy.typing import NDArray

from regcontact.compliant import IMPLICIT_SOLVERS, SOLVER_STATUSES, Controls, SolveSettings, trajectory
from regcontact.compliant.dynamics import CompliantSystem, contact_forces
from regcontact.compliant.modes import compliant_mode_events, compliant_modes
from regcontact.compliant.termination import effective_normal_mass, slow_force_scale
from regcontact.contact import ContactModel, ViscousCoulomb
from regcontact.convergence import fit_order, why_no_order
from regcontact.motion_events import (
    IMPULSE_FACTOR,
    Impulse,
    impulses_agree,
    mode_change_events,
    read_impulses,
    run_length,
)
from regcontact.rigid import (
    IMPACT_LAWS,
    SELECTION_RULES,
    RigidTrajectory,
    event_driven,
    gholami_time_stepping,
    moreau_jean,
)
from regcontact.studies import config as cfg
from regcontact.studies._study_kind import AbstractStudyKind, Estimate
from regcontact.studies.study_result import StudyResult
from regcontact.studies.study_size import BASE_BYTES, SAMPLE_BYTES, STARTUP_S, DeviceSet, rtol_factor
from regcontact.studies.system_config import (
    START_FIELDS,
    kind_fields,
    system_from_config,
    system_kind,
    system_kind_of,
)
from regcontact.systems.system import AbstractSystem

__all__ = ["Comparison", "RigidTrajectoriesStudy", "SampledRun", "compare"]

# From the shipped study's cold runs (its results.json timings, load factor about 2).
TRAJECTORY_COMPILE_S = 6.0
TRAJECTORY_RUN_S = 0.1
TRAJECTORY_EVENT_DRIVEN_S = 1.0
#: Seconds per step of a rigid time stepper (Moreau–Jean, Gholami et al.: a small LCP on the host).
RIGID_STEP_S = 0.4e-3
#: Bytes kept per step of a rigid time stepper (state, impulses, modes).
RIGID_STEP_BYTES = 300.0

_KIND = "rigid_trajectories"

_TABLE_COLUMNS = [
    "run",
    "alpha",
    "dt",
    "threshold",
    "distance_q",
    "distance_v",
    "modes",
    "modes_equal",
    "slip_onset",
    "lift_off",
    "landing",
    "stick",
    "event_error",
    "wall_s",
]


# -- sampling every run on the grid ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class SampledRun:
    """One run on the common grid: ``q``, ``v`` ``(m, n)``, ``modes`` ``(m, k)`` labels, its mode-change
    ``events`` ``(time, contact, kind)`` and its ``impulses`` (at ``t ≥ t_skip``) from its own resolution, and
    that ``resolution``: ``κ F Δ``, the smallest impulse it tells from a force (zero for the event-driven run)."""

    label: str
    integrator: str
    q: NDArray[np.float64]
    v: NDArray[np.float64]
    modes: NDArray[np.str_]
    events: tuple[tuple[float, int, str], ...]
    wall_s: float
    parameter: float | None = None
    ok: bool = True
    impulses: tuple[Impulse, ...] = ()
    resolution: float = 0.0


def _sample_rigid(trajectory_: RigidTrajectory, grid: NDArray[np.float64]) -> tuple[NDArray, NDArray, NDArray]:
    """``q``, ``v`` (linear between samples; after an impulse at a repeated time) and the interval's modes."""
    times = trajectory_.times
    index = np.clip(np.searchsorted(times, grid, side="right") - 1, 0, len(times) - 2)
    span = times[index + 1] - times[index]
    weight = np.where(span > 0, (grid - times[index]) / np.where(span > 0, span, 1.0), 0.0)[:, None]
    q = (1 - weight) * trajectory_.q[index] + weight * trajectory_.q[index + 1]
    v = (1 - weight) * trajectory_.v[index] + weight * trajectory_.v[index + 1]
    modes = np.array(trajectory_.modes)[np.minimum(index, len(trajectory_.modes) - 1)]
    return q, v, modes


#: Reads a run's impulses: ``(starts, spans, interval impulses, step) -> (impulses, resolution)``.
_ImpulseReader = Callable[[NDArray, NDArray, NDArray, float], tuple[tuple[Impulse, ...], float]]


def _sampled_rigid(
    label: str, trajectory_: RigidTrajectory, grid, t_skip, reader: _ImpulseReader, parameter=None
) -> SampledRun:
    """A rigid run on the grid; its step is ``parameter`` (δt), none for the event-driven run (``parameter=None``),
    whose impulses are applied at instants."""
    q, v, modes = _sample_rigid(trajectory_, grid)
    times = trajectory_.times
    impulses, resolution = reader(times[:-1], np.diff(times), trajectory_.impulses, parameter or 0.0)
    return SampledRun(
        label,
        trajectory_.integrator,
        q,
        v,
        modes,
        mode_change_events(trajectory_.times[:-1], np.array(trajectory_.modes), t_skip),
        trajectory_.statistics.wall_time,
        parameter,
        impulses=impulses,
        resolution=resolution,
    )


def contact_model(compliant: dict[str, Any]) -> ContactModel:
    """Preclik's Eq. 22, ``k_n = γ_n = α``, with ``γ_t = c_t α^e`` (``[compliant]``)."""
    return ContactModel(
        friction=ViscousCoulomb(compliant["friction_damping"]),
        friction_exponents=ViscousCoulomb(compliant["friction_damping_exponent"]),
    )


def compliant_on_grid(
    system: AbstractSystem, alphas: Sequence[float], grid: NDArray[np.float64], compliant: dict[str, Any]
) -> tuple[dict[str, Any], float, float]:
    """Every α in one jitted ``vmap``: ``q``, ``v``, the force integrals ``∫λ dt`` from 0 and the forces
    ``(a, m, k, 2)``, gaps and slips ``(a, m, k)``, the friction law per α (its leaves stacked) and the solver
    status; with the compile and run times."""
    contact = contact_model(compliant)
    settings = SolveSettings(solver=compliant["solver"], events=(), max_steps=compliant["max_steps"])
    ts = jnp.asarray(grid)
    t_end = float(grid[-1])

    def one(alpha: Float[Array, ""]):
        controls = Controls(rtol=compliant["rtol"], atol=compliant["atol"], t_max=t_end)
        states, status = trajectory(system, contact, alpha, controls, settings, ts)
        normal, friction = contact.at_stiffness(alpha)
        args = CompliantSystem(system=system, normal=normal, friction=friction)
        forces = jax.vmap(lambda q, v: contact_forces(args, q, v))(states.q, states.v)
        gaps = jax.vmap(system.gaps)(states.q)[..., 0]
        slips = jnp.einsum("mkn,mn->mk", jax.vmap(system.jacobians)(states.q)[:, :, 1], states.v)
        return states.q, states.v, states.impulses, forces, gaps, slips, friction, status

    solve = jax.jit(jax.vmap(one))
    batch = jnp.asarray(alphas, dtype=float)
    start = time.perf_counter()
    compiled = solve.lower(batch).compile()
    compile_s = time.perf_counter() - start
    start = time.perf_counter()
    out = jax.block_until_ready(compiled(batch))
    run_s = time.perf_counter() - start
    names = ("q", "v", "impulses", "forces", "gaps", "slips", "friction", "status")
    data = {name: value if name == "friction" else np.asarray(value) for name, value in zip(names, out)}
    return data, compile_s, run_s


# -- the comparison ----------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Comparison:
    """Every run on the grid, the reference (event-driven) run, the mask of compared grid points, the rows."""

    grid: NDArray[np.float64]
    compared: NDArray[np.bool_]
    reference: SampledRun
    runs: tuple[SampledRun, ...]
    impulsive_events: tuple[tuple[float, str], ...]
    rows: list[dict[str, Any]]
    orders: dict[str, Any]
    timings: dict[str, float]
    statistics: dict[str, Any]
    #: ``(run, why)`` of the compliant and Moreau–Jean runs left out of the orders (event sequence not the
    #: reference's, or a failed solve).
    left_out: tuple[tuple[str, str], ...] = ()


def _grid(horizon: dict[str, Any]) -> NDArray[np.float64]:
    count = int(np.ceil(horizon["t_end"] / horizon["grid_dt"] - 1e-9))
    return np.linspace(0.0, horizon["t_end"], count + 1)


#: A contact's run-length encoding longer than this is shortened in the table (chatter), its count kept.
MAX_RUNS_SHOWN = 6


def _runs_text(labels: NDArray[np.str_]) -> str:
    runs = run_length(labels)
    if len(runs) > MAX_RUNS_SHOWN:
        return ", ".join(runs[: MAX_RUNS_SHOWN - 2]) + f", … ({len(runs)} runs)"
    return ", ".join(runs)


def _mode_text(modes: NDArray[np.str_]) -> str:
    """``T, S-`` for one contact; ``1: F, T | 2: F, S+`` for several; a long chatter shortened."""
    columns = [_runs_text(modes[:, c]) for c in range(modes.shape[1])]
    return columns[0] if len(columns) == 1 else " | ".join(f"{c + 1}: {text}" for c, text in enumerate(columns))


def _event_columns(events: Sequence[tuple[float, int, str]]) -> dict[str, float | None]:
    first: dict[str, float | None] = {name: None for name in ("slip_onset", "lift_off", "landing", "stick")}
    for t, _, kind in events:
        if kind in first and first[kind] is None:
            first[kind] = t
    return first


def _event_error(events, reference) -> float | None:
    """Largest time difference of the matched events, or ``None`` if the (contact, kind) lists differ."""
    if [e[1:] for e in events] != [e[1:] for e in reference]:
        return None
    return max((abs(a[0] - b[0]) for a, b in zip(events, reference)), default=0.0)


@dataclasses.dataclass(frozen=True)
class _Reference:
    """The event-driven run on the grid, its impulsive events, the compared grid points, and the reader of every
    other run's impulses (an impulse changing the velocities by less than the verdict's tolerance of the
    reference's is no event)."""

    run: RigidTrajectory
    sampled: SampledRun
    impulsive: tuple[tuple[float, str], ...]
    compared: NDArray[np.bool_]
    reader: _ImpulseReader


def _event_driven_reference(system: AbstractSystem, config: dict[str, Any], grid: NDArray[np.float64]) -> _Reference:
    horizon, t_end = config["horizon"], config["horizon"]["t_end"]
    t_skip, tolerance = horizon["t_skip"], config["verdict"]["tolerance"]
    ed = config["event_driven"]
    reference_run = event_driven(
        system,
        t_end,
        selection=ed["selection"],
        impact_law=IMPACT_LAWS[ed["impact_law"]].from_settings(ed["restitution"], contact_model(config["compliant"])),
        rtol=ed["rtol"],
        atol=ed["atol"],
        sample_times=grid,
    )
    slow_force = float(slow_force_scale(system))
    reader = functools.partial(read_impulses, t_min=t_skip, floor=slow_force)
    reference = _sampled_rigid("event-driven", reference_run, grid, t_skip, reader)
    impulsive = tuple(
        (e.time, "IWC" if e.kind == "impact_without_collision" else e.kind)
        for e in reference_run.events
        if e.kind in ("impact", "impact_without_collision")
    )
    compared = grid >= t_skip
    for t, _ in impulsive:
        if t > 0:
            compared &= np.abs(grid - t) > horizon["impact_window"]
    smallest = tolerance * float(effective_normal_mass(system)) * float(np.abs(reference.v[compared]).max())
    reader = functools.partial(read_impulses, t_min=t_skip, floor=slow_force, smallest=smallest)
    reference = dataclasses.replace(reference, impulses=tuple(p for p in reference.impulses if p.magnitude >= smallest))
    return _Reference(reference_run, reference, impulsive, compared, reader)


def _compliant_runs(
    system: AbstractSystem, config: dict[str, Any], grid: NDArray[np.float64], reader: _ImpulseReader
) -> tuple[list[SampledRun], NDArray, dict[str, float]]:
    """Every α on the grid (one vmapped call), each with its modes, events and impulses; the solver statuses and
    the compile and solve times."""
    horizon, alphas = config["horizon"], config["compliant"]["alpha"]
    mu = np.asarray(system.friction_coefficients, dtype=float).reshape(-1)
    data, compile_s, run_s = compliant_on_grid(system, alphas, grid, config["compliant"])
    runs = []
    for i, alpha in enumerate(alphas):
        friction = jax.tree.map(lambda leaf, i=i: leaf[i], data["friction"])
        modes = compliant_modes(friction, data["forces"][i], data["slips"][i], mu)
        events = compliant_mode_events(
            grid, modes, data["forces"][i], data["gaps"][i], data["slips"][i], mu, horizon["t_skip"]
        )
        impulses, resolution = reader(
            grid[:-1], np.diff(grid), np.diff(data["impulses"][i], axis=0), horizon["grid_dt"]
        )
        status = SOLVER_STATUSES[int(data["status"][i])]
        runs.append(
            SampledRun(
                f"compliant α={alpha:g}",
                "compliant",
                data["q"][i],
                data["v"][i],
                modes,
                events,
                run_s / len(alphas),
                float(alpha),
                ok=status == "successful" and bool(np.all(np.isfinite(data["q"][i]))),
                impulses=impulses,
                resolution=resolution,
            )
        )
    return runs, data["status"], {"compliant_compile_s": compile_s, "compliant_solve_s": run_s}


def _time_stepping_runs(
    system: AbstractSystem,
    config: dict[str, Any],
    grid: NDArray[np.float64],
    reader: _ImpulseReader,
    progress: Callable[[str], None],
) -> list[SampledRun]:
    """Moreau–Jean at each δt, and Gholami et al. where the config asks for it, on the grid."""
    t_end, t_skip = config["horizon"]["t_end"], config["horizon"]["t_skip"]
    runs = []
    mj = config["moreau_jean"]
    for dt in mj["dt"]:
        progress(f"Moreau–Jean δt = {dt:g}")
        mj_run = moreau_jean(system, t_end, dt, mj["selection"])
        runs.append(_sampled_rigid(f"Moreau–Jean δt={dt:g}", mj_run, grid, t_skip, reader, dt))
    gh = config["gholami"]
    if gh["dt"] is not None:
        progress(f"Gholami et al. δt = {gh['dt']:g}, v_s = {gh['threshold']:g}")
        ghol = gholami_time_stepping(system, t_end, gh["dt"], gh["threshold"], gh["selection"])
        runs.append(_sampled_rigid(f"Gholami δt={gh['dt']:g}", ghol, grid, t_skip, reader, gh["dt"]))
    return runs


def _comparison_rows(
    reference: SampledRun, runs: list[SampledRun], compared: NDArray[np.bool_], config: dict[str, Any]
) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """One row per run (the reference first), and the compliant and Moreau–Jean runs left out of the orders."""
    reference_modes = _mode_text(reference.modes[compared])
    judge = _Verdict(
        reference, reference_modes, compared, config["verdict"]["tolerance"], config["horizon"]["impact_window"]
    )
    rows: list[dict[str, Any]] = []
    left_out: list[tuple[str, str]] = []
    for sampled in [reference, *runs]:
        row: dict[str, Any] = {
            "run": sampled.label,
            "alpha": sampled.parameter if sampled.integrator == "compliant" else None,
            "dt": sampled.parameter if sampled.integrator != "compliant" else None,
            "threshold": config["gholami"]["threshold"] if sampled.integrator.startswith("gholami") else None,
            "distance_q": float(np.max(np.abs(sampled.q - reference.q)[compared])) if sampled.ok else None,
            "distance_v": float(np.max(np.abs(sampled.v - reference.v)[compared])) if sampled.ok else None,
            "modes": _mode_text(sampled.modes[compared]),
        }
        row["modes_equal"] = row["modes"] == reference_modes
        row.update(_event_columns(sampled.events))
        row["event_error"] = _event_error(sampled.events, reference.events)
        row["wall_s"] = sampled.wall_s
        row["solved"] = sampled.ok
        row["impulses"] = "; ".join(p.text() for p in sampled.impulses)
        columns, why = judge(sampled, row)
        row.update(columns)
        rows.append(row)
        if why is not None and (sampled.integrator == "compliant" or sampled.integrator.startswith("moreau")):
            left_out.append((sampled.label, why))
    return rows, left_out


def _family_orders(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The orders in α and in δt, each fitted over the runs whose event sequence is the reference's: no order
    across runs whose event sequences differ."""
    fitted = [r for r in rows if r["solved"] and r["events_equal"]]
    return {
        "compliant_alpha": _orders([r for r in fitted if r["alpha"] is not None], "alpha", 1.0),
        "moreau_jean_dt": _orders([r for r in fitted if str(r["run"]).startswith("Moreau")], "dt", -1.0),
    }


def compare(config: dict[str, Any], progress: Callable[[str], None] = lambda message: None) -> Comparison:
    """Run everything a validated ``rigid_trajectories`` config asks for and compare it with the event-driven run
    on the grid.

    Args:
        config: the validated config.
        progress: receives a line as each family of runs starts.

    Returns:
        A :class:`Comparison`: every run sampled on the grid, the rows, the orders, timings and statistics.
    """
    system = system_from_config(config["system"])
    grid = _grid(config["horizon"])
    progress("event-driven reference")
    reference = _event_driven_reference(system, config, grid)
    timings: dict[str, float] = {"event_driven_s": reference.run.statistics.wall_time}
    progress(f"compliant model at {len(config['compliant']['alpha'])} values of α (one vmapped call)")
    runs, statuses, compliant_timings = _compliant_runs(system, config, grid, reference.reader)
    timings.update(compliant_timings)
    runs += _time_stepping_runs(system, config, grid, reference.reader, progress)
    rows, left_out = _comparison_rows(reference.sampled, runs, reference.compared, config)
    statistics = {
        "event_driven": dataclasses.asdict(reference.run.statistics),
        "impulsive_events": [[t, kind] for t, kind in reference.impulsive],
        "compared_grid_points": int(reference.compared.sum()),
        "grid_points": len(grid),
        "compliant_status": [SOLVER_STATUSES[int(s)] for s in statuses],
    }
    return Comparison(
        grid,
        reference.compared,
        reference.sampled,
        tuple(runs),
        reference.impulsive,
        rows,
        _family_orders(rows),
        timings,
        statistics,
        tuple(left_out),
    )


class _Verdict:
    """Whether a run agrees with the reference (``ok``, and ``verdict``: ``agrees`` or why not), and whether
    its event sequence is the reference's (``events_equal``: the mode sequence on the compared grid and the
    impulses, :func:`~regcontact.motion_events.impulses_agree` at the run's resolution).

    A run agrees when it finished, its event sequence is the reference's, and ``distance_q ≤ tol · Q``,
    ``distance_v ≤ tol · V``: ``Q`` the largest range of a coordinate of the reference over the compared grid,
    ``V`` its largest speed of a coordinate there; ``tol`` is ``verdict.tolerance``."""

    def __init__(self, reference: SampledRun, modes: str, compared: NDArray[np.bool_], tolerance: float, window: float):
        self.reference, self.modes, self.tolerance, self.window = reference, modes, tolerance, window
        self.q_scale = float(np.ptp(reference.q[compared], axis=0).max())
        self.v_scale = float(np.abs(reference.v[compared]).max())

    def __call__(self, sampled: SampledRun, row: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
        """The three columns, and why the run is left out of the orders (``None`` if it is not)."""
        if sampled is self.reference:
            return {"events_equal": True, "ok": True, "verdict": "reference"}, None
        reasons = []
        if not row["modes_equal"]:
            reasons.append(f"modes {row['modes']} where the reference has {self.modes}")
        impulses = impulses_agree(
            sampled.impulses, self.reference.impulses, sampled.resolution, self.tolerance, self.window
        )
        if impulses is not None:
            reasons.append(impulses)
        events_equal = not reasons
        if not sampled.ok:
            reasons.insert(0, "the compliant solve failed")
        left_out = "; ".join(reasons) if reasons else None
        if sampled.ok:
            for name, scale, what in (("distance_q", self.q_scale, "range of q"), ("distance_v", self.v_scale, "|v|")):
                if row[name] > self.tolerance * scale:
                    reasons.append(f"{name} {row[name]:.3g} > {self.tolerance:g} × {scale:.3g}, the reference's {what}")
        columns = {"events_equal": events_equal, "ok": not reasons, "verdict": "; ".join(reasons) or "agrees"}
        return columns, left_out


_ORDERED = ("distance_q", "distance_v", "event_error")


def _orders(rows: list[dict[str, Any]], key: str, sign: float) -> dict[str, Any]:
    """Order of each distance (and of the event error) in ``key`` (α, or 1/δt): :func:`fit_order`'s tail fit;
    ``None`` where there is none, and why under ``"no_order"``."""
    result: dict[str, Any] = {}
    why: dict[str, str] = {}
    variable = "α" if key == "alpha" else "δt"
    for name in _ORDERED:
        kept = sorted(
            ((r[key] ** sign, r[name]) for r in rows if r[name] is not None and r[name] > 0), key=lambda p: p[0]
        )
        fit = fit_order([p[0] for p in kept], [p[1] for p in kept])
        if fit is None:
            why[name] = f"{why_no_order([p[0] for p in kept], variable)} with the reference's events and {name} > 0"
        result[name] = (
            None
            if fit is None
            else {
                "order": fit.order,
                "range": sorted(x**sign for x in fit.alpha_range),
                "local_orders": list(fit.local_orders),
                "residual": fit.residual,
            }
        )
    return {**result, "no_order": why}


def _order_line(name: str, variable: str, entry: dict[str, Any]) -> str:
    parts = []
    for quantity in _ORDERED:
        fit = entry[quantity]
        if fit is None:
            why = entry.get("no_order", {}).get(quantity)
            parts.append(f"{quantity}: no order" + (f" ({why})" if why else ""))
            continue
        local = ", ".join(f"{p:.2f}" for p in fit["local_orders"])
        low, high = fit["range"]
        parts.append(f"{quantity} order {fit['order']:.2f} over {variable} {low:g}…{high:g} (local {local})")
    return f"{name}: " + "; ".join(parts)


@final
class RigidTrajectoriesStudy(AbstractStudyKind):
    """``kind = "rigid_trajectories"``: the compliant model at a sweep of α, Moreau–Jean at a sweep of δt,
    optionally Gholami et al., against the event-driven reference: distances outside the impulsive layers, mode
    sequences, event times, impulses, a verdict per run and the orders in α and δt."""

    NAME = _KIND
    TABLE_COLUMNS = _TABLE_COLUMNS

    def schema(self, raw: dict[str, Any]) -> dict[str, Any]:
        """The schema of a whole-motion comparison; ``[system]`` is any kind's (without how a compliant run starts)."""
        kind = system_kind(raw)
        selection = cfg.choice(*SELECTION_RULES)
        return {
            "study": cfg.study_fields(_KIND),
            "system": {key: field for key, field in kind_fields(kind).items() if key not in START_FIELDS},
            "horizon": {
                "t_end": cfg.Field(cfg.positive, cfg.REQUIRED, "the end time of every run (> 0)"),
                "grid_dt": cfg.Field(cfg.positive, 1e-3, "spacing Δ of the common comparison grid"),
                "t_skip": cfg.Field(cfg.nonnegative, 0.05, "grid times before this are the initial impulsive layer"),
                "impact_window": cfg.Field(
                    cfg.nonnegative, 0.05, "half-width of the window left out around each later impulsive event"
                ),
            },
            "compliant": {
                "alpha": cfg.alpha_field(),
                "solver": cfg.Field(cfg.choice(*IMPLICIT_SOLVERS), "RadauIIA5", "an implicit diffrax solver"),
                **cfg.solve_fields(1e-8, 1e-10, 200_000),
                "friction_damping": cfg.Field(cfg.positive, 1.0, "tangential damping γ_t at α = 1 (γ_n = 1)"),
                "friction_damping_exponent": cfg.Field(cfg.finite, 1.0, "α-exponent e of γ_t = c_t α^e"),
            },
            "moreau_jean": {
                "dt": cfg.Field(cfg.values_of(cfg.positive, "time steps δt > 0"), cfg.REQUIRED, "time steps δt"),
                "selection": cfg.Field(selection, "painleve", "selection rule among several solutions of a step"),
            },
            "gholami": {
                "dt": cfg.Field(cfg.or_word(cfg.positive, "none"), None, "time step δt > 0, or 'none' (not run)"),
                "threshold": cfg.Field(cfg.positive, 1e-3, "static/kinetic velocity threshold v_s > 0"),
                "selection": cfg.Field(selection, "painleve", "selection rule among several solutions of a step"),
            },
            "verdict": {
                "tolerance": cfg.Field(
                    cfg.in_open_interval(0.0, 1.0),
                    0.1,
                    "a run agrees with the reference within this share of its motion's size and of each impulse's size",
                ),
            },
            "event_driven": {
                "selection": cfg.Field(cfg.choice("painleve", "least_energy"), "painleve", "rule on indeterminacy"),
                "restitution": cfg.Field(
                    cfg.nonnegative, 0.0, "restitution in [0, 1]: Newton's e (lcp), Poisson's r (darboux_keller)"
                ),
                "impact_law": cfg.Field(
                    cfg.choice(*IMPACT_LAWS),
                    "lcp",
                    "impact LCP, Darboux–Keller (Coulomb during the impact) or the compliant model's limit law",
                ),
                **cfg.solve_fields(1e-10, 1e-12, of=" of the segments"),
            },
        }

    def check(self, config: dict[str, Any], overridden: list[str]) -> list[str]:
        """The system's own cross-key check; a grid coarser than the horizon is refused."""
        del overridden
        system_kind_of(config["system"]["kind"]).check(config["system"])
        horizon = config["horizon"]
        if horizon["grid_dt"] >= horizon["t_end"]:
            raise cfg.ConfigError(
                "horizon.grid_dt", horizon["grid_dt"], f"a spacing < horizon.t_end = {horizon['t_end']}"
            )
        if horizon["t_skip"] >= horizon["t_end"]:
            raise cfg.ConfigError("horizon.t_skip", horizon["t_skip"], f"a time < horizon.t_end = {horizon['t_end']}")
        if config["event_driven"]["restitution"] > 1:
            raise cfg.ConfigError(
                "event_driven.restitution", config["event_driven"]["restitution"], "a number in [0, 1]"
            )
        return []

    def estimate(self, config: Mapping[str, Any], devices: DeviceSet) -> Estimate:
        del devices
        horizon = config["horizon"]
        alphas = len(config["compliant"]["alpha"])
        steps = [horizon["t_end"] / dt for dt in config["moreau_jean"]["dt"]]
        if config["gholami"]["dt"] is not None:
            steps.append(horizon["t_end"] / config["gholami"]["dt"])
        samples = horizon["t_end"] / horizon["grid_dt"] + 1
        cases = alphas + len(steps) + 1
        phases = {
            "start": STARTUP_S,
            "event-driven": TRAJECTORY_EVENT_DRIVEN_S,
            "compile": TRAJECTORY_COMPILE_S,
            "solve": alphas * TRAJECTORY_RUN_S * rtol_factor(config["compliant"]["rtol"]),
            "time stepping": sum(steps) * RIGID_STEP_S,
        }
        memory = BASE_BYTES + cases * samples * SAMPLE_BYTES + sum(steps) * RIGID_STEP_BYTES
        detail = f"{alphas} α, {len(steps)} time steppers, the event-driven run; {samples:,.0f} samples each"
        return Estimate(cases, detail, memory, phases)

    def run(self, config: dict[str, Any], progress: Callable[[str], None] = lambda message: None) -> StudyResult:
        """The comparison as a study result: one row per run, the orders in α and δt, the reference's events."""
        comparison = compare(config, progress)
        reference = comparison.reference
        tolerance = config["verdict"]["tolerance"]
        events = ", ".join(f"{kind} at {t:.6g}" for t, kind in comparison.impulsive_events)
        changes = ", ".join(f"{kind} (contact {c + 1}) at {t:.6g}" for t, c, kind in reference.events)
        summary = [
            f"event-driven reference: impulsive events: {events or 'none'}; "
            f"mode changes after t_skip: {changes or 'none'}",
            f"compared on {comparison.statistics['compared_grid_points']} of {len(comparison.grid)} grid points "
            f"(t ≥ {config['horizon']['t_skip']:g}, ±{config['horizon']['impact_window']:g} around later impacts); "
            "distances: max-norm over the grid and the coordinates, to the event-driven run",
            f"event-driven impulses after t_skip: {'; '.join(p.text() for p in reference.impulses) or 'none'}; "
            f"a run agrees when its modes and impulses are the reference's (impulses above κ F Δ = "
            f"{IMPULSE_FACTOR:g} × its smooth force level × its step, sizes within {tolerance:g} plus that) and "
            f"distance_q, distance_v are within {tolerance:g} of the reference's range of q and largest |v|",
            _order_line("compliant, as α → ∞", "α", comparison.orders["compliant_alpha"]),
            _order_line("Moreau–Jean, as δt → 0", "δt", comparison.orders["moreau_jean_dt"]),
            "left out of the orders (event sequence not the reference's): "
            + ("; ".join(f"{run}: {why}" for run, why in comparison.left_out) or "none"),
        ]
        failures = [f"{row['run']}: the compliant solve failed" for row in comparison.rows if not row["solved"]]
        return StudyResult(
            name=config["study"]["name"],
            kind=_KIND,
            rows=comparison.rows,
            references={"event_driven": {"modes": _mode_text(reference.modes[comparison.compared])}},
            solver_statistics=comparison.statistics,
            timings=comparison.timings,
            failures=failures,
            summary=summary,
            extra={"orders": comparison.orders, "left_out_of_orders": [list(item) for item in comparison.left_out]},
        )
