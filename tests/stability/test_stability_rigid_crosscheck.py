"""Table 2 against an independent formulation: the force-acceleration LCP of Preclik & Rüde, all solutions.

For a rod state in contact with ġ_n = 0, every solution of ``regcontact.rigid.force_acceleration`` is a
consistent mode (opening → F, sticking → T, sliding → S± by the sign of the slip or of its acceleration, in
Champneys' frame u = −ġ_t); the set must equal :func:`rigid_consistent_modes` of the rod's reduced quantities.
"""

import numpy as np
import pytest

import regcontact  # noqa: F401  (float64)
from regcontact.rigid import ContactState, force_acceleration
from regcontact.stability import (
    cell_label,
    painleve_parameters,
    rigid_consistent_modes,
    rod_reduced_dynamics,
    table_cell,
)
from regcontact.systems.rod import PainleveRod


def _rod(phi, mu, omega, slip, torque=0.0, force_x=0.0):
    """Standard rod (m = g = 1, l = 2) in contact at rest normally, with Champneys slip u = slip."""
    return PainleveRod(
        mass=1.0,
        length=2.0,
        gravity=1.0,
        mu=mu,
        phi0=phi,
        omega0=omega,
        vx0=-slip - np.sin(phi) * omega,
        torque=torque,
        force_x=force_x,
    )


def _both_classifications(rod):
    q, v = rod.initial_state()
    r = rod_reduced_dynamics(rod, q, v)
    slip_sign = float(np.sign(np.round(float(r.u), 12)))
    mine = rigid_consistent_modes(r.a, r.b, r.A, r.B, r.C, rod.mu, slip_sign).names()
    solutions = force_acceleration(ContactState.from_system(rod))
    assert solutions.isolated
    theirs = set()
    for solution in solutions:
        if solution.mode == "F":
            theirs.add("F")
        elif solution.mode == "T":
            theirs.add("T")
        else:  # sliding: direction of the slip, or at rest of the slip acceleration g̈_t = −u̇
            direction = slip_sign if slip_sign else -np.sign(solution.contact_rate[1])
            theirs.add("S+" if direction > 0 else "S-")
    cell = cell_label(table_cell(r.b, r.A, r.B, r.C, rod.mu, slip_sign))
    return set(mine), theirs, cell


@pytest.mark.slow
def test_random_rod_states_agree_with_the_lcp():
    rng = np.random.default_rng(20160111)
    seen = set()
    for _ in range(150):
        rod = _rod(
            phi=rng.uniform(0.05, np.pi - 0.05),
            mu=rng.uniform(0.05, 3.0),
            omega=1.5 * rng.normal(),
            slip=float(rng.integers(-1, 2)),
            torque=rng.normal(),
            force_x=rng.normal(),
        )
        mine, theirs, cell = _both_classifications(rod)
        assert mine == theirs, cell
        seen.add(frozenset(mine))
    assert len(seen) >= 6  # the sample is not stuck in one cell


@pytest.mark.parametrize("phi", [np.pi / 3, 2 * np.pi / 3])
@pytest.mark.parametrize("inside_cone", [True, False])
def test_painleve_states_at_rest_agree_with_the_lcp(phi, inside_cone):
    """II(iii) (φ = π/3, p⁺ < 0) and II(ii) (φ = 2π/3, p⁻ < 0) with b > 0, inside the friction cone (F, T and
    slip: indeterminate) and outside it (F only), reached by choosing the horizontal force for a given a."""
    rod = _rod(phi=phi, mu=1.5, omega=1.5, slip=0.0)
    q, v = rod.initial_state()
    r = rod_reduced_dynamics(rod, q, v)
    painleve = painleve_parameters(r.A, r.B, r.C, 1.5)
    # Cone edges a p⁺ + b k⁺ = 0 and a p⁻ − b k⁻ = 0: a beyond the relevant one lies inside the cone.
    edge = -r.b * painleve.k_plus / painleve.p_plus if phi < np.pi / 2 else r.b * painleve.k_minus / painleve.p_minus
    a_target = float(edge) * (2.0 if inside_cone else 0.5)
    rod = _rod(phi=phi, mu=1.5, omega=1.5, slip=0.0, force_x=float(r.a) - a_target)  # a = a(0) − f_x/m
    mine, theirs, cell = _both_classifications(rod)
    assert cell == ("II(iii)" if phi < np.pi / 2 else "II(ii)")
    slip = "S+" if phi < np.pi / 2 else "S-"
    assert mine == ({"F", "T", slip} if inside_cone else {"F"})
    assert mine == theirs
