"""Per-contact law parameters: a number (every contact alike) or one value per contact, applied to contact ``i``.

Checked against closed forms (the static load sharing of a rod resting on two springs), an independent integration
(a Hertz chain of balls of two sizes: the compliant limit against the compliant run), invariants (momentum and
energy of the elastic chain), and the scalar path (an array of equal values gives the same numbers to the bit).
"""

from __future__ import annotations

import math
from typing import ClassVar

import jax.numpy as jnp
import numpy as np
import pytest

import regcontact as rc
from regcontact._argument_checks import ArgumentError
from regcontact.compliant import CompliantSystem, Controls, SolveSettings, solve
from regcontact.contact import (
    ClippedKelvinVoigt,
    ContactModel,
    HuntCrossley,
    SpringDamper,
    ViscousCoulomb,
    law_exponents,
    select_contacts,
)
from regcontact.rigid import compliant_limit, limit_law
from regcontact.studies.config import ConfigError
from regcontact.systems import AbstractSystem, TwoPointRod

WRONG_LENGTH = (
    "normal.stiffness = an array of shape (3,): expected a number, or one per contact: shape (2,) for 2 contacts"
)


def _final(system: AbstractSystem, contact: ContactModel, alpha: float, t_max: float):
    run = solve(system, contact, jnp.asarray(alpha), Controls(1e-10, 1e-12, t_max), SolveSettings(events=()))
    assert run.status_name == "successful" and run.check_name == "passed"
    return run


@pytest.mark.slow
def test_a_rod_resting_on_two_springs_shares_its_weight_and_sinks_by_each_springs_own_stiffness():
    """A flat rod on its two ends: the normal forces are vertical with equal arms ``h cos φ`` about the centre of
    mass, so at rest each carries ``m g / 2`` whatever the tilt, and end ``i`` sinks by ``δ_i = m g / (2 k_i)``."""
    mass, gravity, stiffness = 1.0, 1.0, np.array([100.0, 400.0])
    rod = TwoPointRod(mass=mass, length=2.0, gravity=gravity, mu=0.5)
    contact = ContactModel(
        ClippedKelvinVoigt(stiffness=stiffness, damping=np.array([8.0, 16.0])), ViscousCoulomb(np.array([2.0, 5.0]))
    )
    run = _final(rod, contact, 1.0, 20.0)
    penetrations = -np.asarray(rod.gaps(run.state_end.q))[:, 0]
    np.testing.assert_allclose(penetrations, mass * gravity / (2.0 * stiffness), rtol=1e-7)
    assert abs(float(run.state_end.q[2])) > 1e-3  # the soft end sank more: the rod tilts


@pytest.mark.slow
def test_an_array_of_equal_values_gives_the_numbers_of_one_value_to_the_bit():
    rod = TwoPointRod(gravity=10.0, phi0=0.3, height=0.02, vx0=0.5)
    scalar = ContactModel(SpringDamper(1.0, 1.0), ViscousCoulomb(1.0))
    arrays = ContactModel(SpringDamper(np.array([1.0, 1.0]), np.array([1.0, 1.0])), ViscousCoulomb(np.ones(2)))
    one, per_contact = _final(rod, scalar, 1e4, 0.3), _final(rod, arrays, 1e4, 0.3)
    for a, b in ((one.state_end.q, per_contact.state_end.q), (one.force_integrals, per_contact.force_integrals)):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    assert int(one.num_steps) == int(per_contact.num_steps)


def test_a_parameter_of_another_length_is_refused_in_one_line():
    rod, wrong = TwoPointRod(), ContactModel(SpringDamper(np.array([1.0, 2.0, 3.0])))
    for call in (
        lambda: wrong.check_contacts(2),
        lambda: solve(rod, wrong, jnp.asarray(1.0), Controls(t_max=1.0)),
        lambda: CompliantSystem(rod, *wrong.at_stiffness(1.0)),
        lambda: compliant_limit(TwoPointRod(vy0=-1.0), wrong),
    ):
        with pytest.raises(ArgumentError) as error:
            call()
        assert str(error.value) == WRONG_LENGTH
    with pytest.raises(ArgumentError, match=r"friction_exponents.damping = an array of shape \(2, 2\)"):
        ContactModel(friction_exponents=law_exponents(ViscousCoulomb, damping=np.ones((2, 2)))).check_contacts(2)


