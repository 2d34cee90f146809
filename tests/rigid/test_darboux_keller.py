"""The Darboux–Keller impact of one contact (``regcontact.rigid.darboux_keller``): the closed-form map against
closed forms (frictionless, B = 0, sticking), against an independent integration in the normal impulse, and its
energy balance."""

import numpy as np
import pytest

from regcontact.rigid import RESTITUTION_LAWS, ContactState, darboux_keller, darboux_keller_map, impulse_velocity
from regcontact.rigid._impacts.darboux_keller import contact_space_energy
from regcontact.systems import PainleveRod, TwoPointRod


def integrate(A, B, C, mu, u, v, r, law, steps=200_000):
    """An independent integration in the normal impulse: implicit (backward Euler) increments ``dI`` with the
    tangential increment that Coulomb's law allows at the end of each one, ``dT = clip(−(u + B dI)/A, ±μ dI)``,
    until the law's end of restitution. First order in ``dI``."""
    # a first pass at a coarse step sizes dI to the impact
    scale = abs(v) / C + abs(u) / A + 1e-300
    dI = 50 * scale / steps
    I = T = work = 0.0
    incoming, compression, compression_work = v, None, 0.0
    for _ in range(50 * steps):
        dT = float(np.clip(-(u + B * dI) / A, -mu * dI, mu * dI))
        u_next, v_next = u + A * dT + B * dI, v + B * dT + C * dI
        work += 0.5 * (v + v_next) * dI
        I, T, u, v = I + dI, T + dT, u_next, v_next
        if compression is None:
            if v >= 0 and (incoming < 0 or I > dI):
                compression, compression_work = I, work
                if law == "newton" and incoming == 0:
                    break
        elif law == "poisson" and I >= (1 + r) * compression:
            break
        elif law == "newton" and v >= -r * incoming:
            break
        elif law == "energetic" and work >= compression_work * (1 - r**2):
            break
    return u, v, I, T


CASES = {
    "sliding through": (1.0, 0.3, 1.5, 0.2, 2.0, -1.0),
    "slip to stick": (1.0, 0.3, 1.5, 0.8, 0.3, -1.0),
    "backward slip": (2.0, -0.5, 1.0, 0.4, -0.7, -1.2),
    "stick from the start": (1.0, 0.2, 1.0, 0.5, 0.0, -1.0),
    "slip reversal": (1.0, 0.9, 1.0, 0.6, -0.1, -1.0),
}


@pytest.mark.parametrize("law", RESTITUTION_LAWS)
@pytest.mark.parametrize("r", [0.0, 0.5, 0.9])
@pytest.mark.parametrize("case", list(CASES))
def test_closed_form_equals_the_integration(case, r, law):
    A, B, C, mu, u, v = CASES[case]
    exact = darboux_keller_map(A, B, C, mu, u, v, r, law)
    assert exact.status == "ended"
    u_i, v_i, I_i, T_i = integrate(A, B, C, mu, u, v, r, law)
    scale = max(abs(u), abs(v))
    assert abs(exact.u - u_i) <= 2e-3 * scale and abs(exact.v - v_i) <= 2e-3 * scale
    assert exact.normal_impulse == pytest.approx(I_i, rel=2e-3, abs=2e-3 * scale / C)
    assert exact.tangential_impulse == pytest.approx(T_i, rel=2e-3, abs=2e-3 * scale / C)


@pytest.mark.parametrize("law", RESTITUTION_LAWS)
@pytest.mark.parametrize("r", [0.0, 0.3, 1.0])
def test_frictionless_impact_is_newtons(law, r):
    outcome = darboux_keller_map(1.0, 0.4, 2.0, 0.0, 0.7, -1.5, r, law)
    assert outcome.v == pytest.approx(1.5 * r, rel=1e-14, abs=1e-15)
    assert outcome.normal_impulse == pytest.approx((1 + r) * 1.5 / 2.0, rel=1e-14)
    assert outcome.tangential_impulse == 0.0 and outcome.modes == ("S+",) * len(outcome.phases)
    assert outcome.u == pytest.approx(0.7 + 0.4 * outcome.normal_impulse, rel=1e-14)


@pytest.mark.parametrize("law", RESTITUTION_LAWS)
@pytest.mark.parametrize("mu", [0.1, 0.5, 2.0])
def test_uncoupled_contact_restitutes_by_r(law, mu):
    """B = 0: friction does not feed the normal motion, v' = C in every phase, so v⁺ = r |v⁻| for every law."""
    for u in (-1.0, 0.05, 1.0):
        outcome = darboux_keller_map(1.0, 0.0, 1.0, mu, u, -2.0, 0.6, law)
        assert outcome.v == pytest.approx(1.2, rel=1e-13)


def test_sticking_impact_ends_at_rest_tangentially():
    """A small slip that stops during compression, in a cone that holds it (|B| ≤ μA): stick to the end."""
    outcome = darboux_keller_map(1.0, 0.3, 1.5, 0.8, 0.1, -1.0, 0.5, "poisson")
    assert outcome.modes == ("S+", "T", "T") and outcome.u == 0.0
    assert [phase.stage for phase in outcome.phases] == ["compression", "compression", "restitution"]
    # in stick dv/dI = C − B²/A and dI_T/dI = −B/A: the impulse after the slip stops follows the closed form
    start = outcome.phases[0].end_impulse
    assert outcome.normal_impulse == pytest.approx(1.5 * outcome.compression_impulse, rel=1e-14)
    assert outcome.tangential_impulse == pytest.approx(-0.8 * start - 0.3 * (outcome.normal_impulse - start), rel=1e-13)


