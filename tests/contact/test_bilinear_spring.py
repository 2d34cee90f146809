"""Stronge's bilinear spring as a law: its branches, the energy it returns, its checks and its impact scale."""

import jax.numpy as jnp
import numpy as np
import pytest

from regcontact._argument_checks import ArgumentError
from regcontact.contact import BilinearSpring, law_exponents


def test_unloading_returns_r_squared_of_the_energy_and_leaves_a_residual_penetration():
    """Loading stores ½ k δ_max², the unloading line k/r² returns r² of it and ends at δ_max (1 − r²); the force is
    continuous at the peak and the stored energy is the integral of the unloading force."""
    k, r, peak = 3.0, 0.6, 0.8
    law = BilinearSpring(k, r)
    assert float(law.force(-peak, -1.0, 0.0)) == pytest.approx(k * peak)  # loading: a new peak
    assert float(law.force(-peak, 1.0, peak)) == pytest.approx(k * peak)  # the turn: continuous
    residual = peak * (1 - r**2)
    assert float(law.force(-residual, 1.0, peak)) == pytest.approx(0.0, abs=1e-15)
    assert float(law.force(-0.5 * residual, 1.0, peak)) == 0.0  # below the residual: no force, no pull
    assert float(law.elastic_energy(-peak)) == pytest.approx(0.5 * k * peak**2)
    assert float(law.stored_energy(-peak, peak)) == pytest.approx(r**2 * 0.5 * k * peak**2)
    depths = np.linspace(residual, peak, 2001)
    forces = np.asarray(law.force(-jnp.asarray(depths), 0.0, peak))
    integral = float(np.sum(0.5 * (forces[1:] + forces[:-1]) * np.diff(depths)))
    assert integral == pytest.approx(float(law.stored_energy(-peak, peak)), rel=1e-6)
    assert float(law.force(0.1, -1.0, peak)) == 0.0  # open


def test_the_memoryless_call_refuses():
    """Without a peak the law cannot unload: the call refuses rather than answer as an elastic spring."""
    with pytest.raises(TypeError, match="deepest penetration"):
        BilinearSpring(1.0, 0.5)(jnp.asarray(-0.1), jnp.asarray(0.0))


@pytest.mark.parametrize("restitution", [0.0, 1.5, -0.2])
def test_restitution_outside_zero_one_is_refused(restitution):
    with pytest.raises(ArgumentError, match="restitution"):
        BilinearSpring(1.0, restitution)


def test_impact_scale():
    """k ∝ α^a: the spring's scale a/2, the law its own limit; a restitution scaled with α is refused."""
    law = BilinearSpring(2.0, 0.5)
    scale = law.impact_scale(law_exponents(BilinearSpring, stiffness=1.5))
    assert scale.exponent == 0.75 and scale.has_spring and scale.law is law
    assert law.impact_rates([4.0], 1.0) == [pytest.approx(np.sqrt(8.0))]
    with pytest.raises(ValueError, match="fixed restitution"):
        law.impact_scale(law_exponents(BilinearSpring, restitution=1.0))
