"""Fig. 16: the two-legged body on the 10° slope, its leading-order cycle map and the event-driven run."""

import numpy as np
import pytest

from regcontact.figures._tumbling_body import cycle_multiplier, tumbling_body
from regcontact.rigid import DarbouxKellerImpact, event_driven
from regcontact.stability import tumbling_cycle

pytestmark = pytest.mark.slow


def test_the_slip_on_leg_1_lets_leg_2_fall_back_only_above_mu1_0_1():
    """S+F at rest: leg 2's normal acceleration changes sign at μ₁ = x₁/h = 0.1 (S+F consistent at rest below:
    the ambiguity of the caption); the slip of leg 1 accelerates."""
    for mu1, sign in ((0.099, 1.0), (0.101, -1.0), (0.11, -1.0)):
        cycle = tumbling_cycle(tumbling_body(mu1=mu1))
        assert np.sign(cycle.slide_normal) == sign and cycle.slide_slip > 0


@pytest.mark.slow
def test_the_body_rests_in_stick_and_grows_by_the_cycle_map_after_a_perturbation():
    """At rest it stays in TT; from ω₀ = −1e-3 the event-driven run (Darboux–Keller, r = 0) repeats FT, S+F with
    the rotation after each sticking impact of leg 2 multiplied by 1.679, 1.689, 1.719, … : the cycle map's
    1.6732 (leading order in the speed) to 0.5 % at the first cycle."""
    rest = event_driven(tumbling_body(omega0=0.0), 1.0, impact_law=DarbouxKellerImpact())
    assert rest.mode_sequence() == [(0.0, ("T", "T"))] and np.abs(rest.v).max() < 1e-12
    cycle = tumbling_cycle(tumbling_body())
    multiplier = cycle_multiplier(tumbling_body())
    assert multiplier == cycle.multiplier == pytest.approx(1.6732, abs=1e-4) and cycle.phases[0] == "S+F"
    run = event_driven(tumbling_body(), 1.3, impact_law=DarbouxKellerImpact())
    modes = [m for _, m in run.mode_sequence()]
    assert modes == [("F", "T"), ("S+", "F")] * 6
    after = [
        run.v[np.flatnonzero(run.times == e.time)[-1], 2] for e in run.events if e.kind == "impact" and e.contact == 1
    ]
    ratios = np.array(after[1:]) / np.array(after[:-1])
    assert len(ratios) >= 4 and np.all(ratios > 1.6)
    assert ratios[0] == pytest.approx(multiplier, rel=5e-3)
