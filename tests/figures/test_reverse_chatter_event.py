"""Fig. 11(c, d): the reverse-chatter rod, its bounce map, and the compliant model's bounces against the map."""

import math

import numpy as np
import pytest

from regcontact.figures._reverse_chatter_event import (
    MU,
    RESTITUTION,
    ZETA,
    compliant_bounces,
    contact_form,
    contact_model,
    energetic_model,
    kept_directions,
    reverse_chatter_rod,
)
from regcontact.rigid import (
    bounce_directions,
    compliant_limit_map,
    darboux_keller_map,
    kelvin_voigt_restitution,
    limit_law,
)
from regcontact.rigid._impacts.darboux_keller import contact_space_energy

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def rod():
    return reverse_chatter_rod()


@pytest.fixture(scope="module")
def growing(rod):
    """The direction the bounce map keeps with e > 1 (one only)."""
    (direction,) = [d for d in kept_directions(rod, contact_model(rod), samples=21) if d.restitution > 1.0]
    return direction


def test_the_rod_rests_in_stick_with_its_body_forces(rod):
    """a/(−b) = −2, no moment of the loads about the contact point, the sticking reaction inside the cone, and
    outside the Painlevé region."""
    a, b, A, B, C = contact_form(rod)
    assert a / -b == pytest.approx(-2.0, rel=1e-12)
    h, theta = 0.5 * float(rod.length), float(rod.phi0)
    moment = float(rod.torque) - h * (math.cos(theta) * float(rod.gravity) + math.sin(theta) * float(rod.force_x))
    assert moment == pytest.approx(0.0, abs=1e-12)
    assert abs(float(rod.force_x)) < MU * float(rod.gravity)  # λ_T = −f_x, λ_N = m g
    assert C - MU * abs(B) > 0


def test_the_limit_law_bounce_map_grows_with_a_dissipative_contact(rod, growing):
    """The bounce map of the Kelvin–Voigt limit law keeps ρ* = 2a/(−b) with e > 1, e = 1.5334, where the law
    restitutes 0.70 without friction and every impact loses contact-space energy."""
    model = contact_model(rod)
    a, b, A, B, C = contact_form(rod)
    assert growing.ratio == pytest.approx(2 * a / -b, rel=1e-9) and growing.slope == pytest.approx(0.0, abs=1e-6)
    assert growing.restitution == pytest.approx(1.53335, abs=1e-5)
    assert kelvin_voigt_restitution(ZETA) == pytest.approx(0.70, abs=1e-3)
    impact = compliant_limit_map(A, B, C, MU, growing.ratio, -1.0, limit_law(model))
    assert impact.u == pytest.approx(0.0, abs=1e-12)  # the impact ends in stick
    assert contact_space_energy(A, B, C, impact.u, impact.v) < contact_space_energy(A, B, C, growing.ratio, -1.0)


def test_compliant_bounces_grow_as_the_bounce_map_says(rod, growing):
    """The first three effective restitutions of compliant runs from a bounce of speed 0.01 agree with the map's
    e within 0.4 |b| α^(−1/2)/v⁺ + 10 (v⁺)² (the finite forces during an impact of duration ∝ α^(−1/2); Eq. 28's
    flight is leading order in v⁺); measured: 0.014 at α = 1e6, 0.0021 at α = 1e8."""
    model = contact_model(rod)
    _, b, *_ = contact_form(rod)
    errors = {}
    for alpha in (1e6, 1e8):
        run = compliant_bounces(rod, model, alpha, 1e-2, 0.45, 9001)
        assert run.status == "successful" and run.growth(0.1) >= 4
        speeds, e = run.speeds[:3], run.restitutions[:3]
        assert np.all(e > 1.5)
        error = np.abs(e - growing.restitution)
        assert np.all(error < 0.4 * -b * alpha**-0.5 / speeds + 10 * speeds**2)
        errors[alpha] = error[0]
    assert errors[1e8] < errors[1e6] / 4


def test_the_bilinear_springs_bounce_map_is_the_energetic_darboux_keller_one(rod):
    """With Stronge's bilinear spring (r = 0.7) the limit law's bounce map is the paper's: Darboux–Keller with
    energetic r = 0.7 keeps the same direction ρ* = 2a/(−b) with e = 1.35149 (the two maps to 1e-9)."""
    a, b, A, B, C = contact_form(rod)
    (direction,) = [d for d in kept_directions(rod, energetic_model(), samples=21) if d.restitution > 1.0]

    def energetic(u, v):
        outcome = darboux_keller_map(A, B, C, MU, u, v, RESTITUTION, "energetic")
        return outcome.u, outcome.v

    (reference,) = [d for d in bounce_directions(a, b, energetic, span=8.0, samples=21) if d.restitution > 1.0]
    assert direction.ratio == pytest.approx(2 * a / -b, rel=1e-9)
    assert direction.restitution == pytest.approx(reference.restitution, rel=1e-9)
    assert direction.restitution == pytest.approx(1.35149, abs=1e-5)


def test_bilinear_spring_bounces_grow_as_the_energetic_bounce_map_says():
    """Compliant runs with the bilinear spring (restarted at each turn to unloading, so every bounce records its
    own peak) grow by the energetic map's e: the first three e_n within 0.1 |b| α^(−1/2)/v⁺ + 6 (v⁺)² of it, the
    first one's difference falling by more than three from α = 1e6 to 1e8 (measured 3.6e-3, 8.0e-4)."""
    rod = reverse_chatter_rod()
    _, b, *_ = contact_form(rod)
    (direction,) = [d for d in kept_directions(rod, energetic_model(), samples=21) if d.restitution > 1.0]
    e_map = direction.restitution
    errors = {}
    for alpha in (1e6, 1e8):
        run = compliant_bounces(rod, energetic_model(), alpha, 1e-2, 0.45, 9001)
        assert run.status == "successful" and run.growth(0.1) >= 4
        speeds, restitutions = run.speeds[:3], run.restitutions[:3]
        error = np.abs(restitutions - e_map)
        assert np.all(error < 0.1 * -b * alpha**-0.5 / speeds + 6 * speeds**2), (alpha, error)
        errors[alpha] = error[0]
    assert errors[1e8] < errors[1e6] / 3
