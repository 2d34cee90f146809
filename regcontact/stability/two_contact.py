"""Two non-sticking contacts (Champneys & Várkonyi 2016, Sec. 6): class codes, consistent modes, impacts without
collision, and the normal stability of ``S+S+`` in the fast-scale dynamics; Table 4 recomputed.

**Setting (Sec. 6.1).** Two contacts in sustained contact (``y_i = v_i = 0``), both slipping forward
(``u_i > 0``). Each slipping contact carries ``λ_Ti = −μ_i λ_Ni``, so Eq. 14 becomes a vector equation

    v̇ = b + p⁺ λ_N,        p⁺_ij = C_ij − μ_j B_ij,

with ``b ∈ ℝ²`` the free normal accelerations (Eq. 9 per contact), ``C_ij = d_iᵀM⁻¹d_j``, ``B_ij = d_iᵀM⁻¹c_j``
(the two-contact form of Eqs. 10 and 13); ``p⁺_ij`` is the normal acceleration of contact ``i`` per unit normal
slipping force at contact ``j`` (the text after Eq. 14 in Sec. 6.1). The admissible modes are ``FF``, ``S+S+``,
``S+F`` and ``FS+`` (contact 1's mode first), tested as in Table 1: a slipping contact needs ``λ_Ni > 0`` and
``v̇_i = 0``, a free one ``λ_Ni = 0`` and ``v̇_i > 0``. These are exactly the solutions of the 2×2 LCP
``w = p⁺λ + b ≥ 0, λ ≥ 0, λᵀw = 0`` (support of ``λ`` = the slipping contacts), which :func:`lcp_modes`
enumerates and :func:`two_contact_modes` evaluates in closed form (strict inequalities: boundaries are
non-generic, as in :mod:`regcontact.stability.modes`).

**Class code ``s₁s₂s₃`` (Sec. 6.1, the paragraph after the text's display ``s₁s₂s₃, s₁ ∈ {1,…,4}``).** With
``p⁺ = [p₁ p₂]`` (columns), ``γ_j`` the angle of ``p_j``, ``γ̂_j`` the angle of ``−p_j`` and ``β`` the angle of
``−b``, all measured from ``[1 0]ᵀ`` in ``[0, 2π)``:

* ``s₁``: the quadrant of ``p₁`` (which of ``[0, π/2], [π/2, π], [π, 3π/2], [3π/2, 2π]`` holds ``γ₁``);
* ``s₂``: which of the six intervals bounded by ``0, γ̂₁, γ₁, π/2, π, 3π/2, 2π`` (sorted) holds ``γ₂``;
* ``s₃``: which of the six intervals bounded by ``0, γ₁, γ₂, π/2, π, 3π/2, 2π`` (sorted) holds ``β``.

Each mode is the statement that ``−b`` lies in a cone: ``FF`` in ``cone(−e₁, −e₂)``, ``S+S+`` in
``cone(p₁, p₂)``, ``S+F`` in ``cone(p₁, −e₂)``, ``FS+`` in ``cone(p₂, −e₁)``; every edge is a boundary of the
``s₃`` intervals, which is why ``s₁s₂s₃`` decides consistency.

**Impacts without collision (Sec. 6.3).** ``IF`` needs ``p₁₁ < 0 < p₂₁`` and ``FI`` needs ``p₂₂ < 0 < p₁₂``;
the necessary condition for ``II`` is a positive impulse pair that accelerates *both* contact points towards the
ground: ``p⁺Λ < 0`` for some ``Λ ≥ 0``, i.e. ``cone(p₁, p₂)`` meets the open quadrant ``{x < 0, y < 0}``. That
is the *third* quadrant in the numbering of ``s₁``; the extracted text says "fourth", which contradicts the
physical statement in the same sentence and the printed ``II`` column (classes 16 and 26; see
:func:`cone_meets_quadrant` and ``docs/stability.md``).

**Fast scale (Sec. 6.2, with Eqs. 30–31 per contact).** ``z = (ỹ₁, ỹ₂, ṽ₁, ṽ₂)``, ``dỹ/dt̃ = ṽ``,
``dṽ/dt̃ = b + p⁺ λ(ỹ, ṽ)`` with ``λ_i = max(k_i ỹ_i + q_i ṽ_i, 0)`` (and 0 for ``ỹ_i, ṽ_i ≥ 0``). At the
``S+S+`` equilibrium ``λ⁰ = −(p⁺)⁻¹b > 0``, ``ỹ⁰ = λ⁰/k`` the Jacobian is ``[[0, I], [p⁺K, p⁺Q]]``
(``K = diag k``, ``Q = diag q``), independent of ``b`` as the paper notes. The paper gives no closed form for its
eigenvalues (it refers to [84]); we derive two. Its characteristic polynomial is
``det(s²I − s p⁺Q − p⁺K) = s⁴ + c₃s³ + c₂s² + c₁s + c₀`` with

    c₃ = −tr(p⁺Q),  c₂ = det(p⁺Q) − tr(p⁺K),  c₁ = tr(p⁺Q) tr(p⁺K) − tr(p⁺Q p⁺K),  c₀ = det(p⁺K),

stable iff Routh–Hurwitz holds (:func:`hurwitz_stable`); and for equal contact laws (``K = kI, Q = qI``, the
paper's ``k = q = −1``) it factorises into the single-contact polynomials ``s² − qπ s − kπ`` of Sec. 4.3, one per
eigenvalue ``π`` of ``p⁺`` (:func:`equal_law_eigenvalues`). So ``det p⁺ < 0`` (``c₀ < 0``) or negative
diagonal entries (``c₃ < 0``) make ``S+S+`` unstable for every contact law; complex ``π`` (mode coupling) makes
the answer depend on the law. ``S+F`` and ``FS+`` have the single-contact Jacobian of Sec. 4.3 with gain ``p₁₁``
resp. ``p₂₂`` (Sec. 6.2).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import diffrax
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Bool, Complex, Float, Int

from regcontact._argument_checks import check_argument
from regcontact.rigid.lcp import all_solutions
from regcontact.stability._checks import COUNT as _COUNT, check_values
from regcontact.stability.fast_scale import normal_force

__all__ = [
    "TWO_CONTACT_MODE_NAMES",
    "IMPACT_NAMES",
    "TwoContactSystem",
    "TwoContactModes",
    "TwoContactImpacts",
    "TwoContactEquilibrium",
    "painleve_matrix",
    "class_code",
    "class_label",
    "swap_contacts",
    "two_contact_modes",
    "lcp_modes",
    "cone_meets_quadrant",
    "impacts_without_collision",
    "two_contact_vector_field",
    "slip_slip_equilibrium",
    "slip_slip_jacobian",
    "characteristic_polynomial",
    "slip_slip_eigenvalues",
    "equal_law_eigenvalues",
    "hurwitz_stable",
    "two_contact_autodiff_eigenvalues",
    "two_contact_trajectories",
    "sample_configurations",
    "SubclassResult",
    "ClassResult",
    "recompute_table4",
    "PrintedRow",
    "PRINTED_TABLE4",
    "RowComparison",
    "compare_with_printed",
    "mode_readings",
    "impact_readings",
]

TWO_CONTACT_MODE_NAMES: tuple[str, ...] = ("FF", "S+S+", "S+F", "FS+")
IMPACT_NAMES: tuple[str, ...] = ("IF", "FI", "II")

_TWO_PI = 2.0 * np.pi
_AXES = np.array([0.5 * np.pi, np.pi, 1.5 * np.pi])  # interior interval bounds shared by s₁, s₂, s₃


# ---------------------------------------------------------------------------------------------------------------
# Classification
# ---------------------------------------------------------------------------------------------------------------


def painleve_matrix(
    normal_normal: Float[Array, "... 2 2"], normal_tangential: Float[Array, "... 2 2"], mu: Float[Array, "... 2"]
) -> Float[Array, "... 2 2"]:
    """``p⁺_ij = C_ij − μ_j B_ij`` (Sec. 6.1, Eq. 13 for two contacts) from ``C_ij = d_iᵀM⁻¹d_j``,
    ``B_ij = d_iᵀM⁻¹c_j`` and the friction coefficients, both contacts slipping forward."""
    check_values(normal_normal=normal_normal, normal_tangential=normal_tangential, mu=mu)
    normal_normal, normal_tangential, mu = (jnp.asarray(x, dtype=float) for x in (normal_normal, normal_tangential, mu))
    return normal_normal - normal_tangential * mu[..., None, :]


def _angle(vector: Float[Array, "... 2"]) -> Float[Array, ...]:
    """Angle from ``[1 0]ᵀ`` in ``[0, 2π)``."""
    return jnp.mod(jnp.arctan2(vector[..., 1], vector[..., 0]), _TWO_PI)


def _interval_index(angle: Float[Array, ...], bounds: Float[Array, "... m"]) -> Int[Array, ...]:
    """1-based index of the interval of ``[0, 2π]`` cut at the interior points ``bounds`` that holds ``angle``."""
    return 1 + jnp.sum(bounds < angle[..., None], axis=-1)


def class_code(painleve: Float[Array, "... 2 2"], b: Float[Array, "... 2"]) -> Int[Array, "... 3"]:
    """The digits ``(s₁, s₂, s₃)`` of Sec. 6.1 (module docstring), elementwise over leading axes."""
    check_values(painleve=painleve, b=b)
    painleve, b = jnp.asarray(painleve, dtype=float), jnp.asarray(b, dtype=float)
    gamma_1, gamma_2 = _angle(painleve[..., :, 0]), _angle(painleve[..., :, 1])
    gamma_hat_1 = jnp.mod(gamma_1 + np.pi, _TWO_PI)
    beta = _angle(-b)
    axes = jnp.broadcast_to(_AXES, gamma_1.shape + (3,))
    s1 = _interval_index(gamma_1, axes)
    s2 = _interval_index(gamma_2, jnp.concatenate([axes, gamma_hat_1[..., None], gamma_1[..., None]], axis=-1))
    s3 = _interval_index(beta, jnp.concatenate([axes, gamma_1[..., None], gamma_2[..., None]], axis=-1))
    return jnp.stack([s1, s2, s3], axis=-1)


def class_label(code: ArrayLike) -> str:
    """``"261"`` for the digits ``(2, 6, 1)`` of one configuration (``"26"`` for two digits)."""
    return "".join(str(int(digit)) for digit in np.asarray(code))


def swap_contacts(painleve: Float[Array, "... 2 2"], b: Float[Array, "... 2"]):
    """The dual configuration of Sec. 6.1: contacts 1 and 2 relabelled (``p⁺ → S p⁺ S``, ``b → S b``)."""
    painleve, b = jnp.asarray(painleve, dtype=float), jnp.asarray(b, dtype=float)
    return painleve[..., ::-1, ::-1], b[..., ::-1]


# ---------------------------------------------------------------------------------------------------------------
# Consistent modes
# ---------------------------------------------------------------------------------------------------------------


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
    """Table 1 applied to both contacts (Sec. 6.1), in closed form; elementwise over leading axes.

    ``S+F``: ``λ₁ = −b₁/p₁₁ > 0`` and ``v̇₂ = b₂ + p₂₁λ₁ > 0``; ``FS+`` likewise; ``S+S+``: ``−(p⁺)⁻¹b > 0``;
    ``FF``: ``b > 0``.
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


