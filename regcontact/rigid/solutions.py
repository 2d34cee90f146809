"""Solutions of the rigid contact problems, each with its contact mode.

A solution's *reaction* is a force (force-acceleration), an impulse (impulse-velocity) or ``δt λ̃``
(time-stepping). Its mode says what the contact does with it:

- ``"opening"``: no normal reaction (``λ_n = 0``); the contact is free to separate;
- ``"sticking"``: a normal reaction and no slip (``u_t = 0``);
- ``"sliding"``: a normal reaction and slip, friction at the cone's edge ``λ_t = ∓μλ_n``.

Here ``u_t`` is the slip the formulation constrains: ``ġ_t`` while sliding and ``g̈_t`` at rest
(force-acceleration), ``ġ_t⁺`` (impulse-velocity), ``ġ_t'`` (time-stepping).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from numpy.typing import NDArray

__all__ = ["ContactMode", "RigidSolution", "RigidSolutions", "contact_mode"]

ContactMode = Literal["opening", "sliding", "sticking"]


def contact_mode(
    normal_reaction: float, slip: float, reaction_scale: float, slip_scale: float, tol: float
) -> ContactMode:
    """Mode of a solution; ``normal_reaction`` and ``slip`` count as zero below ``tol`` times their scale."""
    if normal_reaction <= tol * reaction_scale:
        return "opening"
    if abs(slip) <= tol * slip_scale:
        return "sticking"
    return "sliding"


@dataclass(frozen=True)
class RigidSolution:
    """One solution of a rigid formulation.

    ``reaction`` is ``(λ_n, λ_t)``; ``contact_rate`` the contact quantity the complementarity acts on for that
    reaction (``g̈``, ``ġ⁺`` or ``(g_n/δt + ġ_n', ġ_t')``); ``velocity`` the generalised velocity after the
    impulse or step (``None`` for force-acceleration); ``acceleration`` the generalised acceleration
    (force-acceleration only).
    """

    reaction: NDArray[np.float64]
    mode: ContactMode
    contact_rate: NDArray[np.float64]
    velocity: NDArray[np.float64] | None = None
    acceleration: NDArray[np.float64] | None = None


@dataclass(frozen=True)
class RigidSolutions:
    """All solutions of one formulation for one state.

    ``continua`` holds, for each continuum of reactions (degenerate data), its bounding box
    ``[[min λ_n, min λ_t], [max λ_n, max λ_t]]``; the solutions listed then include only its vertices.
    """

    formulation: str
    solutions: tuple[RigidSolution, ...]
    continua: tuple[NDArray[np.float64], ...] = field(default=())

    @property
    def isolated(self) -> bool:
        return not self.continua

    @property
    def reactions(self) -> NDArray[np.float64]:
        """``(number of solutions, 2)`` array of the reactions."""
        return np.array([s.reaction for s in self.solutions]).reshape(len(self.solutions), 2)

    @property
    def modes(self) -> tuple[ContactMode, ...]:
        return tuple(s.mode for s in self.solutions)

    def as_json(self) -> list[dict[str, list[float] | str]]:
        """Each solution as ``{"reaction": [λ_n, λ_t], "mode": ...}``, the form the studies write to JSON."""
        return [{"reaction": s.reaction.tolist(), "mode": s.mode} for s in self.solutions]

    def with_mode(self, mode: ContactMode) -> RigidSolution:
        """The unique solution with ``mode``; ``LookupError`` if there is none or several."""
        matches = [s for s in self.solutions if s.mode == mode]
        if len(matches) != 1:
            raise LookupError(f"{self.formulation}: {len(matches)} solutions with mode {mode!r}, expected one")
        return matches[0]

    def __len__(self) -> int:
        return len(self.solutions)

    def __iter__(self) -> Iterator[RigidSolution]:
        return iter(self.solutions)

    def __getitem__(self, index: int) -> RigidSolution:
        return self.solutions[index]
