"""The convergence analysis on synthetic data with a known order and limit (``regcontact.convergence``)."""

import numpy as np
import pytest

from regcontact.convergence import (
    DRIFT_TOLERANCE,
    analyse,
    distances,
    extrapolate,
    fit_order,
    roundoff_floor,
    why_no_order,
)

LIMIT = np.array([0.3247595264191645, 0.4375])
DIRECTION = np.array([1.0, 0.4])  # how the integrals approach the limit, per component
ALPHA = 10.0 ** np.arange(3, 9)  # Table 1's α


def integrals(alpha, distance, limit=LIMIT):
    """Integrals ``limit + d(α) · direction``: their max-norm distance to ``limit`` is ``d`` (direction max 1)."""
    return limit + np.outer(distance, DIRECTION)


@pytest.mark.parametrize("order", [0.5, 1.0, 1.7])
def test_the_fit_recovers_a_known_order_and_limit(order):
    alpha = 10.0 ** np.arange(0, 6)  # d(1e5) ≥ 1e-8: far above the integrals' own round-off
    d = 3.0 * alpha**-order
    result = analyse(alpha, integrals(alpha, d), LIMIT, rtol=1e-13, atol=0.0)
    np.testing.assert_allclose(result.distances, d, rtol=1e-7)
    assert result.order == pytest.approx(order, abs=1e-6)
    assert result.fit.alpha_range == (1e2, 1e5)  # the last three decades
    assert result.fit.residual < 1e-8 and result.warnings == ()
    # an exact power law: Richardson's limit is the limit, to the round-off of the integrals themselves
    assert result.distance_of_limit < 1e-12


def test_the_fit_recovers_the_order_through_noise():
    """1 % multiplicative noise on d ∝ α^(−0.5): the order to ±0.02 and the noise seen in the residual."""
    rng = np.random.default_rng(7)
    alpha = 10.0 ** np.arange(3, 8.01, 0.5)
    d = 0.8 * alpha**-0.5 * (1 + 0.01 * rng.standard_normal(alpha.size))
    result = analyse(alpha, integrals(alpha, d), LIMIT, rtol=1e-10, atol=1e-12)
    assert result.order == pytest.approx(0.5, abs=0.02)
    assert 1e-4 < result.fit.residual < 1e-2
    assert result.fit.alpha_range == (1e5, 1e8)


def test_a_pre_asymptotic_head_is_left_out_of_the_fit_and_a_pre_asymptotic_tail_is_flagged():
    """d = α^(−1/2) + 300 α^(−1): the second term dominates below α = 1e5. Over 1e2 … 1e10 the tail (1e7 … 1e10)
    is asymptotic and gives the order 1/2; a sweep that stops at 1e5 has its tail in the crossover: flagged."""
    alpha = 10.0 ** np.arange(2, 11)
    d = alpha**-0.5 + 300 * alpha**-1.0
    late = analyse(alpha, integrals(alpha, d), LIMIT, rtol=1e-13)
    assert late.order == pytest.approx(0.5, abs=0.03) and late.warnings == ()
    assert late.fit.alpha_range == (1e7, 1e10)

    early = analyse(alpha[:4], integrals(alpha[:4], d[:4]), LIMIT, rtol=1e-13)
    assert early.fit.drift > DRIFT_TOLERANCE
    assert any(warning.startswith("not asymptotic") for warning in early.warnings), early.warnings


def test_a_round_off_tail_is_flagged_and_not_fitted():
    """d ∝ α^(−1) until it meets a plateau of scattered values near 3e-11, below the solver's tolerance floor
    10 (rtol·size + atol) ≈ 4.5e-10: the plateau points are left out, said so, and the order is still 1."""
    rng = np.random.default_rng(3)
    alpha = 10.0 ** np.arange(2, 12)
    d = np.maximum(alpha**-1.0, 3e-11 * rng.uniform(0.5, 1.5, alpha.size))
    data = integrals(alpha, d)
    result = analyse(alpha, data, LIMIT, rtol=1e-10, atol=1e-12)
    assert (
        result.roundoff_floor == roundoff_floor(data, LIMIT, 1e-10, 1e-12) == 10 * (1e-10 * np.abs(data).max() + 1e-12)
    )
    assert any(warning.startswith("round-off: 2 tail distance(s)") for warning in result.warnings), result.warnings
    assert result.fit.alpha_range == (1e6, 1e9)  # the last three decades above the floor
    assert result.order == pytest.approx(1.0, abs=1e-8)


