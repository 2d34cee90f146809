"""``regcontact run`` cannot mix two studies, says true counts whenever it stops, answers signals at once, sizes a
study before any work and refuses what it cannot run in one line (exit status 2) before doing anything."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import regcontact
from regcontact.cli import main
from regcontact.studies import chunk_checkpoints, compliant_study, rigid_study
from regcontact.studies.config import ConfigError
from regcontact.studies.run_lock import LOCK_FILE, RunLock, RunLockHeld
from tests.studies.sweep_study import assert_same_results, run_reference, write_study

ROOT = Path(__file__).parents[2]
STUDIES = ROOT / "studies"
RIGID = STUDIES / "rigid_painleve.toml"
CHUNKS = 6
#: ``regcontact run`` that says on stderr when each chunk is on disk, and waits a little after each.
SLOWED = """
import sys, time
from regcontact.studies import chunk_checkpoints
from regcontact.cli import main
real = chunk_checkpoints.ChunkCheckpoints.save
def save(self, first, runs):
    real(self, first, runs)
    print(f"saved {first}", file=sys.stderr, flush=True)
    time.sleep(0.5)
chunk_checkpoints.ChunkCheckpoints.save = save
sys.exit(main())
"""


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    return run_reference(tmp_path_factory.mktemp("reference"))


@pytest.fixture(scope="module")
def compilation_cache(tmp_path_factory) -> str:
    """A compilation cache the processes of this module share: the first compiles, the others load."""
    return str(tmp_path_factory.mktemp("compilation_cache"))


def _environment(compilation_cache: str | None = None) -> dict[str, str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "JAX_NUM_CPU_DEVICES": "2"}
    if compilation_cache is not None:
        environment["REGCONTACT_COMPILATION_CACHE"] = compilation_cache
    return environment


def _one_error_line(capsys) -> str:
    printed = capsys.readouterr()
    assert printed.out == ""
    lines = printed.err.splitlines()
    assert len(lines) == 1, printed.err
    return lines[0]


def _other_study(folder: Path) -> Path:
    """The sweep study of :mod:`tests.studies.sweep_study` with another tolerance: another study, same chunks."""
    path = folder / "other.toml"
    path.write_text(write_study(folder).read_text().replace("rtol = 1e-7", "rtol = 1e-6"))
    return path


def _stop_after(monkeypatch, saved: int) -> None:
    """Saving a chunk raises Ctrl-C once ``saved`` chunks are on disk."""
    real = chunk_checkpoints.ChunkCheckpoints.save

    def save(self, first, runs):
        if self.kept >= saved:
            raise KeyboardInterrupt
        real(self, first, runs)

    monkeypatch.setattr(chunk_checkpoints.ChunkCheckpoints, "save", save)


@pytest.fixture
def must_not_run(monkeypatch):
    """Fail the test if a study starts: these refusals must come before anything runs."""

    def run(*args, **kwargs):
        raise AssertionError("the study ran")

    monkeypatch.setattr(rigid_study.RigidPainleveStudy, "run", run)
    monkeypatch.setattr(compliant_study.CompliantSweepStudy, "run", run)


# --- one run per output folder -------------------------------------------------------------------------------


def test_the_lock_is_exclusive_and_names_its_holder(tmp_path):
    folder = tmp_path / "new" / "out"
    with RunLock.acquire(folder, "/studies/a.toml"):
        with pytest.raises(RunLockHeld) as held:
            RunLock.acquire(folder, "/studies/b.toml")
        described = held.value.describe()
        assert described.startswith(f"pid {os.getpid()} on {socket.gethostname()} since ")
        assert described.endswith("running /studies/a.toml")
    assert not (tmp_path / "new").exists()  # created for the run and left empty: removed
    with RunLock.acquire(folder, "/studies/b.toml"):
        pass


def test_a_lock_file_without_a_live_holder_is_taken_over(tmp_path):
    """A run killed with SIGKILL leaves its lock file; the OS has dropped its lock, so the next run takes it."""
    (tmp_path / LOCK_FILE).write_text('{"pid": 1, "host": "gone", "started": "then", "config": "x.toml"}\n')
    with RunLock.acquire(tmp_path, "/studies/a.toml") as lock:
        assert lock.held
    assert not (tmp_path / LOCK_FILE).exists() and tmp_path.exists()


def _start(config: Path, out: Path, compilation_cache: str) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-c", SLOWED, "run", str(config), "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_environment(compilation_cache),
    )
    assert process.stderr is not None
    while (line := process.stderr.readline()) != "saved 0\n":
        assert line, "the run ended before its first chunk"
    return process


@pytest.mark.slow
def test_two_studies_started_on_one_folder_then_killed_and_resumed_do_not_mix(
    tmp_path, reference, compilation_cache, capsys
):
    """A job array or a re-submission: two configs on the same --out. The second is refused in one line naming
    the first, before any work; both are killed; each ``--resume`` takes only its own study's chunks."""
    first, second, out = write_study(tmp_path), _other_study(tmp_path), tmp_path / "out"
    running = _start(first, out, compilation_cache)
    try:
        started = time.perf_counter()
        late = subprocess.run(
            [sys.executable, "-m", "regcontact", "run", str(second), "--out", str(out)],
            capture_output=True,
            text=True,
            env=_environment(compilation_cache),
            timeout=120,
        )
        assert late.returncode == 2 and late.stdout == "" and late.stderr.count("\n") == 1
        assert late.stderr.startswith(
            f"regcontact: config error: --out = {str(out)!r}: expected a folder no other run is using (it is held "
            f"by pid {running.pid} on {socket.gethostname()} since "
        )
        assert late.stderr.endswith(f", running {first})\n")
        assert time.perf_counter() - started < 60
    finally:
        running.send_signal(signal.SIGKILL)
        running.communicate(timeout=60)

    assert main(["run", str(second), "--out", str(out), "--resume"]) == 2
    assert "expected a folder without chunks of another study" in _one_error_line(capsys)
    assert main(["run", str(first), "--out", str(out), "--resume"]) == 0
    assert_same_results(out, reference)
    assert not (out / LOCK_FILE).exists()


