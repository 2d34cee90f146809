"""The whole-motion comparison (``kind = "rigid_trajectories"``, issue 12 point 2) on short horizons: Moreau–Jean
approaches the event-driven run at order 1 in δt, the compliant model approaches it as α grows, the mode
sequences agree; bad input stops with one line naming the key and writes nothing."""

from pathlib import Path

import numpy as np
import pytest

from regcontact.cli import main
from regcontact.compliant.modes import compliant_modes
from regcontact.contact import ViscousCoulomb
from regcontact.motion_events import run_length
from regcontact.rigid import event_driven
from regcontact.studies import trajectory_study
from regcontact.studies.loading import load_study
from regcontact.systems import PainleveRod

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
ROD = ROOT / "studies" / "rigid_trajectories.toml"
TWO_POINT = ROOT / "studies" / "rigid_trajectories_two_point_rod.toml"


def _compare(path: Path, overrides: list[str]) -> trajectory_study.Comparison:
    return trajectory_study.compare(load_study(path, overrides).config)


@pytest.fixture(scope="module")
def rod_sticking():
    """The Sec. 2.1 rod over 0.5 s: the impact without collision at t = 0, then sticking."""
    overrides = [
        "horizon.t_end=0.5",
        "compliant.alpha=[1e3, 1e4, 1e5]",
        "moreau_jean.dt=[1e-2, 1e-3, 1e-4]",
        "gholami.dt='none'",
    ]
    return _compare(ROD, overrides)


@pytest.fixture(scope="module")
def two_point_landing():
    """The two-point rod: lands on end 1, slides, lands on end 2, slides flat and sticks at t = 0.4."""
    return _compare(TWO_POINT, ["compliant.alpha=[1e3, 1e4]", "moreau_jean.dt=[1e-2, 1e-3]"])


def _rows(comparison, prefix):
    return [row for row in comparison.rows if str(row["run"]).startswith(prefix)]


def test_moreau_jean_approaches_the_event_driven_motion_at_order_one(rod_sticking):
    rows = _rows(rod_sticking, "Moreau")
    distances = np.array([row["distance_q"] for row in rows])
    assert np.all(np.diff(distances) < 0)
    order = rod_sticking.orders["moreau_jean_dt"]["distance_q"]["order"]
    assert order == pytest.approx(1.0, abs=0.05)
    assert rod_sticking.orders["moreau_jean_dt"]["distance_v"]["order"] == pytest.approx(1.0, abs=0.05)


def test_the_compliant_motion_approaches_it_as_alpha_grows(rod_sticking):
    rows = _rows(rod_sticking, "compliant")
    assert all(row["solved"] for row in rows)
    distances = np.array([row["distance_q"] for row in rows])
    assert np.all(distances[1:] < distances[:-1] / 3)  # at least half an order per decade
    assert distances[-1] < 2e-3


def test_the_rod_sticks_after_the_impact_without_collision_in_every_run(rod_sticking):
    assert rod_sticking.impulsive_events == ((0.0, "IWC"),)
    assert all(row["modes"] == "T" and row["modes_equal"] for row in rod_sticking.rows)


def test_mode_sequences_and_event_times_of_the_two_point_rod(two_point_landing):
    reference = two_point_landing.rows[0]
    assert reference["modes"] == "1: F, S+, T | 2: F, S+, T"
    kinds = [(contact, kind) for _, contact, kind in two_point_landing.reference.events]
    assert kinds == [(0, "landing"), (1, "landing"), (0, "stick"), (1, "stick")]
    for row in two_point_landing.rows[1:]:
        assert row["modes_equal"], row
        assert row["event_error"] is not None
    # Time stepping: the events to within a step.
    for row in _rows(two_point_landing, "Moreau"):
        assert row["event_error"] <= 1.5 * row["dt"]


