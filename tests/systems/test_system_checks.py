"""What a system's class cannot promise is checked before a solve: k ≥ 1 contacts, array shapes, and a symmetric
positive definite mass matrix at the initial state."""

from typing import ClassVar

import equinox as eqx
import jax
import jax.numpy as jnp
import pytest

from regcontact.systems import (
    AbstractSystem,
    PainleveRod,
    ReducedSingleContact,
    SpatialRod,
    TwoPointRod,
    check_system,
    contact_space_form,
    spatial_contact_space_form,
)


class PointMass(AbstractSystem):
    """A point mass above the ground (one contact), with a mass matrix and contact count that a test can break."""

    NUM_CONTACTS: ClassVar[int] = 1
    mass: jax.Array

    def mass_matrix(self, q):
        return jnp.diag(jnp.stack([self.mass, self.mass]))

    def forces(self, q, v, t):
        return jnp.array([0.0, -1.0]) * self.mass

    def gaps(self, q):
        return jnp.stack([q[1], q[0]])[None, :]

    def jacobians(self, q):
        return jnp.array([[[0.0, 1.0], [1.0, 0.0]]])

    def jacobian_rates(self, q, v):
        return jnp.zeros((1, 2))

    @property
    def friction_coefficients(self):
        return jnp.array([0.5])

    def potential_energy(self, q):
        return self.mass * q[1]

    def initial_state(self):
        return jnp.array([0.0, 1.0]), jnp.zeros(2)

    @property
    def length_scale(self):
        return jnp.asarray(1.0)


@pytest.mark.slow
def test_the_shipped_systems_pass():
    shipped = (PainleveRod(), TwoPointRod(), ReducedSingleContact(), SpatialRod(), PointMass(mass=jnp.asarray(2.0)))
    for system in shipped:
        check_system(system)


def test_a_batch_is_refused_with_a_pointer_to_per_case_checks():
    rods = jax.tree_util.tree_map(lambda *leaves: jnp.stack(leaves), PainleveRod(mu=1.0), PainleveRod(mu=2.0))
    with pytest.raises(ValueError, match=r"expected one system, \(n,\) \(check a batch per case\)"):
        check_system(rods)


def test_a_system_without_contacts_is_refused_when_built():
    class Floating(PointMass):
        NUM_CONTACTS: ClassVar[int] = 0

    with pytest.raises(ValueError, match=r"Floating.NUM_CONTACTS = 0: expected a whole number of contacts k ≥ 1"):
        Floating(mass=jnp.asarray(1.0))


@pytest.mark.parametrize("mass", [0.0, -1.0])
def test_a_singular_or_indefinite_mass_matrix_is_refused(mass):
    with pytest.raises(ValueError, match="expected a positive definite M"):
        check_system(PointMass(mass=jnp.asarray(mass)))


class CoupledMass(PointMass):
    """``M = [[m, c], [c, m·s²]]``: coordinates of very different sizes (scale ``s``), coupled by ``c``."""

    coupling: jax.Array
    size: jax.Array

    def mass_matrix(self, q):
        m, c, s = self.mass, self.coupling, self.size
        return jnp.array([[m, c], [c, m * s**2]])


@pytest.mark.parametrize("size", [1e-12, 1.0, 1e12])
def test_definiteness_does_not_depend_on_the_coordinates_units(size):
    """A rod of 1e-10 m has I = 1e-21 kg m² beside m = 1 kg: positive definite whatever the ratio of the entries;
    ``M`` with ``c² = m² s²`` (the coordinates locked together) is singular at every size, and refused."""
    check_system(CoupledMass(mass=jnp.asarray(1.0), coupling=jnp.asarray(0.5 * size), size=jnp.asarray(size)))
    with pytest.raises(ValueError, match="scaled to a unit diagonal.*expected a positive definite M"):
        check_system(CoupledMass(mass=jnp.asarray(1.0), coupling=jnp.asarray(size), size=jnp.asarray(size)))


def test_contact_arrays_of_the_wrong_shape_are_refused():
    class TwoGapsOneContact(PointMass):
        def gaps(self, q):
            return jnp.stack([jnp.stack([q[1], q[0]]), jnp.stack([q[1], q[0]])])

    with pytest.raises(ValueError, match=r"gaps of shape \(2, 2\): expected \(1, 2\)"):
        check_system(TwoGapsOneContact(mass=jnp.asarray(1.0)))


def test_negative_friction_is_refused():
    # The constructor refuses a concrete value, an eager JAX array too; a value set by a tree operation is
    # refused by the check.
    with pytest.raises(ValueError, match=r"^mu = -0.5: expected a number ≥ 0$"):
        PainleveRod(mu=jnp.asarray(-0.5))
    with pytest.raises(ValueError, match="expected μ ≥ 0"):
        check_system(eqx.tree_at(lambda rod: rod.mu, PainleveRod(), jnp.asarray(-0.5)))


