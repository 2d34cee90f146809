"""The compliant model through the 3D rod's crossing of p = 0: an impact without collision into stick that converges
to the rigid one, then slip from rest in the one consistent direction (docs/spatial_contact.md)."""

import math

import jax.numpy as jnp
import numpy as np
import pytest

from regcontact.contact import ContactModel
from regcontact.passages import pass_through
from regcontact.rigid import crossing_reference
from regcontact.systems import spatial_contact_space_form
from regcontact.systems.spatial_rod import SpatialRod

pytestmark = pytest.mark.slow

ROD = SpatialRod(gyration=0.1, mu=1.0, theta0=1.2, slip0=(math.cos(1.3), math.sin(1.3)))
ALPHAS = (1e4, 1e6, 1e8)


@pytest.fixture(scope="module")
def runs():
    reference = crossing_reference(ROD)
    passage = pass_through(ROD, ContactModel(), np.asarray(ALPHAS), reference, samples=60)
    return reference, passage, passage.classify(ROD, reference)


def test_the_rigid_iwc_stops_the_slip_then_compresses_in_stick_to_rest(runs):
    reference, _, _ = runs
    impact = reference.impact
    assert bool(impact.slip_stopped) and bool(impact.stick_in_cone)
    assert 0 < float(impact.slip_impulse) < float(impact.normal_impulse)
    rates = np.asarray(ROD.jacobians(jnp.asarray(reference.q))[0] @ impact.v_after)
    assert np.abs(rates).max() < 1e-9  # at rest in the contact: no slip, no normal velocity (r = 0)
    # the tangential impulse stays in the cone
    assert np.linalg.norm(impact.tangential_impulse) <= float(impact.normal_impulse)


def test_every_run_is_an_iwc_into_stick_converging_like_alpha_to_the_minus_half(runs):
    _, passage, result = runs
    assert np.all(np.asarray(passage.ok))
    assert result.outcome_names == ["jump_into_stick"] * 3
    for errors in (result.impulse_error, result.velocity_error, result.slip_after):
        # α^(-1/2): 10 per two decades (measured 9.8–10.4 from 1e6 to 1e8; 8.1 for the velocities from 1e4)
        np.testing.assert_allclose(errors[-2] / errors[-1], 10.0, rtol=0.1)
        assert 7.5 < errors[0] / errors[1] < 11
    np.testing.assert_allclose(result.bounce[:-1] / result.bounce[1:], 100.0, rtol=0.15)  # a bounce of O(1/α)
    assert result.impulse_error[-1] < 5e-5 and result.velocity_error[-1] < 2e-3
    assert np.all(result.end_closed)


def test_after_the_iwc_the_rod_slips_back_in_the_one_consistent_direction(runs):
    """At the rigid state after the IWC free motion (``b < 0``) and stick (``λ_N < 0``) are inconsistent; slip from
    rest is consistent (``λ_N = −b/p(ϕ) > 0``, accelerating along ``ϕ``) in one direction only, and the compliant
    runs slip that way with that normal force."""
    reference, passage, result = runs
    q, v = jnp.asarray(reference.q), reference.impact.v_after
    form = spatial_contact_space_form(ROD, q, v)
    delassus = np.block([[np.array([[form.C]]), np.asarray(form.B)[None]], [np.asarray(form.B)[:, None], form.A]])
    assert float(form.b) < 0 and np.linalg.solve(delassus, -np.r_[form.b, form.a])[0] < 0
    phis = np.linspace(-math.pi, math.pi, 100_001)
    directions = np.stack([np.cos(phis), np.sin(phis)], axis=-1)
    normal = -float(form.b) / (float(form.C) - directions @ np.asarray(form.B))
    acceleration = np.asarray(form.a) + (np.asarray(form.B) - directions @ np.asarray(form.A).T) * normal[:, None]
    across = acceleration[:, 0] * directions[:, 1] - acceleration[:, 1] * directions[:, 0]
    turns = np.flatnonzero(np.sign(across[:-1]) != np.sign(across[1:]))
    consistent = [i for i in turns if normal[i] > 0 and acceleration[i] @ directions[i] > 0]
    assert len(consistent) == 1
    phi, force = phis[consistent[0]], normal[consistent[0]]
    times = np.asarray(passage.times[-1]) - reference.t_cross
    k = int(np.argmin(np.abs(times - 1e-2)))
    slip = np.asarray(passage.rates[-1, k, 1:])
    assert abs(math.remainder(math.atan2(slip[1], slip[0]) - phi, 2 * math.pi)) < 0.03
    assert float(passage.normal_force[-1, k]) == pytest.approx(force, rel=0.05)
    # the end slips of the three runs approach one another
    ends = result.end_slip
    assert np.abs(ends[1] - ends[2]).max() < 0.2 * np.abs(ends[0] - ends[1]).max()