def test_impact_without_collision_on_a_painleve_contact():
    """Sliding at v⁻ = 0 with p⁺ = C − μB < 0: the normal velocity first goes negative (compression without a
    collision); the slip must stop for the impact to end; v⁺ > 0 although v⁻ = 0."""
    A, B, C, mu = 1.0, 0.9, 1.0, 1.5  # p⁺ = 1 − 1.35 < 0; du/dI = B − μA = −0.6: the slip stops
    outcome = darboux_keller_map(A, B, C, mu, 1.0, 0.0, 0.5, "poisson")
    assert outcome.status == "ended" and outcome.v > 0
    assert outcome.phases[0].mode == "S+" and outcome.phases[0].stage == "compression"
    assert min(p.end[1] for p in outcome.phases) < 0


def test_no_impact_when_the_contact_does_not_approach():
    assert darboux_keller_map(1.0, 0.3, 1.5, 0.5, 1.0, 0.0).status == "no_impact"
    with pytest.raises(ValueError, match="separates"):
        darboux_keller_map(1.0, 0.3, 1.5, 0.5, 1.0, 0.5)


@pytest.mark.parametrize("law", ["poisson", "energetic"])
def test_impacts_end_and_never_gain_energy(law):
    rng = np.random.default_rng(7)
    for _ in range(300):
        factor = rng.normal(size=(2, 2))
        (A, B), (_, C) = factor @ factor.T + 0.05 * np.eye(2)
        mu, r = rng.uniform(0, 2), rng.uniform(0, 1)
        u, v = rng.normal(), -abs(rng.normal())
        outcome = darboux_keller_map(A, B, C, mu, u, v, r, law)
        assert outcome.status == "ended"  # a positive definite form always ends: p^s < 0 forces the slip to stop
        before, after = contact_space_energy(A, B, C, u, v), contact_space_energy(A, B, C, outcome.u, outcome.v)
        assert after <= before * (1 + 1e-12) + 1e-15


@pytest.mark.parametrize("bad", [dict(restitution=1.5), dict(restitution=-0.1), dict(law="stronge"), dict(mu=-1.0)])
def test_bad_input_names_the_argument(bad):
    arguments = dict(A=1.0, B=0.2, C=1.0, mu=0.5, u=1.0, v=-1.0) | bad
    with pytest.raises(ValueError, match=next(iter(bad))):
        darboux_keller_map(**arguments)


def random_landings(count, seed):
    """Rods touching down on their lower end (``v_y0 < 0`` added to the Painlevé rod's initial state)."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        rod = PainleveRod(
            mass=rng.uniform(0.5, 2.0),
            length=rng.uniform(0.5, 3.0),
            mu=rng.uniform(0.0, 2.0),
            phi0=rng.uniform(0.2, 1.4),
            vx0=rng.normal(),
            omega0=rng.normal(),
        )
        q0, v0 = (np.asarray(a) for a in rod.initial_state())
        yield ContactState.from_system(rod, q=q0, v=v0 + np.array([0.0, -abs(rng.normal()) - 0.1, 0.0]))


@pytest.mark.slow
def test_plastic_impact_equals_the_impulse_lcp_for_one_contact_unless_the_slip_reverses():
    """Poisson with r = 0 ends at v⁺ = 0, like the impulse-velocity LCP (e = 0). Without a slip reversal the
    process's total impulse obeys Coulomb's law as the LCP's does (slip throughout: ``Λ_t = −sμΛ_n``; stick at the
    end: ``ġ⁺ = 0``), so where the LCP's impulsive solution is unique they agree. A reversal (``|B| > μA``: the
    contact cannot stick and slips back) makes the process's impulse a sum of two cone edges, which the one-shot
    LCP does not see: there they differ, and the process ends sliding."""
    compared = reversed_ = 0
    for state in random_landings(200, seed=3):
        outcome, velocity = darboux_keller(state, 0.0, "poisson")
        impulsive = [s for s in impulse_velocity(state) if s.mode != "F"]
        if len(impulsive) != 1:
            continue
        if {"S+", "S-"} <= set(outcome.modes):
            reversed_ += 1
            G = state.delassus
            assert abs(G[1, 0]) > state.mu[0] * G[1, 1] and outcome.u != 0.0
            continue
        compared += 1
        (lcp,) = impulsive
        np.testing.assert_allclose(
            [outcome.normal_impulse, outcome.tangential_impulse], lcp.reaction, rtol=1e-12, atol=1e-14
        )
        np.testing.assert_allclose(velocity, lcp.velocity, rtol=1e-12, atol=1e-13)
    assert compared >= 150 and reversed_ >= 5


def test_darboux_keller_refuses_what_it_cannot_do():
    with pytest.raises(ValueError, match="compliances"):
        darboux_keller(TwoPointRod(vy0=-1.0), restitution=0.5)  # a rod flat on both ends
    rod = PainleveRod()
    q0, v0 = rod.initial_state()
    with pytest.raises(ValueError, match="open"):
        darboux_keller(ContactState.from_system(rod, q=np.asarray(q0) + np.array([0.0, 0.1, 0.0])))