@pytest.mark.slow
def test_a_chunk_of_another_study_is_refused_in_one_line_or_discarded_with_restart(
    tmp_path, reference, monkeypatch, capsys
):
    """Chunk files carry their study's identity: one written into the folder by another study (a concurrent run
    where locks do not work, a copy) is found when loaded, never taken as this study's."""
    first, second = write_study(tmp_path), _other_study(tmp_path)
    _stop_after(monkeypatch, 2)
    assert main(["run", str(first), "--out", str(tmp_path / "out")]) == 130
    assert main(["run", str(second), "--out", str(tmp_path / "other")]) == 130
    monkeypatch.undo()
    shutil.copy(tmp_path / "other" / "chunks" / "chunk-000000002.npz", tmp_path / "out" / "chunks")
    capsys.readouterr()

    out = str(tmp_path / "out")
    assert main(["run", str(first), "--out", out, "--resume"]) == 2
    assert _one_error_line(capsys) == (
        f"regcontact: config error: --out = {out!r}: expected a folder without chunks of another study (1 of the 2 "
        "files in chunks/ are of another config, version or format, e.g. chunk-000000002.npz; --restart discards "
        "them)"
    )
    assert main(["run", str(first), "--out", out, "--restart"]) == 0
    assert_same_results(tmp_path / "out", reference)