# ---------------------------------------------------------------------------------------------------------------
# Fast-scale dynamics and the stability of S+S+
# ---------------------------------------------------------------------------------------------------------------


class TwoContactSystem(eqx.Module):
    """Free normal accelerations ``b``, Painlevé matrix ``p⁺`` and each contact's law ``(k_i, q_i)`` (Eq. 31)."""

    b: Float[Array, "2"]
    painleve: Float[Array, "2 2"]
    k: Float[Array, "2"]
    q: Float[Array, "2"]

    def __init__(self, b: ArrayLike, painleve: ArrayLike, k: ArrayLike = -1.0, q: ArrayLike = -1.0):
        check_values(b=b, painleve=painleve, k=k, q=q)
        self.b = jnp.asarray(b, dtype=float)
        self.painleve = jnp.asarray(painleve, dtype=float)
        self.k = jnp.broadcast_to(jnp.asarray(k, dtype=float), self.b.shape)
        self.q = jnp.broadcast_to(jnp.asarray(q, dtype=float), self.b.shape)


class TwoContactEquilibrium(eqx.Module):
    """The ``S+S+`` equilibrium ``(ỹ⁰, 0)``: normal forces, whether both are positive, eigenvalues (closed-form
    characteristic polynomial) and whether Routh–Hurwitz says stable."""

    penetration: Float[Array, "2"]
    normal_force: Float[Array, "2"]
    exists: Bool[Array, ""]
    eigenvalues: Complex[Array, "4"]
    stable: Bool[Array, ""]