def test_integrals_equal_to_the_reference_have_no_order_and_are_their_own_limit():
    exact = np.zeros((3, 2))
    result = analyse([1e3, 1e4, 1e5], exact, np.zeros(2), rtol=1e-10, atol=1e-12)
    assert result.order is None and result.distance_of_limit == 0.0
    assert any(warning.startswith("round-off") for warning in result.warnings)


def test_a_reference_the_integrals_do_not_approach():
    """The integrals tend to L; measured against R ≠ L the distance levels off at |L − R|: no falling order, and
    the limit, extrapolated with the order of the successive differences, lies |L − R| from R."""
    d = 2.0 * ALPHA**-0.5
    other = LIMIT + np.array([0.008, 0.003])
    result = analyse(ALPHA, integrals(ALPHA, d), other, rtol=1e-10, atol=1e-12)
    assert result.order < 0.1
    assert any("do not fall" in warning for warning in result.warnings)
    assert result.limit_order == pytest.approx(0.5, abs=1e-8)
    np.testing.assert_allclose(result.limit, LIMIT, atol=1e-12)
    assert result.distance_of_limit == pytest.approx(0.008, abs=1e-12)


def test_k_contacts_distances_are_the_max_norm_over_every_contact():
    integrals_k = np.array([[[1.0, 2.0], [3.0, 4.0]], [[1.5, 2.0], [3.0, 3.0]]])
    reference = np.array([[1.0, 2.0], [3.0, 4.5]])
    np.testing.assert_array_equal(distances(integrals_k, reference), [0.5, 1.5])


def test_helpers_on_a_non_geometric_grid():
    alpha = np.array([1.0, 3.0, 7.0, 20.0, 50.0])
    fit = fit_order(alpha, 5.0 * alpha**-2.0)
    assert fit.order == pytest.approx(2.0, abs=1e-12) and fit.alpha_range == (1.0, 50.0)  # all within 3 decades
    values = 1.0 + 5.0 * alpha[:, None] ** -2.0
    np.testing.assert_allclose(extrapolate(alpha, values, 2.0), [1.0], rtol=1e-14)
    assert fit_order([1.0], [1.0]) is None


def test_an_order_needs_three_distinct_alphas():
    """Two values fix any line; a repeated one adds nothing: no order from them, and why in words."""
    alpha = np.array([1e3, 1e3, 1e4, 1e4])
    assert fit_order(alpha, alpha**-0.5) is None
    assert why_no_order(alpha) == "only 2 distinct α" and why_no_order([1e-2, 1e-2], "δt") == "only 1 distinct δt"
    assert why_no_order([1e3, 1e4, 1e5]) is None
    repeated = np.array([1e3, 1e3, 1e4, 1e5, 1e5])
    fit = fit_order(repeated, 2.0 * repeated**-0.5)
    assert fit.order == pytest.approx(0.5, abs=1e-12)
    assert fit.local_orders == (pytest.approx(0.5, abs=1e-12),) * 2  # between distinct α, none infinite


def test_the_tail_takes_three_distinct_alphas():
    """Five runs at the largest α and two far below it: the tail reaches down to the third distinct α."""
    alpha = np.array([1.0, 10.0, 1e6, 1e6, 1e6, 1e6, 1e6])
    fit = fit_order(alpha, alpha**-1.0)
    assert fit.alpha_range == (1.0, 1e6) and fit.order == pytest.approx(1.0, abs=1e-12)


def test_a_repeated_largest_alpha_extrapolates_from_the_last_two_distinct():
    alpha = np.array([1e2, 1e3, 1e4, 1e4])
    result = analyse(alpha, integrals(alpha, alpha**-1.0), LIMIT, rtol=1e-13)
    assert result.order == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(result.limit, LIMIT, atol=1e-13)