@pytest.mark.slow
def test_a_chunk_file_of_an_older_format_is_another_studys(tmp_path, monkeypatch, capsys):
    config, out = write_study(tmp_path), tmp_path / "out"
    _stop_after(monkeypatch, 1)
    assert main(["run", str(config), "--out", str(out)]) == 130
    monkeypatch.undo()
    chunk = out / "chunks" / "chunk-000000000.npz"
    chunk.rename(chunk.with_suffix(".pkl"))  # a chunk under the name chunks were kept by before
    capsys.readouterr()
    assert main(["run", str(config), "--out", str(out), "--resume"]) == 2
    assert "1 of the 1 files in chunks/ are of another config, version or format" in _one_error_line(capsys)


# --- true counts -----------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_resume_interrupted_before_its_first_chunk_says_what_the_disk_holds(tmp_path, monkeypatch, capsys):
    """Stopped before the sweep has read its chunks back, the line still counts them from the disk."""
    config, out = str(write_study(tmp_path)), str(tmp_path / "out")
    _stop_after(monkeypatch, 2)
    assert main(["run", config, "--out", out]) == 130
    monkeypatch.undo()

    def building(sweep):
        raise KeyboardInterrupt

    monkeypatch.setattr(compliant_study, "sweep_cases", building)
    capsys.readouterr()
    assert main(["run", config, "--out", out, "--resume"]) == 130
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"regcontact: interrupted; kept 2 of {CHUNKS} chunks (4 of 12 cases) in {out}/chunks: the same command "
        "with --resume continues"
    )


# --- signals, from the first moment and in every phase --------------------------------------------------------


def _handles(pid: int, signum: int) -> bool:
    """Whether the process has a handler for ``signum`` (Linux: the SigCgt mask of /proc/PID/status)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) >> (signum - 1) & 1)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads signal handlers in /proc (Linux)")
def test_sigterm_in_the_first_moments_ends_with_a_line_and_status_143(tmp_path):
    """SIGTERM as soon as the command has a handler for it, long before any study work."""
    process = subprocess.Popen(
        [sys.executable, "-m", "regcontact", "run", str(STUDIES / "table1.toml"), "--out", str(tmp_path / "out")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_environment(),
    )
    deadline = time.perf_counter() + 30
    while not _handles(process.pid, signal.SIGTERM) and time.perf_counter() < deadline and process.poll() is None:
        time.sleep(0.002)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 143
    assert out == "" and err == "regcontact: terminated; nothing written\n"
    assert not (tmp_path / "out").exists()


#: ``regcontact run`` that says on stderr when a phase starts (the phase's function wrapped).
PHASES = """
import importlib, sys
from regcontact.cli import main
module, name = sys.argv.pop(1), sys.argv.pop(1)
module = importlib.import_module(module)
real = getattr(module, name)
def announced(*args, **kwargs):
    print("phase", flush=True, file=sys.stderr)
    return real(*args, **kwargs)
setattr(module, name, announced)
sys.exit(main())
"""


def _interrupt_in_phase(tmp_path, wrapped: tuple[str, str], marker: str, *argv: str, cache: str | None = None):
    """Start ``regcontact run`` with ``wrapped`` (module, function) announcing itself, send SIGINT when stderr
    says ``marker``, and return the seconds to the end of the process and what it said last."""
    process = subprocess.Popen(
        [sys.executable, "-c", PHASES, *wrapped, "run", *argv, "--out", str(tmp_path / "out")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_environment(cache),
    )
    assert process.stderr is not None
    try:
        said = []
        while marker not in (line := process.stderr.readline()):
            said.append(line)
            assert line, f"the run ended before {marker!r}: {''.join(said)}"
        sent = time.perf_counter()
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
        return time.perf_counter() - sent, process.returncode, err.splitlines()[-1]
    finally:  # a test that fails leaves no run behind
        if process.poll() is None:
            process.kill()
            process.communicate()


@pytest.mark.slow
def test_ctrl_c_is_answered_within_a_second_while_the_kind_checks_the_config(tmp_path):
    """The chatter study's check computes the rigid bounce sequence (seconds) before anything runs."""
    phase = ("regcontact.studies.chatter_study", "rigid_sequence")
    seconds, status, last = _interrupt_in_phase(tmp_path, phase, "phase", str(STUDIES / "chatter.toml"))
    assert (status, last) == (130, "regcontact: interrupted; nothing written")
    assert seconds < 1.0


