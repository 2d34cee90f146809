"""What the compliant, rigid and stability code needs to know about a mechanical system.

A planar system (one body or several) with generalised coordinates ``q ∈ ℝⁿ``, velocities ``v ∈ ℝⁿ`` and ``k``
unilateral frictional contacts. Contact ``i`` has a normal gap ``g_n,i`` (``> 0`` open) and a tangential
coordinate ``g_t,i``; both are rows of ``g(q) ∈ ℝ^{k×2}``, and their rates are ``ġ = W(q) v`` with the contact
Jacobians ``W(q) ∈ ℝ^{k×2×n}`` (rows: normal, tangential). The equations of motion are

    M(q) v̇ = h(q, v, t) + Σ_i W_iᵀ(q) λ_i,        λ_i = (λ_n,i, λ_t,i),

and ``g̈ = W v̇ + Ẇ v`` (``Ẇ v``: :meth:`AbstractSystem.jacobian_rates`). Everything numeric is a field of the
module (JAX arrays), so a batch of systems is a ``vmap`` away and a new value never recompiles.

A new body is one small class: subclass :class:`AbstractSystem`, declare ``NUM_CONTACTS`` and implement the
abstract methods (``docs/systems.md`` has a worked example).
"""

from __future__ import annotations

import abc
from typing import ClassVar

import equinox as eqx
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float

__all__ = ["AbstractSystem"]


class AbstractSystem(eqx.Module):
    """A planar system with ``NUM_CONTACTS`` unilateral frictional contacts (see the module docstring)."""

    #: ``k``, the number of contacts (static: it fixes array shapes).
    NUM_CONTACTS: ClassVar[int]

    @abc.abstractmethod
    def mass_matrix(self, q: Float[Array, " n"]) -> Float[Array, "n n"]:
        """``M(q)``, symmetric positive definite."""

    @abc.abstractmethod
    def forces(self, q: Float[Array, " n"], v: Float[Array, " n"], t: ArrayLike) -> Float[Array, " n"]:
        """``h(q, v, t)``: applied and velocity-dependent generalised forces (everything but the contacts)."""

    @abc.abstractmethod
    def gaps(self, q: Float[Array, " n"]) -> Float[Array, "k 2"]:
        """``(g_n, g_t)`` of every contact; ``g_n > 0`` is open."""

    @abc.abstractmethod
    def jacobians(self, q: Float[Array, " n"]) -> Float[Array, "k 2 n"]:
        """``W(q) = ∂g/∂q``: ``ġ = W v``."""

    @abc.abstractmethod
    def jacobian_rates(self, q: Float[Array, " n"], v: Float[Array, " n"]) -> Float[Array, "k 2"]:
        """``Ẇ v``: the velocity-dependent part of ``g̈``."""

    @property
    @abc.abstractmethod
    def friction_coefficients(self) -> Float[Array, " k"]:
        """``μ`` of every contact."""

    @abc.abstractmethod
    def potential_energy(self, q: Float[Array, " n"]) -> Float[Array, ""]:
        """Potential of the conservative part of ``h`` (zero where ``h`` has none)."""

    @abc.abstractmethod
    def initial_state(self) -> tuple[Float[Array, " n"], Float[Array, " n"]]:
        """``(q₀, v₀)``."""

    @property
    @abc.abstractmethod
    def length_scale(self) -> Float[Array, ""]:
        """The size of the body: the gaps' round-off is about one ulp of it (:mod:`regcontact.compliant.resolution`)."""

    # -- derived ------------------------------------------------------------------------------------------------

    def mass_solve(self, q: Float[Array, " n"], force: Float[Array, " n"]) -> Float[Array, " n"]:
        """``M(q)⁻¹ f``; a system with a diagonal mass matrix may override this with a division."""
        return jnp.linalg.solve(self.mass_matrix(q), force)

    def kinetic_energy(self, q: Float[Array, " n"], v: Float[Array, " n"]) -> Float[Array, ""]:
        """``½ vᵀ M(q) v``."""
        return 0.5 * v @ self.mass_matrix(q) @ v

    def energy(self, q: Float[Array, " n"], v: Float[Array, " n"]) -> Float[Array, ""]:
        """Kinetic plus potential energy; contact springs excluded."""
        return self.kinetic_energy(q, v) + self.potential_energy(q)
