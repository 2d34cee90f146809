"""The compliant vector field: Newton–Euler form and its energy balance.

With ``E = T + V_applied + ½ k min(g_n, 0)²``, the vector field must give
``dE/dt = γ_n min(ġ_n, 0)² · (−1)[g_n ≤ 0] + λ_t ġ_t``: zero without damping and friction, never positive
with them. Checked pointwise with automatic differentiation, and along integrated trajectories with contact
switches.
"""

import diffrax
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from regcontact.compliant.dynamics import CompliantSystem, contact_forces, flat_vector_field
from regcontact.contact import ContactModel, SpringDamper, ViscousCoulomb
from regcontact.systems.rod import PainleveRod

ROD = PainleveRod(mass=1.2, length=1.5, gravity=9.81, torque=0.3, force_x=-0.2, mu=0.8)


def total_energy(y, args: CompliantSystem):
    q, v = y[:3], y[3:6]
    penetration = jnp.minimum(args.system.gap(q)[0], 0.0)
    return args.system.energy(q, v) + 0.5 * args.normal.stiffness * penetration**2


def energy_rate(y, args):
    return jax.grad(total_energy)(y, args) @ flat_vector_field(0.0, y, args)


def random_states(count, seed):
    """States around the contact: small gaps of both signs, velocities of both signs."""
    rng = np.random.default_rng(seed)
    y = np.zeros((count, 8))
    y[:, 2] = rng.uniform(0.2, 1.4, count)
    y[:, 0] = 0.5 * ROD.length * np.cos(y[:, 2]) + rng.normal(0, 0.1, count)
    y[:, 1] = 0.5 * ROD.length * np.sin(y[:, 2]) + rng.normal(0, 1e-3, count)
    y[:, 3:6] = rng.normal(0, 1.0, (count, 3))
    return jnp.asarray(y)


def test_vector_field_is_newton_euler():
    args = CompliantSystem(ROD, SpringDamper(1e3, 10.0), ViscousCoulomb(50.0))
    for y in random_states(10, 1):
        q, v = y[:3], y[3:6]
        lam = contact_forces(args, q, v)[0]
        M = ROD.mass_matrix()
        rhs = ROD.applied_force() + ROD.jacobian(q).T @ lam
        dy = flat_vector_field(0.0, y, args)
        np.testing.assert_allclose(dy[:3], v)
        np.testing.assert_allclose(M @ dy[3:6], rhs, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(dy[6:], lam)


@pytest.mark.slow
def test_energy_is_conserved_pointwise_without_damping_or_friction():
    args = CompliantSystem(ROD, SpringDamper(1e4, 0.0), ViscousCoulomb(0.0))
    rates = jax.vmap(lambda y: energy_rate(y, args))(random_states(200, 2))
    scale = 1e4 * 1e-3 * 1.0  # k · |g| · |v|: the size of the spring's power
    assert np.max(np.abs(rates)) < 1e-12 * scale


@pytest.mark.slow
def test_energy_rate_is_minus_the_dissipation_with_damping_and_friction():
    args = CompliantSystem(ROD, SpringDamper(1e4, 30.0), ViscousCoulomb(80.0))
    states = random_states(300, 3)

    def dissipation(y):
        q, v = y[:3], y[3:6]
        gn, gt = ROD.gap(q)[0], (ROD.jacobian(q) @ v)
        lam = contact_forces(args, q, v)[0]
        damper = jnp.where(gn <= 0, 30.0 * jnp.minimum(gt[0], 0.0) ** 2, 0.0)
        return damper - lam[1] * gt[1]

    rates = jax.vmap(lambda y: energy_rate(y, args))(states)
    losses = jax.vmap(dissipation)(states)
    assert np.all(np.asarray(losses) >= 0)
    np.testing.assert_allclose(rates, -losses, rtol=1e-10, atol=1e-9)
    assert np.any(np.asarray(losses) > 1.0), "the sample must contain dissipating states"


def _bouncing_energy(args: CompliantSystem):
    """Energy along a rod dropped onto the ground, rotating: many contact openings and closings."""
    rod = args.system
    phi0 = 0.6
    y0 = jnp.array(
        [0.5 * rod.length * np.cos(phi0), 0.5 * rod.length * np.sin(phi0) + 0.05, phi0, 0.3, -1.0, 2.0, 0, 0]
    )
    ts = jnp.linspace(0.0, 2.0, 401)
    sol = diffrax.diffeqsolve(
        diffrax.ODETerm(flat_vector_field),
        diffrax.Kvaerno5(),
        0.0,
        2.0,
        None,
        y0,
        args,
        saveat=diffrax.SaveAt(ts=ts),
        stepsize_controller=diffrax.PIDController(rtol=1e-10, atol=1e-12),
        max_steps=200_000,
    )
    gaps = jax.vmap(lambda y: rod.gap(y[:3])[0])(sol.ys)
    energies = jax.vmap(lambda y: total_energy(y, args))(sol.ys)
    return np.asarray(gaps), np.asarray(energies)


def _switches(gaps):
    return int(np.sum(np.diff(np.sign(gaps)) != 0))


@pytest.mark.slow
def test_energy_is_kept_through_contact_switches_without_dissipation():
    gaps, energies = _bouncing_energy(CompliantSystem(ROD, SpringDamper(1e4, 0.0), ViscousCoulomb(0.0)))
    assert _switches(gaps) >= 4
    assert np.max(np.abs(energies - energies[0])) < 1e-6 * abs(energies[0])


@pytest.mark.slow
def test_energy_never_grows_through_contact_switches_with_dissipation():
    gaps, energies = _bouncing_energy(CompliantSystem(ROD, SpringDamper(1e4, 20.0), ViscousCoulomb(50.0)))
    assert _switches(gaps) >= 2
    assert np.all(np.diff(energies) <= 1e-7 * abs(energies[0]))
    assert energies[-1] < energies[0] - 0.1, "friction and damping must have dissipated energy"


@pytest.mark.parametrize("alpha", [1.0, 1e3, 1e6])
def test_stiffness_scaling_uses_each_exponent(alpha):
    model = ContactModel(
        normal=SpringDamper(2.0, 3.0),
        friction=ViscousCoulomb(5.0),
        normal_exponents=SpringDamper(1.0, 0.5),
        friction_exponents=ViscousCoulomb(2.0),
    )
    normal, friction = model.at_stiffness(alpha)
    assert float(normal.stiffness) == pytest.approx(2.0 * alpha)
    assert float(normal.damping) == pytest.approx(3.0 * alpha**0.5)
    assert float(friction.damping) == pytest.approx(5.0 * alpha**2)
