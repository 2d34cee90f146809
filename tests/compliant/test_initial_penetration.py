"""A start with the contacts pressed in by δ (Preclik Sec. 5.2): exact gaps, open contacts kept, δ = 0 exact."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from regcontact.compliant.dynamics import initial_state
from regcontact.compliant.initial_penetration import penetrated_initial_state
from regcontact.systems import PainleveRod, ReducedSingleContact, TwoPointRod


@pytest.mark.parametrize(
    "system", [PainleveRod(), TwoPointRod(), ReducedSingleContact()], ids=lambda s: type(s).__name__
)
@pytest.mark.parametrize("depth", [1e-9, 1e-4, 0.05])
def test_every_closed_contact_is_pressed_in_by_exactly_the_depth(system, depth):
    state = penetrated_initial_state(system, depth)
    np.testing.assert_allclose(np.asarray(system.gaps(state.q))[:, 0], -depth, rtol=1e-12, atol=1e-16)
    np.testing.assert_array_equal(np.asarray(state.v), np.asarray(initial_state(system).v))


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


def test_it_vmaps_over_depths():
    rod = PainleveRod()
    depths = jnp.array([0.0, 1e-6, 1e-3])
    states = jax.vmap(lambda d: penetrated_initial_state(rod, d))(depths)
    np.testing.assert_allclose(np.asarray(jax.vmap(rod.gaps)(states.q))[:, 0, 0], -np.asarray(depths), atol=1e-16)
