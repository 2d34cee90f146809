"""How big a study is, from its validated config alone: its cases, the memory it will take and a rough time for a
cold run, counted from the config's lengths (never built), and the limits a run is refused above. How the
estimates were measured: ``docs/cluster.md``.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Mapping
from typing import Any, NamedTuple, Protocol

from regcontact.studies import config as cfg

__all__ = [
    "MAX_CASES",
    "DeviceSet",
    "Estimate",
    "Estimating",
    "SizeLimits",
    "StudySize",
    "available_memory",
    "format_bytes",
    "format_seconds",
    "lengths",
    "load_factor",
    "rtol_factor",
    "solve_seconds",
    "study_size",
]

#: The largest study ``regcontact run`` starts without ``--max-cases``: a million compliant solves take hours on a
#: CPU, and their rows about 2 GB of memory.
MAX_CASES = 1_000_000

#: Seconds (idle machine) to start Python and JAX and import a study kind.
STARTUP_S = 2.0
#: Bytes a process takes before the study's own data: Python, JAX and a compiled solve (peak RSS of small runs:
#: 0.60–0.74 GB for compliant sweeps).
BASE_BYTES = 700e6
#: The exponent of rtol in a compliant solve's step count (steps ∝ rtol^(-0.1), from 1e-10 to 1e-6).
RTOL_EXPONENT = -0.1
#: One GPU (an H100, the Table 1 family at rtol 1e-10, ``docs/performance.md``): a chunk takes about
#: ``GPU_CHUNK_S`` plus its cases at ``GPU_CASES_PER_S`` (1,024 lanes 0.21 s, 16,384 0.57 s, 65,536 2.1 s).
GPU_CASES_PER_S = 35_000.0
GPU_CHUNK_S = 0.2
#: Bytes of host work per case: the batch, the rows, the files.
HOST_BYTES_PER_CASE = 1_800.0
#: Bytes kept per sample of a compliant trajectory (its state, statuses and the copies made reading it).
SAMPLE_BYTES = 400.0


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
    """How much slower than idle a run would go now: the 1-minute load average plus the run itself, over the
    cores, at least 1 (a run shares the cores with the load already there)."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        return 1.0
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1.0, (load + 1) / cores)


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


# -- shared by the kinds' estimates -----------------------------------------------------------------------------


def lengths(config: Mapping[str, Any], *keys: str) -> list[int]:
    """The lengths of the lists at ``table.key`` in a config."""
    return [len(config[table][key]) for table, key in (key.split(".") for key in keys)]


def solve_seconds(cases: float, per_case_per_cpu: float, devices: DeviceSet) -> float:
    """Seconds to solve ``cases`` vmapped compliant runs across the devices (a GPU at its measured rate)."""
    if devices.platform == "gpu":
        from regcontact.compliant.devices import CASES_PER_DEVICE

        chunks = math.ceil(cases / (CASES_PER_DEVICE["gpu"] * devices.count))
        return chunks * GPU_CHUNK_S + cases / (GPU_CASES_PER_S * devices.count)
    return cases * per_case_per_cpu / devices.count


def rtol_factor(rtol: float) -> float:
    """How many more steps a compliant solve takes at ``rtol`` than at 1e-10."""
    return (rtol / 1e-10) ** RTOL_EXPONENT


class Estimate(NamedTuple):
    """A study's size before scaling to the machine's load: its cases, what they are (``"7 α"``), its peak memory
    (bytes) and a cold run's seconds on an idle machine, by phase."""

    cases: int
    detail: str
    memory: float
    phases: dict[str, float]


class Estimating(Protocol):
    """What sizes a study: a study kind's ``estimate`` (:class:`~regcontact.studies._study_kind.AbstractStudyKind`)."""

    def estimate(self, config: Mapping[str, Any], devices: DeviceSet) -> Estimate: ...


def study_size(kind: Estimating, config: Mapping[str, Any], devices: DeviceSet) -> StudySize:
    """The size of a study of ``kind`` whose config has passed its schema (not yet its kind's own check), on
    ``devices``, with the time scaled to the machine's present load."""
    cases, detail, memory, phases = kind.estimate(config, devices)
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
