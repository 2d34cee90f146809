"""The reference impulse for k contacts (``regcontact.rigid.rigid_references``): Painlevé's rule read for several
contacts, against hand-computed impulses, and the one-contact rod as k = 1."""

import numpy as np
import pytest

from regcontact.rigid import (
    ContactState,
    RigidReferences,
    force_acceleration,
    impulse_velocity,
    rigid_references,
    select_impulse,
    time_stepping,
)
from regcontact.systems.rod import PainleveRod
from regcontact.systems.two_point_rod import TwoPointRod

SEC_2_2 = PainleveRod(torque=2 * (-1.0) * (1 / 3) / (1.0 * 2.0 * np.cos(np.pi / 3)) - 1)


def test_the_rod_dropped_flat_gets_equal_impulses_per_end():
    """Flat (φ = 0), both ends on the ground, v = (V_x, −V, 0) with V_x > μ V: the impact stops the fall and
    both ends slide on. By symmetry Λ_n = m V / 2 per end; sliding in +x, Λ_t = −μ Λ_n; v_x⁺ = V_x − μ V > 0
    confirms the slip. No force-acceleration problem (a closed contact approaches): an impulse is needed."""
    m, V, Vx, mu = 1.5, 2.0, 3.0, 0.5
    rod = TwoPointRod(mass=m, gravity=10.0, mu=mu, vy0=-V, vx0=Vx)
    references = rigid_references(rod, time_steps=[0.01])
    assert isinstance(references, RigidReferences)
    end = [m * V / 2, -mu * m * V / 2]  # (1.5, −0.75)
    np.testing.assert_allclose(references.impulse, [end, end], rtol=1e-14)
    assert references.impulse_modes == ("S+", "S+")
    assert references.impulse_rule.startswith("an impact")
    assert "force_acceleration" in references.not_applicable
    # δt·λ̃ adds half the weight's impulse per end: Λ + δt (m g / 2)(1, −μ)
    step, rule = references.time_stepping_impulse(0.01)
    np.testing.assert_allclose(step, np.array([end, end]) + 0.01 * m * 10.0 / 2 * np.array([1, -mu]), rtol=1e-12)
    assert rule == "the time step's one solution"
    columns = references.columns(np.array([[0.8, -0.3], [0.75, -0.4]]))
    assert columns == pytest.approx(
        {
            "impulse_velocity_n_1": 1.5,
            "impulse_velocity_t_1": -0.75,
            "impulse_velocity_n_2": 1.5,
            "impulse_velocity_t_2": -0.75,
            "distance_to_impulse_velocity": 0.75,  # |0.75 − 1.5| at end 2's normal
        },
        rel=1e-14,
    )


def test_a_statically_indeterminate_impact_chooses_none():
    """Dropped flat with V_x < μ V: both ends stick, Λ_n = m V / 2 each, but only Λ_t1 + Λ_t2 = −m V_x is fixed
    (a continuum, Λ_t,i ∈ [−μ m V/2, −m V_x + μ m V/2]): none is chosen, and the rule says which parts are fixed."""
    rod = TwoPointRod(gravity=10.0, mu=0.5, vy0=-1.0, vx0=0.2)
    references = rigid_references(rod)
    assert references.impulse is None and references.impulse_modes is None
    assert "continuum" in references.impulse_rule and "none chosen" in references.impulse_rule
    assert "Λ_n,1 = 0.5, Λ_n,2 = 0.5 fixed" in references.impulse_rule
    assert "Λ_t,1 in [-0.25, 0.05]" in references.impulse_rule
    assert references.columns(np.zeros((2, 2))) == {}
    assert references.as_json()["impulse_velocity"] is None


def _stool(v):
    """A body with two legs at (∓1, −2) below its centre (m = 1, I = 1/4, μ = 1 at both feet), both feet on
    the ground: ġ_n,i = v_y ∓ ω, ġ_t,i = v_x + 2 ω."""
    W = np.array([[[0.0, 1.0, x], [1.0, 0.0, 2.0]] for x in (-1.0, 1.0)])
    return ContactState(
        mass_matrix=np.diag([1.0, 1.0, 0.25]),
        jacobians=W,
        jacobian_rates=np.zeros((2, 2)),
        applied_force=np.array([0.0, -1.0, 0.0]),
        velocity=np.asarray(v, dtype=float),
        mu=np.ones(2),
        gaps=np.zeros(2),
        length_scale=1.0,
    )


