"""Spatial systems: bodies whose contacts have a normal and a 2-vector tangent (Champneys & Várkonyi Sec. 7).

The planar :class:`~regcontact.systems.system.AbstractSystem` has one tangent per contact; a spatial contact has
two. Contact ``i`` of a spatial system has the gap ``g_n,i`` (``> 0`` open) and two tangential coordinates
``(g_t1,i, g_t2,i)`` along two fixed orthonormal directions of the contact plane, rows of ``g(q) ∈ ℝ^{k×3}``; their
rates are ``ġ = W(q) v`` with ``W(q) ∈ ℝ^{k×3×n}`` (rows: normal, tangent 1, tangent 2). The equations of motion are

    M(q) v̇ = h(q, v, t) + Σ_i W_iᵀ(q) λ_i,        λ_i = (λ_n,i, λ_T,i),  λ_T,i ∈ ℝ².

A separate base class, not an extension of the planar one: every planar result keeps its own code path.

:func:`spatial_contact_space_form` reduces one contact at a state to Champneys' Eqs. 35–36,

    u̇ = a + A λ_T + λ_N B,        v̇ = b + Bᵀ λ_T + λ_N C,

with the tangential slip ``u ∈ ℝ²`` and the normal velocity ``v``: ``(b, a)`` is the free contact acceleration
``W M⁻¹ h + Ẇ v`` and ``[[C, Bᵀ], [B, A]]`` the Delassus matrix ``W M⁻¹ Wᵀ``. :meth:`SpatialContactSpaceForm.
painleve` is the Painlevé parameter of slip in the direction ``ϕ``, ``p(ϕ) = C − μ Bᵀ(cos ϕ, sin ϕ)`` (Eq. 39).
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from typing import ClassVar

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float

from regcontact._argument_checks import Rule
from regcontact._readable_repr import readable_repr
from regcontact.systems.system import _host, _mass_and_friction, _value_problems, cached_shape_problem, check_built

__all__ = ["AbstractSpatialSystem", "SpatialContactSpaceForm", "check_spatial_system", "spatial_contact_space_form"]


class AbstractSpatialSystem(eqx.Module):
    """A spatial system with ``NUM_CONTACTS`` unilateral frictional contacts, each with a 2-vector tangent (see the
    module docstring). The members are the planar :class:`~regcontact.systems.system.AbstractSystem`'s with three
    rows per contact instead of two."""

    #: ``k``, the number of contacts (static: it fixes array shapes).
    NUM_CONTACTS: ClassVar[int]
    #: The rule of each numeric constructor argument, as for the planar :class:`~regcontact.systems.system.
    #: AbstractSystem`.
    ARGUMENT_RULES: ClassVar[Mapping[str, Rule]] = {}

    def __repr__(self) -> str:
        return readable_repr(self)

    def __check_init__(self):
        contacts = getattr(type(self), "NUM_CONTACTS", None)
        if not isinstance(contacts, int) or contacts < 1:
            raise ValueError(
                f"{type(self).__name__}.NUM_CONTACTS = {contacts!r}: expected a whole number of contacts k ≥ 1"
            )
        check_built(self, _spatial_shape_problem, _mass_and_friction)

    @abc.abstractmethod
    def mass_matrix(self, q: Float[Array, " n"]) -> Float[Array, "n n"]:
        """``M(q)``, symmetric positive definite."""

    @abc.abstractmethod
    def forces(self, q: Float[Array, " n"], v: Float[Array, " n"], t: ArrayLike) -> Float[Array, " n"]:
        """``h(q, v, t)``: applied, gyroscopic and other velocity-dependent generalised forces (all but the
        contacts)."""

    @abc.abstractmethod
    def gaps(self, q: Float[Array, " n"]) -> Float[Array, "k 3"]:
        """``(g_n, g_t1, g_t2)`` of every contact; ``g_n > 0`` is open."""

    @abc.abstractmethod
    def jacobians(self, q: Float[Array, " n"]) -> Float[Array, "k 3 n"]:
        """``W(q) = ∂g/∂q``: ``ġ = W v``."""

    @abc.abstractmethod
    def jacobian_rates(self, q: Float[Array, " n"], v: Float[Array, " n"]) -> Float[Array, "k 3"]:
        """``Ẇ v``: the velocity-dependent part of ``g̈``."""

    @property
    @abc.abstractmethod
    def friction_coefficients(self) -> Float[Array, " k"]:
        """``μ`` of every contact (isotropic friction: one number per contact)."""

    @abc.abstractmethod
    def potential_energy(self, q: Float[Array, " n"]) -> Float[Array, ""]:
        """Potential of the conservative part of ``h``."""

    @abc.abstractmethod
    def initial_state(self) -> tuple[Float[Array, " n"], Float[Array, " n"]]:
        """``(q₀, v₀)``."""

    @property
    @abc.abstractmethod
    def length_scale(self) -> Float[Array, ""]:
        """The size of the body (the gaps' round-off is about one ulp of it)."""

    def mass_solve(self, q: Float[Array, " n"], force: Float[Array, " n"]) -> Float[Array, " n"]:
        """``M(q)⁻¹ f``; a system with a diagonal mass matrix may override this with a division."""
        return jnp.linalg.solve(self.mass_matrix(q), force)

    def energy(self, q: Float[Array, " n"], v: Float[Array, " n"]) -> Float[Array, ""]:
        """Kinetic plus potential energy; contact springs excluded."""
        return 0.5 * v @ self.mass_matrix(q) @ v + self.potential_energy(q)


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
    system: AbstractSpatialSystem, q: Float[Array, " n"], v: Float[Array, " n"], t: ArrayLike = 0.0, contact: int = 0
) -> SpatialContactSpaceForm:
    """Contact ``contact`` of ``system`` at ``(q, v, t)`` in contact space: ``(b, a) = W M⁻¹ h + Ẇ v`` and
    ``[[C, Bᵀ], [B, A]] = W M⁻¹ Wᵀ`` from the system's own mass matrix, forces and Jacobians."""
    rows = system.jacobians(q)[contact]
    free = rows @ system.mass_solve(q, system.forces(q, v, t)) + system.jacobian_rates(q, v)[contact]
    delassus = rows @ jax.vmap(lambda row: system.mass_solve(q, row))(rows).T
    return SpatialContactSpaceForm(a=free[1:], b=free[0], A=delassus[1:, 1:], B=delassus[1:, 0], C=delassus[0, 0])


