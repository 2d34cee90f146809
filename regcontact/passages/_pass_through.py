"""One entry for compliant runs through the end of a rigid slip, planar (a jam) or spatial (a crossing)."""

from __future__ import annotations

from collections.abc import Callable
from typing import overload

from jaxtyping import ArrayLike

from regcontact.contact import AbstractPeakNormalLaw, ContactModel
from regcontact.passages._crossing import CrossingPassage, pass_crossing
from regcontact.passages._jam import JamPassage, pass_jam
from regcontact.passages._passage import AbstractPassage
from regcontact.rigid import CrossingReference, JamReference
from regcontact.systems.system import AbstractSystem

__all__ = ["pass_through"]

#: Per tangent dimension: the runs and the rigid reference they start from (a planar slip ends at a jam, a spatial
#: one crosses ``p = 0``).
_PASSAGES: dict[int, tuple[Callable[..., AbstractPassage], type]] = {
    1: (pass_jam, JamReference),
    2: (pass_crossing, CrossingReference),
}


@overload
def pass_through(
    system: AbstractSystem,
    contact: ContactModel,
    alphas: ArrayLike,
    reference: JamReference,
    window: float = 0.3,
    samples: int | None = None,
    rtol: float = 1e-8,
    atol: float | None = None,
    max_steps: int = 200_000,
) -> JamPassage: ...


@overload
def pass_through(
    system: AbstractSystem,
    contact: ContactModel,
    alphas: ArrayLike,
    reference: CrossingReference,
    window: float = 0.3,
    samples: int | None = None,
    rtol: float = 1e-8,
    atol: float | None = None,
    max_steps: int = 200_000,
) -> CrossingPassage: ...


def pass_through(
    system: AbstractSystem,
    contact: ContactModel,
    alphas: ArrayLike,
    reference: JamReference | CrossingReference,
    window: float = 0.3,
    samples: int | None = None,
    rtol: float = 1e-8,
    atol: float | None = None,
    max_steps: int = 200_000,
) -> AbstractPassage:
    """Compliant runs of ``system`` (one contact, slipping at the start) through the end of its rigid slip, one
    jit-compiled vmap over ``alphas``.

    A planar contact's slip ends at a jam (``reference`` from :func:`~regcontact.rigid.jam_reference`): each run is
    integrated until the contact opens or ``t_jam + window`` and sampled around the jam (:class:`JamPassage`). A
    spatial one's crosses ``p = 0`` (:func:`~regcontact.rigid.crossing_reference`): each run goes to
    ``t* + window`` with no lift-off event and is sampled at the end of the impulse (:class:`CrossingPassage`).
    ``passage.classify(system, reference)`` says what followed in each run.

    Arguments:
        system: a one-contact system.
        contact: the contact laws and their α-exponents (a normal law whose force follows from the state).
        alphas: the stiffness multipliers, positive.
        reference: the rigid prediction at the end of the slip, of the kind the system's tangent dimension takes.
        window: how long after the end of the slip each run goes on.
        samples: the samples of each run (default 400 at a jam, 300 at a crossing).
        rtol: the solver's relative tolerance.
        atol: its absolute tolerance (default 1e-10 at a jam, 1e-12 at a crossing).
        max_steps: its step budget.

    Returns:
        A :class:`JamPassage` or a :class:`CrossingPassage`. Concrete arguments are checked first (``ValueError`` or
        ``TypeError`` in one line).

    Example:
        >>> reference = rc.rigid.jam_reference(rod)  # doctest: +SKIP
        >>> passage = pass_through(rod, rc.ContactModel(), [1e6, 1e8], reference)  # doctest: +SKIP
        >>> passage.classify(rod, reference).outcome_names  # doctest: +SKIP
        ['jump_into_stick', 'jump_into_stick']
    """
    if not isinstance(contact, ContactModel):
        raise TypeError(f"contact = {contact!r}: expected a ContactModel")
    if isinstance(contact.normal, AbstractPeakNormalLaw):
        raise TypeError(
            f"contact.normal = {type(contact.normal).__name__}: expected a law whose force follows from the state "
            "(the passages sample forces along the motion; a law that remembers its peak runs in `solve` with "
            "restart_at=('peak',))"
        )
    dim = type(system).TANGENT_DIM
    run, reference_class = _PASSAGES[dim]
    if not isinstance(reference, reference_class):
        raise TypeError(
            f"reference = {type(reference).__name__}: expected a {reference_class.__name__} for "
            f"{type(system).__name__} (TANGENT_DIM = {dim})"
        )
    options = {name: value for name, value in (("samples", samples), ("atol", atol)) if value is not None}
    return run(system, contact, alphas, reference, window=window, rtol=rtol, max_steps=max_steps, **options)
