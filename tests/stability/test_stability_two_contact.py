"""Two non-sticking contacts (Champneys & Várkonyi Sec. 6): class codes, Table 4, the S+S+ Jacobian, the classes of
Fig. 15's captions (the figure itself: ``tests/figures/test_two_contact_figures.py``).

What of Table 4 the text extraction lets us check (``docs/stability.md``, "Two contacts"): the dual column (16
rows); the mode columns cell by cell in the 13 rows whose run-together digits split into four ascending columns
one way only, and as a digit run in rows 22, 33, 34; the IWC marks cell by cell except ``IF`` vs ``FI`` in the
rows with a single ``x`` (16, 22, 23, 24). The shading (normal stability) did not survive; the text's statements
about it are tested instead.
"""

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import regcontact  # noqa: F401  (float64)
from regcontact.figures._two_contact_orbits import FIG15_PANELS
from regcontact.stability import (
    PRINTED_TABLE4,
    TWO_CONTACT_MODE_NAMES,
    TwoContactSystem,
    characteristic_polynomial,
    class_code,
    class_label,
    compare_with_printed,
    cone_meets_quadrant,
    equal_law_eigenvalues,
    hurwitz_stable,
    impacts_without_collision,
    lcp_modes,
    linearisation_eigenvalues,
    mode_readings,
    painleve_matrix,
    recompute_table4,
    sample_configurations,
    slip_slip_eigenvalues,
    slip_slip_equilibrium,
    slip_slip_jacobian,
    swap_contacts,
    two_contact_autodiff_eigenvalues,
    two_contact_modes,
    two_contact_vector_field,
)


def _same_multiset(first, second, tol):
    """Eigenvalue lists equal up to order (each matched to its nearest partner)."""
    remaining = list(np.asarray(second))
    for value in np.asarray(first):
        index = int(np.argmin([abs(value - other) for other in remaining]))
        assert abs(value - remaining.pop(index)) <= tol * max(1.0, abs(value)), (first, second)


# --- class code -------------------------------------------------------------------------------------------------

HAND_MADE = [  # (p⁺ rows, b, class): γ₁, γ₂, β worked out by hand from the definitions
    (((1.0, 1.0), (1.0, 0.2)), (1.0, 1.0), "115"),  # γ₂ < γ₁ = π/4, β = 5π/4
    (((1.0, 0.5), (0.5, 1.0)), (-1.0, -0.1), "121"),  # γ₁ < γ₂ < π/2, β ≈ 0.03π < γ₁
    (((-1.0, 1.0), (1.0, -2.0)), (1.0, 1.0), "254"),  # γ₁ = 3π/4, γ₂ = 1.65π < γ̂₁ = 1.75π, β = 5π/4
    (((-1.0, -1.0), (-1.0, 1.0)), (1.0, -2.0), "332"),  # γ₁ = 5π/4, γ₂ = 3π/4 ∈ (π/2, π), β = 0.65π ∈ (π/2, γ₂)
    (((1.0, -1.0), (-1.0, 1.001)), (-0.1, 1.0), "425"),  # γ₁ = 7π/4, γ₂ just below γ̂₁ = 3π/4, β ∈ (3π/2, γ₁)
]


@pytest.mark.parametrize(("rows", "b", "expected"), HAND_MADE)
def test_class_code_by_hand(rows, b, expected):
    assert class_label(class_code(jnp.array(rows), jnp.array(b))) == expected


def test_class_code_of_fig15_captions_and_the_sign_of_b():
    """The caption's ``a`` is ``−b``: that gives the stated classes 261 and 142; ``a = b`` would give 264, 145."""
    for panel, other in zip(FIG15_PANELS[:2], ("264", "145")):
        painleve, b = jnp.array(panel.painleve), jnp.array(panel.b)
        assert class_label(class_code(painleve, b)) == panel.subclass
        assert class_label(class_code(painleve, -b)) == other


@pytest.fixture(scope="module")
def samples():
    """4096 random ``(p⁺, b)`` and their class codes."""
    painleve, b = jax.jit(sample_configurations, static_argnums=1)(jax.random.PRNGKey(3), 4096)
    return painleve, b, np.asarray(class_code(painleve, b))


@pytest.mark.slow
def test_class_code_is_elementwise_jittable_and_vmappable(samples):
    painleve, b, batched = samples
    np.testing.assert_array_equal(jax.jit(jax.vmap(class_code))(painleve, b), batched)
    assert batched.shape == (4096, 3)
    assert set(np.unique(batched[:, 0])) <= {1, 2, 3, 4} and set(np.unique(batched[:, 1:])) <= set(range(1, 7))


