"""Rigid frictional contact of a planar system with ``k`` contacts: the three formulations, all solutions.

The state (:class:`MultiContactState`) is ``M v̇ = h + Σ_i W_iᵀ λ_i`` with contact Jacobians ``W_i`` (rows
normal, tangential), ``ġ_i = W_i v`` and ``g̈_i = W_i v̇ + Ẇ_i v``; the Delassus matrix ``G = W M⁻¹ Wᵀ`` is
``2k × 2k`` (contact by contact, normal first). The index sets of Leine & Brogliato (Eq. 2.1) are

    I_G  every contact,
    I_S  the closed ones          |g_n,i| ≤ tol · gap_scale,
    I_N  those of I_S with        |ġ_n,i| ≤ tol · velocity_scale,
    I_H  those of I_N with        |ġ_t,i| ≤ tol · velocity_scale

(:meth:`MultiContactState.index_sets`; the scales are the one-contact :class:`~regcontact.rigid.ContactState`'s,
over all contacts). The formulations, each returning *every* solution with a mode per contact:

- :func:`multi_contact_force_acceleration` (Eqs. 2.9–2.11): forces on ``I_N``; the sliding contacts
  ``I_N \\ I_H`` have ``λ_t = −μ sgn(ġ_t) λ_n`` folded in, ``I_H`` gets the Coulomb law on ``g̈_t``;
- :func:`multi_contact_impulse_velocity` (Eqs. 2.16–2.18, Preclik Sec. 3): impulses on ``I_S`` with Newton's
  normal restitution ``ġ_n⁺ + e min(ġ_n⁻, 0) ≥ 0 ⊥ Λ_n ≥ 0`` (``e = 0``: completely inelastic, Eq. 2.14) and
  the Coulomb law on ``ġ_t⁺``;
- :func:`multi_contact_time_stepping` (Preclik Sec. 4): one semi-implicit Euler step on every contact, the
  law on ``(g_n/δt + ġ_n', ġ_t')``.

Modes: ``"F"`` free (no normal reaction), ``"T"`` sticking (normal reaction, no slip), ``"S+"`` / ``"S-"``
sliding in the + / − direction, + being the direction of the tangential Jacobian row (slip ``u_t > 0``,
friction ``λ_t = −μ λ_n``). For ``k = 1`` every formulation returns exactly the one-contact code's reactions.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact.rigid.lcp.multi_contact_friction import multi_contact_friction_lcp, multi_contact_friction_solutions
from regcontact.rigid.state import ContactState
from regcontact.systems.rod import PainleveRod

__all__ = [
    "ContactLabel",
    "IndexSets",
    "MultiContactSolution",
    "MultiContactSolutions",
    "MultiContactState",
    "multi_contact_force_acceleration",
    "multi_contact_impulse_velocity",
    "multi_contact_time_stepping",
]

ContactLabel = Literal["F", "S+", "S-", "T"]


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
class MultiContactState:
    """``k`` contacts of a planar system with ``n`` coordinates.

    ``mass_matrix`` (n × n), ``jacobians`` (k × 2 × n, rows normal and tangential), ``jacobian_rates``
    (``Ẇ v``, k × 2), ``applied_force`` (``h``, n), ``velocity`` (n), ``mu`` (k), ``gaps`` (``g_n``, k) and
    ``length_scale``, the size of the system that ``g_n`` counts as zero against (as for
    :class:`~regcontact.rigid.ContactState`; without it, the largest entry of ``W``).
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
            object.__setattr__(self, name, np.asarray(getattr(self, name), dtype=float))
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

    @classmethod
    def from_contact_state(cls, state: ContactState) -> MultiContactState:
        """The one-contact state as ``k = 1`` (the same arrays, so the same Delassus matrix to the bit)."""
        return cls(
            mass_matrix=state.mass_matrix,
            jacobians=np.asarray(state.jacobian, dtype=float)[None],
            jacobian_rates=np.asarray(state.jacobian_rate, dtype=float)[None],
            applied_force=state.applied_force,
            velocity=state.velocity,
            mu=np.array([state.mu], dtype=float),
            gaps=np.array([state.gap], dtype=float),
            length_scale=state.length_scale,
        )

    @classmethod
    def from_rod(cls, rod: PainleveRod, q: ArrayLike | None = None, v: ArrayLike | None = None) -> MultiContactState:
        """The Painlevé rod at ``(q, v)`` (default: its initial state) through :meth:`ContactState.from_rod`."""
        return cls.from_contact_state(ContactState.from_rod(rod, q, v))

    @classmethod
    def from_system(
        cls, system: Any, q: ArrayLike | None = None, v: ArrayLike | None = None, t: float = 0.0
    ) -> MultiContactState:
        """Any system with the :class:`~regcontact.systems.system.AbstractSystem` interface at ``(q, v, t)`` (default:
        its initial state): ``mass_matrix``, ``forces``, ``gaps``, ``jacobians``, ``jacobian_rates``,
        ``friction_coefficients``, ``length_scale``."""
        q0, v0 = system.initial_state()
        q = np.asarray(q0 if q is None else q, dtype=float)
        v = np.asarray(v0 if v is None else v, dtype=float)
        as_array = lambda a: np.asarray(a, dtype=float)  # noqa: E731
        return cls(
            mass_matrix=as_array(system.mass_matrix(q)),
            jacobians=as_array(system.jacobians(q)),
            jacobian_rates=as_array(system.jacobian_rates(q, v)),
            applied_force=as_array(system.forces(q, v, t)),
            velocity=v,
            mu=as_array(system.friction_coefficients),
            gaps=as_array(system.gaps(q))[:, 0],
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
        """``G = W M⁻¹ Wᵀ`` (2k × 2k)."""
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
        return self.velocity + np.linalg.solve(self.mass_matrix, self.jacobian_matrix.T @ flat)

    def acceleration(self, forces: ArrayLike) -> NDArray[np.float64]:
        """``v̇ = M⁻¹ (h + Σ W_iᵀ λ_i)`` (Eq. 2.3) for forces ``(k, 2)``."""
        flat = np.asarray(forces, dtype=float).reshape(-1)
        return np.linalg.solve(self.mass_matrix, self.applied_force + self.jacobian_matrix.T @ flat)

    def kinetic_energy(self, velocity: ArrayLike | None = None) -> float:
        """``½ vᵀ M v`` of ``velocity`` (default: the current one)."""
        v = self.velocity if velocity is None else np.asarray(velocity, dtype=float)
        return 0.5 * float(v @ self.mass_matrix @ v)

    def index_sets(self, tol: float = 1e-9) -> IndexSets:
        """``I_G ⊇ I_S ⊇ I_N ⊇ I_H`` of Eq. 2.1, zero meaning below ``tol`` times ``gap_scale`` (gaps) or
        ``velocity_scale`` (contact velocities)."""
        rate = self.contact_velocity
        gap_zero, rate_zero = tol * self.gap_scale, tol * self.velocity_scale
        closed = tuple(i for i in range(self.num_contacts) if abs(self.gaps[i]) <= gap_zero)
        normal_rest = tuple(i for i in closed if abs(rate[i, 0]) <= rate_zero)
        tangential_rest = tuple(i for i in normal_rest if abs(rate[i, 1]) <= rate_zero)
        return IndexSets(tuple(range(self.num_contacts)), closed, normal_rest, tangential_rest)


@dataclass(frozen=True)
class MultiContactSolution:
    """One solution for ``k`` contacts: ``reactions`` ``(k, 2)`` (forces, impulses or ``δt λ̃``), a mode per
    contact, ``contact_rates`` ``(k, 2)`` (what each contact's law acts on: ``g̈``, ``ġ⁺`` shifted by
    restitution, ``(g_n/δt + ġ_n', ġ_t')``; ``ġ`` for contacts not in the problem, see the formulations),
    and the generalised ``velocity`` after (impulse, step) or ``acceleration`` (force-acceleration)."""

    reactions: NDArray[np.float64]
    modes: tuple[ContactLabel, ...]
    contact_rates: NDArray[np.float64]
    velocity: NDArray[np.float64] | None = None
    acceleration: NDArray[np.float64] | None = None


@dataclass(frozen=True)
class MultiContactSolutions:
    """All solutions of one formulation for one state, with the index sets it was set up from.

    ``continua``: for each continuum of reactions (statically indeterminate friction, degenerate data), its
    bounding box ``(2, k, 2)`` (``[min, max]`` per contact and component); the listed solutions then include
    only its vertices reached by nonsingular index sets.
    """

    formulation: str
    solutions: tuple[MultiContactSolution, ...]
    index_sets: IndexSets
    continua: tuple[NDArray[np.float64], ...] = field(default=())

    @property
    def isolated(self) -> bool:
        return not self.continua

    @property
    def reactions(self) -> NDArray[np.float64]:
        """``(number of solutions, k, 2)``."""
        k = len(self.index_sets.all_contacts)
        return np.array([s.reactions for s in self.solutions]).reshape(len(self.solutions), k, 2)

    @property
    def modes(self) -> tuple[tuple[ContactLabel, ...], ...]:
        return tuple(s.modes for s in self.solutions)

    def with_modes(self, *modes: ContactLabel) -> MultiContactSolution:
        """The unique solution with these modes (one per contact); ``LookupError`` if none or several."""
        matches = [s for s in self.solutions if s.modes == modes]
        if len(matches) != 1:
            raise LookupError(f"{self.formulation}: {len(matches)} solutions with modes {modes}, expected one")
        return matches[0]

    def as_json(self) -> list[dict[str, Any]]:
        """Each solution as ``{"reactions": [[λ_n, λ_t], …], "modes": [...]}``."""
        return [{"reactions": s.reactions.tolist(), "modes": list(s.modes)} for s in self.solutions]

    def __len__(self) -> int:
        return len(self.solutions)

    def __iter__(self) -> Iterator[MultiContactSolution]:
        return iter(self.solutions)

    def __getitem__(self, index: int) -> MultiContactSolution:
        return self.solutions[index]


def multi_contact_force_acceleration(state: MultiContactState, tol: float = 1e-9) -> MultiContactSolutions:
    """Every set of contact forces of the force-acceleration problem (Leine & Brogliato Eqs. 2.9–2.11).

    Contacts outside ``I_N`` (open, or closed and separating) carry no force, mode ``"F"``; their
    ``contact_rates`` are still ``g̈`` under the others' forces. ``I_H`` contacts get the Coulomb law on
    ``g̈_t``; ``I_N \\ I_H`` ones slide on: ``λ_t = −μ sgn(ġ_t) λ_n``, mode ``"F"`` or ``"S±"`` by ``ġ_t``. A
    penetrating contact, or a closed one approaching (``ġ_n < 0``: an impact), raises ``ValueError``.
    """
    sets = state.index_sets(tol)
    rate = state.contact_velocity
    gap_zero, rate_zero = tol * state.gap_scale, tol * state.velocity_scale
    for i in sets.all_contacts:
        if state.gaps[i] < -gap_zero or (i in sets.closed and rate[i, 0] < -rate_zero):
            raise ValueError(
                f"force-acceleration needs g_n ≥ 0, and ġ_n ≥ 0 where closed; contact {i} has "
                f"g_n = {state.gaps[i]:.3g}, ġ_n = {rate[i, 0]:.3g}: use multi_contact_impulse_velocity"
            )
    active = list(sets.normal_rest)
    slip = [0 if i in sets.tangential_rest else int(np.sign(rate[i, 1])) for i in active]
    G, b = state.delassus, state.free_acceleration.reshape(-1)
    found, continua = _law_solutions(G, b, state.mu, active, slip, tol)
    solutions = tuple(
        MultiContactSolution(
            reactions=reactions,
            modes=modes,
            contact_rates=(G @ reactions.reshape(-1) + b).reshape(-1, 2),
            acceleration=state.acceleration(reactions),
        )
        for reactions, modes in found
    )
    return MultiContactSolutions("force_acceleration", solutions, sets, continua)


def multi_contact_impulse_velocity(
    state: MultiContactState, restitution: ArrayLike = 0.0, tol: float = 1e-9
) -> MultiContactSolutions:
    """Every set of contact impulses of the impact problem (Eqs. 2.16–2.18; Preclik Sec. 3 for ``k`` contacts).

    Impulses act on the closed contacts ``I_S``; the law is Signorini on ``ξ_n = ġ_n⁺ + e min(ġ_n⁻, 0)``
    (Newton's restitution coefficient ``e``, per contact or one for all, default ``0``: completely inelastic;
    the ``min`` keeps a separating contact from being pulled back) and Coulomb on ``ġ_t⁺`` (no tangential
    restitution). ``contact_rates`` are ``(ξ_n, ġ_t⁺)`` on ``I_S`` and ``ġ⁺`` elsewhere. Open contacts carry no
    impulse; a penetrating one raises ``ValueError``.
    """
    sets = state.index_sets(tol)
    for i in sets.all_contacts:
        if state.gaps[i] < -tol * state.gap_scale:
            raise ValueError(f"impulse-velocity needs g_n ≥ 0; contact {i} has g_n = {state.gaps[i]:.3g}")
    e = np.broadcast_to(np.asarray(restitution, dtype=float), (state.num_contacts,))
    if np.any(e < 0) or np.any(e > 1):
        raise ValueError(f"restitution coefficients must lie in [0, 1], got {restitution!s}")
    active = list(sets.closed)
    G = state.delassus
    free = state.contact_velocity.copy()
    for i in active:
        if e[i]:
            free[i, 0] += e[i] * min(free[i, 0], 0.0)
    b = free.reshape(-1)
    found, continua = _law_solutions(G, b, state.mu, active, [0] * len(active), tol)
    solutions = tuple(
        MultiContactSolution(
            reactions=impulses,
            modes=modes,
            contact_rates=(G @ impulses.reshape(-1) + b).reshape(-1, 2),
            velocity=state.velocity_after(impulses),
        )
        for impulses, modes in found
    )
    return MultiContactSolutions("impulse_velocity", solutions, sets, continua)


def multi_contact_time_stepping(state: MultiContactState, dt: float, tol: float = 1e-9) -> MultiContactSolutions:
    """Every solution of one semi-implicit Euler step of length ``dt`` (Preclik Sec. 4 for ``k`` contacts).

    ``v' = v + δt M⁻¹ (h + Σ W_iᵀ λ̃_i)``; every contact obeys the law on ``(g_n/δt + ġ_n', ġ_t')`` (the
    Signorini condition scaled by ``1/δt``, Eq. 19), so an open contact enters too and a far one simply gets no
    impulse. Reactions are the impulses ``δt λ̃``.
    """
    if not dt > 0:
        raise ValueError(f"the time step must be positive, got dt = {dt}")
    sets = state.index_sets(tol)
    free_velocity = state.velocity + dt * np.linalg.solve(state.mass_matrix, state.applied_force)
    offset = np.zeros((state.num_contacts, 2))
    offset[:, 0] = state.gaps / dt
    b = state.jacobian_matrix @ free_velocity + offset.reshape(-1)
    G = state.delassus
    active = list(sets.all_contacts)
    found, continua = _law_solutions(G, b, state.mu, active, [0] * len(active), tol)
    solutions = tuple(
        MultiContactSolution(
            reactions=impulses,
            modes=modes,
            contact_rates=(G @ impulses.reshape(-1) + b).reshape(-1, 2),
            velocity=free_velocity + np.linalg.solve(state.mass_matrix, state.jacobian_matrix.T @ impulses.reshape(-1)),
        )
        for impulses, modes in found
    )
    return MultiContactSolutions("time_stepping", solutions, sets, continua)


def _law_solutions(
    G: NDArray[np.float64],
    b: NDArray[np.float64],
    mu: NDArray[np.float64],
    active: list[int],
    slip_direction: list[int],
    tol: float,
) -> tuple[list[tuple[NDArray[np.float64], tuple[ContactLabel, ...]]], tuple[NDArray[np.float64], ...]]:
    """Solve the law on the ``active`` contacts (others: no reaction, ``"F"``) and label every solution.

    ``λ_n`` counts as zero below ``tol`` times the reaction scale ``max(‖λ‖∞, ‖b‖∞/‖G‖∞)`` and a full-law
    contact's slip ``u_t`` below ``tol`` times ``‖G‖∞ ‖λ‖∞ + ‖b‖∞``, all over the LCP's own unknowns and rows
    (for one contact: the one-contact code's scales). Folded contacts slide in their ``slip_direction``.
    """
    k = mu.shape[0]
    if not active:
        return [(np.zeros((k, 2)), ("F",) * k)], ()
    rows = np.ravel([[2 * i, 2 * i + 1] for i in active])
    G_active, b_active = G[np.ix_(rows, rows)], b[rows]
    problem = multi_contact_friction_lcp(G_active, b_active, mu[active], slip_direction)
    found = multi_contact_friction_solutions(problem)
    in_lcp = np.ravel([[True, not s] for s in slip_direction])  # a folded contact's λ_t and u_t are not unknowns
    norm_G = np.abs(G_active).sum(axis=1).max()
    labelled = []
    for reactions in found.reactions:
        size = np.abs(reactions.reshape(-1)[in_lcp]).max()
        reaction_scale = max(size, np.abs(b_active[in_lcp]).max() / norm_G)
        slip_scale = norm_G * size + np.abs(b_active[in_lcp]).max()
        u = problem.contact_rate(reactions)
        modes: list[ContactLabel] = ["F"] * k
        for position, i in enumerate(active):
            if reactions[position, 0] <= tol * reaction_scale:
                continue
            direction = slip_direction[position]
            if direction == 0:
                if abs(u[position, 1]) <= tol * slip_scale:
                    modes[i] = "T"
                    continue
                direction = 1 if u[position, 1] > 0 else -1
            modes[i] = "S+" if direction > 0 else "S-"
        full = np.zeros((k, 2))
        full[active] = reactions
        labelled.append((full, tuple(modes)))
    continua = []
    for box in found.continua:
        full_box = np.zeros((2, k, 2))
        full_box[:, active] = box
        continua.append(full_box)
    return labelled, tuple(continua)
