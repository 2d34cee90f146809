"""What a rigid integrator returns: the motion, its contact modes and impulses, events and statistics; and the
one-call evaluation of a system's contact data that every integrator steps with.

The integrators (:func:`~regcontact.rigid.moreau_jean`, :func:`~regcontact.rigid.gholami_time_stepping`,
:func:`~regcontact.rigid.event_driven`) run on the host in numpy: each step is a problem of a few unknowns that
depends on the step before, so there is nothing to vectorise within a run and JAX dispatch per step would cost
more than the arithmetic. The system's own (JAX) functions are evaluated through one jitted call per step
(:class:`SystemSnapshots`), about 10 µs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import jax
import jax.numpy as jnp
import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact.rigid.multi_contact import ContactLabel, MultiContactState

__all__ = ["RigidEvent", "RigidTrajectory", "SystemSnapshots", "TrajectoryStatistics"]

EventKind = Literal["impact", "impact_without_collision", "detachment", "stick_test", "slip_onset", "mode_change"]


@dataclass(frozen=True)
class RigidEvent:
    """One event of an event-driven run: its ``time``, ``kind``, the ``contact`` that triggered it (``None`` for a
    mode change found at a restart), the ``impulse`` applied there ``(k, 2)`` (zero if none) and the ``modes``
    chosen after it."""

    time: float
    kind: EventKind
    contact: int | None
    impulse: NDArray[np.float64]
    modes: tuple[ContactLabel, ...]


@dataclass(frozen=True)
class TrajectoryStatistics:
    """``steps`` (time steps, or integrated segments for the event-driven scheme), ``lcp_solves`` (contact
    problems solved), ``events`` (located events, impacts included), ``ambiguous_steps`` (steps or restarts where
    the contact problem had several solutions and the selection rule chose), ``wall_time`` (s) and, for the
    event-driven scheme, ``rhs_evaluations``; ``fallback_steps``: steps taken by another problem because the
    scheme's own had no solution (Gholami's LCP in Painlevé's inconsistent case); ``serial_steps``: steps of a
    batched run (:func:`~regcontact.rigid.moreau_jean_batch`) that this system took through the one-system code
    (a rule not vectorised, or no mode combination admissible)."""

    steps: int
    lcp_solves: int
    events: int
    ambiguous_steps: int
    wall_time: float
    rhs_evaluations: int = 0
    fallback_steps: int = 0
    serial_steps: int = 0


@dataclass(frozen=True)
class RigidTrajectory:
    """A rigid motion sampled at ``times`` (``N + 1``): ``q``, ``v`` ``(N + 1, n)``; for every interval
    ``[times[i], times[i + 1]]`` the contact ``modes`` (one label per contact) and the ``impulses`` ``(N, k, 2)``:
    for a time-stepping scheme the step's contact impulse (``δt λ̃``), for the event-driven scheme the impulse
    applied at ``times[i]`` (impacts, impacts without collision; zero elsewhere). ``events`` lists the
    event-driven scheme's events (empty for time stepping)."""

    integrator: str
    times: NDArray[np.float64]
    q: NDArray[np.float64]
    v: NDArray[np.float64]
    modes: tuple[tuple[ContactLabel, ...], ...]
    impulses: NDArray[np.float64]
    statistics: TrajectoryStatistics
    events: tuple[RigidEvent, ...] = field(default=())

    def mode_sequence(self) -> list[tuple[float, tuple[ContactLabel, ...]]]:
        """``(start time, modes)`` of each run of equal modes, in order."""
        runs: list[tuple[float, tuple[ContactLabel, ...]]] = []
        for time, modes in zip(self.times[:-1], self.modes):
            if not runs or runs[-1][1] != modes:
                runs.append((float(time), modes))
        return runs

    def kinetic_energy(self, system: Any) -> NDArray[np.float64]:
        """``½ vᵀ M(q) v`` at every sample."""
        return np.array([0.5 * v @ np.asarray(system.mass_matrix(q)) @ v for q, v in zip(self.q, self.v)])

    def energy(self, system: Any) -> NDArray[np.float64]:
        """Kinetic plus potential energy at every sample."""
        potential = np.array([float(system.potential_energy(jnp.asarray(q))) for q in self.q])
        return self.kinetic_energy(system) + potential


class SystemSnapshots:
    """A system's contact data at ``(q, v, t)`` as a :class:`MultiContactState`, from one jitted call."""

    def __init__(self, system: Any):
        q0, v0 = system.initial_state()
        self.num_coordinates = int(np.shape(q0)[0])
        self.num_contacts = int(system.NUM_CONTACTS)
        self.mu = np.asarray(system.friction_coefficients, dtype=float)
        self.length_scale = float(system.length_scale)
        self.initial_state = (np.asarray(q0, dtype=float), np.asarray(v0, dtype=float))

        self._flat = jax.jit(lambda q, v, t: contact_data(system, q, v, t))
        n, k = self.num_coordinates, self.num_contacts
        self._splits = np.cumsum([n * n, n, 2 * k * n, 2 * k])

    def arrays(
        self, q: NDArray[np.float64], v: NDArray[np.float64], t: float
    ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
        """``(M (n, n), h (n), W (2k, n) rows n₁, t₁, …, Ẇ v (2k), g_n (k))`` without building a state."""
        n, k = self.num_coordinates, self.num_contacts
        flat = np.asarray(self._flat(q, v, t))
        a, b, c, d = self._splits
        return flat[:a].reshape(n, n), flat[a:b], flat[b:c].reshape(2 * k, n), flat[c:d], flat[d:]

    def __call__(self, q: ArrayLike, v: ArrayLike, t: float) -> MultiContactState:
        n, k = self.num_coordinates, self.num_contacts
        q, v = np.asarray(q, dtype=float), np.asarray(v, dtype=float)
        M, h, W, rates, gaps = self.arrays(q, v, t)
        return MultiContactState(
            mass_matrix=M.reshape(n, n),
            jacobians=W.reshape(k, 2, n),
            jacobian_rates=rates.reshape(k, 2),
            applied_force=h,
            velocity=v,
            mu=self.mu,
            gaps=gaps,
            length_scale=self.length_scale,
        )


def contact_data(system: Any, q: Any, v: Any, t: Any) -> Any:
    """``M, h, W, Ẇ v, g_n`` of ``system`` at ``(q, v, t)`` in one flat JAX array (what one jitted call returns;
    :meth:`SystemSnapshots.arrays` splits it)."""
    return jnp.concatenate(
        [
            system.mass_matrix(q).ravel(),
            system.forces(q, v, t),
            system.jacobians(q).ravel(),
            system.jacobian_rates(q, v).ravel(),
            system.gaps(q)[:, 0],
        ]
    )


def check_positive(name: str, value: float) -> float:
    """``value`` as a float if it is a finite positive number; else ``ValueError`` naming the parameter."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = float("nan")
    if not (np.isfinite(number) and number > 0):
        raise ValueError(f"{name} = {value!r}: expected a positive number")
    return number
