"""Impacts without collision (v⁻ = 0 at a slipping contact with p < 0): one contact against the closed form of its
Darboux–Keller lines, the compliant limit against the map, two contacts (Sec. 6.3's IF, FI, II) against the
single-contact map and Table 4's closed-form conditions, and Hogan & Kristiansen's boundary against an integration."""

import jax.numpy as jnp
import numpy as np
import pytest
from scipy.integrate import solve_ivp

from regcontact.compliant import Controls, SolveSettings, solve
from regcontact.contact import BilinearSpring, ContactModel, SpringDamper, ViscousCoulomb
from regcontact.rigid import (
    ContactState,
    compliant_limit,
    compliant_limit_map,
    darboux_keller,
    darboux_keller_map,
    iwc_cases,
    iwc_liftoff_velocity,
    limit_law,
)
from regcontact.rigid._impacts.darboux_keller import contact_space_energy
from regcontact.rigid._impacts.without_collision import cases_of, realised_case
from regcontact.stability import impacts_without_collision
from regcontact.systems import ReducedSingleContact, ReducedTwoContact
from regcontact.systems.legged_body import TwoLeggedBody

COULOMB = ViscousCoulomb(1.5)  # γ_t ∝ α^1.5, faster than the impact: Coulomb's law during it


def _bilinear(r):
    return ContactModel(BilinearSpring(2.0, r), ViscousCoulomb(1.0), friction_exponents=COULOMB)


def _damper():
    """k, γ_n ∝ α: the damper alone on the impact scale, the plastic (Poisson r = 0) limit."""
    return ContactModel(SpringDamper(1.0, 2.0), ViscousCoulomb(1.0), friction_exponents=ViscousCoulomb(2.0))


def _iwc_forms(count, seed=5):
    """Random one-contact forms slipping forward at v = 0 with p⁺ = C − μB < 0 and a slip that stops."""
    rng = np.random.default_rng(seed)
    forms = []
    while len(forms) < count:
        A, C = rng.uniform(0.3, 3.0, 2)
        B = rng.uniform(0.2, 0.95) * np.sqrt(A * C)
        mu = rng.uniform(C / B, C / B + 2.0) * rng.uniform(1.0, 1.5)
        if C - mu * B < 0 and B - mu * A < 0:
            forms.append((A, B, C, mu, rng.uniform(0.2, 2.0)))
    return forms


def test_one_contact_closed_form():
    """Slip with dv/dI = p < 0 until the slip stops at I_s = u/(μA − B), then stick (|B| ≤ μA) with
    dv/dI = C − B²/A > 0 until v = 0: Poisson's compression impulse, and the map's first phase starts at once."""
    A, B, C, mu, u = 1.0, 0.9, 1.0, 1.5, 1.0
    p = C - mu * B
    slip_impulse = u / (mu * A - B)
    stick_impulse = -p * slip_impulse / (C - B * B / A)
    compression = slip_impulse + stick_impulse
    for r in (0.0, 0.5):
        outcome = darboux_keller_map(A, B, C, mu, u, 0.0, r, "poisson")
        first = outcome.phases[0]
        assert first.start == (u, 0.0) and first.start_impulse == 0.0 and first.stage == "compression"
        assert (first.end[1] - first.start[1]) / (first.end_impulse - first.start_impulse) == pytest.approx(p)
        assert outcome.compression_impulse == pytest.approx(compression, rel=1e-14)
        assert outcome.normal_impulse == pytest.approx((1 + r) * compression, rel=1e-14)
        assert outcome.u == 0.0 and outcome.v == pytest.approx(r * compression * (C - B * B / A), rel=1e-12)
    found = compliant_limit_map(A, B, C, mu, u, 0.0, limit_law(_damper()))
    assert found.ended == "rest"
    assert found.normal_impulse == pytest.approx(compression, rel=1e-8)  # the seed: 1e-10 of the slip speed
    assert found.tangential_impulse == pytest.approx(-mu * slip_impulse - B / A * stick_impulse, rel=1e-8)


