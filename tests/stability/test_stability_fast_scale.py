"""Fast-scale normal dynamics (Champneys & Várkonyi Sec. 4): equilibria, eigenvalues, trajectories."""

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import regcontact  # noqa: F401  (float64)
from regcontact.stability import (
    FastScaleSystem,
    autodiff_eigenvalues,
    equilibrium_type,
    fast_trajectories,
    fast_vector_field,
    normal_force,
    painleve_parameters,
    slip_equilibrium,
    slip_vector_field,
    stick_equilibrium,
    stick_vector_field,
)

CONTACT_LAWS = [(-1.0, -1.0), (-4.0, -0.3), (-0.5, -2.5)]


def test_contact_law_eqs_30_31():
    """max(kỹ + qṽ, 0): zero in the passive quadrant and beyond the line kỹ + qṽ = 0, linear inside."""
    y = jnp.array([-1.0, 0.5, 0.5, -0.2, 2.0])
    v = jnp.array([0.0, 0.5, -1.0, 0.1, -1.0])
    np.testing.assert_allclose(normal_force(y, v, -1.0, -1.0), [1.0, 0.0, 0.5, 0.1, 0.0])


@pytest.mark.slow
@pytest.mark.parametrize(("k", "q"), CONTACT_LAWS)
@pytest.mark.parametrize(
    ("b", "B", "mu", "slip_sign"),
    [(-1.0, 0.5, 0.5, 1.0), (1.0, 0.5, 3.0, 1.0), (-0.4, -0.5, 0.7, -1.0), (2.0, -0.5, 3.0, -1.0)],
)
def test_slip_eigenvalues_formula_equals_autodiff(k, q, b, B, mu, slip_sign):
    """Sec. 4.3: [[0, 1], [p k, p q]] at the slip equilibrium, against jax.jacfwd of the vector field."""
    system = FastScaleSystem(a=0.3, b=b, A=1.0, B=B, C=1.0, mu=mu, slip_sign=slip_sign, k=k, q=q)
    equilibrium = slip_equilibrium(system)
    assert bool(equilibrium.exists)
    np.testing.assert_allclose(
        slip_vector_field(0.0, jnp.stack([equilibrium.penetration, 0.0]), system), 0.0, atol=1e-14
    )
    for field in (slip_vector_field, fast_vector_field):
        np.testing.assert_allclose(
            autodiff_eigenvalues(field, system, equilibrium.penetration),
            equilibrium.eigenvalues,
            rtol=1e-12,
            atol=1e-14,
        )
    # Stable iff p > 0; a saddle iff p < 0.
    p = float(system.slip_parameter())
    assert (equilibrium_type(equilibrium.eigenvalues) == "saddle") == (p < 0)
    assert np.all(np.asarray(equilibrium.eigenvalues).real < 0) == (p > 0)


STICK_CASES = [  # II(iii) inside the cone, II(iv), II(iv) with Fig. 9's A, B, C, II(ii) inside the cone
    (6.0, 1.0, 1.0, 0.5, 1.0, 3.0),
    (0.2, -1.0, 1.0, 0.5, 1.0, 0.8),
    (-0.05, -1.0, 1.1, 0.3, 0.1, 0.5),
    (-4.0, 2.0, 3.0, -2.0, 1.5, 4.0),
]


@pytest.mark.parametrize(("k", "q"), CONTACT_LAWS)
@pytest.mark.parametrize(("a", "b", "A", "B", "C", "mu"), STICK_CASES)
def test_stick_eigenvalues_formula_equals_autodiff(k, q, a, b, A, B, C, mu):
    """Sec. 4.2 with the gain K = (AC − B²)/A, against jax.jacfwd of the stick and of the u = 0 field."""
    system = FastScaleSystem(a=a, b=b, A=A, B=B, C=C, mu=mu, slip_sign=0.0, k=k, q=q)
    equilibrium = stick_equilibrium(system)
    assert bool(equilibrium.exists)
    z0 = jnp.stack([equilibrium.penetration, 0.0])
    np.testing.assert_allclose(stick_vector_field(0.0, z0, system), 0.0, atol=1e-13)
    np.testing.assert_allclose(fast_vector_field(0.0, z0, system), 0.0, atol=1e-13)
    for field in (stick_vector_field, fast_vector_field):
        np.testing.assert_allclose(
            autodiff_eigenvalues(field, system, equilibrium.penetration),
            equilibrium.eigenvalues,
            rtol=1e-12,
            atol=1e-14,
        )
    assert np.all(np.asarray(equilibrium.eigenvalues).real < 0)  # stick is normally stable


