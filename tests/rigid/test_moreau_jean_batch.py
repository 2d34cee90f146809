"""Moreau–Jean stepped for many systems at once equals the one-system integrator, run one by one."""

import numpy as np
import pytest

from regcontact.rigid import moreau_jean, moreau_jean_batch, torque_threshold
from regcontact.systems.rod import PainleveRod
from regcontact.systems.two_point_rod import TwoPointRod

PHI = np.pi / 3


def _assert_same(batched, alone, rtol=1e-9):
    assert batched.modes == alone.modes
    scale_q, scale_v = np.abs(alone.q).max(), np.abs(alone.v).max()
    np.testing.assert_allclose(batched.q, alone.q, rtol=0, atol=rtol * scale_q)
    np.testing.assert_allclose(batched.v, alone.v, rtol=0, atol=rtol * scale_v)
    np.testing.assert_allclose(batched.impulses, alone.impulses, rtol=0, atol=rtol * np.abs(alone.impulses).max())
    assert batched.statistics.ambiguous_steps == alone.statistics.ambiguous_steps


@pytest.mark.parametrize("selection", ["painleve", "least_energy", "lemke"])
def test_rods_inside_and_outside_the_painleve_region_and_with_sec22_torques(selection):
    rods = [
        PainleveRod(),  # Sec. 2.1: impact without collision at the first step, then stick, then slip
        PainleveRod(mu=1.0, phi0=0.9),  # outside the Painlevé region: slides
        PainleveRod(mu=2.0, phi0=1.1),
        PainleveRod(torque=torque_threshold(PHI) - 1.0),  # Sec. 2.2: several solutions at the first step
        PainleveRod(mu=0.3, phi0=0.5, vx0=1.0),
    ]
    batch = moreau_jean_batch(rods, 0.6, 1e-2, selection)
    for rod, batched in zip(rods, batch):
        _assert_same(batched, moreau_jean(rod, 0.6, 1e-2, selection))
    assert batch[3].statistics.ambiguous_steps >= 1  # the selection rule was asked, through the one-system step
    assert batch[3].statistics.fallback_steps >= batch[3].statistics.ambiguous_steps
    assert batch[1].statistics.fallback_steps == 0  # a plain sliding rod never leaves the batched path


def test_two_point_rods_landing_flat_with_ties():
    rods = [TwoPointRod(phi0=0.3, height=0.05, vx0=v, mu=mu) for v, mu in ((2.0, 0.5), (0.5, 0.3), (0.0, 0.8))]
    rods.append(TwoPointRod(phi0=0.0, height=0.02, vx0=0.0, mu=0.5))  # lands flat: indeterminate friction
    batch = moreau_jean_batch(rods, 0.5, 1e-2)
    for rod, batched in zip(rods, batch):
        _assert_same(batched, moreau_jean(rod, 0.5, 1e-2))
    assert batch[3].statistics.fallback_steps > 0  # the statically indeterminate steps go the one-system way


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="dt = 0"):
        moreau_jean_batch([PainleveRod()], 1.0, 0.0)
    with pytest.raises(ValueError, match="selection = 'first'"):
        moreau_jean_batch([PainleveRod()], 1.0, 1e-2, "first")
    with pytest.raises(ValueError, match="one class"):
        moreau_jean_batch([PainleveRod(), TwoPointRod()], 1.0, 1e-2)
