"""Consistent contact modes of a planar single contact (Champneys & Várkonyi 2016, Tables 1–3): ``F``, ``T``,
``S±`` and ``IWC`` tested against Table 1, elementwise over grids of parameters (``docs/stability.md``, "Mode
consistency")."""

from __future__ import annotations

import equinox as eqx
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Bool, Float, Int

from regcontact.stability._checks import check_values
from regcontact.stability._reduced import painleve_parameters

__all__ = [
    "MODE_NAMES",
    "ContactModes",
    "TableCell",
    "rigid_consistent_modes",
    "consistent_modes",
    "table_cell",
    "cell_label",
]

MODE_NAMES: tuple[str, ...] = ("F", "T", "S+", "S-", "IWC")

_COLUMNS = ("I", "II", "III")
_ROWS = ("i", "ii", "iii", "iv", "v", "vi")


class ContactModes(eqx.Module):
    """Which modes are consistent, one boolean (array) per mode, in the order of :data:`MODE_NAMES`."""

    free: Bool[Array, ...]
    stick: Bool[Array, ...]
    slip_plus: Bool[Array, ...]
    slip_minus: Bool[Array, ...]
    impact_without_collision: Bool[Array, ...]

    def stacked(self) -> Bool[Array, "5 ..."]:
        """The five flags stacked along a new leading axis."""
        return jnp.stack([self.free, self.stick, self.slip_plus, self.slip_minus, self.impact_without_collision])

    def names(self) -> frozenset[str]:
        """The consistent modes of a single (scalar) state, by name, e.g. ``{"F", "IWC"}``."""
        return frozenset(name for name, flag in zip(MODE_NAMES, self.stacked()) if bool(flag))


class TableCell(eqx.Module):
    """Position in Tables 2–3: column 0, 1, 2 for ``u > 0, u = 0, u < 0`` (I–III), row 0–5 for (i)–(vi).

    The row is −1 where the signs of ``b, p⁺, p⁻`` match no row (a zero, or both ``p±`` negative, which Eq. 11
    forbids).
    """

    column: Int[Array, ...]
    row: Int[Array, ...]


def _broadcast(*values: ArrayLike) -> list[Float[Array, ...]]:
    return list(jnp.broadcast_arrays(*(jnp.asarray(value, dtype=float) for value in values)))


def _checked(**values: ArrayLike) -> list[Float[Array, ...]]:
    """The values checked (:func:`~regcontact.stability._checks.check_values`) and broadcast together."""
    check_values(**values)
    return _broadcast(*values.values())


def rigid_consistent_modes(
    a: ArrayLike, b: ArrayLike, A: ArrayLike, B: ArrayLike, C: ArrayLike, mu: ArrayLike, slip_sign: ArrayLike
) -> ContactModes:
    """Modes consistent under rigid-body Coulomb contact: Table 1 applied mode by mode, giving Table 2 (never
    ``IWC``). Strict inequalities: a state on a boundary gets no mode.

    Args:
        a: the free tangential acceleration (Eq. 8).
        b: the free normal acceleration (Eq. 9).
        A: ``cᵀM⁻¹c``.
        B: ``cᵀM⁻¹d``.
        C: ``dᵀM⁻¹d``.
        mu: the friction coefficient, ``≥ 0``.
        slip_sign: the sign of the slip velocity ``u``: ``+1``, ``0`` or ``−1``.

    Returns:
        A :class:`ContactModes`, elementwise over the broadcast arguments (grids go through in one call).
    """
    a, b, A, B, C, mu, slip_sign = _checked(a=a, b=b, A=A, B=B, C=C, mu=mu, slip_sign=slip_sign)
    painleve = painleve_parameters(A, B, C, mu)
    at_rest = slip_sign == 0

    # Free motion: the free normal acceleration lifts the contact off.
    free = b > 0

    # Slip S±: λ_T = ∓μ λ_N and v̇ = b + p± λ_N = 0 (Eqs. 12–19); from rest it must also accelerate that way.
    def slip(p: Float[Array, ...], k_signed: Float[Array, ...], direction: float) -> Bool[Array, ...]:
        safe_p = jnp.where(p == 0, 1.0, p)
        normal_force = -b / safe_p
        tangential_acceleration = a + b * k_signed / safe_p  # Eq. 15 / Eq. 19
        admissible = (direction * slip_sign >= 0) & (p != 0)
        return admissible & (normal_force > 0) & (~at_rest | (direction * tangential_acceleration > 0))

    slip_plus = slip(painleve.p_plus, painleve.k_plus, +1.0)
    slip_minus = slip(painleve.p_minus, -painleve.k_minus, -1.0)

    # Stick: u̇ = v̇ = 0 gives the forces of Eq. 21, which must lie strictly inside the friction cone.
    determinant = A * C - B**2
    lambda_t = (b * B - a * C) / determinant
    lambda_n = (a * B - A * b) / determinant
    stick = at_rest & (lambda_n > 0) & (jnp.abs(lambda_t) < mu * lambda_n)

    return ContactModes(
        free=free,
        stick=stick,
        slip_plus=slip_plus,
        slip_minus=slip_minus,
        impact_without_collision=jnp.zeros_like(free),
    )


