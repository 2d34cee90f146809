"""Champneys & Várkonyi's contact-space form of two planar contacts, as a system (their Sec. 6).

Two contacts reduced to their own coordinates: ``x_i`` along contact ``i`` (slip velocity ``u_i = ẋ_i``) and
``y_i`` normal to it (the gap, ``v_i = ẏ_i``), ``i = 1, 2``, with the two-contact form of Eqs. 8–10

    u̇ = a + A λ_T + Bᵀ λ_N,        v̇ = b + B λ_T + C λ_N,

``a, b ∈ ℝ²`` the free accelerations and, for a body with contact normals ``d_i`` and tangents ``c_i`` in
generalised coordinates, ``A_ij = c_iᵀM⁻¹c_j``, ``B_ij = d_iᵀM⁻¹c_j`` (normal acceleration of contact ``i`` per
unit tangential force at ``j``; not symmetric), ``C_ij = d_iᵀM⁻¹d_j``. Its Delassus matrix in the order
``(x₁, x₂, y₁, y₂)`` is ``[[A, Bᵀ], [B, C]]``. Both contacts slipping forward (``λ_Ti = −μ_i λ_Ni``) gives Sec. 6.1's
``v̇ = b + p⁺λ_N`` with ``p⁺ = C − B diag(μ)`` (:func:`regcontact.stability.painleve_matrix`).

As a system, ``q = (x₁, y₁, x₂, y₂)`` (contact by contact, like the gaps), the inverse mass matrix is that Delassus
matrix with its rows and columns in this order, the applied force ``h = M (a₁, b₁, a₂, b₂)`` is constant, and
contact ``i`` has gap ``(g_n, g_t) = (y_i, x_i)`` with ``λ_i = (λ_Ni, λ_Ti)``: ``W`` is a constant permutation,
``Ẇv = 0``. The Delassus matrix must be symmetric positive definite (a mass matrix exists): ``C ≻ 0`` and the Schur
complement ``A − BᵀC⁻¹B ≻ 0``, the tangential inverse mass with both normals held. A rigid planar body has three
degrees of freedom, so *its* 4×4 Delassus matrix has rank 3 (the internal force pair along the line through the
two contact points moves nothing): this form is the contact-space generalisation that Sec. 6 reasons with, not a
rigid body (see :func:`contact_space_form`, which reduces any two-contact system and is exact for its
accelerations whatever the rank).

**Parametrisations.** Sec. 6 gives only ``p⁺`` (Fig. 15's caption lists its columns) and the normal dynamics of
two forward-slipping contacts depend on nothing else. To realise a ``p⁺`` with ``μ_i > 0``: choose ``C`` (SPD,
default ``I``), set ``B = (C − p⁺) diag(μ)⁻¹`` and ``A = BᵀC⁻¹B + S`` with the tangential Schur complement ``S``
(default ``I``), which makes the Delassus matrix SPD for any ``p⁺`` (:meth:`ReducedTwoContact.from_painleve`).
The same ``A`` is the default when ``B`` is given directly (``A=None``).

Signs are Champneys': ``u_i > 0`` is slip in ``+x_i`` (mode S+), so friction pushes ``λ_Ti < 0`` then; ``b_i < 0``
presses contact ``i``. ``a, b`` are held constant: for a real body they contain velocity terms (``Ẇv``) frozen at
the state they were computed at, so the form is the body's own only over times short against its rotation (the
fast scale of Sec. 6.2 at large α).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import equinox as eqx
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Bool, Float

from regcontact._argument_checks import (
    FINITE,
    NONNEGATIVE,
    ArgumentError,
    Rule,
    check_argument,
    check_arguments,
    is_traced,
)
from regcontact.systems.system import AbstractSystem, require_tangent_dim

__all__ = [
    "PAINLEVE_MU",
    "ContactSpaceForm",
    "ReducedTwoContact",
    "check_delassus_blocks",
    "contact_space_form",
    "coupling_from_painleve",
    "default_tangential",
    "delassus_blocks_valid",
]

#: ``q = (x₁, y₁, x₂, y₂)`` from Champneys' block order ``(x₁, x₂, y₁, y₂)``: entry ``i`` of ``q`` is entry
#: ``_BLOCK_INDEX[i]`` of the block order.
_BLOCK_INDEX = np.array([0, 2, 1, 3])

#: A pair (one number per contact) or a 2×2 matrix, as arrays or nested sequences.
Pair = ArrayLike | Sequence[float]
Matrix = ArrayLike | Sequence[Sequence[float]]


def _f64(x: Pair | Matrix) -> Float[Array, ...]:
    return jnp.asarray(x, dtype=float)


def default_tangential(B: Any, C: Any, complement: Matrix) -> Any:
    """``A = BᵀC⁻¹B + S``: the tangential block whose Schur complement is ``S`` (made exactly symmetric); numpy
    in, numpy out (the config and the checks), JAX in, JAX out."""
    xp = np if isinstance(B, np.ndarray) and isinstance(C, np.ndarray) else jnp
    schur_part = B.T @ xp.linalg.solve(C, B)
    return 0.5 * (schur_part + schur_part.T) + xp.asarray(complement, dtype=float)


#: The rule of ``μ`` when the form is given by its Painlevé matrix: ``B = (C − p⁺) diag(μ)⁻¹`` needs ``μ > 0``.
PAINLEVE_MU = Rule("μ > 0 at both contacts when p_plus is given (B = (C − p⁺)/μ)", lambda x: x > 0)


def coupling_from_painleve(painleve: Matrix, C: Matrix, mu: Pair) -> np.ndarray:
    """``B = (C − p⁺) diag(μ)⁻¹``: the coupling that realises the Painlevé matrix ``p⁺`` (module docstring)."""
    mu = np.broadcast_to(np.asarray(mu, dtype=float), (2,))
    return (np.asarray(C, dtype=float) - np.asarray(painleve, dtype=float)) / mu[None, :]


def _positive_definite(matrix: np.ndarray) -> bool:
    """Symmetric (exactly) and positive definite (Cholesky succeeds)."""
    if not np.array_equal(matrix, matrix.T):
        return False
    try:
        np.linalg.cholesky(matrix)
    except np.linalg.LinAlgError:
        return False
    return True


_SPD = "a symmetric positive definite 2×2 matrix"


def check_delassus_blocks(A: Matrix | None, B: Matrix, C: Matrix, tangential_complement: Matrix) -> None:
    """The rules of the blocks (each a finite 2×2 matrix by its own rule): ``C`` symmetric positive definite, the
    tangential complement too where it makes ``A`` (``A=None``), and the whole Delassus matrix ``[[A, Bᵀ], [B, C]]``
    symmetric positive definite, else there is no mass matrix. Raises
    :class:`~regcontact._argument_checks.ArgumentError` naming ``C``, ``tangential_complement``, ``A`` (if given)
    or ``B``; traced values pass."""
    if is_traced((A, B, C, tangential_complement)):
        return
    blocks = {"B": B, "C": C, "tangential_complement": tangential_complement} | ({} if A is None else {"A": A})
    for name, value in blocks.items():
        if np.shape(value) != (2, 2):
            raise ArgumentError(name, value, "a 2×2 matrix (a list of 2 rows of 2 numbers)")
    for name in ("C", "tangential_complement") if A is None else ("C",):
        if not _positive_definite(np.asarray(blocks[name], dtype=float)):
            raise ArgumentError(name, _listed(blocks[name]), _SPD)
    B_, C_ = np.asarray(B, dtype=float), np.asarray(C, dtype=float)
    A_ = np.asarray(default_tangential(B_, C_, tangential_complement) if A is None else A, dtype=float)
    if not _positive_definite(np.block([[A_, B_.T], [B_, C_]])):
        name = "B" if A is None else "A"
        raise ArgumentError(
            name,
            _listed(blocks[name]),
            "a symmetric positive definite Delassus matrix [[A, Bᵀ], [B, C]] (A symmetric, A − Bᵀ C⁻¹ B positive "
            "definite; else the mass matrix is singular or indefinite)",
        )


def _listed(value: Any) -> Any:
    """A matrix shown as nested lists (a config writes it so)."""
    return np.asarray(value, dtype=float).tolist() if not isinstance(value, list) else value


def delassus_blocks_valid(A: Matrix, B: Matrix, C: Matrix) -> Bool[Array, ""]:
    """Whether ``[[A, Bᵀ], [B, C]]`` is symmetric positive definite (``A``, ``C`` symmetric; Cholesky succeeds)."""
    A, B, C = _f64(A), _f64(B), _f64(C)
    delassus = jnp.block([[A, B.T], [B, C]])
    symmetric = jnp.allclose(A, A.T, rtol=0.0, atol=0.0) & jnp.allclose(C, C.T, rtol=0.0, atol=0.0)
    return symmetric & jnp.all(jnp.isfinite(jnp.linalg.cholesky(delassus)))


class ReducedTwoContact(AbstractSystem):
    """Two contacts in Champneys' contact-space form ``(a, b, A, B, C, μ)``, starting in contact at ``y = 0``."""

    NUM_CONTACTS: ClassVar[int] = 2
    ARGUMENT_RULES: ClassVar[dict[str, Rule]] = {
        "a": FINITE,
        "b": FINITE,
        "A": FINITE,
        "B": FINITE,
        "C": FINITE,
        "mu": NONNEGATIVE,
        "slip0": FINITE,
        "normal_velocity0": FINITE,
        "tangential_complement": FINITE,
    }

    a: Float[Array, "2"]
    b: Float[Array, "2"]
    A: Float[Array, "2 2"]
    B: Float[Array, "2 2"]
    C: Float[Array, "2 2"]
    mu: Float[Array, "2"]
    slip0: Float[Array, "2"]
    normal_velocity0: Float[Array, "2"]

    def __init__(
        self,
        a: Pair = (0.0, 0.0),
        b: Pair = (-1.0, -1.0),
        A: Matrix | None = None,
        B: Matrix = ((0.0, 0.0), (0.0, 0.0)),
        C: Matrix = ((1.0, 0.0), (0.0, 1.0)),
        mu: Pair = (0.5, 0.5),
        slip0: Pair = (1.0, 1.0),
        normal_velocity0: Pair = (0.0, 0.0),
        tangential_complement: Matrix = ((1.0, 0.0), (0.0, 1.0)),
    ):
        """``A=None``: ``A = BᵀC⁻¹B + tangential_complement`` (module docstring). Scalars ``μ``, ``slip0``,
        ``normal_velocity0`` apply to both contacts."""
        check_arguments(
            self.ARGUMENT_RULES,
            mu=mu,
            a=a,
            b=b,
            B=B,
            C=C,
            slip0=slip0,
            A=A,
            normal_velocity0=normal_velocity0,
            tangential_complement=tangential_complement,
        )
        for name, value, shapes in (
            ("a", a, ((2,),)),
            ("b", b, ((2,),)),
            ("mu", mu, ((), (2,))),
            ("slip0", slip0, ((), (2,))),
            ("normal_velocity0", normal_velocity0, ((), (2,))),
        ):
            if np.shape(value) not in shapes:
                raise ArgumentError(name, value, "a pair of finite numbers, one per contact")
        check_delassus_blocks(A, B, C, tangential_complement)
        two = lambda x: jnp.broadcast_to(_f64(x), (2,))  # noqa: E731
        self.B, self.C = _f64(B), _f64(C)
        self.A = default_tangential(self.B, self.C, tangential_complement) if A is None else _f64(A)
        self.a, self.b = _f64(a), _f64(b)
        self.mu, self.slip0, self.normal_velocity0 = two(mu), two(slip0), two(normal_velocity0)

    @classmethod
    def from_painleve(
        cls,
        painleve: Matrix,
        b: Pair,
        mu: Pair = (1.0, 1.0),
        C: Matrix = ((1.0, 0.0), (0.0, 1.0)),
        **kwargs,
    ) -> ReducedTwoContact:
        """The form with Painlevé matrix ``p⁺`` (rows: contacts) at friction ``μ > 0``: ``B = (C − p⁺) diag(μ)⁻¹``.

        Sec. 6 and Fig. 15 give ``p⁺`` and ``b`` only; ``C`` and the tangential complement (``kwargs``) choose
        one of the bodies that have them, which the forward-slipping normal dynamics do not see.
        """
        check_argument("mu", mu, PAINLEVE_MU)
        check_argument("painleve", painleve, FINITE)
        if is_traced((painleve, C, mu)):
            mu = jnp.broadcast_to(_f64(mu), (2,))
            return cls(b=b, B=(_f64(C) - _f64(painleve)) / mu[None, :], C=C, mu=mu, **kwargs)
        B = coupling_from_painleve(painleve, C, mu)
        return cls(b=b, B=B, C=C, mu=np.broadcast_to(np.asarray(mu, dtype=float), (2,)), **kwargs)

    # -- Champneys' quantities ------------------------------------------------------------------------------

    def delassus_blocks(self) -> Float[Array, "4 4"]:
        """``[[A, Bᵀ], [B, C]]`` in the block order ``(x₁, x₂, y₁, y₂)``."""
        return jnp.block([[self.A, self.B.T], [self.B, self.C]])

    def painleve_matrix(self) -> Float[Array, "2 2"]:
        """``p⁺ = C − B diag(μ)``: normal accelerations per unit normal force, both contacts slipping forward."""
        return self.C - self.B * self.mu[None, :]

    def inverse_mass_matrix(self) -> Float[Array, "4 4"]:
        """The Delassus matrix with rows and columns in the order of ``q = (x₁, y₁, x₂, y₂)``."""
        return self.delassus_blocks()[_BLOCK_INDEX][:, _BLOCK_INDEX]

    def free_acceleration(self) -> Float[Array, "4"]:
        """``(a₁, b₁, a₂, b₂)``: the accelerations of ``q`` without contact forces."""
        return jnp.stack([self.a, self.b], axis=-1).reshape(4)

    # -- AbstractSystem -------------------------------------------------------------------------------------

    def mass_matrix(self, q: Float[Array, "4"] | None = None) -> Float[Array, "4 4"]:
        return jnp.linalg.inv(self.inverse_mass_matrix())

    def mass_solve(self, q: Float[Array, "4"], force: Float[Array, "4"]) -> Float[Array, "4"]:
        return self.inverse_mass_matrix() @ force

    def forces(self, q: Float[Array, "4"], v: Float[Array, "4"], t: ArrayLike = 0.0) -> Float[Array, "4"]:
        """``h = M (a₁, b₁, a₂, b₂)``: the free accelerations are ``(a, b)``."""
        return jnp.linalg.solve(self.inverse_mass_matrix(), self.free_acceleration())

    def gaps(self, q: Float[Array, "4"]) -> Float[Array, "2 2"]:
        """``(g_n, g_t) = (y_i, x_i)`` for each contact."""
        return q.reshape(2, 2)[:, ::-1]

    def jacobians(self, q: Float[Array, "4"]) -> Float[Array, "2 2 4"]:
        return jnp.array(
            [
                [[0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]],
                [[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.0]],
            ]
        )

    def jacobian_rates(self, q: Float[Array, "4"], v: Float[Array, "4"]) -> Float[Array, "2 2"]:
        return jnp.zeros((2, 2))

    @property
    def friction_coefficients(self) -> Float[Array, "2"]:
        return self.mu

    def potential_energy(self, q: Float[Array, "4"]) -> Float[Array, ""]:
        """``−h · q``: the potential of the constant force."""
        return -self.forces(q, q) @ q

    def initial_state(self) -> tuple[Float[Array, "4"], Float[Array, "4"]]:
        """In contact (``x = y = 0``) with slips ``u₀`` and normal velocities ``v₀``."""
        return jnp.zeros(4), jnp.stack([self.slip0, self.normal_velocity0], axis=-1).reshape(4)

    @property
    def length_scale(self) -> Float[Array, ""]:
        """Contact-space coordinates start at zero; a unit scale bounds the gaps' round-off from above."""
        return jnp.asarray(1.0)


