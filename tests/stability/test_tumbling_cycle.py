"""Sec. 6.4's cycle map of a body on two contacts: the closed-form S+F threshold, the batch against the general
map, the general map against the event-driven motion, and Fig. 16's body as one case."""

import math

import numpy as np
import pytest

from regcontact.rigid import ContactState, DarbouxKellerImpact, event_driven
from regcontact.stability import TUMBLING_FAILURES, tumbling_cycle, tumbling_multipliers
from regcontact.systems import PainleveRod
from regcontact.systems.legged_body import TwoLeggedBody


def legged(mu1, mu2, slope_deg, x1=0.1, x2=0.6, h=1.0, rho=0.5, omega0=0.0, swap=False):
    """Fig. 16's body with other parameters, perturbed by a rotation ``ω₀`` about leg 2; ``swap``: legs listed
    in the other order (leg 1 is contact 1)."""
    legs, mu = ((x1, -h), (x2, -h)), (mu1, mu2)
    if swap:
        legs, mu = legs[::-1], mu[::-1]
    return TwoLeggedBody(
        legs=legs, mu=mu, gyration=rho, slope=math.radians(slope_deg), vx0=-h * omega0, vy0=-x2 * omega0,
        omega0=omega0,
    )  # fmt: skip


def at_rest(mu1, mu2, slope_deg, x1=0.1, x2=0.6, h=1.0, rho=0.5, swap=False):
    """``legged(...)`` at rest as a :class:`ContactState`, written out (``legged_body.py``'s ``M``, ``W``, ``h``
    at ``φ = 0``, ``m = g = 1``): no JAX dispatch per body."""
    beta = math.radians(slope_deg)
    W = np.array([[[0.0, 1.0, x], [1.0, 0.0, h]] for x in (x1, x2)])
    mu = np.array([mu1, mu2])
    if swap:
        W, mu = W[::-1], mu[::-1]
    return ContactState(
        mass_matrix=np.diag([1.0, 1.0, rho**2]), jacobians=W, jacobian_rates=np.zeros((2, 2)),
        applied_force=np.array([math.sin(beta), -math.cos(beta), 0.0]), velocity=np.zeros(3), mu=mu,
        gaps=np.zeros(2), length_scale=max(abs(x2), h),
    )  # fmt: skip


def random_bodies(count, seed):
    rng = np.random.default_rng(seed)
    bodies = []
    for _ in range(count):
        h, x1, x2 = rng.uniform(0.8, 1.2), rng.uniform(0.05, 0.15), rng.uniform(0.4, 0.8)
        bodies.append(
            dict(mu1=x1 / h + rng.uniform(0.0, 0.02), mu2=rng.uniform(0.6, 1.5), slope_deg=rng.uniform(8.0, 16.0),
                 x1=x1, x2=x2, h=h, rho=rng.uniform(0.4, 0.6))
        )  # fmt: skip
    return bodies


def arrays(states):
    return [
        np.stack([getattr(s, name) for s in states]) for name in ("mass_matrix", "jacobians", "applied_force", "mu")
    ]


def test_leg_2_falls_back_in_s_plus_f_exactly_above_mu1_equal_x1_over_h():
    """``b₂ = g cos β (x₂ − x₁) k / (ρ² D₁)``, ``k = x₁ − μ₁ h``, ``D₁ = 1 + x₁ k/ρ²`` (``docs/impacts.md``): the
    batch's S+F acceleration equals it, and its sign changes at ``μ₁ = x₁/h``."""
    rng = np.random.default_rng(0)
    x1, x2, h = rng.uniform(0.05, 0.3, 50), rng.uniform(0.4, 0.9, 50), rng.uniform(0.5, 1.5, 50)
    rho, beta = rng.uniform(0.3, 0.8, 50), np.radians(rng.uniform(0.0, 30.0, 50))
    for offset in (-0.01, 0.01):
        mu1 = x1 / h + offset
        states = [
            at_rest(m, 0.8, math.degrees(s), x1=a, x2=b, h=c, rho=r)
            for a, b, c, r, s, m in zip(x1, x2, h, rho, beta, mu1)
        ]
        scan = tumbling_multipliers(*arrays(states))
        k = x1 - mu1 * h
        b2 = np.cos(beta) * (x2 - x1) * k / (rho**2 * (1 + x1 * k / rho**2))
        assert scan.slide_normal == pytest.approx(b2, rel=1e-12, abs=1e-15)
        assert np.all(np.sign(scan.slide_normal) == -np.sign(offset))
        assert np.all((scan.failure == 1) == (offset < 0))


