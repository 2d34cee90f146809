"""λ(t) of one compliant run: its time integral is the force integral the solve carries, and it has the closed
forms of a body at rest and of momentum balance."""

import jax.numpy as jnp
import numpy as np
import pytest

import regcontact as rc
from regcontact.compliant import CompliantState

pytestmark = pytest.mark.slow

MASS, GRAVITY, ALPHA = 1.0, 1.0, 1e4


def test_the_integral_of_the_history_is_the_force_integral_of_the_solve():
    """The Painlevé rod over one contact time (slip, impulsive switch to stick): the trapezoid of λ(t) on a fine
    grid equals the impulses integrated alongside the state, to the grid's accuracy (the forces are exact at each
    dense-output state; the narrow force peak at the switch bounds the quadrature's accuracy)."""
    rod = rc.PainleveRod()
    t_c = float(rc.contact_time(rod, ALPHA))
    controls, settings = rc.Controls(1e-10, 1e-12, t_c), rc.SolveSettings(events=())
    history = rc.force_history(rod, rc.ContactModel(), ALPHA, controls, settings, jnp.linspace(0.0, t_c, 4001))
    carried = np.asarray(history.states.impulses[-1] - history.states.impulses[0])
    assert history.forces.shape == (4001, 1, 2) and int(history.status) == 0
    np.testing.assert_allclose(np.asarray(history.integral()), carried, rtol=2e-4)
    run = rc.solve(rod, rc.ContactModel(), ALPHA, controls, settings)
    np.testing.assert_allclose(carried, np.asarray(run.state_end.impulses), rtol=1e-6)


def _flat_rod() -> rc.TwoPointRod:
    return rc.TwoPointRod(mass=MASS, gravity=GRAVITY, mu=0.5, phi0=0.0)


def test_a_rod_resting_in_its_static_sink_carries_half_its_weight_on_each_end():
    """A flat two-point rod at rest, sunk by m g / (2 k) at each end (the springs' static equilibrium): λ_n = m g / 2
    at both ends and λ_t = 0 at every time."""
    rod = _flat_rod()
    sink = MASS * GRAVITY / (2 * ALPHA)  # spring_damper: k = α, and at rest the damper is idle
    q0, v0 = rod.initial_state()
    state0 = CompliantState(q=q0.at[1].add(-sink), v=v0, impulses=jnp.zeros((2, 2)))
    ts = jnp.linspace(0.0, 1.0, 101)
    history = rc.force_history(
        rod, rc.ContactModel(), ALPHA, rc.Controls(1e-10, 1e-12, 1.0), rc.SolveSettings(events=()), ts, state0
    )
    np.testing.assert_allclose(history.forces[:, :, 0], MASS * GRAVITY / 2, rtol=1e-8)
    np.testing.assert_allclose(history.forces[:, :, 1], 0.0, atol=1e-10)


def test_a_rod_dropped_onto_its_springs_balances_momentum():
    """A flat rod released at rest with unloaded springs sinks and is caught: ∫(λ_n,1 + λ_n,2) dt = m g T + m v_y(T)
    (vertical momentum), for the history's integral as for the solve's."""
    rod = _flat_rod()
    t_end = 0.2
    ts = jnp.linspace(0.0, t_end, 4001)
    history = rc.force_history(
        rod, rc.ContactModel(), ALPHA, rc.Controls(1e-10, 1e-12, t_end), rc.SolveSettings(events=()), ts
    )
    momentum = MASS * GRAVITY * t_end + MASS * float(history.states.v[-1, 1])
    assert momentum > 0.1  # the springs carried much of the weight
    np.testing.assert_allclose(float(history.states.impulses[-1, :, 0].sum()), momentum, rtol=1e-8)
    np.testing.assert_allclose(float(history.integral()[:, 0].sum()), momentum, rtol=1e-4)


def test_times_after_an_ending_event_hold_nan():
    """A flat rod at rest sunk three times its static sink is thrown up by its springs: samples after
    ``contact_open`` ended the run are nan, those before are finite."""
    rod = _flat_rod()
    q0, v0 = rod.initial_state()
    state0 = CompliantState(q=q0.at[1].add(-3 * MASS * GRAVITY / ALPHA), v=v0, impulses=jnp.zeros((2, 2)))
    ts = jnp.linspace(0.0, 0.2, 201)
    history = rc.force_history(
        rod, rc.ContactModel(), ALPHA, rc.Controls(1e-10, 1e-12, 0.2), rc.SolveSettings(events=("contact_open",)),
        ts, state0,
    )  # fmt: skip
    finite = np.isfinite(np.asarray(history.forces)).all(axis=(1, 2))
    assert finite[0] and not finite[-1]
    assert np.all(np.diff(finite.astype(int)) <= 0)  # finite, then nan