def two_contact_vector_field(t: ArrayLike, z: Float[Array, "4"], system: TwoContactSystem) -> Float[Array, "4"]:
    """Fast normal dynamics of two forward-slipping contacts, ``z = (ỹ₁, ỹ₂, ṽ₁, ṽ₂)``; a contact whose force
    vanishes is in free flight (Eqs. 30–31 per contact)."""
    del t
    y, v = z[:2], z[2:]
    force = normal_force(y, v, system.k, system.q)
    return jnp.concatenate([v, system.b + system.painleve @ force])


def slip_slip_jacobian(painleve: Float[Array, "2 2"], k: ArrayLike, q: ArrayLike) -> Float[Array, "4 4"]:
    """``[[0, I], [p⁺K, p⁺Q]]``, the Jacobian of :func:`two_contact_vector_field` where both forces are positive."""
    check_values(painleve=painleve, k=k, q=q)
    painleve = jnp.asarray(painleve, dtype=float)
    k, q = (jnp.broadcast_to(jnp.asarray(x, dtype=float), (2,)) for x in (k, q))
    top = jnp.concatenate([jnp.zeros((2, 2)), jnp.eye(2)], axis=1)
    bottom = jnp.concatenate([painleve * k[None, :], painleve * q[None, :]], axis=1)
    return jnp.concatenate([top, bottom], axis=0)


