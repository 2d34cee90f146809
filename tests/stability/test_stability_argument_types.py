"""The stability analyses given something that is not what they analyse refuse it in one line naming the argument
and what it expects."""

import pytest

import regcontact as rc
import regcontact.stability as stability
from regcontact.systems.legged_body import TwoLeggedBody

STATE = "expected a ContactState or a system \\(an instance of an AbstractSystem subclass, e.g. PainleveRod\\(\\)\\)"


@pytest.mark.parametrize(("body", "shown", "kind"), [("rod", "'rod'", "a str"), (None, "None", "a NoneType")])
def test_tumbling_cycle_of_something_that_is_not_a_body_is_refused_by_name(body, shown, kind):
    with pytest.raises(TypeError, match=f"^state = {shown}: {STATE}, not {kind}$"):
        stability.tumbling_cycle(body)


def test_tumbling_cycle_of_a_body_s_class_says_to_call_it():
    with pytest.raises(TypeError, match=f"^state = TwoLeggedBody: {STATE}, not the class itself \\(call it\\)$"):
        stability.tumbling_cycle(TwoLeggedBody)


@pytest.mark.parametrize(
    ("function", "expected"),
    [
        (stability.slip_equilibrium, "a FastScaleSystem"),
        (stability.stick_equilibrium, "a FastScaleSystem"),
        (stability.slip_slip_equilibrium, "a TwoContactSystem"),
    ],
)
def test_an_equilibrium_of_a_body_instead_of_its_fast_scale_system_is_refused(function, expected):
    with pytest.raises(TypeError, match=f"^system = PainleveRod\\(.*\\): expected {expected}, not a PainleveRod$"):
        function(rc.PainleveRod())
