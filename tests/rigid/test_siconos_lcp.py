"""The Siconos LCP test problems (an outside suite) through Lemke and all_solutions.

The files live in ``<repo>/../shared/peer-tests/siconos-lcp`` and are never copied into the repository; the
tests skip when the folder is absent. For every problem, Lemke either returns a z whose residuals are at
round-off relative to the data or says it found none, it takes exactly the pivots of exact-arithmetic Lemke,
and all_solutions (where the size allows exhaustive search) agrees with it.
"""

from pathlib import Path

import numpy as np
import pytest
from scipy.linalg import cho_factor, solve_triangular
from scipy.optimize import nnls

from regcontact.rigid.lcp import all_solutions, lcp_residual, lemke, read_siconos_lcp
from tests.rigid.lcp_exact_oracle import exact_lemke

SICONOS = Path(__file__).resolve().parents[2] / ".." / "shared" / "peer-tests" / "siconos-lcp"
FILES = sorted(SICONOS.glob("*.dat")) if SICONOS.is_dir() else []
MAX_ENUMERATION_SIZE = 16
#: Why these tests skip where the folder is absent (a clone without the project's shared folder beside it).
OUTSIDE = (
    f"needs the Siconos LCP problems in {SICONOS.resolve()}, a folder outside the repository (../shared beside the "
    "checkout, as CI lays it out); not found"
)
needs_siconos = pytest.mark.skipif(not FILES, reason=OUTSIDE)
each_problem = pytest.mark.parametrize(
    "path",
    FILES or [pytest.param(None, marks=pytest.mark.skip(reason=OUTSIDE))],
    ids=lambda p: p.stem if p else "none",
)


def round_off(n: int) -> float:
    return 10 * n * np.finfo(float).eps


def not_copositive_plus(M: np.ndarray) -> bool:
    """A certificate (over unit vectors and their pairwise sums) that M is not copositive-plus: some z ≥ 0 with
    zᵀMz < 0, or with zᵀMz = 0 but (M + Mᵀ) z ≠ 0."""
    n = M.shape[0]
    for i in range(n):
        for j in range(i, n):
            z = np.zeros(n)
            z[i] += 1.0
            z[j] += 1.0
            quadratic = z @ M @ z
            if quadratic < 0 or (quadratic == 0 and np.any((M + M.T) @ z != 0)):
                return True
    return False


@each_problem
def test_lemke_is_right_or_says_it_found_nothing(path):
    M, q = read_siconos_lcp(path)
    result = lemke(M, q)
    assert result.status in ("solved", "ray_termination", "pivot_limit")
    if result.status == "solved":
        residual = lcp_residual(M, q, result.z)
        assert residual.within(round_off(len(q)))
        w = M @ result.z + q
        assert np.abs(np.minimum(result.z, w)).max() <= round_off(len(q)) * residual.scale
        assert abs(result.z @ w) <= round_off(len(q)) * residual.scale * max(np.abs(result.z).max(), 1.0)


@pytest.mark.slow
@each_problem
def test_lemke_takes_the_exact_arithmetic_path(path):
    M, q = read_siconos_lcp(path)
    status, pivots, z = exact_lemke(M, q)
    result = lemke(M, q)
    assert (result.status, result.pivots) == (status, pivots)
    if status == "solved":
        np.testing.assert_allclose(result.z, z, rtol=1e-12, atol=1e-12 * np.abs(z).max())


@each_problem
def test_all_solutions_agrees_with_lemke(path):
    M, q = read_siconos_lcp(path)
    if len(q) > MAX_ENUMERATION_SIZE:
        pytest.skip(f"n = {len(q)}: exhaustive enumeration of 2^{len(q)} index sets is out of reach")
    found = all_solutions(M, q)
    for z in found.solutions:
        assert lcp_residual(M, q, z).within(round_off(len(q)))
    result = lemke(M, q)
    if result.status == "solved":
        assert found.contains(result.z, tol=1e-10)
    elif len(found) or found.continua:
        # Lemke may miss existing solutions only when ray termination proves nothing.
        assert not_copositive_plus(M)
    else:
        assert result.status == "ray_termination"


@needs_siconos
def test_known_facts_of_the_suite():
    M, q = read_siconos_lcp(SICONOS / "lcp_deudeu.dat")
    np.testing.assert_allclose(all_solutions(M, q).solutions, [[4 / 3, 7 / 3]], rtol=1e-15)
    np.testing.assert_allclose(lemke(M, q).z, [4 / 3, 7 / 3], rtol=1e-15)

    M, q = read_siconos_lcp(SICONOS / "lcp_CPS_1.dat")
    found = all_solutions(M, q)
    (segment,) = found.continua
    assert segment.bounded and segment.range([1.0, 1.0]) == pytest.approx((1.0, 1.0), rel=1e-12)  # z₁ + z₂ = 1
    assert segment.range([1.0, 0.0]) == pytest.approx((0.0, 1.0), abs=1e-12)

    M, q = read_siconos_lcp(SICONOS / "lcp_exp_murty2.dat")
    assert lemke(M, q).pivots == 2 ** len(q)  # Murty's exponential example

    M, q = read_siconos_lcp(SICONOS / "lcp_Pang_isolated_sol_perturbed.dat")
    assert lemke(M, q).status == "ray_termination" and len(all_solutions(M, q)) == 0


@needs_siconos
def test_large_positive_definite_problem_matches_a_convex_qp_solver():
    # lcp_mmc (n = 26) is too large to enumerate, but M is symmetric positive definite, so the LCP has exactly
    # one solution: the minimiser of ½ zᵀMz + qᵀz over z ≥ 0, i.e. min ‖Lᵀz + L⁻¹q‖ over z ≥ 0 (M = LLᵀ),
    # which SciPy's NNLS finds independently of Lemke.
    M, q = read_siconos_lcp(SICONOS / "lcp_mmc.dat")
    np.testing.assert_array_equal(M, M.T)
    L = np.tril(cho_factor(M, lower=True)[0])
    z_qp, _ = nnls(L.T, -solve_triangular(L, q, lower=True))
    result = lemke(M, q)
    assert result.status == "solved"
    np.testing.assert_allclose(result.z, z_qp, rtol=0, atol=1e-9 * np.abs(z_qp).max())
