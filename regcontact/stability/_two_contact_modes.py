"""Which modes and impacts without collision two forward-slipping contacts admit (Champneys & Várkonyi 2016,
Secs. 6.1 and 6.3): closed forms, and the LCP enumeration that checks them."""

from __future__ import annotations

import equinox as eqx
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Bool, Float

from regcontact.rigid.lcp import all_solutions
from regcontact.stability._checks import check_values
from regcontact.stability._two_contact_classes import IMPACT_NAMES, TWO_CONTACT_MODE_NAMES


class TwoContactModes(eqx.Module):
    """Which of ``FF, S+S+, S+F, FS+`` are consistent (boolean arrays, order of :data:`TWO_CONTACT_MODE_NAMES`)."""

    free_free: Bool[Array, ...]
    slip_slip: Bool[Array, ...]
    slip_free: Bool[Array, ...]
    free_slip: Bool[Array, ...]

    def stacked(self) -> Bool[Array, "4 ..."]:
        return jnp.stack([self.free_free, self.slip_slip, self.slip_free, self.free_slip])

    def names(self) -> frozenset[str]:
        """The consistent modes of one configuration by name, e.g. ``{"S+S+", "S+F"}``."""
        return frozenset(name for name, flag in zip(TWO_CONTACT_MODE_NAMES, self.stacked()) if bool(flag))


def two_contact_modes(painleve: Float[Array, "... 2 2"], b: Float[Array, "... 2"]) -> TwoContactModes:
    """Which of ``FF, S+S+, S+F, FS+`` are consistent: Table 1 applied to both contacts (Sec. 6.1), in closed form.

    ``S+F``: ``λ₁ = −b₁/p₁₁ > 0`` and ``v̇₂ = b₂ + p₂₁λ₁ > 0``; ``FS+`` likewise; ``S+S+``: ``−(p⁺)⁻¹b > 0``;
    ``FF``: ``b > 0``. Strict inequalities: boundaries are non-generic and get no mode. :func:`lcp_modes`
    finds the same by enumerating the LCP's solutions.

    Args:
        painleve: the Painlevé matrix ``p⁺``.
        b: the free normal accelerations.

    Returns:
        A :class:`TwoContactModes` of boolean arrays, elementwise over leading axes.

    Examples:
        >>> import jax.numpy as jnp
        >>> from regcontact.stability import two_contact_modes
        >>> sorted(two_contact_modes(jnp.eye(2), jnp.array([-1.0, 1.0])).names())
        ['S+F']
    """
    check_values(painleve=painleve, b=b)
    painleve, b = jnp.asarray(painleve, dtype=float), jnp.asarray(b, dtype=float)
    p11, p12, p21, p22 = painleve[..., 0, 0], painleve[..., 0, 1], painleve[..., 1, 0], painleve[..., 1, 1]
    b1, b2 = b[..., 0], b[..., 1]

    def one_slipping(p_own, p_other, b_own, b_other):
        safe = jnp.where(p_own == 0, 1.0, p_own)
        force = -b_own / safe
        return (p_own != 0) & (force > 0) & (b_other + p_other * force > 0)

    determinant = p11 * p22 - p12 * p21
    safe_determinant = jnp.where(determinant == 0, 1.0, determinant)
    force_1 = -(p22 * b1 - p12 * b2) / safe_determinant  # −(p⁺)⁻¹ b by Cramer's rule
    force_2 = -(p11 * b2 - p21 * b1) / safe_determinant
    return TwoContactModes(
        free_free=(b1 > 0) & (b2 > 0),
        slip_slip=(determinant != 0) & (force_1 > 0) & (force_2 > 0),
        slip_free=one_slipping(p11, p21, b1, b2),
        free_slip=one_slipping(p22, p12, b2, b1),
    )


