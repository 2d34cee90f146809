"""Chains of balls (:func:`~regcontact.systems.ball_chain`): multiple impacts through the limit law and the compliant
model, checked against momentum and energy balances, an independent integration (scipy's DOP853 on Hertz's chain)
and Siconos' published LZB outputs."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import pytest
from scipy.integrate import solve_ivp

from regcontact.compliant import Controls, SolveSettings, solve
from regcontact.contact import BilinearSpring, ContactModel, HuntCrossley, ViscousCoulomb
from regcontact.rigid import compliant_limit
from regcontact.systems import BallChain, TwoPointRod, ball_chain, check_system, hertz_stiffness

FRICTIONLESS = ViscousCoulomb(0.0)


def _hertz(chain: BallChain) -> ContactModel:
    k = hertz_stiffness(np.asarray(chain.radii), chain.floor)
    return ContactModel(HuntCrossley(stiffness=k, exponent=1.5, damping=0.0), FRICTIONLESS)


def _limit(chain: BallChain, model: ContactModel) -> np.ndarray:
    outcome, velocity = compliant_limit(chain, model)
    assert outcome.ended == "opened"
    return np.asarray(velocity)[: chain.num_balls]


def _hertz_by_scipy(chain: BallChain, t_end: float) -> np.ndarray:
    """An independent integration of the elastic Hertz chain (balls' displacements from touching, DOP853 at
    rtol 1e-12): the balls' velocities at ``t_end``, after the wave has left every contact."""
    m, k, n = np.asarray(chain.masses), hertz_stiffness(np.asarray(chain.radii), chain.floor), chain.num_balls
    floor = int(chain.floor)

    def field(t, y):
        x, v = y[:n], y[n:]
        force = k[floor:] * np.maximum(x[:-1] - x[1:], 0.0) ** 1.5
        a = np.zeros(n)
        a[:-1] -= force
        a[1:] += force
        if floor:
            a[0] += k[0] * np.maximum(-x[0], 0.0) ** 1.5
        return np.concatenate([v, a / m])

    y0 = np.concatenate([np.zeros(n), np.asarray(chain.v0)])
    return solve_ivp(field, (0.0, t_end), y0, method="DOP853", rtol=1e-12, atol=1e-14).y[n:, -1]


@pytest.mark.slow
def test_a_chain_has_one_contact_per_pair_and_the_floor():
    chain, column = (
        ball_chain([1.0, 0.8, 0.6], [1.0, 0.5, 0.2], [1.0, 0, 0]),
        ball_chain([1.0] * 4, [1.0] * 4, [-1.0] * 4, floor=True),
    )
    assert (type(chain).NUM_CONTACTS, type(column).NUM_CONTACTS) == (2, 4)
    for system in (chain, column):
        check_system(system)
        q0, _ = system.initial_state()
        np.testing.assert_allclose(np.asarray(system.gaps(q0))[:, 0], 0.0, atol=1e-15)
    with pytest.raises(ValueError, match="one value per ball"):
        ball_chain([1.0, 1.0], [1.0], [1.0, 0.0])
    with pytest.raises(TypeError, match="ball_chain"):
        BallChain([1.0, 1.0], [1.0, 1.0], [1.0, 0.0])


@pytest.mark.slow
@pytest.mark.parametrize(
    "chain",
    [
        ball_chain(0.8 ** np.arange(5), 0.8 ** (3 * np.arange(5)), np.eye(5)[0]),
        ball_chain(np.ones(4), np.ones(4), -np.ones(4), floor=True),
    ],
    ids=["tapered chain", "column of beads"],
)
def test_the_hertz_limit_is_the_elastic_chain_integrated_independently(chain):
    """Hertz without damping is scale-free: the limit impact is the whole elastic chain's motion. Momentum (of a
    chain without floor) is kept to round-off and kinetic energy to the process's tolerance."""
    after, masses, before = _limit(chain, _hertz(chain)), np.asarray(chain.masses), np.asarray(chain.v0)
    np.testing.assert_allclose(after, _hertz_by_scipy(chain, 30.0), atol=1e-8)
    np.testing.assert_allclose(masses @ after**2, masses @ before**2, rtol=1e-8)
    if not chain.floor:
        assert abs(masses @ after - masses @ before) < 1e-14
    assert np.all(np.diff(after) > 0)  # every pair separates


#: Siconos' LZB outputs (siconos/siconos-tutorials, examples/mechanics/ChainOfBalls/
#: MonodisperseChainOfBalls-LZBModel.ref, last row; ColumnOfBeads/BeadColumnED_LZBModel.ref, the row at t = 0.1010):
#: ten equal steel balls, e = 1, Hertz exponent 3/2, k = E* √R per pair (and √2 k at the floor).
SICONOS_CHAIN = [-0.0710592929, -0.0301862405, -0.0157496031, -0.0088080553, -0.0050623438,
                 -0.0029366319, -0.0017018565, 0.0026245174, 0.1469233856, 0.985956121]  # fmt: skip
