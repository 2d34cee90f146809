"""Time-dependent loads: the profiles, a free rod and a block under ramped loads against closed forms, and the rigid
side seeing the same load at the same ``t`` as the compliant one."""

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from regcontact.compliant import Controls, SolveSettings, trajectory
from regcontact.compliant.dynamics import CompliantSystem, vector_field
from regcontact.contact import ContactModel
from regcontact.rigid import g_spot_linearisation
from regcontact.rigid._state import ContactState
from regcontact.systems import (
    ConstantLoad,
    PainleveRod,
    RampLoad,
    ReducedSingleContact,
    TableLoad,
    TwoPointRod,
    contact_space_form,
)

NO_EVENTS = SolveSettings(events=(), max_steps=50_000)


def test_profiles_are_their_formulas():
    ramp = RampLoad(1.0, -0.5, until=2.0)
    assert [float(ramp(t)) for t in (0.0, 1.0, 2.0, 3.0)] == [1.0, 0.5, 0.0, 0.0]
    assert float(RampLoad(1.0, 2.0)(10.0)) == 21.0
    table = TableLoad([0.0, 1.0, 3.0], [0.0, 2.0, 0.0])
    assert [float(table(t)) for t in (-1.0, 0.5, 2.0, 5.0)] == [0.0, 1.0, 1.0, 0.0]
    assert float(ConstantLoad(3.0)(7.0)) == 3.0
    assert not ConstantLoad(3.0).DEPENDS_ON_TIME and RampLoad.DEPENDS_ON_TIME


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: RampLoad(np.nan, 1.0), "start"),
        (lambda: RampLoad(0.0, 1.0, until=np.inf), "until"),
        (lambda: RampLoad(1.0, 0.5, until=-2.0), "until = -2.0: expected a number ≥ 0"),  # f(0) was 0, not 1
        (lambda: TableLoad([0.0, 0.0], [1.0, 2.0]), "strictly increasing"),
        (lambda: TableLoad([0.0, 1.0], [1.0]), "one value per time"),
    ],
)
def test_bad_profiles_are_refused_in_one_line(build, message):
    with pytest.raises(ValueError, match=message):
        build()


def test_a_constant_load_is_the_number_it_replaces():
    """A rod whose loads are numbers computes ``h`` exactly as before (the same arrays stacked); the loads' being
    profiles or not is static."""
    rod = PainleveRod(gravity=1.3, torque=0.2, force_x=-0.1)
    q, v = rod.initial_state()
    assert np.array_equal(rod.forces(q, v, 5.0), jnp.stack([rod.force_x, -rod.mass * rod.gravity, rod.torque]))
    assert not rod.time_dependent_loads
    assert PainleveRod(torque=RampLoad(0.2, 0.0)).time_dependent_loads
    assert not PainleveRod(torque=ConstantLoad(0.2)).time_dependent_loads


def test_a_new_rate_does_not_recompile_and_a_batch_vmaps():
    traces = []

    @eqx.filter_jit
    def fy(rod, t):
        traces.append(1)
        return rod.forces(jnp.zeros(3), jnp.zeros(3), t)[1]

    for rate in (0.1, 0.2, 0.3):
        fy(PainleveRod(gravity=RampLoad(1.0, rate)), 2.0)
    assert len(traces) == 1
    rods = jax.vmap(lambda rate: PainleveRod(gravity=RampLoad(1.0, rate)))(jnp.array([0.1, 0.2]))
    np.testing.assert_array_equal(jax.vmap(fy, in_axes=(0, None))(rods, 2.0), [-1.2, -1.4])


#: The free rod and the block share one structure (which loads are profiles, of which kind) and settings, so the
#: solve compiles once for both.
CONTROLS = Controls(rtol=1e-10, atol=1e-12, t_max=2.0)


def _rod(mass, gravity, force_x, torque, **start):
    return TwoPointRod(mass=mass, gravity=gravity, force_x=force_x, torque=torque, **start)


def _velocities_and_positions(rod, ts):
    states, _ = trajectory(rod, ContactModel(), jnp.asarray(1e6), CONTROLS, NO_EVENTS, ts)
    return np.asarray(states.v), np.asarray(states.q)


