"""all_solutions: every solution of small LCPs, isolated or in continua."""

import numpy as np
import pytest

from regcontact.rigid.lcp import DataScales, all_solutions, lcp_residual


def sorted_rows(a):
    return a[np.lexsort(a.T[::-1])]


def test_scalar_problem_with_two_solutions():
    # A z + b with A < 0 and b > 0 (the paradox's non-unique case): z = 0 and z = −b/A.
    found = all_solutions([[-0.5]], [2.0])
    assert found.isolated
    np.testing.assert_allclose(sorted_rows(found.solutions), [[0.0], [4.0]], rtol=1e-15)


def test_scalar_problem_without_solution():
    found = all_solutions([[-0.5]], [-2.0])
    assert len(found) == 0 and found.isolated


def test_positive_definite_problem_has_its_unique_solution():
    found = all_solutions([[2.0, 1.0], [1.0, 2.0]], [-5.0, -6.0])
    np.testing.assert_allclose(found.solutions, [[4 / 3, 7 / 3]], rtol=1e-15)


def test_subnormal_data_count_as_zero():
    """A subnormal entry has no relative precision: the problem is the one with it zero (here ``q = 0``, whose
    solution is ``z = 0``), also where the search measures in each index set's own units."""
    M = [[2.0, 1.0], [1.0, 2.0]]
    for scales in (None, DataScales(np.abs(M), np.array([1e-320, 0.0]))):
        found = all_solutions(M, [5e-324, -5e-324], scales=scales)
        np.testing.assert_array_equal(found.solutions, [[0.0, 0.0]])


def test_bimatrix_game_has_three_equilibria():
    # Cottle–Pang–Stone example 4.4.23 (Siconos lcp_CPS_3): three solutions, all isolated.
    A = np.array([[10.0, 20.0], [30.0, 15.0]])
    M = np.block([[np.zeros((2, 2)), A], [A.T, np.zeros((2, 2))]])
    found = all_solutions(M, -np.ones(4))
    assert found.isolated and len(found) == 3
    for z in found.solutions:
        assert lcp_residual(M, -np.ones(4), z).within(1e-14)


def test_segment_of_solutions_is_reported_as_a_bounded_continuum():
    # M = [[1, 1], [1, 1]], q = (−1, −1): every z ≥ 0 with z₁ + z₂ = 1 solves it.
    M, q = np.ones((2, 2)), -np.ones(2)
    found = all_solutions(M, q)
    assert not found.isolated
    (continuum,) = found.continua
    assert continuum.bounded and continuum.support == (0, 1)
    np.testing.assert_allclose(sorted_rows(continuum.extremes), [[0.0, 1.0], [1.0, 0.0]], atol=1e-15)
    assert found.contains([0.25, 0.75]) and not found.contains([0.5, 0.6])
    assert continuum.range([1.0, 0.0]) == pytest.approx((0.0, 1.0), abs=1e-12)


def test_ray_of_solutions_is_reported_as_unbounded():
    # M = [[1, −1], [−1, 1]], q = (1, −1): w₁ = −w₂, so z₂ = z₁ + 1 for every z₁ ≥ 0.
    found = all_solutions([[1.0, -1.0], [-1.0, 1.0]], [1.0, -1.0])
    (continuum,) = found.continua
    assert not continuum.bounded
    assert found.contains([2.0, 3.0])
    assert continuum.range([1.0, 0.0])[1] == np.inf


def test_isolated_point_of_a_singular_block_is_found():
    # Pang's example (Siconos lcp_Pang_isolated_sol): the only solution (1, 0, 0) has a singular 1×1 block
    # M₁₁ = 0; the signs of w₂ = z₁ − 1 and w₃ = 1 − z₁ pin z₁ = 1.
    M = np.array([[0.0, -1.0, -1.0], [1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]])
    found = all_solutions(M, [0.0, -1.0, 1.0])
    assert found.isolated
    np.testing.assert_allclose(found.solutions, [[1.0, 0.0, 0.0]], rtol=1e-15, atol=1e-15)


def test_degenerate_solution_is_reported_once():
    # z = 0 with w = q = 0 solves it from every index set that leaves z = 0.
    found = all_solutions(np.eye(3), np.zeros(3))
    np.testing.assert_array_equal(found.solutions, np.zeros((1, 3)))


def test_size_limit_is_explicit():
    with pytest.raises(ValueError, match="max_size"):
        all_solutions(np.eye(20), np.ones(20))
