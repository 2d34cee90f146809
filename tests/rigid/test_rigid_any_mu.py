"""The rigid formulations at any friction coefficient, ``μ`` = 0 … 1e300 (a huge ``μ`` is the usual stand-in for "no
slip").

Three kinds of check, each over log-uniform ``μ`` (and ``μ = 0``):

- *exact*: the solutions a formulation returns are exactly the solution set of the law it was given, computed in
  rational arithmetic (:mod:`exact_contact_law`): same count, same modes, reactions to ``1e-9`` relative in each
  component (the normal reaction of a sliding contact at ``μ = 1e300`` is ``1e-300`` of its friction, and must be
  right in its own digits);
- *the law*: every returned solution obeys Signorini and Coulomb, residuals relative to their own terms (the cone
  against ``|λ_t| + μ λ_n``, not against the largest number around);
- *limits*: closed forms as ``μ → ∞``: the sticking impulse and ``Λ = 0`` where they exist (the paper's rod:
  ``Λ = (3√3/16, 7/16)``), a sliding force whose normal part falls as ``1/μ``, the flat rod's box of impulses.
"""

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from regcontact.rigid import (
    ContactState,
    force_acceleration,
    impulse_velocity,
    law_solutions_by_mode,
    moreau_jean,
    moreau_jean_batch,
    rigid_references,
    time_stepping,
    torque_threshold,
)
from regcontact.rigid._formulations.contact_law import LawTable
from regcontact.rigid.lcp import (
    DataScales,
    all_solutions,
    friction_lcp,
    friction_solutions_batch,
    lemke,
    multi_contact_friction_lcp,
    multi_contact_friction_solutions,
)
from regcontact.systems import PainleveRod, TwoPointRod
from regcontact.systems.reduced_two_contact import ReducedTwoContact
from tests.rigid.exact_contact_law import Ambiguous, exact_law_solutions

RIGID = Path(__file__).parents[2] / "studies" / "rigid_painleve.toml"
TOL = 1e-9

#: ``μ``: zero, or log-uniform over 600 decades.
mus = st.one_of(st.just(0.0), st.floats(-300.0, 300.0).map(lambda e: 10.0**e))
unit = st.floats(0.3, 3.0)
signed = st.floats(-2.0, 2.0).filter(lambda x: x == 0 or abs(x) > 1e-3)


def budget(examples):
    """Hypothesis settings bounded in time: ``examples`` draws, no per-draw deadline (a draw solves LCPs)."""
    return settings(
        max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow]
    )


# --- the law, and the exact solution set --------------------------------------------------------------------------


def recorder():
    """A law solver that records the problems it is given (the formulation's own ``G``, ``b``, ``μ``)."""
    seen = []

    def law(problem):
        seen.append(problem)
        return multi_contact_friction_solutions(problem)

    return law, seen


def assert_obeys_the_law(reactions, G, b, mu, slip):
    """Signorini–Coulomb at each contact of ``u = G λ + b`` (``reactions (k, 2)``), residuals relative to the terms
    they are made of; a folded contact (``slip ±1``) has its friction at the cone's edge against that slip."""
    lam = reactions.reshape(-1)
    u = G @ lam + b
    terms = np.abs(G) @ np.abs(lam) + np.abs(b)
    size = np.abs(b).max() / max(np.abs(G).sum(axis=1).max(), 1e-300)  # the law's typical reaction
    for i, (m, s) in enumerate(zip(mu, slip)):
        (lam_n, lam_t), (u_n, u_t), (t_n, t_t) = lam[2 * i : 2 * i + 2], u[2 * i : 2 * i + 2], terms[2 * i : 2 * i + 2]
        cone = abs(lam_t) + m * lam_n
        assert lam_n >= -1e-12 * size and u_n >= -TOL * t_n
        assert lam_n <= 1e-12 * size or abs(u_n) <= TOL * t_n  # complementarity
        assert abs(lam_t) - m * lam_n <= TOL * cone + 1e-12 * size  # inside the cone, to its own scale
        sliding = s if s else (np.sign(u_t) if abs(u_t) > TOL * t_t else 0)
        if sliding:  # friction at the cone's edge, against the slip
            assert abs(lam_t + sliding * m * lam_n) <= TOL * cone + 1e-12 * size