@pytest.mark.slow
def test_the_compliant_model_converges_to_the_limit_through_an_iwc():
    """Preclik & Rüde's model (k_n = γ_n = γ_t = α) on a contact at rest slipping into Painlevé's inconsistent case
    (v = 0, p < 0, b < 0): the finite force b starts the impulse the limit law seeds, and the velocities after
    the impact layer (t = 300/α: the growth from b's small penetration takes a few ln α) approach the limit at
    order 1 in α (measured 4.7e-4, 4.7e-5, 4.7e-6 at α = 1e4, 1e5, 1e6)."""
    A, B, C, mu, u = 1.0, 0.9, 1.0, 1.5, 1.0
    model = ContactModel(SpringDamper(1.0, 1.0), ViscousCoulomb(1.0))
    limit = compliant_limit_map(A, B, C, mu, u, 0.0, limit_law(model))
    assert limit.ended == "rest" and limit.normal_impulse > 1.0
    system = ReducedSingleContact(a=0.0, b=-1.0, A=A, B=B, C=C, mu=mu, slip0=u, normal_velocity0=0.0)
    distances = []
    for alpha in (1e4, 1e5, 1e6):
        run = solve(system, model, jnp.asarray(alpha), Controls(t_max=300.0 / alpha), SolveSettings(events=()))
        assert bool(run.ok)
        u_end, v_end = np.asarray(run.state_end.v)
        distances.append(max(abs(u_end - limit.u), abs(v_end - limit.v)))
    orders = -np.diff(np.log10(distances))
    assert np.all((orders > 0.9) & (orders < 1.1)), distances


@pytest.mark.slow
@pytest.mark.parametrize("form", _iwc_forms(3))
@pytest.mark.parametrize("r", [0.3, 1.0])
def test_one_contact_compliant_limit_is_the_energetic_map(form, r):
    """The bilinear spring's limit from v⁻ = 0 is Darboux–Keller's energetic map from v⁻ = 0 (1e-8: the seed)."""
    A, B, C, mu, u = form
    expected = darboux_keller_map(A, B, C, mu, u, 0.0, r, "energetic")
    found = compliant_limit_map(A, B, C, mu, u, 0.0, limit_law(_bilinear(r)))
    assert expected.status == "ended" and found.ended == "opened" and expected.v > 0
    np.testing.assert_allclose(
        [found.u, found.v, found.normal_impulse, found.tangential_impulse],
        [expected.u, expected.v, expected.normal_impulse, expected.tangential_impulse],
        rtol=1e-8,
        atol=1e-8 * u,
    )


@pytest.mark.parametrize("law", ["poisson", "energetic"])
def test_one_contact_iwc_never_gains_energy_and_ends_in_the_cone(law):
    rng = np.random.default_rng(11)
    count = 0
    while count < 200:
        factor = rng.normal(size=(2, 2))
        (A, B), (_, C) = factor @ factor.T + 0.05 * np.eye(2)
        mu, r, u = rng.uniform(0, 3), rng.uniform(0, 1), rng.normal()
        outcome = darboux_keller_map(A, B, C, mu, u, 0.0, r, law)
        if outcome.status == "no_impact":
            assert C - np.sign(u) * mu * B >= 0
            continue
        count += 1
        assert C - np.sign(u) * mu * B < 0 and outcome.status == "ended"
        assert contact_space_energy(A, B, C, outcome.u, outcome.v) <= contact_space_energy(A, B, C, u, 0.0) * (
            1 + 1e-12
        )
        assert abs(outcome.tangential_impulse) <= mu * outcome.normal_impulse * (1 + 1e-12)
        assert outcome.normal_impulse > 0 and outcome.v >= 0