def characteristic_polynomial(painleve: Float[Array, "... 2 2"], k: ArrayLike, q: ArrayLike) -> Float[Array, "... 5"]:
    """``(1, c₃, c₂, c₁, c₀)`` of ``det(sI − J) = det(s²I − s p⁺Q − p⁺K)`` (module docstring)."""
    check_values(painleve=painleve, k=k, q=q)
    painleve = jnp.asarray(painleve, dtype=float)
    k, q = (jnp.asarray(x, dtype=float) for x in (k, q))
    k, q = (jnp.full(2, x) if x.ndim == 0 else x for x in (k, q))  # a scalar: the same law at both contacts
    damping = painleve * q[..., None, :]  # p⁺Q
    stiffness = painleve * k[..., None, :]  # p⁺K
    trace = lambda m: m[..., 0, 0] + m[..., 1, 1]  # noqa: E731
    det = lambda m: m[..., 0, 0] * m[..., 1, 1] - m[..., 0, 1] * m[..., 1, 0]  # noqa: E731
    c3 = -trace(damping)
    c2 = det(damping) - trace(stiffness)
    c1 = trace(damping) * trace(stiffness) - trace(damping @ stiffness)
    c0 = det(stiffness)
    return jnp.stack([jnp.ones_like(c0), c3, c2, c1, c0], axis=-1)


def slip_slip_eigenvalues(painleve: Float[Array, "2 2"], k: ArrayLike, q: ArrayLike) -> Complex[Array, "4"]:
    """Roots of :func:`characteristic_polynomial` (companion-matrix eigenvalues), ascending real part."""
    roots = jnp.roots(characteristic_polynomial(painleve, k, q), strip_zeros=False)
    return roots[jnp.lexsort((roots.imag, roots.real))]


def equal_law_eigenvalues(painleve: Float[Array, "2 2"], k: ArrayLike, q: ArrayLike) -> Complex[Array, "4"]:
    """Closed form for equal contact laws ``K = kI, Q = qI``: the roots of ``s² − qπs − kπ`` for both eigenvalues
    ``π`` of ``p⁺`` (Sec. 4.3's slip polynomial with the gain ``p⁺`` replaced by ``π``), ascending real part."""
    check_values(painleve=painleve, k=k, q=q)
    painleve = jnp.asarray(painleve, dtype=float).astype(complex)
    k, q = jnp.asarray(k, dtype=float), jnp.asarray(q, dtype=float)
    trace = painleve[0, 0] + painleve[1, 1]
    determinant = painleve[0, 0] * painleve[1, 1] - painleve[0, 1] * painleve[1, 0]
    root = jnp.sqrt(trace**2 - 4.0 * determinant)
    gains = jnp.stack([(trace - root) / 2.0, (trace + root) / 2.0])
    inner = jnp.sqrt((q * gains) ** 2 + 4.0 * k * gains)
    values = jnp.concatenate([(q * gains - inner) / 2.0, (q * gains + inner) / 2.0])
    return values[jnp.lexsort((values.imag, values.real))]


