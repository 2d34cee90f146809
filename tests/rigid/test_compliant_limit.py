"""The compliant limit impact law (``regcontact.rigid.compliant_limit``): which terms survive on the impact time
scale, the restitution of the linear laws against their closed forms, and the compliant model converging to it."""

import jax.numpy as jnp
import numpy as np
import pytest

from regcontact.compliant import Controls, SolveSettings, solve
from regcontact.contact import (
    ChampneysFastScale,
    ClippedKelvinVoigt,
    ContactModel,
    HuntCrossley,
    SpringDamper,
    ViscousCoulomb,
    law_exponents,
)
from regcontact.rigid import (
    compliant_limit_map,
    impulse_velocity,
    kelvin_voigt_restitution,
    limit_law,
    spring_damper_restitution,
)
from regcontact.systems import ReducedSingleContact


def test_preclik_exponents_keep_the_dampers():
    """k_n, γ_n, γ_t ∝ α: the damper's time scale 1/α is the fastest; the spring's force is O(α^(−1)) there."""
    law = limit_law(ContactModel(SpringDamper(3.0, 2.0), ViscousCoulomb(0.5)))
    assert law.scale_exponent == 1.0 and not law.has_spring
    assert float(law.normal.damping) == 2.0 and law.tangential_damping == 0.5 and law.friction == "viscous"


def test_champneys_exponents_keep_spring_and_damper_and_need_slow_enough_friction():
    normal = ChampneysFastScale(1.0, 0.4)  # k ∝ α, q ∝ √α: the impact scale is α^(−1/2)
    law = limit_law(ContactModel(normal, ViscousCoulomb(1.0), friction_exponents=ViscousCoulomb(0.5)))
    assert law.scale_exponent == 0.5 and law.has_spring and float(law.normal.damping) == 0.4
    assert law.friction == "viscous" and law.tangential_damping == 1.0
    faster = limit_law(ContactModel(normal, ViscousCoulomb(1.0)))  # γ_t ∝ α: Coulomb during the impact
    assert faster.friction == "coulomb" and faster.tangential_damping == 0.0
    slower = limit_law(ContactModel(normal, ViscousCoulomb(1.0), friction_exponents=ViscousCoulomb(0.25)))
    assert slower.friction == "none"


def test_hunt_crossley_is_its_own_limit_and_a_growing_damping_leaves_its_damping():
    """k ∝ α, n and c fixed: the scale α^(−1/(n+1)); a shrinking c leaves Hertz's spring; a growing one its damping
    term alone, on the scale α^(−(1 + b)/(n+1))."""
    law = limit_law(ContactModel(HuntCrossley(2.0, 1.5, 0.3), ViscousCoulomb(1.0)))
    assert law.scale_exponent == pytest.approx(0.4) and float(law.normal.damping) == 0.3
    assert law.friction == "coulomb"  # γ_t ∝ α is faster than α^0.4
    shrinking = law_exponents(HuntCrossley, damping=-1.0)
    hertz = limit_law(ContactModel(HuntCrossley(2.0, 1.5, 0.3), ViscousCoulomb(1.0), shrinking))
    assert float(hertz.normal.damping) == 0.0
    growing = limit_law(ContactModel(HuntCrossley(), ViscousCoulomb(1.0), law_exponents(HuntCrossley, damping=0.5)))
    assert growing.scale_exponent == pytest.approx(0.6) and not growing.has_spring
    assert growing.friction == "coulomb"  # γ_t ∝ α is faster than α^0.6


@pytest.mark.parametrize("zeta", [0.05, 0.3, 0.7])
@pytest.mark.parametrize(
    ("law", "restitution"),
    [(SpringDamper, spring_damper_restitution), (ClippedKelvinVoigt, kelvin_voigt_restitution)],
)
def test_linear_spring_dashpot_restitutes_by_its_closed_form(law, restitution, zeta):
    """Frictionless, k ∝ α and γ ∝ √α at a fixed damping ratio ζ = γ/(2√(k m_n)), m_n = 1/C."""
    k, C = 4.0, 2.0
    model = ContactModel(law(k, 2 * zeta * np.sqrt(k / C)), ViscousCoulomb(0.0), law(1.0, 0.5), ViscousCoulomb(0.0))
    outcome = compliant_limit_map(1.0, 0.3, C, 0.0, 0.5, -1.5, limit_law(model))
    assert outcome.ended == "opened"
    assert outcome.v == pytest.approx(1.5 * restitution(zeta), rel=1e-9)