@pytest.mark.slow
@pytest.mark.parametrize("slider", [0, 1])
def test_the_batch_equals_the_general_map_with_darboux_keller_impacts(slider):
    """Closed-form impacts over a batch against :func:`darboux_keller` body by body: the same failures, the same
    multipliers to round-off, with either contact the slider."""
    bodies = [at_rest(**b, swap=bool(slider)) for b in random_bodies(12, seed=2 + slider)]
    scan = tumbling_multipliers(*arrays(bodies), slider=slider)
    general = [tumbling_cycle(b, slider=slider, cycles=1) for b in bodies]
    assert [g.failed for g in general] == [(None, "S+F", "FT", "impact of the slider", "impact of the pivot")[c]
                                           for c in scan.failure]  # fmt: skip
    exists = scan.failure == 0
    assert exists.sum() >= 3 and (~exists).sum() >= 1
    assert scan.multiplier[exists] == pytest.approx([g.multiplier for g in general if g.exists], rel=1e-10)


def test_fig16_body_is_one_case_and_its_mirror_the_same():
    body = ContactState.from_system(legged(0.11, 0.8, 10.0))
    written = at_rest(0.11, 0.8, 10.0)
    for name in ("mass_matrix", "jacobians", "applied_force", "mu"):
        assert getattr(body, name) == pytest.approx(getattr(written, name), abs=1e-15)
    cycle = tumbling_cycle(body)
    assert cycle.exists and cycle.multiplier == pytest.approx(1.6732, abs=1e-4)
    assert cycle.phases == ("S+F", "sticking impact of the pivot", "FT", "impact of the slider")
    mirror = tumbling_cycle(at_rest(0.11, 0.8, 10.0, swap=True), slider=1)
    assert mirror.multiplier == pytest.approx(cycle.multiplier, rel=1e-10)
    below = tumbling_cycle(at_rest(0.099, 0.8, 10.0))
    assert not below.exists and below.failed == "S+F" and below.reason == TUMBLING_FAILURES[1]
    assert math.isnan(below.multiplier) and below.slide_normal > 0


@pytest.mark.slow
@pytest.mark.parametrize(("mu1", "slope_deg", "t_end"), [(0.14, 20.0, 0.03), (0.17, 25.0, 0.01)])
def test_the_event_driven_motion_grows_or_decays_by_the_multiplier(mu1, slope_deg, t_end):
    """From a rotation ω₀ = −1e-4 about leg 2 the event-driven run (Darboux–Keller, r = 0) repeats FT, S+F; the
    rotation after successive sticking impacts of leg 2 changes by the map's multiplier (1.31532, growing;
    0.86095, decaying) to 1e-4."""
    body = legged(mu1, 0.8, slope_deg, omega0=-1e-4)
    multiplier = tumbling_cycle(body).multiplier
    run = event_driven(body, t_end, impact_law=DarbouxKellerImpact())
    assert [m for _, m in run.mode_sequence()][:4] == [("F", "T"), ("S+", "F")] * 2
    after = [
        run.v[np.flatnonzero(run.times == e.time)[-1], 2] for e in run.events if e.kind == "impact" and e.contact == 1
    ]
    ratios = np.array(after[1:]) / np.array(after[:-1])
    assert len(ratios) >= 2 and ratios == pytest.approx(multiplier, rel=1e-4)
    assert (multiplier > 1) == (mu1 == 0.14)


def test_arguments_are_checked():
    with pytest.raises(ValueError, match="2 contacts"):
        tumbling_cycle(PainleveRod())
    with pytest.raises(ValueError, match="slider"):
        tumbling_cycle(at_rest(0.11, 0.8, 10.0), slider=2)
    with pytest.raises(ValueError, match="mu"):
        tumbling_multipliers(np.eye(3), np.zeros((2, 2, 3)), np.zeros(3), np.array([-1.0, 0.5]))


@pytest.mark.slow
def test_a_body_mirrored_across_the_normal_slips_backward_with_the_same_multiplier():
    """Legs at ``−x`` on the slope ``−β``: leg 1 slips along ``−t`` (``slip = −1``), the same cycle."""
    cycle = tumbling_cycle(at_rest(0.14, 0.8, 20.0))
    mirrored = at_rest(0.14, 0.8, -20.0, x1=-0.1, x2=-0.6)
    backward = tumbling_cycle(mirrored, slip=-1)
    assert backward.exists and backward.multiplier == pytest.approx(cycle.multiplier, rel=1e-10)
    assert tumbling_cycle(mirrored, slip=1).failed == "S+F"
    scan = tumbling_multipliers(*arrays([mirrored]), slip=-1)
    assert scan.failure[0] == 0 and scan.multiplier[0] == pytest.approx(cycle.multiplier, rel=1e-10)


@pytest.mark.slow
def test_the_event_driven_run_stops_at_the_decaying_cycles_accumulation():
    """The decaying cycle (μ₁ = 0.17, 25°) accumulates its impacts near t = 0.0246; past it the rebounds fall below
    the velocity tolerance and the free leg's next impact is not found. The run stops there in one line, naming
    the contact and its depth, instead of carrying the leg through the ground (it reached g_n = −4.2e-5 by
    t = 0.05)."""
    body = legged(0.17, 0.8, 25.0, omega0=-1e-4)
    with pytest.raises(RuntimeError, match=r"contact 1 is free but at g_n = -.*accumulation of impacts"):
        event_driven(body, 0.05, impact_law=DarbouxKellerImpact())
