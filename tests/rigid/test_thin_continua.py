"""Thin friction continua are continua (regcontact.rigid.lcp._enumeration, lcp.friction, lcp.multi_contact_friction).

A two-point rod lying flat (mass m, gravity g, μ = 1/2) has unique normal reactions m g/2 per end, but only the
sum of its tangential reactions is fixed. Pushed sideways at rest by F = μ m g (1 − ε) (force-acceleration), its
tangential forces obey

    λ_t1 + λ_t2 = −F,   |λ_t,i| ≤ μ m g/2   ⇒   λ_t1, λ_t2 ∈ [−μ m g/2, −F + μ m g/2],

a segment of width μ m g − F = μ m g ε. Dropped flat with v_y = −V, v_x = μ V (1 − ε) (impulse-velocity, e = 0),
its impulses obey the same with m V for m g and m v_x for F. For every ε > 0 the solution set is a continuum
(both ends sticking, "T T"), however thin; at ε = 0 it is the single point with both ends on the cone's edge.
The enumeration must say so by the solution set's structure, at every scale (the LCP is solved in its own
units), listing no near-duplicate "isolated" solutions inside the segment. Resolution: widths down to about
1e-13 of the reactions are resolved (a polyhedron thinner than ~256 ulps is one point in double precision).
The same for one contact (a thin friction cone) and for a bare LCP (a thin segment of solutions).
"""

import numpy as np
import pytest

from regcontact.rigid import ContactState, force_acceleration, impulse_velocity
from regcontact.rigid.lcp import (
    all_solutions,
    friction_lcp,
    friction_solutions,
    multi_contact_friction_lcp,
    multi_contact_friction_solutions,
)
from regcontact.systems import TwoPointRod

MU = 0.5
THIN = [1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12]
# (s_m, s_l, s_g): mass alone, and mass, length and gravity together at both extremes of 1e-9 … 1e9.
SCALES = [(1.0, 1.0, 1.0), (1e-9, 1.0, 1.0), (1e9, 1.0, 1.0), (1e-9, 1e9, 1e-9), (1e9, 1e-9, 1e9)]


def scale_id(scale):
    return "s_m,s_l,s_g={:g},{:g},{:g}".format(*scale)


def flat_rod(form, eps, s_m=1.0, s_l=1.0, s_g=1.0):
    """The rod's solutions, and the closed form: normal reaction per end, and the ends of λ_t1's segment."""
    m, length, g = s_m, 2.0 * s_l, s_g
    if form == "force":
        push = MU * m * g * (1.0 - eps)
        rod = TwoPointRod(mass=m, length=length, gravity=g, mu=MU, force_x=push)
        found = force_acceleration(ContactState.from_system(rod))
        normal, sideways = m * g / 2, push
    else:
        speed = np.sqrt(s_l * s_g)
        v_x = MU * speed * (1.0 - eps)
        rod = TwoPointRod(mass=m, length=length, gravity=g, mu=MU, vy0=-speed, vx0=v_x)
        found = impulse_velocity(ContactState.from_system(rod))
        normal, sideways = m * speed / 2, m * v_x
    return found, normal, (-MU * normal, -sideways + MU * normal)


def assert_thin_segment(found, normal, ends):
    """One continuum whose box is the closed form's (to 1e-14 of the reactions, i.e. the width to 2 % at
    ε = 1e-12 and far better above), and at most its two ends listed, both sticking, both in the box."""
    assert not found.isolated and len(found.continua) == 1
    box = found.continua[0]
    scale = normal  # the size of the reactions
    np.testing.assert_allclose(box[:, :, 0], normal, rtol=0, atol=1e-14 * scale)
    expected = np.array([[ends[0], ends[0]], [ends[1], ends[1]]])
    np.testing.assert_allclose(box[:, :, 1], expected, rtol=0, atol=1e-14 * scale)
    assert np.all(np.ptp(box[:, :, 1], axis=0) > 0)
    assert 1 <= len(found) <= 2
    for solution in found:
        assert solution.modes == ("T", "T")
        assert np.all(solution.reactions >= box[0] - 1e-14 * scale)
        assert np.all(solution.reactions <= box[1] + 1e-14 * scale)
    if len(found) == 2:  # the segment's two ends, not two points inside it
        np.testing.assert_allclose(np.sort(found.reactions[:, 0, 1]), ends, rtol=0, atol=1e-14 * scale)


@pytest.mark.slow
@pytest.mark.parametrize("scale", SCALES, ids=scale_id)
@pytest.mark.parametrize("form", ["force", "impulse"])
@pytest.mark.parametrize("eps", THIN)
def test_thin_continuum_of_a_flat_rod_is_a_continuum(eps, form, scale):
    found, normal, ends = flat_rod(form, eps, *scale)
    assert_thin_segment(found, normal, ends)


