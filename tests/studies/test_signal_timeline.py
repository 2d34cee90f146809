"""SIGINT and SIGTERM are answered in every phase of a run, from its first instant to its last write: a real
``regcontact run`` process (the Table 1 rod at one α) is signalled at times spread over its whole life, measured
from the moment it has a handler. Each time it ends within a second with status 130 (143), one last line that
says what is on disk, no traceback and no "Exception ignored" (a signal that lands in one of JAX's
garbage-collection callbacks is not swallowed), and results on disk only where that line says so. A signal
that comes once the process has held its signals to end (past its last write, while the kernel tears it down)
leaves its status 0 and its results whole."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads signal handlers in /proc (Linux)"),
]

ROOT = Path(__file__).parents[2]
STUDY = str(ROOT / "studies" / "table1.toml")
COMMAND = [sys.executable, "-m", "regcontact", "run", STUDY, "--set", "sweep.alpha=[1e3]"]
WORDS = {signal.SIGINT: ("interrupted", 130), signal.SIGTERM: ("terminated", 143)}


def _handles_sigterm(pid: int) -> bool:
    """Whether the process has set a handler for SIGTERM (Python itself sets none: the command's own is the first)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) >> (signal.SIGTERM - 1) & 1)


def _start(out: Path, cache: str) -> tuple[subprocess.Popen, float]:
    """The command started, once it has its handlers; and when that was."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "JAX_NUM_CPU_DEVICES": "2"}
    environment["REGCONTACT_COMPILATION_CACHE"] = cache
    process = subprocess.Popen(
        [*COMMAND, "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment
    )
    deadline = time.perf_counter() + 30
    while not _handles_sigterm(process.pid) and process.poll() is None and time.perf_counter() < deadline:
        time.sleep(0.001)
    return process, time.perf_counter()


@pytest.fixture(scope="module")
def lifetime(tmp_path_factory) -> tuple[str, float]:
    """A compilation cache the runs share, and how long an unsignalled run lives once it has its handlers."""
    cache = str(tmp_path_factory.mktemp("cache"))
    for _ in range(2):  # the first compiles and fills the cache; the second is what the signalled runs repeat
        process, started = _start(tmp_path_factory.mktemp("unsignalled"), cache)
        process.communicate(timeout=300)
        assert process.returncode == 0
    return cache, time.perf_counter() - started


def test_a_signal_at_any_time_is_answered_within_a_second(tmp_path, lifetime):
    cache, seconds = lifetime
    delays = np.linspace(0.0, 1.05 * seconds, 16)
    answered = []
    for index, delay in enumerate(delays):
        signum = (signal.SIGINT, signal.SIGTERM)[index % 2]
        word, status = WORDS[signum]
        out = tmp_path / f"out{index}"
        process, started = _start(out, cache)
        time.sleep(max(0.0, started + delay - time.perf_counter()))
        if process.poll() is not None:  # it finished first: nothing to answer
            process.communicate()
            continue
        sent = time.perf_counter()
        process.send_signal(signum)
        _, err = process.communicate(timeout=60)
        context = f"signal {signum.name} at {delay:.2f} s of {seconds:.2f} s: {err[-2000:]}"
        if process.returncode == 0:  # it came while the kernel ended a process past its last write
            assert delay > 0.5 * seconds, context
            assert word not in err and "Traceback" not in err and "Exception ignored" not in err, context
            assert (out / "results.csv").exists() and (out / "results.json").exists(), context
            continue
        answered.append(time.perf_counter() - sent)
        assert process.returncode == status, context
        assert "Traceback" not in err and "Exception ignored" not in err, context
        last = err.splitlines()[-1]
        kept = f"regcontact: {word}; kept 1 of 1 chunks (1 of 1 cases) in {out}/chunks: the same command with --resume "
        assert last in (
            f"regcontact: {word}; nothing written",
            kept + "continues",
            f"regcontact: {word}; the results are written to {out}",
        ), context
        assert (out / "results.csv").exists() == last.endswith(str(out)), context
        assert (out / "chunks" / "chunk-000000000.npz").exists() == (last == kept + "continues"), context
        assert answered[-1] < 1.0, context
    assert len(answered) >= 12  # the signals came while the run was alive, over its whole life


def test_a_signal_while_jax_imports_is_raised_once_the_import_is_done():
    """A signal landing while jaxlib's native modules load cannot raise there (the exception cannot unwind through
    their C++ frames: the process aborted, status -6, instead of 143). Held, it is kept and raised after."""
    from regcontact import cli

    stop = cli._Stop()
    reached = []
    with pytest.raises(cli._Terminated):
        with stop.held():
            stop.terminate(signal.SIGTERM, None)  # where the signal lands: nothing raised here
            reached.append("the rest of the block")
    assert reached == ["the rest of the block"] and stop.pending == ("terminated", cli.TERMINATED)
    with pytest.raises(KeyboardInterrupt):
        stop.interrupt(signal.SIGINT, None)  # outside the block: raised where it lands
