"""The limit law of per-contact springs against an LZB-type multiple-impact law (Liu, Zhao & Brogliato: Darboux–Keller
shock dynamics in the impulse of a primary contact, the impulse shared by the contacts' stored energies and
stiffnesses), written here from its equations as Siconos' ``OSNSMultipleImpact`` states them, with its "bi-stiffness"
restitution: during a contact's expansion its energy variable falls ``1/e²`` times faster than the work it returns.

For a linear contact that is Stronge's bilinear spring: both give ``F² = K² δ_max² − 2 K W / e²`` after the turn
(``W`` the work returned), so the two laws are one wherever no contact reloads during the impact (the LZB rule
reloads on the loading line, the spring on its unloading line). For an elastic contact of any exponent, LZB's force
``K^(1/(1+η)) ((1+η) E)^(η/(1+η))`` is the spring's force at the stored energy ``E``.
"""

from __future__ import annotations

import numpy as np
import pytest

from regcontact.contact import BilinearSpring, ContactModel, HuntCrossley, ViscousCoulomb
from regcontact.rigid import compliant_limit
from regcontact.systems import ball_chain, hertz_stiffness

FRICTIONLESS = ViscousCoulomb(0.0)

pytestmark = pytest.mark.slow


def _lzb(G, v0, K, eta, e, steps):
    """LZB's impulse-stepped law with the bi-stiffness expansion (module docstring): ``G`` the contacts' inverse
    mass (``Δv_c = G ΔP``), ``v0`` their normal velocities, ``K, η, e`` per contact; the step in the primary
    contact's impulse is ``ΔP = P₀/steps`` with ``P₀`` the impulse that stops the fastest contact alone. Returns the
    contact velocities after the impact, the impulses, whether a contact reloaded after its turn, and whether one
    approached again after it had given back all its energy (LZB starts it again at once, at zero gap)."""
    v, K, eta, e = (np.asarray(x, float) for x in (v0, K, eta, e))
    k = v.size
    energy, impulse = np.zeros(k), np.zeros(k)
    expanded, emptied, reloaded, reengaged = np.zeros(k, bool), np.zeros(k, bool), False, False
    a = eta / (1.0 + eta)
    c = (1.0 + eta) ** a * K ** (1.0 / (1.0 + eta))  # F = c E^a
    step = -v.min() / np.max(np.diag(G)) / steps
    scale = np.max(np.abs(v))
    for _ in range(200 * steps):
        charged = energy > 0.0
        approaching = (~charged) & (v < 0.0)
        if not (charged.any() or approaching.any()):
            break
        if charged.any():  # the primary contact stores the most energy; its force sets the pace
            primary_force = c[np.argmax(energy)] * energy.max() ** a[np.argmax(energy)]
        else:  # none stores any: the fastest approaching contact starts
            p = np.argmin(v)
            primary_force = c[p] * (-v[p] * step) ** a[p]
        reengaged |= bool(np.any(approaching & emptied))
        increments = np.zeros(k)
        increments[charged] = step * c[charged] * energy[charged] ** a[charged] / primary_force
        # a contact starting to compress in this step: dP = ΔP F/F_p with F = c (|v| dP)^a, solved for dP
        increments[approaching] = (step * c[approaching] * (-v[approaching]) ** a[approaching] / primary_force) ** (
            1.0 + eta[approaching]
        )
        old = v
        v = v + G @ increments
        impulse += increments
        work = 0.5 * (old + v) * increments  # work the contact takes (−) or returns (+) in the step
        compressing = old < 0.0
        reloaded |= bool(np.any(compressing & expanded & charged))
        expanded |= ~compressing & charged
        energy = np.where(compressing, energy - work, np.where(e > 0, energy - work / np.maximum(e, 1e-300) ** 2, 0.0))
        energy = np.where(energy > 1e-30 * scale**2, energy, 0.0)
        emptied |= charged & (energy == 0.0)
    else:
        raise AssertionError("the LZB stepping did not end")
    return v, impulse, reloaded, reengaged


def _contact_space(masses):
    """``W`` (rows: contacts ``i, i+1``, velocity ``v_{i+1} − v_i``) and ``G = W M⁻¹ Wᵀ`` of a free chain."""
    n = len(masses)
    W = np.zeros((n - 1, n))
    for i in range(n - 1):
        W[i, i : i + 2] = -1.0, 1.0
    return W, W @ np.diag(1.0 / np.asarray(masses)) @ W.T


def _limit_contact_velocities(chain, model, W):
    outcome, velocity = compliant_limit(chain, model)
    assert outcome.ended == "opened"
    return W @ np.asarray(velocity)[: chain.num_balls]