def hurwitz_stable(coefficients: Float[Array, "... 5"]) -> Bool[Array, ...]:
    """Routh–Hurwitz for a monic quartic ``(1, c₃, c₂, c₁, c₀)``: every root has negative real part iff
    ``c₃, c₁, c₀ > 0``, ``c₃c₂ − c₁ > 0`` and ``c₁(c₃c₂ − c₁) − c₃²c₀ > 0``."""
    check_values(coefficients=coefficients)
    c3, c2, c1, c0 = (coefficients[..., i] for i in range(1, 5))
    return (c3 > 0) & (c1 > 0) & (c0 > 0) & (c3 * c2 - c1 > 0) & (c1 * (c3 * c2 - c1) - c3**2 * c0 > 0)


def slip_slip_equilibrium(system: TwoContactSystem) -> TwoContactEquilibrium:
    """``λ⁰ = −(p⁺)⁻¹b`` (Eq. 14 for two contacts), ``ỹ⁰ = λ⁰/k``; stability from the closed-form polynomial."""
    force = -jnp.linalg.solve(system.painleve, system.b)
    coefficients = characteristic_polynomial(system.painleve, system.k, system.q)
    return TwoContactEquilibrium(
        penetration=force / system.k,
        normal_force=force,
        exists=jnp.all(force > 0),
        eigenvalues=slip_slip_eigenvalues(system.painleve, system.k, system.q),
        stable=hurwitz_stable(coefficients),
    )


def two_contact_autodiff_eigenvalues(system: TwoContactSystem, z0: Float[Array, "4"]) -> Complex[Array, "4"]:
    """Eigenvalues of ``jax.jacfwd`` of :func:`two_contact_vector_field` at ``z0``, ascending real part."""
    check_values(z0=z0)
    jacobian = jax.jacfwd(lambda z: two_contact_vector_field(0.0, z, system))(jnp.asarray(z0, dtype=float))
    values = jnp.linalg.eigvals(jacobian)
    return values[jnp.lexsort((values.imag, values.real))]


@eqx.filter_jit
def two_contact_trajectories(
    systems: TwoContactSystem,
    initial_states: Float[Array, "n 4"],
    save_windows: Float[Array, "n 2"],
    escape_radius: Float[Array, ""],
    saves: int = 400,
) -> tuple[Float[Array, "n saves+1"], Float[Array, "n saves+1 4"]]:
    """Trajectories of :func:`two_contact_vector_field` for a batch of systems, in one ``vmap`` of a diffrax solve.

    Lane ``i`` runs from ``t̃ = 0`` to ``save_windows[i, 1]`` and saves ``saves`` evenly spaced states in
    ``save_windows[i]``, then the final state; it stops once a penetration leaves ``|ỹ_j| ≤ escape_radius`` (an
    IWC or a lift-off has begun). Returns ``(times, states)``; after the final state rows are ``inf``, so the
    last finite row is where the lane ended.
    """
    fractions = jnp.linspace(0.0, 1.0, saves)

    def one(system, z0, window):
        escaped = diffrax.Event(lambda t, z, args, **kwargs: jnp.max(jnp.abs(z[:2])) > escape_radius)
        solution = diffrax.diffeqsolve(
            diffrax.ODETerm(two_contact_vector_field),
            diffrax.Tsit5(),
            t0=0.0,
            t1=window[1],
            dt0=1e-2,
            y0=z0,
            args=system,
            saveat=diffrax.SaveAt(ts=window[0] + fractions * (window[1] - window[0]), t1=True),
            stepsize_controller=diffrax.PIDController(rtol=1e-9, atol=1e-11),
            event=escaped,
            max_steps=200_000,
        )
        return solution.ts, solution.ys

    return jax.vmap(one)(systems, initial_states, save_windows)


