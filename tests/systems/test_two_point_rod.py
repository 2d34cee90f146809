"""The two-point rod against rigid answers and invariants (issue 9, "Checks against physics").

The rod is a line (no thickness), so when it lies flat its contact points are level with its centre of mass:
friction exerts no torque, and by symmetry each end carries half the weight.
"""

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
import pytest

from regcontact.compliant import Case, Controls, SolveSettings, solve, sweep
from regcontact.compliant.dynamics import CompliantSystem, initial_state
from regcontact.compliant.run_checks import RUN_CHECKS, total_energy
from regcontact.compliant.termination import contact_time
from regcontact.contact import ContactModel
from regcontact.systems.rod import PainleveRod
from regcontact.systems.two_point_rod import TwoPointRod

pytestmark = pytest.mark.slow

MODEL = ContactModel()
NO_EVENTS = SolveSettings(events=(), max_steps=50_000)
RESTARTS = SolveSettings(events=(), restart_at=("contact",), max_steps=50_000)


def _sweep(system, alphas, t_max, settings):
    cases = [Case(system, MODEL, jnp.asarray(a, float), Controls(t_max=t_max)) for a in alphas]
    runs, _ = sweep(jtu.tree_map(lambda *leaves: jnp.stack(leaves), *cases), settings)
    return runs


def test_kinematics_are_the_derivatives_of_the_gaps():
    rod = TwoPointRod(phi0=0.3, omega0=1.7, vx0=0.3, vy0=-0.2)
    q, v = rod.initial_state()
    np.testing.assert_allclose(jax.jacfwd(rod.gaps)(q), rod.jacobians(q), atol=1e-15)
    rate = jax.jvp(lambda qq: rod.jacobians(qq) @ v, (q,), (v,))[1]
    np.testing.assert_allclose(rate, rod.jacobian_rates(q, v), atol=1e-15)


@pytest.mark.slow
def test_the_flat_rod_sliding_on_both_ends_tends_to_the_rigid_answer():
    """Rigid: λ_n = m g / 2 and λ_t = −μ m g / 2 at each end, v̇_x = −μ g (m = 1, g = 10, μ = 0.3, v_x0 = 1)."""
    rod = TwoPointRod(gravity=10.0, mu=0.3, vx0=1.0)
    t_max = 0.1
    runs = _sweep(rod, [1e4, 1e6, 1e8], t_max, NO_EVENTS)
    assert np.all(runs.ok), [RUN_CHECKS[c] for c in runs.check]
    rigid = np.array([5.0, -1.5, 5.0, -1.5]) * t_max  # (∫λ_n,1, ∫λ_t,1, ∫λ_n,2, ∫λ_t,2)
    errors = np.abs(runs.force_integrals - rigid).max(axis=1)
    assert errors[0] > errors[1] > errors[2] and errors[2] < 1e-4 * 0.5, errors
    np.testing.assert_allclose(runs.state_end.v[:, 0], 1.0 - 0.3 * 10.0 * t_max, atol=2e-3)
    np.testing.assert_allclose(runs.state_end.v[-1, 0], 1.0 - 0.3 * 10.0 * t_max, atol=1e-6)


@pytest.mark.slow
def test_a_rod_dropped_flat_gets_equal_impulses_at_both_ends():
    """Dropped from 1 cm at 1 m/s: by symmetry both ends touch down together and carry equal forces; the normal
    impulse over the window is the momentum to stop the fall plus the weight carried after it."""
    rod = TwoPointRod(gravity=10.0, mu=0.5, height=0.01, vy0=-1.0, vx0=0.2)
    t_max = 0.05
    runs = _sweep(rod, [1e6, 1e8], t_max, RESTARTS)
    assert np.all(runs.ok), [RUN_CHECKS[c] for c in runs.check]
    impulses = runs.state_end.impulses
    np.testing.assert_allclose(impulses[:, 0], impulses[:, 1], rtol=1e-12)
    # momentum: m (v_y(T) − v_y(0)) = −m g T + Σ ∫λ_n; at the end the rod rests (v_y ≈ 0)
    total = impulses[:, :, 0].sum(axis=1)
    np.testing.assert_allclose(total, runs.state_end.v[:, 1] - (-1.0) + 10.0 * t_max, rtol=1e-9)
    np.testing.assert_allclose(runs.state_end.v[:, 1], 0.0, atol=1e-3)
    assert np.all(np.abs(runs.state_end.q[:, 2]) < 1e-12)  # it stays flat


