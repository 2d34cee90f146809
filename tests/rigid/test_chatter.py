"""Chatter of one contact (``regcontact.rigid.chatter``): the bounce map's kept directions and their effective
restitution, against the closed forms of Champneys & Várkonyi Sec. 3.3."""

import numpy as np
import pytest

from regcontact.rigid.chatter import bounce, chatter_directions, reverse_chatter_possible
from regcontact.rigid.darboux_keller import contact_space_energy, darboux_keller_map


@pytest.mark.parametrize("law", ["poisson", "energetic", "newton"])
def test_non_oblique_impacts_chatter_with_e_equal_r(law):
    """B = 0: the normal motion ignores friction, so every kept direction has e = r (Sec. 3.3)."""
    directions = chatter_directions(0.3, -1.0, 1.0, 0.0, 1.0, 0.5, 0.7, law)
    assert directions and all(d.restitution == pytest.approx(0.7, rel=1e-9) for d in directions)


def test_a_sticking_impact_sends_every_sequence_along_2a_over_minus_b():
    """After an impact that ends in stick (u⁺ = 0) the flight gives u⁻ = −(2a/b) v⁺ and v⁻ = −v⁺: the direction
    2a/(−b), whatever came in (the bounce map's slope is zero there)."""
    a, b = 1.0, -1.0
    (kept,) = [d for d in chatter_directions(a, b, 1.0, 0.5, 1.0, 2.5, 0.7) if d.slope == pytest.approx(0.0, abs=1e-6)]
    assert kept.ratio == pytest.approx(2 * a / -b, rel=1e-9)
    outcome = darboux_keller_map(1.0, 0.5, 1.0, 2.5, kept.ratio, -1.0, 0.7, "energetic")
    assert outcome.u == 0.0 and kept.restitution == pytest.approx(outcome.v, rel=1e-12)


def test_reverse_chatter_needs_no_energy_gain():
    """e > 1 with r = 0.7 (Nordmark et al.): the normal velocity grows from bounce to bounce, while the impact
    itself dissipates; the normal motion feeds on the slip."""
    directions = chatter_directions(2.0, -1.0, 1.0, 0.5, 1.0, 2.5, 0.7)
    growing = [d for d in directions if d.restitution > 1]
    assert growing
    u, v = growing[0].ratio, -1.0
    outcome = darboux_keller_map(1.0, 0.5, 1.0, 2.5, u, v, 0.7, "energetic")
    assert contact_space_energy(1.0, 0.5, 1.0, outcome.u, outcome.v) < contact_space_energy(1.0, 0.5, 1.0, u, v)
    assert -bounce(2.0, -1.0, 1.0, 0.5, 1.0, 2.5, u, v, 0.7, "energetic")[1] > 1.0  # v⁻ grows: e > 1


@pytest.mark.parametrize(("ratio", "r"), [(0.5, 0.7), (1.0, 0.7), (2.0, 0.5), (3.0, 1.0)])
def test_the_reverse_chatter_region_lies_at_larger_friction(ratio, r):
    """What the Fig. 11(a) bisection assumes: along a row of a/(−b), once possible, possible for larger μ."""
    possible = [reverse_chatter_possible(ratio, -1.0, 1.0, 0.5, 1.0, mu, r) for mu in np.linspace(0.2, 3.0, 15)]
    first = possible.index(True) if True in possible else len(possible)
    assert all(possible[first:]) and not any(possible[:first])


def test_chatter_needs_gravity_towards_the_contact():
    with pytest.raises(ValueError, match="b < 0"):
        bounce(0.0, 1.0, 1.0, 0.0, 1.0, 0.5, 0.0, -1.0, 0.5, "poisson")