def assert_exact(solutions, problem, active):
    """The formulation's solutions on its ``active`` contacts are the law's exact solution set."""
    try:
        exact = exact_law_solutions(problem.delassus, problem.free, problem.mu, problem.slip_direction)
    except Ambiguous:
        assume(False)
    assert solutions.isolated
    size = np.abs(problem.free).max() / np.abs(problem.delassus).sum(axis=1).max()
    floor = np.array([[1e-13 * size / max(1.0, m), 1e-13 * size] for m in problem.mu])
    computed = [(s.reactions[active], tuple(s.modes[i] for i in active)) for s in solutions]
    assert len(computed) == len(exact), (computed, exact)
    for lam_x, modes in exact:
        lam_x = lam_x.astype(float)
        close = [m == modes and np.all(np.abs(c - lam_x) <= 1e-9 * np.abs(lam_x) + floor) for c, m in computed]
        assert sum(close) == 1, (lam_x, modes, computed)
    for s in solutions:
        assert_obeys_the_law(s.reactions[active], problem.delassus, problem.free, problem.mu, problem.slip_direction)


def rod_state(mass, length, phi0, vx0, omega0, torque, mu, normal_velocity=None):
    """A Painlevé rod's state; ``normal_velocity`` replaces ``v_y`` (an impact, ``ġ_n < 0``, or a lift-off)."""
    rod = PainleveRod(mass=mass, length=length, phi0=phi0, vx0=vx0, omega0=omega0, torque=torque, mu=mu)
    if normal_velocity is None:
        return ContactState.from_system(rod)
    _, v = rod.initial_state()
    v = np.asarray(v, dtype=float).copy()
    v[1] = normal_velocity
    return ContactState.from_system(rod, v=v)


rods = st.tuples(unit, unit, st.floats(0.05, math.pi - 0.05), signed, signed, signed, mus)


@pytest.mark.slow
@budget(60)
@given(rods, st.one_of(st.none(), signed), st.floats(-4.0, -1.0).map(lambda e: 10.0**e))
def test_one_contact_formulations_return_the_exact_solution_set(rod, normal_velocity, dt):
    state = rod_state(*rod, normal_velocity=normal_velocity)
    for formulation, active in (
        (lambda law: impulse_velocity(state, law=law), lambda sets: sets.closed),
        (lambda law: time_stepping(state, dt, law=law), lambda sets: sets.all_contacts),
    ):
        law, seen = recorder()
        solutions = formulation(law)
        assert_exact(solutions, seen[0], list(active(solutions.index_sets)))


@budget(60)
@given(rods)
def test_force_acceleration_returns_the_exact_solution_set(rod):
    state = rod_state(*rod)  # ġ_n = 0: the contact at normal rest, sliding (folded) or not
    law, seen = recorder()
    solutions = force_acceleration(state, law=law)
    assert_exact(solutions, seen[0], list(solutions.index_sets.normal_rest))


pairs = st.tuples(signed, signed)


@st.composite
def reduced_two_contacts(draw):
    """Champneys' two-contact form with a random SPD Delassus matrix and a ``μ`` per contact."""
    c1, c2 = draw(unit), draw(unit)
    c12 = draw(st.floats(-0.9, 0.9)) * math.sqrt(c1 * c2)
    B = [[draw(signed), draw(signed)], [draw(signed), draw(signed)]]
    return ReducedTwoContact(
        a=draw(pairs), b=draw(pairs), B=B, C=[[c1, c12], [c12, c2]], mu=(draw(mus), draw(mus)), slip0=draw(pairs),
        normal_velocity0=draw(pairs),
    )  # fmt: skip


@pytest.mark.slow
@budget(10)
@given(reduced_two_contacts(), st.floats(-4.0, -1.0).map(lambda e: 10.0**e))
def test_two_contact_formulations_return_the_exact_solution_set(system, dt):
    state = ContactState.from_system(system)
    for formulation in (lambda law: impulse_velocity(state, law=law), lambda law: time_stepping(state, dt, law=law)):
        law, seen = recorder()
        solutions = formulation(law)
        assert_exact(solutions, seen[0], [0, 1])


