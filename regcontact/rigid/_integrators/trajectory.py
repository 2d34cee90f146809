"""What a rigid integrator returns: the motion, its contact modes and impulses, events and statistics.

The integrators (:func:`~regcontact.rigid.moreau_jean`, :func:`~regcontact.rigid.gholami_time_stepping`,
:func:`~regcontact.rigid.event_driven`) run on the host in numpy: each step is a problem of a few unknowns that
depends on the step before, so there is nothing to vectorise within a run and JAX dispatch per step would cost
more than the arithmetic. The system's own (JAX) functions are evaluated through one jitted call per step
(:class:`~regcontact.rigid.SystemSnapshots`), about 10 µs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import jax.numpy as jnp
import numpy as np
from numpy.typing import NDArray

from regcontact.rigid._formulations.solutions import ContactLabel
from regcontact.systems.system import AbstractSystem

__all__ = ["RigidEvent", "RigidTrajectory", "TrajectoryStatistics", "check_positive"]

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

    def kinetic_energy(self, system: AbstractSystem) -> NDArray[np.float64]:
        """``½ vᵀ M(q) v`` at every sample."""
        return np.array([0.5 * v @ np.asarray(system.mass_matrix(q)) @ v for q, v in zip(self.q, self.v)])

    def energy(self, system: AbstractSystem) -> NDArray[np.float64]:
        """Kinetic plus potential energy at every sample."""
        potential = np.array([float(system.potential_energy(jnp.asarray(q))) for q in self.q])
        return self.kinetic_energy(system) + potential


def check_positive(name: str, value: float) -> float:
    """``value`` as a float if it is a finite positive number; else ``ValueError`` naming the parameter."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = float("nan")
    if not (np.isfinite(number) and number > 0):
        raise ValueError(f"{name} = {value!r}: expected a positive number")
    return number