def test_the_alpha_scaling_scales_each_contact_by_its_exponent():
    contact = ContactModel(
        SpringDamper(np.array([1.0, 2.0]), 3.0),
        normal_exponents=law_exponents(SpringDamper, stiffness=np.array([1.0, 2.0])),
    )
    normal, _ = contact.at_stiffness(10.0)
    np.testing.assert_array_equal(np.asarray(normal.stiffness), [10.0, 200.0])
    assert float(normal.damping) == 30.0
    assert select_contacts(normal, 1).stiffness.shape == ()
    with pytest.raises(ValueError, match="one impact time scale for all contacts"):
        limit_law(contact)


class BallChain(AbstractSystem):
    """Three balls of radii ``r`` (masses ``r³``) in a row, each touching the next: ``q = (x₁, x₂, x₃, y₁, y₂, y₃)``,
    contact ``i`` between balls ``i`` and ``i + 1`` (gap ``x_{i+1} − x_i − r_i − r_{i+1}``, tangent along ``y``),
    frictionless; the first ball moves at ``v₀`` towards the others."""

    NUM_CONTACTS: ClassVar[int] = 2

    radii: jnp.ndarray
    v0: jnp.ndarray

    def __init__(self, radii, v0=1.0):
        self.radii, self.v0 = jnp.asarray(radii, dtype=float), jnp.asarray(v0, dtype=float)

    @property
    def masses(self):
        return self.radii**3

    def mass_matrix(self, q):
        return jnp.diag(jnp.concatenate([self.masses, self.masses]))

    def forces(self, q, v, t):
        return jnp.zeros(6)

    def gaps(self, q):
        r = self.radii
        return jnp.stack([jnp.stack([q[i + 1] - q[i] - r[i] - r[i + 1], q[i + 4] - q[i + 3]]) for i in (0, 1)])

    def jacobians(self, q):
        rows = np.zeros((2, 2, 6))
        for i in (0, 1):
            rows[i, 0, i], rows[i, 0, i + 1], rows[i, 1, i + 3], rows[i, 1, i + 4] = -1.0, 1.0, -1.0, 1.0
        return jnp.asarray(rows)

    def jacobian_rates(self, q, v):
        return jnp.zeros((2, 2))

    @property
    def friction_coefficients(self):
        return jnp.zeros(2)

    def potential_energy(self, q):
        return jnp.zeros(())

    def initial_state(self):
        r = self.radii
        x = jnp.stack([jnp.zeros(()), r[0] + r[1], r[0] + 2 * r[1] + r[2]])
        return jnp.concatenate([x, jnp.zeros(3)]), jnp.concatenate([self.v0[None], jnp.zeros(5)])

    @property
    def length_scale(self):
        return jnp.sum(self.radii)


def _hertz(radii) -> np.ndarray:
    """Hertz's ``k = (4/3) E* √R`` (``E* = 1``) of each neighbouring pair, ``R = r_i r_j / (r_i + r_j)``."""
    r = np.asarray(radii)
    return 4.0 / 3.0 * np.sqrt(r[:-1] * r[1:] / (r[:-1] + r[1:]))


