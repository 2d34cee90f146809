"""Acceptance of the Table 1 study: the force integrals converge to the impulse-velocity LCP's impulse.

Λ comes from the LCP for whatever rod the config describes; the criteria of the foundation issue are checked for
the paper's rod and for another rod in the Painlevé region, through ``--set``-style overrides.
"""

from pathlib import Path

import numpy as np
import pytest

from regcontact.rigid import ContactState, impulse_velocity
from regcontact.studies.loading import load_study
from regcontact.systems.rod import PainleveRod

TABLE1 = Path(__file__).parents[2] / "studies" / "table1.toml"


def run_table1(overrides):
    loaded = load_study(TABLE1, overrides)
    return loaded.kind.run(loaded.config)


@pytest.mark.slow
@pytest.mark.parametrize(
    "overrides, rod",
    [
        ([], PainleveRod()),
        (["system.phi0=1.0", "system.mu=2"], PainleveRod(phi0=1.0, mu=2.0)),
        (["system.phi0=1.2", "system.mu=1.4"], PainleveRod(phi0=1.2, mu=1.4)),
    ],
)
def test_force_integrals_converge_to_the_impulse_velocity_solution(overrides, rod):
    result = run_table1(overrides)
    rows = {row["alpha"]: row for row in result.rows}
    assert all(row["status"] == "successful" for row in result.rows)

    # the reference is the non-zero (sticking) impulse-velocity solution of this rod's LCP
    sticking = impulse_velocity(ContactState.from_system(rod)).with_modes("T").reaction
    reference = np.array([rows[1e8]["impulse_velocity_n"], rows[1e8]["impulse_velocity_t"]])
    np.testing.assert_allclose(reference, sticking, rtol=1e-12)

    integrals = np.array([rows[1e8]["int_lambda_n"], rows[1e8]["int_lambda_t"]])
    assert np.max(np.abs(integrals - reference)) < 1e-3
    distances = [rows[a]["distance_to_impulse_velocity"] for a in (1e4, 1e5, 1e6, 1e7, 1e8)]
    assert all(later < earlier for earlier, later in zip(distances, distances[1:])), distances


@pytest.mark.slow
def test_paper_rod_reference_is_preclik_lambda_2():
    result = run_table1([])
    (impulse,) = result.references["impulse_velocity"]  # one contact: [[Λ_n, Λ_t]]
    assert impulse == pytest.approx([3 * np.sqrt(3) / 16, 7 / 16], rel=1e-12)
    np.testing.assert_allclose(impulse, [0.3248, 0.4375], atol=5e-5)


@pytest.mark.slow
def test_non_unique_rod_gives_no_impulse_and_lifts_off():
    """Sec. 2.2 / 5.2: with τ = 2 f_y I / (m l cos φ) − 1 the force problem is solvable, Λ = 0 by Painlevé's
    principle, and the compliant rod lifts off at once with vanishing force integrals."""
    result = run_table1(["system.torque={below_threshold = 1.0}"])
    assert result.references["impulse_velocity"] == [[0.0, 0.0]]
    for row in result.rows:
        assert row["termination"] == "contact_open"
        assert row["status"] == "event_occurred"
        assert abs(row["int_lambda_n"]) < 1e-12 and abs(row["int_lambda_t"]) < 1e-12
