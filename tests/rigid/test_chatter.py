"""Chatter of one contact (``regcontact.rigid._impacts.chatter``): the bounce map's kept directions and their effective
restitution, against the closed forms of Champneys & Várkonyi Sec. 3.3."""

import numpy as np
import pytest

from regcontact.rigid import bounce_directions, chatter_directions, darboux_keller_map, reverse_chatter_possible
from regcontact.rigid._impacts.chatter import bounce, direction_bracket
from regcontact.rigid._impacts.darboux_keller import contact_space_energy


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


def test_reverse_chatter_is_found_where_the_kept_direction_lies_far_out():
    """μ = 1.95, r = 0.7, a/(−b) = 29 (B = 0.5, A = C = 1): the impact from ρ* = 2a/(−b) = 58 slips until the
    compression ends exactly (slip stops at ``I = ρ/(μA − B) = 40 = 1/p⁺``) and restitutes in stick, so the map
    keeps ρ* with the energetic ``e = r √(2 (C − B²/A) |W_c|)``, ``W_c = −1/(2p⁺)``: 3.83. The search used to
    stop at |ρ| = 50."""
    A, B, C, mu, r, ratio = 1.0, 0.5, 1.0, 1.95, 0.7, 29.0
    p_plus = C - mu * B
    expected = r * np.sqrt(2.0 * (C - B * B / A) / (2.0 * p_plus))
    assert expected == pytest.approx(3.834, abs=1e-3)
    (kept,) = [d for d in chatter_directions(ratio, -1.0, A, B, C, mu, r) if d.restitution > 1]
    assert kept.ratio == pytest.approx(2 * ratio, rel=1e-9)
    assert kept.restitution == pytest.approx(expected, rel=1e-9)
    assert reverse_chatter_possible(ratio, -1.0, A, B, C, mu, r)


@pytest.mark.parametrize("ratio", [1e3, 1e6])
def test_a_kept_direction_at_any_distance_is_found(ratio):
    """Past the Painlevé value (μ = 2.5: p⁺ < 0) every impact with ρ > 0 ends in stick, so ρ* = 2a/(−b) is kept
    however large; it is found at a/(−b) = 1e3 and 1e6, with its e from the closed form of the stick phase."""
    A, B, C, mu, r = 1.0, 0.5, 1.0, 2.5, 0.7
    rho = 2.0 * ratio
    found = [d for d in chatter_directions(ratio, -1.0, A, B, C, mu, r) if d.ratio > 0]
    assert [d.ratio for d in found] == [pytest.approx(rho, rel=1e-9)]
    outcome = darboux_keller_map(A, B, C, mu, rho, -1.0, r, "energetic")
    assert found[0].restitution == pytest.approx(outcome.v, rel=1e-9)
    assert found[0].slope == pytest.approx(0.0, abs=1e-9)  # R = 2a/(−b) whatever comes in: flat


@pytest.mark.slow
def test_no_kept_direction_lies_outside_the_bracket():
    """:func:`direction_bracket` against the map itself: for random forms, laws, ``μ`` (near the Painlevé value
    ``C/|B|`` too), ``r`` and ``a/(−b)`` over eight decades, ``R(ρ) − ρ`` keeps one sign beyond the bracket's ends
    out to ``10⁶`` times them."""
    rng = np.random.default_rng(29)
    for _ in range(120):
        A, C = rng.uniform(0.2, 2.0, 2)
        B = rng.uniform(-0.98, 0.98) * np.sqrt(A * C)
        mu = float(rng.choice([rng.uniform(0.0, 3.0), abs(C / B) * rng.uniform(0.9, 1.1)]))
        r = float(rng.choice([rng.uniform(0.0, 1.0), 1.0]))
        law = str(rng.choice(["poisson", "energetic", "newton"]))
        a = float(rng.normal() * 10 ** rng.uniform(-2.0, 6.0))
        low, high = direction_bracket(a, -1.0, A, B, C, mu, r)
        assert low < 0 < high

        def residual(rho):
            outcome = darboux_keller_map(A, B, C, mu, rho, -1.0, r, law)
            return outcome.u / outcome.v + 2 * a - rho if outcome.v > 0 else np.nan

        for side, end in ((1.0, high), (-1.0, low)):
            values = np.array([residual(x) for x in side * np.geomspace(abs(end), 1e6 * abs(end) + 1e9, 200)])
            values = values[np.isfinite(values)]
            assert np.all(values > 0) or np.all(values < 0)


@pytest.mark.slow
def test_the_directions_found_within_the_old_span_are_still_found():
    """The search over the bracket keeps every direction the scan of ``[−50, 50]`` finds, and adds those beyond."""
    rng = np.random.default_rng(11)
    for _ in range(25):
        A, C = rng.uniform(0.3, 2.0, 2)
        B = rng.uniform(-0.9, 0.9) * np.sqrt(A * C)
        mu, r, ratio = rng.uniform(0.0, 3.0), rng.uniform(0.1, 0.95), rng.uniform(-20.0, 20.0)

        def impact(u, v):
            outcome = darboux_keller_map(A, B, C, mu, u, v, r, "energetic")
            return outcome.u, outcome.v

        old = bounce_directions(ratio, -1.0, impact, span=50.0)
        new = chatter_directions(ratio, -1.0, A, B, C, mu, r)
        for direction in old:
            assert any(d.ratio == pytest.approx(direction.ratio, rel=1e-7, abs=1e-9) for d in new)


@pytest.mark.parametrize("law", ["poisson", "energetic"])
def test_e_equals_r_on_one_straight_phase_and_follows_the_slopes_across_a_reversal(law):
    """The module docstring's statement. On one straight line of the ``(I, v)`` plane ``e = r``. With a slip
    reversal in compression (``S−`` stops, ``S+`` follows: ``|B| > μA``) restitution runs on ``p⁺`` alone, and
    from ``v⁻ = −1``: Poisson's ``v⁺ = r p⁺ I_c`` (``e = r p̄_r/p̄_c``), the energetic ``v⁺ = r √(2 p⁺ |W_c|)``,
    both below ``r`` here (the reversal lands on the shallower line ``p⁺ < p⁻``), where the old docstring had
    Poisson give ``e = r`` without a slip–stick transition."""
    A, B, C, mu, r = 1.0, 0.5, 1.0, 0.3, 0.7
    straight = darboux_keller_map(A, B, C, mu, 2.0, -1.0, r, law)  # S+ accelerates: one line
    assert set(straight.modes) == {"S+"} and straight.v == pytest.approx(r, rel=1e-12)
    reversal = darboux_keller_map(A, B, C, mu, -0.2, -1.0, r, law)
    assert reversal.modes == ("S-", "S+", "S+")
    assert [phase.stage for phase in reversal.phases] == ["compression", "compression", "restitution"]
    p_plus = C - mu * B
    compression = [phase for phase in reversal.phases if phase.stage == "compression"]
    if law == "poisson":
        expected = r * p_plus * reversal.compression_impulse
    else:
        work = sum(0.5 * (ph.start[1] + ph.end[1]) * (ph.end_impulse - ph.start_impulse) for ph in compression)
        expected = r * np.sqrt(2.0 * p_plus * abs(work))
    assert reversal.v == pytest.approx(expected, rel=1e-12)
    assert reversal.v < 0.95 * r