def test_a_tangent_dimension_other_than_one_or_two_is_refused_when_built():
    class Volumetric(PointMass):
        TANGENT_DIM: ClassVar[int] = 3

    with pytest.raises(ValueError, match=r"Volumetric.TANGENT_DIM = 3: expected 1 \(planar contacts\) or 2"):
        Volumetric(mass=jnp.asarray(1.0))


def test_the_shapes_follow_the_tangent_dimension():
    """A planar point mass declared spatial has ``(k, 2)`` gaps where ``(k, 1 + d) = (1, 3)`` are expected."""

    class DeclaredSpatial(PointMass):
        TANGENT_DIM: ClassVar[int] = 2

    with pytest.raises(ValueError, match=r"gaps of shape \(1, 2\): expected \(1, 3\) \(n = 2, k = 1\)"):
        check_system(DeclaredSpatial(mass=jnp.asarray(1.0)))


def test_each_contact_space_form_refuses_a_system_of_the_other_tangent_dimension():
    q, v = jnp.zeros(5), jnp.zeros(5)
    with pytest.raises(ValueError, match=r"SpatialRod.TANGENT_DIM = 2: the planar contact-space form needs planar"):
        contact_space_form(SpatialRod(), q, v)
    rod = PainleveRod()
    with pytest.raises(ValueError, match=r"PainleveRod.TANGENT_DIM = 1: the spatial contact-space form needs spatial"):
        spatial_contact_space_form(rod, *rod.initial_state())


def _broken(method: str, answer):
    """A point mass whose ``method`` returns ``answer`` (a property for ``length_scale``)."""
    body = (lambda self: answer) if method == "length_scale" else (lambda self, *args: answer)
    return type(f"Broken_{method}", (PointMass,), {method: property(body) if method == "length_scale" else body})


NAN = float("nan")


@pytest.mark.parametrize(
    "method, answer, found",
    [
        ("forces", jnp.full(2, NAN), r"forces\(q₀, v₀, 0\) at the initial state is not finite"),
        ("gaps", jnp.full((1, 2), NAN), r"gaps\(q₀\) at the initial state is not finite"),
        ("jacobians", jnp.full((1, 2, 2), jnp.inf), r"jacobians\(q₀\) at the initial state is not finite"),
        ("jacobian_rates", jnp.full((1, 2), NAN), r"jacobian_rates\(q₀, v₀\) at the initial state is not finite"),
        ("potential_energy", jnp.asarray(NAN), r"potential_energy\(q₀\) at the initial state is not finite"),
        ("length_scale", jnp.asarray(0.0), r"length_scale is not a finite length > 0"),
        ("length_scale", jnp.asarray(NAN), r"length_scale is not a finite length > 0"),
        ("forces", jnp.zeros(3), r"forces of shape \(3,\): expected \(2,\)"),
        ("potential_energy", jnp.zeros(2), r"potential energy of shape \(2,\): expected \(\)"),
        ("length_scale", jnp.ones(3), r"length scale of shape \(3,\): expected \(\)"),
    ],
)
def test_a_method_that_answers_nan_or_the_wrong_shape_is_named(method, answer, found):
    """Each method is asked at the initial state, before any run; the one that answers wrongly is named (not the
    rigid reference's contact state, or a reshape deep inside a solve, that would meet it first)."""
    with pytest.raises(ValueError, match=f"^Broken_{method}[.:] ?{found}"):
        check_system(_broken(method, answer)(mass=jnp.asarray(1.0)))  # values: when built; shapes: by the check
    check_system(PointMass(mass=jnp.asarray(1.0)))  # the intact body passes


@pytest.mark.parametrize(
    "name, overflowing, accepted, found",
    [
        # ω₀ = 1e200: Ẇ v ~ ω₀² l overflows (v₀ itself is finite)
        ("omega0", 1e200, 1e100, r"jacobian_rates\(q₀, v₀\) at the initial state is not finite"),
        # τ = 1e308: finite, but M⁻¹ h = τ / I overflows
        ("torque", 1e308, 1e200, r"accelerations M⁻¹ h \(mass_solve\) at the initial state is not finite"),
    ],
)
def test_a_finite_start_whose_derived_values_overflow_is_refused(name, overflowing, accepted, found):
    with pytest.raises(ValueError, match=f"^PainleveRod.{found}"):
        PainleveRod(**{name: overflowing})
    PainleveRod(**{name: accepted})  # a large start whose products stay finite is accepted
