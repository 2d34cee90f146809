"""Stronge's bilinear spring in the rigid limit: for one contact with Coulomb friction during the impact, the
compliant limit is Darboux–Keller's map with the energetic coefficient r (two independent methods: an integration
in time with the spring's peak as an event, and the map's straight lines in the impulse)."""

import numpy as np
import pytest

from regcontact.contact import BilinearSpring, ContactModel, ViscousCoulomb
from regcontact.rigid import (
    compliant_limit,
    compliant_limit_map,
    darboux_keller,
    darboux_keller_map,
    impact_process,
    limit_law,
)
from regcontact.systems import TwoPointRod


def _model(stiffness, restitution):
    """k ∝ α and γ_t ∝ α^1.5: the bilinear spring on its own scale, Coulomb friction during the impact."""
    return ContactModel(
        BilinearSpring(stiffness, restitution), ViscousCoulomb(1.0), friction_exponents=ViscousCoulomb(1.5)
    )


def _cases():
    """Random forms, one of each kind of Darboux–Keller impact (slip through, slip to stick, reversal), a stick
    from the start, and the ends r = 1 (elastic) and a small r."""
    rng = np.random.default_rng(3)
    kinds = {}
    while len(kinds) < 3:
        A, C = rng.uniform(0.3, 3.0, 2)
        B = rng.uniform(-0.95, 0.95) * np.sqrt(A * C)
        mu, u, v, r = rng.uniform(0.0, 1.5), rng.uniform(-1.0, 1.0), -rng.uniform(0.2, 1.0), rng.uniform(0.05, 1.0)
        modes = darboux_keller_map(A, B, C, mu, u, v, r, "energetic").modes
        kind = "reversal" if {"S+", "S-"} <= set(modes) else "stick" if "T" in modes else "slip"
        kinds.setdefault(kind, (A, B, C, mu, u, v, r, rng.uniform(0.5, 3.0)))
    stick_from_the_start = (1.0, 0.2, 2.0, 0.5, 0.0, -1.0, 0.5, 1.0)
    elastic = (2.0, -0.3, 1.0, 0.8, 0.4, -0.7, 1.0, 2.0)
    nearly_plastic = (1.5, 0.6, 0.9, 0.3, -0.2, -1.0, 0.1, 0.7)
    return [*kinds.values(), stick_from_the_start, elastic, nearly_plastic]


@pytest.mark.slow
@pytest.mark.parametrize("case", _cases())
def test_one_contact_limit_is_the_energetic_darboux_keller_map(case):
    """The limit impact of the bilinear spring equals the energetic map to 1e-10 (measured: 1.5e-11 at worst over 40
    random forms, the integration's rtol 1e-12), the stiffness dropping out."""
    A, B, C, mu, u, v, r, k = case
    law = limit_law(_model(k, r))
    assert law.friction == "coulomb" and law.has_spring
    expected = darboux_keller_map(A, B, C, mu, u, v, r, "energetic")
    assert expected.status == "ended"
    found = compliant_limit_map(A, B, C, mu, u, v, law)
    assert found.ended == "opened"
    np.testing.assert_allclose(
        [found.u, found.v, found.normal_impulse, found.tangential_impulse],
        [expected.u, expected.v, expected.normal_impulse, expected.tangential_impulse],
        rtol=1e-10,
        atol=1e-10,
    )


def test_frictionless_restitution_is_r():
    """Frictionless: v⁺ = −r v⁻ (the spring returns r² of the energy), whatever the stiffness."""
    for r in (0.2, 0.7):
        found = compliant_limit_map(1.0, 0.0, 1.3, 0.0, 0.0, -2.0, limit_law(_model(5.0, r)))
        assert found.v == pytest.approx(2.0 * r, rel=1e-10)


def test_independent_contacts_each_follow_their_own_map():
    """Two contacts with a block-diagonal Delassus matrix: each contact's peak is its own, and each impact is its
    single-contact energetic map (the peaks' events of one contact do not disturb the other)."""
    forms = [(1.0, 0.2, 2.0, 0.5, 0.3, -1.0), (0.7, -0.4, 1.5, 0.2, -0.5, -0.4)]
    G = np.zeros((4, 4))
    for i, (A, B, C, *_) in enumerate(forms):
        G[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[C, B], [B, A]]
    law = limit_law(_model(1.0, 0.6))
    process = impact_process(
        G,
        [form[3] for form in forms],
        [[form[5], form[4]] for form in forms],
        law.force(),
        "coulomb",
        rates=law.rates(np.diag(G)[0::2], 1.0),
        peak_force=law.peak_force(),
    )
    for i, (A, B, C, mu, u, v) in enumerate(forms):
        expected = darboux_keller_map(A, B, C, mu, u, v, 0.6, "energetic")
        np.testing.assert_allclose(
            [process.velocity[i, 0], process.velocity[i, 1], *process.impulses[i]],
            [expected.v, expected.u, expected.normal_impulse, expected.tangential_impulse],
            rtol=1e-10,
            atol=1e-10,
        )


