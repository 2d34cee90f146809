"""A trajectory and a force history of a restarted run (a peak law's loop of pieces): the samples are the solve's
own states, a bilinear spring's force follows its two lines with the peak recorded at the turn, and repeated
bounces of a frictionless ball lose ``1 − r²`` of their energy each."""

import equinox as eqx
import jax.numpy as jnp
import numpy as np
import pytest

from regcontact.compliant import Controls, SolveSettings, force_history, solve, trajectory
from regcontact.compliant.dynamics import CompliantState
from regcontact.contact import BilinearSpring, ContactModel, ViscousCoulomb
from regcontact.systems import ReducedSingleContact

pytestmark = pytest.mark.slow

PEAKS = SolveSettings(events=(), restart_at=("peak",), max_steps=20_000)
MODEL = ContactModel(BilinearSpring(1.0, 0.5), ViscousCoulomb(1.0), friction_exponents=ViscousCoulomb(1.5))


def _ball(b=-1.0, speed=-1.0):
    """A frictionless point (``C = 1``, unit mass) under ``b``, touching down at ``speed``."""
    return ReducedSingleContact(a=0.0, b=b, A=1.0, B=0.0, C=1.0, mu=0.0, normal_velocity0=speed)


def _dropped(height):
    """At rest at ``height`` above the contact."""
    return CompliantState(q=jnp.array([0.0, height]), v=jnp.zeros(2), impulses=jnp.zeros((1, 2)))


@eqx.filter_jit
def _dropped_trajectory(system, model, alpha, controls, settings, ts, height):
    """The trajectory from :func:`_dropped`: one compilation for every restitution and α (they are arguments)."""
    return trajectory(system, model, alpha, controls, settings, ts, _dropped(height))


def test_the_samples_of_a_restarted_run_end_where_its_solve_ends():
    """The last sample, at ``t_max``, is the solve's end state; every sample is finite (no event ends the run)."""
    system, alpha = _ball(b=0.0), 1e4
    controls = Controls(t_max=3.0 * np.pi / np.sqrt(alpha))
    ts = jnp.linspace(0.0, controls.t_max, 301)
    states, status = trajectory(system, MODEL, alpha, controls, PEAKS, ts)
    run = solve(system, MODEL, alpha, controls, PEAKS)
    assert int(status) == 0 and bool(run.ok)
    assert np.all(np.isfinite(np.asarray(states.q)))
    np.testing.assert_allclose(np.asarray(states.v[-1]), np.asarray(run.state_end.v), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(np.asarray(states.q[-1]), np.asarray(run.state_end.q), rtol=1e-9, atol=1e-14)


def test_the_force_follows_the_loading_line_then_the_steeper_unloading_line():
    """Loading: ``λ = k δ``; after the turn at ``δ_max``: ``λ = k δ_max − (k/r²)(δ_max − δ)`` (the held peak);
    the exit speed is ``r`` times the approach speed."""
    system, alpha, r = _ball(b=0.0), 1e4, 0.5
    controls = Controls(t_max=2.0 * np.pi / np.sqrt(alpha))
    ts = jnp.linspace(0.0, controls.t_max, 2001)
    history = force_history(system, MODEL, alpha, controls, PEAKS, ts)
    gaps = np.asarray(history.states.q)[:, 1]
    forces = np.asarray(history.forces)[:, 0, 0]
    deepest = -gaps.min()
    np.testing.assert_allclose(deepest, 1.0 / np.sqrt(alpha), rtol=1e-6)  # ½ v² = ½ k δ² at unit mass
    turn = int(np.argmin(gaps))
    loading = slice(1, turn)
    np.testing.assert_allclose(forces[loading], -alpha * gaps[loading], rtol=1e-12)
    unloading = slice(turn + 1, None)
    expected = np.maximum(alpha * deepest - alpha / r**2 * (deepest + gaps[unloading]), 0.0)
    np.testing.assert_allclose(
        forces[unloading], np.where(gaps[unloading] < 0, expected, 0.0), atol=1e-6 * alpha * deepest
    )
    assert np.all(forces[unloading][gaps[unloading] > -deepest * (1 - r**2)] == 0.0)  # ended at the residual set
    np.testing.assert_allclose(np.asarray(history.states.v)[-1, 1], r, rtol=1e-7)


@pytest.mark.parametrize("restitution", [0.5, 0.8])
def test_a_dropped_ball_bounces_to_r_squared_of_its_height_in_the_limit(restitution):
    """A ball dropped from rest at height ``h`` on the bilinear spring, under gravity: it lands at ``√(2 g h)``,
    leaves at ``r`` times that, so its next apex tends to ``r² h``. At finite α, gravity acts during the contact
    and the flight starts from the residual penetration: the apex is off by ``O(δ_max/h) = O(α^(−1/2))``.
    Measured: relative errors 6.1e-2, 6.0e-3, 6.0e-4 (r = 0.5) and 1.1e-2, 1.1e-3, 1.1e-4 (r = 0.8) at α = 1e4,
    1e6, 1e8. The peak is recorded afresh at the second turn; the first apex is found on the samples by a
    parabola through the three highest."""
    model = ContactModel(BilinearSpring(1.0, restitution), ViscousCoulomb(1.0))
    system, height, t_max = _ball(b=-1.0, speed=0.0), 0.5, 2.2
    ts = jnp.linspace(0.0, t_max, 22_001)
    settings = SolveSettings(events=(), restart_at=("peak",), max_steps=50_000)
    errors = []
    for alpha in (1e4, 1e6, 1e8):
        states, status = _dropped_trajectory(
            system, model, jnp.asarray(alpha), Controls(t_max=t_max), settings, ts, jnp.asarray(height)
        )
        assert int(status) == 0
        gaps = np.asarray(states.q)[:, 1]
        (apex,) = np.flatnonzero((gaps[1:-1] > gaps[:-2]) & (gaps[1:-1] >= gaps[2:]) & (gaps[1:-1] > 0)) + 1
        left, mid, right = gaps[apex - 1 : apex + 2]
        top = mid - (right - left) ** 2 / (8.0 * (left - 2.0 * mid + right))
        errors.append(abs(top / (restitution**2 * height) - 1.0))
    orders = -np.diff(np.log10(errors)) / 2.0
    assert errors[-1] < 1e-3 and np.all((orders > 0.45) & (orders < 0.55)), (errors, orders)
