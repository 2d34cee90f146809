"""``regcontact run`` never loses results: bad paths stop it before anything runs, a late write failure saves
the results elsewhere, and Ctrl-C ends it with one line and exit status 130, leaving nothing half-written."""

import csv
import errno
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from regcontact.cli import main
from regcontact.studies import rigid_study, study_result

ROOT = Path(__file__).parents[2]
RIGID = ROOT / "studies" / "rigid_painleve.toml"  # fast: no JAX compilation


@pytest.fixture
def must_not_run(monkeypatch):
    """Fail the test if the study starts: these errors must be found before anything runs."""

    def run(self, config, progress):
        raise AssertionError("the study ran")

    monkeypatch.setattr(rigid_study.RigidPainleveStudy, "run", run)


def _one_error_line(capsys) -> str:
    printed = capsys.readouterr()
    assert printed.out == ""
    lines = printed.err.splitlines()
    assert len(lines) == 1, printed.err
    return lines[0]


# --- bad --out, found before the study runs ------------------------------------------------------------------


def test_out_naming_an_existing_file_stops_before_running(tmp_path, capsys, must_not_run):
    existing = tmp_path / "afile"
    existing.write_text("keep me\n")
    assert main(["run", str(RIGID), "--out", str(existing)]) == 2
    line = _one_error_line(capsys)
    expected = "a folder (it exists and is not one)"
    assert line == f"regcontact: config error: --out = {str(existing)!r}: expected {expected}"
    assert existing.read_text() == "keep me\n"


def test_out_under_a_file_stops_before_running(tmp_path, capsys, must_not_run):
    (tmp_path / "afile").write_text("")
    out = tmp_path / "afile" / "out"
    assert main(["run", str(RIGID), "--out", str(out)]) == 2
    line = _one_error_line(capsys)
    assert line.startswith(f"regcontact: config error: --out = {str(out)!r}: expected a folder that can be")
    assert "afile" in line and "is not a directory" in line


def test_out_with_a_directory_where_a_result_file_goes_stops_before_running(tmp_path, capsys, must_not_run):
    (tmp_path / "out" / "results.json").mkdir(parents=True)
    assert main(["run", str(RIGID), "--out", str(tmp_path / "out")]) == 2
    assert "expected a folder where results.json can be written" in _one_error_line(capsys)
    assert not (tmp_path / "out" / "results.csv").exists()


def test_default_out_is_checked_too(tmp_path, capsys, monkeypatch, must_not_run):
    monkeypatch.chdir(tmp_path)
    Path("results").write_text("")
    assert main(["run", str(RIGID)]) == 2
    line = _one_error_line(capsys)
    assert line.startswith("regcontact: config error: --out = 'results/rigid_painleve': expected a folder")


def test_out_that_does_not_exist_yet_is_created(tmp_path, capsys):
    out = tmp_path / "new" / "deeper"
    assert main(["run", str(RIGID), "--out", str(out)]) == 0
    assert sorted(path.name for path in out.iterdir()) == ["results.csv", "results.json"]


def test_figures_out_naming_a_file_stops_with_one_line(tmp_path, capsys):
    (tmp_path / "afile").write_text("")
    assert main(["figures", "--out", str(tmp_path / "afile")]) == 2
    line = _one_error_line(capsys)
    assert line.startswith(f"regcontact: --out = {str(tmp_path / 'afile')!r}: expected a folder")


# --- bad CONFIG: one line, exit status 2 ---------------------------------------------------------------------


