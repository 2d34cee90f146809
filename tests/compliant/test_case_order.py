"""The order a compliant study solves its cases in (similar cases share a chunk) and the lane utilisation it
reports."""

import jax.numpy as jnp
import numpy as np

from regcontact.compliant import Case, Controls, cost_order, lane_utilisation
from regcontact.contact import ContactModel
from regcontact.systems.rod import PainleveRod


def test_cost_order_sorts_by_alpha_and_keeps_ties_in_order():
    alphas = jnp.asarray([1e6, 1e3, 1e6, 1e9, 1e3])
    cases = Case(PainleveRod(), ContactModel(), alphas, Controls(t_max=1.0))
    np.testing.assert_array_equal(cost_order(cases), [1, 4, 0, 2, 3])


def test_lane_utilisation_counts_each_chunk_at_its_longest_case():
    # chunks [10, 20] and [30, 40]: 2 × 20 + 2 × 40 lane-steps executed, 100 useful
    assert lane_utilisation([10, 20, 30, 40], chunk=2) == 100 / 120
    # a padded last chunk runs its padding lanes too: [10, 20, 30] in chunks of 2 → 40 + 60 executed
    assert lane_utilisation([10, 20, 30], chunk=2) == 60 / 100
    assert lane_utilisation([7, 7, 7, 7], chunk=4) == 1.0
