"""A rigid analysis given something that is not a body (a string, a number, a body's class in place of one) refuses
it in one line naming the argument and what it expects, before anything reads it."""

import numpy as np
import pytest

import regcontact as rc
import regcontact.rigid as rigid

Q, V = np.zeros(3), np.zeros(3)
STATE = "expected a ContactState or a system \\(an instance of an AbstractSystem subclass, e.g. PainleveRod\\(\\)\\)"
SYSTEM = "expected a system \\(an instance of an AbstractSystem subclass, e.g. PainleveRod\\(\\)\\)"

#: Each public function that takes a body: how to call it with ``body`` and the words its refusal starts with.
CALLS = {
    "ContactState.from_system": (lambda body: rigid.ContactState.from_system(body), "system", SYSTEM),
    "rigid_references": (lambda body: rigid.rigid_references(body), "system", STATE),
    "darboux_keller": (lambda body: rigid.darboux_keller(body), "state", STATE),
    "force_acceleration": (lambda body: rigid.force_acceleration(body), "state", STATE),
    "impulse_velocity": (lambda body: rigid.impulse_velocity(body), "state", STATE),
    "time_stepping": (lambda body: rigid.time_stepping(body, 0.1), "state", STATE),
    "iwc_cases": (lambda body: rigid.iwc_cases(body), "state", STATE),
    "compliant_limit": (lambda body: rigid.compliant_limit(body, rc.ContactModel()), "state", STATE),
    "touchdown_lead": (lambda body: rigid.touchdown_lead(body, rc.ContactModel()), "state", STATE),
    "jam_reference": (lambda body: rigid.jam_reference(body), "system", SYSTEM),
    "crossing_reference": (lambda body: rigid.crossing_reference(body), "system", SYSTEM),
    "rigid_slip": (lambda body: rigid.rigid_slip(body), "system", SYSTEM),
    "stick_jump": (lambda body: rigid.stick_jump(body, Q, V), "system", SYSTEM),
    "crossing_impact": (lambda body: rigid.crossing_impact(body, Q, V), "system", SYSTEM),
    "slip_sign": (lambda body: rigid.slip_sign(body, Q, V), "system", SYSTEM),
    "g_spot_linearisation": (lambda body: rigid.g_spot_linearisation(body, Q, V), "system", SYSTEM),
    "spatial_slip_problem": (lambda body: rigid.spatial_slip_problem(body, Q, V), "system", SYSTEM),
    "event_driven": (lambda body: rigid.event_driven(body, 1.0), "system", SYSTEM),
    "moreau_jean": (lambda body: rigid.moreau_jean(body, 1.0, 0.1), "system", SYSTEM),
    "gholami_time_stepping": (lambda body: rigid.gholami_time_stepping(body, 1.0, 0.1, 0.1), "system", SYSTEM),
}


@pytest.mark.parametrize("function", CALLS)
def test_a_string_for_a_body_is_refused_by_name(function):
    call, name, expected = CALLS[function]
    with pytest.raises(TypeError, match=f"^{name} = 'rod': {expected}, not a str$"):
        call("rod")


@pytest.mark.parametrize("function", CALLS)
def test_a_number_for_a_body_is_refused_by_name(function):
    call, name, expected = CALLS[function]
    with pytest.raises(TypeError, match=f"^{name} = 3.0: {expected}, not a float$"):
        call(3.0)


@pytest.mark.parametrize("function", CALLS)
def test_a_body_s_class_for_a_body_says_to_call_it(function):
    call, name, expected = CALLS[function]
    with pytest.raises(TypeError, match=f"^{name} = PainleveRod: {expected}, not the class itself \\(call it\\)$"):
        call(rc.PainleveRod)