def test_config_that_is_a_directory(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("studies").mkdir()
    assert main(["run", "studies/"]) == 2
    line = _one_error_line(capsys)
    expected = "an existing TOML file (it is a directory)"
    assert line == f"regcontact: config error: CONFIG = 'studies/': expected {expected}"
    assert not Path("results").exists()


def test_config_that_is_not_utf8(tmp_path, capsys):
    config = tmp_path / "study.toml"
    config.write_bytes(b'[study]\nname = "\xff\xfe"\n')
    assert main(["run", str(config), "--out", str(tmp_path / "out")]) == 2
    line = _one_error_line(capsys)
    expected = "a UTF-8 TOML file (byte 16 is not UTF-8)"
    assert line == f"regcontact: config error: CONFIG = {str(config)!r}: expected {expected}"
    assert not (tmp_path / "out").exists()


def test_config_that_is_not_toml(tmp_path, capsys):
    config = tmp_path / "study.toml"
    config.write_bytes(b"\x00\x01 not toml")
    assert main(["run", str(config)]) == 2
    line = _one_error_line(capsys)
    assert line.startswith(f"regcontact: config error: CONFIG = {str(config)!r}: expected valid TOML")


def test_config_that_cannot_be_read(tmp_path, capsys, monkeypatch):
    # Tests run as root, who reads any file: the error that open() gives anyone else is simulated.
    from regcontact.studies import loading as study

    def read_toml(path):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(study, "read_toml", read_toml)
    assert main(["run", str(RIGID)]) == 2
    line = _one_error_line(capsys)
    expected = "a readable TOML file (Permission denied)"
    assert line == f"regcontact: config error: CONFIG = {str(RIGID)!r}: expected {expected}"


# --- writing fails at the end: the table is printed and the results saved elsewhere ------------------------


def _failing_in(monkeypatch, *failing: Path) -> None:
    """``write_results`` fails (disk full) for the given folders, and works elsewhere."""
    real = study_result.write_results

    def write_results(result, config, out_dir, command=None):
        if Path(out_dir) in failing or "*" in failing:
            raise OSError(errno.ENOSPC, "No space left on device", str(out_dir / "results.csv"))
        return real(result, config, out_dir, command=command)

    monkeypatch.setattr(study_result, "write_results", write_results)


def test_late_write_failure_prints_the_table_and_saves_the_results_elsewhere(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    out = tmp_path / "out"
    _failing_in(monkeypatch, out)
    assert main(["run", str(RIGID), "--out", str(out)]) == 1
    printed = capsys.readouterr()
    assert "force_acceleration" in printed.out  # the table
    assert "wrote" not in printed.out
    message = printed.err.splitlines()[-1]
    assert message.startswith(f"regcontact: could not write results to {str(out)!r} (No space left on device);")

    (fallback,) = tmp_path.glob("regcontact-*")
    assert f"wrote them to {str(fallback)!r} instead" in message
    with open(fallback / "results.csv") as handle:
        rows = list(csv.DictReader(handle))
    assert rows and {"setup", "formulation", "reaction_n"} <= set(rows[0])
    assert json.loads((fallback / "results.json").read_text())["study"] == "rigid_painleve"


def test_when_no_place_can_be_written_the_message_says_so(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    _failing_in(monkeypatch, "*")
    assert main(["run", str(RIGID), "--out", str(tmp_path / "out")]) == 1
    printed = capsys.readouterr()
    assert "force_acceleration" in printed.out
    assert printed.err.splitlines()[-1].endswith("only the table above is left")


# --- Ctrl-C --------------------------------------------------------------------------------------------------


def _main_keeping_ctrl_c(argv: list[str]) -> int:
    """``main``, where a KeyboardInterrupt that escapes fails the test instead of stopping pytest."""
    try:
        return main(argv)
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C escaped main() as a KeyboardInterrupt")


def test_ctrl_c_during_the_run_is_one_line_and_status_130(tmp_path, capsys, monkeypatch):
    def run(self, config, progress):
        raise KeyboardInterrupt

    monkeypatch.setattr(rigid_study.RigidPainleveStudy, "run", run)
    out = tmp_path / "out"
    assert _main_keeping_ctrl_c(["run", str(RIGID), "--out", str(out)]) == 130
    assert _one_error_line(capsys) == "regcontact: interrupted; nothing written"
    assert not out.exists()


def test_ctrl_c_while_writing_is_one_line_and_status_130(tmp_path, capsys, monkeypatch):
    def write_results(result, config, out_dir, command=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(study_result, "write_results", write_results)
    assert _main_keeping_ctrl_c(["run", str(RIGID), "--out", str(tmp_path / "out")]) == 130
    assert capsys.readouterr().err.splitlines()[-1] == "regcontact: interrupted"


def test_ctrl_c_between_the_two_renames_lets_both_files_appear(tmp_path, monkeypatch):
    """The CSV and the JSON are renamed into place together: a Ctrl-C in between waits for the second."""
    result = study_result.StudyResult(name="s", kind="k", rows=[{"a": 1.0}])
    out = tmp_path / "out"
    real_replace = os.replace

    def replace_then_ctrl_c(source, target):
        real_replace(source, target)
        signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(os, "replace", replace_then_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        study_result.write_results(result, {}, out)
    assert sorted(path.name for path in out.iterdir()) == ["results.csv", "results.json"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.slow
def test_a_real_ctrl_c_ends_the_command_with_one_line_and_status_130(tmp_path):
    """SIGINT to a running ``regcontact run`` process, not a simulated KeyboardInterrupt."""
    script = (
        "import sys, time\n"
        "from regcontact.studies import rigid_study\n"
        "from regcontact.cli import main\n"
        "def run(self, config, progress):\n"
        "    print('running', file=sys.stderr, flush=True)\n"
        "    time.sleep(60)\n"
        "rigid_study.RigidPainleveStudy.run = run\n"
        f"sys.argv = ['regcontact', 'run', {str(RIGID)!r}, '--out', 'out']\n"
        "sys.exit(main())\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert process.stderr.readline() == "running\n"
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130
    assert out == "" and err == "regcontact: interrupted; nothing written\n"
    assert not (tmp_path / "out").exists()


# --- a start whose derived values overflow: refused by check and run, before work -------------------------------


@pytest.mark.parametrize(
    ("study", "setting", "named"),
    [
        ("rigid_painleve", "system.omega0=1e200", "jacobian_rates(q₀, v₀)"),
        ("rigid_painleve", "system.torque={start=1e308, rate=1e308}", "accelerations M⁻¹ h (mass_solve)"),
        ("table1", "system.omega0=1e200", "jacobian_rates(q₀, v₀)"),
        ("table1", "system.torque={start=1e308, rate=1e308}", "accelerations M⁻¹ h (mass_solve)"),
    ],
)
def test_a_start_whose_derived_values_overflow_is_one_line_before_work(tmp_path, capsys, study, setting, named):
    """ω₀ = 1e200 (Ẇ v overflows) and τ = 1e308 (M⁻¹ h overflows) were tracebacks from the rigid reference's
    contact state and LCP scales; ``check`` called them valid."""
    path = ROOT / "studies" / f"{study}.toml"
    out = tmp_path / "out"
    for command in (["check", str(path)], ["run", str(path), "--out", str(out)]):
        assert main([*command, "--set", setting]) == 2
        lines = capsys.readouterr().err.splitlines()  # check says the size on stdout before the kind's checks
        assert len(lines) == 1, lines
        line = lines[0]
        assert line.startswith("regcontact: config error: system.kind = 'painleve_rod': expected a system that can "), (
            line
        )
        assert f"PainleveRod.{named} at the initial state is not finite" in line, line
        assert not out.exists()