def test_refusals_are_one_line():
    law = limit_law(_damper())
    with pytest.raises(ValueError, match=r"presses itself in") as error:
        compliant_limit_map(1.0, 0.3, 1.5, 0.5, 1.0, 0.0, law)  # p = 1.35 > 0: nothing to start
    assert "\n" not in str(error.value)
    with pytest.raises(ValueError, match="separates"):
        compliant_limit_map(1.0, 0.3, 1.5, 0.5, 1.0, 0.2, law)
    resting = ContactState.from_system(ReducedTwoContact.from_painleve([[1.0, 0.2], [0.1, 1.0]], b=(-1.0, -1.0)))
    with pytest.raises(ValueError, match="no closed contact approaches"):
        darboux_keller(resting)
    with pytest.raises(ValueError, match="no closed contact approaches"):
        compliant_limit(resting, _damper())
    state = ContactState.from_system(ReducedTwoContact.from_painleve(FIG_15A, b=(-0.7, -0.7)))
    with pytest.raises(ValueError, match=r"IF, FI are possible: pass case="):
        darboux_keller(state)
    with pytest.raises(ValueError, match=r"case 'II' is not consistent"):
        compliant_limit(state, _damper(), case="II")
    with pytest.raises(ValueError, match=r"case = 'I': expected"):
        darboux_keller(state, case="I")


#: Fig. 15(A)'s Painlevé matrix (class 261): columns p₁ at 0.75π, p₂ at 1.875π; both IF and FI are consistent.
FIG_15A = [[-0.055, 0.088], [0.055, -0.036]]


@pytest.mark.slow
@pytest.mark.parametrize(("contact", "case"), [(0, "IF"), (1, "FI")])
@pytest.mark.parametrize("r", [0.0, 0.5])
def test_one_impacting_contact_of_two_is_its_single_contact_map(contact, case, r):
    """IF / FI: the other contact lifts off (p_ji > 0) and carries nothing, so the impacting one follows its own
    single-contact map: Darboux–Keller (r = 0, equal dampers) and the bilinear spring's limit (energetic r)."""
    state = ContactState.from_system(ReducedTwoContact.from_painleve(FIG_15A, b=(-0.7, -0.7)))
    assert iwc_cases(state).cases == ("IF", "FI")
    if r == 0.0:
        outcome, velocity = darboux_keller(state, case=case)
    else:
        outcome, velocity = compliant_limit(state, _bilinear(r), case=case)
    G, w = state.delassus, state.contact_velocity
    n, t = 2 * contact, 2 * contact + 1
    law = "poisson" if r == 0.0 else "energetic"
    expected = darboux_keller_map(G[t, t], G[t, n], G[n, n], 1.0, w[contact, 1], 0.0, r, law)
    np.testing.assert_allclose(outcome.impulses[contact], [expected.normal_impulse, expected.tangential_impulse], 1e-8)
    assert realised_case(outcome.impulses) == case
    other = 1 - contact
    lifted = G[2 * other, n] * expected.normal_impulse + G[2 * other, t] * expected.tangential_impulse
    assert outcome.velocity[other, 0] == pytest.approx(lifted, rel=1e-8) and lifted > 0
    np.testing.assert_allclose(state.jacobian_matrix @ velocity, outcome.velocity.reshape(-1), atol=1e-12)


def test_double_impact_invariants():
    """II where it is the one consistent case: both contacts take impulse, within their cones, nothing gains
    energy, and at the end neither penetrates on."""
    state = ContactState.from_system(ReducedTwoContact.from_painleve([[-1.0, -0.5], [-0.5, -1.0]], b=(-0.7, -0.7)))
    assert iwc_cases(state).cases == ("II",)
    for outcome, velocity in (darboux_keller(state), compliant_limit(state, _bilinear(0.6), case="II")):
        assert realised_case(outcome.impulses) == "II"
        P_n, P_t = outcome.impulses.T
        assert (P_n > 0).all() and (np.abs(P_t) <= state.mu * P_n * (1 + 1e-9)).all()
        assert state.kinetic_energy(velocity) <= state.kinetic_energy() * (1 + 1e-9)
        assert (outcome.velocity[:, 0] >= -1e-9).all()
    # Darboux–Keller's sharing of a plastic impact is that of equal dampers: the damper limit of a contact model
    plastic, damped = darboux_keller(state)[0], compliant_limit(state, _damper())[0]
    np.testing.assert_allclose(damped.impulses, plastic.impulses, rtol=1e-8)


