"""The three rigid integrators on closed forms: a block sliding to rest, a rod falling flat, the Painlevé rod.

Units: m = 1, g = 1, l = 2 throughout (the systems' defaults), so the closed forms read plainly.
"""

import numpy as np
import pytest

from regcontact.contact import ContactModel
from regcontact.rigid import (
    CompliantLimitImpact,
    ContactState,
    DarbouxKellerImpact,
    NewtonImpact,
    darboux_keller,
    event_driven,
    gholami_time_stepping,
    law_solutions_by_mode,
    moreau_jean,
    moreau_jean_step,
    time_stepping,
    torque_threshold,
)
from regcontact.rigid._formulations.contact_law import law_solutions
from regcontact.rigid.lcp import lemke, multi_contact_friction_lcp
from regcontact.systems import PainleveRod, TwoPointRod

MU, V0, G = 0.5, 2.0, 1.0
STOP_TIME, STOP_DISTANCE = V0 / (MU * G), V0**2 / (2 * MU * G)
DT, THRESHOLD = 1e-3, 1e-2
PHI = np.pi / 3


def sliding_block(**kwargs):
    """The two-point rod lying flat, sliding at ``V0``: a block on a plane."""
    return TwoPointRod(mu=MU, gravity=G, vx0=V0, **kwargs)


def first_time(trajectory, modes):
    return next(t for t, m in zip(trajectory.times, trajectory.modes) if m == modes)


# -- a block sliding to rest --------------------------------------------------------------------------------------


def test_event_driven_block_stops_at_v0_over_mu_g():
    trajectory = event_driven(sliding_block(), 5.0)
    (stop,) = trajectory.events
    assert stop.kind == "stick_test"
    assert stop.time == pytest.approx(STOP_TIME, rel=1e-10)
    assert trajectory.q[-1, 0] - trajectory.q[0, 0] == pytest.approx(STOP_DISTANCE, rel=1e-10)
    assert [m for _, m in trajectory.mode_sequence()] == [("S+", "S+"), ("T", "T")]
    assert np.abs(trajectory.v[-1]).max() < 1e-14


@pytest.mark.slow
def test_moreau_jean_block_stops_within_a_step():
    trajectory = moreau_jean(sliding_block(), 5.0, DT)
    assert [m for _, m in trajectory.mode_sequence()] == [("S+", "S+"), ("T", "T")]
    assert abs(first_time(trajectory, ("T", "T")) - STOP_TIME) <= DT
    # semi-implicit Euler: x advances by δt v_{n+1}, so the distance falls short by at most one step's travel
    assert abs(trajectory.q[-1, 0] - trajectory.q[0, 0] - STOP_DISTANCE) <= V0 * DT
    assert np.abs(trajectory.v[-1]).max() < 1e-14
    # the normal impulses carry the weight, half per end
    np.testing.assert_allclose(trajectory.impulses[:, :, 0], 0.5 * G * DT, rtol=1e-12)


@pytest.mark.slow
def test_gholami_block_slides_kinetically_then_creeps_to_rest():
    trajectory = gholami_time_stepping(sliding_block(), 5.0, DT, THRESHOLD)
    assert [m for _, m in trajectory.mode_sequence()] == [("S+", "S+"), ("T", "T")]
    # kinetic Coulomb friction until the slip falls below the threshold, then the regularised static phase
    assert abs(first_time(trajectory, ("T", "T")) - (V0 - THRESHOLD) / (MU * G)) <= 2 * DT
    creep = THRESHOLD**2 / (MU * G)  # distance the static phase lets it creep, at most
    assert abs(trajectory.q[-1, 0] - trajectory.q[0, 0] - STOP_DISTANCE) <= V0 * DT + creep
    assert np.abs(trajectory.v[-1]).max() < 1e-10


# -- a rod falling flat ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("restitution", [0.0, 0.5, 1.0])
def test_event_driven_flat_rod_impact_impulses(restitution):
    height = 0.5
    trajectory = event_driven(TwoPointRod(mu=MU, height=height), 1.2, impact_law=NewtonImpact(restitution))
    impact = trajectory.events[0]
    assert impact.kind == "impact"
    assert impact.time == pytest.approx(np.sqrt(2 * height / G), rel=1e-12)
    speed = np.sqrt(2 * G * height)
    np.testing.assert_allclose(impact.impulse[:, 0], (1 + restitution) * speed / 2, rtol=1e-10)
    np.testing.assert_allclose(impact.impulse[:, 1], 0.0, atol=1e-12)
    after = trajectory.v[np.flatnonzero(trajectory.times == impact.time)[-1]]  # the sample after the impulse
    assert after[1] == pytest.approx(restitution * speed, rel=1e-9)


