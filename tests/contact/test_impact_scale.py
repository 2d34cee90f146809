"""Each law answers its own impact-scale question: which of its terms survive as α → ∞ for given α-exponents
(``AbstractNormalLaw.impact_scale``, ``impact_rates``; ``AbstractFrictionLaw.impact_friction``), and a law that
does not answer refuses in one line."""

import math
from typing import ClassVar

import jax.numpy as jnp
import pytest

from regcontact.contact import (
    AbstractFrictionLaw,
    AbstractNormalLaw,
    ChampneysFastScale,
    ClippedKelvinVoigt,
    ContactModel,
    HuntCrossley,
    HuntCrossleyDamping,
    SpringDamper,
    ViscousCoulomb,
    default_exponents,
    law_exponents,
)
from regcontact.rigid import limit_law


@pytest.mark.parametrize("law_class", [SpringDamper, ClippedKelvinVoigt])
def test_a_damper_faster_than_the_spring_alone_survives(law_class):
    law = law_class(3.0, 2.0)
    scale = law.impact_scale(default_exponents(law))  # k, γ ∝ α: the damper's α^(−1) beats the spring's α^(−1/2)
    assert type(scale.law) is law_class
    assert (scale.exponent, float(scale.law.stiffness), float(scale.law.damping)) == (1.0, 0.0, 2.0)
    assert not scale.has_spring


def test_champneys_scaling_keeps_spring_and_damper_on_one_scale():
    law = ChampneysFastScale(1.0, 0.4)
    scale = law.impact_scale(default_exponents(law))  # k ∝ α, q ∝ √α
    assert (scale.exponent, float(scale.law.stiffness), float(scale.law.damping)) == (0.5, 1.0, 0.4)
    assert scale.has_spring


def test_a_slow_damper_leaves_the_spring_alone():
    scale = SpringDamper(1.0, 1.0).impact_scale(law_exponents(SpringDamper, damping=0.25))
    assert (scale.exponent, float(scale.law.stiffness), float(scale.law.damping)) == (0.5, 1.0, 0.0)
    assert scale.has_spring


def test_hunt_crossley_is_its_own_limit_a_shrinking_damping_leaves_hertz_a_growing_one_its_damping():
    law = HuntCrossley(2.0, 1.5, 0.3)
    scale = law.impact_scale(default_exponents(law))
    assert scale.exponent == pytest.approx(1.0 / 2.5) and float(scale.law.damping) == 0.3 and scale.has_spring
    hertz = law.impact_scale(law_exponents(HuntCrossley, damping=-1.0))
    assert float(hertz.law.damping) == 0.0 and float(hertz.law.exponent) == 1.5
    growing = law.impact_scale(law_exponents(HuntCrossley, damping=0.5))  # c ∝ √α: the damping term alone
    assert isinstance(growing.law, HuntCrossleyDamping) and not growing.has_spring
    assert growing.exponent == pytest.approx(1.5 / 2.5) and float(growing.law.stiffness) == pytest.approx(0.6)
    with pytest.raises(ValueError, match="fixed shape"):
        law.impact_scale(law_exponents(HuntCrossley, exponent=0.1))


def test_each_law_gives_its_impact_rates():
    assert SpringDamper(4.0, 3.0).impact_rates([2.0], 1.0) == [math.sqrt(8.0), 6.0]
    assert SpringDamper(4.0, 0.0).impact_rates([2.0, 1.0], 1.0) == [math.sqrt(8.0), 2.0]  # the zero damper left out
    (rate,) = HuntCrossley(2.0, 1.5, 0.3).impact_rates([0.5], 4.0)
    assert rate == pytest.approx((2.0 * 0.5 * 4.0**0.5) ** (1.0 / 2.5))


def test_viscous_coulomb_answers_by_its_damping_exponent_against_the_scale():
    friction = ViscousCoulomb(0.7)
    exponents = law_exponents(ViscousCoulomb, damping=0.5)
    assert friction.impact_friction(exponents, 1.0) == ("none", 0.0)
    assert friction.impact_friction(exponents, 0.5) == ("viscous", 0.7)
    assert friction.impact_friction(exponents, 0.25) == ("coulomb", 0.0)
    assert ViscousCoulomb(0.0).impact_friction(exponents, 0.5) == ("none", 0.0)


class _Cubic(AbstractNormalLaw):
    """A law of one's own that says nothing about its impact scale."""

    PARAMETERS: ClassVar[dict[str, str]] = {"stiffness": "positive"}
    EXPONENTS: ClassVar[dict[str, float]] = {"stiffness": 1.0}
    LINEAR_STIFFNESS: ClassVar[str | None] = None

    stiffness: jnp.ndarray

    def __init__(self, stiffness=1.0):
        self.stiffness = jnp.asarray(stiffness, float)

    def __call__(self, gap, gap_rate):
        return self.stiffness * jnp.maximum(-gap, 0.0) ** 3

    def elastic_energy(self, gap):
        return 0.25 * self.stiffness * jnp.maximum(-gap, 0.0) ** 4


class _Dry(AbstractFrictionLaw):
    PARAMETERS: ClassVar[dict[str, str]] = {}
    EXPONENTS: ClassVar[dict[str, float]] = {}

    def __call__(self, slip_rate, normal_force, mu):
        return -mu * normal_force * jnp.sign(slip_rate)


def test_a_law_without_an_answer_is_refused_in_one_line():
    with pytest.raises(ValueError, match=r"^_Cubic does not derive its impact-scale limit") as refused:
        limit_law(ContactModel(_Cubic(2.0), ViscousCoulomb(1.0)))
    assert "\n" not in str(refused.value)
    with pytest.raises(ValueError, match=r"^_Cubic does not derive its impact time scales"):
        _Cubic().impact_rates([1.0], 1.0)
    with pytest.raises(ValueError, match=r"^the limit impact law is derived for viscous Coulomb friction, not _Dry"):
        limit_law(ContactModel(SpringDamper(), _Dry()))
