"""Contact-mode consistency against every cell of Champneys & Várkonyi Tables 2 and 3.

For each row of the tables, several (A, B, C, μ) with the row's signs of p± are swept over all directions of
(a, b) with the row's sign of b (the conditions are homogeneous in (a, b)). The set of mode-sets met along the
sweep must be exactly the alternatives the table lists: each "or" branch occurs and nothing else does.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import regcontact  # noqa: F401  (float64)
from regcontact.stability import (
    TableCell,
    cell_label,
    consistent_modes,
    painleve_parameters,
    rigid_consistent_modes,
    table_cell,
)

F, T, SP, SM, IWC = "F", "T", "S+", "S-", "IWC"

# Table 2 (rigid, Sec. 3.1), transcribed: per column, per row, the alternatives ("or") of mode sets ("and").
TABLE_2 = {
    "I": [[{F}], [{F}], [{F, SP}], [{SP}], [{SP}], [set()]],
    "II": [[{F}], [{F}, {F, T, SM}], [{F}, {F, T, SP}], [{T}, {SP}, {SM}], [{SP}, {T}], [{SM}, {T}]],
    "III": [[{F}], [{F, SM}], [{F}], [{SM}], [set()], [{SM}]],
}

# Table 3 (Sec. 4.4, after normal stability and IWC).
TABLE_3 = {
    "I": [[{F}], [{F}], [{F, IWC}], [{SP}], [{SP}], [{IWC}]],
    "II": [[{F}], [{F}, {F, T}], [{F}, {F, T}], [{T}, {SP}, {SM}], [{SP}, {T}], [{SM}, {T}]],
    "III": [[{F}], [{F, IWC}], [{F}], [{SM}], [{IWC}], [{SM}]],
}

ROWS = ("i", "ii", "iii", "iv", "v", "vi")
COLUMNS = {"I": 1.0, "II": 0.0, "III": -1.0}

# (A, B, C, μ) with p⁺ > 0, p⁻ > 0 (k⁺ < 0 in the second and third), p⁻ < 0, and p⁺ < 0.
PARAMETERS_BY_SIGNS = {
    "both positive": [(1.0, 0.5, 1.0, 0.8), (1.1, 0.3, 0.1, 0.2), (1.1, -0.3, 0.1, 0.2), (1.1, 0.3, 0.1, 0.3)],
    "p_minus negative": [(1.0, -0.5, 1.0, 3.0), (1.1, -0.3, 0.1, 0.5), (2.0, -1.9, 2.0, 1.2)],
    "p_plus negative": [(1.0, 0.5, 1.0, 3.0), (1.1, 0.3, 0.1, 0.5), (2.0, 1.9, 2.0, 1.2)],
}
SIGNS_OF_ROW = ["both positive", "p_minus negative", "p_plus negative"] * 2

RIGID, UPDATED, CELL = jax.jit(rigid_consistent_modes), jax.jit(consistent_modes), jax.jit(table_cell)


def _sweep(classify, A, B, C, mu, b_sign, slip_sign):
    """Mode sets met for (a, b) = (cos θ, sin θ) over the open half plane of the given sign of b."""
    theta = np.linspace(0.0, np.pi, 40_001)[1:-1] * b_sign
    a, b = np.cos(theta), np.sin(theta)
    modes = classify(a, b, A, B, C, mu, slip_sign)
    codes = np.unique(np.asarray(modes.stacked()).T @ (1 << np.arange(5)))
    names = ["F", "T", "S+", "S-", "IWC"]
    return {frozenset(name for bit, name in enumerate(names) if code >> bit & 1) for code in codes}, (a, b)


@pytest.mark.parametrize("table_name", ["Table 2", "Table 3"])
@pytest.mark.parametrize("column", ["I", "II", "III"])
@pytest.mark.parametrize("row", range(6))
def test_every_cell(table_name, column, row):
    table, classify = {"Table 2": (TABLE_2, RIGID), "Table 3": (TABLE_3, UPDATED)}[table_name]
    expected = {frozenset(alternative) for alternative in table[column][row]}
    b_sign = 1.0 if row < 3 else -1.0
    slip_sign = COLUMNS[column]
    for A, B, C, mu in PARAMETERS_BY_SIGNS[SIGNS_OF_ROW[row]]:
        observed, (a, b) = _sweep(classify, A, B, C, mu, b_sign, slip_sign)
        cells = CELL(b, A, B, C, mu, slip_sign)
        assert np.all(np.asarray(cells.column) == list(COLUMNS).index(column))
        assert np.all(np.asarray(cells.row) == row)
        assert observed == expected, f"{column}({ROWS[row]}) with A, B, C, μ = {A, B, C, mu}"


def test_cell_labels():
    assert cell_label(table_cell(1.0, 1.0, 0.5, 1.0, 3.0, 1.0)) == "I(iii)"
    assert cell_label(table_cell(-1.0, 1.0, -0.5, 1.0, 3.0, -1.0)) == "III(v)"
    assert cell_label(table_cell(-1.0, 1.0, 0.5, 1.0, 0.8, 0.0)) == "II(iv)"
    assert cell_label(TableCell(column=jnp.array(1), row=jnp.array(-1))) == "—"
    assert cell_label(table_cell(0.0, 1.0, 0.5, 1.0, 0.8, 0.0)) == "—"


@pytest.mark.slow
def test_stick_forces_satisfy_the_stick_equations_inside_the_cone():
    """Where T is consistent, Eq. 21's forces give u̇ = v̇ = 0 and lie strictly inside the friction cone."""
    rng = np.random.default_rng(7)
    A, B, C, mu = 1.1, 0.3, 0.1, 0.5
    a, b = rng.normal(size=(2, 2000))
    stick = np.asarray(rigid_consistent_modes(a, b, A, B, C, mu, 0.0).stick)
    assert 50 < stick.sum() < 1950
    lambda_t, lambda_n = np.linalg.solve([[A, B], [B, C]], -np.stack([a, b]))
    assert np.allclose((a + A * lambda_t + B * lambda_n)[stick], 0)
    assert np.allclose((b + B * lambda_t + C * lambda_n)[stick], 0)
    inside = (lambda_n > 0) & (np.abs(lambda_t) < mu * lambda_n)
    np.testing.assert_array_equal(stick, inside)


def test_painleve_rod_of_preclik_is_in_cell_I_vi():
    """Preclik's example (φ = π/3, μ = 3/2, ω = 0, v_x = −1) slips forward (u > 0) in the Painlevé region with
    b < 0: inconsistent in Table 2, IWC in Table 3."""
    from regcontact.stability import rod_reduced_dynamics
    from regcontact.systems.rod import PainleveRod

    rod = PainleveRod()
    q, v = rod.initial_state()
    r = rod_reduced_dynamics(rod, q, v)
    assert r.u > 0 and painleve_parameters(r.A, r.B, r.C, rod.mu).p_plus < 0
    assert cell_label(table_cell(r.b, r.A, r.B, r.C, rod.mu, jnp.sign(r.u))) == "I(vi)"
    assert rigid_consistent_modes(r.a, r.b, r.A, r.B, r.C, rod.mu, jnp.sign(r.u)).names() == frozenset()
    assert consistent_modes(r.a, r.b, r.A, r.B, r.C, rod.mu, jnp.sign(r.u)).names() == {"IWC"}