class ContactSpaceForm(eqx.Module):
    """``(a, b, A, B, C)`` of a ``k``-contact system at one state, without any requirement on the Delassus rank."""

    a: Float[Array, " k"]
    b: Float[Array, " k"]
    A: Float[Array, "k k"]
    B: Float[Array, "k k"]
    C: Float[Array, "k k"]


def contact_space_form(
    system: AbstractSystem, q: Float[Array, " n"], v: Float[Array, " n"], t: ArrayLike = 0.0
) -> ContactSpaceForm:
    """Champneys' ``(a, b, A, B, C)`` of any ``k``-contact system at ``(q, v, t)``, with ``x_i = g_t,i``,
    ``y_i = g_n,i`` (arrays of shape ``(k,)`` and ``(k, k)``; one contact is ``k = 1``).

    ``g̈ = W M⁻¹(h + Σ W_jᵀλ_j) + Ẇv``: the free part ``W M⁻¹h + Ẇv`` gives ``(b_i, a_i)`` (rows normal,
    tangential), and ``W M⁻¹Wᵀ`` gives ``C_ij`` (normal–normal), ``B_ij`` (normal ``i``, tangential ``j``) and
    ``A_ij`` (tangential–tangential). Exact at that state whatever the rank of the Delassus matrix.
    """
    require_tangent_dim(system, 1, "the planar contact-space form")
    k = type(system).NUM_CONTACTS
    jacobians = system.jacobians(q)  # (k, 2, n): contact, (normal, tangential), coordinate
    rows = jacobians.reshape(2 * k, -1)
    free = (rows @ system.mass_solve(q, system.forces(q, v, t))).reshape(k, 2) + system.jacobian_rates(q, v)
    inverse_mass_rows = jnp.stack([system.mass_solve(q, row) for row in rows])  # (2k, n)
    delassus = (rows @ inverse_mass_rows.T).reshape(k, 2, k, 2)  # [i, normal/tangential, j, normal/tangential]
    return ContactSpaceForm(
        a=free[:, 1],
        b=free[:, 0],
        A=delassus[:, 1, :, 1],
        B=delassus[:, 0, :, 1],
        C=delassus[:, 0, :, 0],
    )
