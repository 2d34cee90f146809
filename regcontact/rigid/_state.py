"""The mechanical state of a planar system with ``k`` contacts, as the rigid formulations need it.

``M v̇ = h + Σ_i W_iᵀ λ_i`` with contact Jacobians ``W_i`` (rows normal, tangential), ``ġ_i = W_i v`` and
``g̈_i = W_i v̇ + Ẇ_i v``; the Delassus matrix ``G = W M⁻¹ Wᵀ`` is ``2k × 2k`` (contact by contact, normal
first). Everything is a plain numpy array: the rigid problems are small, exact linear algebra, not traced JAX
code. A state comes from any :class:`~regcontact.systems.system.AbstractSystem` (:meth:`ContactState.from_system`;
many at once: :func:`initial_contact_states`); the integrators evaluate a system once per step through
:class:`SystemSnapshots`.

The index sets of Leine & Brogliato (Eq. 2.1) are

    I_G  every contact,
    I_S  the closed ones          |g_n,i| ≤ tol · gap_scale,
    I_N  those of I_S with        |ġ_n,i| ≤ tol · velocity_scale,
    I_H  those of I_N with        |ġ_t,i| ≤ tol · velocity_scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, Float
from numpy.typing import ArrayLike, NDArray

from regcontact._argument_checks import FINITE, NONNEGATIVE, POSITIVE, UNIT_INTERVAL, check_argument, check_type
from regcontact.systems.system import SYSTEM_EXPECTED, AbstractSystem

__all__ = [
    "ContactState",
    "IndexSets",
    "SystemSnapshots",
    "as_contact_state",
    "contact_data",
    "initial_contact_states",
    "split_contact_data",
]


@dataclass(frozen=True)
class IndexSets:
    """The contact sets of Leine & Brogliato Eq. 2.1, as sorted tuples of contact indices.

    ``all_contacts`` is ``I_G``, ``closed`` ``I_S`` (``g_n ≈ 0``), ``normal_rest`` ``I_N`` (also ``ġ_n ≈ 0``),
    ``tangential_rest`` ``I_H`` (also ``ġ_t ≈ 0``).
    """

    all_contacts: tuple[int, ...]
    closed: tuple[int, ...]
    normal_rest: tuple[int, ...]
    tangential_rest: tuple[int, ...]

    @property
    def sliding(self) -> tuple[int, ...]:
        """``I_N \\ I_H``: closed, at rest normally, slipping."""
        return tuple(i for i in self.normal_rest if i not in self.tangential_rest)


@dataclass(frozen=True)
class ContactState:
    """``k`` contacts of a planar system with ``n`` coordinates.

    ``mass_matrix`` (n × n), ``jacobians`` (k × 2 × n, rows normal and tangential), ``jacobian_rates``
    (``Ẇ v``, k × 2), ``applied_force`` (``h``, n), ``velocity`` (n), ``mu`` (k), ``gaps`` (``g_n``, k) and
    ``length_scale``, the size of the system that ``g_n`` counts as zero against. ``M`` and ``W`` alone cannot
    supply one: under a change of units of a coordinate ``q_j`` they change as ``W_ij → W_ij/c``,
    ``M_jj → M_jj/c²``, so they only fix a mass. Without it the gap is compared with the largest entry of ``W``
    (a length for angular coordinates, but 1 for translations). Every entry must be finite, ``μ ≥ 0`` and
    ``length_scale > 0``: ``ValueError`` naming the first that is not. Subnormal entries (below the smallest
    normal float) are zero.
    """

    mass_matrix: NDArray[np.float64]
    jacobians: NDArray[np.float64]
    jacobian_rates: NDArray[np.float64]
    applied_force: NDArray[np.float64]
    velocity: NDArray[np.float64]
    mu: NDArray[np.float64]
    gaps: NDArray[np.float64]
    length_scale: float | None = None

    def __post_init__(self) -> None:
        for name in ("mass_matrix", "jacobians", "jacobian_rates", "applied_force", "velocity", "mu", "gaps"):
            value = np.asarray(getattr(self, name), dtype=float)
            # a subnormal number carries no relative precision (a velocity of 5e-324 has no direction to speak
            # of, and the rigid problems divide by their scales): zero
            object.__setattr__(self, name, np.where(np.abs(value) < np.finfo(float).tiny, 0.0, value))
        k, n = self.jacobians.shape[0], self.velocity.shape[0]
        expected = {
            "mass_matrix": (n, n),
            "jacobians": (k, 2, n),
            "jacobian_rates": (k, 2),
            "applied_force": (n,),
            "mu": (k,),
            "gaps": (k,),
        }
        wrong = {
            name: getattr(self, name).shape for name, shape in expected.items() if getattr(self, name).shape != shape
        }
        if wrong:
            raise ValueError(f"{k} contacts, {n} coordinates: expected shapes {expected}, got {wrong}")
        for name in ("mass_matrix", "jacobians", "jacobian_rates", "applied_force", "velocity", "gaps"):
            _check_finite(name, getattr(self, name))
        if not np.all(self.mu >= 0):  # NaN included
            check_argument("mu", self.mu, NONNEGATIVE)
        check_argument("length_scale", self.length_scale, POSITIVE)

    @classmethod
    def from_system(
        cls, system: AbstractSystem, q: ArrayLike | None = None, v: ArrayLike | None = None, t: float = 0.0
    ) -> ContactState:
        """``system`` at ``(q, v, t)``, by default its initial state."""
        check_type("system", system, AbstractSystem, SYSTEM_EXPECTED)
        for name, value in (("q", q), ("v", v), ("t", t)):
            check_argument(name, None if value is None else np.asarray(value, dtype=float), FINITE)
        q0, v0 = system.initial_state()
        q_, v_ = jnp.asarray(q0 if q is None else q, dtype=float), jnp.asarray(v0 if v is None else v, dtype=float)
        as_array = lambda a: np.asarray(a, dtype=float)  # noqa: E731
        return cls(
            mass_matrix=as_array(system.mass_matrix(q_)),
            jacobians=as_array(system.jacobians(q_)),
            jacobian_rates=as_array(system.jacobian_rates(q_, v_)),
            applied_force=as_array(system.forces(q_, v_, t)),
            velocity=as_array(v_),
            mu=as_array(system.friction_coefficients),
            gaps=as_array(system.gaps(q_))[:, 0],
            length_scale=float(system.length_scale),
        )

    @property
    def num_contacts(self) -> int:
        return int(self.jacobians.shape[0])

    @property
    def jacobian_matrix(self) -> NDArray[np.float64]:
        """``W`` stacked as ``2k × n`` (rows ``n₁, t₁, n₂, t₂, …``)."""
        return self.jacobians.reshape(2 * self.num_contacts, -1)

    @property
    def gap_scale(self) -> float:
        """The length against which ``g_n`` counts as zero: ``length_scale``, else the largest entry of ``W``."""
        return float(np.abs(self.jacobians).max()) if self.length_scale is None else abs(self.length_scale)

    @property
    def velocity_scale(self) -> float:
        """``max_r Σ_j |W_rj v_j|`` over all ``2k`` rows: every ``ġ`` counts as zero against it."""
        return float((np.abs(self.jacobian_matrix) @ np.abs(self.velocity)).max())

    @property
    def delassus(self) -> NDArray[np.float64]:
        """``G = W M⁻¹ Wᵀ`` (2k × 2k): how reactions move the contacts."""
        W = self.jacobian_matrix
        return W @ np.linalg.solve(self.mass_matrix, W.T)

    @property
    def contact_velocity(self) -> NDArray[np.float64]:
        """``ġ = W v`` as ``(k, 2)``."""
        return (self.jacobian_matrix @ self.velocity).reshape(-1, 2)

    @property
    def free_acceleration(self) -> NDArray[np.float64]:
        """``g̈`` without reactions, ``W M⁻¹ h + Ẇ v``, as ``(k, 2)``."""
        W = self.jacobian_matrix
        return (W @ np.linalg.solve(self.mass_matrix, self.applied_force) + self.jacobian_rates.reshape(-1)).reshape(
            -1, 2
        )

    def velocity_after(self, impulses: ArrayLike) -> NDArray[np.float64]:
        """``v⁺ = v + M⁻¹ Σ W_iᵀ Λ_i`` (Eq. 2.12) for impulses ``(k, 2)``."""
        flat = np.asarray(impulses, dtype=float).reshape(-1)
        _check_finite("impulses", flat)
        return self.velocity + np.linalg.solve(self.mass_matrix, self.jacobian_matrix.T @ flat)

    def acceleration(self, forces: ArrayLike) -> NDArray[np.float64]:
        """``v̇ = M⁻¹ (h + Σ W_iᵀ λ_i)`` (Eq. 2.3) for forces ``(k, 2)``."""
        flat = np.asarray(forces, dtype=float).reshape(-1)
        _check_finite("forces", flat)
        return np.linalg.solve(self.mass_matrix, self.applied_force + self.jacobian_matrix.T @ flat)

    def kinetic_energy(self, velocity: ArrayLike | None = None) -> float:
        """``½ vᵀ M v`` of ``velocity`` (default: the current one)."""
        v = self.velocity if velocity is None else np.asarray(velocity, dtype=float)
        _check_finite("velocity", v)
        return 0.5 * float(v @ self.mass_matrix @ v)

    def index_sets(self, tol: float = 1e-9) -> IndexSets:
        """``I_G ⊇ I_S ⊇ I_N ⊇ I_H`` of Eq. 2.1, zero meaning below ``tol`` times ``gap_scale`` (gaps) or
        ``velocity_scale`` (contact velocities)."""
        check_argument("tol", tol, UNIT_INTERVAL)
        rate = self.contact_velocity
        gap_zero, rate_zero = tol * self.gap_scale, tol * self.velocity_scale
        closed = tuple(i for i in range(self.num_contacts) if abs(self.gaps[i]) <= gap_zero)
        normal_rest = tuple(i for i in closed if abs(rate[i, 0]) <= rate_zero)
        tangential_rest = tuple(i for i in normal_rest if abs(rate[i, 1]) <= rate_zero)
        return IndexSets(tuple(range(self.num_contacts)), closed, normal_rest, tangential_rest)


def _check_finite(name: str, array: NDArray[np.float64]) -> None:
    """``ValueError`` naming ``name`` unless every entry is finite (one ``isfinite`` pass when they are: a state is
    built at every step of a rigid integrator)."""
    if not np.isfinite(array).all():
        check_argument(name, array, FINITE)


def contact_data(system: AbstractSystem, q: Array, v: Array, t: Array | float) -> Float[Array, " size"]:
    """``M, h, W, Ẇ v, g_n`` of ``system`` at ``(q, v, t)`` in one flat JAX array (what one jitted call returns;
    :func:`split_contact_data` splits it)."""
    return jnp.concatenate(
        [
            system.mass_matrix(q).ravel(),
            system.forces(q, v, t),
            system.jacobians(q).ravel(),
            system.jacobian_rates(q, v).ravel(),
            system.gaps(q)[:, 0],
        ]
    )


ContactArrays = tuple[
    NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]
]


def split_contact_data(flat: NDArray[np.float64], n: int, k: int) -> ContactArrays:
    """``(M (…, n, n), h (…, n), W (…, 2k, n) rows n₁, t₁, …, Ẇ v (…, 2k), g_n (…, k))`` from
    :func:`contact_data`'s flat array (leading batch axes kept)."""
    a, b, c, d = np.cumsum([n * n, n, 2 * k * n, 2 * k])
    lead = flat.shape[:-1]
    return (
        flat[..., :a].reshape(*lead, n, n),
        flat[..., a:b],
        flat[..., b:c].reshape(*lead, 2 * k, n),
        flat[..., c:d],
        flat[..., d:],
    )


