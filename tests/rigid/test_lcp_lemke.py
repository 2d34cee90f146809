"""Lemke's method on small LCPs with known answers."""

import numpy as np
import pytest

from regcontact.rigid.lcp import lcp_residual, lemke
from tests.rigid.lcp_exact_oracle import exact_lemke

ROUND_OFF = 1e-13  # relative residuals of a correct z: a few ulps of the data scale


def murty(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Murty's example (1988, ch. 6): Lemke with covering vector 1 needs 2ⁿ pivots; solution 2ⁿ e_n."""
    M = np.triu(2.0 * np.ones((n, n)), 1) + np.eye(n)
    q = -np.array([2.0 ** (n + 1) - 2.0**i for i in range(1, n + 1)])
    return M, q


def test_nonnegative_q_is_solved_by_zero_without_pivots():
    result = lemke([[1.0, 2.0], [3.0, 4.0]], [0.0, 5.0])
    assert result.status == "solved" and result.pivots == 0
    np.testing.assert_array_equal(result.z, [0.0, 0.0])
    np.testing.assert_array_equal(result.w, [0.0, 5.0])


@pytest.mark.parametrize(
    ("M", "q", "z"),
    [
        ([[2.0]], [-4.0], [2.0]),
        ([[2.0, 1.0], [1.0, 2.0]], [-5.0, -6.0], [4 / 3, 7 / 3]),  # Siconos' lcp_deudeu
        (np.diag([1.0, 2.0, 4.0]), [-1.0, 3.0, -2.0], [1.0, 0.0, 0.5]),
        ([[1.0, -1.0], [1.0, 1.0]], [1.0, -3.0], [1.0, 2.0]),  # w = (0, 0): both variables basic
    ],
)
def test_known_solutions(M, q, z):
    result = lemke(M, q)
    assert result.status == "solved"
    np.testing.assert_allclose(result.z, z, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(result.w, np.asarray(M) @ result.z + q, rtol=0, atol=1e-14)
    assert lcp_residual(M, q, result.z).within(ROUND_OFF)


def test_infeasible_copositive_plus_problem_ends_in_ray_termination():
    # M = 0 is copositive-plus; w = q < 0 for every z, so there is no solution and Lemke must say so.
    result = lemke(np.zeros((2, 2)), [-1.0, -2.0])
    assert result.status == "ray_termination"


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_murty_example_takes_two_to_the_n_pivots(n):
    M, q = murty(n)
    result = lemke(M, q)
    assert result.status == "solved"
    assert result.pivots == 2**n
    expected = np.zeros(n)
    expected[-1] = 2.0**n
    np.testing.assert_array_equal(result.z, expected)


def test_pivot_cap_is_reported():
    M, q = murty(6)
    result = lemke(M, q, max_pivots=10)
    assert result.status == "pivot_limit" and result.pivots == 10


def test_degenerate_problem_follows_the_exact_lexicographic_path():
    # Every ratio ties at the start (q has equal entries) and several basic values hit zero on the way.
    M = np.array([[1.0, 2.0, 0.0, 1.0], [0.0, 1.0, 2.0, 1.0], [2.0, 0.0, 1.0, 1.0], [1.0, 1.0, 1.0, 0.0]])
    q = np.array([-1.0, -1.0, -1.0, 0.0])
    status, pivots, z = exact_lemke(M, q)
    result = lemke(M, q)
    assert (result.status, result.pivots) == (status, pivots) == ("solved", 4)
    np.testing.assert_allclose(result.z, z, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(result.z, [1 / 3, 1 / 3, 1 / 3, 0.0], rtol=1e-14, atol=1e-15)
    assert lcp_residual(M, q, result.z).within(ROUND_OFF)


def test_inputs_are_validated():
    with pytest.raises(ValueError, match="shape"):
        lemke(np.eye(3), [1.0, 2.0])
    with pytest.raises(ValueError, match="covering"):
        lemke(np.eye(2), [-1.0, 2.0], covering=[1.0, 0.0])