def _chain_by_small_steps(masses, velocity, stiffness, restitution, step, duration):
    """An independent integration of a frictionless chain of balls with bilinear springs between neighbours:
    velocity Verlet in the balls' positions, each contact's peak a running maximum updated after every step (no
    events). Returns the contacts' normal velocities and impulses at the end."""
    n = len(masses)
    W = np.zeros((n - 1, n))
    for i in range(n - 1):
        W[i, i : i + 2] = -1.0, 1.0
    x, v, peaks, impulses = np.zeros(n), np.array(velocity, dtype=float), np.zeros(n - 1), np.zeros(n - 1)

    def forces(x):
        depth = -(W @ x)
        deepest = np.maximum(peaks, depth)
        unloaded = np.maximum(deepest - (deepest - depth) / restitution**2, 0.0)
        return np.where(depth > 0, stiffness * unloaded, 0.0)

    lam = forces(x)
    for _ in range(int(duration / step)):
        half = v + 0.5 * step * (W.T @ lam) / masses
        x = x + step * half
        new = forces(x)
        v = half + 0.5 * step * (W.T @ new) / masses
        impulses += 0.5 * step * (lam + new)
        lam = new
        depth = -(W @ x)
        peaks = np.where(depth > 0, np.maximum(peaks, depth), 0.0)
    return W @ v, impulses


@pytest.mark.slow
def test_a_chain_of_three_balls_agrees_with_an_independent_integration():
    """A ball hits two at rest (the second contact starts closed without approaching: it is pressed in, turns and
    unloads with its own peak): the process's velocities and impulses agree with small-step integration to its
    own error (measured 8.7e-8 at step 5e-4, 1.1e-8 at 2.5e-4)."""
    masses, velocity, r = np.array([1.0, 0.7, 1.3]), [1.0, 0.0, 0.0], 0.6
    W = np.array([[-1.0, 1.0, 0.0], [0.0, -1.0, 1.0]])
    G = np.zeros((4, 4))
    G[0::2, 0::2] = W @ np.diag(1 / masses) @ W.T
    G[1::2, 1::2] = np.eye(2)
    law = limit_law(ContactModel(BilinearSpring(1.0, r), ViscousCoulomb(0.0)))
    assert law.friction == "none"
    w = W @ velocity
    process = impact_process(
        G,
        [0.0, 0.0],
        [[w[0], 0.0], [w[1], 0.0]],
        law.force(),
        law.friction,
        rates=law.rates(np.diag(G)[0::2], 1.0),
        peak_force=law.peak_force(),
    )
    assert process.ended == "opened"
    speeds, impulses = _chain_by_small_steps(masses, velocity, 1.0, r, 5e-4, 12.0)
    np.testing.assert_allclose(process.velocity[:, 0], speeds, atol=2e-7)
    np.testing.assert_allclose(process.impulses[:, 0], impulses, atol=2e-7)
    # momentum is kept; energy is lost (each contact returns r² of what it stored)
    after = np.linalg.lstsq(np.vstack([W, masses]), np.append(process.velocity[:, 0], masses @ velocity), rcond=None)[0]
    assert 0.5 * masses @ after**2 < 0.5 * masses @ np.square(velocity)


@pytest.mark.slow
def test_a_rod_landing_on_one_end_is_the_energetic_impact():
    """Through a system's state: the two-point rod landing on one end (the other up), compliant_limit with the
    bilinear spring gives Darboux–Keller's energetic velocities after the impact."""
    rod = TwoPointRod(mu=0.3, phi0=0.4, height=0.0, vx0=0.6, vy0=-1.0, omega0=0.2)
    outcome, after = compliant_limit(rod, _model(1.0, 0.7))
    expected, expected_after = darboux_keller(rod, 0.7, "energetic")
    assert outcome.ended == "opened" and expected.status == "ended"
    np.testing.assert_allclose(after, expected_after, rtol=1e-10, atol=1e-10)


def test_a_restitution_whose_unloading_line_is_not_a_float64_is_refused_in_one_line():
    """``r = 1e-200``: ``r²`` underflowed to zero, the force was ``0/0`` and the limit ran to its horizon and ended
    in a ``RuntimeError`` traceback; ``k/r²`` past float64 is refused with the stiffness it overflows with."""
    with pytest.raises(ValueError, match=r"^restitution = 1e-200: expected at least 1.49e-154 with stiffness 1 "):
        BilinearSpring(1.0, 1e-200)
    with pytest.raises(ValueError, match=r"^restitution = 1e-160: expected at least 1.49e-154"):
        BilinearSpring(1.0, [0.5, 1e-160])
    with pytest.raises(ValueError, match=r"^restitution = 1e-05: expected at least 7.46e-05 with stiffness 1e\+300"):
        BilinearSpring(1e300, 1e-5)
    assert float(BilinearSpring(1.0, 1e-150).restitution) == 1e-150  # a compliant solve may still use it


def test_the_limit_refuses_a_restitution_its_process_does_not_resolve():
    """Below ``LIMIT_MIN_RESTITUTION`` (1e-4) the restitution phase is lost in round-off: r = 1e-5 answered 1.8e-5
    off, 3e-6 0.6 % off, 1e-6 ended in a ``RuntimeError`` traceback after minutes; now one line, before any work."""
    with pytest.raises(ValueError, match=r"^restitution = 1e-05: expected a number in \[0.0001, 1\] in the rigid"):
        limit_law(_model(1.0, 1e-5))
    with pytest.raises(ValueError, match=r"^restitution = 1e-06: expected a number in \[0.0001, 1\]"):
        limit_law(_model(1.0, [0.5, 1e-6]))
    found = compliant_limit_map(1.0, 0.0, 1.3, 0.0, 0.0, -2.0, limit_law(_model(1.0, 1e-4)))
    assert found.v == pytest.approx(2e-4, rel=1e-7)  # measured 4.9e-9 off