def test_several_impulsive_solutions_choose_none():
    """The stool landing on its left foot while rotating (v = (1, −0.2, 1): ġ_n = (−1.2, 0.8), ġ_t = 3 at both):
    the frictional impact has three solutions, each checked by hand below; none is chosen."""
    state = _stool([1.0, -0.2, 1.0])
    references = rigid_references(state, time_steps=[0.01])
    solutions = references.impulse_velocity
    assert sorted(solutions.modes) == [("F", "S+"), ("F", "T"), ("S+", "S+")]
    for solution in solutions:  # the law by hand: ġ⁺ = ġ + W M⁻¹ Wᵀ Λ
        after = state.contact_velocity + (state.jacobian_matrix @ (solution.velocity - state.velocity)).reshape(2, 2)
        for (normal, tangential), (rate_n, rate_t), mode in zip(solution.reactions, after, solution.modes):
            assert rate_n >= -1e-12 and normal >= 0 and abs(normal * rate_n) < 1e-12
            assert {"F": normal == 0, "T": abs(rate_t) < 1e-12, "S+": rate_t > 0 and tangential == -normal}[mode]
    assert references.impulse is None
    assert references.impulse_rule == (
        "an impact (a closed contact approaching) and 3 impulsive solutions (F T, F S+, S+ S+): none chosen"
    )
    step, rule = references.time_stepping_impulse(0.01)
    assert step is None and rule.startswith("the time step has 3 solutions")


def test_painleves_principle_for_k_contacts():
    """The flat rod sliding on both ends: the force problem has a solution, so Λ = 0 (both free)."""
    references = rigid_references(TwoPointRod(gravity=10.0, mu=0.3, vx0=1.0))
    np.testing.assert_array_equal(references.impulse, np.zeros((2, 2)))
    assert references.impulse_modes == ("F", "F")
    assert references.impulse_rule.startswith("force-acceleration problem solvable")


def test_the_rods_references_are_the_formulations_at_k_1():
    """Table 1's references: the formulations' solutions and the rule's choice."""
    rod = PainleveRod()
    state = ContactState.from_system(rod)
    references = rigid_references(rod, impulse_velocity=True, time_steps=[0.01])
    impulses, forces = impulse_velocity(state), force_acceleration(state)
    chosen, rule = select_impulse(impulses, forces)
    assert references.as_json() == {
        "impulse_velocity": chosen.tolist(),
        "impulse_velocity_rule": rule,
        "force_acceleration_solutions": forces.as_json(),
        "impulse_velocity_solutions": impulses.as_json(),
        "time_stepping": {"0.01": time_stepping(state, 0.01).as_json()},
    }
    assert references.impulse_modes == ("T",)
    assert rule == "force-acceleration problem unsolvable: the one impulsive solution (T)"
    sec_2_2 = rigid_references(SEC_2_2, time_steps=[0.01])
    # three time-stepping solutions; the reference is the one with Λ = 0's mode, F
    assert len(time_stepping(ContactState.from_system(SEC_2_2), 0.01)) == 3
    step, rule = sec_2_2.time_stepping_impulse(0.01)
    assert sec_2_2.impulse_modes == ("F",) and rule.endswith("the one with the impulse's mode(s)")
    np.testing.assert_allclose(step, 0.0, atol=1e-15)


def test_a_two_contact_painleve_paradox_gets_the_one_impulse():
    """The stool sliding to the right on both feet (v = (1, 0, 0)) with tall legs and μ = 1: no contact forces
    exist (Painlevé's paradox for two contacts), so an impulse is needed; the one non-zero solution has the front
    foot stick and the rear one lift: with G₂₂ = W₂ M⁻¹ W₂ᵀ = [[5, 8], [8, 17]], Λ₂ = −G₂₂⁻¹ (0, 1) = (8, −5)/21,
    and then ġ_n,1⁺ = 16/21 > 0, |Λ_t,2| = 5/21 ≤ μ Λ_n,2."""
    references = rigid_references(_stool([1.0, 0.0, 0.0]))
    assert len(references.force_acceleration) == 0 and not references.force_acceleration.continua
    np.testing.assert_allclose(references.impulse, [[0.0, 0.0], [8 / 21, -5 / 21]], rtol=1e-14, atol=1e-16)
    assert references.impulse_modes == ("F", "T")
    assert references.impulse_rule == "force-acceleration problem unsolvable: the one impulsive solution (F T)"
    velocity = references.impulse_velocity.with_modes("F", "T").velocity
    assert velocity[1] - velocity[2] == pytest.approx(16 / 21, rel=1e-14)  # ġ_n,1⁺ = v_y⁺ − ω⁺
