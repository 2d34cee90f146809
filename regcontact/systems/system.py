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
import numpy as np
from jaxtyping import Array, ArrayLike, Float

__all__ = ["AbstractSystem", "check_system"]


class AbstractSystem(eqx.Module):
    """A planar system with ``NUM_CONTACTS`` unilateral frictional contacts (see the module docstring)."""

    #: ``k``, the number of contacts (static: it fixes array shapes).
    NUM_CONTACTS: ClassVar[int]

    def __check_init__(self):
        contacts = getattr(type(self), "NUM_CONTACTS", None)
        if not isinstance(contacts, int) or contacts < 1:
            raise ValueError(
                f"{type(self).__name__}.NUM_CONTACTS = {contacts!r}: expected a whole number of contacts k ≥ 1"
            )

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


def check_system(system: AbstractSystem) -> None:
    """Check, on the host, what a system's class cannot promise: at the initial state the arrays have the shapes
    ``NUM_CONTACTS`` and ``q`` imply and ``M(q₀)`` is symmetric positive definite. Raises ``ValueError`` naming
    what is wrong.

    Meant for one system with concrete values, before it is batched and solved (a traced or batched system
    cannot be checked this way); the studies check every system they build.
    """
    name, k = type(system).__name__, type(system).NUM_CONTACTS
    q0, v0 = (jnp.asarray(a, dtype=float) for a in system.initial_state())
    if q0.ndim != 1:
        raise ValueError(f"{name}: initial q of shape {q0.shape}: expected one system, (n,) (check a batch per case)")
    n = q0.shape[0]
    expected = {
        "initial velocity": (v0.shape, (n,)),
        "mass matrix": (jnp.shape(system.mass_matrix(q0)), (n, n)),
        "gaps": (jnp.shape(system.gaps(q0)), (k, 2)),
        "contact Jacobians": (jnp.shape(system.jacobians(q0)), (k, 2, n)),
        "Jacobian rates": (jnp.shape(system.jacobian_rates(q0, v0)), (k, 2)),
        "friction coefficients": (jnp.shape(system.friction_coefficients), (k,)),
    }
    for what, (shape, wanted) in expected.items():
        if tuple(shape) != wanted:
            raise ValueError(f"{name}: {what} of shape {tuple(shape)}: expected {wanted} (n = {n}, k = {k})")
    mass = np.asarray(system.mass_matrix(q0), dtype=np.float64)
    scale = np.max(np.abs(mass)) if mass.size else 0.0
    if not np.all(np.isfinite(mass)) or not np.allclose(mass, mass.T, rtol=0.0, atol=1e-12 * scale):
        raise ValueError(f"{name}: mass matrix at the initial state is not symmetric: expected M = Mᵀ")
    eigenvalues = np.linalg.eigvalsh(mass)
    if not eigenvalues[0] > 1e-12 * eigenvalues[-1]:
        raise ValueError(
            f"{name}: mass matrix at the initial state has eigenvalues {eigenvalues[0]:.3g} … {eigenvalues[-1]:.3g}: "
            "expected a positive definite M (a singular or indefinite mass matrix has no motion to integrate)"
        )
    if np.any(np.asarray(system.friction_coefficients) < 0):
        raise ValueError(f"{name}: friction coefficients {np.asarray(system.friction_coefficients)}: expected μ ≥ 0")
