"""Hunt–Crossley's limit impact against its closed form: ``w − ln(1 + w)`` (``w = c δ̇``) takes the same value at
touch-down and separation, so ``e`` depends on ``c v⁻`` alone (any ``k``, ``n``, mass); with a damping that grows
with α, the plastic limit and the compliant runs approaching it."""

import equinox as eqx
import jax.numpy as jnp
import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.special import lambertw

from regcontact.compliant import Controls, SolveSettings, solve
from regcontact.contact import ContactModel, HuntCrossley, ViscousCoulomb, law_exponents
from regcontact.rigid import compliant_limit_map, darboux_keller_map, limit_law
from regcontact.systems import ReducedSingleContact


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


def _growing(mu_exponent: float = 1.0) -> ContactModel:
    """``k ∝ α``, ``n = 3/2``, ``c ∝ √α``; friction ``γ_t ∝ α^mu_exponent``."""
    return ContactModel(
        HuntCrossley(1.0, 1.5, 0.5),
        ViscousCoulomb(1.0),
        law_exponents(HuntCrossley, damping=0.5),
        ViscousCoulomb(mu_exponent),
    )


@pytest.mark.slow
def test_a_growing_damping_has_the_plastic_darboux_keller_limit():
    """``c ∝ α^b``, ``b > 0``: the damping term alone, ``k c δⁿ (−ġ)``, whose impulse is a function of the
    penetration: the contact stops and stays (``e = 0``). With Coulomb friction during the impact the impulse
    follows Darboux–Keller's equations to the end of compression: Poisson's ``r = 0``, on random forms."""
    law = limit_law(_growing())
    assert law.friction == "coulomb" and law.scale_exponent == pytest.approx(0.6) and not law.has_spring
    rng = np.random.default_rng(3)
    for _ in range(6):
        factor = rng.normal(size=(2, 2))
        (A, B), (_, C) = factor @ factor.T + 0.1 * np.eye(2)
        mu, u, v = rng.uniform(0.1, 1.5), rng.normal(), -rng.uniform(0.3, 2.0)
        impact = compliant_limit_map(A, B, C, mu, u, v, law)
        plastic = darboux_keller_map(A, B, C, mu, u, v, 0.0, "poisson")
        assert impact.ended == "rest"
        np.testing.assert_allclose(
            [impact.u, impact.v, impact.normal_impulse, impact.tangential_impulse],
            [plastic.u, plastic.v, plastic.normal_impulse, plastic.tangential_impulse],
            atol=1e-8 * abs(v),
        )


@pytest.mark.slow
def test_compliant_runs_with_a_growing_damping_lose_their_restitution_as_alpha_to_the_minus_b():
    """At each α the run is Hunt–Crossley with ``c = 0.5 √α``: its restitution is the closed form at
    ``c v⁻ = 0.5 √α v⁻`` (whatever ``k``), and falls to the limit's ``e = 0`` as ``1/(c v⁻)``, order ``b = 1/2``."""
    speed = 0.8
    system = ReducedSingleContact(a=0.0, b=0.0, A=1.0, B=0.0, C=2.0, mu=0.0, slip0=0.4, normal_velocity0=-speed)
    model = _growing()
    settings = SolveSettings(events=("contact_open",), max_steps=20_000)
    run_at = eqx.filter_jit(lambda alpha: solve(system, model, alpha, Controls(t_max=50.0), settings))
    alphas = [1e2, 1e4]
    restitution = []
    for alpha in alphas:
        run = run_at(jnp.asarray(alpha))
        assert bool(run.ok) and run.status_name == "event_occurred", (alpha, run.status_name, run.check_name)
        restitution.append(float(run.state_end.v[1]) / speed)
        assert restitution[-1] == pytest.approx(_closed_form(0.5 * np.sqrt(alpha) * speed), rel=1e-6)
    assert -np.diff(np.log10(restitution))[0] / 2 == pytest.approx(0.5, abs=0.05)
