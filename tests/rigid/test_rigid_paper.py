"""The numbers of Preclik & Rüde (2011), Secs. 2–4 and Appendix A, to the digits the paper prints.

Setup of Sec. 2.1: m = 1, l = 2, I = m l²/12, g = 1, μ = 3/2, φ = π/3, v_x = −1, ω = 0 (in contact, ġ_n = 0).
Sec. 2.2 adds the torque τ = 2 f_y I / (m l cos φ) − 1.
"""

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from regcontact import PainleveRod
from regcontact.rigid import (
    ContactState,
    critical_angle,
    critical_friction,
    force_acceleration,
    impulse_velocity,
    painleve_coefficient,
    time_stepping,
    time_stepping_convergence,
    torque_threshold,
)

PHI = np.pi / 3


def paper_digits(solutions, digits=4):
    """Reactions rounded as the paper prints them, with their modes, sorted by λ_n."""
    rows = sorted((tuple(np.round(s.reaction, digits)), s.mode) for s in solutions)
    return [(tuple(float(x) for x in reaction), mode) for reaction, mode in rows]


@pytest.fixture
def no_solution_rod():  # Sec. 2.1
    return ContactState.from_system(PainleveRod(mass=1.0, length=2.0, gravity=1.0, mu=1.5, phi0=PHI, vx0=-1.0))


@pytest.fixture
def two_solution_rod():  # Sec. 2.2
    torque = torque_threshold(PHI, mass=1.0, length=2.0, gravity=1.0) - 1.0
    rod = PainleveRod(mass=1.0, length=2.0, gravity=1.0, mu=1.5, phi0=PHI, vx0=-1.0, torque=torque)
    return ContactState.from_system(rod)


def test_torque_of_section_2_2():
    # 2 f_y I / (m l cos φ) − 1 = 2 (−1)(1/3) / (2 · 1/2) − 1 = −5/3
    assert torque_threshold(PHI) - 1.0 == pytest.approx(-5 / 3, rel=1e-15)


def test_section_2_1_force_acceleration_has_no_solution(no_solution_rod):
    assert painleve_coefficient(PHI, 1.5) < 0  # A < 0 ...
    assert -no_solution_rod.free_acceleration[0, 0] > 0  # ... and b = g > 0 (Eq. 10)
    solutions = force_acceleration(no_solution_rod)
    assert len(solutions) == 0 and solutions.isolated


def test_section_2_2_force_acceleration_has_two_solutions(two_solution_rod):
    assert paper_digits(force_acceleration(two_solution_rod)) == [
        ((0.0, 0.0), "F"),
        ((7.5545, 11.3317), "S-"),
    ]


@pytest.mark.parametrize("rod", ["no_solution_rod", "two_solution_rod"])
def test_sections_3_1_and_3_2_impulse_velocity(rod, request):
    # The torque does not enter the impulse-velocity problem: both setups share its two solutions.
    assert paper_digits(impulse_velocity(request.getfixturevalue(rod))) == [
        ((0.0, 0.0), "F"),
        ((0.3248, 0.4375), "T"),
    ]


def test_impulsive_solution_has_the_least_kinetic_energy(no_solution_rod):
    # Fig. 3: the sticking impulse is the minimum of the kinetic energy after the impulse.
    solutions = impulse_velocity(no_solution_rod)
    energy = {s.mode: no_solution_rod.kinetic_energy(s.velocity) for s in solutions}
    assert energy["T"] < energy["F"] == no_solution_rod.kinetic_energy()


def test_section_4_1_time_stepping_has_one_solution(no_solution_rod):
    assert paper_digits(time_stepping(no_solution_rod, 0.01)) == [((0.3329, 0.4407), "T")]


def test_section_4_2_time_stepping_has_three_solutions(two_solution_rod):
    solutions = time_stepping(two_solution_rod, 0.01)
    assert paper_digits(solutions) == [
        ((0.0, 0.0), "F"),
        ((0.0755, 0.1133), "S-"),
        ((0.3266, 0.4516), "T"),
    ]
    # "solutions 1 and 2 match the solutions computed by the force-acceleration LCP": δt λ̃₂ = δt λ₂.
    sliding_force = force_acceleration(two_solution_rod).with_modes("S-").reaction
    np.testing.assert_allclose(solutions.with_modes("S-").reaction, 0.01 * sliding_force, rtol=1e-13)