# ---------------------------------------------------------------------------------------------------------------
# Table 4 recomputed
# ---------------------------------------------------------------------------------------------------------------


def sample_configurations(key: jax.Array, n: int) -> tuple[Float[Array, "n 2 2"], Float[Array, "n 2"]]:
    """``n`` random ``(p⁺, b)``: the angles of ``p₁, p₂, −b`` uniform on the circle, ``|p_j|`` log-normal
    (only directions enter the classification; magnitudes matter for the stability of ``S+S+``), ``|b| = 1``."""
    check_argument("n", n, _COUNT)
    angle_key, size_key = jax.random.split(key)
    angles = jax.random.uniform(angle_key, (n, 3), maxval=_TWO_PI)
    sizes = jnp.exp(jax.random.normal(size_key, (n, 2)))
    columns = sizes[:, None, :] * jnp.stack([jnp.cos(angles[:, :2]), jnp.sin(angles[:, :2])], axis=1)
    b = -jnp.stack([jnp.cos(angles[:, 2]), jnp.sin(angles[:, 2])], axis=1)
    return columns, b


@dataclass(frozen=True)
class SubclassResult:
    """One subclass ``s₁s₂s₃``: the modes its samples have (LCP enumeration, identical for all of them when
    ``uniform``) and one sample."""

    name: str
    samples: int
    modes: frozenset[str]
    uniform: bool
    example_painleve: np.ndarray
    example_b: np.ndarray


@dataclass(frozen=True)
class ClassResult:
    """One row of Table 4 (a class ``s₁s₂``), recomputed."""

    name: str
    dual: str
    subclasses: tuple[SubclassResult, ...]  # s₃ = 1 … 6
    impacts: frozenset[str]  # IF, FI, II (II: the necessary condition)
    impacts_uniform: bool
    slip_slip_stability: str  # "stable", "unstable" or "depends" (over the class's p⁺ and the contact laws)
    slip_slip_stable_fraction: float
    slip_slip_stable_paper_law: str  # the same with k = q = −1 only
    law_dependent: bool  # some sampled p⁺ is stable under one contact law and unstable under another
    slip_free_stable: bool  # p₁₁ > 0 (Sec. 6.2)
    free_slip_stable: bool  # p₂₂ > 0

    def mode_column(self, mode: str) -> tuple[int, ...]:
        """The ``s₃`` digits where ``mode`` is consistent, as printed in Table 4's mode columns."""
        return tuple(s3 + 1 for s3, sub in enumerate(self.subclasses) if mode in sub.modes)

    def mode_digits(self) -> str:
        """The four mode columns written one after the other, as the text extraction prints them."""
        return " ".join(str(d) for mode in TWO_CONTACT_MODE_NAMES for d in self.mode_column(mode))

    def impact_marks(self) -> str:
        """``x`` for IF and FI, ``(x)`` for II (only the necessary condition), in column order."""
        marks = {"IF": "x", "FI": "x", "II": "(x)"}
        return " ".join(marks[name] for name in IMPACT_NAMES if name in self.impacts)


def _stability_summary(stable: np.ndarray) -> str:
    return "stable" if stable.all() else "unstable" if not stable.any() else "depends"


@eqx.filter_jit
def _classified_samples(key: jax.Array, samples: int, laws: int):
    """Sampled ``(p⁺, b)`` with class codes, closed-form modes, IWC flags, the duals' codes and the ``S+S+``
    stability under ``k = q = −1`` (law 0) and ``laws`` random laws, in one compiled call."""
    key_configurations, key_laws = jax.random.split(key)
    painleve, b = sample_configurations(key_configurations, samples)
    log_magnitudes = jax.random.uniform(key_laws, (laws, 2, 2), minval=np.log(0.1), maxval=np.log(10.0))
    law_values = jnp.concatenate([-jnp.ones((1, 2, 2)), -jnp.exp(log_magnitudes)])  # (law, k or q, contact)
    coefficients = characteristic_polynomial(painleve[:, None], law_values[None, :, 0], law_values[None, :, 1])
    return (
        painleve,
        b,
        class_code(painleve, b),
        two_contact_modes(painleve, b).stacked(),
        impacts_without_collision(painleve).stacked(),
        class_code(*swap_contacts(painleve, b)),
        hurwitz_stable(coefficients),
    )