@pytest.mark.parametrize(
    "integrate", [lambda s: moreau_jean(s, 1.2, DT), lambda s: gholami_time_stepping(s, 1.2, DT, THRESHOLD)]
)
def test_time_stepping_flat_rod_stops_with_equal_impulses(integrate):
    height = 0.5
    trajectory = integrate(TwoPointRod(mu=MU, height=height))
    first = int(np.argmax(trajectory.impulses[:, 0, 0] > 0))
    window = trajectory.impulses[first : first + 3]
    np.testing.assert_allclose(window[:, 0, 0], window[:, 1, 0], rtol=1e-12)  # equal per end
    np.testing.assert_allclose(window[:, :, 1].sum(axis=1), 0.0, atol=1e-15)  # no net friction
    # inelastic: the impulse takes up m V (and the weight during the window), half per end
    speed = np.sqrt(2 * G * height)
    assert abs(window[:, 0, 0].sum() - speed / 2) <= 3 * G * DT
    assert abs(trajectory.times[first] - np.sqrt(2 * height / G)) <= 2 * DT
    assert np.abs(trajectory.v[first + 3]).max() < 1e-12


# -- energy ------------------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "integrate",
    [
        lambda s: moreau_jean(s, 2.4, DT),
        lambda s: gholami_time_stepping(s, 2.4, DT, THRESHOLD),
        lambda s: event_driven(s, 2.4, impact_law=NewtonImpact(0.5)),
    ],
    ids=["moreau_jean", "gholami", "event_driven"],
)
@pytest.mark.parametrize("system", [PainleveRod(), TwoPointRod(mu=MU, height=0.5, vx0=0.5)])
def test_energy_never_grows(integrate, system):
    trajectory = integrate(system)
    energy = trajectory.energy(system)
    assert np.diff(energy).max() <= 1e-10 * energy.max()
    assert energy[-1] < energy[0]


# -- the Painlevé rod of Preclik Sec. 2.1 ------------------------------------------------------------------------


def test_moreau_jean_first_step_is_the_time_stepping_lcp_and_preclik_sec_4_1():
    rod = PainleveRod()
    (solution,) = time_stepping(ContactState.from_system(rod), 0.01)
    trajectory = moreau_jean(rod, 0.01, 0.01)
    np.testing.assert_allclose(trajectory.impulses[0], solution.reactions, rtol=1e-14, atol=1e-16)
    np.testing.assert_allclose(trajectory.v[1], solution.velocity, rtol=1e-14)
    assert trajectory.modes[0] == solution.modes == ("T",)
    np.testing.assert_allclose(trajectory.impulses[0, 0], [0.3329, 0.4407], atol=5e-5)  # Preclik Sec. 4.1


@pytest.mark.parametrize("selection", ["painleve", "lemke", "least_energy"])
def test_selection_rules_on_the_three_solutions_of_preclik_sec_4_2(selection):
    rod = PainleveRod(torque=torque_threshold(PHI) - 1.0)
    state = ContactState.from_system(rod)
    solutions = time_stepping(state, 0.01)
    assert len(solutions) == 3
    if selection == "painleve":
        expected = min(solutions, key=lambda s: s.reactions[:, 0].sum())
    elif selection == "least_energy":
        expected = min(solutions, key=lambda s: state.kinetic_energy(s.velocity))
    else:
        problem = multi_contact_friction_lcp(state.delassus, _free(state, 0.01), state.mu)
        scaled, reaction_scale, _ = problem.nondimensional()
        target = reaction_scale * scaled.reaction(lemke(scaled.M, scaled.q).z)
        expected = min(solutions, key=lambda s: np.abs(s.reactions - target).max())
    trajectory = moreau_jean(rod, 0.01, 0.01, selection=selection)
    np.testing.assert_allclose(trajectory.impulses[0], expected.reactions, rtol=1e-13, atol=1e-16)
    assert trajectory.modes[0] == expected.modes
    assert trajectory.statistics.ambiguous_steps == 1
    reactions, velocity, modes, count = moreau_jean_step(state, 0.01, selection)
    assert count == 3 and modes == expected.modes
    np.testing.assert_allclose(velocity, expected.velocity, rtol=1e-13, atol=1e-16)


