"""Fig. 15 A–B and Table 4 of Champneys & Várkonyi (Sec. 6) drawn: the panels are what the caption and the text
say, panel A's orbits end in an IWC at one contact, panel B settles on a limit cycle, and the files are written."""

import csv

import numpy as np
import pytest

import regcontact  # noqa: F401  (float64)
from regcontact.figures._two_contact_classes import write_table4
from regcontact.figures._two_contact_fast_dynamics import draw_fig15
from regcontact.figures._two_contact_orbits import FIG15_PANELS, compute_fig15
from regcontact.stability import recompute_table4

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def classes():
    return recompute_table4()


@pytest.fixture(scope="module")
def fig15():
    return compute_fig15(grid=3, lattice=2)


def test_fig15_panels_are_what_the_caption_and_text_say(fig15):
    a, b, literal = fig15.facts
    for facts, panel in zip(fig15.facts, FIG15_PANELS):
        assert facts["subclass"] == panel.subclass
        assert facts["modes"] == {"S+S+"} and facts["exists"]  # the unique consistent mode
    np.testing.assert_allclose(a["angles"], FIG15_PANELS[0].caption_angles, atol=2e-3)
    np.testing.assert_allclose(b["angles"], FIG15_PANELS[1].caption_angles, atol=5e-3)
    assert abs(literal["angles"][1] - 1.007) < 1e-3  # the printed p₂₂ = −0.0375 does not give γ₂ = 1.07π
    assert a["impacts"] == {"IF", "FI"} and b["impacts"] == {"II"}  # B: II's necessary condition only
    assert np.sum(a["eigenvalues"].real > 0) == 1 and not a["stable"]  # saddle: a 3-d stable manifold
    assert not b["stable"] and literal["stable"]


def test_fig15a_every_orbit_is_an_iwc_at_one_contact_and_lift_off_at_the_other(fig15):
    orbits = [orbit for orbit in fig15.orbits if orbit[0] == "A"]
    outcomes = {outcome for _, outcome, _, _ in orbits} | set(fig15.grid_outcomes)
    assert outcomes == {"IF", "FI"}
    for _, outcome, _, z in orbits:
        impacting = 0 if outcome == "IF" else 1
        assert z[-1, impacting] < -500 and z[-1, 1 - impacting] > 0


def test_fig15b_limit_cycle_with_repeated_lift_off_of_contact_2(fig15):
    ((_, _, t, z),) = [orbit for orbit in fig15.orbits if orbit[0] == "B cycle"]
    panel = FIG15_PANELS[1]
    force_1 = np.maximum(panel.k[0] * z[:, 0] + panel.q[0] * z[:, 2], 0.0)
    assert force_1.min() > 0.2  # contact 1 keeps slipping
    up = np.flatnonzero((z[:-1, 1] < 0) & (z[1:, 1] >= 0))  # contact 2 leaves the ground …
    rises = t[up] - z[up, 1] * (t[up + 1] - t[up]) / (z[up + 1, 1] - z[up, 1])
    assert len(rises) >= 4 and np.ptp(np.diff(rises)) < 1e-3  # … once per period, periodically
    ((_, _, _, literal),) = [orbit for orbit in fig15.orbits if orbit[0] == "B′"]
    np.testing.assert_allclose(literal[-1, :2], fig15.facts[2]["penetration"], atol=1e-6)


def test_fig15_and_table4_files(fig15, classes, tmp_path):
    paths = draw_fig15(tmp_path, fig15) + write_table4(tmp_path, classes)
    assert all(path.exists() and path.stat().st_size > 0 for path in paths)
    with (tmp_path / "champneys_table4_two_contact_classes.csv").open() as stream:
        rows = list(csv.DictReader(stream))
    assert len(rows) == 24 and sum(row["printed_row"] == "True" for row in rows) == 16
    assert all(row["modes_agree"] == "True" for row in rows if row["printed_row"] == "True")