@budget(8)
@given(st.floats(0.1, 1.4), signed, st.floats(-2.0, -0.1), signed, mus, st.floats(-4.0, -1.0).map(lambda e: 10.0**e))
def test_tilted_two_point_rod_returns_the_exact_solution_set(phi0, vx0, vy0, omega0, mu, dt):
    """One end on the ground, the other up: the law acts on one contact (impact) or on both (time step)."""
    state = ContactState.from_system(TwoPointRod(mu=mu, phi0=phi0, vx0=vx0, vy0=vy0, omega0=omega0))
    for formulation, active in (
        (lambda law: impulse_velocity(state, law=law), lambda sets: sets.closed),
        (lambda law: time_stepping(state, dt, law=law), lambda sets: sets.all_contacts),
    ):
        law, seen = recorder()
        solutions = formulation(law)
        assert_exact(solutions, seen[0], list(active(solutions.index_sets)))


# --- limits as μ → ∞ ----------------------------------------------------------------------------------------------

HUGE = [1.5, 10.0, 1e3, 1e6, 2e11, 5e11, 1e12, 2e12, 1e15, 1e30, 1e100, 1e200, 1e300]


@pytest.mark.parametrize("mu", HUGE)
def test_papers_rod_keeps_its_sticking_impulse_and_no_impulse_at_any_large_mu(mu):
    """Sec. 3.1's rod (m = 1, l = 2, I = 1/3, φ = π/3, v_x = −1): ``W = [[7/4, −3√3/4], [−3√3/4, 13/4]]``, ``det W =
    4``, ``b = (0, −1)``, so ``Λ = −W⁻¹ b = (3√3/16, 7/16)``: inside the cone for ``μ ≥ 7/(3√3) ≈ 1.347``, with
    ``Λ = 0`` beside it (``b_n = 0``) and no sliding impulse (``b_n = 0`` makes ``λ_n (W_nn ∓ μ W_nt) = 0``).
    The time step of Sec. 4.1 (δt = 0.01) has the sticking ``δt λ̃ = −W⁻¹ (−δt g, −1)`` alone."""
    rod = PainleveRod(mu=mu)
    impulses = impulse_velocity(rod)
    assert sorted(impulses.modes) == [("F",), ("T",)] and impulses.isolated
    np.testing.assert_allclose(impulses.with_modes("T").reaction, [3 * math.sqrt(3) / 16, 7 / 16], rtol=1e-15)
    np.testing.assert_array_equal(impulses.with_modes("F").reaction, [0.0, 0.0])
    (step,) = time_stepping(rod, 0.01)
    W = np.array([[7 / 4, -3 * math.sqrt(3) / 4], [-3 * math.sqrt(3) / 4, 13 / 4]])
    assert step.mode == "T"
    np.testing.assert_allclose(step.reaction, np.linalg.solve(W, [0.01, 1.0]), rtol=1e-14)
    reference = rigid_references(rod)
    np.testing.assert_allclose(reference.impulse, [[3 * math.sqrt(3) / 16, 7 / 16]], rtol=1e-15)


@pytest.mark.parametrize("mu", [1.0, 1.3])
def test_below_the_sticking_threshold_the_papers_rod_has_no_sticking_impulse(mu):
    assert impulse_velocity(PainleveRod(mu=mu)).modes == (("F",),)


@budget(40)
@given(unit, unit, st.floats(0.3, 1.0), st.floats(0.05, math.pi - 0.05), signed, st.floats(0.0, 300.0))
def test_sticking_impulse_and_no_impulse_of_any_rod_as_mu_grows(mass, length, gyration, phi0, vx0, decades):
    """A rod at normal rest (``ω = 0``, so ``b = (0, v_x)``) with ``r = l/2``, ``s, c = sin φ, cos φ``:

        W = [[1/m + r² c²/I, −r² s c/I], [−r² s c/I, 1/m + r² s²/I]],   det W = (1/m)(1/m + r²/I),

    the sticking impulse ``Λ = −W⁻¹ b = (W_nt v_x, −W_nn v_x) / det W`` exists where ``Λ_n > 0`` and
    ``μ ≥ μ_T = W_nn / |W_nt|``; sliding needs ``λ_n (W_nn ∓ μ W_nt) = 0``, so the other solution is ``Λ = 0``.
    For ``μ = μ_T 10^decades`` that is the whole set, up to ``μ = 1e300``."""
    inertia = mass * (gyration * length) ** 2
    r, s, c = length / 2, math.sin(phi0), math.cos(phi0)
    W_nn, W_nt = 1 / mass + r**2 * c**2 / inertia, -(r**2) * s * c / inertia
    det = (1 / mass) * (1 / mass + r**2 / inertia)
    mu = min(W_nn / abs(W_nt) * 10.0**decades * (1 + 1e-6), 1e300)
    stick = np.array([W_nt * vx0, -W_nn * vx0]) / det
    rod = PainleveRod(mass=mass, length=length, inertia=inertia, phi0=phi0, vx0=vx0, omega0=0.0, mu=mu)
    found = impulse_velocity(rod)
    expected = [("F",), ("T",)] if stick[0] > 0 else [("F",)]
    assert sorted(found.modes) == expected and found.isolated
    np.testing.assert_array_equal(found.with_modes("F").reaction, [0.0, 0.0])
    if stick[0] > 0:
        np.testing.assert_allclose(found.with_modes("T").reaction, stick, rtol=1e-12)