def consistent_modes(
    a: ArrayLike, b: ArrayLike, A: ArrayLike, B: ArrayLike, C: ArrayLike, mu: ArrayLike, slip_sign: ArrayLike
) -> ContactModes:
    """Modes consistent once normal stability and impacts are accounted for: Table 3.

    Slip ``S±`` survives only where its Painlevé parameter ``p±`` is positive (Sec. 4.3: otherwise its fast
    normal equilibrium is a saddle); an IWC is possible when the contact slips (``u ≠ 0``) in the direction
    whose ``p±`` is negative (Sec. 3.2: the inconsistent and the slip/lift-off indeterminate cells of Table 2).

    Args:
        a: the free tangential acceleration (Eq. 8).
        b: the free normal acceleration (Eq. 9).
        A: ``cᵀM⁻¹c``.
        B: ``cᵀM⁻¹d``.
        C: ``dᵀM⁻¹d``.
        mu: the friction coefficient, ``≥ 0``.
        slip_sign: the sign of the slip velocity ``u``: ``+1``, ``0`` or ``−1``.

    Returns:
        A :class:`ContactModes`, elementwise over the broadcast arguments.

    Examples:
        >>> from regcontact.stability import cell_label, consistent_modes, rigid_consistent_modes, table_cell
        >>> state = dict(b=-1.0, A=1.0, B=0.5, C=1.0, mu=3.0, slip_sign=1.0)  # forward slip, p⁺ < 0, b < 0
        >>> cell_label(table_cell(**state))
        'I(vi)'
        >>> sorted(rigid_consistent_modes(a=0.0, **state).names()), sorted(consistent_modes(a=0.0, **state).names())
        ([], ['IWC'])
    """
    a, b, A, B, C, mu, slip_sign = _checked(a=a, b=b, A=A, B=B, C=C, mu=mu, slip_sign=slip_sign)
    rigid = rigid_consistent_modes(a, b, A, B, C, mu, slip_sign)
    painleve = painleve_parameters(A, B, C, mu)
    impact = ((slip_sign > 0) & (painleve.p_plus < 0)) | ((slip_sign < 0) & (painleve.p_minus < 0))
    return ContactModes(
        free=rigid.free,
        stick=rigid.stick,
        slip_plus=rigid.slip_plus & (painleve.p_plus > 0),
        slip_minus=rigid.slip_minus & (painleve.p_minus > 0),
        impact_without_collision=impact,
    )


def table_cell(
    b: ArrayLike, A: ArrayLike, B: ArrayLike, C: ArrayLike, mu: ArrayLike, slip_sign: ArrayLike
) -> TableCell:
    """The cell of Tables 2–3 that ``(b, p⁺, p⁻, sign u)`` falls in."""
    b, A, B, C, mu, slip_sign = _checked(b=b, A=A, B=B, C=C, mu=mu, slip_sign=slip_sign)
    painleve = painleve_parameters(A, B, C, mu)
    p_plus, p_minus = painleve.p_plus, painleve.p_minus
    column = jnp.where(slip_sign > 0, 0, jnp.where(slip_sign == 0, 1, 2))
    pattern = jnp.select(
        [
            (p_plus > 0) & (p_minus > 0),
            (p_plus > 0) & (p_minus < 0),
            (p_plus < 0) & (p_minus > 0),
        ],
        [0, 1, 2],
        default=-1,
    )
    row = jnp.select([(pattern >= 0) & (b > 0), (pattern >= 0) & (b < 0)], [pattern, pattern + 3], default=-1)
    return TableCell(column=column, row=row)


def cell_label(cell: TableCell) -> str:
    """Name of a single cell as in the paper, e.g. ``"I(iii)"``; ``"—"`` for no row."""
    row = int(cell.row)
    return "—" if row < 0 else f"{_COLUMNS[int(cell.column)]}({_ROWS[row]})"
