"""Physics of the three rigid formulations for rods away from the paper's data points."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from regcontact import PainleveRod
from regcontact.rigid import (
    ContactState,
    force_acceleration,
    impulse_velocity,
    time_stepping,
    time_stepping_convergence,
)

# Values are zero or at least 1e-8 in size: the zero tests (ġ_n = 0, ġ_t = 0) are relative to the size of
# the velocities, and near the underflow threshold (products below 2⁻¹⁰²²) floats lose relative precision.
numbers = lambda low, high: st.floats(low, high).filter(lambda x: x == 0 or abs(x) >= 1e-8)  # noqa: E731
rods = st.builds(
    PainleveRod,
    mass=numbers(0.5, 3.0),
    length=numbers(0.5, 3.0),
    mu=numbers(0.0, 3.0),
    phi0=numbers(0.1, 1.45),
    vx0=numbers(-2.0, 2.0),
    omega0=numbers(-2.0, 2.0),
    torque=numbers(-2.0, 2.0),
)


def obeys_contact_law(solution, mu, tol=1e-9):
    """Signorini–Coulomb on the solution's contact quantity u (its contact_rate)."""
    lam, u = solution.reaction, solution.contact_rate
    scale = max(np.abs(lam).max(), np.abs(u).max(), 1.0)
    normal = lam[0] >= -tol * scale and u[0] >= -tol * scale and abs(lam[0] * u[0]) <= tol * scale**2
    in_cone = abs(lam[1]) <= mu * lam[0] + tol * scale
    slides_back = u[1] < -tol * scale and abs(lam[1] - mu * lam[0]) > tol * scale
    slides_forward = u[1] > tol * scale and abs(lam[1] + mu * lam[0]) > tol * scale
    return normal and in_cone and not slides_back and not slides_forward


def test_state_from_rod_reproduces_equation_4():
    rod = PainleveRod(mass=2.0, length=3.0, inertia=0.7, mu=0.4, phi0=0.6, vx0=-0.5, omega0=1.3, torque=0.2)
    state = ContactState.from_system(rod)
    m, half, I, phi, omega = 2.0, 1.5, 0.7, 0.6, 1.3
    s, c = np.sin(phi), np.cos(phi)
    coupling = -(half**2) / I * s * c
    W = np.array([[1 / m + half**2 / I * c**2, coupling], [coupling, 1 / m + half**2 / I * s**2]])
    free = np.array([-1.0 + half * s * omega**2 - half * c * 0.2 / I, half * c * omega**2 + half * s * 0.2 / I])
    np.testing.assert_allclose(state.delassus, W, rtol=1e-14)
    np.testing.assert_allclose(state.free_acceleration[0], free, rtol=1e-14)
    np.testing.assert_allclose(state.contact_velocity[0], [0.0, -0.5 + half * s * omega], atol=1e-15)
    assert state.gaps[0] == pytest.approx(0.0, abs=1e-15)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(rods)
def test_impulse_velocity_always_has_a_solution_and_never_adds_energy(rod):
    # ΔE = Λᵀ ġ⁺ − ½ ΛᵀWΛ with Λ_n ġ_n⁺ = 0 and Λ_t ġ_t⁺ ≤ 0 (friction opposes slip): ΔE ≤ 0.
    state = ContactState.from_system(rod)
    solutions = impulse_velocity(state)
    assert len(solutions) >= 1
    for solution in solutions:
        assert obeys_contact_law(solution, state.mu[0])
        np.testing.assert_allclose(state.jacobian_matrix @ solution.velocity, solution.contact_rate, atol=1e-12)
        assert state.kinetic_energy(solution.velocity) <= state.kinetic_energy() * (1 + 1e-12) + 1e-14


