"""Where a sweep runs: the devices of one back end, the CPU split into one device per core, and chunk sizes.

A sweep shards every chunk of its batch across the devices of one back end (:func:`sweep_devices`): several
GPUs, or, on a CPU, several *host devices*. JAX sees one CPU device by default and a vmapped batch on it runs
on one core; :func:`use_host_cores` splits the CPU into one device per core. That must happen before JAX
initialises its back ends (its first computation), so it is never done on import: the ``regcontact`` command
does it for its own process, a Python user calls it right after the imports (or sets ``JAX_NUM_CPU_DEVICES``,
or ``XLA_FLAGS=--xla_force_host_platform_device_count=N``, before starting Python).

A bug of jaxlib 0.10 stands in the way: its batched LAPACK kernels (the LU of the Radau Newton under ``vmap``)
split their batch into tasks on XLA's CPU thread pool and block until those are done. That pool has one thread
per core, so with one host device per core every thread can end up blocked, each waiting for tasks that no
thread is left to run: the sweep hangs (measured here: 2 host devices, 16 or more cases per device).
:func:`use_host_cores` therefore also enlarges the pool (XLA reads its size from ``NPROC``) to
:func:`pool_threads_needed`; :func:`sweep_devices` falls back to one device, with a warning, where the
devices were split some other way and the pool is too small.
"""

from __future__ import annotations

import math
import os
import re
import warnings
from collections.abc import Sequence

import jax
from jax._src import xla_bridge

import regcontact

__all__ = [
    "CASES_PER_DEVICE",
    "MEMORY_FRACTION",
    "automatic_chunk_size",
    "available_cores",
    "backends_started",
    "describe_devices",
    "host_cores_set_by_environment",
    "pool_threads_needed",
    "sweep_devices",
    "use_host_cores",
]

#: Cases per device in an automatic chunk. On a CPU a vmapped batch works its lanes one after the other inside
#: every step and waits for its slowest lane, so beyond a few dozen lanes a chunk gains nothing
#: (``benchmarks/throughput.txt``) and small chunks give a progress bar that moves; a GPU fills up from about
#: 1e4 lanes (an H100: 28.5k solves/s at 16,384 lanes, 31k at 65,536; ``docs/performance.md``).
CASES_PER_DEVICE: dict[str, int] = {"cpu": 32, "gpu": 16384}

#: Share of a device's free memory that an automatic chunk may take.
MEMORY_FRACTION = 0.25

_HOST_DEVICE_FLAG = re.compile(r"--xla_force_host_platform_device_count=(\d+)")


def backends_started() -> bool:
    """Whether JAX has initialised its back ends (after which the host device count is fixed)."""
    return xla_bridge.backends_are_initialized()


def available_cores() -> int:
    """CPU cores this process may run on (its affinity mask where the OS has one, else ``os.cpu_count()``)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def host_cores_set_by_environment() -> int | None:
    """The host device count the user's environment asks for (``JAX_NUM_CPU_DEVICES``, or the XLA flag in
    ``XLA_FLAGS``), or ``None``."""
    if os.environ.get("JAX_NUM_CPU_DEVICES"):
        return int(os.environ["JAX_NUM_CPU_DEVICES"])
    match = _HOST_DEVICE_FLAG.search(os.environ.get("XLA_FLAGS", ""))
    return int(match.group(1)) if match else None


def pool_threads_needed(count: int) -> int:
    """Threads XLA's CPU pool needs so that ``count`` host devices, each blocking up to two threads in a
    LAPACK call, still leave one thread per core to run the calls' tasks."""
    return 2 * count + available_cores()


def _pool_threads() -> int:
    """The pool size XLA takes: ``NPROC`` if set, else the cores."""
    setting = os.environ.get("NPROC", "")
    return int(setting) if setting.isdigit() else available_cores()