def recompute_table4(
    seed: int = 0, samples: int = 1 << 16, per_subclass: int = 4, stability_samples: int = 64, laws: int = 16
) -> tuple[ClassResult, ...]:
    """All 24 classes ``s₁s₂`` (the printed rows and their duals), recomputed from sampled configurations.

    Modes: the first ``per_subclass`` samples of every subclass, each by LCP enumeration (:func:`lcp_modes`) and
    checked against :func:`two_contact_modes`. Impacts: every sample of the class. ``S+S+`` stability: the first
    ``stability_samples`` ``p⁺`` of the class, each under ``k = q = −1`` and ``laws`` random laws
    (``−k_i, −q_i`` log-uniform in ``[0.1, 10]``), by Routh–Hurwitz on the closed-form polynomial.
    """
    for name, value in (("samples", samples), ("per_subclass", per_subclass), ("stability_samples", stability_samples)):
        check_argument(name, value, _COUNT)
    check_argument("laws", laws, _COUNT)
    painleve, b, codes, closed_form, impacts, dual_codes, stable_all = (
        np.asarray(x) for x in _classified_samples(jax.random.PRNGKey(seed), samples, laws)
    )
    class_names = codes[:, 0] * 10 + codes[:, 1]
    results = []
    for s1, s2 in itertools.product(range(1, 5), range(1, 7)):
        in_class = np.flatnonzero(class_names == 10 * s1 + s2)
        if in_class.size == 0:
            raise RuntimeError(f"no sample in class {s1}{s2}: raise `samples`")
        subclasses = []
        for s3 in range(1, 7):
            members = in_class[codes[in_class, 2] == s3][:per_subclass]
            if members.size == 0:
                raise RuntimeError(f"no sample in subclass {s1}{s2}{s3}: raise `samples`")
            mode_sets = []
            for index in members:
                modes = lcp_modes(painleve[index], b[index])
                flags = {name for name, flag in zip(TWO_CONTACT_MODE_NAMES, closed_form[:, index]) if flag}
                if modes != flags:
                    raise AssertionError(f"sample {index}: LCP modes {set(modes)}, closed form {flags}")
                mode_sets.append(modes)
            subclasses.append(
                SubclassResult(
                    f"{s1}{s2}{s3}",
                    int(members.size),
                    mode_sets[0],
                    all(m == mode_sets[0] for m in mode_sets),
                    painleve[members[0]],
                    b[members[0]],
                )
            )
        class_impacts = impacts[:, in_class]
        duals = {f"{d[0]}{d[1]}" for d in dual_codes[in_class]}
        if len(duals) != 1:
            raise AssertionError(f"class {s1}{s2}: samples have duals {duals}")
        stable = stable_all[in_class[:stability_samples]]  # (samples, laws)
        results.append(
            ClassResult(
                name=f"{s1}{s2}",
                dual=duals.pop(),
                subclasses=tuple(subclasses),
                impacts=frozenset(name for name, column in zip(IMPACT_NAMES, class_impacts) if column[0]),
                impacts_uniform=bool(np.all(class_impacts == class_impacts[:, :1])),
                slip_slip_stability=_stability_summary(stable),
                slip_slip_stable_fraction=float(stable.mean()),
                slip_slip_stable_paper_law=_stability_summary(stable[:, 0]),
                law_dependent=bool(np.any(stable.any(axis=1) & ~stable.all(axis=1))),
                slip_free_stable=bool(painleve[in_class[0], 0, 0] > 0),
                free_slip_stable=bool(painleve[in_class[0], 1, 1] > 0),
            )
        )
        signs = np.sign(painleve[in_class][:, [0, 1], [0, 1]])
        if not np.all(signs == signs[:1]):
            raise AssertionError(f"class {s1}{s2}: the signs of p₁₁, p₂₂ vary within the class")
    return tuple(results)