@pytest.mark.slow
def test_a_free_rod_moves_by_the_double_integral_of_its_ramped_loads():
    """Far above the ground, ``x = ∫∫ f_x/m``, ``y = y₀ − ∫∫ g`` and ``φ = φ₀ + ∫∫ τ/I`` for ramps: cubic in ``t``."""
    m = 2.0
    rod = _rod(m, RampLoad(1.0, 0.6), RampLoad(0.4, -1.2), TableLoad([0.0, 2.0], [0.0, 0.4]), height=50.0, vx0=0.3)
    ts = jnp.linspace(0.1, 2.0, 5)
    _, q = _velocities_and_positions(rod, ts)
    t = np.asarray(ts)
    x0 = float(rod.initial_state()[0][0])
    x = x0 + 0.3 * t + (0.4 * t**2 / 2 - 1.2 * t**3 / 6) / m
    y = 50.0 - (t**2 / 2 + 0.6 * t**3 / 6)
    phi = (0.2 * t**3 / 6) / float(rod.inertia)
    np.testing.assert_allclose(q, np.stack([x, y, phi], axis=-1), rtol=1e-12, atol=1e-12)


@pytest.mark.slow
def test_a_block_under_a_ramped_push_starts_to_slip_when_the_push_reaches_mu_n():
    """A flat rod on two contacts (friction level with the centre of mass: no torque), weight ``m g`` and a push
    ``f_x = r t``: it sticks until ``t* = μ m g / r`` and then ``ẍ = (r t − μ m g)/m``, so ``v = r (t − t*)²/(2m)``.
    The compliant model (viscous Coulomb, γ_t ∝ α) creeps at ``O(1/α)``: measured 2.3e-7 at α = 1e6, 2.3e-6 at 1e5."""
    m, g, r = 1.0, 1.0, 1.0
    rod = _rod(m, RampLoad(g, 0.0), RampLoad(0.0, r), TableLoad([0.0, 2.0], [0.0, 0.0]))
    t_star = float(rod.mu) * m * g / r
    ts = jnp.array([0.25, 0.45, 0.75, 1.0, 1.2])
    v, _ = _velocities_and_positions(rod, ts)
    t = np.asarray(ts)
    expected = np.where(t > t_star, r * (t - t_star) ** 2 / (2 * m), 0.0)
    np.testing.assert_allclose(v[:, 0], expected, atol=5e-7)
    assert v[1, 0] < 1e-5 < v[2, 0]


@pytest.mark.slow
def test_rigid_and_compliant_sides_see_the_same_load_at_the_same_time():
    """The compliant vector field off the ground (no contact force: ``v̇ = M⁻¹h(t)``), the rigid contact state and
    the rigid slip's free direction all evaluate the rod's profiles at the ``t`` they are given."""
    from regcontact.compliant.dynamics import CompliantState
    from regcontact.rigid._painleve.dynamic_jam import _free_direction

    rod = PainleveRod(gravity=RampLoad(1.0, -0.3), torque=TableLoad([0.0, 1.0, 2.0], [0.1, 0.5, 0.2]))
    q, v = rod.initial_state()
    args = CompliantSystem(rod, *ContactModel().at_stiffness(1e4))
    lifted = CompliantState(q=q.at[1].add(1.0), v=v, impulses=jnp.zeros((1, 2)))
    for t in (0.0, 0.7, 1.6):
        expected = np.array([0.0, -(1.0 - 0.3 * t), float(np.interp(t, [0, 1, 2], [0.1, 0.5, 0.2]))])
        compliant = vector_field(t, lifted, args).v * np.array([rod.mass, rod.mass, rod.inertia])
        rigid = ContactState.from_system(rod, q, v, t).applied_force
        slip = _free_direction(rod, (q, v, jnp.asarray(t)))[1] * np.array([rod.mass, rod.mass, rod.inertia])
        for found in (compliant, rigid, slip):
            np.testing.assert_allclose(found, expected, rtol=1e-14, atol=1e-15)


@pytest.mark.slow
def test_the_g_spot_rates_of_a_ramped_rod_are_the_printed_closed_forms():
    """Champneys' α₂ after Eq. 34 contains the loads' rates ``Ṡ_y − 3Ṙ cos θ`` (m = 1, l = 2): the rigid slip's
    linearisation sees ``∂h/∂t`` of the rod's own load profiles."""
    rng = np.random.default_rng(7)
    for _ in range(10):
        theta, omega = rng.uniform(0.3, 1.3), rng.uniform(-2, 2)
        mu, g0, tau0 = rng.uniform(0.1, 2), rng.uniform(0.5, 2), rng.uniform(-1, 1)
        sy_rate, r_rate, t = rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0.1, 2)
        rod = PainleveRod(mu=mu, gravity=RampLoad(g0, -sy_rate), torque=RampLoad(tau0, r_rate))
        q = jnp.array([np.cos(theta), np.sin(theta), theta])
        v = jnp.array([-1.0 - np.sin(theta) * omega, np.cos(theta) * omega, omega])
        lin = g_spot_linearisation(rod, q, v, t)
        s, c, R = np.sin(theta), np.cos(theta), tau0 + r_rate * t
        printed = (
            -3 * omega * (np.sin(2 * theta) + mu * np.cos(2 * theta)),
            9 * R * omega * s + omega**3 * c + sy_rate - 3 * r_rate * c,
            -6 * omega * s * (mu * s - c),
        )
        np.testing.assert_allclose([lin.alpha1, lin.alpha2, lin.alpha3], printed, rtol=1e-12, atol=1e-12)