def use_host_cores(count: int | None = None) -> int:
    """Split the CPU into ``count`` JAX host devices (default: :func:`available_cores`) and return the count.

    A sweep then shards its batch across them, one core each. JAX reads this when it initialises its back ends,
    so call it before the first JAX computation; later it raises ``RuntimeError`` (unless the count is already
    the one asked for). A count the environment sets (``JAX_NUM_CPU_DEVICES``, ``XLA_FLAGS``) is kept: with no
    ``count`` this returns it, with a different one it raises. It also sets ``NPROC`` (XLA's CPU thread pool
    size) to :func:`pool_threads_needed`, unless it is already at least that, and takes back the sequential
    schedule ``import regcontact`` asked for: a sweep's wide batches run faster on XLA's default one
    (``docs/performance.md``).
    """
    from_environment = host_cores_set_by_environment()
    if count is None:
        count = from_environment or available_cores()
    if count < 1:
        raise ValueError(f"host device count must be at least 1, not {count}")
    if from_environment is not None and from_environment != count:
        raise RuntimeError(f"the environment already asks for {from_environment} host devices, not {count}")
    if backends_started():
        present = len(jax.devices("cpu"))
        if present != count:
            raise RuntimeError(
                f"JAX has initialised its back ends with {present} host device(s); call use_host_cores before "
                "the first JAX computation, or set JAX_NUM_CPU_DEVICES before starting Python"
            )
        return count
    jax.config.update("jax_num_cpu_devices", count)
    regcontact._use_default_schedule()
    if _pool_threads() < pool_threads_needed(count):
        os.environ["NPROC"] = str(pool_threads_needed(count))
    return count


def sweep_devices(platform: str | None = None) -> list[jax.Device]:
    """The devices a sweep shards across: every local device of ``platform`` (default: JAX's default back end).

    Host devices split without :func:`use_host_cores` and with XLA's CPU pool too small for them would hang
    (module docstring): then only the first, with a warning.
    """
    devices = jax.local_devices(backend=platform or jax.default_backend())
    if devices[0].platform == "cpu" and len(devices) > 1 and _pool_threads() < pool_threads_needed(len(devices)):
        warnings.warn(
            f"{len(devices)} host devices but XLA's CPU thread pool has {_pool_threads()} threads: sharding a "
            f"sweep across them can hang (a jaxlib bug); using one device. Call regcontact.use_host_cores() "
            f"before JAX starts, or set NPROC={pool_threads_needed(len(devices))} with the device count",
            RuntimeWarning,
            stacklevel=2,
        )
        return devices[:1]
    return devices


def describe_devices(devices: Sequence[jax.Device]) -> str:
    """``"cpu × 2 (TFRT_CPU_0, TFRT_CPU_1)"``, ``"gpu × 1: NVIDIA H100 80GB HBM3 (cuda:0)"``."""
    first = devices[0]
    kind = "" if first.device_kind == first.platform else f": {first.device_kind}"
    return f"{first.platform} × {len(devices)}{kind} ({', '.join(str(device) for device in devices)})"


def _free_memory(device: jax.Device) -> int:
    """Bytes free on ``device``: its allocator's limit less what is in use, or, for host devices, the
    available host memory shared among them."""
    stats = device.memory_stats() if device.platform != "cpu" else None
    if stats and "bytes_limit" in stats:
        return int(stats["bytes_limit"]) - int(stats.get("bytes_in_use", 0))
    try:
        available = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        available = 2**32
    return available // max(1, len(jax.local_devices(backend="cpu")))


def automatic_chunk_size(total: int, devices: Sequence[jax.Device], bytes_per_case: int) -> int:
    """Cases per vmapped call when the caller gives none: a multiple of the device count, at most
    :data:`CASES_PER_DEVICE` per device and :data:`MEMORY_FRACTION` of a device's free memory, and as even as
    possible over the chunks (so the last one is not mostly padding)."""
    count = len(devices)
    platform = "cpu" if devices[0].platform == "cpu" else "gpu"
    by_memory = int(MEMORY_FRACTION * _free_memory(devices[0]) // max(1, bytes_per_case))
    per_device = max(1, min(CASES_PER_DEVICE[platform], by_memory))
    chunks = math.ceil(total / (count * per_device))
    return count * math.ceil(math.ceil(total / chunks) / count)