@dataclass(frozen=True)
class PrintedRow:
    """One row of Table 4 as the text extraction has it: the class, its dual, the digits of the four mode columns
    run together (the column borders and the shading are lost), and the IWC marks run together."""

    name: str
    dual: str
    mode_digits: str
    impact_marks: str


PRINTED_TABLE4: tuple[PrintedRow, ...] = (
    PrintedRow("11", "11", "5 2 1 2 6 2 3 4", ""),
    PrintedRow("12", "12", "5 2 1 6 3 4", ""),
    PrintedRow("13", "41", "5 2 3 1 6 4", ""),
    PrintedRow("14", "31", "4 5 2 3 4 1 6 4", "(x)"),
    PrintedRow("15", "32", "4 5 1 5 6 1 6 4", "(x)"),
    PrintedRow("16", "21", "4 1 6 1 5 6 4 5", "x"),
    PrintedRow("22", "45", "5 3 4 5 3 4", "x"),
    PrintedRow("23", "46", "5 3 3 4 5 4", "x"),
    PrintedRow("24", "36", "4 5 3 4 3 4 5 4", "x (x)"),
    PrintedRow("25", "25", "4 3 4 5 3 4 4 5", "x x (x)"),
    PrintedRow("26", "26", "4 1 2 6 3 4 4 5", "x x"),
    PrintedRow("33", "44", "4 5 3 4 5 3", "(x)"),
    PrintedRow("34", "34", "3 4 5 4 5 3", "(x)"),
    PrintedRow("35", "35", "3 4 5 4 4 5 3 4", "(x)"),
    PrintedRow("42", "42", "4 1 2 6 5 3", ""),
    PrintedRow("43", "43", "4 3 4 5 5 3", "(x)"),
)


def mode_readings(digits: str) -> list[tuple[tuple[int, ...], ...]]:
    """Every way to cut a printed digit run into the four mode columns, each strictly ascending (possibly empty).

    One reading: every mode cell of the row is determined by the text; several: only the run as a whole is.
    """
    values = [int(d) for d in digits.split()]
    readings = []
    for cuts in itertools.combinations_with_replacement(range(len(values) + 1), 3):
        bounds = (0, *cuts, len(values))
        groups = tuple(tuple(values[bounds[i] : bounds[i + 1]]) for i in range(4))
        if all(all(x < y for x, y in zip(g, g[1:])) for g in groups):
            readings.append(groups)
    return readings


def impact_readings(marks: str) -> list[frozenset[str]]:
    """Every assignment of a printed mark run to the columns ``IF, FI, II`` in order: ``x`` in ``IF`` or ``FI``,
    ``(x)`` in ``II`` (the text marks ``II`` only by ``(x)``)."""
    tokens = marks.split()
    allowed = {"x": ("IF", "FI"), "(x)": ("II",)}
    readings = []
    for columns in itertools.combinations(IMPACT_NAMES, len(tokens)):
        if all(column in allowed[token] for token, column in zip(tokens, columns)):
            readings.append(frozenset(columns))
    return readings


@dataclass(frozen=True)
class RowComparison:
    """A printed row against the recomputed class: what agrees and how many readings the text admits."""

    name: str
    dual_agrees: bool
    modes_agree: bool  # the recomputed columns are one reading of the printed digits
    mode_readings: int
    impacts_agree: bool
    impact_readings: int
    computed_digits: str
    computed_marks: str


def compare_with_printed(classes: tuple[ClassResult, ...]) -> tuple[RowComparison, ...]:
    """Each row of :data:`PRINTED_TABLE4` against the recomputed class of the same name."""
    by_name = {c.name: c for c in classes}
    comparisons = []
    for row in PRINTED_TABLE4:
        computed = by_name[row.name]
        columns = tuple(computed.mode_column(mode) for mode in TWO_CONTACT_MODE_NAMES)
        modes = mode_readings(row.mode_digits)
        impacts = impact_readings(row.impact_marks)
        comparisons.append(
            RowComparison(
                name=row.name,
                dual_agrees=computed.dual == row.dual,
                modes_agree=columns in modes,
                mode_readings=len(modes),
                impacts_agree=computed.impacts in impacts,
                impact_readings=len(impacts),
                computed_digits=computed.mode_digits(),
                computed_marks=computed.impact_marks(),
            )
        )
    return tuple(comparisons)