SICONOS_COLUMN = [0.19769254, 0.45580093, 0.53588723, 0.86367414, 1.00154924,
                  1.03207557, 1.06989721, 1.13710345, 1.26873992, 1.55385617]  # fmt: skip


@pytest.mark.slow
def test_siconos_lzb_agrees_to_its_own_step_error():
    """Ten balls struck at speed 1, and ten beads landing at ``√(2 g h)``: the limit law equals the independent
    integration to 1e-8; Siconos' LZB outputs differ from both by up to 4.7e-4 (chain) and 1.4e-3 (column), the
    error of its first-order stepping in the impulse (step 1e-6), not a different law."""
    chain = ball_chain(np.ones(10), np.ones(10), np.eye(10)[0])
    speed = np.sqrt(2 * 9.81 * 0.05)
    column = ball_chain(np.ones(10), np.ones(10), -speed * np.ones(10), floor=True)
    for system, siconos, gap in ((chain, SICONOS_CHAIN, 4.7e-4), (column, SICONOS_COLUMN, 1.4e-3)):
        after = _limit(system, _hertz(system))
        np.testing.assert_allclose(after, _hertz_by_scipy(system, 40.0), atol=1e-8)
        distance = np.max(np.abs(after - np.asarray(siconos)))
        assert 1e-5 < distance < gap * 1.05


def _bilinear_chain_by_small_steps(masses, v0, k, e, step, duration):
    """An independent integration of a chain with bilinear springs (unloading ``k/e²`` from the deepest point):
    velocity Verlet; every contact episode adds ``(1 − e²) k δ_max²/2`` to the energy it keeps."""
    n = len(masses)
    W = np.zeros((n - 1, n))
    for i in range(n - 1):
        W[i, i : i + 2] = -1.0, 1.0
    x, v, peaks, kept = np.zeros(n), np.asarray(v0, float), np.zeros(n - 1), 0.0

    def forces(x):
        depth = -(W @ x)
        deepest = np.maximum(peaks, depth)
        return np.where(depth > 0, k * np.maximum(deepest - (deepest - depth) / e**2, 0.0), 0.0)

    lam = forces(x)
    for _ in range(int(duration / step)):
        half = v + 0.5 * step * (W.T @ lam) / masses
        x = x + step * half
        lam = forces(x)
        v = half + 0.5 * step * (W.T @ lam) / masses
        depth = -(W @ x)
        ended = (depth <= 0) & (peaks > 0)
        kept += np.sum((1 - e**2) * 0.5 * k * peaks[ended] ** 2)
        peaks = np.where(depth > 0, np.maximum(peaks, depth), 0.0)
    return v, kept


@pytest.mark.slow
def test_a_bilinear_chain_loses_one_minus_e_squared_of_each_contacts_stored_energy():
    """Stronge's bilinear spring returns ``e²`` of what it stored: the kinetic energy lost in the limit impact of
    three balls equals ``Σ (1 − e²) k δ_max²/2`` over the contacts' loadings (an independent small-step run), and
    momentum is kept to round-off."""
    masses, v0, e = np.array([1.0, 0.7, 1.3]), np.array([1.0, 0.0, 0.0]), 0.8
    chain = ball_chain(np.ones(3), masses, v0)
    after = _limit(chain, ContactModel(BilinearSpring(1.0, e), FRICTIONLESS))  # type: ignore[arg-type]
    assert abs(masses @ after - masses @ v0) < 1e-14
    stepped, kept = _bilinear_chain_by_small_steps(masses, v0, 1.0, e, 5e-4, 15.0)
    np.testing.assert_allclose(after, stepped, atol=2e-6)
    lost = 0.5 * masses @ v0**2 - 0.5 * masses @ after**2
    np.testing.assert_allclose(lost, kept, rtol=1e-5)
    assert lost > 0.01


@pytest.mark.slow
def test_a_compliant_run_keeps_the_chains_momentum_and_ends_at_its_limit():
    """A tapered chain without pendulums at α = 1: the compliant run's momentum is kept to round-off and, Hertz
    being scale-free, its velocities once every contact has opened are the limit's."""
    radii = np.array([1.0, 0.8, 0.64])
    chain = ball_chain(radii, radii**3, [1.0, 0.0, 0.0])
    run = solve(chain, _hertz(chain), jnp.asarray(1.0), Controls(1e-10, 1e-12, 50.0), SolveSettings())
    assert run.status_name == "event_occurred" and run.check_name == "passed"
    after = np.asarray(run.state_end.v)[:3]
    masses = np.asarray(chain.masses)
    assert abs(masses @ after - masses[0]) < 1e-13
    np.testing.assert_allclose(after, _limit(chain, _hertz(chain)), atol=1e-7)