@pytest.mark.slow
def test_ctrl_c_is_answered_within_a_second_while_drawing_landings(tmp_path):
    count = ["--set", "landings.count=100000"]
    phase = ("regcontact.studies.landing_study", "draw_landings")
    seconds, status, last = _interrupt_in_phase(tmp_path, phase, "phase", str(STUDIES / "landing_table.toml"), *count)
    assert (status, last) == (130, "regcontact: interrupted; nothing written")
    assert seconds < 1.0


@pytest.mark.slow
def test_ctrl_c_is_answered_within_a_second_while_building_the_cases(tmp_path):
    sweep = ["--set", "sweep.alpha={logspace=[3, 8, 1000]}", "--set", "sweep.mu={linspace=[1, 2, 1000]}"]
    phase = ("regcontact.studies.compliant_study", "sweep_cases")
    seconds, status, last = _interrupt_in_phase(tmp_path, phase, "phase", str(STUDIES / "table1.toml"), *sweep)
    assert (status, last) == (130, "regcontact: interrupted; nothing written")
    assert seconds < 1.0


@pytest.mark.slow
def test_ctrl_c_is_answered_within_a_second_while_compiling_and_while_solving(tmp_path, compilation_cache):
    """Compiling and solving run in native code, which holds Python's own handler back until it returns."""
    sweep = ["--set", "sweep.alpha={logspace=[3, 8, 1024]}", "--set", "sweep.chunk_size=1024"]
    sweep += ["--set", "solver.rtol=1e-12"]  # a chunk of 1024 slow cases: seconds in native code
    phase = ("regcontact.studies.compliant_study", "cost_order")
    config = str(STUDIES / "table1.toml")
    for marker in ("compiling the vmapped", "compiled the vmapped"):
        seconds, status, last = _interrupt_in_phase(tmp_path, phase, marker, config, *sweep, cache=compilation_cache)
        assert (status, last) == (130, "regcontact: interrupted; nothing written"), marker
        assert seconds < 1.0, marker


# --- size before work ------------------------------------------------------------------------------------------

#: A study of each kind, the ones shipped.
KINDS = {
    "compliant_sweep": "stiffness_sweep.toml",
    "rigid_painleve": "rigid_painleve.toml",
    "rigid_trajectories": "rigid_trajectories.toml",
    "landing_table": "landing_table.toml",
    "chatter": "chatter.toml",
    "dynamic_jam": "dynamic_jam.toml",
    "spatial_crossing": "spatial_crossing.toml",
    "multiple_impacts": "multiple_impacts.toml",
}