@pytest.mark.parametrize("mu", [2.0, 1e3, 1e12, 1e50, 1e150, 1e300])
def test_sliding_force_falls_as_one_over_mu_and_keeps_its_friction(mu):
    """Sec. 2.2's rod (torque just below Eq. 12's threshold, sliding left) has ``A λ_n − b ≥ 0 ⊥ λ_n ≥ 0`` with
    ``A = 1/m + k c² − μ k s c`` (Eq. 10, ``k = l²/(4I)``) and ``b = g + (l/2) c τ/I < 0``: ``λ = 0`` and the
    sliding force ``λ_n = b/A → −b/(μ k s c)``, ``λ_t = μ λ_n → −b/(k s c)``: a normal force of order ``1/μ``,
    which must come out right in its own digits, not as round-off beside its friction."""
    phi, torque = math.pi / 3, torque_threshold(math.pi / 3) - 1.0
    k, s, c = 3.0, math.sin(phi), math.cos(phi)
    A = 1.0 + k * c**2 - mu * k * s * c
    b = 1.0 + c * torque / (1.0 / 3.0)
    forces = force_acceleration(PainleveRod(mu=mu, torque=torque))
    assert sorted(forces.modes) == [("F",), ("S-",)]
    sliding = forces.with_modes("S-").reaction
    np.testing.assert_allclose(sliding, [b / A, mu * b / A], rtol=1e-13)
    np.testing.assert_array_equal(forces.with_modes("F").reaction, [0.0, 0.0])


@pytest.mark.parametrize("mu", [0.5, 1e3, 1e12, 1e30, 1e300])
def test_flat_rod_dropped_keeps_its_box_of_impulses(mu):
    """The two-point rod dropped flat (``v = (v_x, −V, 0)``, ``m = 1``): the normal impulses are ``m V/2`` each and
    only ``Λ_t,1 + Λ_t,2 = −m v_x`` is fixed, ``|Λ_t,i| ≤ μ m V/2``: the impulses form the segment
    ``Λ_t,1 ∈ [−μ m V/2, μ m V/2 − m v_x]`` (statically indeterminate), for every ``μ ≥ m v_x/(m V)``."""
    V, vx = 1.0, 0.2
    found = impulse_velocity(TwoPointRod(mu=mu, vy0=-V, vx0=vx))
    boxes = np.array(found.continua)
    assert boxes.size and np.all(found.reactions[:, :, 0] == pytest.approx(V / 2, rel=1e-14))
    np.testing.assert_allclose(boxes[:, :, :, 0], V / 2, rtol=1e-14)
    low, high = boxes[:, 0, 0, 1].min(), boxes[:, 1, 0, 1].max()
    assert low == pytest.approx(-mu * V / 2, rel=1e-12) and high == pytest.approx(mu * V / 2 - vx, rel=1e-12)
    for solution in found:
        assert solution.reactions[:, 1].sum() == pytest.approx(-vx, abs=1e-12 * max(1.0, mu))
    assert rigid_references(TwoPointRod(mu=mu, vy0=-V, vx0=vx)).impulse is None  # a continuum: none chosen


# --- the solvers behind the formulations ----------------------------------------------------------------------------