def test_the_damper_alone_does_not_bounce_and_the_spring_alone_is_elastic():
    damper = ContactModel(SpringDamper(1.0, 1.0), ViscousCoulomb(0.0))  # exponents (1, 1): b > a/2
    outcome = compliant_limit_map(1.0, 0.0, 2.0, 0.0, 0.0, -1.0, limit_law(damper))
    assert outcome.ended == "rest" and abs(outcome.v) < 1e-12 and outcome.normal_impulse == pytest.approx(0.5)
    spring = ContactModel(SpringDamper(1.0, 1.0), ViscousCoulomb(0.0), SpringDamper(1.0, 0.25))  # b < a/2
    outcome = compliant_limit_map(1.0, 0.0, 2.0, 0.0, 0.0, -1.0, limit_law(spring))
    assert outcome.ended == "opened" and outcome.v == pytest.approx(1.0, rel=1e-9)
    # a damping ratio far above 1 approaches the damper alone: e → 0
    heavy = [
        compliant_limit_map(
            1.0,
            0.0,
            1.0,
            0.0,
            0.0,
            -1.0,
            limit_law(ContactModel(SpringDamper(1.0, 2 * zeta), ViscousCoulomb(0.0), SpringDamper(1.0, 0.5))),
        ).v
        for zeta in (2.0, 20.0, 200.0)
    ]
    assert heavy[0] > heavy[1] > heavy[2] and heavy[2] < 1e-2


@pytest.mark.slow
@pytest.mark.parametrize("ratio", [1.0, 0.1])
def test_the_compliant_model_converges_to_its_limit_law(ratio):
    """Preclik & Rüde's model (k_n = γ_n = α, γ_t = ratio · α) landing with a slip, no finite forces (a = b = 0):
    the velocities after the impact layer (t = 60/α) approach the α-free limit law at order 1 in α. With
    γ_t/γ_n = 0.1 the friction stays viscous and the slip after the impact is not the impulse LCP's."""
    A, B, C, mu, u, v = 1.0, 0.3, 1.5, 0.5, 0.5, -1.0
    model = ContactModel(SpringDamper(1.0, 1.0), ViscousCoulomb(ratio))
    limit = compliant_limit_map(A, B, C, mu, u, v, limit_law(model))
    assert limit.ended == "rest" and abs(limit.v) < 1e-12
    system = ReducedSingleContact(a=0.0, b=0.0, A=A, B=B, C=C, mu=mu, slip0=u, normal_velocity0=v)
    distances = []
    for alpha in (1e4, 1e5, 1e6):
        run = solve(system, model, jnp.asarray(alpha), Controls(t_max=60.0 / alpha), SolveSettings(events=()))
        assert bool(run.ok)
        u_end, v_end = np.asarray(run.state_end.v)
        distances.append(max(abs(u_end - limit.u), abs(v_end - limit.v)))
    orders = -np.diff(np.log10(distances))
    assert np.all((orders > 0.9) & (orders < 1.1)), distances
    (lcp,) = [s for s in impulse_velocity(system) if s.mode != "F"]
    lcp_slip = lcp.contact_rate[1]
    if ratio == 1.0:  # friction reaches its cone at once: the impulse LCP's sliding impulse
        assert limit.u == pytest.approx(lcp_slip, rel=1e-9)
    else:
        assert limit.u > lcp_slip + 0.1


def test_an_impact_faster_than_the_process_resolves_is_refused_before_it_runs():
    """A normal rate above ``MAX_RATE_RTOL/rtol`` (1e11 at rtol 1e-12): a stiffness of 1e30 answered ``v⁺`` 7e-4
    off in silence; a chain of balls of mass 1e-300 (``C = 2e300``) 1e-4 off, of mass 1e-30 a ``RuntimeError``
    traceback after 200 segments. Now one line naming the rate and the bound."""
    from regcontact.contact import BilinearSpring
    from regcontact.rigid import compliant_limit
    from regcontact.systems import ball_chain

    stiff = limit_law(ContactModel(BilinearSpring(1e30, 0.5), ViscousCoulomb(0.0)))
    with pytest.raises(ValueError, match=r"^the impact's fastest normal rate = 1\.14e\+15: expected at most 1e\+11"):
        compliant_limit_map(1.0, 0.0, 1.3, 0.0, 0.0, -2.0, stiff)
    with pytest.raises(ValueError, match=r"expected at most 1e\+09 = 0.1/rtol"):
        compliant_limit_map(1.0, 0.0, 1.3, 0.0, 0.0, -2.0, stiff, rtol=1e-10)
    light = ball_chain(np.ones(3), np.full(3, 1e-300), [1.0, 0.0, 0.0])
    model = ContactModel(BilinearSpring(1.0, 0.8), ViscousCoulomb(0.0))
    with pytest.raises(ValueError, match=r"^the impact's fastest normal rate = 1\.41e\+150: expected at most 1e\+11"):
        compliant_limit(light, model)
    spread = ball_chain(np.ones(3), [1e300, 1e-300, 1.0], [1.0, 0.0, 0.0])  # ran for minutes before
    with pytest.raises(ValueError, match=r"^the impact's fastest normal rate = 1e\+150"):
        compliant_limit(spread, model)
