"""The planar friction LCP: its solutions are exactly those of the Signorini–Coulomb law."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from regcontact.rigid.lcp import friction_lcp, friction_solutions, lcp_residual, lemke

TOL = 1e-9


def law_by_cases(W, b, mu):
    """Every reaction of the law, by direct case analysis (independent of the LCP)."""
    found = []
    if b[0] >= 0:
        found.append(np.zeros(2))  # opening: no reaction
    stick = np.linalg.solve(W, -b)  # u = 0
    if stick[0] > 0 and abs(stick[1]) <= mu * stick[0]:
        found.append(stick)
    for sign in (1.0, -1.0):  # λ_t = sign μ λ_n, slip u_t of sign −sign (or zero)
        a = W[0, 0] + sign * mu * W[0, 1]
        if a != 0:
            lam_n = -b[0] / a
            lam = np.array([lam_n, sign * mu * lam_n])
            u_t = W[1] @ lam + b[1]
            if lam_n > 0 and sign * u_t <= 0:
                found.append(lam)
    scale = np.abs(b).max() / np.abs(W).max()  # the law is homogeneous: (b, λ) → (c b, c λ)
    distinct = []
    for lam in found:
        if not any(np.abs(lam - other).max() <= 1e-12 * scale for other in distinct):
            distinct.append(lam)
    return np.array(distinct).reshape(len(distinct), 2)


def satisfies_law(W, b, mu, lam, tol=TOL):
    u = W @ lam + b
    scale = np.abs(W).max() * np.abs(lam).max() + np.abs(b).max()
    lam_scale = max(np.abs(lam).max(), np.abs(b).max() / np.abs(W).max())
    normal = u[0] >= -tol * scale and lam[0] >= -tol * lam_scale and abs(u[0] * lam[0]) <= tol * scale * lam_scale
    in_cone = abs(lam[1]) <= mu * lam[0] + tol * lam_scale
    at_upper = abs(lam[1] - mu * lam[0]) <= tol * lam_scale
    at_lower = abs(lam[1] + mu * lam[0]) <= tol * lam_scale
    slip_ok = (u[1] <= tol * scale or at_lower) and (u[1] >= -tol * scale or at_upper)
    return normal and in_cone and slip_ok


# Data on binary grids: exactly representable and rich in exact ties (b_n = 0, sliding coefficients that
# vanish, reactions on the cone's edge), so that the case analysis and the LCP decide boundaries alike.
# (Values like b_n = −1e-189 next to b_t = 1 are zero at any relative tolerance but not in exact arithmetic.)
eighths = st.integers(2, 40).map(lambda k: k / 8)
correlations = st.integers(-15, 15).map(lambda k: k / 16)
delassus = st.tuples(eighths, eighths, correlations).map(
    lambda p: np.array([[p[0] ** 2, p[2] * p[0] * p[1]], [p[2] * p[0] * p[1], p[1] ** 2]])
)
vectors = st.tuples(st.integers(-16, 16), st.integers(-16, 16)).map(lambda p: np.array(p) / 8)
frictions = st.integers(0, 24).map(lambda k: k / 8)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(delassus, vectors, frictions)
def test_lcp_solutions_are_exactly_the_law_solutions(W, b, mu):
    problem = friction_lcp(W, b, mu)
    found = friction_solutions(problem)
    for lam in found.reactions:
        assert satisfies_law(W, b, mu, lam)
        assert lcp_residual(problem.M, problem.q, problem.lcp_vector(lam)).within(TOL)
    if not found.isolated:
        # Only a degenerate law (a zero sliding coefficient, or b = 0) has a continuum of reactions.
        assert any(abs(W[0, 0] + s * mu * W[0, 1]) < 1e-8 for s in (1, -1)) or np.abs(b).max() < 1e-12
        return
    # The two sets coincide at a resolution far below the size of the reactions.
    expected = law_by_cases(W, b, mu)
    resolution = 1e-9 * max(np.abs(b).max() / np.abs(W).max(), np.abs(expected).max(initial=0.0))
    for lam in expected:
        assert np.abs(found.reactions - lam).max(axis=1).min() <= resolution
    for lam in found.reactions:
        assert np.abs(expected - lam).max(axis=1).min() <= resolution


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(delassus, vectors, frictions)
def test_lemke_solves_the_friction_lcp(W, b, mu):
    # W positive definite makes M copositive (zᵀMz = λᵀWλ + μλ_nβ) though not copositive-plus for μ > 0; for
    # this class the LCP is solvable and Lemke's method processes it (Stewart, the paper's [10]). Its answer
    # must be one of the law's reactions.
    problem = friction_lcp(W, b, mu)
    result = lemke(problem.M, problem.q)
    assert result.status == "solved"
    reaction = problem.reaction(result.z)
    assert satisfies_law(W, b, mu, reaction)
    found = friction_solutions(problem)
    distance = np.abs(found.reactions - reaction).max(axis=1).min()
    assert distance <= 1e-8 * max(1.0, np.abs(reaction).max())


@settings(max_examples=30, deadline=None)
@given(delassus, frictions, st.lists(st.floats(0.0, 3.0), min_size=4, max_size=4).map(np.array))
def test_matrix_is_copositive(W, mu, z):
    M = friction_lcp(W, np.zeros(2), mu).M
    lam = np.array([z[0], z[1] - z[2]])
    np.testing.assert_allclose(z @ M @ z, lam @ W @ lam + mu * z[0] * z[3], rtol=1e-12, atol=1e-12)
    assert z @ M @ z >= -1e-12


def test_sliding_friction_opposes_the_slip():
    # A block on the ground (W = I): pushed along +t with no normal load it opens; pressed down (b_n < 0)
    # and sliding with u_t = +1 beyond what friction can stop, friction sits at −μ λ_n.
    W = np.eye(2)
    (lam,) = friction_solutions(friction_lcp(W, [-1.0, 1.0], 0.5)).reactions
    np.testing.assert_allclose(lam, [1.0, -0.5], rtol=1e-14)
    (lam,) = friction_solutions(friction_lcp(W, [-1.0, -0.2], 0.5)).reactions
    np.testing.assert_allclose(lam, [1.0, 0.2], rtol=1e-14)  # sticks: |λ_t| = 0.2 < μ λ_n
