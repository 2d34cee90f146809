"""``RadauIIA5(newton="hybrid")``: the split simplified Newton with a semismooth fallback (issue 11, point 6)."""

from __future__ import annotations

import equinox as eqx
import jax.numpy as jnp
import numpy as np
import pytest

import regcontact  # noqa: F401  (float64)
from regcontact.compliant import SOLVER_STATUSES, Controls, SolveSettings, solve
from regcontact.compliant.solvers import RadauIIA5, radau_iia5_tableau
from regcontact.compliant.termination import contact_time
from regcontact.contact import ContactModel
from regcontact.systems.rod import PainleveRod

ROD = PainleveRod()
CONTACT = ContactModel()


def test_transform_splits_the_collocation_matrix():
    """``T⁻¹ A⁻¹ T = diag(γ) ⊕ [[p, q], [−q, p]]`` with ``p ± i q`` the complex eigenvalues (Hairer & Wanner
    IV.8: ``α̂ = 2.6810828736277521``, ``β̂ = 3.0504301992474106``), and the complex system's shift ``p − i q``
    reproduces the real 2 × 2 block on ``u + i v``."""
    tab = radau_iia5_tableau()
    block = tab.transform_inv @ tab.A_inv @ tab.transform
    p, q = block[1, 1], block[1, 2]
    expected = np.array([[tab.gamma, 0, 0], [0, p, q], [0, -q, p]])
    np.testing.assert_allclose(block, expected, atol=1e-13)
    np.testing.assert_allclose([p, abs(q)], [2.6810828736277521, 3.0504301992474106], rtol=1e-14)
    u, v, hj = 0.3, -1.7, -5.0  # a scalar "n × n" system
    w = (tab.complex_shift - hj) * (u + 1j * v)
    np.testing.assert_allclose([w.real, w.imag], [(p - hj) * u + q * v, -q * u + (p - hj) * v], rtol=1e-14)


def test_unknown_newton_is_an_error():
    with pytest.raises(ValueError, match="newton"):
        RadauIIA5(newton="simplified")  # type: ignore[arg-type]


@eqx.filter_jit
def _table1_run(alpha, settings: SolveSettings):
    controls = Controls(rtol=jnp.asarray(1e-10), atol=jnp.asarray(1e-12), t_max=contact_time(ROD, alpha))
    return solve(ROD, CONTACT, alpha, controls, settings)


@pytest.mark.slow
@pytest.mark.parametrize("alpha", [1e3, 1e8, 1e12])
def test_hybrid_gives_the_default_force_integrals(alpha):
    """Table 1 rod at rtol 1e-10: the same integrals as the semismooth default to 1e-10, and α = 1e12 (where a
    simplified Newton alone stalls) finishes in as few steps."""
    default = _table1_run(jnp.asarray(alpha), SolveSettings(solver="RadauIIA5"))
    hybrid = _table1_run(jnp.asarray(alpha), SolveSettings(solver="RadauIIA5_hybrid"))
    assert SOLVER_STATUSES[int(hybrid.status)] == SOLVER_STATUSES[int(default.status)] == "successful"
    assert int(hybrid.num_accepted_steps) <= int(default.num_accepted_steps) + 10
    np.testing.assert_allclose(np.asarray(hybrid.force_integrals), np.asarray(default.force_integrals), atol=1e-10)