def _stack(systems: Sequence[AbstractSystem]) -> AbstractSystem:
    """Systems of one class and structure stacked leaf by leaf (``ValueError`` naming the first that differs)."""
    first = systems[0]
    structure: Any = jax.tree_util.tree_structure(first)
    for i, system in enumerate(systems):
        if type(system) is not type(first) or jax.tree_util.tree_structure(system) != structure:
            raise ValueError(
                f"systems[{i}] is a {type(system).__name__}: expected systems of one class and structure "
                f"({type(first).__name__})"
            )
    return jax.tree_util.tree_map(lambda *leaves: jnp.stack([jnp.asarray(leaf) for leaf in leaves]), *systems)


class SystemSnapshots:
    """The contact data of a system — or of ``B`` systems of one class, stepped together — at ``(q, v, t)``, from
    one jitted call (about 10 µs: what a rigid integrator pays per step instead of some twenty eager JAX
    operations). ``systems`` is one system, or a sequence of them (then every array gains a leading axis ``B``
    and ``q``, ``v`` are ``(B, n)``; ``t`` is common)."""

    def __init__(self, systems: AbstractSystem | Sequence[AbstractSystem]):
        batch = not isinstance(systems, AbstractSystem)
        members: Sequence[AbstractSystem] = systems if batch else [systems]  # type: ignore[assignment, list-item]
        first = members[0]
        stacked = _stack(members) if batch else first  # refuses systems of different classes first
        # initial states and μ one system at a time: exactly what a one-system integrator starts from
        starts = [system.initial_state() for system in members]
        q0 = np.stack([np.asarray(q, dtype=float) for q, _ in starts])
        v0 = np.stack([np.asarray(v, dtype=float) for _, v in starts])
        mu = np.stack([np.asarray(system.friction_coefficients, dtype=float) for system in members])
        self.num_coordinates = int(q0.shape[1])
        self.num_contacts = int(first.NUM_CONTACTS)
        self.batch = batch
        self.initial_state = (q0, v0) if batch else (q0[0], v0[0])
        self.mu = mu if batch else mu[0]
        self.length_scale = float(first.length_scale)  # of the first system, in a batch
        if batch:
            evaluate = jax.vmap(contact_data, in_axes=(0, 0, 0, None))
            self._flat = jax.jit(lambda q, v, t: evaluate(stacked, q, v, t))
        else:
            self._flat = jax.jit(lambda q, v, t: contact_data(first, q, v, t))

    def arrays(self, q: NDArray[np.float64], v: NDArray[np.float64], t: float) -> ContactArrays:
        """``(M, h, W (2k × n), Ẇ v (2k), g_n (k))`` at ``(q, v, t)`` without building a state (batched: each
        with a leading axis ``B``)."""
        return split_contact_data(np.asarray(self._flat(q, v, t)), self.num_coordinates, self.num_contacts)

    def __call__(self, q: ArrayLike, v: ArrayLike, t: float) -> ContactState:
        """The :class:`ContactState` of a single system at ``(q, v, t)``."""
        if self.batch:
            raise ValueError("a batch of systems has no single ContactState: use arrays()")
        n, k = self.num_coordinates, self.num_contacts
        q, v = np.asarray(q, dtype=float), np.asarray(v, dtype=float)
        M, h, W, rates, gaps = self.arrays(q, v, t)
        return ContactState(
            mass_matrix=M,
            jacobians=W.reshape(k, 2, n),
            jacobian_rates=rates.reshape(k, 2),
            applied_force=h,
            velocity=v,
            mu=self.mu,
            gaps=gaps,
            length_scale=self.length_scale,
        )


