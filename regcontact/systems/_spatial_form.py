"""The contact-space form of one spatial contact (Champneys & Várkonyi Sec. 7): a system with ``TANGENT_DIM = 2``,
whose contact ``i`` has the gap ``g_n,i`` and two tangential coordinates ``(g_t1,i, g_t2,i)`` along two fixed
orthonormal directions of the contact plane (:class:`~regcontact.systems.system.AbstractSystem`).

:func:`spatial_contact_space_form` reduces one contact at a state to Champneys' Eqs. 35–36,

    u̇ = a + A λ_T + λ_N B,        v̇ = b + Bᵀ λ_T + λ_N C,

with the tangential slip ``u ∈ ℝ²`` and the normal velocity ``v``: ``(b, a)`` is the free contact acceleration
``W M⁻¹ h + Ẇ v`` and ``[[C, Bᵀ], [B, A]]`` the Delassus matrix ``W M⁻¹ Wᵀ``. :meth:`SpatialContactSpaceForm.
painleve` is the Painlevé parameter of slip in the direction ``ϕ``, ``p(ϕ) = C − μ Bᵀ(cos ϕ, sin ϕ)`` (Eq. 39).
"""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float

from regcontact.systems.system import AbstractSystem, require_tangent_dim

__all__ = ["SpatialContactSpaceForm", "spatial_contact_space_form"]


class SpatialContactSpaceForm(eqx.Module):
    """One spatial contact at one state in Champneys' contact space (Eqs. 35–36): the free tangential and normal
    accelerations ``a`` (2) and ``b``, the tangential inverse mass ``A`` (2×2), the coupling ``B`` (2: normal force
    to tangential acceleration, and tangential force to normal acceleration) and the normal inverse mass ``C``."""

    a: Float[Array, "2"]
    b: Float[Array, ""]
    A: Float[Array, "2 2"]
    B: Float[Array, "2"]
    C: Float[Array, ""]

    def painleve(self, mu: ArrayLike, phi: ArrayLike) -> Float[Array, ""]:
        """``p(ϕ) = C − μ Bᵀ(cos ϕ, sin ϕ)`` (Eq. 39): the normal acceleration per unit normal force of slip in the
        direction ``ϕ`` (friction ``λ_T = −μ λ_N (cos ϕ, sin ϕ)``, Eq. 37)."""
        return self.C - mu * (self.B[0] * jnp.cos(phi) + self.B[1] * jnp.sin(phi))


def spatial_contact_space_form(
    system: AbstractSystem, q: Float[Array, " n"], v: Float[Array, " n"], t: ArrayLike = 0.0, contact: int = 0
) -> SpatialContactSpaceForm:
    """Contact ``contact`` of a spatial ``system`` (``TANGENT_DIM = 2``) at ``(q, v, t)`` in contact space:
    ``(b, a) = W M⁻¹ h + Ẇ v`` and ``[[C, Bᵀ], [B, A]] = W M⁻¹ Wᵀ`` from the system's own mass matrix, forces and
    Jacobians. A planar system's form is :func:`~regcontact.systems.contact_space_form`; ``ValueError`` here."""
    require_tangent_dim(system, 2, "the spatial contact-space form")
    rows = system.jacobians(q)[contact]
    free = rows @ system.mass_solve(q, system.forces(q, v, t)) + system.jacobian_rates(q, v)[contact]
    delassus = rows @ jax.vmap(lambda row: system.mass_solve(q, row))(rows).T
    return SpatialContactSpaceForm(a=free[1:], b=free[0], A=delassus[1:, 1:], B=delassus[1:, 0], C=delassus[0, 0])