def test_the_compliant_landing_on_a_sliding_rod_keeps_a_velocity_offset(two_point_landing):
    """Against the impulse LCP: after the second end lands on the sliding rod, the compliant velocity differs from
    the LCP's by about 0.023 whatever α (the stop time by 0.0046 = 0.023/(μ g)): the compliant model has an impact
    law of its own (the test above)."""
    rows = _rows(two_point_landing, "compliant")
    offsets = np.array([row["distance_v"] for row in rows])
    assert np.all(offsets > 0.02)
    assert abs(offsets[1] - offsets[0]) < 0.1 * offsets[0]


SEC22 = ROOT / "studies" / "rigid_trajectories_sec22.toml"


@pytest.mark.parametrize(
    ("path", "overrides"),
    [
        (TWO_POINT, ["event_driven.impact_law='compliant_limit'"]),
        (TWO_POINT, ["event_driven.impact_law='darboux_keller'", "compliant.friction_damping_exponent=1.5"]),
        (SEC22, ["event_driven.impact_law='compliant_limit'", "gholami.dt='none'"]),
    ],
    ids=["two-point-rod-compliant-limit", "two-point-rod-faster-friction-darboux-keller", "sec22-compliant-limit"],
)
def test_the_compliant_motion_converges_to_the_run_with_its_own_impact_law(path, overrides):
    """Against the impact law the compliant model converges to (its limit law; with γ_t ∝ α^1.5 Coulomb friction
    during the impact, Darboux–Keller's), the landings that keep an offset against the impulse LCP converge at
    order 1 in α, every compliant run agreeing with the reference."""
    comparison = _compare(path, [*overrides, "compliant.alpha=[1e3, 1e4, 1e5]", "moreau_jean.dt=[1e-2]"])
    rows = _rows(comparison, "compliant")
    assert all(row["ok"] for row in rows), [row["verdict"] for row in rows]
    for variable in ("distance_q", "distance_v"):
        assert comparison.orders["compliant_alpha"][variable]["order"] == pytest.approx(1.0, abs=0.05)


def test_compliant_modes_from_the_friction_laws_threshold():
    forces = np.array([[[0.0, 0.0]], [[2.0, -1.0]], [[2.0, -3.0]], [[2.0, 3.0]]])  # (m, k, 2)
    slips = np.array([[0.5], [1e-4], [0.3], [-0.3]])
    modes = compliant_modes(ViscousCoulomb(damping=1e4), forces, slips, mu=np.array([1.5]))
    # γ_t |ġ_t| = 1, 3000, 3000 against μ λ_n = 3: free, stick, slide, slide
    assert modes[:, 0].tolist() == ["F", "T", "S+", "S-"]
    assert run_length(["T", "T", "S-", "S-", "T"]) == ["T", "S-", "T"]


def test_event_driven_samples_at_given_times_are_the_motion_there():
    rod = PainleveRod()
    sampled = event_driven(rod, 0.4, sample_times=[0.1, 0.25])
    for t in (0.1, 0.25):
        (i,) = np.flatnonzero(sampled.times == t)
        direct = event_driven(rod, t)
        np.testing.assert_allclose(sampled.q[i], direct.q[-1], rtol=0, atol=1e-9)
        np.testing.assert_allclose(sampled.v[i], direct.v[-1], rtol=0, atol=1e-9)


# --- verdicts: a run on the other branch, without the reference's impulse, does not agree ----------------------

#: An outside project's Painlevé rod: it slides until a dynamic jam at t ≈ 0.8146, where the event-driven run
#: applies an impact without collision, (P_n, P_t) ≈ (3.50, 5.83), and lifts off. Moreau–Jean at δt = 1e-3 lifts off
#: there without that impulse (a velocity ≈ 5 off ever after) while δt = 1e-2 and 2e-3 take it; the mode strings of
#: all of them read ``S-, F``.
JAM = [
    "system.mu=1.6666666666666667",  # 5/3
    "system.phi0=0.5410520681182421",  # 31°
    "system.vx0=-30",
    "system.gravity=10",
    "horizon.t_end=0.9",
    "compliant.alpha=[1e4]",
    "moreau_jean.dt=[1e-2, 2e-3, 1e-3]",
    "gholami.dt='none'",
]


