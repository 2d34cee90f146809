"""Contact laws: sign, continuity, values at known points, α-scaling, config errors, and energy through many
contact switches of a bouncing rod (kept with conservative laws, never growing with dissipative ones)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import diffrax
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import regcontact  # noqa: F401  (float64)
from regcontact.compliant.dynamics import CompliantSystem, flat_vector_field, initial_state
from regcontact.compliant.solvers import RadauIIA5
from regcontact.compliant.switches import FrozenContact
from regcontact.contact import (
    FRICTION_LAWS,
    NORMAL_LAWS,
    AbstractFrictionLaw,
    AbstractJumpingNormalLaw,
    AbstractLinearSpringDamper,
    AbstractNormalLaw,
    ChampneysFastScale,
    ClippedKelvinVoigt,
    ContactModel,
    HuntCrossley,
    SpringDamper,
    ViscousCoulomb,
    law_exponents,
)
from regcontact.studies.config import ConfigError
from regcontact.studies.loading import load_study
from regcontact.systems.rod import PainleveRod

TABLE1 = Path(__file__).resolve().parents[2] / "studies" / "table1.toml"

#: One instance of each normal law, with parameters that are not all 1 (to catch swapped parameters).
LAWS = {
    "spring_damper": SpringDamper(stiffness=3.0, damping=2.0),
    "clipped_kelvin_voigt": ClippedKelvinVoigt(stiffness=3.0, damping=2.0),
    "hunt_crossley": HuntCrossley(stiffness=3.0, exponent=1.5, damping=2.0),
    "champneys_fast_scale": ChampneysFastScale(stiffness=3.0, damping=2.0),
}

GAPS = np.concatenate([np.linspace(-2.0, 2.0, 41), [-1e-12, 0.0, 1e-12]])
RATES = np.concatenate([np.linspace(-3.0, 3.0, 31), [-1e-12, 0.0, 1e-12]])


def evaluate(law, gaps, rates):
    return np.asarray(jax.vmap(law)(jnp.asarray(gaps, dtype=float), jnp.asarray(rates, dtype=float)))


def test_every_registered_law_is_covered_and_declares_its_parameters():
    # Every memoryless law; the one peak law (its force needs each contact's peak) has its own tests.
    assert set(LAWS) == set(NORMAL_LAWS) - {"bilinear_spring"}
    for name, cls in {**NORMAL_LAWS, **FRICTION_LAWS}.items():
        fields = {field.name for field in dataclasses.fields(cls)}
        assert set(cls.PARAMETERS) == fields, name
        assert set(cls.EXPONENTS) == fields, name
        assert set(cls.PARAMETERS.values()) <= {"positive", "nonnegative"}, name
    for name, cls in NORMAL_LAWS.items():
        assert cls.LINEAR_STIFFNESS is None or cls.LINEAR_STIFFNESS in cls.PARAMETERS, name


def test_laws_are_concrete_subclasses_of_their_abstract_bases():
    for cls in NORMAL_LAWS.values():
        assert issubclass(cls, AbstractNormalLaw)
    for cls in FRICTION_LAWS.values():
        assert issubclass(cls, AbstractFrictionLaw)
    # Only the spring-damper jumps on touch-down (its damper acts at first touch); the others are continuous.
    assert [name for name, cls in NORMAL_LAWS.items() if issubclass(cls, AbstractJumpingNormalLaw)] == ["spring_damper"]
    for abstract in (AbstractNormalLaw, AbstractJumpingNormalLaw, AbstractLinearSpringDamper, AbstractFrictionLaw):
        with pytest.raises(TypeError):
            abstract()


def test_class_constants_are_not_pytree_leaves():
    """``PARAMETERS``/``EXPONENTS`` are class constants: the α-scaling maps over the parameters alone."""
    for law in [*LAWS.values(), ViscousCoulomb(2.0)]:
        assert len(jax.tree_util.tree_leaves(law)) == len(type(law).PARAMETERS)
    held = FrozenContact(law=SpringDamper(3.0, 2.0), closed=jnp.array([True, False]))
    assert len(jax.tree_util.tree_leaves(held)) == 3
    forces = held(jnp.array([-0.5, -0.5]), jnp.array([-1.0, -1.0]))
    np.testing.assert_allclose(np.asarray(forces), [3.0 * 0.5 + 2.0 * 1.0, 0.0])


@pytest.mark.parametrize("name", sorted(LAWS))
def test_normal_force_never_pulls(name):
    g, r = np.meshgrid(GAPS, RATES)
    force = evaluate(LAWS[name], g.ravel(), r.ravel())
    assert np.all(np.isfinite(force))
    assert np.all(force >= 0.0)


@pytest.mark.parametrize("name", sorted(LAWS))
def test_normal_force_is_zero_when_separated_and_separating(name):
    g, r = np.meshgrid(GAPS[GAPS > 0], RATES[RATES >= 0])
    assert np.all(evaluate(LAWS[name], g.ravel(), r.ravel()) == 0.0)


@pytest.mark.parametrize("name", sorted(LAWS))
def test_normal_force_is_continuous(name):
    """Lipschitz on a fine grid across every switching line, except the spring-damper's documented touch-down
    jump (g_n = 0 with ġ_n < 0), which is checked to be exactly γ_n |ġ_n|."""
    law = LAWS[name]
    step = 1e-7
    g, r = (a.ravel() for a in np.meshgrid(np.linspace(-1.0, 1.0, 201), np.linspace(-1.0, 1.0, 201)))
    base = evaluate(law, g, r)
    jump_line = (name == "spring_damper") & (np.abs(g) < 2 * step) & (r < 0)
    for dg, dr in [(step, 0.0), (0.0, step)]:
        change = np.abs(evaluate(law, g + dg, r + dr) - base)
        assert np.all(change[~jump_line] <= 20.0 * step), name
    if name == "spring_damper":
        rates = np.array([-2.0, -0.5, -1e-3])
        below = evaluate(law, np.full(3, -1e-15), rates)
        above = evaluate(law, np.full(3, 1e-15), rates)
        np.testing.assert_allclose(below - above, law.damping * np.abs(rates), rtol=1e-9)


def test_normal_forces_at_known_points():
    names = ["spring_damper", "clipped_kelvin_voigt", "hunt_crossley", "champneys_fast_scale"]
    sd, kv, hc, ch = (LAWS[n] for n in names)
    cases = [
        # law, g, ġ, expected
        (sd, -0.5, -1.0, 3 * 0.5 + 2 * 1.0),  # spring plus damper on approach
        (sd, -0.5, +1.0, 3 * 0.5),  # separating: spring only
        (sd, +0.5, -1.0, 0.0),  # open
        (kv, -0.5, +0.5, 3 * 0.5 - 2 * 0.5),  # damper opposes separation
        (kv, -0.5, +1.0, 0.0),  # would pull: clipped
        (kv, +0.5, -1.0, 2 * 1.0 - 3 * 0.5),  # fast approach: braked before touching
        (hc, -0.25, -1.0, 3 * 0.25**1.5 * (1 + 2 * 1.0)),  # k δ^n (1 + c δ̇)
        (hc, -0.25, +1.0, 0.0),  # 1 + c δ̇ = −1 < 0: clipped
        (hc, +0.25, -1.0, 0.0),
        (ch, -0.5, -1.0, 3 * 0.5 + 2 * 1.0),  # max(k y + q v, 0) with k = −3, q = −2
        (ch, +0.5, -1.0, 2 * 1.0 - 3 * 0.5),
    ]
    for law, g, r, expected in cases:
        np.testing.assert_allclose(float(law(jnp.asarray(g), jnp.asarray(r))), expected, rtol=1e-14, atol=1e-15)


def test_hunt_crossley_gradient_is_finite_out_of_contact():
    law = HuntCrossley(stiffness=1.0, exponent=0.5, damping=1.0)
    grad = jax.grad(law, argnums=(0, 1))(jnp.asarray(0.3), jnp.asarray(-1.0))
    assert all(np.isfinite(float(x)) and float(x) == 0.0 for x in grad)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(LAWS))
def test_elastic_energy_is_the_potential_of_the_undamped_force(name):
    law = LAWS[name]
    undamped = type(law)(**{k: (0.0 if k == "damping" else getattr(law, k)) for k in type(law).PARAMETERS})
    gaps = jnp.linspace(-1.0, 0.5, 31)
    force = jax.vmap(undamped)(gaps, jnp.zeros_like(gaps))
    energy_slope = jax.vmap(jax.grad(undamped.elastic_energy))(gaps)
    np.testing.assert_allclose(np.asarray(force), -np.asarray(energy_slope), atol=1e-12)


def test_viscous_coulomb_friction():
    law = ViscousCoulomb(damping=4.0)
    mu, normal = jnp.asarray(0.5), jnp.asarray(2.0)
    rates = jnp.linspace(-2.0, 2.0, 401)
    force = np.asarray(jax.vmap(lambda s: law(s, normal, mu))(rates))
    assert np.all(np.abs(force) <= 0.5 * 2.0 + 1e-15)  # inside the friction cone
    assert np.all(force * np.asarray(rates) <= 0.0)  # never feeds energy in
    assert np.all(np.abs(np.diff(force)) <= 4.0 * 0.01 + 1e-12)  # continuous (Lipschitz γ_t)
    np.testing.assert_allclose(float(law(jnp.asarray(0.1), normal, mu)), -0.4)  # viscous band
    np.testing.assert_allclose(float(law(jnp.asarray(-1.0), normal, mu)), 1.0)  # Coulomb: μ λ_n


def test_default_exponents_scale_each_law_its_own_way():
    alpha = 1e6
    normal, _ = ContactModel(normal=ChampneysFastScale(stiffness=2.0, damping=3.0)).at_stiffness(alpha)
    np.testing.assert_allclose([float(normal.stiffness), float(normal.damping)], [2e6, 3e3])
    normal, friction = ContactModel(normal=HuntCrossley(stiffness=2.0, exponent=1.5, damping=0.5)).at_stiffness(alpha)
    scaled = [float(normal.stiffness), float(normal.exponent), float(normal.damping)]
    np.testing.assert_allclose(scaled, [2e6, 1.5, 0.5])
    np.testing.assert_allclose(float(friction.damping), 1e6)


def test_law_exponents_refuses_a_name_the_law_does_not_have():
    """``stifness`` (misspelt) was dropped without a word, leaving the stiffness at its default exponent."""
    with pytest.raises(ValueError) as error:
        law_exponents(SpringDamper, stifness=2.0)
    assert str(error.value) == "law_exponents: stifness is no parameter of SpringDamper (expected stiffness, damping)"
    assert float(law_exponents(SpringDamper, stiffness=2.0).stiffness) == 2.0


def test_contact_time_window_needs_a_linear_stiffness():
    with pytest.raises(ConfigError, match="termination.time_limit.*hunt_crossley.*no linear stiffness"):
        load_study(TABLE1, ["contact.normal_law=hunt_crossley"])
    loaded = load_study(TABLE1, ["contact.normal_law=hunt_crossley", "termination.time_limit=0.01"])
    # A switched law takes its own exponents, not the spring-damper's from the file (tests/studies/test_law_switch.py).
    assert loaded.config["contact"]["normal_exponents"] == {"stiffness": 1.0, "exponent": 0.0, "damping": 0.0}


def test_restart_at_contact_needs_a_touch_down_jump():
    with pytest.raises(ConfigError, match="solver.restart_at"):
        load_study(TABLE1, ["contact.normal_law=clipped_kelvin_voigt", 'solver.restart_at=["contact"]'])


# -- energy through many contact switches -------------------------------------------------------------------

ALPHA = 1e4
RTOL = 1e-10
#: Energy may drift by the numerical error of a solve held to RTOL per step over ~10³ steps (measured: a few
#: 1e-10 relative), never by more than this share of the initial energy.
ENERGY_NOISE = 1e-8
SAMPLES = jnp.linspace(0.0, 1.0, 401)


def bouncing_rod() -> tuple[PainleveRod, jnp.ndarray]:
    """A nearly upright rod dropped at 1 m/s from 2 cm above the ground, sliding sideways (μ = 0.3: not in the
    Painlevé regime); it bounces several times before it has tipped over far."""
    rod = PainleveRod(mu=0.3, gravity=10.0, phi0=1.45, vx0=0.3)
    y0 = initial_state(rod).flat.at[1].add(0.02).at[4].set(-1.0)
    return rod, y0


@jax.jit
def energy_along(contact: ContactModel) -> tuple[jnp.ndarray, jnp.ndarray]:
    """Total energy (rod + elastic) and gap at the sample times of one solve (literal tolerances RTOL)."""
    rod, y0 = bouncing_rod()
    normal, friction = contact.at_stiffness(ALPHA)
    sol = diffrax.diffeqsolve(
        diffrax.ODETerm(flat_vector_field),
        RadauIIA5(radau5_tolerances=False),
        0.0,
        SAMPLES[-1],
        None,
        y0,
        args=CompliantSystem(system=rod, normal=normal, friction=friction),
        saveat=diffrax.SaveAt(ts=SAMPLES),
        stepsize_controller=diffrax.PIDController(rtol=RTOL, atol=RTOL * 1e-2),
        max_steps=20_000,
    )
    q, v = sol.ys[:, :3], sol.ys[:, 3:6]
    gap = jax.vmap(rod.gap)(q)[:, 0]
    return jax.vmap(rod.energy)(q, v) + jax.vmap(normal.elastic_energy)(gap), gap


def contact_switches(gap: jnp.ndarray) -> int:
    return int(np.sum(np.diff(np.sign(np.asarray(gap))) != 0))


@pytest.mark.slow
@pytest.mark.parametrize("law", [SpringDamper, ClippedKelvinVoigt, HuntCrossley, ChampneysFastScale])
def test_energy_is_kept_by_conservative_laws_through_many_switches(law):
    contact = ContactModel(normal=law(stiffness=1.0, damping=0.0), friction=ViscousCoulomb(damping=0.0))
    energy, gap = (np.asarray(a) for a in energy_along(contact))
    assert contact_switches(gap) >= 4  # at least two complete contacts
    assert np.max(np.abs(energy - energy[0])) <= ENERGY_NOISE * abs(energy[0])


@pytest.mark.parametrize("law", [SpringDamper, ClippedKelvinVoigt, HuntCrossley, ChampneysFastScale])
@pytest.mark.slow
def test_energy_never_grows_with_dissipative_laws_through_many_switches(law):
    """Damping of about a tenth of critical (exponent 1/2 keeps the ratio as α grows) and viscous-Coulomb
    friction: the energy falls at every contact and stays put in flight."""
    parameters = {"stiffness": 1.0, "damping": 0.1}
    exponents = {"stiffness": 1.0, "damping": 0.5}
    if law is HuntCrossley:
        parameters, exponents = {**parameters, "exponent": 1.5}, {**exponents, "exponent": 0.0, "damping": 0.0}
    contact = ContactModel(normal=law(**parameters), normal_exponents=law_exponents(law, **exponents))
    energy, gap = (np.asarray(a) for a in energy_along(contact))
    assert contact_switches(gap) >= 4  # at least two complete contacts
    assert np.all(np.diff(energy) <= ENERGY_NOISE * abs(energy[0]))
    assert energy[-1] < 0.97 * energy[0]
