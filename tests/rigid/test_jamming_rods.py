"""Painlevé rods found by search whose rigid slip reaches the G-spot in finite time, in case G1 and in case G2;
the rigid slip in ``s`` checked against an independent real-time integration of the Newton–Euler rod."""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from regcontact.rigid import SLIP_OUTCOMES, jam_case, search_jamming_rod
from tests.rigid.champneys_rod_slip import slip_equations

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", params=["G1", "G2"])
def found(request):
    return search_jamming_rod(request.param)


def test_the_found_rod_reaches_the_g_spot_of_its_case_in_finite_time(found):
    slip = found.slip
    assert SLIP_OUTCOMES[int(slip.outcome)] == "jam"
    end = found.end
    assert jam_case(float(end.alpha1), float(end.alpha2), float(end.alpha3)) == found.case
    # next to the G-spot it was searched around (the slip stops once p and b are below 1e-5 of their start)
    np.testing.assert_allclose(slip.end[0][2], found.g_spot.phi[0], atol=1e-4)
    np.testing.assert_allclose(slip.end[1][2], found.g_spot.omega[0], atol=1e-4)
    # finite time: t(s) has stopped growing; what is left is p/|α₁| by Eq. 33
    t, p = np.asarray(slip.t), np.asarray(slip.painleve)
    t_jam = float(slip.end[2])
    assert 0.1 < t_jam < 5.0
    left = float(end.painleve) / abs(float(end.alpha1))
    assert left < 1e-4 * t_jam
    finite = np.isfinite(t)
    assert np.all(np.diff(t[finite]) >= 0) and np.all(p[finite] > 0)
    assert np.all(np.asarray(slip.free_normal_acceleration)[finite] < 0)


def test_the_normal_force_diverges_in_g1_and_tends_to_alpha2_over_alpha3_minus_alpha1_in_g2(found):
    force = np.asarray(found.slip.normal_force())
    force = force[np.isfinite(force)]
    if found.case == "G1":
        assert force[-1] > 1e4 * force[0]
        assert np.all(np.diff(force[-20:]) > 0)
    else:
        limit = float(found.end.jam_normal_force())
        assert limit > 0
        np.testing.assert_allclose(force[-1], limit, rtol=1e-4)


def test_the_search_found_a_set_of_starts_that_jam_not_a_single_point(found):
    jams = found.grid_outcomes == 1
    assert jams.sum() >= 20
    assert {int(c) for c in np.unique(found.grid_outcomes)} >= {1, 2}  # jam and lift-off both occur


def test_an_independent_real_time_integration_reaches_the_same_g_spot_at_the_same_time(found):
    """Champneys' rod equations (m = 1, ℓ = 1, r² = 1/3) written out, ``λ_N = −b/p``, integrated in ``t`` by SciPy's
    DOP853 up to ``0.999 t_jam``: the angle and rate are those of the rescaled slip at that time, and ``p``,
    ``b`` have fallen towards zero."""
    rod = found.rod
    normal, field = slip_equations(rod)

    t_jam = float(found.slip.end[2])
    x0 = [float(rod.phi0), float(rod.omega0)]
    p0, b0 = normal(*x0)
    solution = solve_ivp(field, (0, 0.999 * t_jam), x0, method="DOP853", rtol=1e-12, atol=1e-13, dense_output=True)
    assert solution.success
    t = np.asarray(found.slip.t)
    keep = np.isfinite(t) & (t < 0.999 * t_jam)
    theta_slip = np.asarray(found.slip.q)[keep, 2]
    np.testing.assert_allclose(solution.sol(t[keep])[0], theta_slip, atol=1e-7)
    painleve, free = normal(*solution.y[:, -1])
    assert 0 < painleve < 0.01 * p0 and 0 > free > 0.05 * b0