def _hertz_chain(radii, masses):
    """``G``, the contact velocities of the first ball struck at 1, the Hertz stiffnesses and the limit's contact
    velocities after the impact, for an elastic Hertz chain."""
    W, G = _contact_space(masses)
    v0 = np.eye(len(radii))[0]
    k = hertz_stiffness(radii, False)
    model = ContactModel(HuntCrossley(stiffness=k, exponent=1.5, damping=0.0), FRICTIONLESS)
    return G, W @ v0, k, _limit_contact_velocities(ball_chain(radii, masses, v0), model, W)


def _lzb_distances(G, w0, K, eta, e, limit, step_counts):
    """Per step count: the LZB law's distance to ``limit`` and whether a contact reloaded or closed again."""
    runs = [_lzb(G, w0, K, eta, e, steps) for steps in step_counts]
    return [(np.max(np.abs(after - limit)), reloaded, reengaged) for after, _, reloaded, reengaged in runs]


def test_per_contact_bilinear_springs_are_lzb_with_bi_stiffness():
    """Three balls struck, a stiffness and a restitution per contact (1 and 3; 0.6 and 0.9): the bilinear springs'
    limit equals the LZB law to its step error (measured 3.8e-4, 1.8e-4, 7.7e-5, 2.6e-5 at 2,000 … 16,000 steps);
    no contact reloads or closes again, where the two would differ."""
    masses, stiffness, restitution = [1.0, 0.7, 1.3], [1.0, 3.0], [0.6, 0.9]
    W, G = _contact_space(masses)
    v0 = np.eye(3)[0]
    model = ContactModel(BilinearSpring(np.asarray(stiffness), np.asarray(restitution)), FRICTIONLESS)  # type: ignore[arg-type]
    limit = _limit_contact_velocities(ball_chain(np.ones(3), masses, v0), model, W)
    runs = _lzb_distances(G, W @ v0, stiffness, np.ones(2), restitution, limit, (4000, 16000))
    assert not any(reloaded or reengaged for _, reloaded, reengaged in runs)
    distances = [distance for distance, _, _ in runs]
    assert distances[1] < 5e-5
    assert distances[0] / distances[1] > 3.0, distances


def test_an_elastic_hertz_chain_is_lzb_with_the_hertz_exponent():
    """Five equal balls with Hertz contacts (``η = 3/2``, no loss): the Hertz limit equals the LZB law to its
    step error (measured 1.5e-3, 4.2e-4, 8.5e-5 at 1,000, 4,000, 16,000 steps), no contact closing again."""
    G, w0, k, limit = _hertz_chain(np.ones(5), np.ones(5))
    runs = _lzb_distances(G, w0, k, np.full(4, 1.5), np.ones(4), limit, (1000, 4000))
    assert not any(reengaged for _, _, reengaged in runs)
    distances = [distance for distance, _, _ in runs]
    assert distances[1] < 5e-4
    assert 3.0 < distances[0] / distances[1] < 5.5, distances


def test_where_a_contact_closes_again_lzb_is_another_law():
    """A chain tapering to a light ball in the middle (radii 1, 0.8, 0.64, 0.8, 1; Hertz, elastic): a contact that
    opened approaches again during the wave. LZB starts it again at once; the springs' limit (which equals an
    independent integration of the elastic chain, ``test_ball_chain.py``) first closes the gap the contact opened
    on the impact's own scale. So LZB converges to another answer, 0.028 from the limit (measured 0.0275, 0.0279,
    0.0280 at 1,000, 4,000 and 16,000 steps)."""
    radii = np.array([1.0, 0.8, 0.64, 0.8, 1.0])
    G, w0, k, limit = _hertz_chain(radii, radii**3)
    runs = _lzb_distances(G, w0, k, np.full(4, 1.5), np.ones(4), limit, (1000, 4000))
    assert all(reengaged for _, _, reengaged in runs)
    distances = [distance for distance, _, _ in runs]
    assert 0.025 < distances[0] < distances[1] < 0.03, distances


def test_lzb_gives_the_limit_on_siconos_tapered_chain():
    """Siconos' tapered chain (ten balls, radii 0.95^i, Hertz, elastic): the LZB law written here, with no contact
    closing again, equals the springs' limit to its step error (ball 9: 0.5736 against 0.5738 at 8,000 steps),
    where Siconos' published output gives 0.3072: its reference is off as a run, not as a law (``docs/impacts.md``,
    "Against Siconos' LZB outputs")."""
    radii = 0.01 * 0.95 ** np.arange(10)
    masses = (radii / radii[0]) ** 3
    G, w0, k, limit = _hertz_chain(radii, masses)
    after, _, _, reengaged = _lzb(G, w0, k, np.full(9, 1.5), np.ones(9), 8000)
    assert not reengaged
    np.testing.assert_allclose(after, limit, atol=5e-4)
    W, _ = _contact_space(masses)  # the balls' velocities from the contacts' and the momentum (the first struck)
    balls = np.linalg.solve(np.vstack([W, masses]), np.append(after, masses[0]))
    assert abs(balls[8] - 0.5738) < 1e-3 and abs(balls[8] - 0.3072) > 0.25
