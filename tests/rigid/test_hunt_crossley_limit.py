"""Hunt–Crossley's limit impact against its closed form: ``w − ln(1 + w)`` (``w = c δ̇``) takes the same value at
touch-down and separation, so ``e`` depends on ``c v⁻`` alone (any ``k``, ``n``, mass)."""

import numpy as np
import pytest
from scipy.integrate import solve_ivp
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


def _integrated(stiffness: float, shape: float, damping: float, mass: float, speed: float) -> float:
    """``e`` from ``m ẍ = −k xⁿ (1 + c ẋ)`` (``x`` the penetration) integrated by scipy to separation."""

    def field(_t, y):
        return [y[1], -stiffness * max(y[0], 0.0) ** shape * (1.0 + damping * y[1]) / mass]

    def separated(_t, y):
        return y[0]

    separated.terminal, separated.direction = True, -1
    run = solve_ivp(field, [0.0, 1e4], [0.0, speed], events=separated, method="DOP853", rtol=1e-12, atol=1e-14)
    return -run.y_events[0][0][1] / speed


@pytest.mark.parametrize(("shape", "product"), [(1.5, 0.3), (1.0, 4.0), (2.0, 20.0)])
def test_closed_form_against_an_integration(shape, product):
    """The closed form, independent of ``n``, ``k`` and the mass; ``e·c v⁻ → 1`` for a large damping."""
    found = _integrated(2.0, shape, product / 1.5, 0.8, 1.5)
    assert found == pytest.approx(_closed_form(product), rel=1e-9)
    if product >= 20.0:
        assert found * product == pytest.approx(1.0, rel=1e-6)
