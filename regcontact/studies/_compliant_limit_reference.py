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
    from regcontact.rigid import ContactState, ProcessOutcome

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


def _seed_dependent(state: ContactState, model: ContactModel) -> str:
    """Why the limit of an impact without collision does not apply to ``model``, or ``""``: from a contact at rest
    the limit process starts at a seed, and only a law with a linear term at touch-down (a linear spring or damper)
    grows from it at a rate of its own, whatever the seed (Champneys & Várkonyi's IWC). A law whose force
    vanishes faster than linearly (Hunt–Crossley's ``k δⁿ``, ``n > 1``) leaves the seed's impulse, not the
    compliant run's."""
    # the closed and approaching contacts by compliant_limit's rule (its default tol)
    tol = 1e-9
    approaching = (np.abs(state.gaps) <= tol * state.gap_scale) & (
        state.contact_velocity[:, 0] < -tol * state.velocity_scale
    )
    if approaching.any() or type(model.normal).LINEAR_STIFFNESS is not None:
        return ""
    return (
        f"no landing (the contacts start at rest, v_n = 0) and {type(model.normal).__name__} has no linear term at "
        "touch-down: the limit of an impact without collision would be its seed's, not the compliant run's"
    )


def _reference(answer: tuple[ProcessOutcome, np.ndarray] | Exception, model: ContactModel) -> LimitReference:
    """A pair's reference from :func:`~regcontact.rigid.compliant_limits`' answer."""
    from regcontact.rigid import limit_law

    if isinstance(answer, Exception):  # no impact, a law not derived, or an impact that did not end
        return LimitReference(None, str(answer))
    outcome, velocity = answer
    return LimitReference(outcome.impulses, "", velocity, outcome.ended, limit_law(model).friction)


def limit_references(sweep: CompliantSweep, batch: SweepCases, states: Sequence[ContactState]) -> LimitReferences:
    """The references of a sweep, one per distinct (system, contact model, start pressed in or not), the landings
    in one batched call (:func:`~regcontact.rigid.compliant_limits`); ``states`` holds the initial state of each of
    ``batch``'s distinct systems."""
    if not sweep.compliant_limit:
        return LimitReferences(
            np.zeros(sweep.size, dtype=int), [LimitReference(None, "compliant-limit reference switched off")]
        )
    pressed = np.asarray(batch.cases.penetration) > 0
    keys = np.column_stack([batch.system_ids, batch.contact_ids, pressed])
    _, first, ids = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    from regcontact.rigid import compliant_limits

    pairs = [(states[batch.system_ids[i]], batch.contacts[batch.contact_ids[i]]) for i in first]
    absent = [
        "the contacts start pressed in (system.initial_penetration > 0), not at touch-down"
        if pressed[i]
        else _seed_dependent(*pair)
        for i, pair in zip(first, pairs)
    ]
    solved = [pair for pair, why in zip(pairs, absent) if not why]
    answers = iter(compliant_limits([state for state, _ in solved], [model for _, model in solved]))
    references = [
        LimitReference(None, why) if why else _reference(next(answers), model) for (_, model), why in zip(pairs, absent)
    ]
    return LimitReferences(np.reshape(ids, -1), references)