@st.composite
def laws(draw):
    """A one-contact law ``u = W λ + b``: SPD ``W``, ``b`` over six decades (``b_n = 0`` half the time)."""
    f = np.array([[draw(signed), draw(signed)], [draw(signed), draw(signed)]])
    W = f @ f.T + 0.01 * np.eye(2)
    b = np.array([0.0 if draw(st.booleans()) else draw(signed), draw(signed)]) * 10.0 ** draw(st.floats(-3, 3))
    return W, b, draw(mus)


@pytest.mark.slow
@budget(80)
@given(laws())
def test_one_contact_law_is_exact_and_the_batch_and_mode_solvers_agree(law):
    W, b, mu = law
    problem = multi_contact_friction_lcp(W, b, [mu])
    found = multi_contact_friction_solutions(problem)
    try:
        exact = exact_law_solutions(W, b, [mu])
    except Ambiguous:
        assume(False)
    assert found.isolated and len(found.reactions) == len(exact)
    # the batched enumeration is the one-at-a-time search, bit for bit (or leaves the law to it)
    (fast,) = friction_solutions_batch(W[None], b[None], np.array([mu]))
    if fast is not None:
        assert fast.reactions.tobytes() == found.reactions.reshape(-1, 2).tobytes()
    # the integrators' mode enumeration finds the same reactions
    by_mode = law_solutions_by_mode(W, b, np.array([mu]))
    assert len(by_mode) == len(exact)
    for lam, _ in by_mode:
        assert any(np.allclose(lam, other, rtol=1e-9, atol=1e-12 * np.abs(b).max()) for other in found.reactions)
    # Lemke's method on the same LCP: one of them, or an honest failure
    scaled, reaction_scale, _ = friction_lcp(W, b, mu).nondimensional()
    result = lemke(scaled.M, scaled.q, scales=scaled.data_scales())
    if result.solved:
        lam = reaction_scale * scaled.reaction(result.z)
        assert any(np.allclose(lam, other, rtol=1e-9, atol=1e-12 * np.abs(b).max()) for other in found.reactions)


def test_the_batch_takes_huge_and_tiny_mu_on_its_fast_path():
    """Random laws at ``μ`` from 1e-300 to 1e300: most are clear-cut for the batch, and it equals the exact search."""
    rng = np.random.default_rng(3)
    count = 60
    f = rng.normal(size=(count, 2, 2))
    W = f @ np.swapaxes(f, 1, 2) + 0.01 * np.eye(2)
    b = rng.normal(size=(count, 2))
    mu = 10.0 ** rng.uniform(-300, 300, size=count)
    table = LawTable()
    problems = [multi_contact_friction_lcp(W[i], b[i], [mu[i]]) for i in range(count)]
    for problem in problems:
        table.record(problem)
    table.solve()
    fast = friction_solutions_batch(W, b, mu)
    assert sum(found is not None for found in fast) >= 0.9 * count
    for problem in problems:
        assert table(problem).reactions.tobytes() == multi_contact_friction_solutions(problem).reactions.tobytes()


@budget(40)
@given(laws(), st.lists(st.integers(-60, 60), min_size=8, max_size=8))
def test_the_enumeration_is_the_same_in_any_units(law, exponents):
    """An LCP scaled by powers of two, ``D_w M D_z``, ``D_w q`` (other units for each unknown and row, ``2^±60``),
    with its :class:`DataScales` scaled alike, has the same solution set, scaled: every decision is made in each
    index set's own units. (Each listed point and each continuum's extreme points of one lie in the other's set.)"""
    W, b, mu = law
    try:
        exact_law_solutions(W, b, [mu])
    except Ambiguous:
        assume(False)  # decisions at the tolerance's edge may fall either way in other units
    problem = friction_lcp(W, b, mu).nondimensional()[0]
    scales = problem.data_scales()
    d_w, d_z = 2.0 ** np.array(exponents[:4]), 2.0 ** np.array(exponents[4:])
    M = d_w[:, None] * problem.M * d_z
    nonzero = np.abs(M[problem.M != 0])
    assume(nonzero.max() < 1e290 and nonzero.min() > 1e-290)  # the scaled data stay far from over- and underflow
    q = d_w * problem.q
    rescaled = DataScales(d_w[:, None] * scales.entries * d_z, d_w * scales.constants)
    plain = all_solutions(problem.M, problem.q, scales=scales, apart=[(1, 2)])  # as friction_solutions searches
    scaled = all_solutions(M, q, scales=rescaled, apart=[(1, 2)])
    for first, second, to_second in ((plain, scaled, 1 / d_z), (scaled, plain, d_z)):
        points = [*first.solutions, *(z for continuum in first.continua for z in continuum.extremes)]
        assert all(second.contains(z * to_second) for z in points)
        assert bool(first.continua) == bool(second.continua)