def test_painleve_matrix_is_eq_13_per_column():
    normal_normal, normal_tangential, mu = (
        jnp.array([[2.0, 0.5], [0.5, 1.0]]),
        jnp.array([[1.0, -2.0], [3.0, 0.5]]),
        jnp.array([0.3, 0.7]),
    )
    np.testing.assert_allclose(
        painleve_matrix(normal_normal, normal_tangential, mu), [[2.0 - 0.3, 0.5 + 1.4], [0.5 - 0.9, 1.0 - 0.35]]
    )


# --- modes and impacts -------------------------------------------------------------------------------------------


def test_closed_form_modes_equal_lcp_enumeration(samples):
    """Table 1 for both contacts (closed form) against every solution of the 2×2 LCP, 300 random configurations."""
    painleve, b = (np.asarray(x[:300]) for x in samples[:2])
    flags = np.asarray(two_contact_modes(painleve, b).stacked())
    for index in range(300):
        closed = {name for name, flag in zip(TWO_CONTACT_MODE_NAMES, flags[:, index]) if flag}
        assert closed == lcp_modes(painleve[index], b[index])


def test_hand_made_quadruple_indeterminacy_and_duality():
    painleve, b = jnp.array([[-1.0, 1.0], [1.0, -2.0]]), jnp.array([1.0, 1.0])  # subclass 254
    assert two_contact_modes(painleve, b).names() == {"FF", "S+S+", "S+F", "FS+"}
    assert impacts_without_collision(painleve).names() == {"IF", "FI", "II"}
    swapped = swap_contacts(painleve, b)
    assert class_label(class_code(*swapped))[:2] == "25"  # self-dual (Table 4)
    swapped_modes = two_contact_modes(*swapped).names()
    assert swapped_modes == {"FF", "S+S+", "S+F", "FS+"}


# --- Table 4 ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def classes():
    return recompute_table4()


@pytest.mark.slow
def test_every_sample_of_a_class_gives_the_same_cell(classes):
    assert len(classes) == 24
    for result in classes:
        assert result.impacts_uniform, result.name
        for sub in result.subclasses:
            assert sub.uniform and sub.samples >= 4, sub.name


def test_table4_agrees_with_every_checkable_printed_cell(classes):
    comparisons = compare_with_printed(classes)
    assert len(comparisons) == len(PRINTED_TABLE4) == 16
    for comparison in comparisons:
        assert comparison.dual_agrees and comparison.modes_agree and comparison.impacts_agree, comparison
    # What the extraction leaves undetermined: the column split of three digit runs, IF vs FI in four rows.
    assert {c.name for c in comparisons if c.mode_readings > 1} == {"22", "33", "34"}
    assert {c.name for c in comparisons if c.impact_readings > 1} == {"16", "22", "23", "24"}
    printed = {row.name: row for row in PRINTED_TABLE4}
    for comparison in comparisons:  # the digit runs and marks are reproduced exactly
        assert comparison.computed_digits == printed[comparison.name].mode_digits
        assert comparison.computed_marks == printed[comparison.name].impact_marks


def test_mode_readings_of_unambiguous_and_ambiguous_runs():
    assert mode_readings("5 2 1 2 6 2 3 4") == [((5,), (2,), (1, 2, 6), (2, 3, 4))]
    assert ((5,), (3,), (4, 5), (3, 4)) in mode_readings("5 3 4 5 3 4")


def test_table4_statements_of_the_text(classes):
    """Sec. 6.1–6.2: the subclasses the text names, and which classes have an undetermined S+S+ stability."""
    modes = {sub.name: sub.modes for result in classes for sub in result.subclasses}
    assert all(len(modes[name]) == 2 for name in ("151", "154", "156"))
    assert modes["152"] == modes["153"] == frozenset()
    assert modes["112"] == {"S+S+", "S+F", "FS+"}
    assert modes["254"] == modes["354"] == {"FF", "S+S+", "S+F", "FS+"}
    assert modes["261"] == modes["262"] == {"S+S+"}
    by_name = {result.name: result for result in classes}
    depends = {name for name, result in by_name.items() if result.slip_slip_stability == "depends"}
    assert depends == {"13", "41", "14", "31", "23", "46"}
    assert all(by_name[name].law_dependent for name in depends)  # the boundary moves with the contact law
    assert by_name["26"].slip_slip_stability == "unstable"  # "robustly unstable" for any contact law
    assert {name for name, result in by_name.items() if result.slip_slip_stability == "stable"} == {"12", "42"}


def test_double_impact_needs_the_third_quadrant_not_the_fourth(samples):
    """Sec. 6.3 says "fourth quadrant"; read literally that contradicts the printed II column in 8 rows."""
    painleve, _, codes = samples
    names = codes[:, 0] * 10 + codes[:, 1]
    literal = np.asarray(cone_meets_quadrant(painleve, 4))
    contradicted = set()
    for row in PRINTED_TABLE4:
        in_class = names == int(row.name)
        assert np.all(literal[in_class] == literal[in_class][0])
        if bool(literal[in_class][0]) != ("(x)" in row.impact_marks):
            contradicted.add(row.name)
    assert contradicted == {"14", "16", "24", "26", "33", "34", "35", "42"}