@settings(max_examples=40, deadline=None)
@given(rods, numbers(1e-4, 1e-1))
def test_time_stepping_solutions_obey_the_contact_law(rod, dt):
    state = ContactState.from_system(rod)
    solutions = time_stepping(state, dt)
    assert len(solutions) >= 1  # copositive LCP with no initial gap: solvable (Stewart)
    for solution in solutions:
        assert obeys_contact_law(solution, state.mu[0])
        expected = state.velocity + dt * np.linalg.solve(state.mass_matrix, state.applied_force)
        expected += np.linalg.solve(state.mass_matrix, state.jacobian_matrix.T @ solution.reaction)
        np.testing.assert_allclose(solution.velocity, expected, rtol=1e-12, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(rods)
def test_force_acceleration_solutions_obey_the_contact_law(rod):
    state = ContactState.from_system(rod)
    velocity_scale = (np.abs(state.jacobian_matrix) @ np.abs(state.velocity)).max()
    slip = state.contact_velocity[0, 1]
    sliding = abs(slip) > 1e-9 * velocity_scale  # any slip, however slow, is sliding
    for solution in force_acceleration(state):
        lam, u = solution.reaction, solution.contact_rate
        # near the Painlevé boundary (A → 0) forces grow without bound: round-off is relative to their terms
        terms = np.abs(state.delassus).max() * np.abs(lam).max() + np.abs(state.free_acceleration).max()
        np.testing.assert_allclose(
            u, state.jacobian_matrix @ solution.acceleration + state.jacobian_rates[0], atol=1e-12 * terms
        )
        assert lam[0] >= 0 and u[0] >= -1e-9 * terms and abs(lam[0] * u[0]) <= 1e-9 * lam[0] * terms
        if sliding:  # friction opposes the current slip at the cone's edge (Eq. 8)
            assert lam[1] == pytest.approx(-np.sign(slip) * state.mu[0] * lam[0], abs=1e-12)
        else:
            assert obeys_contact_law(solution, state.mu[0])


def test_rod_at_rest_sticks():
    # At rest with μ = 3/2 the static problem (Eq. 9) keeps the foot in place: one solution, g̈ = 0.
    state = ContactState.from_system(PainleveRod(vx0=0.0))
    (solution,) = force_acceleration(state)
    assert solution.mode == "T"
    np.testing.assert_allclose(solution.contact_rate, [0.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(solution.reaction, np.linalg.solve(state.delassus, [1.0, 0.0]), rtol=1e-14)


def test_separated_or_separating_contact_carries_no_force():
    rod = PainleveRod(vx0=-1.0)
    q0, v0 = rod.initial_state()
    lifted = ContactState.from_system(rod, q=np.asarray(q0) + np.array([0.0, 0.1, 0.0]))
    separating = ContactState.from_system(rod, v=np.asarray(v0) + np.array([0.0, 0.5, 0.0]))
    for state in (lifted, separating):
        (solution,) = force_acceleration(state)
        assert solution.mode == "F" and np.all(solution.reaction == 0)
    (solution,) = impulse_velocity(lifted)
    assert solution.mode == "F" and np.all(solution.reaction == 0)


def test_colliding_contact_has_no_force_solution_but_an_impulse():
    rod = PainleveRod(vx0=-1.0)
    q0, v0 = rod.initial_state()
    colliding = ContactState.from_system(rod, v=np.asarray(v0) + np.array([0.0, -0.5, 0.0]))
    with pytest.raises(ValueError, match="impulse_velocity"):
        force_acceleration(colliding)
    solutions = impulse_velocity(colliding)
    assert all(s.reaction[0] > 0 and s.contact_rate[0] == pytest.approx(0.0, abs=1e-12) for s in solutions)


def test_time_step_far_above_the_ground_is_free_flight():
    rod = PainleveRod()
    q0, _ = rod.initial_state()
    state = ContactState.from_system(rod, q=np.asarray(q0) + np.array([0.0, 1.0, 0.0]))
    (solution,) = time_stepping(state, 0.01)
    assert solution.mode == "F" and np.all(solution.reaction == 0)


def test_json_form_lists_every_solution_with_its_mode():
    solutions = impulse_velocity(ContactState.from_system(PainleveRod()))
    document = solutions.as_json()
    assert {tuple(d["modes"]) for d in document} == {("F",), ("T",)}
    assert [d["reactions"] for d in document] == solutions.reactions.tolist()


def test_formulations_accept_a_rod_at_its_initial_state():
    rod = PainleveRod(torque=-5 / 3)  # Sec. 2.2: solutions in every formulation
    state = ContactState.from_system(rod)
    for solve in (force_acceleration, impulse_velocity, lambda s: time_stepping(s, 0.01)):
        from_rod, from_state = solve(rod), solve(state)
        assert from_rod.modes == from_state.modes and len(from_rod) > 0
        np.testing.assert_array_equal(from_rod.reactions, from_state.reactions)
    assert time_stepping_convergence(rod).order == time_stepping_convergence(state).order


@pytest.mark.parametrize("solve", [force_acceleration, impulse_velocity, lambda s: time_stepping(s, 0.01)])
def test_formulations_say_what_they_need(solve):
    with pytest.raises(TypeError, match="expected a ContactState or a system"):
        solve({"mass": 1.0})