# --- integrators and the study ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("mu", [1e12, 1e300])
def test_moreau_jean_at_huge_mu_sticks_and_the_batch_agrees(mu):
    """The first step of Sec. 4.1's rod at a huge ``μ`` is the time-stepping LCP's sticking solution; the batch of
    rods repeats the one-rod runs bit for bit."""
    rods = [PainleveRod(mu=mu), PainleveRod(mu=mu, phi0=0.6, vx0=0.5), PainleveRod(mu=mu, omega0=1.0)]
    run = moreau_jean(rods[0], 0.05, 0.01)
    (step,) = time_stepping(rods[0], 0.01)
    np.testing.assert_array_equal(run.impulses[0, 0], step.reaction)
    assert run.modes[0] == ("T",)
    for one, batch in zip(
        [moreau_jean(rod, 0.05, 0.01, "lemke") for rod in rods], moreau_jean_batch(rods, 0.05, 0.01, "lemke")
    ):
        assert one.modes == batch.modes
        np.testing.assert_array_equal(one.impulses, batch.impulses)


@pytest.mark.parametrize("mu", [1e12, 1e300])
def test_rigid_study_at_huge_mu_lists_the_sticking_and_free_impulses(mu):
    """``regcontact run studies/rigid_painleve.toml --set system.mu=…``: ``Λ = 0`` and the sticking impulse for both
    setups, Sec. 4.1's single sticking step; never a free contact with friction, never an empty set."""
    from regcontact.studies.running import run_study

    run = run_study(RIGID, overrides=[f"system.mu={mu!r}"], progress=lambda _: None)
    rows = run.result.rows
    for setup in ("no_force_solution", "non_unique"):
        impulses = {(r["mode"], round(r["reaction_n"], 12), round(r["reaction_t"], 12)) for r in rows
                    if r["setup"] == setup and r["formulation"] == "impulse_velocity"}  # fmt: skip
        assert impulses == {("F", 0.0, 0.0), ("T", round(3 * math.sqrt(3) / 16, 12), 0.4375)}
    for row in rows:
        if row["mode"] == "F":
            assert row["reaction_n"] == 0.0 and row["reaction_t"] == 0.0
    steps = [r for r in rows if r["setup"] == "no_force_solution" and r["formulation"] == "time_stepping"]
    assert [r["mode"] for r in steps] == ["T"]


def test_study_refuses_mu_beyond_the_checked_range_in_one_line():
    from regcontact.studies.config import ConfigError
    from regcontact.studies.running import run_study

    for override in ("system.mu=1e305", "setups.non_unique.system.mu=1e301"):
        with pytest.raises(ConfigError) as refused:
            run_study(RIGID, overrides=[override], progress=lambda _: None)
        key = override.split("=")[0]
        assert str(refused.value).startswith(f"{key} = ") and "at most 1e+300" in str(refused.value)
        assert "\n" not in str(refused.value)


@pytest.mark.parametrize("mu", [math.nan, math.inf, -1.0])
def test_a_friction_coefficient_that_is_no_number_is_refused(mu):
    with pytest.raises(ValueError, match=r"^mu = .*: expected a finite friction coefficient ≥ 0$"):
        friction_lcp(np.eye(2), [0.0, 1.0], mu)
    with pytest.raises(ValueError, match=r"^mu = .*: expected finite friction coefficients ≥ 0$"):
        multi_contact_friction_lcp(np.eye(2), [0.0, 1.0], [mu])


def test_a_sliding_contact_whose_column_overflows_is_refused_naming_mu_and_the_bound():
    """Beyond 1e300 the formulations are not checked; where ``μ G_·t`` leaves the floats (Sec. 2.2's rod sliding at
    ``μ = 1.7e308``) the force problem is refused, not answered with infinities."""
    rod = PainleveRod(mu=1.7e308, torque=torque_threshold(math.pi / 3) - 1.0)
    with pytest.raises(ValueError, match=r"^mu = 1\.7e\+308: expected at most [0-9.]+e\+307 for sliding contact 0"):
        force_acceleration(rod)