# --- the fast-scale Jacobian --------------------------------------------------------------------------------------


def _random_systems(count, seed, equal_laws):
    """``count`` random systems whose S+S+ equilibrium exists, stacked along a leading axis."""
    rng = np.random.default_rng(seed)
    systems = []
    while len(systems) < count:
        painleve, b = rng.normal(size=(2, 2)), rng.normal(size=2)
        if np.all(-np.linalg.solve(painleve, b) > 0):
            k, q = (-np.exp(rng.uniform(-1.5, 1.5, size=1 if equal_laws else 2)) for _ in range(2))
            systems.append(TwoContactSystem(b, painleve, k, q))
    return jax.tree_util.tree_map(lambda *x: jnp.stack(x), *systems)


@jax.jit
@jax.vmap
def _linearisations(system):
    """Equilibrium, field there, both Jacobians, polynomial and every eigenvalue computation for one system."""
    equilibrium = slip_slip_equilibrium(system)
    z0 = jnp.concatenate([equilibrium.penetration, jnp.zeros(2)])
    return dict(
        exists=equilibrium.exists,
        field=two_contact_vector_field(0.0, z0, system),
        jacobian=jax.jacfwd(lambda z: two_contact_vector_field(0.0, z, system))(z0),
        closed_jacobian=slip_slip_jacobian(system.painleve, system.k, system.q),
        polynomial=characteristic_polynomial(system.painleve, system.k, system.q),
        stable=equilibrium.stable,
        closed=equilibrium.eigenvalues,
        roots=slip_slip_eigenvalues(system.painleve, system.k, system.q),
        equal_law=equal_law_eigenvalues(system.painleve, system.k[0], system.q[0]),
        automatic=two_contact_autodiff_eigenvalues(system, z0),
    )


@pytest.mark.slow
@pytest.mark.parametrize("equal_laws", [True, False])
def test_slip_slip_equilibrium_and_eigenvalues_closed_form_vs_jacfwd(equal_laws):
    """At S+S+ the field vanishes; [[0, I], [p⁺K, p⁺Q]], its polynomial and eigenvalues equal jax.jacfwd's."""
    results = jax.tree_util.tree_map(np.asarray, _linearisations(_random_systems(16, 5 + equal_laws, equal_laws)))
    assert results["exists"].all()
    np.testing.assert_allclose(results["field"], 0.0, atol=1e-12)
    np.testing.assert_allclose(results["jacobian"], results["closed_jacobian"], rtol=1e-12, atol=1e-12)
    for index in range(16):
        automatic = results["automatic"][index]
        np.testing.assert_allclose(
            results["polynomial"][index], np.poly(results["jacobian"][index]), rtol=1e-12, atol=1e-12
        )
        _same_multiset(results["closed"][index], automatic, 1e-12)
        _same_multiset(results["roots"][index], automatic, 1e-12)
        if equal_laws:
            _same_multiset(results["equal_law"][index], automatic, 1e-12)
        assert bool(results["stable"][index]) == bool(np.all(automatic.real < 0))
    assert 0 < results["stable"].sum() < 16  # both verdicts are exercised


def test_hurwitz_criterion_matches_eigenvalues_on_many_samples(samples):
    painleve = samples[0][:1000]
    laws = -jnp.exp(jax.random.uniform(jax.random.PRNGKey(4), (1000, 2, 2), minval=-2.0, maxval=2.0))

    @jax.jit
    def verdicts(painleve, laws):
        coefficients = characteristic_polynomial(painleve, laws[:, 0], laws[:, 1])
        roots = jax.vmap(lambda c: jnp.roots(c, strip_zeros=False))(coefficients)
        return hurwitz_stable(coefficients), jnp.all(roots.real < 0, axis=-1)

    by_hurwitz, by_roots = verdicts(painleve, laws)
    np.testing.assert_array_equal(by_hurwitz, by_roots)
    assert 0 < int(by_hurwitz.sum()) < 1000


def test_a_free_contact_does_not_change_the_other_contacts_stability():
    """Sec. 6.2: S+F has the single-contact Jacobian with gain p₁₁ (plus two zero eigenvalues of the free one)."""
    for p11 in (0.7, -0.4):
        system = TwoContactSystem((-0.3, 2.0), ((p11, 0.2), (0.5, 1.3)), (-1.5, -0.8), (-0.6, -2.0))
        z = jnp.array([-1.0, 0.4, 0.0, 0.1])  # contact 1 pressed (λ₁ = 1.5), contact 2 above and rising: passive
        expected = np.concatenate([[0.0, 0.0], linearisation_eigenvalues(p11, -1.5, -0.6)])
        _same_multiset(eqx.filter_jit(two_contact_autodiff_eigenvalues)(system, z), expected, 1e-12)
