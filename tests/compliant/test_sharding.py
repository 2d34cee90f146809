"""A sweep sharded across devices: the same numbers and steps as on one device, padding, per-case failures, the
automatic chunk size and the progress bar. The suite runs with two host devices (``tests/conftest.py``)."""

import io
import sys

import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
import pytest

from regcontact.compliant import SOLVER_STATUSES, Case, Controls, SolveSettings, sweep
from regcontact.compliant.devices import (
    CASES_PER_DEVICE,
    automatic_chunk_size,
    describe_devices,
    sweep_devices,
    use_host_cores,
)
from regcontact.compliant.termination import contact_time
from regcontact.contact import ContactModel
from regcontact.systems.rod import PainleveRod
from tests.compliant.batch_promise import assert_lanes_agree

pytestmark = pytest.mark.slow

ROD = PainleveRod()
MODEL = ContactModel()
RTOL, ATOL = 1e-6, 1e-8
# At rtol 1e-6 the Table 1 rod takes 39–68 steps for α ≤ 1e9 and 343 at α = 1e12 (docs/solvers.md): with
# 200 steps allowed, the α = 1e12 case fails and the others finish.
RADAU = SolveSettings(solver="RadauIIA5", events=("contact_open",), max_steps=200)
KVAERNO = SolveSettings(solver="Kvaerno5", events=("contact_open",), max_steps=200)
ALPHAS = [1e3, 1e12, 1e5, 1e7, 1e9]  # five: not a multiple of two devices, so the chunk is padded


def _cases(alphas):
    cases = [
        Case(ROD, MODEL, jnp.asarray(a), Controls(RTOL, ATOL, contact_time(ROD, MODEL.at_stiffness(a)[0].stiffness)))
        for a in alphas
    ]
    return jtu.tree_map(lambda *leaves: jnp.stack(leaves), *cases)


@pytest.fixture(scope="module")
def devices():
    """Two host devices, also where the default back end is a GPU."""
    devices = sweep_devices("cpu")
    if len(devices) < 2:
        pytest.skip("needs two devices (tests/conftest.py asks for two host devices)")
    return devices[:2]


@pytest.mark.parametrize("settings", [RADAU, KVAERNO], ids=["shard_map", "partitioned"])
def test_sharded_sweep_equals_one_device(settings, devices):
    batch = _cases(ALPHAS)
    sharded, _ = sweep(batch, settings, chunk_size=len(ALPHAS), devices=devices)
    alone, _ = sweep(batch, settings, chunk_size=len(ALPHAS), devices=devices[:1])
    assert sharded.num_accepted_steps.shape == (len(ALPHAS),)  # the padded lane is dropped
    np.testing.assert_array_equal(sharded.status, alone.status)
    np.testing.assert_array_equal(sharded.ok, alone.ok)
    assert_lanes_agree(
        sharded.force_integrals,
        alone.force_integrals,
        settings.solver,
        RTOL,
        ATOL,
        steps=(sharded.num_accepted_steps, alone.num_accepted_steps),
    )
    np.testing.assert_array_equal(sharded.num_rejected_steps, alone.num_rejected_steps)
    if settings is RADAU:  # the failure stays with its case
        assert [SOLVER_STATUSES[s] for s in sharded.status[:2]] == ["successful", "max_steps_reached"]
        assert sharded.ok.tolist() == [True, False, True, True, True]


def test_automatic_chunk_size_fits_devices_and_memory(devices):
    cpu_cap = CASES_PER_DEVICE["cpu"]
    assert automatic_chunk_size(5, devices, 1) == 6  # padded to a multiple of the devices
    assert automatic_chunk_size(2 * cpu_cap, devices, 1) == 2 * cpu_cap
    # 100 cases at most 64 a chunk: two even chunks of 50, not 64 + 36 padded to 64
    assert automatic_chunk_size(100, devices, 1) == 50
    # a case too big for a quarter of the memory: one case per device and chunk
    assert automatic_chunk_size(100, devices, 2**62) == 2


def test_automatic_chunk_size_in_a_sweep_and_the_device_description(devices):
    lines = []
    runs, _ = sweep(_cases(ALPHAS), RADAU, progress=lines.append, devices=devices)
    assert runs.ok.tolist() == [True, False, True, True, True]
    assert "chunks of 6 on 2 cpu devices" in lines[0]
    assert describe_devices(devices).startswith("cpu × 2 (")


def test_progress_bar_quiet_when_stderr_is_not_a_terminal(devices, capsys):
    lines = []
    sweep(_cases(ALPHAS), RADAU, chunk_size=2, progress=lines.append, devices=devices, progress_bar=True)
    assert capsys.readouterr().err == ""
    assert lines[-1].startswith("solved 5/5 cases")  # without a bar, a line per chunk


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_on_a_terminal_shows_cases_rate_and_time_left(devices, monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    lines = []
    sweep(_cases(ALPHAS), RADAU, chunk_size=2, progress=lines.append, devices=devices, progress_bar=True)
    shown = terminal.getvalue()
    assert "5/5 cases" in shown and "solves/s" in shown and "<" in shown  # done, rate, elapsed<remaining
    # a line while compiling and one when done; chunks are on the bar
    assert [line.split(" the vmapped")[0] for line in lines] == ["compiling", "compiled"]


def test_host_device_count_is_fixed_once_jax_has_started(devices):
    assert use_host_cores(len(jax.devices("cpu"))) == len(jax.devices("cpu"))
    with pytest.raises(RuntimeError, match="before the first JAX computation"):
        use_host_cores(len(jax.devices("cpu")) + 1)
