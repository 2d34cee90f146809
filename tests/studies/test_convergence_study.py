"""The convergence block of compliant studies: ``regcontact run`` prints it and writes it to ``results.json``.

The distances are recomputed by hand from ``results.csv`` and the references in ``results.json``.
"""

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from regcontact.cli import main

pytestmark = pytest.mark.slow

STUDIES = Path(__file__).parents[2] / "studies"

#: Table 1's CSV columns before the convergence analysis (it must not change them).
TABLE1_COLUMNS = (
    "alpha,int_lambda_n,int_lambda_t,paper_int_lambda_n,paper_int_lambda_t,impulse_velocity_n,impulse_velocity_t,"
    "distance_to_impulse_velocity,compliant_limit_n,compliant_limit_t,distance_to_compliant_limit,t_end,t_max,termination,n_steps,n_accepted,n_rejected,n_restarts,status,check"
)


def _run(study, out, *overrides):
    arguments = ["run", str(STUDIES / study), "--out", str(out)]
    for override in overrides:
        arguments += ["--set", override]
    return main(arguments)


def _read(out):
    with open(out / "results.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return rows, json.loads((out / "results.json").read_text())


def _by_hand(rows, columns, reference):
    """max |∫λ − reference| per row, from the CSV's integral columns."""
    integrals = np.array([[float(row[column]) for column in columns] for row in rows])
    return np.abs(integrals - np.ravel(reference)).max(axis=1)


def test_table1_prints_and_stores_its_convergence(tmp_path, capsys):
    out = tmp_path / "table1"
    assert _run("table1.toml", out) == 0
    rows, document = _read(out)
    with open(out / "results.csv") as handle:
        header = handle.readline().strip().split(",")
    # the analysis adds no CSV column: the reference columns are the one-contact ones, in their old order (other
    # work may append columns of its own after them)
    assert header[: len(TABLE1_COLUMNS.split(","))] == TABLE1_COLUMNS.split(",")
    assert not [
        name for name in header if name.startswith(("impulse_velocity_", "distance_to_")) and name[-1].isdigit()
    ]
    entry = document["convergence"]["systems"][0]
    references = document["references"]
    # the rod starts closed with v_n = 0 and slides into the Painlevé configuration: an impact without collision
    # (C&V Sec. 6.3), whose compliant limit is the impulse-velocity solution (one LCP solution here)
    assert "distance_to_compliant_limit" in header
    limit = entry["compliant_limit"]
    np.testing.assert_allclose(limit["reference"], entry["impulse_velocity"]["reference"], rtol=1e-9)
    assert entry["converges_to"]["references"] == ["impulse_velocity", "compliant_limit"]
    assert entry["converges_to"]["laws_differ_by"] < 1e-9

    # the distances are the CSV's integrals against the references of the JSON
    columns = ["int_lambda_n", "int_lambda_t"]
    impulse = entry["impulse_velocity"]
    (one_contact,) = references["impulse_velocity"]  # per contact; the convergence block has the integrals' shape
    assert impulse["reference"] == one_contact
    np.testing.assert_array_equal(impulse["alpha"], [float(row["alpha"]) for row in rows])
    np.testing.assert_allclose(impulse["distances"], _by_hand(rows, columns, impulse["reference"]), rtol=1e-15)
    np.testing.assert_allclose(
        impulse["distances"], [float(row["distance_to_impulse_velocity"]) for row in rows], rtol=1e-15
    )
    (solution,) = references["time_stepping"]["0.01"]  # Sec. 4.1: one solution
    step = entry["time_stepping"]["0.01"]
    (reaction,) = solution["reactions"]
    assert step["reference"] == reaction
    np.testing.assert_allclose(step["distances"], _by_hand(rows, columns, reaction), rtol=1e-15)

    # the README's "√10 per decade": order 1/2, over α = 1e5 … 1e8, asymptotic, and the limit is Λ
    assert impulse["order"] == pytest.approx(0.5, abs=0.01), impulse["order"]
    assert impulse["fit_alpha_range"] == [1e5, 1e8] and impulse["warnings"] == []
    assert impulse["distance_of_limit"] < impulse["distances"][-1] / 50  # measured: 1.2e-6 against 1.1e-4
    # the integrals tend to Λ, not to δt·λ̃: their limit lies |Λ − δt·λ̃| from δt·λ̃
    gap = np.max(np.abs(np.subtract(reaction, one_contact)))
    assert step["order"] < 0.1 and any("do not fall" in warning for warning in step["warnings"])
    assert step["distance_of_limit"] == pytest.approx(gap, rel=1e-2)
    # δt·λ̃ → Λ at order 1 in δt (Preclik Sec. 4.1)
    trend = entry["time_stepping_trend"]
    assert trend["dt"] == [0.01, 1e-3, 1e-4, 1e-5] and trend["order"] == pytest.approx(1.0, abs=1e-9)

    printed = capsys.readouterr().out
    block = printed[printed.index("convergence as α → ∞") :]
    assert f"order {impulse['order']:.3f} in α over α 1e5…1e8" in block
    assert "time stepping δt·λ̃ → Λ as δt → 0" in block and "order 1.000 in δt" in block


def test_the_rod_dropped_flat_converges_to_its_equal_impulses(tmp_path):
    """Both ends land together (v = (1, −1, 0), μ = 0.5 < v_x/v_y): Λ = (m V/2, −μ m V/2) = (0.5, −0.25) per end.
    Over one contact time the integrals also carry the weight, m g t_c / 2 per end with t_c ∝ α^(−1/2): that
    is the distance (normal component), so the order is 1/2."""
    out = tmp_path / "flat"
    overrides = [
        "system.phi0=0",
        "system.height=0",
        "system.vy0=-1",
        "system.vx0=1",
        "sweep.alpha=[1e4, 1e5, 1e6, 1e7]",
        "termination.time_limit=contact_time",
        'termination.events=["contact_open"]',
        "references.time_stepping_dt=[0.01]",
    ]
    assert _run("two_point_rod.toml", out, *overrides) == 0
    rows, document = _read(out)
    reference = [[float(rows[0][f"impulse_velocity_{part}_{i}"]) for part in "nt"] for i in (1, 2)]
    np.testing.assert_allclose(reference, [[0.5, -0.25], [0.5, -0.25]], rtol=1e-14)
    entry = document["convergence"]["systems"][0]["impulse_velocity"]
    columns = [f"int_lambda_{part}_{i}" for i in (1, 2) for part in "nt"]
    np.testing.assert_allclose(entry["distances"], _by_hand(rows, columns, reference), rtol=1e-15)
    np.testing.assert_allclose(entry["distances"], [float(row["distance_to_impulse_velocity"]) for row in rows])
    # m g t_c / 2 (m = 1, g = 10) plus half the vertical momentum still left at t_c, a share that vanishes
    excess = np.abs(np.array(entry["distances"]) / [10.0 * float(row["t_max"]) / 2 for row in rows] - 1)
    assert np.all(np.diff(excess) < 0) and excess[-1] < 1e-3, excess
    assert entry["order"] == pytest.approx(0.5, abs=0.01) and entry["warnings"] == []
    # δt·λ̃ adds the weight over one step, g δt / 2 per end
    step = document["convergence"]["systems"][0]["time_stepping"]["0.01"]
    np.testing.assert_allclose(step["reference"], [[0.55, -0.275], [0.55, -0.275]], rtol=1e-12)


def test_a_system_without_a_chosen_impulse_says_why(tmp_path, capsys):
    """The rod dropped flat with v_x < μ v_y: the impact's tangential split is statically indeterminate."""
    out = tmp_path / "stuck"
    overrides = ["system.phi0=0", "system.height=0", "system.vy0=-1", "system.vx0=0.2", "sweep.alpha=[1e4, 1e5]"]
    assert _run("two_point_rod.toml", out, *overrides, "termination.time_limit=0.01") == 0
    rows, document = _read(out)
    assert "distance_to_impulse_velocity" not in rows[0]
    entry = document["convergence"]["systems"][0]["impulse_velocity"]
    assert entry["reference"] is None and "continuum" in entry["warnings"][0]
    assert "none chosen" in document["references"]["impulse_velocity_rule"]
    printed = capsys.readouterr().out
    assert "impulse_velocity: no reference (an impact" in printed
    assert "not after the impulsive phase" in document["convergence"]["note"]


def test_a_window_that_holds_no_impulse_gives_no_impact_law_verdict(tmp_path, capsys):
    """Hunt–Crossley on Table 1's rod with a window shrinking as α^-0.4: no run has an impulse inside it (the
    integrals fall from 1e-7 to 2e-9). The study printed "converges to compliant_limit (order 0.604)" against the
    limit of an impact without collision grown from a seed, P ~ 1e-11; it now says the series holds no impulse,
    gives no verdict, and the seed's limit is no reference (Hunt–Crossley has no linear term at touch-down)."""
    out = tmp_path / "out"
    code = _run(
        "table1.toml",
        out,
        "contact.normal_law=hunt_crossley",
        "termination.time_limit=0.1",
        "sweep.alpha=[1e3, 1e4, 1e5, 1e6]",
        "sweep.termination.time_limit=[0.00631, 0.00251, 0.001, 0.000398]",
        'sweep.zip=[["alpha", "termination.time_limit"]]',
    )
    assert code == 0
    rows, document = _read(out)
    assert {row["impulsive"] for row in rows} == {"False"}
    (entry,) = document["convergence"]["systems"]
    assert "converges_to" not in entry
    assert any(warning.startswith("no run of this α-series had an impulsive phase") for warning in entry["warnings"])
    assert entry["impulse_velocity"]["order"] is not None  # the analysis stays: only the verdict is withheld
    limit = entry["compliant_limit"]
    assert limit["reference"] is None and "HuntCrossley has no linear term at touch-down" in limit["warnings"][0]
    printed = capsys.readouterr().out
    assert "converges to" not in printed and "compliant_limit: no reference (no landing" in printed
