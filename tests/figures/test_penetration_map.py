"""Preclik & Rüde Sec. 5.2 with an initial penetration δ = c α^(−p): the integrals tend to
(0, 0) when the start lies on the lift-off side of the fast-scale saddle, c α^(1−p) < c* = λ_S/k₀, and to the
sticking impulse Λ (an impact without collision) beyond it."""

import numpy as np
import pytest

from regcontact.figures._penetration_map import LIMITS, limit_classes, penetration_map

pytestmark = pytest.mark.slow


def test_the_saddle_decides_between_lift_off_and_an_impact_without_collision():
    data = penetration_map(coefficients=(1.0, 10.0), powers=(1.0, 1.5))
    assert data["ok"].all()
    threshold = float(data["sliding_force"][0] / data["stiffness"])
    np.testing.assert_allclose(threshold, 7.5545, atol=1e-4)  # Sec. 2.2's sliding force solution
    classes = [[LIMITS[k] for k in row] for row in limit_classes(data)]
    assert classes == [
        ["→ (0, 0): the claim holds", "→ (0, 0): the claim holds"],  # c = 1 < c*
        ["→ Λ: impact without collision", "→ (0, 0): the claim holds"],  # c = 10 > c*: only p > 1 holds
    ]
    # The claim's side converges at order 1/2 for p = 1 (the initial force's impulse over a contact time).
    size = np.max(np.abs(data["integrals"][0, 0]), axis=-1)
    slope = np.polyfit(np.log10(data["alpha"][0, 0]), np.log10(size), 1)[0]
    assert -0.55 < slope < -0.45
