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
import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Float

from regcontact._readable_repr import readable_repr

__all__ = ["AbstractSystem", "check_system", "first_bad_system"]


class AbstractSystem(eqx.Module):
    """A planar system with ``NUM_CONTACTS`` unilateral frictional contacts (see the module docstring)."""

    #: ``k``, the number of contacts (static: it fixes array shapes).
    NUM_CONTACTS: ClassVar[int]

    def __repr__(self) -> str:
        return readable_repr(self)

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


def _shape_problem(system: AbstractSystem) -> str | None:
    """What is wrong with the shapes of one system's arrays at its initial state, if anything (shapes only:
    traced, nothing computed)."""
    name, k = type(system).__name__, type(system).NUM_CONTACTS
    q0, v0 = eqx.filter_eval_shape(lambda system: tuple(map(_floats, system.initial_state())), system)
    if len(q0.shape) != 1:
        return f"{name}: initial q of shape {q0.shape}: expected one system, (n,) (check a batch per case)"
    n = q0.shape[0]

    def shapes(system: AbstractSystem) -> dict[str, Array]:
        q0, v0 = map(_floats, system.initial_state())
        return {
            "mass matrix": system.mass_matrix(q0),
            "gaps": system.gaps(q0),
            "contact Jacobians": system.jacobians(q0),
            "Jacobian rates": system.jacobian_rates(q0, v0),
            "friction coefficients": jnp.asarray(system.friction_coefficients),
        }

    found = {"initial velocity": v0} | eqx.filter_eval_shape(shapes, system)
    expected = {
        "initial velocity": (n,),
        "mass matrix": (n, n),
        "gaps": (k, 2),
        "contact Jacobians": (k, 2, n),
        "Jacobian rates": (k, 2),
        "friction coefficients": (k,),
    }
    for what, wanted in expected.items():
        shape = tuple(found[what].shape)
        if shape != wanted:
            return f"{name}: {what} of shape {shape}: expected {wanted} (n = {n}, k = {k})"
    return None


def _floats(a: ArrayLike) -> Array:
    return jnp.asarray(a, dtype=float)


def _initial_mass_and_friction(system: AbstractSystem) -> tuple[Float[Array, "n n"], Float[Array, " k"]]:
    q0, _ = system.initial_state()
    return system.mass_matrix(jnp.asarray(q0, dtype=float)), jnp.asarray(system.friction_coefficients)


#: One compiled call each (compiled once per class and shape), not an eager evaluation op by op.
_mass_and_friction = eqx.filter_jit(_initial_mass_and_friction)
_batched_mass_and_friction = eqx.filter_jit(jax.vmap(_initial_mass_and_friction))


def _value_problems(name: str, mass: np.ndarray, mu: np.ndarray) -> tuple[int, str] | None:
    """The first of a batch ``mass (b, n, n)``, ``mu (b, k)`` whose ``M(q₀)`` is not symmetric positive definite
    or whose ``μ`` is negative: its index and what is wrong."""
    scale = np.max(np.abs(mass), axis=(1, 2)) if mass.shape[1] else np.zeros(len(mass))
    finite = np.all(np.isfinite(mass), axis=(1, 2))
    with np.errstate(invalid="ignore"):  # inf − inf in a non-finite matrix, which `finite` reports
        symmetric = np.all(np.abs(mass - np.swapaxes(mass, 1, 2)) <= 1e-12 * scale[:, None, None], axis=(1, 2))
    asymmetric = ~(finite & symmetric)
    checked = np.where(asymmetric[:, None, None], np.eye(mass.shape[1]), mass)
    eigenvalues = np.linalg.eigvalsh(checked)
    indefinite = ~(eigenvalues[:, 0] > 1e-12 * eigenvalues[:, -1])
    negative = np.any(mu < 0, axis=1)
    failing = np.flatnonzero(asymmetric | indefinite | negative)
    if failing.size == 0:
        return None
    i = int(failing[0])
    if not finite[i]:
        return i, f"{name}: mass matrix at the initial state is not finite: expected a finite, positive definite M"
    if asymmetric[i]:
        return i, f"{name}: mass matrix at the initial state is not symmetric: expected M = Mᵀ"
    if indefinite[i]:
        low, high = eigenvalues[i, 0], eigenvalues[i, -1]
        return i, (
            f"{name}: mass matrix at the initial state has eigenvalues {low:.3g} … {high:.3g}: expected a "
            "positive definite M (a singular or indefinite mass matrix has no motion to integrate)"
        )
    return i, f"{name}: friction coefficients {mu[i]}: expected μ ≥ 0"


def check_system(system: AbstractSystem) -> None:
    """Check, on the host, what a system's class cannot promise: at the initial state the arrays have the shapes
    ``NUM_CONTACTS`` and ``q`` imply and ``M(q₀)`` is symmetric positive definite. Raises ``ValueError`` naming
    what is wrong.

    Meant for one system with concrete values, before it is batched and solved (a batch is checked by
    :func:`first_bad_system`); the studies check every system they build.
    """
    problem = _shape_problem(system)
    if problem is not None:
        raise ValueError(problem)
    mass, mu = _mass_and_friction(system)
    found = _value_problems(type(system).__name__, np.asarray(mass, np.float64)[None], np.asarray(mu)[None])
    if found is not None:
        raise ValueError(found[1])


def first_bad_system(systems: AbstractSystem) -> tuple[int, str] | None:
    """:func:`check_system` for a batch (every leaf with a leading axis), in one vmapped evaluation: the index
    of the first system that fails and why, or ``None``."""
    one = jax.tree_util.tree_map(lambda leaf: leaf[0], systems)
    problem = _shape_problem(one)
    if problem is not None:
        return 0, problem
    mass, mu = _batched_mass_and_friction(systems)
    return _value_problems(type(one).__name__, np.asarray(mass, np.float64), np.asarray(mu))