@pytest.mark.slow
def test_a_hertz_chain_of_balls_of_two_sizes_has_its_compliant_limit():
    """Hertz's spring ``k_i δ^{3/2}`` without damping is scale-free: a run at any α ends with the limit's
    velocities. The limit (α-free, the law vmapped over the contacts) against the compliant run (the law broadcast
    in the vector field), both with each pair's own ``k_i``; momentum and energy are conserved."""
    radii = [1.0, 1.0, 0.5]
    chain = BallChain(radii)
    k = _hertz(radii)
    assert k[0] != k[1]
    model = ContactModel(HuntCrossley(stiffness=k, exponent=1.5, damping=0.0), ViscousCoulomb(0.0))
    outcome, velocity = compliant_limit(chain, model)
    assert outcome.ended == "opened"
    masses = np.asarray(chain.masses)
    after = np.asarray(velocity)[:3]
    np.testing.assert_allclose(masses @ after, masses[0] * 1.0, rtol=1e-10)
    np.testing.assert_allclose(masses @ after**2, masses[0] * 1.0, rtol=1e-8)
    run = _final(chain, model, 1.0, 12.0)
    assert np.all(np.asarray(chain.gaps(run.state_end.q))[:, 0] > 0)  # every pair has come apart
    np.testing.assert_allclose(np.asarray(run.state_end.v)[:3], after, atol=1e-7)
    # the stiffnesses swapped give other velocities: each contact uses its own
    swapped = ContactModel(HuntCrossley(stiffness=k[::-1].copy(), exponent=1.5, damping=0.0), ViscousCoulomb(0.0))
    assert np.max(np.abs(np.asarray(compliant_limit(chain, swapped)[1])[:3] - after)) > 1e-3


def test_per_contact_exponents_of_hertz_have_no_one_limit():
    law = HuntCrossley(stiffness=1.0, exponent=np.array([1.5, 1.0]), damping=0.0)
    with pytest.raises(ValueError, match=r"^exponent = \[1.5, 1.0\] per contact: contacts of different n"):
        limit_law(ContactModel(law))


STUDY = """
[study]
name = "per_contact"
kind = "compliant_sweep"

[system]
kind = "two_point_rod"
mass = 1.0
length = 2.0
gravity = 1.0
mu = 0.5

[contact]
normal_law = "clipped_kelvin_voigt"
normal = {{ stiffness = {stiffness}, damping = [8.0, 16.0] }}
friction = {{ damping = [2.0, 5.0] }}

[sweep]
alpha = [1.0]

[termination]
events = []
time_limit = 20.0
"""


@pytest.mark.slow
def test_a_study_file_takes_one_value_per_contact(tmp_path):
    """``contact.normal`` parameters as lists in a TOML study: the rod's static load sharing again, and the
    run's numbers are :func:`~regcontact.solve`'s."""
    path = tmp_path / "per_contact.toml"
    path.write_text(STUDY.format(stiffness="[100.0, 400.0]"), encoding="utf-8")
    table = rc.run_study(path, progress=lambda message: None).table
    rod = TwoPointRod(mass=1.0, length=2.0, gravity=1.0, mu=0.5)
    contact = ContactModel(
        ClippedKelvinVoigt(np.array([100.0, 400.0]), np.array([8.0, 16.0])), ViscousCoulomb(np.array([2.0, 5.0]))
    )
    run = solve(rod, contact, jnp.asarray(1.0), Controls(1e-10, 1e-12, 20.0), SolveSettings(events=()))
    np.testing.assert_allclose(
        [table["int_lambda_n_1"][0], table["int_lambda_n_2"][0]], np.asarray(run.state_end.impulses)[:, 0], rtol=1e-9
    )
    # at rest each end carries m g / 2: over the 20 time units nearly 10 each (the start is the transient)
    assert math.isclose(table["int_lambda_n_1"][0], table["int_lambda_n_2"][0], rel_tol=1e-2)


@pytest.mark.parametrize(
    "stiffness, extra, key, expected",
    [
        ("[1.0, 2.0, 3.0]", "", "contact.normal.stiffness", "shape (2,) for 2 contacts"),
        ("[1.0, -2.0]", "", "contact.normal.stiffness", "a positive number"),
        ("1.0", "contact.normal.stiffness = [[1.0, 2.0], [3.0, 4.0]]\n", "sweep.contact.normal.stiffness", "not swept"),
    ],
)
def test_a_bad_per_contact_list_in_a_study_is_one_config_error(tmp_path, stiffness, extra, key, expected):
    path = tmp_path / "bad.toml"
    path.write_text(STUDY.format(stiffness=stiffness).replace("alpha = [1.0]\n", "alpha = [1.0]\n" + extra))
    with pytest.raises(ConfigError) as error:
        rc.load_study(path)
    assert error.value.key == key and expected in str(error.value) and "\n" not in str(error.value)