def lcp_modes(painleve: ArrayLike, b: ArrayLike, tol: float = 1e-12) -> frozenset[str]:
    """Consistent modes of one configuration from every solution of the LCP ``w = p⁺λ + b`` (numpy).

    A contact with ``λ_i > 0`` slips (``S+``), one with ``λ_i = 0`` lifts off (``F``); a solution with a
    contact at ``λ_i = w_i = 0`` or a continuum of solutions is non-generic and refused.
    """
    check_values(painleve=painleve, b=b)
    painleve, b = np.asarray(painleve, dtype=float), np.asarray(b, dtype=float)
    solutions = all_solutions(painleve, b, tol=tol)
    if not solutions.isolated:
        raise ValueError("the LCP has a continuum of solutions: a non-generic configuration")
    scale = max(solutions.scale, np.abs(b).max())
    names = set()
    for force in solutions.solutions:
        acceleration = painleve @ force + b
        if np.any((np.abs(force) <= 1e-9 * scale) & (np.abs(acceleration) <= 1e-9 * np.abs(b).max())):
            raise ValueError("a solution with λ_i = v̇_i = 0: a non-generic configuration")
        names.add("".join("S+" if f > 1e-9 * scale else "F" for f in force))
    return frozenset(names)


class TwoContactImpacts(eqx.Module):
    """Which impacts without collision Sec. 6.3 allows: ``IF``, ``FI`` and the necessary condition for ``II``."""

    impact_free: Bool[Array, ...]
    free_impact: Bool[Array, ...]
    impact_impact: Bool[Array, ...]

    def stacked(self) -> Bool[Array, "3 ..."]:
        return jnp.stack([self.impact_free, self.free_impact, self.impact_impact])

    def names(self) -> frozenset[str]:
        return frozenset(name for name, flag in zip(IMPACT_NAMES, self.stacked()) if bool(flag))


def cone_meets_quadrant(painleve: Float[Array, "... 2 2"], quadrant: int) -> Bool[Array, ...]:
    """Whether the (open) cone spanned by the columns ``p₁, p₂`` meets the open quadrant ``quadrant`` (1–4,
    numbered as in ``s₁``): a column lies in it, or the cone contains the quadrant's bisector."""
    check_values(painleve=painleve)
    if quadrant not in (1, 2, 3, 4):
        raise ValueError(f"quadrant = {quadrant!r}: expected 1, 2, 3 or 4")
    painleve = jnp.asarray(painleve, dtype=float)
    signs = {1: (1.0, 1.0), 2: (-1.0, 1.0), 3: (-1.0, -1.0), 4: (1.0, -1.0)}[quadrant]
    direction = jnp.asarray(signs)
    rows = jnp.broadcast_to(direction[:, None], painleve.shape)  # each row of p times its quadrant sign
    column_inside = jnp.any(jnp.all(painleve * rows > 0, axis=-2), axis=-1)
    p11, p12, p21, p22 = painleve[..., 0, 0], painleve[..., 0, 1], painleve[..., 1, 0], painleve[..., 1, 1]
    determinant = p11 * p22 - p12 * p21
    safe = jnp.where(determinant == 0, 1.0, determinant)
    weight_1 = (p22 * direction[0] - p12 * direction[1]) / safe  # (p⁺)⁻¹ · bisector
    weight_2 = (p11 * direction[1] - p21 * direction[0]) / safe
    return column_inside | ((determinant != 0) & (weight_1 > 0) & (weight_2 > 0))


def impacts_without_collision(painleve: Float[Array, "... 2 2"]) -> TwoContactImpacts:
    """Sec. 6.3: ``IF`` iff ``p₁₁ < 0 < p₂₁``, ``FI`` iff ``p₂₂ < 0 < p₁₂``; ``II`` (necessary condition only)
    iff ``p⁺Λ < 0`` for some ``Λ ≥ 0`` (the cone of ``p₁, p₂`` meets the quadrant ``x, y < 0``)."""
    check_values(painleve=painleve)
    painleve = jnp.asarray(painleve, dtype=float)
    p11, p12, p21, p22 = painleve[..., 0, 0], painleve[..., 0, 1], painleve[..., 1, 0], painleve[..., 1, 1]
    return TwoContactImpacts(
        impact_free=(p11 < 0) & (p21 > 0),
        free_impact=(p22 < 0) & (p12 > 0),
        impact_impact=cone_meets_quadrant(painleve, 3),
    )