@pytest.mark.parametrize(
    ("rod", "modes", "reference"),
    [
        ("no_solution_rod", ("T",), None),  # Sec. 4.1: δt λ̃ → Λ₂
        ("two_solution_rod", ("T",), None),  # Sec. 4.2: δt λ̃₃ → Λ₂
        ("two_solution_rod", ("S-",), (0.0, 0.0)),  # Sec. 4.2: δt λ̃₂ → (0, 0)
    ],
)
def test_time_stepping_converges_with_order_one(rod, modes, reference, request):
    convergence = time_stepping_convergence(request.getfixturevalue(rod), modes=modes, reference=reference)
    assert np.all(np.diff(convergence.distance) < 0)
    assert convergence.order == pytest.approx(1.0, abs=0.02)


def test_appendix_a_critical_friction_and_angle_of_the_slender_rod():
    mu = critical_friction()  # root of A(φ*(μ), μ) = 0, by bracketing
    assert mu == pytest.approx(4 / 3, rel=1e-13)
    assert round(float(np.degrees(critical_angle(mu))), 3) == 63.435
    assert painleve_coefficient(critical_angle(mu), mu) == pytest.approx(0.0, abs=1e-14)


@pytest.mark.parametrize(("mass", "length"), [(1.0, 2.0), (0.3, 0.5), (7.0, 11.0)])
def test_slender_rod_critical_friction_is_independent_of_mass_and_length(mass, length):
    assert critical_friction(mass, length) == pytest.approx(4 / 3, rel=1e-13)


@pytest.mark.parametrize(("mass", "length", "inertia"), [(1.0, 2.0, 0.1), (1.0, 2.0, 2.0), (3.0, 0.5, 0.05)])
def test_critical_friction_of_other_rods_matches_the_closed_form(mass, length, inertia):
    # With c = l²/(4I): A = 1/m + (c/2)(1 + cos 2φ − μ sin 2φ), whose minimum over φ,
    # 1/m + (c/2)(1 − √(1 + μ²)), vanishes at μ = √((1 + 2/(m c))² − 1).
    c = length**2 / (4 * inertia)
    expected = np.sqrt((1 + 2 / (mass * c)) ** 2 - 1)
    assert critical_friction(mass, length, inertia) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("mu", [0.5, 4 / 3, 1.5, 3.0])
@pytest.mark.parametrize("inertia", [None, 0.2, 1.0])
def test_critical_angle_minimises_A_whatever_the_rod(mu, inertia):
    numeric = minimize_scalar(
        lambda phi: float(painleve_coefficient(phi, mu, 1.0, 2.0, inertia)),
        bounds=(0, np.pi / 2),
        method="bounded",
        options={"xatol": 1e-12},
    )
    assert critical_angle(mu) == pytest.approx(numeric.x, abs=1e-6)


@pytest.mark.parametrize("mu", [0.8, 1.5, 2.5])
@pytest.mark.parametrize("phi", np.linspace(0.1, 1.45, 7))
@pytest.mark.parametrize("torque_offset", [-1.0, 0.5])
def test_number_of_force_solutions_follows_the_signs_of_A_and_b(mu, phi, torque_offset):
    # Eq. 11: A > 0 → one solution; A < 0, b > 0 → none; A < 0, b < 0 → two (b < 0 ⇔ τ below the threshold).
    torque = torque_threshold(phi) + torque_offset
    state = ContactState.from_system(PainleveRod(mu=mu, phi0=phi, vx0=-1.0, torque=torque))
    A, b = painleve_coefficient(phi, mu), -state.free_acceleration[0, 0]
    assert np.sign(b) == np.sign(torque_offset)  # b < 0 exactly below the threshold (Eq. 12)
    expected = 1 if A > 0 else (0 if b > 0 else 2)
    assert len(force_acceleration(state)) == expected


def test_time_stepping_at_fewer_than_three_distinct_steps_has_no_order(no_solution_rod):
    """δt = 1e-2 twice and 1e-3: two distinct steps fix any line, so its slope is no evidence of an order."""
    convergence = time_stepping_convergence(no_solution_rod, dts=[1e-2, 1e-2, 1e-3])
    assert convergence.order is None and convergence.distance.shape == (3,)