@jax.jit
@jax.vmap
def _initial_arrays(system: AbstractSystem) -> tuple[Array, Array, Array]:
    """A stack of systems' contact data at their initial states, with the velocities and ``μ``."""
    q, v = system.initial_state()
    return contact_data(system, q, v, 0.0), v, system.friction_coefficients


def initial_contact_states(systems: Sequence[AbstractSystem]) -> list[ContactState]:
    """:meth:`ContactState.from_system` of each system at its initial state, systems of one class and structure
    from one jitted, vmapped call instead of some twenty eager JAX operations each (the same arrays, bit for bit:
    ``tests/rigid/test_references_batch.py``)."""
    states: list[ContactState | None] = [None] * len(systems)
    groups: dict[object, list[int]] = {}
    for i, system in enumerate(systems):
        groups.setdefault((type(system), jax.tree_util.tree_structure(system)), []).append(i)
    for members in groups.values():
        first = systems[members[0]]
        flat, velocity, mu = (
            np.asarray(a, dtype=float) for a in _initial_arrays(_stack([systems[i] for i in members]))
        )
        n, k = velocity.shape[1], int(first.NUM_CONTACTS)
        M, h, W, rates, gaps = split_contact_data(flat, n, k)
        for row, i in enumerate(members):
            states[i] = ContactState(
                mass_matrix=M[row],
                jacobians=W[row].reshape(k, 2, n),
                jacobian_rates=rates[row].reshape(k, 2),
                applied_force=h[row],
                velocity=velocity[row],
                mu=mu[row],
                gaps=gaps[row],
                length_scale=float(systems[i].length_scale),
            )
    return [state for state in states if state is not None]


def as_contact_state(state: ContactState | AbstractSystem, name: str = "state") -> ContactState:
    """``state`` itself, or a system taken at its initial state (:meth:`ContactState.from_system`): the
    formulations are written for a :class:`ContactState`, but a system is what users hold. Anything else is a
    ``TypeError`` naming the argument, ``name``."""
    check_type(name, state, (ContactState, AbstractSystem), f"a ContactState or {SYSTEM_EXPECTED}")
    return state if isinstance(state, ContactState) else ContactState.from_system(state)
