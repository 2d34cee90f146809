"""Hunt–Crossley's limit impact against its closed form: ``w − ln(1 + w)`` (``w = c δ̇``) takes the same value at
touch-down and separation, so ``e`` depends on ``c v⁻`` alone (any ``k``, ``n``, mass)."""

import numpy as np
import pytest
from scipy.special import lambertw

from regcontact.contact import ContactModel, HuntCrossley, ViscousCoulomb
from regcontact.rigid import compliant_limit_map, limit_law


def _closed_form(product: float) -> float:
    """``e`` for ``c v⁻ = product``: ``1 + w⁺ = −W₀(−(1 + C) e^{−(1+C)})``, ``e = −w⁺/C``."""
    w_out = -1.0 - lambertw(-(1.0 + product) * np.exp(-(1.0 + product)), 0).real
    return -w_out / product


@pytest.mark.parametrize(("damping", "speed", "mass_inverse"), [(0.1, 1.0, 1.0), (0.5, 2.0, 0.7), (2.0, 2.5, 1.3)])
def test_limit_restitution_is_the_closed_form(damping, speed, mass_inverse):
    law = limit_law(ContactModel(HuntCrossley(3.0, 1.5, damping), ViscousCoulomb(0.0)))
    impact = compliant_limit_map(1.0, 0.0, mass_inverse, 0.0, 0.0, -speed, law)
    assert impact.v / speed == pytest.approx(_closed_form(damping * speed), rel=1e-6)
