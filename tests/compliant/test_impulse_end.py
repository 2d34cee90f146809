"""The ``impulse_end`` event (issue 10, point 2): the end of the impulsive phase, robust in α and in the solver
tolerance, silent where there is no impulse."""

import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
import pytest

from regcontact.compliant import Case, Controls, SolveSettings, sweep
from regcontact.compliant.dynamics import CompliantSystem, initial_state
from regcontact.compliant.termination import IMPULSE_END_FACTOR, contact_time, impulse_end, slow_force_scale
from regcontact.contact import ContactModel
from regcontact.rigid import impulse_velocity
from regcontact.systems.reduced_contact import ReducedSingleContact
from regcontact.systems.rod import PainleveRod

ALPHAS = (1e3, 1e4, 1e5, 1e6, 1e7, 1e8)
SETTINGS = SolveSettings(events=("impulse_end", "contact_open"))


def _runs(rod, rtol=1e-10, contact_times=3.0):
    cases = [
        Case(
            system=rod,
            contact=ContactModel(),
            alpha=jnp.asarray(alpha),
            controls=Controls(rtol, 1e-12, contact_times * contact_time(rod, alpha)),
        )
        for alpha in ALPHAS
    ]
    runs, _ = sweep(jtu.tree_map(lambda *leaves: jnp.stack(leaves), *cases), SETTINGS)
    return runs


@pytest.mark.slow
def test_it_ends_the_table1_impulse_at_every_alpha_and_converges_like_ln_alpha_over_alpha():
    rod = PainleveRod()
    runs = _runs(rod)
    assert np.all(np.asarray(runs.ok)) and np.all(np.asarray(runs.termination) == 1)  # impulse_end
    (sticking,) = [s.reaction for s in impulse_velocity(rod) if s.mode == "T"]
    distance = np.max(np.abs(np.asarray(runs.force_integrals) - sticking), axis=-1)
    # Measured 5.7e-3 … 5.6e-7: a decade per decade of α, up to the logarithm; the one-contact-time window
    # of the Table 1 study falls only by √10 per decade (3.9e-2 … 1.1e-4).
    slope = np.polyfit(np.log10(ALPHAS), np.log10(distance), 1)[0]
    assert -1.05 < slope < -0.8
    assert distance[-1] < 1e-6
    # The phase it ends shrinks like ln α / α: well inside one contact time from α = 1e4 on.
    t_end = np.asarray(runs.t_end)
    assert np.all(t_end[1:] < np.asarray([contact_time(rod, a) for a in ALPHAS[1:]]))


@pytest.mark.slow
def test_it_does_not_depend_on_the_solver_tolerance():
    """The condition is the force read off the state: at rtol 1e-7 the same end as at 1e-10 (a rule on λ̇_n lost
    its sign to noise from α ≈ 1e5 on at rtol 1e-8)."""
    rod = PainleveRod()
    tight, loose = _runs(rod), _runs(rod, rtol=1e-7)
    assert np.all(np.asarray(loose.termination) == 1)
    np.testing.assert_allclose(np.asarray(loose.force_integrals), np.asarray(tight.force_integrals), rtol=1e-4)


@pytest.mark.slow
def test_without_an_impulse_it_never_fires():
    """μ = 1 < μ_crit = 4/3: the force problem is solvable, the rod slides on with an order-one force."""
    runs = _runs(PainleveRod(mu=1.0), contact_times=1.0)
    assert np.all(np.asarray(runs.ok)) and np.all(np.asarray(runs.termination) == 0)


def test_its_condition_starts_positive_and_scales_with_the_slow_force():
    rod = PainleveRod()
    normal, friction = ContactModel().at_stiffness(1e6)
    args = CompliantSystem(rod, normal, friction)
    state = initial_state(rod)
    assert float(impulse_end(0.0, state, args)) == 1.0  # a contact at normal rest carries no force
    assert float(slow_force_scale(rod)) > 0.0
    # A penetration carrying κ F of spring force sits exactly on the threshold.
    depth = IMPULSE_END_FACTOR * float(slow_force_scale(rod)) / float(normal.stiffness)
    pressed = type(state)(q=state.q.at[1].add(-depth), v=jnp.zeros_like(state.v), impulses=state.impulses)
    np.testing.assert_allclose(float(impulse_end(0.0, pressed, args)), 0.0, atol=1e-9)


@pytest.mark.slow
def test_a_system_without_load_never_fires_it():
    still = ReducedSingleContact(a=0.0, b=0.0)
    assert float(slow_force_scale(still)) == 0.0
    normal, friction = ContactModel().at_stiffness(1e6)
    assert float(impulse_end(0.0, initial_state(still), CompliantSystem(still, normal, friction))) == -1.0
