"""Classifying what a compliant run did, on the three behaviours of Preclik & Rüde's rod."""

import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
import pytest

from regcontact.compliant import Case, Controls, SolveSettings, sweep
from regcontact.compliant.outcome import END_MODES, classify
from regcontact.compliant.termination import contact_time
from regcontact.contact import ContactModel
from regcontact.rigid import torque_threshold
from regcontact.systems.rod import PainleveRod

pytestmark = pytest.mark.slow

SETTINGS = SolveSettings(events=("contact_open",))


def test_the_rods_three_behaviours():
    """Sec. 2.1 (μ = 3/2): impact without collision, then stick. μ = 1 < μ_crit: no impulse, it slides on.
    Sec. 2.2 (torque just below the threshold): the rod lifts off at once."""
    tau = float(torque_threshold(np.pi / 3, 1.0, 2.0, None, 1.0)) - 1.0
    rods = [PainleveRod(), PainleveRod(mu=1.0), PainleveRod(torque=tau)]
    alphas = (1e4, 1e6)
    cases = [
        Case(
            system=rod, contact=ContactModel(), alpha=jnp.asarray(a), controls=Controls(t_max=2 * contact_time(rod, a))
        )
        for rod in rods
        for a in alphas
    ]
    batch = jtu.tree_map(lambda *leaves: jnp.stack(leaves), *cases)
    runs, _ = sweep(batch, SETTINGS)
    assert np.all(np.asarray(runs.ok))
    impulsive, mode = classify(batch, runs, SETTINGS)
    assert np.asarray(impulsive).tolist() == [True, True, False, False, False, False]
    assert [END_MODES[m] for m in np.asarray(mode)] == ["sticks"] * 2 + ["slips"] * 2 + ["lifts_off"] * 2
