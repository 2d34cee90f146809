"""The body on two legs on a slope (``TwoLeggedBody``): its Jacobians and ``J̇ v`` are the derivatives of its gaps,
it starts standing on both legs, gravity acts along and across the slope, and it holds still where friction can."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from regcontact.rigid import ContactState, force_acceleration
from regcontact.systems.legged_body import TwoLeggedBody


def _body(**start):
    return TwoLeggedBody(legs=((0.7, -1.2), (-0.9, -1.2)), mu=(0.3, 0.8), slope=np.radians(10), gyration=0.6, **start)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(5))
def test_jacobians_and_their_rates_are_the_derivatives_of_the_gaps(seed):
    rng = np.random.default_rng(seed)
    body = _body()
    q, v = jnp.asarray(rng.normal(size=3)), jnp.asarray(rng.normal(size=3))
    np.testing.assert_allclose(jax.jacfwd(body.gaps)(q), body.jacobians(q), atol=1e-15)
    rate = jax.jvp(body.jacobians, (q,), (v,))[1]
    np.testing.assert_allclose(jnp.einsum("kin,n->ki", rate, v), body.jacobian_rates(q, v), atol=1e-14)


def test_it_starts_on_both_legs_and_gravity_follows_the_slope():
    body = _body()
    q0, _ = body.initial_state()
    np.testing.assert_allclose(body.gaps(q0)[:, 0], 0.0, atol=1e-15)
    force = body.forces(q0, jnp.zeros(3), 0.0)
    np.testing.assert_allclose(force[:2], [np.sin(np.radians(10)), -np.cos(np.radians(10))], atol=1e-15)
    # the potential is the work of that force: dV/dq = −h
    np.testing.assert_allclose(jax.grad(body.potential_energy)(q0), -force, atol=1e-15)


def test_it_stands_where_friction_holds_it_and_slides_where_it_cannot():
    """At rest on the slope: every force solution sticks on both legs when μ exceeds tan β on both, and none
    sticks when friction is below tan 10° = 0.176 on both legs."""
    standing = list(force_acceleration(ContactState.from_system(_body())))
    assert standing and {s.modes for s in standing} == {("T", "T")}
    slippery = TwoLeggedBody(legs=((0.7, -1.2), (-0.9, -1.2)), mu=(0.1, 0.1), slope=np.radians(10))
    modes = {s.modes for s in force_acceleration(ContactState.from_system(slippery))}
    assert modes and all("T" not in m for m in modes)


def test_legs_at_different_heights_are_refused():
    with pytest.raises(ValueError, match="one height"):
        TwoLeggedBody(legs=((0.7, -1.2), (-0.9, -1.0)))
