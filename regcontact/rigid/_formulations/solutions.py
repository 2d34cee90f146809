"""Solutions of the rigid contact problems of ``k`` contacts, each with a mode per contact.

A solution's *reactions* ``(k, 2)`` are forces (force-acceleration), impulses (impulse-velocity) or ``δt λ̃``
(time-stepping), rows ``(λ_n, λ_t)`` per contact. Its modes say what each contact does with them:

- ``"F"`` free: no normal reaction (``λ_n`` zero to round-off); the contact may separate;
- ``"T"`` sticking: a normal reaction and no slip (``u_t = 0``);
- ``"S+"`` / ``"S-"`` sliding in the + / − direction of the tangential Jacobian row (slip ``u_t > 0`` / ``< 0``),
  friction at the cone's edge opposing it (``λ_t = ∓μ λ_n``).

``u`` is the contact quantity the formulation constrains: ``g̈`` (force-acceleration; ``ġ_t`` fixes the
direction of a contact that already slides), ``ġ⁺`` (impulse-velocity), ``(g_n/δt + ġ_n', ġ_t')``
(time-stepping). :func:`contact_labels` is the one rule that labels a solution, for every formulation and for
the mode enumeration of the integrators (:mod:`regcontact.rigid._formulations.contact_modes`).

One contact is ``k = 1``: :attr:`ContactSolution.reaction` and :attr:`ContactSolution.mode` read that contact's
reaction ``(λ_n, λ_t)`` and mode directly (the one-contact view of the papers' figures).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from regcontact.rigid._state import IndexSets

__all__ = ["CONTACT_LABELS", "ContactLabel", "ContactSolution", "ContactSolutions", "contact_labels"]

ContactLabel = Literal["F", "T", "S+", "S-"]
#: The labels in the order of the mode codes ``0, 1, 2, 3`` of :mod:`regcontact.rigid._formulations.contact_modes`.
CONTACT_LABELS: tuple[ContactLabel, ...] = ("F", "T", "S+", "S-")


def contact_labels(
    reactions: NDArray[np.float64],
    rates: NDArray[np.float64],
    slip_direction: NDArray[np.int_] | list[int],
    delassus: NDArray[np.float64],
    free: NDArray[np.float64],
    tol: float,
) -> tuple[ContactLabel, ...]:
    """The modes of one solution ``reactions`` ``(m, 2)`` of the law ``u = G λ + b`` on ``m`` contacts, with
    ``rates`` ``u`` ``(m, 2)``.

    A contact is free when its whole reaction counts as zero, ``λ_n`` and ``λ_t`` below ``tol`` times the
    reaction scale ``max(‖λ‖∞, ‖b‖∞/‖G‖∞)``: not ``λ_n`` alone, since on the cone's edge ``|λ_t| = μ λ_n`` and a
    large ``μ`` slides with a normal reaction ``1/μ`` of its friction. The slip ``u_t`` counts as zero below
    ``tol`` times ``‖G‖∞ ‖λ‖∞ + ‖b‖∞``, the norms over the problem's own unknowns and rows: a contact that
    already slides in ``slip_direction`` ±1 (its friction folded into the normal column, force-acceleration)
    contributes only ``λ_n`` and ``b_n``, and keeps its direction.
    """
    slip_direction = np.asarray(slip_direction, dtype=int)
    in_problem = np.ravel([[True, not s] for s in slip_direction])
    norm_G = max(np.abs(delassus).sum(axis=1).max(), 1e-300)  # G = 0: reactions do not move the contact
    norm_b = np.abs(free[in_problem]).max()
    size = np.abs(reactions.reshape(-1)[in_problem]).max()
    reaction_zero = tol * max(size, norm_b / norm_G)
    slip_zero = tol * (norm_G * size + norm_b)
    labels: list[ContactLabel] = []
    for (lam_n, lam_t), (_, u_t), direction in zip(reactions, rates, slip_direction):
        if lam_n <= reaction_zero and abs(lam_t) <= reaction_zero:
            labels.append("F")
        elif direction:
            labels.append("S+" if direction > 0 else "S-")
        elif abs(u_t) <= slip_zero:
            labels.append("T")
        else:
            labels.append("S+" if u_t > 0 else "S-")
    return tuple(labels)


@dataclass(frozen=True)
class ContactSolution:
    """One solution: ``reactions`` ``(k, 2)``, a mode per contact, ``contact_rates`` ``(k, 2)`` (what each contact's
    law acts on: ``g̈``, ``ġ⁺`` shifted by restitution, ``(g_n/δt + ġ_n', ġ_t')``; ``ġ`` or ``g̈`` for contacts
    not in the problem, see the formulations), and the generalised ``velocity`` after (impulse, step) or
    ``acceleration`` (force-acceleration)."""

    reactions: NDArray[np.float64]
    modes: tuple[ContactLabel, ...]
    contact_rates: NDArray[np.float64]
    velocity: NDArray[np.float64] | None = None
    acceleration: NDArray[np.float64] | None = None

    @property
    def reaction(self) -> NDArray[np.float64]:
        """``(λ_n, λ_t)`` of a one-contact solution (``ValueError`` for several contacts)."""
        return self.reactions[_only_contact(len(self.modes))]

    @property
    def mode(self) -> ContactLabel:
        """The mode of a one-contact solution (``ValueError`` for several contacts)."""
        return self.modes[_only_contact(len(self.modes))]

    @property
    def contact_rate(self) -> NDArray[np.float64]:
        """``u`` of a one-contact solution (``ValueError`` for several contacts)."""
        return self.contact_rates[_only_contact(len(self.modes))]


def _only_contact(k: int) -> int:
    if k != 1:
        raise ValueError(f"a solution of {k} contacts has no single reaction or mode: use reactions / modes")
    return 0


@dataclass(frozen=True)
class ContactSolutions:
    """All solutions of one formulation for one state, with the index sets it was set up from.

    ``continua``: for each continuum of reactions (statically indeterminate friction, degenerate data), its
    bounding box ``(2, k, 2)`` (``[min, max]`` per contact and component); the listed solutions then include
    only its vertices reached by nonsingular index sets.
    """

    formulation: str
    solutions: tuple[ContactSolution, ...]
    index_sets: IndexSets
    continua: tuple[NDArray[np.float64], ...] = field(default=())

    @property
    def num_contacts(self) -> int:
        return len(self.index_sets.all_contacts)

    @property
    def isolated(self) -> bool:
        return not self.continua

    @property
    def reactions(self) -> NDArray[np.float64]:
        """``(number of solutions, k, 2)``."""
        return np.array([s.reactions for s in self.solutions]).reshape(len(self.solutions), self.num_contacts, 2)

    @property
    def modes(self) -> tuple[tuple[ContactLabel, ...], ...]:
        return tuple(s.modes for s in self.solutions)

    def with_modes(self, *modes: ContactLabel) -> ContactSolution:
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

    def __iter__(self) -> Iterator[ContactSolution]:
        return iter(self.solutions)

    def __getitem__(self, index: int) -> ContactSolution:
        return self.solutions[index]
