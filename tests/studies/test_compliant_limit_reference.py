"""The compliant-limit reference of compliant studies: at a landing whose rigid laws differ, the force integrals
converge to the contact model's own limit impact law and not to the impulse LCP; the reference is computed once
per (system, contact model) and is absent, without columns, where it does not apply or is switched off."""

import csv
import importlib
import json
from pathlib import Path

import numpy as np
import pytest

from regcontact.cli import main

#: The rigid face, where the study takes ``compliant_limits`` from when it runs.
compliant_limit_module = importlib.import_module("regcontact.rigid")

STUDY = Path(__file__).parents[2] / "studies" / "landing_flat_rod.toml"
#: Three α are enough for an order over two decades; the shipped study runs 1e3 … 1e7.
ALPHA = "sweep.alpha=[1e3, 1e4, 1e5]"
INTEGRALS = [f"int_lambda_{part}_{i}" for i in (1, 2) for part in "nt"]


def _run(out, *overrides):
    arguments = ["run", str(STUDY), "--out", str(out), "--set", ALPHA]
    for override in overrides:
        arguments += ["--set", override]
    assert main(arguments) == 0
    with open(out / "results.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return rows, json.loads((out / "results.json").read_text())


@pytest.mark.slow
def test_the_flat_rod_converges_to_its_compliant_limit_not_to_the_impulse_lcp(tmp_path, capsys, monkeypatch):
    """The rod dropped flat, v = (0.5, −1, 0.3), μ = 0.5, γ_t = 0.1 γ_n: the limit law leaves a slip of 0.348, the
    impulse LCP none. With γ_n, γ_t ∝ α^1.5 the integrals reach the limit at order 1; with Preclik's γ_n, γ_t ∝ α
    at order 1/2 (the undamped spring's rebound, e ∝ α^(−1/2)); the distance to Λ levels off at |Λ − P|."""
    calls = []
    original = compliant_limit_module.compliant_limits
    monkeypatch.setattr(
        compliant_limit_module, "compliant_limits", lambda *a, **k: calls.append(len(a[0])) or original(*a, **k)
    )
    rows, document = _run(tmp_path / "flat")
    assert calls == [2]  # one call, one pair per distinct contact model (one system), not per case

    for row in rows:  # the CSV's distance is the integrals' max-norm distance to the CSV's P
        integrals = np.array([float(row[name]) for name in INTEGRALS])
        limit = np.array([float(row[name.replace("int_lambda", "compliant_limit")]) for name in INTEGRALS])
        assert float(row["distance_to_compliant_limit"]) == pytest.approx(np.abs(integrals - limit).max(), rel=1e-12)

    slow, fast = document["convergence"]["systems"]
    assert fast["system"] == {"contact.normal_exponents.damping": 1.5, "contact.friction_exponents.damping": 1.5}
    for entry in (slow, fast):
        limit, impulse = entry["compliant_limit"], entry["impulse_velocity"]
        assert limit["velocity_after"][0] == pytest.approx(0.348, abs=1e-3)  # the slip the limit law leaves
        assert limit["friction_during_impact"] == "viscous" and limit["ended"] == "rest"
        # the LCP's tangential impulse, −0.5 over both ends, stops the slip m v_x = 0.5
        assert sum(t for _, t in impulse["reference"]) == pytest.approx(-0.5, rel=1e-12)
        assert impulse["order"] < 0.1 and any("do not fall" in warning for warning in impulse["warnings"])
        assert impulse["distances"][-1] == pytest.approx(entry["converges_to"]["laws_differ_by"], rel=1e-2)
        assert entry["converges_to"]["references"] == ["compliant_limit"]
        assert entry["converges_to"]["laws_differ_by"] == pytest.approx(0.1992, abs=1e-4)
    assert fast["compliant_limit"]["order"] == pytest.approx(1.0, abs=0.01), fast["compliant_limit"]["order"]
    assert slow["compliant_limit"]["order"] == pytest.approx(0.5, abs=0.01), slow["compliant_limit"]["order"]
    assert fast["compliant_limit"]["warnings"] == [] and slow["compliant_limit"]["warnings"] == []

    printed = capsys.readouterr().out
    for entry in (slow, fast):  # one line per α-series
        said = f"converges to compliant_limit (order {entry['compliant_limit']['order']:.3f}), not to impulse_velocity"
        assert said in printed


@pytest.mark.slow
def test_the_reference_switched_off_writes_no_columns(tmp_path, capsys):
    rows, document = _run(tmp_path / "off", "references.compliant_limit=false")
    assert not [name for name in rows[0] if "compliant_limit" in name]
    for entry in document["convergence"]["systems"]:
        assert entry["compliant_limit"] == {
            "reference": None,
            "warnings": ["no reference: compliant-limit reference switched off"],
        }
        assert "converges_to" not in entry
    assert "converges to" not in capsys.readouterr().out
