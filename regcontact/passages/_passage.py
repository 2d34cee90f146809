"""What every passage is: compliant runs, one per α, through a point rigid slip cannot pass, and what followed."""

from __future__ import annotations

import abc
import dataclasses
from typing import Any

import equinox as eqx
import numpy as np

from regcontact.systems.system import AbstractSystem

__all__ = ["BEYOND_JAM_OUTCOMES", "AbstractPassage", "PassageOutcome"]

#: What followed in a compliant run, indexed by :attr:`PassageOutcome.outcome`: an impulse that stopped the slip,
#: an impulse after which the contact still slips, a lift-off with no impulse, neither by the end of the window, or
#: a failed solve.
BEYOND_JAM_OUTCOMES: tuple[str, ...] = ("jump_into_stick", "impact_in_slip", "lift_off", "stays_in_contact", "failed")


@dataclasses.dataclass(frozen=True)
class PassageOutcome:
    """What followed in each run of a passage (numpy arrays over α): ``outcome`` indexes
    :data:`BEYOND_JAM_OUTCOMES`."""

    alpha: np.ndarray
    outcome: np.ndarray

    @property
    def outcome_names(self) -> list[str]:
        return [BEYOND_JAM_OUTCOMES[int(code)] for code in self.outcome]


class AbstractPassage(eqx.Module):
    """Compliant runs through the end of a rigid slip, one per α (leading axis), as
    :func:`~regcontact.passages.pass_through` returns them; :meth:`classify` says what followed in each, against
    the rigid prediction there."""

    @abc.abstractmethod
    def classify(self, system: AbstractSystem, reference: Any) -> PassageOutcome:
        """What followed in each run, against ``reference`` (the rigid prediction the runs were started from)."""
