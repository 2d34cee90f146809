"""The spatial contact and the 3D slender rod, checked against Champneys & Várkonyi Eqs. 39, 42–51, a Newton–Euler
model of the rod, autodiff of its gaps, and the planar rod."""

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from regcontact.compliant import Controls, sampled_run, solve
from regcontact.compliant.dynamics import CompliantState, CompliantSystem, vector_field
from regcontact.compliant.termination import contact_time
from regcontact.contact import ContactModel, ViscousCoulomb, friction_disk
from regcontact.systems import check_system, spatial_contact_space_form
from regcontact.systems.reduced_two_contact import contact_space_form
from regcontact.systems.rod import PainleveRod
from regcontact.systems.spatial_rod import SpatialRod, painleve_friction, spatial_rod_form

RNG = np.random.default_rng(20)


def _random_state(rod: SpatialRod):
    """A state of the rod in contact with random angles, rates and slip."""
    theta, psi = RNG.uniform(0.1, 1.4), RNG.uniform(-math.pi, math.pi)
    rates = RNG.normal(size=2)
    return SpatialRod(
        mass=rod.mass,
        half_length=rod.half_length,
        gyration=rod.gyration,
        gravity=rod.gravity,
        mu=rod.mu,
        theta0=theta,
        psi0=psi,
        slip0=RNG.normal(size=2),
        theta_rate0=rates[0],
        psi_rate0=rates[1],
    ).initial_state()


ROD = SpatialRod(mass=1.3, half_length=0.8, gyration=0.37, gravity=9.81, mu=0.7)


@pytest.mark.slow
def test_the_rod_is_a_valid_spatial_system_whose_kinematics_are_its_gaps_derivatives():
    check_system(ROD)
    for _ in range(5):
        q, v = _random_state(ROD)
        assert np.allclose(ROD.gaps(q)[0], 0.0, atol=1e-15)  # starts with the end at the origin
        np.testing.assert_allclose(ROD.jacobians(q)[0], jax.jacfwd(lambda x: ROD.gaps(x)[0])(q), atol=1e-15)
        _, rate = jax.jvp(lambda x: ROD.jacobians(x)[0] @ v, (q,), (v,))
        np.testing.assert_allclose(ROD.jacobian_rates(q, v)[0], rate, atol=1e-13)


@pytest.mark.slow
def test_the_equations_of_motion_are_the_euler_lagrange_equations_of_the_kinetic_energy():
    """``M v̇ = h`` in free flight is Lagrange's equation of ``T = ½ m|ṙ|² + ½ I (θ̇² + cos²θ ψ̇²)``, ``V = m g y``."""

    def lagrangian(q, v):
        return 0.5 * v @ ROD.mass_matrix(q) @ v - ROD.potential_energy(q)

    for _ in range(5):
        q, v = _random_state(ROD)
        # d/dt ∂L/∂v = ∂L/∂q  ⇒  M v̇ + (∂²L/∂v∂q) v = ∂L/∂q
        mixed = jax.jacfwd(jax.grad(lagrangian, argnums=1), argnums=0)(q, v)
        h = jax.grad(lagrangian, argnums=0)(q, v) - mixed @ v
        np.testing.assert_allclose(ROD.forces(q, v), h, atol=1e-12)


def _newton_euler_end_acceleration(rod: SpatialRod, q, v, force):
    """The contact end's acceleration of a free slender rod under gravity and a force at the end, by Newton–Euler
    with vectors only (no generalised coordinates): ``r̈ = F/m + g``, ``I ω̇ = l d × F`` (no spin about the axis, so
    ``ω ⊥ d`` stays), ``P̈ = r̈ + l(ω̇ × d + ω × (ω × d))``."""
    theta, psi, theta_rate, psi_rate = (float(x) for x in (q[3], q[4], v[3], v[4]))
    m, l, inertia, g = (float(x) for x in (rod.mass, rod.half_length, rod.inertia, rod.gravity))
    d = np.array([math.cos(theta) * math.cos(psi), math.cos(theta) * math.sin(psi), -math.sin(theta)])
    d_rate = np.array(
        [
            -math.sin(theta) * math.cos(psi) * theta_rate - math.cos(theta) * math.sin(psi) * psi_rate,
            -math.sin(theta) * math.sin(psi) * theta_rate + math.cos(theta) * math.cos(psi) * psi_rate,
            -math.cos(theta) * theta_rate,
        ]
    )
    omega = np.cross(d, d_rate)  # the angular velocity normal to the axis: ḋ = ω × d
    omega_rate = np.cross(l * d, force) / inertia
    centre = force / m + np.array([0.0, 0.0, -g])
    return centre + l * (np.cross(omega_rate, d) + np.cross(omega, np.cross(omega, d)))


