"""The command answers at once where nothing is computed: ``--help`` and ``--version`` import no JAX,
``python -m regcontact`` is the command, ``regcontact check`` validates and says what a run would do, and the
convergence block of a study with many systems fits on a screen."""

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import jax
import pytest

from regcontact.cli import main
from regcontact.studies._compliant_text import MAX_PRINTED_SYSTEMS, SHOWN_SYSTEMS, convergence_lines

ROOT = Path(__file__).parents[2]
TABLE1 = ROOT / "studies" / "table1.toml"


def _python(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout


def test_help_and_version_import_no_jax():
    code = (
        "import sys\nfrom regcontact.cli import main\n"
        "for argv in (['--help'], ['--version'], ['run', '--help']):\n"
        "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
        "print('JAX', 'jax' in sys.modules)\n"
    )
    out = _python(code)
    assert "usage: regcontact" in out and f"regcontact {importlib.metadata.version('regcontact')}" in out
    assert out.rstrip().endswith("JAX False")


@pytest.mark.slow
def test_the_rigid_wing_imports_scipy_only_where_it_solves():
    """A compliant study computes rigid references before its first solve; importing them must not wait for
    SciPy's optimize and integrate packages (0.2 s), which only an LP or an event-driven run needs."""
    code = (
        "import sys\nimport regcontact.rigid\n"
        "print(sorted(m for m in ('scipy.optimize', 'scipy.integrate') if m in sys.modules))\n"
    )
    assert _python(code).strip() == "[]"


def test_python_dash_m_is_the_command():
    done = subprocess.run([sys.executable, "-m", "regcontact", "--version"], capture_output=True, text=True, cwd=ROOT)
    assert (done.returncode, done.stdout.strip()) == (0, f"regcontact {importlib.metadata.version('regcontact')}")


def test_check_counts_cases_chunks_and_devices(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["check", str(TABLE1), "--set", "sweep.mu=[1.5, 2]"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "cases: 12 (2 mu × 6 alpha, 2 distinct systems)"  # said first: counted before the checks
    assert out[3].startswith("note: paper values not shown")  # as run says: sweep.mu changes the system
    assert out[4].startswith("table1: valid (compliant_sweep)")
    assert any(line.startswith("chunks: 1 of 12 cases") for line in out)
    backend = jax.default_backend()  # on a CPU the suite runs on two host devices
    assert any(line.startswith(f"devices: {backend} × {len(jax.devices(backend))}") for line in out)
    assert any(line.startswith("time: roughly") for line in out)
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_check_refuses_a_bad_config_like_run(capsys):
    assert main(["check", str(TABLE1), "--set", "solver.rtol=2"]) == 2
    expected = (
        "regcontact: config error: solver.rtol = 2: expected a number in [2.2e-14, 1) "
        "(100 float64 epsilons or more: a smaller rtol cannot be met in float64)"
    )
    assert capsys.readouterr().err.splitlines() == [expected]


def test_many_systems_print_the_ends_and_each_warning_once_with_a_count():
    count = 1_600
    warning = "only 1 distinct α with a distance above round-off: no order"
    systems = [
        {
            "system": {"mu": 1.0 + i / count, "phi0": 0.5},
            "impulse_velocity": {"reference": [0.3, 0.4], "order": None, "limit": None, "warnings": [warning]},
        }
        for i in range(count)
    ]
    lines = convergence_lines({"tail_rule": "last three decades", "systems": systems})
    assert len(lines) < 25 < count
    assert f"  warning: {warning} ({count:,} systems)" in lines
    assert f"… {count - 2 * SHOWN_SYSTEMS:,} more systems …" in lines
    assert sum(line.startswith("system ") for line in lines) == 2 * SHOWN_SYSTEMS
    few = convergence_lines({"tail_rule": "last three decades", "systems": systems[:MAX_PRINTED_SYSTEMS]})
    assert sum(warning in line for line in few) == MAX_PRINTED_SYSTEMS
