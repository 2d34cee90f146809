"""The impact of k contacts on its own time scale (``regcontact.rigid.impact_process``) and the k-contact impact
laws built on it: against the single-contact Darboux–Keller map, against closed forms and invariants, and the
flat rod's slip after a compliant impact."""

import numpy as np
import pytest

from regcontact.contact import (
    ClippedKelvinVoigt,
    ContactModel,
    HuntCrossley,
    SpringDamper,
    ViscousCoulomb,
    law_exponents,
)
from regcontact.rigid import (
    CompliantLimitImpact,
    DarbouxKellerImpact,
    NewtonImpact,
    compliant_limit,
    compliant_limit_map,
    darboux_keller,
    darboux_keller_map,
    event_driven,
    impact_process,
    impulse_velocity,
    limit_law,
)
from regcontact.rigid._impacts.darboux_keller import contact_space_energy
from regcontact.systems import PainleveRod, TwoPointRod

#: γ_n ∝ α and γ_t ∝ α^1.5: the damper alone in the normal direction, Coulomb friction during the impact.
DAMPER_COULOMB = ContactModel(SpringDamper(1.0, 1.0), ViscousCoulomb(1.0), friction_exponents=ViscousCoulomb(1.5))
#: k ∝ α, γ_n ∝ α^0.25: the spring alone (elastic), Coulomb friction during the impact.
SPRING_COULOMB = ContactModel(SpringDamper(1.0, 1.0), ViscousCoulomb(1.0), SpringDamper(1.0, 0.25), ViscousCoulomb(1.5))


def _random_forms(count, seed):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        A, C = rng.uniform(0.3, 3.0, 2)
        B = rng.uniform(-0.95, 0.95) * np.sqrt(A * C)
        yield A, B, C, rng.uniform(0.0, 1.5), rng.uniform(-1.0, 1.0), -rng.uniform(0.2, 1.0)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("model", "restitution", "law"), [(DAMPER_COULOMB, 0.0, "poisson"), (SPRING_COULOMB, 1.0, "energetic")]
)
def test_one_contact_with_coulomb_friction_is_the_darboux_keller_map(model, restitution, law):
    """Integrated in time with a compliant normal law and Coulomb friction, one contact follows Darboux–Keller's
    lines in the impulse whatever the normal law: a damper alone ends at v = 0 (r = 0), an elastic spring returns
    the compression work (energetic r = 1). Two independent methods, agreeing to round-off."""
    limit = limit_law(model)
    assert limit.friction == "coulomb"
    modes = set()
    stick_from_the_start = (1.0, 0.2, 2.0, 0.5, 0.0, -1.0)
    for A, B, C, mu, u, v in [*_random_forms(40, 3), stick_from_the_start]:
        process = compliant_limit_map(A, B, C, mu, u, v, limit)
        closed_form = darboux_keller_map(A, B, C, mu, u, v, restitution, law)
        assert closed_form.status == "ended"
        modes.add(closed_form.modes)
        found = [process.u, process.v, process.normal_impulse, process.tangential_impulse]
        expected = [closed_form.u, closed_form.v, closed_form.normal_impulse, closed_form.tangential_impulse]
        np.testing.assert_allclose(found, expected, rtol=1e-9, atol=1e-10)
    # slip through, slip to stick, reversal and stick from the start all among the cases
    kinds = {frozenset(m) for m in modes}
    assert {frozenset({"S+"}), frozenset({"S-"})} & kinds and frozenset({"T"}) in kinds
    assert any(m[0] != "T" and "T" in m for m in modes) and any(set(m) >= {"S+", "S-"} for m in modes)


