"""The landing table (``kind = "landing_table"``) on a few landings: every compliant model converges to its own
limit impact law, and to the other laws exactly where they agree with it; bad input stops with one line."""

from pathlib import Path

import pytest

from regcontact.cli import main
from regcontact.studies import landing_study
from regcontact.studies.loading import load_study

pytestmark = pytest.mark.slow

TABLE = Path(__file__).parents[2] / "studies" / "landing_table.toml"
ENERGETIC = Path(__file__).parents[2] / "studies" / "landing_table_energetic.toml"


@pytest.fixture(scope="module")
def table():
    """One landing of each system and model (the draw takes them in turn), α = 1e4 … 1e7."""
    overrides = ["landings.count=6", "compliant.alpha=[1e4, 1e5, 1e6, 1e7]"]
    return landing_study.LandingTableStudy().run(load_study(TABLE, overrides).config)


def test_every_landing_converges_to_its_compliant_limit(table):
    assert not table.failures
    assert {(row["system"], row["model"]) for row in table.rows} == {
        (system, model) for system in landing_study.SYSTEMS for model in landing_study.DEFAULT_MODELS
    }
    for row in table.rows:
        assert "compliant_limit" in row["converges_to"].split(), row
        expected_order = 1.0 if row["model"] == "preclik" and row["friction_during_impact"] != "coulomb" else 0.5
        assert row["order_compliant_limit"] >= 0.9 * expected_order, row


def test_the_other_laws_are_reached_only_where_they_agree_with_it(table):
    for row in table.rows:
        for law in ("lcp", "darboux_keller"):
            distance = row[f"distance_{law}"]
            if distance is None:  # Darboux–Keller refuses a restitution at several contacts
                assert row["contacts"] > 1 and row["restitution"] > 0
                continue
            reached = law in row["converges_to"].split()
            far = distance > 10 * row["distance_compliant_limit"]
            assert not (reached and far), row
        if row["laws_agree"]:
            assert row["converges_to"] == "lcp darboux_keller compliant_limit"
    assert any(not row["laws_agree"] for row in table.rows)


def test_the_bilinear_spring_converges_to_the_energetic_law_at_one_contact():
    """Stronge's bilinear spring: every landing converges to its limit law (at order 1/2, the finite forces acting
    through the window), and where one contact closes with Coulomb friction during the impact that limit is
    Darboux–Keller's energetic law. From α = 1e5: at 1e4 the window is long enough for landing 0 (r = 0.22) to
    be pre-asymptotic (measured distances 0.248, 0.303, 0.0958, … 9.58e-4 of the speed at α = 1e4 … 1e10, order
    0.5000 from 1e5 on)."""
    overrides = ["landings.count=3", "compliant.alpha=[1e5, 1e6, 1e7]"]
    table = landing_study.LandingTableStudy().run(load_study(ENERGETIC, overrides).config)
    assert not table.failures
    assert {row["model"] for row in table.rows} == {"bilinear"}
    for row in table.rows:
        assert "compliant_limit" in row["converges_to"].split(), row
        assert abs(row["order_compliant_limit"] - 0.5) < 0.05, row
        if row["contacts"] == 1 and row["friction_during_impact"] == "coulomb":
            assert "darboux_keller" in row["converges_to"].split(), row
    assert any(row["contacts"] == 1 and row["friction_during_impact"] == "coulomb" for row in table.rows)


def test_too_few_alphas_stop_with_one_line(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["run", str(TABLE), "--out", str(out), "--set", "compliant.alpha=[1e4, 1e5]"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("regcontact: config error: compliant.alpha = ")
    assert not out.exists()