def test_per_contact_friction_damping_on_the_impact_scale():
    """``γ_t`` per contact: kept per contact on the viscous branch (exponent = scale), dropped below it, and
    refused above it when some contacts have none (Coulomb there, nothing elsewhere)."""
    gamma = ViscousCoulomb(np.array([2.0, 0.0]))
    kind, damping = gamma.impact_friction(law_exponents(ViscousCoulomb, damping=1.0), 1.0)
    assert kind == "viscous" and np.asarray(damping).tolist() == [2.0, 0.0]
    assert gamma.impact_friction(law_exponents(ViscousCoulomb, damping=0.5), 1.0) == ("none", 0.0)
    with pytest.raises(ValueError, match=r"^friction.damping = \[2.0, 0.0\] per contact with α-exponent 2 > 1"):
        gamma.impact_friction(law_exponents(ViscousCoulomb, damping=2.0), 1.0)
    # Champneys' exponents (k ∝ α, γ_n ∝ √α, γ_t ∝ √α): spring, damper and viscous friction all on the scale √α
    law = limit_law(
        ContactModel(
            SpringDamper(np.array([1.0, 4.0]), 0.5),
            gamma,
            law_exponents(SpringDamper, damping=0.5),
            law_exponents(ViscousCoulomb, damping=0.5),
        )
    )
    closed = law.at_contacts(np.array([1]))
    assert np.asarray(closed.normal.stiffness).tolist() == [4.0]
    assert np.asarray(closed.tangential_damping).tolist() == [0.0]
    assert closed.rates(np.array([1.0]), 1.0) == [2.0, 0.5]  # √(k₂ C) and γ_n C at the second contact


class _NaNSpring(SpringDamper):
    def __call__(self, gap, gap_rate):
        return jnp.where(gap < 0.0, jnp.nan, 0.0)


class _OneForceForAll(SpringDamper):
    def __call__(self, gap, gap_rate):
        return jnp.sum(super().__call__(gap, gap_rate))


class _NaNFriction(rc.ViscousCoulomb):
    def __call__(self, slip_rate, normal_force, mu):
        return jnp.nan * slip_rate


@pytest.mark.parametrize(
    ("model", "found"),
    [
        (
            ContactModel(normal=_NaNSpring()),
            r"^normal_law = '_NaNSpring': .*_NaNSpring.__call__\(gap, gap_rate\) is NaN",
        ),
        (
            ContactModel(normal=_OneForceForAll()),
            r"^normal_law = '_OneForceForAll': .*__call__\(gap, gap_rate\) returns shape \(\) for 2 contacts: "
            r"expected one value per contact, \(2,\)",
        ),
        (
            ContactModel(friction=_NaNFriction()),
            r"^friction_law = '_NaNFriction': .*\(slip_rate, normal_force, mu\) is NaN",
        ),
    ],
)
def test_a_law_whose_answers_are_not_one_finite_value_per_contact_is_refused_before_a_solve(model, found):
    """The law is asked at open, touching and closed states before any run; the method that answers NaN or with
    another shape is named (the solve would end as ``max_steps_reached`` or in a reshape traceback)."""
    rod = TwoPointRod()
    with pytest.raises(ArgumentError, match=found):
        model.check_contacts(2)
    with pytest.raises(ArgumentError, match=found):
        solve(rod, model, 1e3, Controls(t_max=0.01))
    for law in (
        *(cls() for cls in rc.contact.NORMAL_LAWS.values()),
        *(cls() for cls in rc.contact.FRICTION_LAWS.values()),
    ):
        name = "friction" if isinstance(law, rc.contact.AbstractFrictionLaw) else "normal"
        ContactModel(**{name: law}).check_contacts(2)  # every law of the package answers
