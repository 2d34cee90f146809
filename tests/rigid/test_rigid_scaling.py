"""The rigid references are unit-free: a rescaled rod gives rescaled solutions, over 20 orders of magnitude.

Scaling the Sec. 2.1/2.2 rod by m → s_m m, l → s_l l, g → s_g g (slender I = m l²/12, v_x0 → sqrt(s_l s_g) v_x0,
τ → s_m s_g s_l τ) scales velocities by sqrt(s_l s_g), time by sqrt(s_l / s_g), forces by s_m s_g and impulses
by s_m sqrt(s_l s_g). Every formulation must then return as many solutions, with the same modes, and reactions
equal to the unit rod's times that factor.
"""

import numpy as np
import pytest

from regcontact import PainleveRod
from regcontact.rigid import (
    ContactState,
    force_acceleration,
    impulse_velocity,
    rigid_references,
    time_stepping,
    torque_threshold,
)
from regcontact.rigid.lcp import friction_lcp, friction_solutions, lcp_residual, lemke

PHI = np.pi / 3
DT = 0.01
SWEEP = [1e-10, 1e-7, 1e-4, 1e-1, 1e3, 1e6, 1e10]
SCALES = (
    [(s, 1.0, 1.0) for s in SWEEP]  # mass
    + [(1.0, s, 1.0) for s in SWEEP]  # length
    + [(1.0, 1.0, s) for s in SWEEP]  # gravity
    + [(1e10, 1e10, 1e10), (1e-10, 1e-10, 1e-10), (1e10, 1e-10, 1e10), (1e-10, 1e10, 1e-10), (1e-7, 1e4, 1e9)]
    + [(1e-30, 1.0, 1.0), (1e12, 1.0, 1.0), (1e30, 1.0, 1.0), (1.0, 1e30, 1.0), (1.0, 1.0, 1e-30)]  # beyond
)


def scaled_rod(s_m: float, s_l: float, s_g: float, torque: bool) -> PainleveRod:
    """The Sec. 2.1 rod (Sec. 2.2 with ``torque``) with mass, length and gravity scaled."""
    mass, length, gravity = s_m, 2.0 * s_l, s_g
    tau = torque_threshold(PHI, mass, length, gravity=gravity) - s_m * s_g * s_l if torque else 0.0
    return PainleveRod(mass=mass, length=length, gravity=gravity, mu=1.5, phi0=PHI, vx0=-np.sqrt(s_l * s_g), torque=tau)


def solve_all(s_m: float, s_l: float, s_g: float, torque: bool):
    """Each formulation's solutions, with the factor its reactions scale by."""
    state = ContactState.from_system(scaled_rod(s_m, s_l, s_g, torque))
    impulse = s_m * np.sqrt(s_l * s_g)
    return {
        "force_acceleration": (force_acceleration(state), s_m * s_g),
        "impulse_velocity": (impulse_velocity(state), impulse),
        "time_stepping": (time_stepping(state, DT * np.sqrt(s_l / s_g)), impulse),
    }


def by_mode(solutions, factor):
    """``(mode, reaction / factor)`` sorted by mode, then by λ_n."""
    return sorted(((s.mode, s.reaction / factor) for s in solutions), key=lambda p: (p[0], p[1][0]))


@pytest.mark.slow
@pytest.mark.parametrize("torque", [False, True], ids=["sec2.1", "sec2.2"])
@pytest.mark.parametrize("scales", SCALES, ids=lambda s: "m{:g}-l{:g}-g{:g}".format(*s))
def test_rescaled_rod_gives_rescaled_solutions(scales, torque):
    unit = solve_all(1.0, 1.0, 1.0, torque)
    for formulation, (solutions, factor) in solve_all(*scales, torque).items():
        expected = by_mode(unit[formulation][0], 1.0)
        got = by_mode(solutions, factor)
        assert [m for m, _ in got] == [m for m, _ in expected], formulation
        size = max((np.abs(r).max() for _, r in expected), default=0.0)
        for (_, reaction), (_, reference) in zip(got, expected):
            assert np.abs(reaction - reference).max() <= 1e-9 * size, formulation
        assert solutions.isolated


@pytest.mark.slow
@pytest.mark.parametrize("torque", [False, True], ids=["sec2.1", "sec2.2"])
@pytest.mark.parametrize("scales", SCALES, ids=lambda s: "m{:g}-l{:g}-g{:g}".format(*s))
def test_study_reference_impulse_is_rescaled(scales, torque):
    # The impulse a compliant run is compared with (Painlevé's rule) and the study's time step scale too.
    s_m, s_l, s_g = scales
    unit = rigid_references(scaled_rod(1.0, 1.0, 1.0, torque), time_steps=[DT])
    scaled = rigid_references(scaled_rod(s_m, s_l, s_g, torque), time_steps=[DT * np.sqrt(s_l / s_g)])
    assert scaled.impulse_rule == unit.impulse_rule
    np.testing.assert_allclose(scaled.impulse / (s_m * np.sqrt(s_l * s_g)), unit.impulse, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("s_l", SWEEP)
def test_gap_counts_as_zero_relative_to_the_rod(s_l):
    # A rod lifted by a thousandth of its length is off the ground at every size: no force, no impulse.
    rod = scaled_rod(1.0, s_l, 1.0, torque=False)
    q0, _ = rod.initial_state()
    lifted = ContactState.from_system(rod, q=np.asarray(q0) + np.array([0.0, 2e-3 * s_l, 0.0]))
    for solutions in (force_acceleration(lifted), impulse_velocity(lifted)):
        assert solutions.modes == (("F",),) and not np.any(solutions.reactions)
    sunk = ContactState.from_system(rod, q=np.asarray(q0) - np.array([0.0, 2e-3 * s_l, 0.0]))
    with pytest.raises(ValueError, match="g_n"):
        impulse_velocity(sunk)


@pytest.mark.parametrize("s_m", [1e-30, 1e-10, 1e10, 1e30])
def test_friction_lcp_in_reaction_and_rate_units(s_m):
    # The time step's law: W ∝ 1/m sits next to the unit entries of the β splitting. The nondimensional LCP is
    # the same whatever the mass: all_solutions finds the same reactions and Lemke takes the same path (on the
    # raw LCP of m = 1e30 it ends in a ray).
    def problem(mass):
        state = ContactState.from_system(scaled_rod(mass, 1.0, 1.0, torque=False))
        return friction_lcp(state.delassus, state.contact_velocity[0] + DT * state.free_acceleration[0], state.mu[0])

    unit, scaled_problem = problem(1.0), problem(s_m)
    found = friction_solutions(scaled_problem).reactions / s_m
    reference = friction_solutions(unit).reactions
    assert found.shape == reference.shape == (1, 2)
    np.testing.assert_allclose(found, reference, rtol=1e-12)
    scaled, reaction_scale, rate_scale = scaled_problem.nondimensional()
    assert 0.5 <= np.abs(scaled.M).max() <= 4 and 0.5 <= np.abs(scaled.q).max() <= 2
    assert rate_scale == unit.nondimensional()[2]  # the rate is that of the unit rod, the reaction m times it
    unit_scaled = unit.nondimensional()[0]
    result, unit_result = lemke(scaled.M, scaled.q), lemke(unit_scaled.M, unit_scaled.q)
    assert result.status == "solved" and lcp_residual(scaled.M, scaled.q, result.z).within(1e-12)
    assert result.pivots == unit_result.pivots
    np.testing.assert_allclose(reaction_scale * scaled.reaction(result.z) / s_m, reference[0], rtol=1e-12)
