"""Impact laws as objects: what an impact at a state does, for :func:`~regcontact.rigid.event_driven`.

An impact law is configured once (its restitution, its contact model) and called on a :class:`ContactState` whose
closed contacts approach; it answers with every outcome it admits (:class:`RigidImpact`: impulses, velocities
after, contact modes after). A law with a unique outcome answers one; the impact LCP may answer several, and the
integrator's indeterminacy rule picks among them. Its ``without_collision`` answers the same for an impact
without collision (closed contacts at rest normally, no consistent force: Painlevé's inconsistency). A new impact
law is one class: subclass :class:`AbstractImpactLaw`, implement ``__call__``, and register it in
:data:`IMPACT_LAWS` if a study file names it.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass

import equinox as eqx
import numpy as np
from numpy.typing import NDArray

from regcontact._argument_checks import check_argument
from regcontact.contact import ContactModel
from regcontact.rigid._checks import RESTITUTION
from regcontact.rigid._formulations.impulse_velocity import impulse_velocity
from regcontact.rigid._formulations.solutions import ContactLabel, contact_labels
from regcontact.rigid._impacts.compliant_limit import compliant_limit, limit_law
from regcontact.rigid._impacts.darboux_keller import darboux_keller
from regcontact.rigid._impacts.impact_process import ProcessOutcome
from regcontact.rigid._impacts.without_collision import iwc_cases
from regcontact.rigid._state import ContactState

__all__ = [
    "IMPACT_LAWS",
    "AbstractImpactLaw",
    "CompliantLimitImpact",
    "DarbouxKellerImpact",
    "NewtonImpact",
    "RigidImpact",
]


@dataclass(frozen=True)
class RigidImpact:
    """One outcome of an impact: the impulses ``(k, 2)`` (normal, tangential per contact), the generalised
    velocity after, the kinetic energy after (what an indeterminacy rule compares) and the contact modes after."""

    impulses: NDArray[np.float64]
    velocity: NDArray[np.float64]
    kinetic_energy: float
    modes: tuple[ContactLabel, ...]


class AbstractImpactLaw(eqx.Module):
    """An impact law: called on a state whose closed contacts approach, it returns every outcome it admits.

    **Arguments** (of the call): ``state``, the :class:`~regcontact.rigid.ContactState` at the impact; ``tol``, the
    relative level below which gaps and contact velocities count as zero (which contacts are closed).

    **Returns:** a non-empty tuple of :class:`RigidImpact`.
    """

    @abc.abstractmethod
    def __call__(self, state: ContactState, tol: float) -> tuple[RigidImpact, ...]:
        """Every outcome of the impact at ``state``."""

    @classmethod
    @abc.abstractmethod
    def from_settings(cls, restitution: float, model: ContactModel) -> AbstractImpactLaw:
        """The law built from what a study gives every law (a restitution and the study's contact model), each law
        taking the one it uses: a study names a law without knowing which."""

    def without_collision(self, state: ContactState, tol: float) -> tuple[RigidImpact, ...]:
        """Every outcome of an impact without collision at ``state`` (its closed contacts at rest normally, no
        consistent contact force): here the non-zero solutions of the impulse LCP with ``e = 0`` (a restitution
        acts on no approach); laws that integrate the impact resolve it their own way. May be empty."""
        return tuple(
            RigidImpact(s.reactions, state.velocity_after(s.reactions), state.kinetic_energy(s.velocity), s.modes)
            for s in impulse_velocity(state, 0.0, tol)
            if np.abs(s.reactions[:, 0]).max() > 0
        )


def _outcome(state: ContactState, impulses: NDArray[np.float64], velocity: NDArray[np.float64], tol: float):
    """The outcome of an impact law with one answer: its modes read off the velocities after."""
    modes = contact_labels(
        impulses,
        (state.jacobian_matrix @ velocity).reshape(-1, 2),
        [0] * state.num_contacts,
        state.delassus,
        state.contact_velocity.reshape(-1),
        tol,
    )
    return (RigidImpact(impulses, velocity, state.kinetic_energy(velocity), modes),)


class NewtonImpact(AbstractImpactLaw):
    """The impact LCP (:func:`~regcontact.rigid.impulse_velocity`): Newton's restitution ``e`` and Coulomb
    friction over every closed contact, all its solutions.

    **Arguments:** ``restitution``, Newton's ``e`` in ``[0, 1]`` (``ValueError`` in one line otherwise).
    """

    restitution: float = 0.0

    def __check_init__(self):
        check_argument("restitution", self.restitution, RESTITUTION)

    @classmethod
    def from_settings(cls, restitution: float, model: ContactModel) -> AbstractImpactLaw:
        return cls(restitution)

    def __call__(self, state: ContactState, tol: float) -> tuple[RigidImpact, ...]:
        return tuple(
            RigidImpact(s.reactions, state.velocity_after(s.reactions), state.kinetic_energy(s.velocity), s.modes)
            for s in impulse_velocity(state, self.restitution, tol)
        )


class DarbouxKellerImpact(AbstractImpactLaw):
    """Coulomb friction during the impact, integrated in the normal impulse (:func:`~regcontact.rigid.darboux_keller`)
    with Poisson's restitution.

    **Arguments:** ``restitution``, Poisson's ``r`` in ``[0, 1]`` (``ValueError`` in one line otherwise).
    """

    restitution: float = 0.0

    def __check_init__(self):
        check_argument("restitution", self.restitution, RESTITUTION)

    @classmethod
    def from_settings(cls, restitution: float, model: ContactModel) -> AbstractImpactLaw:
        return cls(restitution)

    def __call__(self, state: ContactState, tol: float) -> tuple[RigidImpact, ...]:
        return self._resolve(state, tol, None)

    def without_collision(self, state: ContactState, tol: float) -> tuple[RigidImpact, ...]:
        """One outcome per consistent case of the impact without collision (:func:`~regcontact.rigid.iwc_cases`),
        each integrated in the normal impulse from a seed at its impacting contacts."""
        return tuple(self._resolve(state, tol, case)[0] for case in iwc_cases(state, tol).cases)

    def _resolve(self, state: ContactState, tol: float, case: str | None) -> tuple[RigidImpact, ...]:
        outcome, velocity = darboux_keller(state, self.restitution, "poisson", tol, case)
        if isinstance(outcome, ProcessOutcome):
            impulses = outcome.impulses
        else:  # the one closed contact's map
            impulses = np.zeros((state.num_contacts, 2))
            impulses[int(np.argmin(np.abs(state.gaps)))] = outcome.normal_impulse, outcome.tangential_impulse
        return _outcome(state, impulses, velocity, tol)


class CompliantLimitImpact(AbstractImpactLaw):
    """The impact law a compliant contact model converges to as α → ∞ (:func:`~regcontact.rigid.compliant_limit`).

    **Arguments:** ``model``, the :class:`~regcontact.contact.ContactModel`; a model whose limit is
    not derived is refused here (``ValueError`` in one line; ``TypeError`` for no ``ContactModel``).
    """

    model: ContactModel

    def __check_init__(self):
        if not isinstance(self.model, ContactModel):
            raise TypeError(f"contact_model = {self.model!r}: expected a ContactModel")
        limit_law(self.model)

    @classmethod
    def from_settings(cls, restitution: float, model: ContactModel) -> AbstractImpactLaw:
        return cls(model)

    def __call__(self, state: ContactState, tol: float) -> tuple[RigidImpact, ...]:
        outcome, velocity = compliant_limit(state, self.model, tol)
        return _outcome(state, outcome.impulses, velocity, tol)

    def without_collision(self, state: ContactState, tol: float) -> tuple[RigidImpact, ...]:
        """One outcome per consistent case of the impact without collision (:func:`~regcontact.rigid.iwc_cases`):
        the compliant model's α-free impact process started from a seed at its impacting contacts."""
        outcomes = []
        for case in iwc_cases(state, tol).cases:
            outcome, velocity = compliant_limit(state, self.model, tol, case=case)
            outcomes.extend(_outcome(state, outcome.impulses, velocity, tol))
        return tuple(outcomes)


#: The impact laws by config name.
IMPACT_LAWS: dict[str, type[AbstractImpactLaw]] = {
    "lcp": NewtonImpact,
    "darboux_keller": DarbouxKellerImpact,
    "compliant_limit": CompliantLimitImpact,
}