def _free(state, dt):
    """``b`` of the time-stepping LCP."""
    free_velocity = state.velocity + dt * np.linalg.solve(state.mass_matrix, state.applied_force)
    b = (state.jacobian_matrix @ free_velocity).reshape(-1, 2)
    b[:, 0] += state.gaps / dt
    return b


def test_painleve_sec_4_2_rules_differ():
    state = ContactState.from_system(PainleveRod(torque=torque_threshold(PHI) - 1.0))
    assert moreau_jean_step(state, 0.01, "painleve")[2] == ("F",)  # the zero impulse is admissible
    assert moreau_jean_step(state, 0.01, "least_energy")[2] == ("T",)  # the sticking impulse


def test_event_driven_impact_without_collision_is_preclik_sec_3_1():
    trajectory = event_driven(PainleveRod(), 0.5)
    iwc = trajectory.events[0]
    assert iwc.kind == "impact_without_collision" and iwc.time == 0.0
    np.testing.assert_allclose(iwc.impulse[0], [0.3248, 0.4375], atol=5e-5)
    assert trajectory.modes[0] == ("T",)


def test_event_driven_resolves_an_impact_without_collision_with_its_impact_law():
    """The impact law decides the impact without collision too: Darboux–Keller with Poisson's r = 0.5 restitutes
    the compression it causes (the rod leaves the ground, where the LCP's e = 0 sticks), with the impulses of
    ``darboux_keller`` at the same state; the compliant limit of Eq. 22 gives the LCP's impulse (Λ = P to 1e-9)."""
    rod = PainleveRod()
    state = ContactState.from_system(rod)
    poisson = event_driven(rod, 0.05, impact_law=DarbouxKellerImpact(0.5))
    iwc = poisson.events[0]
    outcome, velocity = darboux_keller(state, 0.5, "poisson")
    assert iwc.kind == "impact_without_collision" and iwc.time == 0.0
    np.testing.assert_allclose(iwc.impulse[0], [outcome.normal_impulse, outcome.tangential_impulse], rtol=1e-12)
    assert poisson.modes[0] == ("F",) and state.jacobian_matrix[0] @ velocity > 0
    limit = event_driven(rod, 0.05, impact_law=CompliantLimitImpact(ContactModel())).events[0]
    lcp = event_driven(rod, 0.05).events[0]
    assert limit.kind == "impact_without_collision"
    np.testing.assert_allclose(limit.impulse, lcp.impulse, atol=1e-9)


@pytest.mark.slow
def test_all_integrators_agree_on_the_rod_of_sec_2_1():
    """Impact without collision at t = 0, sticking, then slip; the time steppers' slip onset within a few steps."""
    rod = PainleveRod()
    reference = event_driven(rod, 3.0)
    (onset,) = [e.time for e in reference.events if e.kind == "slip_onset"]
    for trajectory in (moreau_jean(rod, 3.0, DT), gholami_time_stepping(rod, 3.0, DT, THRESHOLD)):
        assert [m for _, m in trajectory.mode_sequence()] == [("T",), ("S-",)]
        assert abs(first_time(trajectory, ("S-",)) - onset) <= 0.06


def test_event_driven_indeterminacy_rule_on_preclik_sec_2_2():
    """Two force solutions, (0, 0) (lift-off) and sliding: "painleve" lifts off, "least_energy" slides on."""
    rod = PainleveRod(torque=torque_threshold(PHI) - 1.0)
    lift = event_driven(rod, 0.02, selection="painleve")
    slide = event_driven(rod, 0.02, selection="least_energy")
    assert lift.modes[0] == ("F",) and slide.modes[0] == ("S-",)
    assert lift.statistics.ambiguous_steps == slide.statistics.ambiguous_steps == 1


# -- event location and convergence ------------------------------------------------------------------------------


