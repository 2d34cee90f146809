"""``import regcontact`` asks for XLA's sequential CPU schedule before JAX starts, keeps a user's own choice, and
sets nothing once JAX has started. Each case runs in a fresh process: the schedule is fixed when JAX starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FLAG = "--xla_cpu_enable_concurrency_optimized_scheduler"

#: A program with independent chains of small operations, which the two schedules order differently.
PROGRAM = """
import jax, jax.numpy as jnp
def f(x, A):
    return sum(jnp.sin(jnp.linalg.solve(A + i * jnp.eye(4), x) * i) @ A for i in range(6))
print("program", jax.jit(f).lower(jnp.ones(4), jnp.eye(4)).compile().as_text().__hash__())
"""


def _run(code: str, xla_flags: str | None) -> dict[str, str]:
    """Run ``code`` in a fresh interpreter; its ``name value`` lines as a dict."""
    env = {key: value for key, value in os.environ.items() if key != "XLA_FLAGS"}
    env |= {"PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0", "JAX_PLATFORMS": "cpu"}
    if xla_flags is not None:
        env["XLA_FLAGS"] = xla_flags
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    return dict(line.split(" ", 1) for line in out.splitlines())


REPORT = (
    "import os, regcontact\n"
    "from regcontact.compliant.devices import backends_started\n"
    "print('flags', os.environ.get('XLA_FLAGS', ''))\n"
    "print('started', backends_started())\n"
)


def test_import_asks_for_the_sequential_schedule_without_starting_jax():
    report = _run(REPORT, None)
    assert report == {"flags": f"{FLAG}=false", "started": "False"}


def test_other_flags_are_kept():
    report = _run(REPORT, "--xla_force_host_platform_device_count=3")
    assert report["flags"] == f"--xla_force_host_platform_device_count=3 {FLAG}=false"


@pytest.mark.slow
@pytest.mark.parametrize("value", ["true", "false"])
def test_a_users_own_choice_is_kept(value):
    assert _run(REPORT, f"{FLAG}={value}")["flags"] == f"{FLAG}={value}"


def test_nothing_is_set_once_jax_has_started():
    """Then XLA has read its flags: adding one would only mislead."""
    code = "import jax.numpy as jnp\njnp.zeros(1).block_until_ready()\n" + REPORT
    assert _run(code, None) == {"flags": "", "started": "True"}


@pytest.mark.slow
def test_the_schedule_takes_effect():
    """After ``import regcontact`` XLA compiles what it compiles with the flag set by hand, not what it compiles
    with JAX's default (concurrency-optimised) schedule."""
    program = "import regcontact\n" + PROGRAM  # float64 in all three
    by_import = _run(program, None)["program"]
    sequential = _run(program, f"{FLAG}=false")["program"]
    concurrent = _run(program, f"{FLAG}=true")["program"]
    assert by_import == sequential != concurrent


@pytest.mark.slow
def test_use_host_cores_takes_the_flag_back_for_sweeps():
    """A sweep's wide batches run faster on JAX's default schedule: ``use_host_cores`` (which ``regcontact run``
    calls) removes the flag the import added, and only that flag."""
    code = "import regcontact\nregcontact.use_host_cores(2)\n" + REPORT
    assert _run(code, "--xla_dump_to=/dev/null")["flags"] == "--xla_dump_to=/dev/null"


@pytest.mark.slow
def test_use_host_cores_keeps_a_users_own_choice():
    code = "import regcontact\nregcontact.use_host_cores(2)\n" + REPORT
    assert _run(code, f"{FLAG}=false")["flags"] == f"{FLAG}=false"


@pytest.mark.slow
def test_the_command_runs_on_the_default_schedule():
    """``regcontact run`` starts JAX through ``use_host_cores``: XLA compiles what it compiles by default."""
    code = (
        "import regcontact, argparse\nfrom regcontact import cli\n"
        "cli._start_jax(argparse.Namespace(device=None, no_compilation_cache=True))\n" + PROGRAM
    )
    concurrent, sequential = (_run(code, f"{FLAG}={value}")["program"] for value in ("true", "false"))
    assert _run(code, None)["program"] == concurrent != sequential
