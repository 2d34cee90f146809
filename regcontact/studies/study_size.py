"""How big a study is, from its validated config alone: its cases, the memory it will take and a rough time for a
cold run. Everything is counted from the config's lengths, never built, so that sizing a study of 1e12 cases
costs what sizing one of ten does (microseconds), and a run above the limits (:class:`SizeLimits`) is refused
before anything is allocated.

A *case* is one run of the study's model: one compliant solve (a sweep's case, a landing at one α, a rod and law
at one α), or one rigid run. The estimates are measurements scaled, not models of the solvers: each study kind
is split into its phases (start, rigid references, compiling, solving, making the rows), each phase's cost per
unit (per case, per compilation, per landing, per time step) was measured on a 2-core CPU shared with other
jobs, divided by the load factor at the time (the 1-minute load average over the cores, at least 1) to give an
idle machine's figure, and is multiplied by the load factor when estimated (:func:`load_factor`). Cold means
without the compilation cache; with it a repeated run compiles nothing. Measured against cold runs: the notes of
``docs/sweeps.md``.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Callable, Mapping
from typing import Any

from regcontact.studies import config as cfg

__all__ = [
    "MAX_CASES",
    "DeviceSet",
    "SizeLimits",
    "StudySize",
    "available_memory",
    "format_bytes",
    "format_seconds",
    "load_factor",
    "study_size",
]

#: The largest study ``regcontact run`` starts without ``--max-cases``: a million compliant solves take hours on a
#: CPU, and their rows about 2 GB of memory.
MAX_CASES = 1_000_000

#: Seconds (idle machine) to start Python and JAX and import a study kind.
STARTUP_S = 2.0
#: Bytes a process takes before the study's own data: Python, JAX and a compiled solve (peak RSS of small runs:
#: 0.60–0.74 GB for compliant sweeps, 0.19 GB for the rigid study).
BASE_BYTES = 700e6
RIGID_BASE_BYTES = 200e6

# -- compliant sweeps (the Table 1 rod; RadauIIA5). Measured at a load factor of about 2.25 (load average 4.5 on
# 2 cores): a cold compile of the vmapped solve 28.5 s; 256 cases in chunks of 64 on 2 host devices 1.17 s at rtol
# 1e-10 (226 steps a case), 0.80 s at 1e-8 (144), 0.51 s at 1e-6 (88): steps ∝ rtol^(-0.1). The rows, CSV, JSON
# and grid of 1e5 cases: 0.4 ms and 1.75 kB a case (peak RSS 0.70 GB at 1e4 cases, 0.85 GB at 1e5).
#: Seconds to compile a sweep's vmapped solve, by system kind (relative to the rod: the shipped studies' compile
#: times).
COMPILE_S: dict[str, float] = {
    "painleve_rod": 12.7,
    "two_point_rod": 11.5,
    "reduced_single_contact": 8.1,
    "reduced_two_contact": 20.7,
}
#: Seconds of solving per case and CPU device at rtol 1e-10, and the exponent of rtol in the step count.
SOLVE_S_PER_CASE_PER_CPU = 4.0e-3
RTOL_EXPONENT = -0.1
#: One GPU (an H100, the Table 1 family at rtol 1e-10, ``docs/performance.md``): a chunk takes about
#: ``GPU_CHUNK_S`` plus its cases at ``GPU_CASES_PER_S`` (1,024 lanes 0.21 s, 16,384 0.57 s, 65,536 2.1 s).
GPU_CASES_PER_S = 35_000.0
GPU_CHUNK_S = 0.2
#: Seconds and bytes of host work per case: the batch, the rows, the files.
HOST_S_PER_CASE = 0.18e-3
HOST_BYTES_PER_CASE = 1_800.0
#: Seconds of the rigid references per distinct system (impulse-velocity LCP, time-stepping steps).
REFERENCE_S_PER_SYSTEM = 2e-3

# -- landing tables (12 landings × 7 α at a load factor of about 2: rigid impact laws 9.7 s, 4 compilations 97 s,
# 84 runs 4.6 s on one device; the whole cold run 142 s at a load factor of about 5: the compilations' share is
# taken between the two).
LANDING_RIGID_S = 0.40
LANDING_COMPILE_S = 7.0
LANDING_RUN_S = 0.027
LANDING_BYTES = 20e3

# -- the other kinds, from the shipped studies' cold runs (their results.json timings, load factor about 2).
CHATTER_RIGID_S = 4.0
CHATTER_COMPILE_S = 4.0
CHATTER_RUN_S = 0.15
JAM_RIGID_S = 9.0
JAM_CALL_S = 8.0
JAM_RUN_S = 0.1
CROSSING_RIGID_S = 12.0
CROSSING_COMPILE_S = 8.0
CROSSING_RUN_S = 0.3
TRAJECTORY_COMPILE_S = 6.0
TRAJECTORY_RUN_S = 0.1
TRAJECTORY_EVENT_DRIVEN_S = 1.0
#: Seconds per step of a rigid time stepper (Moreau–Jean, Gholami et al.: a small LCP on the host).
RIGID_STEP_S = 0.4e-3
RIGID_SETUP_S = 0.8
#: Bytes kept per sample of a compliant trajectory (its state, statuses and the copies made reading it).
SAMPLE_BYTES = 400.0
#: Bytes kept per step of a rigid time stepper (state, impulses, modes).
RIGID_STEP_BYTES = 300.0


@dataclasses.dataclass(frozen=True)
class DeviceSet:
    """The devices a study would run on: their platform (``"cpu"``, ``"gpu"``) and how many."""

    platform: str
    count: int

    @classmethod
    def of(cls, devices: Any) -> DeviceSet:
        """The set of a list of JAX devices."""
        return cls("cpu" if devices[0].platform == "cpu" else "gpu", len(devices))


@dataclasses.dataclass(frozen=True)
class StudySize:
    """A study's size, counted from its config: cases, what they are, peak memory (bytes) and a cold run's time
    (seconds) split into its phases."""

    cases: int
    detail: str
    memory: float
    phases: Mapping[str, float]
    devices: DeviceSet

    @property
    def seconds(self) -> float:
        return sum(self.phases.values())

    def lines(self) -> list[str]:
        """What ``regcontact check`` says of the size."""
        split = ", ".join(f"{name} ~{format_seconds(seconds)}" for name, seconds in self.phases.items())
        return [
            f"cases: {self.cases:,} ({self.detail})",
            f"memory: about {format_bytes(self.memory)} at the peak",
            f"time: roughly {format_seconds(self.seconds)} for a cold run on {self.describe_devices()} ({split}; "
            "less with the compilation cache)",
        ]

    def describe_devices(self) -> str:
        return f"{self.devices.platform} × {self.devices.count}"

    def short(self) -> str:
        """``10,000,000 cases (100 mu × 1,000 alpha × 100 vx0), about 18 GB and 19 h on cpu × 2``."""
        return (
            f"{self.cases:,} cases ({self.detail}), about {format_bytes(self.memory)} and "
            f"{format_seconds(self.seconds)} on {self.describe_devices()}"
        )


def format_bytes(count: float) -> str:
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if count >= size:
            return f"{count / size:.3g} {unit}"
    return f"{count / 1e3:.3g} kB"


def format_seconds(seconds: float) -> str:
    for unit, size in (("d", 86400.0), ("h", 3600.0), ("min", 60.0)):
        if seconds >= 2 * size:
            return f"{seconds / size:.3g} {unit}"
    return f"{seconds:.2g} s" if seconds < 10 else f"{seconds:.0f} s"


def load_factor() -> float:
    """How much slower than idle this machine runs now: the 1-minute load average over the cores, at least 1."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        return 1.0
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1.0, load / cores)


