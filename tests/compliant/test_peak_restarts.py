"""Stronge's bilinear spring in the compliant solve: each contact's peak held between restarts at the surface
"peak" (the turn to unloading, a reload past the peak, the opening), and the runs converging to the law's rigid
limit, Darboux–Keller's energetic map."""

from pathlib import Path

import equinox as eqx
import jax.numpy as jnp
import numpy as np
import pytest

from regcontact.compliant import Controls, SolveSettings, solve
from regcontact.compliant.dynamics import CompliantSystem
from regcontact.compliant.run_checks import total_energy
from regcontact.compliant.switches import FrozenPeaks
from regcontact.contact import BilinearSpring, ContactModel, SpringDamper, ViscousCoulomb
from regcontact.rigid import compliant_limit, darboux_keller_map
from regcontact.studies.config import ConfigError
from regcontact.studies.loading import load_study
from regcontact.systems import ReducedSingleContact

PEAKS = SolveSettings(events=("contact_open",), restart_at=("peak",), max_steps=20_000)


def _model(restitution):
    """``k = α``, Coulomb friction during the impact (``γ_t ∝ α^1.5``)."""
    return ContactModel(BilinearSpring(1.0, restitution), ViscousCoulomb(1.0), friction_exponents=ViscousCoulomb(1.5))


@eqx.filter_jit
def _run_at(system, model, alpha, windows, settings):
    return solve(system, model, alpha, Controls(t_max=windows / jnp.sqrt(alpha)), settings)


def _runs(system, model, alphas, settings=PEAKS, windows=20.0):
    """Solves over ``alphas``, each run ``windows / √α`` long: one compilation per settings for every system and
    model of the module (they are arguments, not constants of the program)."""
    return [_run_at(system, model, jnp.asarray(alpha), jnp.asarray(windows), settings) for alpha in alphas]


@pytest.mark.slow
def test_a_landing_converges_to_the_energetic_limit_at_order_one():
    """A landing that slips, sticks and stays stuck (the viscous branch of the friction law sets the O(1/α)
    error); the finite-α velocity after the impact tends to ``compliant_limit``'s. Measured (rtol 1e-10): 8.96e-4,
    9.02e-5, 9.02e-6 at α = 1e2, 1e3, 1e4 (order 1.00; then 8.9e-7, 6.7e-8 at 1e5, 1e6), as an independent
    scipy integration with the peak as an event gives (9.0e-4 … 9.0e-8)."""
    A, B, C, mu, u, v, r = 1.0, 0.3, 1.5, 1.2, 0.3, -1.0, 0.6
    system = ReducedSingleContact(a=0.0, b=0.0, A=A, B=B, C=C, mu=mu, slip0=u, normal_velocity0=v)
    model = _model(r)
    _, limit = compliant_limit(system, model)
    energetic = darboux_keller_map(A, B, C, mu, u, v, r, "energetic")
    np.testing.assert_allclose(limit, [energetic.u, energetic.v], atol=1e-9)  # (x, y): slip, then normal
    alphas = [1e2, 1e3, 1e4]
    distances = []
    for alpha, run in zip(alphas, _runs(system, model, alphas)):
        assert bool(run.ok) and run.status_name == "event_occurred", (alpha, run.status_name, run.check_name)
        assert int(run.num_restarts) == 1  # one turn; the opening ends the run
        distances.append(np.max(np.abs(np.asarray(run.state_end.v) - limit)))
    orders = -np.diff(np.log10(distances))
    assert distances[0] < 2e-3
    assert np.all((orders > 0.95) & (orders < 1.05)), (distances, orders)


@pytest.mark.slow
@pytest.mark.parametrize("restitution", [0.6, 1.0])
def test_frictionless_landing_leaves_at_r_times_the_approach_speed(restitution):
    """Without friction the bilinear spring gives ``v⁺ = −r v⁻`` at every α (loading ``k``, unloading ``k/r²``
    from the peak: the exit speed is exact, not a limit), with the peak recorded at the turn. Up to the
    integration error: RADAU5 holds its estimate to ``0.1 rtol^(2/3)`` ≈ 2e-8 at rtol 1e-10 (measured 5.4e-8
    relative for r = 0.6)."""
    system = ReducedSingleContact(a=0.0, b=0.0, A=1.0, B=0.0, C=2.0, mu=0.0, slip0=0.4, normal_velocity0=-0.8)
    (run,) = _runs(system, _model(restitution), [1e4])
    assert bool(run.ok), run.check_name
    np.testing.assert_allclose(np.asarray(run.state_end.v), [0.4, 0.8 * restitution], rtol=2e-7)


@pytest.mark.slow
def test_a_run_ending_while_unloading_passes_the_energy_check():
    """Stopped half-way through unloading, the held law's energy is the unloading line's (what it still returns):
    the energy has fallen by the share lost at the turn, so the run is consistent and ends unloading."""
    system = ReducedSingleContact(a=0.0, b=0.0, A=1.0, B=0.0, C=1.0, mu=0.0, normal_velocity0=-1.0)
    settings = SolveSettings(events=(), restart_at=("peak",), max_steps=20_000)
    alpha = 1e4  # contact time π/√α on loading, π r/√α on unloading: stop at 0.5 π + 0.3 π r
    (run,) = _runs(system, _model(0.5), [alpha], settings, windows=np.pi * (0.5 + 0.3 * 0.5))
    assert bool(run.ok), run.check_name
    assert int(run.num_restarts) == 1
    assert 0.0 < float(run.state_end.v[1]) < 0.5 and float(run.state_end.q[1]) < 0.0  # y is the gap
    # The peak is v⁻/√(k C) = 0.01, where the spring has taken all ½ of the kinetic energy; unloading returns r².
    normal, friction = _model(0.5).at_stiffness(alpha)
    held = FrozenPeaks(law=normal, unloading=jnp.asarray([True]), peaks=jnp.asarray([0.01]))
    energy = total_energy(CompliantSystem(system, held, friction), run.state_end)
    np.testing.assert_allclose(energy, 0.5 * 0.5**2, rtol=1e-7)


@pytest.mark.slow
def test_a_peak_law_needs_the_peak_restart_and_only_it():
    system = ReducedSingleContact(normal_velocity0=-1.0)
    controls = Controls(t_max=1.0)
    with pytest.raises(ValueError, match="'peak'"):
        solve(system, _model(0.5), 1e2, controls, SolveSettings())
    with pytest.raises(ValueError, match="'peak'"):
        solve(system, ContactModel(SpringDamper()), 1e2, controls, SolveSettings(restart_at=("peak",)))


def test_a_study_with_the_bilinear_spring_needs_the_peak_restart():
    table1 = Path(__file__).resolve().parents[2] / "studies" / "table1.toml"
    law = [
        "contact.normal_law=bilinear_spring",
        "contact.normal={stiffness=1.0, restitution=0.6}",
        "contact.normal_exponents={stiffness=1.0, restitution=0.0}",
    ]
    with pytest.raises(ConfigError, match="bilinear_spring' does\\)"):
        load_study(table1, law)
    with pytest.raises(ConfigError, match="spring_damper' does not"):
        load_study(table1, ['solver.restart_at=["peak"]'])
    loaded = load_study(table1, [*law, 'solver.restart_at=["peak"]'])
    assert loaded.config["contact"]["normal"] == {"stiffness": 1.0, "restitution": 0.6}
