"""A start with the contacts pressed in by δ (Preclik Sec. 5.2): exact gaps, open contacts kept, δ = 0 exact."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from regcontact.compliant.dynamics import initial_state
from regcontact.compliant.initial_penetration import penetrated_initial_state, slipping_initial_state
from regcontact.contact import ContactModel
from regcontact.systems import (
    PainleveRod,
    ReducedSingleContact,
    SpatialRod,
    TwoPointRod,
    contact_space_form,
    spatial_contact_space_form,
)


@pytest.mark.slow
@pytest.mark.parametrize(
    "system", [PainleveRod(), TwoPointRod(), ReducedSingleContact()], ids=lambda s: type(s).__name__
)
@pytest.mark.parametrize("depth", [1e-9, 1e-4, 0.05])
def test_every_closed_contact_is_pressed_in_by_exactly_the_depth(system, depth):
    state = penetrated_initial_state(system, depth)
    np.testing.assert_allclose(np.asarray(system.gaps(state.q))[:, 0], -depth, rtol=1e-12, atol=1e-16)
    np.testing.assert_array_equal(np.asarray(state.v), np.asarray(initial_state(system).v))


@pytest.mark.slow
def test_zero_depth_is_the_initial_state_bit_for_bit():
    for system in (PainleveRod(), TwoPointRod(), ReducedSingleContact()):
        np.testing.assert_array_equal(
            np.asarray(penetrated_initial_state(system, 0.0).q), np.asarray(initial_state(system).q)
        )


def test_an_open_contact_keeps_its_gap():
    """The two-point rod tilted: its upper end is in the air and stays where it was."""
    rod = TwoPointRod(phi0=0.3)
    gaps0 = np.asarray(rod.gaps(initial_state(rod).q))[:, 0]
    closed = gaps0 <= 1e-12
    assert closed.sum() == 1
    gaps = np.asarray(rod.gaps(penetrated_initial_state(rod, 1e-3).q))[:, 0]
    np.testing.assert_allclose(gaps[closed], -1e-3, rtol=1e-12)
    np.testing.assert_allclose(gaps[~closed], gaps0[~closed], rtol=1e-12)


@pytest.mark.slow
def test_it_vmaps_over_depths():
    rod = PainleveRod()
    depths = jnp.array([0.0, 1e-6, 1e-3])
    states = jax.vmap(lambda d: penetrated_initial_state(rod, d))(depths)
    np.testing.assert_allclose(np.asarray(jax.vmap(rod.gaps)(states.q))[:, 0, 0], -np.asarray(depths), atol=1e-16)


@pytest.mark.slow
@pytest.mark.parametrize("system", [PainleveRod(mu=0.5), SpatialRod(mu=0.5)], ids=lambda s: type(s).__name__)
def test_a_slipping_start_carries_the_rigid_slips_normal_force_in_either_tangent_dimension(system):
    """``λ_n = −b/p`` at the start, with ``p`` of the slip's sign (planar) or direction (spatial)."""
    normal, _ = ContactModel().at_stiffness(1e6)
    state = slipping_initial_state(system, normal)
    q0, v0 = system.initial_state()
    mu = system.friction_coefficients[0]
    if type(system).TANGENT_DIM == 1:
        form = contact_space_form(system, q0, v0)
        sign = jnp.sign(system.jacobians(q0)[0, 1] @ v0)
        force = -form.b[0] / (form.C[0, 0] - sign * mu * form.B[0, 0])
    else:
        form = spatial_contact_space_form(system, q0, v0)
        slip = system.jacobians(q0)[0, 1:] @ v0
        force = -form.b / form.painleve(mu, jnp.arctan2(slip[1], slip[0]))
    carried = normal(system.gaps(state.q)[0, 0], system.jacobians(state.q)[0, 0] @ state.v)
    assert float(force) > 0.0
    np.testing.assert_allclose(float(carried), float(force), rtol=1e-9)
    np.testing.assert_array_equal(np.asarray(state.v), np.asarray(v0))
    assert state.impulses.shape == (1, 1 + type(system).TANGENT_DIM)
