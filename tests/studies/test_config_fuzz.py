"""Hostile and careless values for every key of every study kind, through the command line.

Each draw overrides one key of a shipped study (or a key that does not exist) with a value from a pool of the
values that have broken such tools before (NaN, ±inf, subnormals, huge and negative numbers, wrong types, empty
and ragged lists, tables) and numbers drawn by hypothesis. ``regcontact check`` must end every draw either valid
(exit 0) or with one line that names the key (exit 2): never a traceback, never a hang. For the cheapest kind,
a compliant sweep of two α, the draws are also run: a run ends valid and passed (exit 0), with failures named
(exit 1), or refused (exit 2), and a row marked ``passed`` never holds a number that is not finite.

Bounded in time: a fixed number of draws per kind (derandomised, so CI sees the same draws every time): three
per kind in the quick subset, twelve in the slow one.
"""

from __future__ import annotations

import csv
import math
import tempfile
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from regcontact.cli import main

STUDIES = Path(__file__).resolve().parents[2] / "studies"

#: One shipped config per study kind.
KINDS = {
    "compliant_sweep": "table1.toml",
    "reduced two-contact sweep": "reduced_two_contact.toml",
    "rigid": "rigid_painleve.toml",
    "rigid_trajectories": "rigid_trajectories_two_point_rod.toml",
    "landing_table": "landing_table.toml",
    "chatter": "chatter.toml",
    "dynamic_jam": "dynamic_jam.toml",
    "spatial_crossing": "spatial_crossing.toml",
    "multiple_impacts": "multiple_impacts.toml",
}

#: Values that have broken config readers, written as TOML.
HOSTILE = [
    "nan", "inf", "-inf", "-1", "0", "-0.0", "1e300", "-1e300", "1e-320", "5e-324", "1e30", "1e400",
    "9223372036854775807", "true", "false", '"x"', '""', '"../../x"', "[]", "[nan]", "[1, -1]", "[1e-320]",
    "[[1, 2], [3]]", "{}", "{a = 1}", "{linspace = [1, 2, 0]}", "{logspace = [0, 400, 3]}", "[1, \"a\"]",
    "0.5", "1", "2", "3", "10", "1e-12", "1e12",
]  # fmt: skip


def _keys(table: dict, prefix: str = "") -> list[str]:
    """The dotted keys of every leaf of a TOML table."""
    keys = []
    for name, value in table.items():
        if isinstance(value, dict) and value:
            keys += _keys(value, f"{prefix}{name}.")
        else:
            keys.append(f"{prefix}{name}")
    return keys


def _toml(x: float) -> str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(x)


def _values() -> st.SearchStrategy[str]:
    numbers = st.floats(allow_nan=True, allow_infinity=True).map(_toml)
    lists = st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=3).map(
        lambda xs: "[" + ", ".join(map(_toml, xs)) + "]"
    )
    return st.one_of(st.sampled_from(HOSTILE), numbers, lists, st.integers(-(2**70), 2**70).map(str))


def _override(config: str, data: st.DataObject) -> str:
    table = tomllib.loads((STUDIES / config).read_text())
    keys = _keys(table) + ["system.colour", "solver.rtoll", "study"]
    return f"{data.draw(st.sampled_from(keys), label='key')}={data.draw(_values(), label='value')}"


def _one_refusal(err: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("regcontact: "), err


def _check_ends_valid_or_in_one_line(kind: str, data: st.DataObject, capsys, tmp_path: Path, monkeypatch) -> None:
    here = Path(tempfile.mkdtemp(dir=tmp_path))  # one folder per draw: hypothesis shares tmp_path among them
    monkeypatch.chdir(here)
    assignment = _override(KINDS[kind], data)
    code = main(["check", str(STUDIES / KINDS[kind]), "--set", assignment])
    out, err = capsys.readouterr()
    assert code in (0, 2), (assignment, code, out, err)
    if code == 2:
        _one_refusal(err)
    assert not any(here.iterdir())  # check writes nothing


@pytest.mark.parametrize("kind", list(KINDS))
@settings(max_examples=3, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_check_ends_valid_or_in_one_line(kind, data, capsys, tmp_path, monkeypatch):
    """A few draws per kind, in the quick subset."""
    _check_ends_valid_or_in_one_line(kind, data, capsys, tmp_path, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(KINDS))
@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_check_ends_valid_or_in_one_line_over_more_draws(kind, data, capsys, tmp_path, monkeypatch):
    _check_ends_valid_or_in_one_line(kind, data, capsys, tmp_path, monkeypatch)


@pytest.mark.slow
@settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_run_passes_fails_by_name_or_is_refused(data, capsys, tmp_path):
    table = tomllib.loads((STUDIES / "table1.toml").read_text())
    keys = [key for key in _keys(table) if key.split(".")[0] in ("system", "contact", "solver", "termination")]
    assignment = f"{data.draw(st.sampled_from(keys), label='key')}={data.draw(_values(), label='value')}"
    out_dir = Path(tempfile.mkdtemp(dir=tmp_path)) / "out"  # one per draw
    code = main(
        ["run", str(STUDIES / "table1.toml"), "--out", str(out_dir), "--no-compilation-cache"]
        + ["--set", "sweep.alpha=[1e3, 1e4]", "--set", assignment]
    )
    out, err = capsys.readouterr()
    assert code in (0, 1, 2), (assignment, code, out, err)
    if code == 2:
        _one_refusal(err)
        assert not out_dir.exists()
        return
    with open(out_dir / "results.csv") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 2
    for row in rows:
        if row["termination"] != "failed":  # ok: finished and passed every check
            assert all(math.isfinite(float(row[c])) for c in ("int_lambda_n", "int_lambda_t", "t_end")), row
    failed = [row for row in rows if row["termination"] == "failed"]
    assert (code == 1) == bool(failed), (assignment, code, rows)
    assert all("FAILED" in out + err for _ in failed)
