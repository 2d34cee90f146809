"""The mechanical state of a planar body with one contact, as the rigid formulations need it.

``M v̇ = f + Jᵀ λ`` with ``λ = (λ_n, λ_t)``; the contact quantities are the gap ``g_n``, the contact
velocity ``ġ = J v`` and the contact acceleration ``g̈ = J v̇ + J̇ v``. Everything is a plain numpy array: the
rigid references are small, exact linear algebra, not traced JAX code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact.systems.rod import PainleveRod

__all__ = ["ContactState", "as_contact_state", "rod_contact_states"]


@dataclass(frozen=True)
class ContactState:
    """One contact of a planar body: ``M`` (k×k), ``J`` (2×k, rows normal and tangential), ``J̇ v`` (2),
    applied force ``f`` (k), velocity ``v`` (k), friction coefficient ``mu`` and normal gap ``g_n``.

    ``length_scale`` is the size of the body (the rod's length), the length against which ``g_n`` counts as
    zero. ``M`` and ``J`` alone cannot supply one: under a change of units of a coordinate ``q_j`` they change
    as ``J_ij → J_ij/c``, ``M_jj → M_jj/c²``, so they only fix a mass. Without it the gap is compared with the
    largest entry of ``J`` (a length for angular coordinates, but 1 for translations).
    """

    mass_matrix: NDArray[np.float64]
    jacobian: NDArray[np.float64]
    jacobian_rate: NDArray[np.float64]
    applied_force: NDArray[np.float64]
    velocity: NDArray[np.float64]
    mu: float
    gap: float
    length_scale: float | None = None

    @classmethod
    def from_rod(cls, rod: PainleveRod, q: ArrayLike | None = None, v: ArrayLike | None = None) -> ContactState:
        """The rod at ``(q, v)``, by default its initial state (in contact, ``ġ_n = 0``)."""
        q0, v0 = rod.initial_state()
        q = q0 if q is None else jnp.asarray(q, dtype=float)
        v = v0 if v is None else jnp.asarray(v, dtype=float)
        as_array = lambda a: np.asarray(a, dtype=float)  # noqa: E731
        return cls(
            mass_matrix=as_array(rod.mass_matrix()),
            jacobian=as_array(rod.jacobian(q)),
            jacobian_rate=as_array(rod.jacobian_rate(q, v)),
            applied_force=as_array(rod.applied_force()),
            velocity=as_array(v),
            mu=float(rod.mu),
            gap=float(as_array(rod.gap(q))[0]),
            length_scale=float(rod.length),
        )

    @property
    def gap_scale(self) -> float:
        """The length against which ``g_n`` counts as zero: ``length_scale``, else the largest entry of ``J``."""
        return float(np.abs(self.jacobian).max()) if self.length_scale is None else abs(self.length_scale)

    @property
    def velocity_scale(self) -> float:
        """The size of the contact velocity's terms, ``max_i Σ_j |J_ij v_j|``: ``ġ`` counts as zero against it."""
        return float((np.abs(self.jacobian) @ np.abs(self.velocity)).max())

    @property
    def delassus(self) -> NDArray[np.float64]:
        """``W = J M⁻¹ Jᵀ``: how a reaction moves the contact (Eq. 4)."""
        return self.jacobian @ np.linalg.solve(self.mass_matrix, self.jacobian.T)

    @property
    def contact_velocity(self) -> NDArray[np.float64]:
        """``ġ = J v`` (Eq. 3)."""
        return self.jacobian @ self.velocity

    @property
    def free_acceleration(self) -> NDArray[np.float64]:
        """``g̈`` without reactions: ``J M⁻¹ f + J̇ v`` (the constant term of Eq. 4)."""
        return self.jacobian @ np.linalg.solve(self.mass_matrix, self.applied_force) + self.jacobian_rate

    def velocity_after(self, impulse: ArrayLike) -> NDArray[np.float64]:
        """``v⁺ = v + M⁻¹ Jᵀ Λ`` (Eq. 13)."""
        return self.velocity + np.linalg.solve(self.mass_matrix, self.jacobian.T @ np.asarray(impulse, float))

    def acceleration(self, force: ArrayLike) -> NDArray[np.float64]:
        """``v̇ = M⁻¹ (f + Jᵀ λ)`` (Eq. 1)."""
        return np.linalg.solve(self.mass_matrix, self.applied_force + self.jacobian.T @ np.asarray(force, float))

    def kinetic_energy(self, velocity: ArrayLike | None = None) -> float:
        """``½ vᵀ M v`` of ``velocity`` (default: the current one)."""
        v = self.velocity if velocity is None else np.asarray(velocity, dtype=float)
        return 0.5 * float(v @ self.mass_matrix @ v)


@jax.jit
@jax.vmap
def _rod_arrays(rod: PainleveRod) -> tuple[jax.Array, ...]:
    """What :meth:`ContactState.from_rod` reads from a rod at its initial state, for a stack of rods."""
    q, v = rod.initial_state()
    return rod.mass_matrix(), rod.jacobian(q), rod.jacobian_rate(q, v), rod.applied_force(), v, rod.gap(q)[0]


def rod_contact_states(rods: Sequence[PainleveRod]) -> list[ContactState]:
    """:meth:`ContactState.from_rod` of each rod at its initial state, from one jitted, vmapped call instead of
    some twenty eager JAX operations per rod (the same arrays, bit for bit; tested in
    ``tests/rigid/test_references_batch.py``)."""
    if not rods:
        return []
    stacked = jax.tree_util.tree_map(lambda *leaves: np.stack([np.asarray(leaf) for leaf in leaves]), *rods)
    mass, jacobian, rate, force, velocity, gap = (np.asarray(a, dtype=float) for a in _rod_arrays(stacked))
    return [
        ContactState(
            mass_matrix=mass[i],
            jacobian=jacobian[i],
            jacobian_rate=rate[i],
            applied_force=force[i],
            velocity=velocity[i],
            mu=float(rod.mu),
            gap=float(gap[i]),
            length_scale=float(rod.length),
        )
        for i, rod in enumerate(rods)
    ]


def as_contact_state(system: ContactState | PainleveRod, caller: str) -> ContactState:
    """``system`` itself, or a rod's initial state (:meth:`ContactState.from_rod`); ``TypeError`` otherwise.

    The formulations are written for a :class:`ContactState`, but a rod is what users hold.
    """
    if isinstance(system, ContactState):
        return system
    if isinstance(system, PainleveRod):
        return ContactState.from_rod(system)
    raise TypeError(
        f"{caller} needs a ContactState (or a PainleveRod, taken at its initial state), got {type(system).__name__}"
    )