@pytest.mark.parametrize("scale", SCALES, ids=scale_id)
@pytest.mark.parametrize("form", ["force", "impulse"])
def test_at_the_cone_edge_the_solution_is_unique(form, scale):
    found, normal, (edge, _) = flat_rod(form, 0.0, *scale)
    assert found.isolated and len(found) == 1
    assert found[0].modes == ("T", "T")
    np.testing.assert_allclose(found.reactions[0], [[normal, edge], [normal, edge]], rtol=1e-14)


@pytest.mark.parametrize("form", ["force", "impulse"])
@pytest.mark.parametrize("eps", [-1e-8, -1e-12])
def test_beyond_the_cone_edge_there_is_no_continuum(eps, form):
    """Pushed (or thrown) just beyond μ m g the rod slides: one solution, and no continuum made of round-off."""
    found, _, _ = flat_rod(form, eps)
    assert found.isolated and len(found) == 1


@pytest.mark.parametrize("eps", [1e-6, 1e-9, 1e-12, 0.0])
@pytest.mark.parametrize(("reaction_unit", "rate_unit"), [(1e-9, 1e9), (1e9, 1e-9), (1e-9, 1e-9), (1e9, 1e9)])
def test_the_law_in_any_units(eps, reaction_unit, rate_unit):
    """The pushed rod's law ``u = G λ + b`` written in other units (``G → (σ/ρ) G``, ``b → σ b``) gives the
    reactions times ``ρ``: the same thin continuum, or the same single point at ε = 0."""
    state = ContactState.from_system(TwoPointRod(mu=MU, force_x=MU * (1.0 - eps)))
    delassus = state.delassus * (rate_unit / reaction_unit)
    free = np.asarray(state.free_acceleration).reshape(-1) * rate_unit
    found = multi_contact_friction_solutions(multi_contact_friction_lcp(delassus, free, [MU, MU]))
    normal = reaction_unit / 2
    ends = reaction_unit * np.array([-MU / 2, -MU * (1.0 - eps) + MU / 2])
    if eps == 0.0:
        assert found.isolated and len(found.reactions) == 1
        np.testing.assert_allclose(found.reactions[0], [[normal, ends[0]]] * 2, rtol=1e-14)
        return
    assert len(found.continua) == 1 and len(found.reactions) <= 2
    box = found.continua[0]
    np.testing.assert_allclose(box[:, :, 0], normal, rtol=0, atol=1e-14 * normal)
    np.testing.assert_allclose(box[:, :, 1], [[ends[0]] * 2, [ends[1]] * 2], rtol=0, atol=1e-14 * normal)


@pytest.mark.parametrize("mu", [1e-4, 1e-8, 1e-12, 0.0])
def test_one_contact_thin_cone(mu):
    """One contact whose tangential rate no reaction moves (``W = [[1, 0], [0, 0]]``, ``b = (−1, 0)``): ``λ_n = 1``
    and every ``λ_t`` in the cone ``[−μ, μ]`` solves the law, a continuum of width ``2μ`` however small ``μ`` is
    (the one-contact collapse, :func:`friction_solutions`); for ``μ = 0`` the single reaction ``(1, 0)``."""
    found = friction_solutions(friction_lcp([[1.0, 0.0], [0.0, 0.0]], [-1.0, 0.0], mu))
    if mu == 0.0:
        assert found.isolated
        np.testing.assert_array_equal(found.reactions, [[1.0, 0.0]])
        return
    assert found.continua
    boxes = np.array(found.continua)
    np.testing.assert_allclose(boxes[:, :, 0], 1.0, rtol=0, atol=1e-14)
    assert boxes[:, 0, 1].min() == pytest.approx(-mu, rel=1e-12)
    assert boxes[:, 1, 1].max() == pytest.approx(mu, rel=1e-12)
    assert np.all(np.abs(found.reactions[:, 1]) <= mu * (1 + 1e-12))


@pytest.mark.parametrize("width", [1e-4, 1e-9, 1e-12, 0.0])
def test_thin_polyhedron_of_an_lcp(width):
    """``M = [[1, 1, 0], [1, 1, 0], [1, 0, 1]]``, ``q = (−1, −1, −(1 − d))``: with support ``{1, 2}`` the solutions
    are ``z₁ + z₂ = 1`` with ``w₃ = z₁ − (1 − d) ≥ 0``, the segment ``z₁ ∈ [1 − d, 1]``: a continuum for every
    ``d > 0`` (:func:`all_solutions`), the single point ``(1, 0, 0)`` for ``d = 0``."""
    M = np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [1.0, 0.0, 1.0]])
    found = all_solutions(M, np.array([-1.0, -1.0, -(1.0 - width)]))
    pieces = [continuum for continuum in found.continua if continuum.support == (0, 1)]
    if width == 0.0:
        assert not pieces and found.contains([1.0, 0.0, 0.0])
        return
    assert len(pieces) == 1 and pieces[0].bounded
    assert pieces[0].range([1.0, 0.0, 0.0]) == pytest.approx((1.0 - width, 1.0), rel=0, abs=1e-15)
