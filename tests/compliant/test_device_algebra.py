"""The field's small products as a GPU runs them: products and a sum instead of tiny batched matrix products
(``docs/performance.md``, GPU). On the CPU the matrix products stay, so these tests run the GPU's branch here by
making ``jax.lax.platform_dependent`` take its default."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from regcontact.compliant import Controls, SolveSettings, batch_agreement, dynamics, solve
from regcontact.compliant.termination import contact_time
from regcontact.contact import ContactModel
from regcontact.systems.rod import PainleveRod
from regcontact.systems.two_point_rod import TwoPointRod

RNG = np.random.default_rng(7)


def _default_branch(*args, default, **branches):
    return default(*args)


def test_the_fields_products_agree_with_the_matrix_products(monkeypatch):
    jacobians, v, forces = (jnp.asarray(RNG.normal(size=shape)) for shape in ((2, 2, 3), (3,), (2, 2)))
    product = dynamics._times_velocity(jacobians, v), dynamics._transpose_times(jacobians, forces)
    monkeypatch.setattr(jax.lax, "platform_dependent", _default_branch)
    fused = dynamics._times_velocity(jacobians, v), dynamics._transpose_times(jacobians, forces)
    for a, b in zip(product, fused):
        np.testing.assert_allclose(a, b, rtol=1e-14, atol=1e-14)


@pytest.mark.slow
@pytest.mark.parametrize("system", [PainleveRod(), TwoPointRod()], ids=["rod", "two-point rod"])
def test_a_solve_with_the_gpu_products_keeps_the_batch_promise(system, monkeypatch):
    """The same runs through either form of the products: integrals within what a batch promises across
    compilations on a GPU (:func:`batch_agreement`), and in fact to round-off; the same number of steps."""
    contact, settings = ContactModel(), SolveSettings(events=("contact_open",))
    alphas = [jnp.asarray(alpha) for alpha in (1e3, 1e6, 1e9)]
    controls = [Controls(t_max=contact_time(system, alpha)) for alpha in alphas]

    def runs():
        """One compilation for every α (α and the end time are arguments)."""
        compiled = jax.jit(lambda a, c: solve(system, contact, a, c, settings))
        return [compiled(alpha, control) for alpha, control in zip(alphas, controls)]

    products = runs()
    monkeypatch.setattr(jax.lax, "platform_dependent", _default_branch)
    jax.clear_caches()  # diffrax's own jitted solve would otherwise reuse the first trace
    fused = runs()
    jax.clear_caches()
    rtol, atol = batch_agreement("RadauIIA5", 1e-10, 1e-12, backend="gpu")
    for a, b in zip(products, fused):
        assert bool(a.ok) and bool(b.ok)
        np.testing.assert_allclose(b.force_integrals, a.force_integrals, rtol=rtol, atol=atol)
        np.testing.assert_allclose(b.force_integrals, a.force_integrals, rtol=1e-9, atol=1e-15)
        assert abs(int(a.num_steps) - int(b.num_steps)) <= 2