@pytest.mark.slow
def test_a_contact_space_block_under_a_ramped_free_acceleration_slips_at_t_star():
    """Champneys' form with ``A = C = 1``, ``B = 0``, ``b = −1`` (a unit normal load) and ``a(t) = r t``: sticks until
    ``a`` reaches ``μ``, ``t* = μ/r``, then ``u = r (t − t*)²/2``; its contact-space form at ``t`` (what the rigid
    side reads) has ``a(t)``."""
    mu, r = 0.5, 2.0
    block = ReducedSingleContact(a=RampLoad(0.0, r), b=-1.0, mu=mu)
    assert block.time_dependent_loads and not ReducedSingleContact().time_dependent_loads
    q, v = block.initial_state()
    assert float(contact_space_form(block, q, v, 0.3).a[0]) == pytest.approx(r * 0.3, rel=1e-15)
    ts = jnp.array([0.2, 0.5])
    states, _ = trajectory(
        block, ContactModel(), jnp.asarray(1e6), Controls(rtol=1e-9, atol=1e-11, t_max=0.5), NO_EVENTS, ts
    )
    t_star = mu / r
    expected = np.where(np.asarray(ts) > t_star, r * (np.asarray(ts) - t_star) ** 2 / 2, 0.0)
    np.testing.assert_allclose(np.asarray(states.v[:, 0]), expected, atol=1e-6)


@pytest.mark.slow
def test_rigid_time_stepping_of_the_block_slips_at_t_star_too():
    """Moreau–Jean (the applied force taken at each step's start) on the block pushed by ``f_x = r t``: no slip
    before ``t* = μ m g / r``, then ``v = r (t − t*)²/(2m)`` up to the step's lag, ``O(δt)``: measured ``δt/4``
    at δt = 1e-2 and 1e-3."""
    from regcontact.rigid import moreau_jean

    rod = TwoPointRod(force_x=RampLoad(0.0, 1.0))
    dt = 1e-3
    run = moreau_jean(rod, 1.0, dt)
    t, v = run.times, run.v[:, 0]
    expected = np.where(t > 0.5, (t - 0.5) ** 2 / 2, 0.0)
    assert np.max(np.abs(v[t < 0.5])) < 1e-12
    np.testing.assert_allclose(v, expected, atol=0.3 * dt)


@pytest.mark.slow
def test_a_profile_set_out_of_its_rules_fails_its_run_by_name():
    """``eqx.tree_at`` (or a trace) bypasses the constructor: a table whose times do not increase interpolated
    as if they did and solved with ``ok = True``; such a run, and a ramp held from before it starts, fail as
    ``invalid_parameter`` without integrating, and the table that keeps its rule solves as before."""
    import regcontact as rc

    rod = PainleveRod(torque=TableLoad([0.0, 1.0, 2.0], [0.0, 0.1, 0.2]))
    t_max = 0.5 * float(rc.contact_time(rod, 1e4))
    controls = rc.Controls(t_max=t_max)
    good = rc.solve(rod, ContactModel(), 1e4, controls)
    unsorted = eqx.tree_at(lambda r: r.torque.times, rod, jnp.array([0.0, 2.0, 1.0]))
    bad = rc.solve(unsorted, ContactModel(), 1e4, controls)
    assert (bool(good.ok), good.check_name) == (True, "passed")
    assert (bool(bad.ok), bad.check_name, int(bad.num_steps)) == (False, "invalid_parameter", 0)
    ramp = PainleveRod(torque=RampLoad(0.1, 0.5, until=1.0))
    early = eqx.tree_at(lambda r: r.torque.until, ramp, jnp.asarray(-1.0))
    assert rc.solve(early, ContactModel(), 1e4, controls).check_name == "invalid_parameter"
    assert rc.solve(ramp, ContactModel(), 1e4, controls).check_name == "passed"
