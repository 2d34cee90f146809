"""The sample times of a trajectory and a force history: concrete times that are not a non-decreasing 1-D array
within ``[0, t_max]`` are refused in one line naming the time at fault; traced ones that break the rule give a
run whose every sample is nan and whose status is ``invalid_times``, beside good runs of the same batch that stay
as they are."""

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from regcontact.compliant import SOLVER_STATUSES, Controls, SolveSettings, force_history, trajectory
from regcontact.contact import BilinearSpring, ContactModel, ViscousCoulomb
from regcontact.systems import ReducedSingleContact

ALPHA = 1e4
BALL = ReducedSingleContact(a=0.0, b=0.0, A=1.0, B=0.0, C=1.0, mu=0.0, normal_velocity0=-1.0)
CONTROLS = Controls(t_max=2.0 * np.pi / np.sqrt(ALPHA))
T_MAX = float(CONTROLS.t_max)
#: One run of a plain law (one diffrax solve) and one of a peak law (the loop of pieces).
RUNS = {
    "plain": (ContactModel(), SolveSettings(events=())),
    "peak": (
        ContactModel(BilinearSpring(1.0, 0.5), ViscousCoulomb(1.0)),
        SolveSettings(events=(), restart_at=("peak",), max_steps=20_000),
    ),
}
SAMPLERS = {"trajectory": trajectory, "force_history": force_history}

BAD_TIMES = {
    "decreasing": (
        [0.0, 0.5 * T_MAX, 0.2 * T_MAX, T_MAX],
        rf"^ts\[2\] = {0.2 * T_MAX!r}: expected times non-decreasing within \[0, t_max = {T_MAX!r}\] "
        rf"\(ts\[1\] = {0.5 * T_MAX!r} before it\)$",
    ),
    "negative": ([-1e-3, 0.5 * T_MAX], r"^ts\[0\] = -0.001: expected times non-decreasing within \[0, t_max = "),
    "past t_max": ([0.0, T_MAX, 2.0 * T_MAX], rf"^ts\[2\] = {2.0 * T_MAX!r}: expected times non-decreasing"),
    "nan": ([0.0, float("nan")], r"^ts = nan: expected a finite number$"),
    "two-dimensional": ([[0.0, T_MAX]], r"^ts = an array of shape \(1, 2\): expected a 1-D array of one or more"),
    "empty": ([], r"^ts = an array of shape \(0,\): expected a 1-D array of one or more times$"),
    "text": ("0.1", r"^ts = '0.1': expected a finite number$"),
}


@pytest.mark.parametrize("sampler", SAMPLERS)
@pytest.mark.parametrize("case", BAD_TIMES)
def test_concrete_times_out_of_order_or_range_are_refused_by_index(sampler, case):
    times, message = BAD_TIMES[case]
    model, settings = RUNS["plain"]
    with pytest.raises(ValueError, match=message):
        SAMPLERS[sampler](BALL, model, ALPHA, CONTROLS, settings, times)


def test_concrete_times_are_checked_against_a_traced_end_time_where_they_can_be():
    """Under ``jit`` with ``t_max`` traced, concrete times that decrease are still refused where they are given."""
    model, settings = RUNS["plain"]

    @jax.jit
    def sample(t_max):
        return trajectory(BALL, model, ALPHA, Controls(t_max=t_max), settings, np.array([0.0, 2e-3, 1e-3]))[0].q

    with pytest.raises(ValueError, match=r"^ts\[2\] = 0.001: expected times non-decreasing within \[0, t_max\] "):
        sample(T_MAX)


@pytest.mark.slow
@pytest.mark.parametrize("run", RUNS)
def test_a_repeated_time_samples_the_same_state_twice(run):
    """Non-decreasing times are allowed: a time given twice has the state of the times given once, at both."""
    model, settings = RUNS[run]
    once, _ = trajectory(BALL, model, ALPHA, CONTROLS, settings, jnp.array([0.0, T_MAX / 3, T_MAX]))
    twice, _ = trajectory(BALL, model, ALPHA, CONTROLS, settings, jnp.array([0.0, T_MAX / 3, T_MAX / 3, T_MAX]))
    for leaf_once, leaf_twice in zip(jax.tree.leaves(once), jax.tree.leaves(twice), strict=True):
        np.testing.assert_array_equal(np.asarray(leaf_twice)[[0, 1, 2, 3]], np.asarray(leaf_once)[[0, 1, 1, 2]])
    assert np.all(np.isfinite(np.asarray(once.q)))


@pytest.mark.slow
@pytest.mark.parametrize("run", RUNS)
def test_traced_times_that_break_the_rule_give_nan_samples_and_leave_good_runs_alone(run):
    """A batch of times under ``vmap``: the rows that decrease, leave ``[0, t_max]`` or hold nan are every sample
    nan (states and forces); a good row is the same, bit for bit, beside them as beside another good row."""
    model, settings = RUNS[run]
    good = jnp.linspace(0.0, T_MAX, 7)
    bad = [good[::-1], good - 1e-3, 2.0 * good, good.at[3].set(jnp.nan)]

    @eqx.filter_jit
    def histories(times):
        return jax.vmap(lambda ts: force_history(BALL, model, ALPHA, CONTROLS, settings, ts))(times)

    alone = histories(jnp.stack([good] * 5))
    mixed = histories(jnp.stack([good, *bad]))
    assert np.all(np.isfinite(np.asarray(alone.forces))) and np.all(np.isfinite(np.asarray(alone.states.q)))
    for leaf_alone, leaf_mixed in zip(jax.tree.leaves(alone), jax.tree.leaves(mixed), strict=True):
        np.testing.assert_array_equal(np.asarray(leaf_mixed)[0], np.asarray(leaf_alone)[0])
    for leaf in (mixed.forces, mixed.states.q, mixed.states.v, mixed.states.impulses):
        assert np.all(np.isnan(np.asarray(leaf)[1:]))
    statuses = [SOLVER_STATUSES[int(code)] for code in np.asarray(mixed.status)]
    assert statuses == ["successful"] + ["invalid_times"] * len(bad)  # the bad runs say so, not "successful"