def test_every_study_kind_has_a_size():
    assert set(KINDS) == set(regcontact.studies.STUDY_KINDS)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_check_says_cases_memory_and_time_within_a_second(kind, monkeypatch, capsys):
    """The size comes from the config's lengths, before the kind's own check (which may take seconds: it is
    left out here)."""
    from regcontact.studies import loading

    started, said = time.perf_counter(), []
    real = loading.study_size
    monkeypatch.setattr(loading.STUDY_KINDS[kind], "check", lambda self, config, overridden: [])

    def timed(*args, **kwargs):
        size = real(*args, **kwargs)
        said.append(time.perf_counter() - started)
        return size

    monkeypatch.setattr(loading, "study_size", timed)
    assert main(["check", str(STUDIES / KINDS[kind])]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("cases: ") and lines[1].startswith("memory: about ")
    assert lines[2].startswith("time: roughly ") and "for a cold run on cpu" in lines[2]
    assert said[0] < 1.0


def test_check_sizes_a_ten_million_case_sweep_without_building_it(tmp_path, monkeypatch, capsys):
    def built(*args, **kwargs):
        raise AssertionError("the sweep was built")

    monkeypatch.setattr(compliant_study.CompliantSweepStudy, "check", built)
    huge = ["--set", "sweep.alpha={logspace=[3, 8, 100]}", "--set", "sweep.mu={linspace=[1, 2, 1000]}"]
    huge += ["--set", "sweep.vx0={linspace=[-2, -0.5, 100]}"]
    started = time.perf_counter()
    with pytest.raises(AssertionError, match="the sweep was built"):
        main(["check", str(STUDIES / "table1.toml"), *huge])
    assert time.perf_counter() - started < 1.0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "cases: 10,000,000 (1,000 mu × 100 vx0 × 100 alpha, 100,000 distinct systems)"
    assert lines[3] == "note: more than 1,000,000 cases: regcontact run needs --max-cases 10000000 to run it"


def _refused_before_work(capsys, monkeypatch, *argv: str) -> str:
    """``regcontact run`` exits 2 with one line, within a second, before its kind's check has built anything."""
    from regcontact.studies import loading

    def kind_check(*args, **kwargs):
        raise AssertionError("the kind's check ran")

    for kind in loading.STUDY_KINDS.values():
        monkeypatch.setattr(kind, "check", kind_check)
    started = time.perf_counter()
    assert main(["run", *argv]) == 2
    assert time.perf_counter() - started < 1.0
    return _one_error_line(capsys)


def test_a_sweep_above_max_cases_is_refused_with_its_estimate(tmp_path, capsys, monkeypatch):
    huge = ["--set", "sweep.alpha={logspace=[3, 8, 100]}", "--set", "sweep.mu={linspace=[1, 2, 1000]}"]
    huge += ["--set", "sweep.vx0={linspace=[-2, -0.5, 100]}"]
    out = tmp_path / "out"
    line = _refused_before_work(capsys, monkeypatch, str(STUDIES / "table1.toml"), *huge, "--out", str(out))
    assert line.startswith(
        "regcontact: config error: --max-cases = 1000000: expected a study of at most that many cases (this one is "
        "10,000,000 cases (1,000 mu × 100 vx0 × 100 alpha, 100,000 distinct systems), about "
    )
    assert line.endswith("on cpu × 2; give a larger --max-cases to run it)")
    assert not out.exists()


def test_max_cases_sets_the_limit(tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    line = _refused_before_work(
        capsys, monkeypatch, str(STUDIES / "table1.toml"), "--max-cases", "5", "--out", str(out)
    )
    assert line.startswith("regcontact: config error: --max-cases = 5: expected a study of at most that many cases")
    assert "this one is 6 cases (6 alpha, 1 distinct system)" in line


def test_a_landing_table_of_1e12_landings_is_refused_before_drawing(tmp_path, capsys, monkeypatch):
    config = str(STUDIES / "landing_table.toml")
    line = _refused_before_work(capsys, monkeypatch, config, "--set", "landings.count=1000000000000")
    assert "this one is 7,000,000,000,000 cases (1,000,000,000,000 landings × 7 α)" in line


def test_a_horizon_of_1e14_samples_is_refused_for_its_memory(tmp_path, capsys, monkeypatch):
    config = str(STUDIES / "chatter.toml")
    line = _refused_before_work(capsys, monkeypatch, config, "--set", "horizon.samples=100000000000000")
    assert line.startswith("regcontact: config error: --max-memory = ")
    assert "expected a study that fits in the memory available here (this one is 5 cases (5 α, " in line


def test_max_memory_sets_the_memory_limit(tmp_path, capsys, monkeypatch):
    line = _refused_before_work(capsys, monkeypatch, str(RIGID), "--max-memory", "1M", "--out", str(tmp_path / "o"))
    assert line.startswith(
        "regcontact: config error: --max-memory = '1 MB': expected a study that fits in --max-memory"
    )


def test_run_study_refuses_a_study_above_its_limits():
    with pytest.raises(ConfigError, match="--max-cases = 5: expected a study of at most that many cases"):
        regcontact.run_study(STUDIES / "table1.toml", max_cases=5)


@pytest.mark.slow
def test_a_fifo_as_config_is_refused_without_reading_it(tmp_path):
    fifo = tmp_path / "study.toml"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "regcontact", "run", str(fifo)],
        capture_output=True,
        text=True,
        env=_environment(),
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert (
        done.stderr
        == f"regcontact: config error: CONFIG = {str(fifo)!r}: expected a regular TOML file (it is a FIFO)\n"
    )


# --- command-line refusals: one line, exit status 2, before any work -------------------------------------------


def test_out_where_nothing_can_be_created_is_refused_at_the_folder_check(tmp_path, capsys, must_not_run):
    assert main(["run", str(RIGID), "--out", "/proc/regcontact-results"]) == 2
    line = _one_error_line(capsys)
    assert line.startswith("regcontact: config error: --out = '/proc/regcontact-results': expected a folder where")


def test_a_study_name_that_is_not_a_plain_folder_name_is_refused(tmp_path, capsys, monkeypatch, must_not_run):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "inside").mkdir()
    monkeypatch.chdir(tmp_path / "inside")
    assert main(["run", str(RIGID), "--set", 'study.name="../../x"']) == 2
    assert _one_error_line(capsys) == (
        "regcontact: config error: study.name = '../../x': expected a plain folder name (no '/', not '.' or '..'; "
        "results go to results/<name>/)"
    )
    assert sorted(os.listdir(tmp_path)) == ["inside"] and os.listdir(tmp_path / "inside") == []


