"""``rigid_references_batch`` gives ``rigid_references``' answers bit for bit: the states of each class of systems from
one jitted call, the one-contact laws from the batched enumeration, the others one at a time."""

import json

import numpy as np
import pytest

from regcontact.rigid import ReferenceOptions, rigid_references, rigid_references_batch, torque_threshold
from regcontact.rigid._state import ContactState, initial_contact_states
from regcontact.systems.reduced_contact import ReducedSingleContact
from regcontact.systems.rod import PainleveRod
from regcontact.systems.two_point_rod import TwoPointRod

OPTIONS = ReferenceOptions(impulse_velocity=True, time_steps=(0.01, 1e-4))


def map_rods(size):
    """The Painlevé map's rods (``studies/painleve_map.toml``'s μ, φ₀ range) on a ``size × size`` grid."""
    return [
        PainleveRod(mu=mu, phi0=phi0, vx0=-1.0)
        for mu in np.linspace(0.6, 2.4, size)
        for phi0 in np.linspace(0.2, 1.5, size)
    ]


def paper_rods():
    """Table 1's rod, Sec. 2.2's torque below and above its threshold, a spinning rod and one in other units."""
    phi = np.pi / 3
    return [
        PainleveRod(mu=1.5, phi0=phi, vx0=-1.0),
        PainleveRod(mu=1.5, phi0=phi, vx0=-1.0, torque=torque_threshold(phi) - 1.0),
        PainleveRod(mu=1.5, phi0=phi, vx0=-1.0, torque=torque_threshold(phi) + 0.5),
        PainleveRod(mu=0.8, phi0=0.7, vx0=0.5, omega0=-1.3, force_x=0.2),
        PainleveRod(mass=1e6, length=1e-3, gravity=9.81, mu=2.0, phi0=1.2, vx0=-1e-2),
    ]


def random_rods(count, seed):
    rng = np.random.default_rng(seed)
    return [
        PainleveRod(
            mass=rng.uniform(0.1, 10.0),
            length=rng.uniform(0.1, 5.0),
            gravity=rng.uniform(0.1, 10.0),
            torque=rng.normal(),
            force_x=rng.normal(),
            mu=rng.uniform(0.0, 3.0),
            phi0=rng.uniform(0.1, 1.5),
            vx0=rng.normal(),
            omega0=rng.normal(),
        )
        for _ in range(count)
    ]


def assert_same(fast, exact):
    """The same solutions, modes, chosen impulse (its bytes), rule, columns, JSON and time-step references."""
    assert type(fast) is type(exact)
    assert json.dumps(fast.as_json()) == json.dumps(exact.as_json())
    assert fast.impulse_rule == exact.impulse_rule
    assert fast.impulse_modes == exact.impulse_modes
    assert (fast.impulse is None) == (exact.impulse is None)
    if exact.impulse is not None:
        assert fast.impulse.tobytes() == exact.impulse.tobytes()
        integrals = np.full(exact.impulse.shape, 0.3)
        assert fast.columns(integrals) == exact.columns(integrals)
    for dt in OPTIONS.time_steps:
        (fast_step, fast_rule), (step, rule) = fast.time_stepping_impulse(dt), exact.time_stepping_impulse(dt)
        assert fast_rule == rule
        assert (fast_step is None and step is None) or fast_step.tobytes() == step.tobytes()


def other_systems():
    return [
        TwoPointRod(gravity=10.0, mu=0.5, vy0=-1.0, vx0=0.2),
        *paper_rods()[:2],
        ReducedSingleContact(a=0.0, b=-1.0, A=1.0, B=0.3, C=1.0, mu=0.5, slip0=-1.0),
        TwoPointRod(gravity=10.0, mu=0.3, vx0=1.0),
    ]


@pytest.mark.slow
def test_batched_states_equal_the_eager_ones():
    systems = map_rods(6) + paper_rods() + random_rods(30, seed=2) + other_systems()
    for system, state in zip(systems, initial_contact_states(systems), strict=True):
        eager = ContactState.from_system(system)
        for name in ("mass_matrix", "jacobians", "jacobian_rates", "applied_force", "velocity", "mu", "gaps"):
            assert getattr(state, name).tobytes() == getattr(eager, name).tobytes(), name
        assert state.length_scale == eager.length_scale


@pytest.mark.slow
@pytest.mark.parametrize(
    "systems",
    [map_rods(7), paper_rods(), random_rods(25, seed=3)],
    ids=["painleve_map_grid", "paper_rods", "random_rods"],
)
def test_batch_equals_one_at_a_time(systems):
    for fast, system in zip(rigid_references_batch(systems, OPTIONS), systems):
        assert_same(fast, rigid_references(system, impulse_velocity=True, time_steps=OPTIONS.time_steps))


@pytest.mark.slow
def test_other_systems_keep_their_place():
    """Two-point rods and a reduced system among rods: each keeps its place and its references."""
    systems = other_systems()
    for fast, system in zip(rigid_references_batch(systems, OPTIONS), systems, strict=True):
        assert_same(fast, rigid_references(system, impulse_velocity=True, time_steps=OPTIONS.time_steps))


def test_switching_the_impulse_velocity_reference_off():
    rods = paper_rods()
    for fast, rod in zip(rigid_references_batch(rods, ReferenceOptions(impulse_velocity=False)), rods):
        exact = rigid_references(rod, impulse_velocity=False)
        assert fast.impulse is None and fast.impulse_velocity is None
        assert json.dumps(fast.as_json()) == json.dumps(exact.as_json())


def test_time_steps_solved_ahead_give_the_same_time_stepping_impulses():
    rods = [PainleveRod(mu=mu, phi0=phi) for mu in (1.0, 1.5, 2.0) for phi in (0.6, 1.0471975511965976)]
    steps = [1e-2, 1e-3, 1e-4, 1e-5]
    ahead = rigid_references_batch(rods, ReferenceOptions(time_steps=(1e-2,)), further_steps=steps)
    lazy = [rigid_references(rod, time_steps=[1e-2]) for rod in rods]
    for early, late in zip(ahead, lazy):
        assert sorted(early.further_steps) == [1e-5, 1e-4, 1e-3]  # 1e-2 is listed, so not solved again
        assert early.as_json() == late.as_json()  # the steps solved ahead are not reported
        for dt in steps:
            (got, why), (want, reason) = early.time_stepping_impulse(dt), late.time_stepping_impulse(dt)
            assert why == reason
            assert (got is None and want is None) or np.array_equal(got, want)
