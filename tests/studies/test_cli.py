"""``regcontact run`` end to end on a short study, and what a bad config leaves behind (nothing)."""

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from regcontact.cli import main

TABLE1 = Path(__file__).parents[2] / "studies" / "table1.toml"
SHORT = ["--set", "sweep.alpha=[1e3, 1e4]", "--set", "solver.rtol=1e-6"]


@pytest.mark.slow
def test_run_writes_table_csv_and_json(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["run", str(TABLE1), "--out", str(out), *SHORT]) == 0
    printed = capsys.readouterr()
    assert "int_lambda_n" in printed.out and "0.3688" in printed.out  # the paper's value beside ours
    assert "compiled" in printed.err and "solved 2/2" in printed.err  # progress on stderr

    with open(out / "results.csv") as handle:
        rows = list(csv.DictReader(handle))
    assert [float(row["alpha"]) for row in rows] == [1e3, 1e4]
    for column in ("int_lambda_n", "int_lambda_t", "t_end", "termination", "n_steps", "status", "paper_int_lambda_n"):
        assert column in rows[0]
    assert rows[0]["termination"] == "time_limit" and rows[0]["status"] == "successful"

    document = json.loads((out / "results.json").read_text())
    assert document["config"]["sweep"]["alpha"] == [1e3, 1e4]
    assert document["references"]["impulse_velocity"] == [pytest.approx([0.3247595, 0.4375], abs=1e-7)]  # per contact
    assert {"jax", "diffrax", "numpy", "python"} <= set(document["versions"])
    assert document["timings_s"]["compile_s"] > 0 and document["solver_statistics"]["failed_cases"] == 0
    assert not list(out.glob(".*partial"))


def test_bad_config_exits_2_with_one_line_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["run", str(TABLE1), "--out", str(out), "--set", "system.mass=-1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["regcontact: config error: system.mass = -1: expected a positive number"]
    assert not out.exists()


def test_console_entry_point_runs_as_a_module(tmp_path):
    completed = subprocess.run(
        [sys.executable, "-m", "regcontact.cli", "run", str(TABLE1), "--set", "solver.name=Euler"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )
    assert completed.returncode == 2
    assert "solver.name = 'Euler'" in completed.stderr
    assert not (tmp_path / "results").exists()


def test_a_long_table_is_printed_with_its_ends_and_a_count_of_the_rows_left_out():
    from regcontact.studies.study_result import SHOWN_ENDS, StudyResult, format_table

    result = StudyResult(name="s", kind="k", rows=[{"alpha": float(i), "n_steps": i} for i in range(1000)])
    lines = format_table(result).splitlines()
    assert len(lines) == 2 + 2 * SHOWN_ENDS + 1
    assert lines[2 + SHOWN_ENDS] == f"… {1000 - 2 * SHOWN_ENDS:,} more rows (every row is in results.csv) …"
    assert lines[2].split() == ["0", "0"] and lines[-1].split() == ["999", "999"]
    short = StudyResult(name="s", kind="k", rows=[{"alpha": 1.0}] * 6)
    assert len(format_table(short).splitlines()) == 2 + 6


@pytest.mark.slow
def test_a_large_sweep_says_its_size_and_a_time_estimate_from_its_first_chunk(tmp_path, capsys):
    import re

    sweep = ["--set", "sweep.alpha={logspace=[3, 4, 6]}", "--set", "sweep.chunk_size=2"]
    assert main(["run", str(TABLE1), "--out", str(tmp_path), *sweep, "--estimate-above", "6"]) == 0
    err = capsys.readouterr().err
    assert "6 cases: 6 alpha" in err
    (line,) = [line for line in err.splitlines() if "at this pace" in line]
    assert re.fullmatch(r"\[regcontact\] 6 cases: the first 2 took \d+\.\d\d s, about \d+ s for all at this pace", line)
    assert main(["run", str(TABLE1), "--out", str(tmp_path), *sweep, "--estimate-above", "7"]) == 0
    assert "at this pace" not in capsys.readouterr().err


def test_the_time_estimate_is_in_units_a_person_reads():
    from regcontact.compliant import SweepProgress

    pace_line = SweepProgress.pace_line
    assert pace_line(1_000_000, 64, 0.25) == (
        "1,000,000 cases: the first 64 took 0.25 s, about 65.1 min for all at this pace"
    )
    assert pace_line(100_000, 64, 8.0).endswith("about 3.5 h for all at this pace")
    assert pace_line(640, 64, 1.0).endswith("about 10 s for all at this pace")
