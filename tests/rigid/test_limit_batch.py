"""Many compliant limits in one compiled call (``regcontact.rigid.compliant_limits``) against the one-by-one SciPy
process (``compliant_limit``): landings and impacts without collision, one contact or two, an open contact
beside a closed one, per-contact parameters, the laws' endings ("opened", "rest"), the errors, and the pairs
that stay on the SciPy process (Coulomb friction during the impact, a law with a memory)."""

import numpy as np
import pytest

from regcontact.contact import (
    BilinearSpring,
    ClippedKelvinVoigt,
    ContactModel,
    HuntCrossley,
    SpringDamper,
    ViscousCoulomb,
    law_exponents,
)
from regcontact.rigid import compliant_limit, compliant_limits
from regcontact.rigid._state import as_contact_state
from regcontact.systems import PainleveRod, TwoPointRod

#: Preclik & Rüde's γ_n, γ_t ∝ α (the damper alone: "rest"), Champneys' γ ∝ √α (spring and damper: "opened").
PRECLIK = ContactModel(friction=ViscousCoulomb(damping=0.1))
CHAMPNEYS = ContactModel(
    friction=ViscousCoulomb(damping=0.1),
    normal_exponents=law_exponents(SpringDamper, damping=0.5),
    friction_exponents=law_exponents(ViscousCoulomb, damping=0.5),
)
#: Hunt–Crossley with a fixed c and friction that stays viscous on its impact scale α^(−0.4).
HUNT_CROSSLEY = ContactModel(
    normal=HuntCrossley(damping=0.3), friction_exponents=law_exponents(ViscousCoulomb, damping=0.4)
)
#: A clipped Kelvin–Voigt law whose spring and damper share the scale: it brakes before the gap closes.
KELVIN_VOIGT = ContactModel(
    normal=ClippedKelvinVoigt(stiffness=1.0, damping=0.4),
    normal_exponents=law_exponents(ClippedKelvinVoigt, damping=0.5),
    friction_exponents=law_exponents(ViscousCoulomb, damping=0.5),
)
PER_CONTACT = ContactModel(
    normal=SpringDamper(stiffness=np.array([1.0, 3.0]), damping=np.array([0.5, 0.2])),
    friction=ViscousCoulomb(damping=np.array([0.1, 0.4])),
    normal_exponents=law_exponents(SpringDamper, damping=0.5),
    friction_exponents=law_exponents(ViscousCoulomb, damping=0.5),
)


def _pairs():
    flat = TwoPointRod(mu=0.5, phi0=0.0, vx0=0.5, vy0=-1.0, omega0=0.3, gravity=0.0)
    tilted = TwoPointRod(mu=0.8, phi0=0.3, vx0=-0.4, vy0=-1.2, omega0=0.2, gravity=0.0)  # one end closed
    jam = PainleveRod()  # Table 1's rod: an impact without collision (v_n = 0, the contact presses itself in)
    return [
        (flat, PRECLIK),
        (flat, CHAMPNEYS),
        (tilted, PRECLIK),
        (tilted, CHAMPNEYS),
        (jam, PRECLIK),
        (flat, PER_CONTACT),
        (flat, HUNT_CROSSLEY),
        (tilted, HUNT_CROSSLEY),
        (flat, KELVIN_VOIGT),
    ]


def test_the_batched_limits_are_the_scipy_process_s():
    pairs = _pairs()
    answers = compliant_limits([state for state, _ in pairs], [model for _, model in pairs])
    endings = []
    for (state, model), answer in zip(pairs, answers):
        outcome, velocity = compliant_limit(state, model)
        assert not isinstance(answer, Exception), answer
        batched, batched_velocity = answer
        endings.append(batched.ended)
        assert batched.ended == outcome.ended
        scale = np.abs(outcome.impulses).max()
        np.testing.assert_allclose(batched.impulses, outcome.impulses, rtol=0, atol=1e-10 * scale)
        np.testing.assert_allclose(batched.velocity, outcome.velocity, rtol=0, atol=1e-10)
        np.testing.assert_allclose(batched_velocity, velocity, rtol=0, atol=1e-10)
    assert set(endings) == {"opened", "rest"}
    # the open end of the tilted rod takes no impulse and keeps its velocity
    outcome, _ = answers[2]
    (open_end,) = np.flatnonzero((outcome.impulses == 0).all(axis=1))
    state = as_contact_state(pairs[2][0])
    assert state.gaps[open_end] > 0
    np.testing.assert_array_equal(outcome.velocity[open_end], state.contact_velocity[open_end])


def test_the_errors_are_the_scipy_process_s():
    above = TwoPointRod(mu=0.5, phi0=0.0, height=1.0, vy0=-1.0)  # nothing closed: no impact
    braking = ContactModel(normal=ClippedKelvinVoigt(stiffness=1.0, damping=1.0), friction=ViscousCoulomb(0.0))
    flat = TwoPointRod(mu=0.5, phi0=0.0, vx0=0.5, vy0=-1.0, gravity=0.0)
    for state, model in ((above, PRECLIK), (flat, braking)):
        with pytest.raises(ValueError) as expected:
            compliant_limit(state, model)
        (answer,) = compliant_limits([state], [model])
        assert isinstance(answer, ValueError) and str(answer) == str(expected.value)


def test_coulomb_and_memory_pairs_take_the_scipy_process_unchanged():
    flat = TwoPointRod(mu=0.8, phi0=0.3, vx0=-0.4, vy0=-1.2, omega0=0.2, gravity=0.0)  # one end closed
    coulomb = ContactModel(normal_exponents=law_exponents(SpringDamper, damping=0.5))  # γ_t ∝ α: Coulomb
    memory = ContactModel(normal=BilinearSpring(restitution=0.5), friction=ViscousCoulomb(0.0))
    answers = compliant_limits([flat, flat], [coulomb, memory])
    for model, answer in zip((coulomb, memory), answers):
        outcome, velocity = compliant_limit(flat, model)
        assert not isinstance(answer, Exception)
        np.testing.assert_array_equal(answer[0].impulses, outcome.impulses)
        np.testing.assert_array_equal(answer[1], velocity)
