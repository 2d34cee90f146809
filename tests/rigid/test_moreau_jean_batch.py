"""``moreau_jean_batch`` against ``moreau_jean`` run one system at a time, the oracle.

The batch applies the one-system step's operations lane by lane in the same order, so the runs must agree bit for
bit: same modes, and ``q``, ``v``, impulses identical (tested with ``array_equal``, i.e. a relative bound of 0).
"""

import numpy as np
import pytest

from regcontact.rigid import moreau_jean, moreau_jean_batch, torque_threshold
from regcontact.systems import PainleveRod, TwoPointRod

RULES = ["painleve", "lemke", "least_energy"]


def rods():
    """Sec. 2.1 rods (the default one, inside the Painlevé region: the first step is an impact without collision;
    one that slides, one that sticks later) and Sec. 2.2 rods (torque below the threshold: several solutions at
    t = 0, and later)."""
    return [
        PainleveRod(),
        PainleveRod(mu=0.9, phi0=0.6),
        PainleveRod(mu=1.0, phi0=1.2, torque=torque_threshold(1.2) - 1.0),
        PainleveRod(torque=torque_threshold(np.pi / 3) - 1.0),
        PainleveRod(mu=2.0, phi0=0.8, torque=torque_threshold(0.8) - 0.5),
    ]


def two_point_rods():
    """Landing flat (both ends at once, then statically indeterminate sticking: tied solutions), landing flat
    while sliding, landing on one end then the other."""
    return [
        TwoPointRod(mu=0.5, height=0.05),
        TwoPointRod(mu=0.5, height=0.05, vx0=0.2),
        TwoPointRod(mu=0.5, phi0=0.2, height=0.02, vx0=0.3),
    ]


def assert_equal_runs(systems, t_end, dt, selection):
    batch = moreau_jean_batch(systems, t_end, dt, selection)
    assert len(batch) == len(systems)
    for system, batched in zip(systems, batch):
        alone = moreau_jean(system, t_end, dt, selection)
        assert batched.integrator == alone.integrator
        assert batched.modes == alone.modes
        np.testing.assert_array_equal(batched.times, alone.times)
        np.testing.assert_array_equal(batched.q, alone.q)
        np.testing.assert_array_equal(batched.v, alone.v)
        np.testing.assert_array_equal(batched.impulses, alone.impulses)
        assert batched.statistics.steps == alone.statistics.steps
        assert batched.statistics.ambiguous_steps == alone.statistics.ambiguous_steps
        serial = batched.statistics.serial_steps
        assert serial == (alone.statistics.ambiguous_steps if selection == "lemke" else 0)
    return batch


@pytest.mark.slow
@pytest.mark.parametrize("selection", RULES)
def test_batch_equals_one_by_one_on_painleve_rods(selection):
    batch = assert_equal_runs(rods(), 1.5, 5e-3, selection)
    assert batch[0].modes[0] == ("T",)  # Sec. 2.1: the impact without collision, a sticking impulse
    # Sec. 2.2: three solutions at t = 0, chosen by the rule
    assert batch[3].statistics.ambiguous_steps >= 1
    assert batch[3].modes[0] == (("T",) if selection == "least_energy" else ("F",))


@pytest.mark.slow
@pytest.mark.parametrize("selection", RULES)
def test_batch_equals_one_by_one_on_two_point_rods(selection):
    batch = assert_equal_runs(two_point_rods(), 0.6, 5e-3, selection)
    flat = batch[0]
    assert [m for _, m in flat.mode_sequence()] == [("F", "F"), ("T", "T")]
    assert flat.statistics.ambiguous_steps > 10  # sticking flat: tied squeezes, decided as one by one


def test_a_batch_of_one_and_unequal_step_counts_of_the_last_step():
    (alone,) = moreau_jean_batch([PainleveRod()], 0.0123, 1e-3)
    reference = moreau_jean(PainleveRod(), 0.0123, 1e-3)
    np.testing.assert_array_equal(alone.q, reference.q)
    assert alone.times[-1] == 0.0123


@pytest.mark.parametrize(
    ("call", "key"),
    [
        (lambda: moreau_jean_batch([PainleveRod()], 1.0, 0.0), "dt"),
        (lambda: moreau_jean_batch([PainleveRod()], -1.0, 0.01), "t_end"),
        (lambda: moreau_jean_batch([PainleveRod()], 1.0, 0.01, selection="nearest"), "selection"),
        (lambda: moreau_jean_batch([], 1.0, 0.01), "systems"),
        (lambda: moreau_jean_batch([PainleveRod(), TwoPointRod()], 1.0, 0.01), "systems[1]"),
    ],
)
def test_bad_input_names_the_key(call, key):
    with pytest.raises(ValueError, match=key.replace("[", r"\[")):
        call()
