"""Which of several solutions of a step's contact problem a rigid integrator continues with.

A time step's LCP may have several solutions (Preclik Sec. 4.2: three). The rule is a parameter of the
integrators, one of :data:`SELECTION_RULES`:

``"painleve"``
    the least impulsive solution: the one with the smallest total normal impulse ``Σ_i Λ_n,i``. If the
    zero impulse is admissible (the step can be taken with no reaction: open or separating contacts) that is
    it; a step with a single solution gets that one; of the three solutions of Sec. 4.2 it is the sliding one,
    whose impulse ``δt λ̃`` tends to zero with ``δt`` (the non-impulsive, force-like solution), not the
    sticking ``δt λ̃ → Λ``. Painlevé's principle: no impulse where a motion without one is possible. Ties
    (equal normal impulses to 1e-12 relative) go to the smaller kinetic energy after the step.
``"lemke"``
    the solution Lemke's method (:func:`~regcontact.rigid.lcp._lemke`, covering vector of ones, lexicographic
    degeneracy resolution) returns on the same problem; the enumerated solution nearest to it is taken, so the
    modes and labels are the enumeration's. If Lemke's method fails (ray termination, pivot limit) the rule
    falls back on ``"painleve"`` and counts it.
``"least_energy"``
    the solution with the smallest kinetic energy ``½ v'ᵀ M v'`` after the step (Preclik Fig. 3: the sticking
    impulse minimises it); ties go to the smaller total normal impulse.

Solutions tied on both criteria (a statically indeterminate contact set: the two-point rod landing flat, whose
two ends can squeeze each other by opposite friction impulses at no cost) go to the smallest Euclidean norm of
the reactions — no internal squeeze; the mode enumeration's minimum-norm point of such a continuum is one of the
candidates.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
from numpy.typing import NDArray

__all__ = ["SELECTION_RULES", "SelectionRule", "check_selection_rule", "select_solution"]

SelectionRule = Literal["painleve", "lemke", "least_energy"]
SELECTION_RULES: tuple[SelectionRule, ...] = ("painleve", "lemke", "least_energy")


def check_selection_rule(selection: str) -> SelectionRule:
    """``selection`` if it names a rule, else ``ValueError`` naming the parameter."""
    if selection not in SELECTION_RULES:
        raise ValueError(f"selection = {selection!r}: expected one of {', '.join(SELECTION_RULES)}")
    return selection


def select_solution(
    rule: SelectionRule,
    normal_impulses: Sequence[float],
    energies: Sequence[float],
    reactions: Sequence[NDArray[np.float64]],
    lemke_reaction: Callable[[], NDArray[np.float64] | None] | None = None,
) -> int:
    """Index of the solution the rule picks among candidates given by their total normal impulse, kinetic
    energy after the step and reactions; ``lemke_reaction`` computes Lemke's answer (``None`` if it fails)."""
    count = len(normal_impulses)
    if count == 1:
        return 0
    impulse = np.asarray(normal_impulses, dtype=float)
    energy = np.asarray(energies, dtype=float)
    if rule == "lemke" and lemke_reaction is not None:
        target = lemke_reaction()
        if target is not None:
            return int(np.argmin([np.abs(np.asarray(r) - target).max() for r in reactions]))
    first, second = (impulse, energy) if rule != "least_energy" else (energy, impulse)
    norms = np.array([np.linalg.norm(r) for r in reactions])
    candidates = np.arange(count)
    for criterion in (first, second):
        values = criterion[candidates]
        scale = max(np.abs(values).max(), 1e-300)
        candidates = candidates[values <= values.min() + 1e-12 * scale]
    return int(candidates[np.argmin(norms[candidates])])
