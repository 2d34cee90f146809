"""What ``regcontact check`` says of a compliant sweep beyond its size (:mod:`regcontact.studies.study_size`): how
its cases are cut into chunks, and the devices that would solve them. Counted from the config, never built: a
sweep of 1e7 cases is checked as fast as one of ten.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["check_lines"]


def _bytes_per_case(config: dict[str, Any]) -> int:
    """Device memory one case of a vmapped Radau solve takes, as :func:`~regcontact.compliant.case_bytes`
    estimates it (four ``3d × 3d`` Newton matrices, ``d`` the state size), for the sweep's first system."""
    import jax

    from regcontact.compliant.dynamics import initial_state
    from regcontact.studies.compliant_sweep import CompliantSweep
    from regcontact.studies.system_config import system_from_config

    system = system_from_config(CompliantSweep.from_config(config).system_table(0))
    state_size = jax.eval_shape(lambda system: initial_state(system).flat, system).size
    return 4 * 8 * (3 * state_size) ** 2


def check_lines(kind: str, config: dict[str, Any]) -> list[str]:
    """The lines ``regcontact check`` prints after a validated study's size (JAX started, on the devices it
    would use): a compliant sweep's chunks and devices; nothing for the other kinds."""
    if kind != "compliant_sweep":
        return []
    from regcontact.compliant.devices import automatic_chunk_size, describe_devices, sweep_devices
    from regcontact.studies.sweep_plan import plan_sweep

    devices = sweep_devices()
    total = plan_sweep(config).size
    count = len(devices)
    given = config["sweep"]["chunk_size"]
    if given is None:
        chunk = automatic_chunk_size(total, devices, _bytes_per_case(config))
    else:
        chunk = given
    chunk = count * math.ceil(min(chunk, total) / count)
    return [
        f"chunks: {math.ceil(total / chunk):,} of {chunk:,} cases" + ("" if given else " (chosen from the devices)"),
        f"devices: {describe_devices(devices)}",
    ]