def test_independent_contacts_impact_independently():
    """A block-diagonal Delassus matrix: each contact's impact is its own single-contact map."""
    forms = list(_random_forms(2, 11))
    G = np.zeros((4, 4))
    for i, (A, B, C, *_) in enumerate(forms):
        G[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[C, B], [B, A]]
    mu = [form[3] for form in forms]
    velocity = [[form[5], form[4]] for form in forms]
    law = limit_law(DAMPER_COULOMB)
    process = impact_process(G, mu, velocity, law.force(), "coulomb", rates=np.diag(G)[0::2], decays=True)
    for i, (A, B, C, m, u, v) in enumerate(forms):
        single = darboux_keller_map(A, B, C, m, u, v)
        np.testing.assert_allclose(process.velocity[i], [single.v, single.u], atol=1e-10)
        np.testing.assert_allclose(process.impulses[i], [single.normal_impulse, single.tangential_impulse], atol=1e-10)


@pytest.mark.slow
@pytest.mark.parametrize(("ratio", "slip"), [(0.1, 0.348), (0.3, 0.209), (1.0, 0.017), (3.0, 0.0)])
def test_the_flat_rod_keeps_a_slip_set_by_the_damping_ratio(ratio, slip):
    """A rod dropped flat on both ends, v = (0.5, −1, 0.3), μ = 0.5, Preclik's law with γ_t/γ_n = c_t: friction
    stays viscous during the impact, so the slip after it depends on c_t (0.348, 0.209, 0.017, 0, measured with an
    independent implementation); the impulse LCP (and Darboux–Keller) leave none."""
    rod = TwoPointRod(mu=0.5, vx0=0.5, vy0=-1.0, omega0=0.3, phi0=0.0, height=0.0)
    outcome, velocity = compliant_limit(rod, ContactModel(SpringDamper(1.0, 1.0), ViscousCoulomb(ratio)))
    assert outcome.ended == "rest"
    assert velocity[0] == pytest.approx(slip, abs=1e-3)
    assert abs(velocity[1]) < 1e-12 and abs(velocity[2]) < 1e-12
    (lcp,) = impulse_velocity(rod)
    _, dk_velocity = darboux_keller(rod)
    np.testing.assert_allclose(dk_velocity, lcp.velocity, atol=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("friction", ["viscous", "coulomb"])
def test_no_impact_of_several_contacts_gains_energy(friction):
    """Random two-contact impacts (a clipped Kelvin–Voigt law with a spring, or the damper alone) never leave
    more kinetic energy than they found."""
    rng = np.random.default_rng(5)
    for law in (ClippedKelvinVoigt(1.0, 0.3), SpringDamper(1.0, 1.0)):
        exponents = type(law)(1.0, 0.5) if isinstance(law, ClippedKelvinVoigt) else None
        model = ContactModel(law, ViscousCoulomb(2.0), exponents, ViscousCoulomb(0.5 if exponents is not None else 1.0))
        if friction == "coulomb":
            model = ContactModel(law, ViscousCoulomb(2.0), exponents, ViscousCoulomb(3.0))
        limit = limit_law(model)
        assert limit.friction == friction
        for _ in range(15):
            J = rng.normal(size=(4, 3))
            G = J @ J.T + 0.05 * np.eye(4)
            velocity = np.column_stack([-rng.uniform(0.1, 1.0, 2), rng.uniform(-1.0, 1.0, 2)])
            rates = limit.rates(np.diag(G)[0::2], 1.0) + [2.0 * g for g in np.diag(G)[1::2]]
            outcome = impact_process(
                G, rng.uniform(0.1, 1.0, 2), velocity, limit.force(), friction, 2.0, rates, not limit.has_spring
            )
            before = 0.5 * velocity.reshape(-1) @ np.linalg.solve(G, velocity.reshape(-1))
            after = 0.5 * outcome.velocity.reshape(-1) @ np.linalg.solve(G, outcome.velocity.reshape(-1))
            assert after <= before * (1 + 1e-9)
            assert np.all(outcome.impulses[:, 0] >= -1e-12)


def test_one_contact_energy_matches_the_contact_space_form():
    """The energy helper and the process agree on a frictionless elastic impact: nothing is lost."""
    A, B, C = 1.0, 0.3, 1.5
    outcome = compliant_limit_map(A, B, C, 0.0, 0.5, -1.0, limit_law(SPRING_COULOMB))
    assert contact_space_energy(A, B, C, outcome.u, outcome.v) == pytest.approx(
        contact_space_energy(A, B, C, 0.5, -1.0), rel=1e-10
    )


@pytest.mark.slow
def test_the_second_landing_of_the_two_point_rod_under_each_impact_law():
    """The two-point rod lands on end 1, slides and lands on end 2 (with end 1 sliding): the impulse LCP and
    Darboux–Keller leave the same velocity; the compliant limit of Preclik's law (friction viscous during the
    impact) leaves it 0.023 faster, the offset its compliant runs show against the LCP."""
    rod = TwoPointRod(mu=0.5, phi0=0.3, height=0.02, vx0=2.0, gravity=10.0)
    after = {}
    laws = {
        "lcp": NewtonImpact(),
        "darboux_keller": DarbouxKellerImpact(),
        "compliant_limit": CompliantLimitImpact(ContactModel()),
    }
    for law, impact_law in laws.items():
        run = event_driven(rod, 0.3, impact_law=impact_law)
        impacts = [event for event in run.events if event.kind == "impact"]
        assert [event.contact for event in impacts] == [0, 1]
        index = np.flatnonzero(run.times == impacts[1].time)[-1]
        after[law] = run.v[index]
    np.testing.assert_allclose(after["darboux_keller"], after["lcp"], atol=1e-9)
    assert after["compliant_limit"][0] - after["lcp"][0] == pytest.approx(0.0230, abs=2e-4)


def test_impact_laws_refuse_what_they_cannot_do():
    rod = PainleveRod()
    with pytest.raises(TypeError, match=r"^impact_law = 'newton': expected an AbstractImpactLaw"):
        event_driven(rod, 0.1, impact_law="newton")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^restitution = 1.5: expected"):
        DarbouxKellerImpact(1.5)
    with pytest.raises(ValueError, match="fixed shape"):  # refused before any integration
        CompliantLimitImpact(ContactModel(HuntCrossley(), ViscousCoulomb(), law_exponents(HuntCrossley, exponent=0.5)))
    with pytest.raises(ValueError, match="no closed contact approaches"):
        compliant_limit(TwoPointRod(vy0=1.0), ContactModel())  # separating: no impact
    with pytest.raises(ValueError, match="approaches"):
        impact_process(np.eye(2), [0.5], [[0.5, 0.0]], lambda g, v: 0 * g, "coulomb", rates=[1.0])
    with pytest.raises(ValueError, match="semi-definite"):
        impact_process(-np.eye(2), [0.5], [[-0.5, 0.0]], lambda g, v: 0 * g, "coulomb", rates=[1.0])


def test_a_coulomb_limit_impact_past_the_resolved_friction_is_refused():
    """At μ = 1e200 the slip phase overflowed and the chatter study's Zeno time read −2; the map refuses such a μ
    with Coulomb friction during the impact, and takes it where friction does not reach the impact scale."""
    with pytest.raises(ValueError, match=r"^mu = 1e\+200: expected at most 1e\+10 with Coulomb friction"):
        compliant_limit_map(1.0, 0.3, 1.5, 1e200, 0.2, -1.0, limit_law(SPRING_COULOMB))
    slow_friction = (SpringDamper(1.0, 0.25), ViscousCoulomb(0.25))  # γ_t ∝ α^0.25: no friction on the impact scale
    frictionless = ContactModel(SpringDamper(1.0, 1.0), ViscousCoulomb(1.0), *slow_friction)
    assert limit_law(frictionless).friction == "none"
    assert compliant_limit_map(1.0, 0.3, 1.5, 1e200, 0.2, -1.0, limit_law(frictionless)).v > 0
