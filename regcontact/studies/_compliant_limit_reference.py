"""The compliant-limit reference of a compliant study: at a landing, the impulses of the impact law the study's
contact model converges to as α → ∞ (:func:`~regcontact.rigid.compliant_limit`), at the initial
state of a case's system under that case's contact model (``docs/results.md``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from regcontact.studies.compliant_cases import SweepCases
from regcontact.studies.compliant_sweep import CompliantSweep

if TYPE_CHECKING:  # the rigid layer (and SciPy) is imported when a study runs, not to validate it
    from regcontact.contact import ContactModel
    from regcontact.rigid import ContactState

__all__ = ["LimitReference", "LimitReferences", "limit_references"]


@dataclasses.dataclass(frozen=True)
class LimitReference:
    """The limit law's impulses ``(k, 2)`` (normal, tangential per contact) at one (system, contact model) pair,
    the generalised velocity after the impact, how the impact ended and the friction during it (``"none"``,
    ``"viscous"``, ``"coulomb"``); or ``impulse = None`` and why (``absent_because``)."""

    impulse: np.ndarray | None
    absent_because: str = ""
    velocity_after: np.ndarray | None = None
    ended: str | None = None
    friction: str | None = None


@dataclasses.dataclass(frozen=True)
class LimitReferences:
    """The compliant-limit references of a sweep, one per distinct (system, contact model) pair, and each case's
    index into them."""

    ids: np.ndarray
    references: list[LimitReference]

    def of_case(self, case: int) -> LimitReference:
        return self.references[int(self.ids[case])]


def _limit(state: ContactState, model: ContactModel, pressed: bool) -> LimitReference:
    """The reference of one (system, contact model) pair; ``pressed``: its cases start pressed in."""
    from regcontact.rigid import compliant_limit, limit_law

    if pressed:
        return LimitReference(None, "the contacts start pressed in (system.initial_penetration > 0), not at touch-down")
    try:
        outcome, velocity = compliant_limit(state, model)
    except (ValueError, RuntimeError) as error:  # no landing, a law not derived, or an impact that did not end
        return LimitReference(None, str(error))
    return LimitReference(outcome.impulses, "", velocity, outcome.ended, limit_law(model).friction)


def limit_references(sweep: CompliantSweep, batch: SweepCases, states: Sequence[ContactState]) -> LimitReferences:
    """The references of a sweep, one per distinct (system, contact model, start pressed in or not); ``states``
    holds the initial state of each of ``batch``'s distinct systems."""
    if not sweep.compliant_limit:
        return LimitReferences(
            np.zeros(sweep.size, dtype=int), [LimitReference(None, "compliant-limit reference switched off")]
        )
    pressed = np.asarray(batch.cases.penetration) > 0
    pairs = np.column_stack([batch.system_ids, batch.contact_ids, pressed])
    _, first, ids = np.unique(pairs, axis=0, return_index=True, return_inverse=True)
    references = [
        _limit(states[batch.system_ids[i]], batch.contacts[batch.contact_ids[i]], bool(pressed[i])) for i in first
    ]
    return LimitReferences(np.reshape(ids, -1), references)
