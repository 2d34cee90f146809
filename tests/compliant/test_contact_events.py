"""Lift-off events that cannot fire on round-off, and a case's result independent of its batch (issues 8, 13).

The rod of issue 8 point 1 starts in contact at normal rest with a slow normal acceleration (the onset of an
impact without collision): its computed gap jumps between 0 and −1.1e-16 for many steps. A lift-off test at
``g_n = 0`` fired there after 9 steps at α = 1e8 and reported integrals of 5e-12 as ``event_occurred``.
"""

import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
import pytest

from regcontact.compliant import Case, Controls, SolveSettings, batch_agreement, sweep
from regcontact.compliant.run_checks import RUN_CHECKS
from regcontact.compliant.termination import EVENTS, contact_time
from regcontact.contact import ContactModel
from regcontact.rigid import ContactState, impulse_velocity
from regcontact.systems.rod import PainleveRod
from tests.compliant.batch_promise import assert_lanes_agree

pytestmark = pytest.mark.slow

ONSET = PainleveRod(gravity=10.0, mu=1.6666666666666667, phi0=0.788690, vx0=-12.1223, omega0=3.6502)
MODEL = ContactModel()
SETTINGS = SolveSettings(solver="RadauIIA5", events=("contact_open",), max_steps=20_000)
RTOL, ATOL = 1e-10, 1e-12


def _batch(rod, alphas):
    cases = [
        Case(
            rod,
            MODEL,
            jnp.asarray(a, float),
            Controls(RTOL, ATOL, contact_time(rod, MODEL.at_stiffness(a)[0].stiffness)),
        )
        for a in alphas
    ]
    return jtu.tree_map(lambda *leaves: jnp.stack(leaves), *cases)


@pytest.fixture(scope="module")
def onset_runs():
    runs, _ = sweep(_batch(ONSET, [1e6, 1e8, 1e10]), SETTINGS)
    return runs


def test_the_onset_rod_delivers_its_impulse_instead_of_lifting_off_on_round_off(onset_runs):
    sticking = impulse_velocity(ContactState.from_system(ONSET)).with_modes("T").reaction
    assert np.all(onset_runs.ok), [RUN_CHECKS[c] for c in onset_runs.check]
    distances = np.abs(onset_runs.force_integrals - sticking).max(axis=1)
    # α = 1e6: 2.1e-2; α = 1e8: 5.4e-4; α = 1e10: 3.7e-5 (before: 5.9 at 1e8 and 1e10, the integrals ≈ 1e-11)
    assert distances[1] < 1e-3 and distances[2] < 1e-4
    assert distances[0] > distances[1] > distances[2]


def test_a_lift_off_event_fires_only_on_a_separating_contact(onset_runs):
    """Every run above ends by a real lift-off: at the event the gap is ε_g and the contact separates."""
    for i in range(3):
        y = onset_runs.state_end.flat[i]
        gap = float(ONSET.gap(y[:3])[0])
        speed = float((ONSET.jacobian(y[:3]) @ y[3:6])[0])
        assert EVENTS["contact_open"] and onset_runs.termination[i] == 1
        assert 1e-14 < gap < 2e-14  # ε_g = 32 u ℓ = 1.42e-14
        assert speed > 1e-6


def test_the_table1_rod_never_opens_and_its_unresolvable_alphas_are_reported():
    """α = 1e12, 1e13 stay on the α^(-1/2) line; at 1e16 the gap is round-off, and the run says so."""
    rod = PainleveRod()
    runs, _ = sweep(_batch(rod, [1e12, 1e13, 1e16]), SETTINGS)
    assert np.all(runs.termination == 0)  # before: "contact_open" at t = 1.8e-8 for α = 1e16
    limit = np.array([3 * np.sqrt(3) / 16, 7 / 16])
    distances = np.abs(runs.force_integrals - limit).max(axis=1)
    np.testing.assert_allclose(distances[:2] * np.sqrt([1e12, 1e13]), 1.062, rtol=2e-3)
    assert list(runs.ok) == [True, True, False]
    assert RUN_CHECKS[runs.check[2]] == "unresolved_contact"


def test_a_case_does_not_depend_on_the_batch_it_runs_in():
    """The onset rod at α = 1e8: alone, among other α, and in a padded chunk with other neighbours."""
    alone, _ = sweep(_batch(ONSET, [1e8]), SETTINGS)
    among, _ = sweep(_batch(ONSET, [1e6, 1e10, 1e8]), SETTINGS)
    other_rods = jtu.tree_map(
        lambda *leaves: jnp.concatenate(leaves),
        _batch(PainleveRod(), [1e4, 1e7]),
        _batch(ONSET, [1e8]),
    )
    padded, _ = sweep(other_rods, SETTINGS, chunk_size=2)  # chunks [1e4, 1e7], [1e8, 1e8 (padding)]
    for batch, index in ((among, 2), (padded, 2)):
        assert batch.ok[index] and alone.ok[0]
        assert_lanes_agree(
            batch.state_end.flat[index],
            alone.state_end.flat[0],
            SETTINGS.solver,
            RTOL,
            ATOL,
            steps=(batch.num_accepted_steps[index], alone.num_accepted_steps[0]),
        )


def test_the_promise_fails_for_a_lane_interaction():
    """A lane that moved by the size issue 8 reported when its neighbours changed breaks the promise on every
    back end; a difference at the GPU's measured size (4.2e-9 relative at rtol 1e-7) breaks it on CPU only."""
    for backend in ("cpu", "gpu"):
        rtol, atol = batch_agreement("Kvaerno5", 1e-7, 1e-9, backend)
        assert not np.allclose([1.97, 3.28], [0.0, 0.0], rtol=rtol, atol=atol)
    assert not np.allclose(1.0 + 4.2e-9, 1.0, *batch_agreement("Kvaerno5", 1e-7, 1e-9, "cpu"))
    assert np.allclose(1.0 + 4.2e-9, 1.0, *batch_agreement("Kvaerno5", 1e-7, 1e-9, "gpu"))


def test_the_batch_promise_is_tight_on_cpu_and_tolerance_sized_elsewhere():
    assert batch_agreement("RadauIIA5", 1e-10, 1e-12, backend="cpu") == (1e-10, 1e-14)
    rtol, atol = batch_agreement("RadauIIA5", 1e-10, 1e-12, backend="gpu")
    assert rtol == pytest.approx(10 * 0.1 * 1e-10 ** (2 / 3)) and atol == 1e-11
    assert batch_agreement("Kvaerno5", 1e-7, 1e-9, backend="gpu") == pytest.approx((1e-6, 1e-8))
    # The measured GPU difference (4.2e-9 at Kvaerno5, rtol 1e-7) is inside; a lane interaction of the size
    # issue 8 reported ((1.97, 3.28) against (0, 0)) is far outside.
    assert 4.2e-9 < batch_agreement("Kvaerno5", 1e-7, 1e-9, backend="gpu")[0] < 1.0