@pytest.mark.slow
def test_cases_agree_with_table_4s_closed_forms():
    """The linear programme over each subset of impacting contacts gives Sec. 6.3's IF, FI and II conditions."""
    rng = np.random.default_rng(2)
    for _ in range(300):
        P = rng.normal(size=(2, 2))
        assert set(cases_of(P)) == set(impacts_without_collision(P).names())


def _digs_in(p, b, k, c, v0):
    """An independent integration of g̈ = b + p λ_n, λ_n = −kg − c·min(ġ, 0) in contact, from g = 0, ġ = −v0:
    whether the penetration runs away (IWC) rather than the contact lifting off."""
    law = SpringDamper(k, c)
    assert float(law(-0.5, -0.3)) == pytest.approx(0.5 * k + 0.3 * c)  # the package's law, same signs

    def field(_, y):
        g, v = y
        force = -k * g - c * min(v, 0.0) if g <= 0 else 0.0
        return [v, b + p * force]

    runaway = lambda _, y: y[0] + 1e3 * b / (abs(p) * k)  # noqa: E731  far below the saddle g* = −b/(|p|k)
    lifted = lambda _, y: y[0] - 1e-12  # noqa: E731
    runaway.terminal = lifted.terminal = True
    lifted.direction = 1.0
    solution = solve_ivp(field, (0.0, 1e4), [0.0, -v0], rtol=1e-12, atol=1e-15, events=[runaway, lifted])
    return solution.t_events[0].size > 0


@pytest.mark.parametrize(("p", "b", "k", "c"), [(-0.4, 1.0, 100.0, 5.0), (-1.5, 0.3, 1e4, 20.0), (-0.1, 2.0, 50, 0.0)])
def test_hogan_kristiansen_boundary(p, b, k, c):
    """Touch-down just faster than the closed-form speed digs in, just slower lifts off."""
    v_star = iwc_liftoff_velocity(p, b, k, c)
    assert _digs_in(p, b, k, c, v_star * (1 + 1e-6)) and not _digs_in(p, b, k, c, v_star * (1 - 1e-6))
    with pytest.raises(ValueError, match="p = 0.5"):
        iwc_liftoff_velocity(0.5, b, k, c)


@pytest.mark.slow
@pytest.mark.parametrize(("vx", "case"), [(1.0, "FI"), (-1.0, "IF")])
def test_a_tall_body_sliding_on_two_legs_trips_over_its_leading_leg(vx, case):
    """A narrow body (legs ±0.3 below a centre of mass 2 high) sliding at μ = 1: friction at the leading leg tips
    the body onto it (its p < 0) and lifts the trailing one, the only consistent case; the leading leg's impact
    is its own single-contact map (Poisson r = 0, and the bilinear spring's energetic r = 0.5), the trailing leg
    lifts off, and no energy is gained."""
    body = TwoLeggedBody(legs=((-0.3, -2.0), (0.3, -2.0)), mu=(1.0, 1.0), vx0=vx)
    state = ContactState.from_system(body)
    assert iwc_cases(state).cases == (case,)
    leading = case.index("I")
    G, w = state.delassus, state.contact_velocity
    n, t = 2 * leading, 2 * leading + 1
    for r, (outcome, velocity) in ((0.0, darboux_keller(state)), (0.5, compliant_limit(state, _bilinear(0.5)))):
        law = "poisson" if r == 0.0 else "energetic"
        expected = darboux_keller_map(G[t, t], G[t, n], G[n, n], 1.0, w[leading, 1], 0.0, r, law)
        np.testing.assert_allclose(
            outcome.impulses[leading], [expected.normal_impulse, expected.tangential_impulse], 1e-8
        )
        assert realised_case(outcome.impulses) == case
        assert (state.jacobian_matrix @ velocity).reshape(-1, 2)[1 - leading, 0] > 0  # the trailing leg lifts off
        assert state.kinetic_energy(velocity) < state.kinetic_energy()