def test_the_contact_space_form_is_the_newton_euler_rods():
    """``g̈ = (b, a) + [[C, Bᵀ], [B, A]] λ`` from the system's M, h, W, Ẇv equals Newton–Euler's end acceleration
    (reordered to (normal, x₁, x₂)) for random states and contact forces."""
    for _ in range(5):
        q, v = _random_state(ROD)
        form = spatial_contact_space_form(ROD, q, v)
        delassus = np.block([[np.array([[form.C]]), np.asarray(form.B)[None]], [np.asarray(form.B)[:, None], form.A]])
        free = np.concatenate([[form.b], form.a])
        for _ in range(3):
            force = RNG.normal(size=3)  # (λ_n, λ_T1, λ_T2)
            spatial = np.array([force[1], force[2], force[0]])  # the force on the end in (x₁, x₂, y)
            expected = _newton_euler_end_acceleration(ROD, q, v, spatial)
            np.testing.assert_allclose(free + delassus @ force, expected[[2, 0, 1]], atol=1e-12)


def test_the_contact_space_form_is_eqs_42_to_50_with_eq_43_corrected():
    """The uniform rod (``ρ² = l²/3``, the factor 3) against the printed Eqs. 42, 44–50 term by term; Eq. 43 as
    printed, ``b = l ψ̇² sin θ + l θ̇² sin θ − g``, differs from the system's by ``l ψ̇² sin³θ``: the centripetal
    acceleration of the end about the vertical is ``l cos²θ ψ̇²`` times ``sin θ`` in the normal direction."""
    uniform = SpatialRod(mass=1.7, half_length=0.6, gravity=9.81)  # gyration l/√3
    assert float(uniform.inertia_ratio) == pytest.approx(3.0, rel=1e-15)
    for _ in range(5):
        q, v = _random_state(uniform)
        form = spatial_contact_space_form(uniform, q, v)
        written = spatial_rod_form(uniform, q, v)
        for name in ("a", "b", "A", "B", "C"):
            np.testing.assert_allclose(getattr(form, name), getattr(written, name), rtol=1e-13, atol=1e-13)
        m, l, g = 1.7, 0.6, 9.81  # noqa: E741
        th, ps, th_dot, ps_dot = (float(x) for x in (q[3], q[4], v[3], v[4]))
        s, c, sp, cp = math.sin(th), math.cos(th), math.sin(ps), math.cos(ps)
        eq42 = -l * np.array([ps_dot**2 * cp * c**3 + th_dot**2 * cp * c, ps_dot**2 * sp * c**3 + th_dot**2 * sp * c])
        eq43 = l * ps_dot**2 * s + l * th_dot**2 * s - g
        off = -3 * sp * cp * c**2
        eq46 = np.array([[1 + 3 * sp**2 + 3 * cp**2 * s**2, off], [off, 1 + 3 * cp**2 + 3 * sp**2 * s**2]]) / m
        eq49 = 3 / m * s * c * np.array([cp, sp])
        eq50 = (1 + 3 * c**2) / m
        np.testing.assert_allclose(form.a, eq42, atol=1e-13)
        np.testing.assert_allclose(form.A, eq46, atol=1e-13)
        np.testing.assert_allclose(form.B, eq49, atol=1e-13)
        assert float(form.C) == pytest.approx(eq50, rel=1e-13)
        assert float(form.b) - eq43 == pytest.approx(-l * ps_dot**2 * s**3, abs=1e-12)


@pytest.mark.slow
def test_painleve_parameter_eq_39_is_negative_exactly_where_eq_51_says():
    """``p(ϕ) < 0`` ⇔ ``μ cos(ϕ − ψ) > μ_p(θ)`` on a grid, for the uniform rod and for ρ = 0.1 l (κ = 100)."""
    for gyration in (None, 0.1):
        rod = SpatialRod(gyration=gyration, mu=1.0)
        for theta in np.linspace(0.1, 1.5, 15):
            for psi in (0.0, 2.0):
                q = jnp.array([0.0, 0.0, 0.0, theta, psi])
                form = spatial_contact_space_form(rod, q, jnp.zeros(5))
                for phi in np.linspace(-math.pi, math.pi, 25):
                    p = float(form.painleve(1.0, phi))
                    margin = math.cos(phi - psi) - float(painleve_friction(theta, rod.inertia_ratio))
                    if abs(margin) > 1e-9:
                        assert (p < 0) == (margin > 0)
    # the uniform rod's smallest μ_p is the planar rod's 4/3 (at tan θ = 2)
    assert float(painleve_friction(math.atan(2.0))) == pytest.approx(4 / 3, rel=1e-14)


@pytest.mark.slow
def test_friction_disk_is_the_planar_law_along_one_axis_and_a_capped_viscous_force():
    law = ViscousCoulomb(damping=3.0)
    slips = jnp.asarray(RNG.normal(size=50))
    normal, mu = jnp.asarray(RNG.uniform(0, 2, 50)), jnp.asarray(0.8)
    along = friction_disk(law, jnp.stack([slips, jnp.zeros(50)], axis=-1), normal, mu)
    np.testing.assert_allclose(along[:, 0], law(slips, normal, mu), rtol=4e-16, atol=0)  # one ulp
    assert np.all(along[:, 1] == 0)
    vectors = jnp.asarray(RNG.normal(size=(50, 2)))
    forces = friction_disk(law, vectors, normal, mu)
    speeds = np.linalg.norm(vectors, axis=-1)
    np.testing.assert_allclose(np.linalg.norm(forces, axis=-1), np.minimum(3.0 * speeds, 0.8 * normal), rtol=1e-14)
    cross = forces[:, 0] * vectors[:, 1] - forces[:, 1] * vectors[:, 0]
    assert np.all(np.sum(forces * vectors, axis=-1) <= 0) and np.allclose(cross, 0.0, atol=1e-14)
    assert np.all(friction_disk(law, jnp.zeros(2), jnp.asarray(1.0), mu) == 0)
    assert np.all(np.isfinite(jax.jacfwd(lambda u: friction_disk(law, u, jnp.asarray(1.0), mu))(jnp.zeros(2))))