@pytest.mark.parametrize(
    "rod",
    [
        TwoPointRod(gravity=10.0, mu=0.5, phi0=0.3, height=0.02, vx0=0.5),  # falls on one end, rocks onto the other
        TwoPointRod(gravity=10.0, mu=0.2, phi0=-0.2, height=0.0, omega0=3.0, vx0=-0.4),  # rocks from the start
    ],
)
@pytest.mark.slow
def test_energy_never_grows_with_dissipation(rod):
    runs = _sweep(rod, [1e5, 1e7], 0.3, RESTARTS)
    assert np.all(runs.ok), [RUN_CHECKS[c] for c in runs.check]
    for i, alpha in enumerate([1e5, 1e7]):
        normal, friction = MODEL.at_stiffness(alpha)
        args = CompliantSystem(rod, normal, friction)
        end = jtu.tree_map(lambda leaf: leaf[i], runs.state_end)
        assert float(total_energy(args, end)) < float(total_energy(args, initial_state(rod)))
    assert np.all(runs.num_restarts >= 2)  # it did touch down and switch


@pytest.mark.slow
def test_with_the_other_end_in_the_air_it_is_the_painleve_rod():
    """The Table 1 rod as a two-point rod (end 2 high above the ground): contact 1 gives the one-contact
    numbers to round-off and contact 2 nothing."""
    one, two = PainleveRod(), TwoPointRod(mu=1.5, phi0=np.pi / 3, vx0=-1.0)
    t_c = contact_time(one, MODEL.at_stiffness(1e6)[0].stiffness)
    run_one = eqx.filter_jit(solve)(one, MODEL, jnp.asarray(1e6), Controls(t_max=t_c))
    run_two = eqx.filter_jit(solve)(two, MODEL, jnp.asarray(1e6), Controls(t_max=t_c))
    assert bool(run_one.ok) and bool(run_two.ok)
    np.testing.assert_allclose(run_two.state_end.impulses[0], run_one.state_end.impulses[0], rtol=1e-10)
    assert np.all(run_two.state_end.impulses[1] == 0.0)


@pytest.mark.slow
def test_a_study_of_each_system_kind_runs_and_bad_kinds_are_one_line(tmp_path, capsys):
    from pathlib import Path

    from regcontact.cli import main

    study = Path(__file__).parents[2] / "studies" / "two_point_rod.toml"
    out = tmp_path / "out"
    assert (
        main(
            ["run", str(study), "--out", str(out), "--set", "sweep.alpha=[1e4]", "--set", "termination.time_limit=0.2"]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "int_lambda_n_1" in printed and "int_lambda_t_2" in printed
    import json

    # the rod starts 2 cm up: both contacts open, so the k-contact problems give λ = 0, modes F F
    references = json.loads((out / "results.json").read_text())["references"]
    assert references["force_acceleration_solutions"] == [{"reactions": [[0.0, 0.0], [0.0, 0.0]], "modes": ["F", "F"]}]
    for override, message in [
        ("system.kind=box", "system.kind = 'box': expected one of 'painleve_rod', 'two_point_rod'"),
        ("system.omega0=1", None),  # a key both kinds have: fine
        ("system.torque={below_threshold=1.0}", "system.torque"),  # the rod's table form is not the two-point rod's
    ]:
        target = tmp_path / ("good" if message is None else "bad")
        code = main(
            [
                "run",
                str(study),
                "--out",
                str(target),
                "--set",
                override,
                "--set",
                "sweep.alpha=[1e4]",
                "--set",
                "termination.time_limit=0.01",
            ]
        )
        err = capsys.readouterr().err
        if message is None:
            assert code == 0
        else:
            assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    rod_study = Path(__file__).parents[2] / "studies" / "table1.toml"
    assert main(["run", str(rod_study), "--out", str(tmp_path / "bad2"), "--set", "system.height=0.1"]) == 2
    assert "system.height = 0.1: expected a known key" in capsys.readouterr().err
    assert not (tmp_path / "bad").exists() and not (tmp_path / "bad2").exists()  # nothing written
