"""Property tests: Lemke and all_solutions on random P, PSD, copositive and degenerate problems.

Theory used: a P-matrix LCP has exactly one solution for every q; a monotone (PSD) LCP has a convex solution
set; copositive-plus matrices (PSD ones among them) make ray termination a proof of infeasibility; strictly
copositive matrices make every LCP solvable, and Lemke finds a solution.

The data are multiples of 1/8 in [−3, 3]: well scaled, exactly representable (so products and sums stay exact
and singular matrices are exactly singular), and rich in ties and zeros. Data whose entries span tens of
orders of magnitude (1 next to 1e-140) are outside what a relative tolerance can decide: there, "singular at
the data's precision" and "nonsingular in exact arithmetic" disagree, and the two solvers may legitimately
differ.
"""

import numpy as np
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays

from regcontact.rigid.lcp import all_solutions, lcp_residual, lemke
from tests.rigid.lcp_exact_oracle import exact_lemke

ROUND_OFF = 1e-12
sizes = st.integers(1, 6)
entries = st.integers(-24, 24).map(lambda k: k / 8)


@st.composite
def matrix_and_q(draw, kind):
    n = draw(sizes)
    A = draw(arrays(float, (n, n), elements=entries))
    q = draw(arrays(float, (n,), elements=entries))
    skew = draw(arrays(float, (n, n), elements=entries))
    if kind == "positive_definite":  # (M + Mᵀ)/2 = A Aᵀ + I/10 is PD, hence M is a P-matrix
        M = A @ A.T + 0.1 * np.eye(n) + (skew - skew.T)
    elif kind == "triangular":  # permuted triangular with positive diagonal: every principal minor > 0
        permutation = draw(st.permutations(range(n)))
        T = np.triu(A, 1) + np.diag(np.abs(np.diag(skew)) + 0.1)
        M = T[np.ix_(permutation, permutation)]
    elif kind == "semidefinite":  # B Bᵀ of rank ≤ n − 1, plus a skew part: monotone
        M = A[:, : max(n - 1, 1)] @ A[:, : max(n - 1, 1)].T + (skew - skew.T)
    elif kind == "strictly_copositive":
        M = np.abs(A) + 0.1
    else:
        raise ValueError(kind)
    return M, q


def assert_all_are_solutions(M, q, found):
    for z in found.solutions:
        assert lcp_residual(M, q, z).within(ROUND_OFF)
    for continuum in found.continua:
        for z in continuum.extremes:
            assert lcp_residual(M, q, z).within(ROUND_OFF)


@settings(max_examples=40, deadline=None)
@given(st.one_of(matrix_and_q("positive_definite"), matrix_and_q("triangular")))
def test_p_matrix_has_one_solution_and_both_solvers_find_it(problem):
    M, q = problem
    result = lemke(M, q)
    assert result.status == "solved"
    assert lcp_residual(M, q, result.z).within(ROUND_OFF)
    found = all_solutions(M, q)
    assert found.isolated and len(found) == 1
    np.testing.assert_allclose(found.solutions[0], result.z, rtol=1e-9, atol=1e-9 * np.abs(q).max())


@settings(max_examples=40, deadline=None)
@given(matrix_and_q("semidefinite"))
def test_monotone_problem(problem):
    M, q = problem
    result = lemke(M, q)
    found = all_solutions(M, q)
    assert_all_are_solutions(M, q, found)
    if result.status == "solved":
        assert lcp_residual(M, q, result.z).within(ROUND_OFF)
        assert found.contains(result.z, tol=1e-7)
    else:
        assert result.status == "ray_termination"
        assert len(found) == 0 and found.isolated  # PSD is copositive-plus: ray termination ⇒ infeasible
    assert len(found) <= 1 or not found.isolated  # the solution set is convex


@settings(max_examples=40, deadline=None)
@given(matrix_and_q("strictly_copositive"))
def test_strictly_copositive_problem_is_solved(problem):
    M, q = problem
    result = lemke(M, q)
    assert result.status == "solved"
    assert lcp_residual(M, q, result.z).within(ROUND_OFF)
    found = all_solutions(M, q)
    assert_all_are_solutions(M, q, found)
    assert found.contains(result.z, tol=1e-7)


small_integers = st.integers(-2, 2).map(float)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 5).flatmap(
        lambda n: st.tuples(
            arrays(float, (n, n), elements=small_integers), arrays(float, (n,), elements=small_integers)
        )
    )
)
def test_degenerate_integer_problems_follow_the_exact_path(problem):
    # Small integers make ties in the ratio test and zero basic values common: the float implementation must
    # take the pivots exact arithmetic takes, and never call a wrong z solved.
    M, q = problem
    status, pivots, z = exact_lemke(M, q)
    result = lemke(M, q)
    assert (result.status, result.pivots) == (status, pivots)
    found = all_solutions(M, q)
    assert_all_are_solutions(M, q, found)
    if status == "solved":
        np.testing.assert_allclose(result.z, z, rtol=1e-12, atol=1e-12)
        assert lcp_residual(M, q, result.z).within(ROUND_OFF)
        assert found.contains(result.z, tol=1e-9)