def _spatial_shape_problem(system: AbstractSpatialSystem) -> str | None:
    """What is wrong with the shapes of one spatial system's arrays at its initial state (traced, nothing
    computed)."""
    name, k = type(system).__name__, type(system).NUM_CONTACTS

    def shapes(system: AbstractSpatialSystem) -> dict[str, Array]:
        q0, v0 = (jnp.asarray(a, dtype=float) for a in system.initial_state())
        return {"initial coordinates": q0, "initial velocity": v0}

    start = eqx.filter_eval_shape(shapes, system)
    q0 = start["initial coordinates"]
    if len(q0.shape) != 1:
        return f"{name}: initial coordinates of shape {q0.shape}: expected one system, (n,)"
    n = q0.shape[0]

    def arrays(system: AbstractSpatialSystem) -> dict[str, Array]:
        q0, v0 = (jnp.asarray(a, dtype=float) for a in system.initial_state())
        return {
            "mass matrix": system.mass_matrix(q0),
            "gaps": system.gaps(q0),
            "contact Jacobians": system.jacobians(q0),
            "Jacobian rates": system.jacobian_rates(q0, v0),
            "friction coefficients": jnp.asarray(system.friction_coefficients),
        }

    found = start | eqx.filter_eval_shape(arrays, system)
    expected = {
        "initial coordinates": (n,),
        "initial velocity": (n,),
        "mass matrix": (n, n),
        "gaps": (k, 3),
        "contact Jacobians": (k, 3, n),
        "Jacobian rates": (k, 3),
        "friction coefficients": (k,),
    }
    for what, wanted in expected.items():
        if tuple(found[what].shape) != wanted:
            return f"{name}: {what} of shape {tuple(found[what].shape)}: expected {wanted} (n = {n}, k = {k})"
    return None


def check_spatial_system(system: AbstractSpatialSystem) -> None:
    """Check on the host what a spatial system's class cannot promise: the shapes ``NUM_CONTACTS`` and ``q`` imply
    at the initial state, finite parameters and state, a symmetric positive definite ``M(q₀)`` and ``μ ≥ 0``.
    Raises ``ValueError`` naming the first problem (a system built from concrete values passed it when built)."""
    problem = cached_shape_problem(system, _spatial_shape_problem)
    if problem is not None:
        raise ValueError(problem)
    found = _value_problems(system, *_host(_mass_and_friction(system), batched=False))
    if found is not None:
        raise ValueError(found[1])