def available_memory() -> float:
    """Bytes of memory a new allocation can take here: Linux's ``MemAvailable``, else the free pages."""
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return float(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return float(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return math.inf


# -- the study kinds -----------------------------------------------------------------------------------------------


def _lengths(config: Mapping[str, Any], *keys: str) -> list[int]:
    return [len(config[table][key]) for table, key in (key.split(".") for key in keys)]


def _solve_seconds(cases: float, per_case_per_cpu: float, devices: DeviceSet) -> float:
    """Seconds to solve ``cases`` vmapped compliant runs across the devices (a GPU at its measured rate)."""
    if devices.platform == "gpu":
        from regcontact.compliant.devices import CASES_PER_DEVICE

        chunks = math.ceil(cases / (CASES_PER_DEVICE["gpu"] * devices.count))
        return chunks * GPU_CHUNK_S + cases / (GPU_CASES_PER_S * devices.count)
    return cases * per_case_per_cpu / devices.count


def _rtol_factor(rtol: float) -> float:
    return (rtol / 1e-10) ** RTOL_EXPONENT


def _compliant_sweep(config: Mapping[str, Any], devices: DeviceSet) -> tuple[int, str, float, dict[str, float]]:
    from regcontact.studies.sweep_plan import column_name, plan_sweep

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
        "start": STARTUP_S,
        "compile": COMPILE_S.get(config["system"]["kind"], max(COMPILE_S.values())),
        "references": systems * per_system,
        "solve": _solve_seconds(cases, SOLVE_S_PER_CASE_PER_CPU * _rtol_factor(rtol), devices),
        "rows": cases * HOST_S_PER_CASE,
    }
    return cases, detail, BASE_BYTES + cases * HOST_BYTES_PER_CASE, phases


def _landing_table(config: Mapping[str, Any], devices: DeviceSet) -> tuple[int, str, float, dict[str, float]]:
    del devices  # one device: a jitted vmap per group
    landings = config["landings"]
    count, (alphas,) = landings["count"], _lengths(config, "compliant.alpha")
    classes = {"reduced_single_contact": "reduced", "rod_on_one_end": "rod", "rod_flat": "rod"}
    groups = min(count, len({classes[name] for name in landings["systems"]}) * len(landings["models"]))
    cases = count * alphas
    phases = {
        "start": STARTUP_S,
        "rigid impact laws": count * LANDING_RIGID_S,
        "compile": groups * LANDING_COMPILE_S,
        "solve": cases * LANDING_RUN_S * _rtol_factor(config["compliant"]["rtol"]),
    }
    memory = BASE_BYTES + count * LANDING_BYTES + cases * HOST_BYTES_PER_CASE
    return cases, f"{count:,} landings × {alphas} α", memory, phases


def _chatter(config: Mapping[str, Any], devices: DeviceSet) -> tuple[int, str, float, dict[str, float]]:
    del devices  # one jitted vmap over α
    (alphas,) = _lengths(config, "compliant.alpha")
    samples = config["horizon"]["samples"]
    phases = {
        "start": STARTUP_S,
        "rigid sequence": CHATTER_RIGID_S,
        "compile": CHATTER_COMPILE_S,
        "solve": alphas * CHATTER_RUN_S * _rtol_factor(config["compliant"]["rtol"]),
    }
    memory = BASE_BYTES + alphas * samples * SAMPLE_BYTES
    return alphas, f"{alphas} α, {samples:,} samples each", memory, phases


def _dynamic_jam(config: Mapping[str, Any], devices: DeviceSet) -> tuple[int, str, float, dict[str, float]]:
    del devices
    rods, laws, alphas = _lengths(config, "rods.cases", "compliant.normal_laws", "compliant.alpha")
    cases = rods * laws * alphas
    phases = {
        "start": STARTUP_S,
        "rigid slips": rods * JAM_RIGID_S,
        "compile": rods * laws * JAM_CALL_S,
        "solve": cases * JAM_RUN_S,
    }
    memory = BASE_BYTES + cases * config["compliant"]["samples"] * SAMPLE_BYTES
    return cases, f"{rods} rods × {laws} laws × {alphas} α", memory, phases


def _spatial_crossing(config: Mapping[str, Any], devices: DeviceSet) -> tuple[int, str, float, dict[str, float]]:
    del devices
    (alphas,) = _lengths(config, "compliant.alpha")
    phases = {
        "start": STARTUP_S,
        "rigid slip": CROSSING_RIGID_S,
        "compile": CROSSING_COMPILE_S,
        "solve": alphas * CROSSING_RUN_S,
    }
    memory = BASE_BYTES + alphas * config["compliant"]["samples"] * SAMPLE_BYTES
    return alphas, f"{alphas} α", memory, phases


def _rigid_trajectories(config: Mapping[str, Any], devices: DeviceSet) -> tuple[int, str, float, dict[str, float]]:
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
        "solve": alphas * TRAJECTORY_RUN_S * _rtol_factor(config["compliant"]["rtol"]),
        "time stepping": sum(steps) * RIGID_STEP_S,
    }
    memory = BASE_BYTES + cases * samples * SAMPLE_BYTES + sum(steps) * RIGID_STEP_BYTES
    detail = f"{alphas} α, {len(steps)} time steppers, the event-driven run; {samples:,.0f} samples each"
    return cases, detail, memory, phases