def test_paper_stick_gain_is_the_normal_force_not_the_gain():
    """Sec. 4.2 prints K = (aB − Ab)/(AC − B²); the Jacobian's gain is (AC − B²)/A. They differ in general."""
    system = FastScaleSystem(a=6.0, b=1.0, A=1.0, B=0.5, C=1.0, mu=3.0, slip_sign=0.0)
    jacobian = np.asarray(
        jax.jacfwd(lambda z: stick_vector_field(0.0, z, system))(
            jnp.stack([stick_equilibrium(system).penetration, 0.0])
        )
    )
    gain = jacobian[1, 1] / float(system.q)
    np.testing.assert_allclose(gain, (1.0 * 1.0 - 0.25) / 1.0, rtol=1e-14)
    printed = (6.0 * 0.5 - 1.0 * 1.0) / (1.0 * 1.0 - 0.25)
    np.testing.assert_allclose(printed, float(stick_equilibrium(system).normal_force), rtol=1e-14)
    assert abs(gain - printed) > 1.0


def test_cone_edge_field_is_continuous_and_equals_slip_beyond_it():
    """At u = 0 the capped stick force equals the slip force on the cone line λ_N = a/k⁺ and beyond it."""
    system = FastScaleSystem(a=6.0, b=1.0, A=1.0, B=0.5, C=1.0, mu=3.0, slip_sign=0.0)
    slipping = eqx.tree_at(lambda s: s.slip_sign, system, jnp.array(1.0))
    k_plus = float(painleve_parameters(1.0, 0.5, 1.0, 3.0).k_plus)
    edge = 6.0 / k_plus  # λ_N on the cone line
    for force in (edge, 0.9 * edge, 0.3 * edge):
        z = jnp.array([-force + 0.2, -0.2])  # λ_N = −ỹ − ṽ = force
        np.testing.assert_allclose(fast_vector_field(0.0, z, system), slip_vector_field(0.0, z, slipping), atol=1e-13)
    z = jnp.array([-1.5 * edge, 0.0])
    np.testing.assert_allclose(fast_vector_field(0.0, z, system), stick_vector_field(0.0, z, system), atol=1e-13)


@pytest.mark.slow
def test_trajectories_follow_the_table_3_outcomes():
    """k = q = −1, u > 0: I(iv) converges to the slip equilibrium, I(i) and I(vi) have no equilibrium and leave
    upwards (lift-off) and downwards (IWC), I(iii) splits at the saddle's stable manifold."""
    cases = {  # b, μ with A = C = 1, B = 0.5
        "I(iv)": (-1.0, 0.5),
        "I(i)": (1.0, 0.5),
        "I(vi)": (-1.0, 3.0),
        "I(iii)": (1.0, 3.0),
    }
    starts = jnp.array([[0.5, 0.0], [-3.0, 0.0], [-1.0, 1.5], [-2.5, -1.0]])
    systems, initial = [], []
    for b, mu in cases.values():
        for z0 in starts:
            systems.append(FastScaleSystem(a=0.0, b=b, A=1.0, B=0.5, C=1.0, mu=mu, slip_sign=1.0))
            initial.append(z0)
    batch = jax.tree_util.tree_map(lambda *x: jnp.stack(x), *systems)
    paths = np.asarray(
        fast_trajectories(batch, jnp.stack(initial), jnp.ones(len(initial)), jnp.array(60.0), jnp.array(50.0))
    )
    last = [path[np.isfinite(path[:, 0])][-1] for path in paths]
    outcome = lambda z: "lift-off" if z[0] > 40 else ("IWC" if z[0] < -40 else "rest")  # noqa: E731
    outcomes = [outcome(z) for z in last]
    assert outcomes[0:4] == ["rest"] * 4
    np.testing.assert_allclose(
        np.array(last[0:4]), [[float(slip_equilibrium(systems[0]).penetration), 0.0]] * 4, atol=1e-6
    )
    assert outcomes[4:8] == ["lift-off"] * 4
    assert outcomes[8:12] == ["IWC"] * 4
    # Saddle at ỹ₀ = b/p⁺ = −2 for k = −1: starts on either side of it separate.
    assert set(outcomes[12:16]) == {"lift-off", "IWC"}
    assert outcomes[12] == "lift-off" and outcomes[13] == "IWC"