def _block_by_scipy(mass, inertia, half_width, k, vy0, omega0, frozen):
    """An independent integration of a frictionless block landing flat on its two bottom corners (Hertz springs
    ``k δ^{3/2}`` at the corners, no gravity): ``(v_y, ω)`` once both corners have left the floor. Without friction
    only the corners' heights ``y ∓ h sin φ`` matter, so the block's height enters through its inertia alone.
    ``frozen``: the geometry of the landing (``sin φ → φ``, ``cos φ → 1``), the impact-scale problem."""
    sin, cos = (lambda phi: phi, lambda phi: 1.0) if frozen else (np.sin, np.cos)

    def field(t, s):
        y, phi, vy, omega = s
        depths = np.maximum(-(y + np.array([-1.0, 1.0]) * half_width * sin(phi)), 0.0)
        force = k * depths**1.5
        torque = half_width * cos(phi) * (force[1] - force[0])
        return [vy, omega, force.sum() / mass, torque / inertia]

    def lifted(t, s):  # both corners up: the lower one's height, once the impact has begun
        return min(s[0] - half_width * sin(s[1]), s[0] + half_width * sin(s[1])) if t > 1e-3 * k**-0.4 else -1.0

    lifted.terminal, lifted.direction = True, 1.0  # type: ignore[attr-defined]
    run = solve_ivp(field, (0.0, 50.0), [0.0, 0.0, vy0, omega0], method="DOP853", rtol=1e-12, atol=1e-14, events=lifted)
    assert run.status == 1
    return run.y[2:, -1]


@pytest.mark.slow
def test_a_rocking_block_landing_flat_on_two_corners_is_the_elastic_two_contact_impact():
    """A block of width 2h and height b (``I = m (4h² + b²)/12``), frictionless, landing flat while turning: both
    corners approach at different speeds and share one impact. The Hertz limit equals the independent integration
    and keeps the kinetic energy; with a bilinear spring it loses energy and the block still leaves the floor."""
    mass, width, height = 1.0, 2.0, 1.0
    inertia = mass * (width**2 + height**2) / 12.0
    block = TwoPointRod(mass=mass, length=width, inertia=inertia, gravity=0.0, mu=0.0, vy0=-1.0, omega0=0.4)
    hertz = ContactModel(HuntCrossley(stiffness=1.0, exponent=1.5, damping=0.0), FRICTIONLESS)  # type: ignore[arg-type]
    outcome, after = compliant_limit(block, hertz)
    assert outcome.ended == "opened"
    landing = (mass, inertia, width / 2)
    np.testing.assert_allclose(after[1:], _block_by_scipy(*landing, 1.0, -1.0, 0.4, frozen=True), atol=1e-8)
    # the block's own geometry at a stiff k: what the turn during the impact changes is left, O(T²) = O(k^(−4/5))
    # (measured 1.97e-2, 4.8e-4, 1.2e-5, 3.0e-7 at k = 1, 1e2, 1e4, 1e6)
    for k, distance in ((1e4, 2e-5), (1e6, 5e-7)):
        stiff = _block_by_scipy(*landing, k, -1.0, 0.4, frozen=False)
        assert np.max(np.abs(stiff - after[1:])) < distance
    energy = lambda v: mass * v[1] ** 2 + inertia * v[2] ** 2  # noqa: E731
    np.testing.assert_allclose(energy(np.asarray(after)), energy(np.array([0.0, -1.0, 0.4])), rtol=1e-8)
    assert abs(after[0]) < 1e-15  # no friction: no horizontal impulse
    _, plastic = compliant_limit(block, ContactModel(BilinearSpring(1.0, 0.5), FRICTIONLESS))  # type: ignore[arg-type]
    assert energy(np.asarray(plastic)) < energy(np.array([0.0, -1.0, 0.4])) and plastic[1] > 0


def test_a_rocking_block_landing_on_one_corner_reverses_that_corners_normal_velocity():
    """On one corner (the block tilted) the elastic Hertz limit is a single-contact impact with ``e = 1``: the
    corner's normal velocity reverses, the other corner stays free, the kinetic energy is kept."""
    mass, inertia = 1.0, 5.0 / 12.0
    block = TwoPointRod(mass=mass, length=2.0, inertia=inertia, gravity=0.0, mu=0.0, phi0=0.3, vy0=-1.0, omega0=0.2)
    hertz = ContactModel(HuntCrossley(stiffness=1.0, exponent=1.5, damping=0.0), FRICTIONLESS)  # type: ignore[arg-type]
    outcome, after = compliant_limit(block, hertz)
    q0, v0 = (np.asarray(a) for a in block.initial_state())
    rows = np.asarray(block.jacobians(q0))[:, 0]
    np.testing.assert_allclose(rows[0] @ after, -(rows[0] @ v0), rtol=1e-9)
    assert outcome.impulses[1, 0] == 0.0
    np.testing.assert_allclose(mass * after[1] ** 2 + inertia * after[2] ** 2, mass + inertia * 0.04, rtol=1e-9)


def test_a_subnormal_mass_or_radius_is_refused_by_name():
    """A mass of 1e-310 is zero in JAX: the mass matrix was singular, a ``LinAlgError`` traceback from the limit."""
    with pytest.raises(ValueError, match=r"^masses = 1e-310: expected a positive number \(JAX flushes subnormal"):
        ball_chain(np.ones(3), [1.0, 1e-310, 1.0], [1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match=r"^radii = 1e-320: expected a positive number \(JAX flushes subnormal"):
        ball_chain([1e-320, 1.0], np.ones(2), [1.0, 0.0])