@pytest.mark.parametrize("rtol", [1e-6, 1e-8, 1e-10])
def test_event_times_are_found_to_the_set_tolerance(rtol):
    reference = event_driven(PainleveRod(), 3.0, rtol=1e-13, atol=1e-15)
    trajectory = event_driven(PainleveRod(), 3.0, rtol=rtol, atol=rtol * 1e-2)
    assert [e.kind for e in trajectory.events] == [e.kind for e in reference.events]
    for event, exact in zip(trajectory.events, reference.events):
        assert abs(event.time - exact.time) <= 10 * rtol * max(exact.time, 1.0)


def test_moreau_jean_converges_at_order_one_on_a_smooth_case():
    """The sticking pendulum motion of the Sec. 2.1 rod after the impact without collision, at t = 1."""
    rod = PainleveRod()
    reference = event_driven(rod, 1.0, rtol=1e-12, atol=1e-14)
    errors = [np.abs(moreau_jean(rod, 1.0, dt).q[-1] - reference.q[-1]).max() for dt in (4e-3, 2e-3, 1e-3)]
    orders = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    np.testing.assert_allclose(orders, 1.0, atol=0.1)


# -- Gholami's regularisation tends to Coulomb friction ---------------------------------------------------------


@pytest.mark.slow
def test_gholami_static_phase_tends_to_sticking_as_the_threshold_vanishes():
    """A block under a tangential load below the cone, at rest: Coulomb sticks; the regularised static phase creeps
    at a speed proportional to the threshold."""
    block = TwoPointRod(mu=MU, force_x=0.6 * MU * G)
    creep = [
        gholami_time_stepping(block, 1.0, DT, threshold).q[-1, 0] - block.initial_state()[0][0]
        for threshold in (1e-2, 1e-3, 1e-4)
    ]
    assert 0 < creep[2] < creep[1] < creep[0] <= 1e-2
    np.testing.assert_allclose(np.array(creep[:-1]) / np.array(creep[1:]), 10.0, rtol=0.05)
    coulomb = moreau_jean(block, 1.0, DT)
    assert abs(coulomb.q[-1, 0] - block.initial_state()[0][0]) < 1e-14


@pytest.mark.slow
def test_gholami_tends_to_moreau_jean_as_the_threshold_vanishes():
    block = sliding_block()
    coulomb = moreau_jean(block, 5.0, DT).q[-1, 0]
    gaps = [abs(gholami_time_stepping(block, 5.0, DT, threshold).q[-1, 0] - coulomb) for threshold in (0.1, 0.03, 0.01)]
    assert gaps[2] < gaps[1] < gaps[0]
    assert gaps[2] <= 2 * 0.01**2 / (MU * G) + V0 * DT


# -- the mode enumeration is the LCP enumeration -----------------------------------------------------------------


@pytest.mark.slow
def test_mode_enumeration_finds_the_lcp_enumerations_solutions():
    rng = np.random.default_rng(12)
    for _ in range(200):
        k = int(rng.integers(1, 3))
        W = rng.normal(size=(2 * k, 3))
        G_, b, mu = W @ W.T, rng.normal(size=2 * k), rng.uniform(0.0, 2.0, size=k)
        fast = law_solutions_by_mode(G_, b, mu)
        slow = law_solutions(G_, b, mu, list(range(k)), [0] * k, 1e-9)[0]
        key = lambda found: sorted((tuple(np.round(r.ravel(), 8)), m) for r, m in found)  # noqa: E731
        assert key(fast) == key(slow)


# -- bad input ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: moreau_jean(PainleveRod(), 1.0, 0.0), "dt"),
        (lambda: moreau_jean(PainleveRod(), 1.0, -1e-3), "dt"),
        (lambda: moreau_jean(PainleveRod(), 1.0, 1e-3, selection="random"), "selection"),
        (lambda: gholami_time_stepping(PainleveRod(), 1.0, 0.0, 1e-2), "dt"),
        (lambda: gholami_time_stepping(PainleveRod(), 1.0, 1e-3, 0.0), "threshold"),
        (lambda: gholami_time_stepping(PainleveRod(), 1.0, 1e-3, -1.0), "threshold"),
        (lambda: gholami_time_stepping(PainleveRod(), 1.0, 1e-3, 1e-2, selection="x"), "selection"),
        (lambda: event_driven(PainleveRod(), 1.0, selection="lemke"), "selection"),
        (lambda: event_driven(PainleveRod(), 1.0, rtol=0.0), "rtol"),
        (lambda: NewtonImpact(1.5), "restitution"),
    ],
)
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name} = "):
        call()