def test_a_scheduler_that_is_not_an_address_is_one_line_and_no_progress(tmp_path, capsys, must_not_run):
    config = str(write_study(tmp_path))
    assert main(["run", config, "--out", str(tmp_path / "out"), "--scheduler", "not-an-address"]) == 2
    assert _one_error_line(capsys) == (
        "regcontact: config error: --scheduler = 'not-an-address': expected a Dask scheduler address, "
        "[protocol://]host:port (e.g. tcp://10.0.0.5:8786)"
    )
    assert not (tmp_path / "out").exists()


def test_a_folder_held_by_another_run_is_refused_with_no_progress_line(tmp_path, capsys, must_not_run):
    out = tmp_path / "out"
    with RunLock.acquire(out, "/elsewhere/first.toml"):
        assert main(["run", str(write_study(tmp_path)), "--out", str(out)]) == 2
        line = _one_error_line(capsys)
    assert line.startswith(f"regcontact: config error: --out = {str(out)!r}: expected a folder no other run is using")
    assert line.endswith(", running /elsewhere/first.toml)")


@pytest.mark.slow
def test_device_gpu_without_a_gpu_is_one_line(tmp_path):
    """In a fresh process, where JAX finds no GPU at all (today: a bare AssertionError from JAX)."""
    probe = subprocess.run(
        [sys.executable, "-c", "import jax; print(jax.default_backend())"],
        capture_output=True,
        text=True,
        env=_environment(),
    )
    if probe.stdout.strip() == "gpu":
        pytest.skip("asks for a GPU where there is none: this machine has one")
    done = subprocess.run(
        [sys.executable, "-m", "regcontact", "run", str(RIGID), "--device", "gpu", "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        env=_environment(),
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("regcontact: config error: --device = 'gpu': expected a device that JAX finds here")
    assert done.stderr.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_run_study_locks_its_out_folder_too(tmp_path):
    with RunLock.acquire(tmp_path / "out", "/elsewhere/first.toml"):
        with pytest.raises(ConfigError, match="out = '.*': expected a folder no other run is using"):
            regcontact.run_study(RIGID, out=tmp_path / "out")


def test_run_study_of_a_folder_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="CONFIG = '.*': expected an existing TOML file \\(it is a directory\\)"):
        regcontact.run_study(tmp_path)