@pytest.fixture(scope="module")
def jam():
    return trajectory_study.RigidTrajectoriesStudy().run(load_study(ROD, JAM).config)


def test_a_run_without_the_reference_impulse_does_not_agree(jam):
    rows = {row["run"]: row for row in jam.rows}
    (time, contact, size) = rows["event-driven"]["impulses"].split(" ", 2)
    assert float(time) == pytest.approx(0.81455, abs=1e-5) and contact == "c1"
    normal, tangential = (float(x) for x in size.strip("()").split(","))
    assert (normal, tangential) == (pytest.approx(3.50, abs=0.01), pytest.approx(5.833, abs=0.01))
    skipped = rows["Moreau–Jean δt=0.001"]
    assert skipped["modes_equal"] and skipped["distance_v"] > 4  # the modes cannot tell; the motion is off
    assert not skipped["events_equal"] and not skipped["ok"]
    assert "the reference's 0.81455 c1 (3.5, 5.833)" in skipped["verdict"]
    for name in ("Moreau–Jean δt=0.01", "Moreau–Jean δt=0.002", "compliant α=10000"):
        assert rows[name]["events_equal"] and rows[name]["ok"], rows[name]
        assert rows[name]["distance_v"] < 0.1 * 29  # within the tolerance of the reference's largest speed


def test_no_order_is_fitted_across_the_branch_switch(jam):
    orders = jam.extra["orders"]["moreau_jean_dt"]
    assert orders["distance_q"] is None  # δt = 1e-3 left out: two δt remain, too few for an order
    assert orders["no_order"]["distance_q"] == "only 2 distinct δt with the reference's events and distance_q > 0"
    assert [run for run, _ in jam.extra["left_out_of_orders"]] == ["Moreau–Jean δt=0.001"]
    (line,) = [line for line in jam.summary if line.startswith("left out of the orders")]
    assert "Moreau–Jean δt=0.001: impulse" in line


# --- bad input: one line naming the key, nothing written -------------------------------------------------------


@pytest.fixture
def must_not_run(monkeypatch):
    def run(self, config, progress):
        raise AssertionError("the study ran")

    monkeypatch.setattr(trajectory_study.RigidTrajectoriesStudy, "run", run)


@pytest.mark.parametrize(
    ("assignment", "key", "expected"),
    [
        ("moreau_jean.dt=[1e-2, 0.0]", "moreau_jean.dt", "each a positive number"),
        ("moreau_jean.dt=[-1e-3]", "moreau_jean.dt", "each a positive number"),
        ("gholami.dt=-0.01", "gholami.dt", "a positive number"),
        ("gholami.threshold=0", "gholami.threshold", "a positive number"),
        ("gholami.threshold=-1e-3", "gholami.threshold", "a positive number"),
        ("moreau_jean.selection='smallest'", "moreau_jean.selection", "one of 'painleve', 'lemke', 'least_energy'"),
        ("gholami.selection='first'", "gholami.selection", "one of 'painleve', 'lemke', 'least_energy'"),
        ("event_driven.selection='lemke'", "event_driven.selection", "one of 'painleve', 'least_energy'"),
        ("verdict.tolerance=0", "verdict.tolerance", "(0, 1)"),
        ("event_driven.impact_law='newton'", "event_driven.impact_law", "'lcp', 'darboux_keller', 'compliant_limit'"),
        ("compliant.friction_damping=0", "compliant.friction_damping", "a positive number"),
    ],
)
def test_bad_input_stops_with_one_line_naming_the_key(tmp_path, capsys, must_not_run, assignment, key, expected):
    out = tmp_path / "out"
    assert main(["run", str(ROD), "--out", str(out), "--set", assignment]) == 2
    printed = capsys.readouterr()
    assert printed.out == ""
    lines = printed.err.splitlines()
    assert len(lines) == 1, printed.err
    assert lines[0].startswith(f"regcontact: config error: {key} = ")
    assert expected in lines[0]
    assert not out.exists()