def _planar_twin(rod: SpatialRod) -> PainleveRod:
    """The planar rod that the spatial rod at ``ψ = π`` is: length ``2l``, inertia ``m ρ²``, ``φ = θ``."""
    return PainleveRod(
        mass=float(rod.mass),
        length=2 * float(rod.half_length),
        inertia=float(rod.inertia),
        gravity=float(rod.gravity),
        mu=float(rod.mu),
        phi0=float(rod.theta0),
        vx0=float(rod.slip0[0]),
        omega0=float(rod.theta_rate0),
    )


def _in_plane(planar_q, planar_v):
    """The spatial coordinates of a planar state at ``ψ = π``."""
    x, y, phi = planar_q
    vx, vy, omega = planar_v
    zero = jnp.zeros(())
    return jnp.stack([x, zero, y, phi, jnp.asarray(math.pi)]), jnp.stack([vx, zero, vy, omega, zero])


@pytest.mark.slow
def test_in_plane_the_spatial_rod_is_the_planar_rod():
    """At ``ψ = π`` with no motion across the plane: the contact-space forms agree, the compliant vector fields agree
    (and leave the plane alone) at random penetrating states, and one compliant run gives Table 1's integrals."""
    spatial = SpatialRod(mass=1.0, half_length=1.0, gyration=1 / math.sqrt(3), mu=1.5, theta0=math.pi / 3,
                         psi0=math.pi, slip0=(-1.0, 0.0))  # fmt: skip
    planar = _planar_twin(spatial)
    normal, friction = ContactModel().at_stiffness(1e6)
    planar_args = CompliantSystem(planar, normal, friction)
    spatial_args = CompliantSystem(spatial, normal, friction)
    for _ in range(10):
        phi = RNG.uniform(0.2, 1.4)
        q = jnp.asarray([RNG.normal(), math.sin(phi) + RNG.uniform(-1e-6, 1e-6), phi])  # lower end near the ground
        v = jnp.asarray(RNG.normal(size=3))
        planar_form = contact_space_form(planar, q, v)
        form = spatial_contact_space_form(spatial, *_in_plane(q, v))
        np.testing.assert_allclose(
            [form.a[0], form.b, form.A[0, 0], form.B[0], form.C],
            [planar_form.a[0], planar_form.b[0], planar_form.A[0, 0], planar_form.B[0, 0], planar_form.C[0, 0]],
            rtol=1e-13,
            atol=1e-13,
        )
        assert abs(float(form.a[1])) < 1e-13 and abs(float(form.A[0, 1])) < 1e-13 and abs(float(form.B[1])) < 1e-13
        rate = vector_field(0.0, CompliantState(q, v, jnp.zeros((1, 2))), planar_args)
        sq, sv = _in_plane(q, v)
        spatial_rate = vector_field(0.0, CompliantState(sq, sv, jnp.zeros((1, 3))), spatial_args)
        np.testing.assert_allclose(spatial_rate.v[jnp.array([0, 2, 3])], rate.v, rtol=1e-12, atol=1e-9)
        np.testing.assert_allclose(spatial_rate.impulses[0, :2], rate.impulses[0], rtol=1e-12, atol=1e-9)
        # across the plane only round-off: sin π ≈ 1.2e-16 of slip, times γ_t = 1e6
        assert np.abs(spatial_rate.v[jnp.array([1, 4])]).max() < 1e-9 and abs(float(spatial_rate.impulses[0, 2])) < 1e-9
    # Table 1 at α = 1e6 from the spatial code: the planar solve's (0.325839, 0.437779), across-plane impulse 0
    contact, alpha = ContactModel(), 1e6
    window = float(contact_time(planar, alpha))
    planar_run = solve(planar, contact, alpha, Controls(t_max=window))
    q0, v0 = spatial.initial_state()
    run = jax.jit(sampled_run, static_argnames=("stop_at_lift_off",))(
        spatial, contact, alpha, CompliantState(q0, v0, jnp.zeros((1, 3))), window, jnp.asarray([window]),
        rtol=1e-10, atol=1e-12, stop_at_lift_off=True,
    )  # fmt: skip
    assert bool(run.ok)
    np.testing.assert_allclose(run.state_end.impulses[0, :2], planar_run.force_integrals, rtol=1e-8)
    assert abs(float(run.state_end.impulses[0, 2])) < 1e-15
    np.testing.assert_allclose(np.asarray(run.state_end.impulses[0, :2]), [0.325839, 0.437779], atol=5e-7)