def _rigid_painleve(config: Mapping[str, Any], devices: DeviceSet) -> tuple[int, str, float, dict[str, float]]:
    del devices
    setups = len(config["setups"])
    cases = 3 * setups
    phases = {"start": STARTUP_S, "rigid problems": setups * RIGID_SETUP_S}
    return cases, f"{setups} setups × 3 formulations", RIGID_BASE_BYTES, phases


#: Each study kind's size, by the name a config gives in ``[study] kind``.
SIZES: dict[str, Callable[[Mapping[str, Any], DeviceSet], tuple[int, str, float, dict[str, float]]]] = {
    "compliant_sweep": _compliant_sweep,
    "rigid_painleve": _rigid_painleve,
    "rigid_trajectories": _rigid_trajectories,
    "landing_table": _landing_table,
    "chatter": _chatter,
    "dynamic_jam": _dynamic_jam,
    "spatial_crossing": _spatial_crossing,
}


def study_size(kind: str, config: Mapping[str, Any], devices: DeviceSet) -> StudySize:
    """The size of a study of ``kind`` whose config has passed its schema (not yet its kind's own check), on
    ``devices``, with the time scaled to the machine's present load."""
    cases, detail, memory, phases = SIZES[kind](config, devices)
    slower = load_factor()
    return StudySize(cases, detail, memory, {name: s * slower for name, s in phases.items()}, devices)


@dataclasses.dataclass(frozen=True)
class SizeLimits:
    """The largest study a run starts: ``max_cases`` cases and ``max_memory`` bytes (default: the memory available
    when it starts)."""

    max_cases: int = MAX_CASES
    max_memory: float | None = None

    def refusal(self, size: StudySize) -> cfg.ConfigError | None:
        """The one-line error for a study above the limits, with its size and time estimate (None: within)."""
        if size.cases > self.max_cases:
            return cfg.ConfigError(
                "--max-cases",
                self.max_cases,
                f"a study of at most that many cases (this one is {size.short()}; give a larger --max-cases to run it)",
            )
        limit = available_memory() if self.max_memory is None else self.max_memory
        if size.memory > limit:
            what = "the memory available here" if self.max_memory is None else "--max-memory"
            return cfg.ConfigError(
                "--max-memory",
                format_bytes(limit),
                f"a study that fits in {what} (this one is {size.short()}; make it smaller, or give a larger "
                "--max-memory if the estimate is too high)",
            )
        return None

    def check(self, size: StudySize) -> None:
        """Raise :meth:`refusal`'s error for a study above the limits."""
        refusal = self.refusal(size)
        if refusal is not None:
            raise refusal
