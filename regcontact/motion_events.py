"""Events of a sampled motion of any integrator — contact-mode changes and impulses read off its interval
impulses — and when two runs' impulses agree (numpy; ``docs/rigid_trajectories.md``, "Whole-motion
comparison")."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "EVENT_KINDS",
    "IMPULSE_FACTOR",
    "Impulse",
    "impulses_agree",
    "impulse_events",
    "mode_change_events",
    "mode_changes",
    "read_impulses",
    "run_length",
    "smooth_force_level",
]

#: Event kinds by (old mode, new mode) of one contact (``S`` stands for either slip direction).
EVENT_KINDS = {
    ("T", "S"): "slip_onset",
    ("S", "T"): "stick",
    ("S", "S"): "reversal",
    ("T", "F"): "lift_off",
    ("S", "F"): "lift_off",
    ("F", "T"): "landing",
    ("F", "S"): "landing",
}

#: ``κ``: an interval's normal impulse above ``κ F Δ`` is an impulse (``F`` the run's smooth force level).
IMPULSE_FACTOR = 10.0


def _base(label: str) -> str:
    return "S" if label.startswith("S") else label


def run_length(labels: Sequence[str] | NDArray[np.str_]) -> list[str]:
    """``["T", "T", "S-"]`` → ``["T", "S-"]``: one entry per run of equal labels."""
    runs: list[str] = []
    for label in labels:
        if not runs or runs[-1] != label:
            runs.append(str(label))
    return runs


def mode_changes(times: NDArray[np.float64], modes: NDArray[np.str_]) -> list[tuple[int, int, str]]:
    """``(index of the first sample in the new mode, contact, kind)`` of every mode change, in time order."""
    found = []
    for contact in range(modes.shape[1]):
        column = modes[:, contact]
        for i in np.flatnonzero(column[1:] != column[:-1]) + 1:
            kind = EVENT_KINDS.get((_base(column[i - 1]), _base(column[i])))
            if kind is not None:
                found.append((int(i), contact, kind))
    return sorted(found, key=lambda item: (times[item[0]], item[1]))


def mode_change_events(
    times: NDArray[np.float64], modes: NDArray[np.str_], t_min: float
) -> tuple[tuple[float, int, str], ...]:
    """``(time, contact, kind)`` of the mode changes at ``t ≥ t_min``, each at the first sample of the new mode."""
    return tuple(
        (float(times[i]), contact, kind) for i, contact, kind in mode_changes(times, modes) if times[i] >= t_min
    )


@dataclasses.dataclass(frozen=True)
class Impulse:
    """An impulse at ``contact``: its ``time`` (impulse-weighted centre), ``size`` ``(P_n, P_t)``."""

    time: float
    contact: int
    size: tuple[float, float]

    @property
    def magnitude(self) -> float:
        """``‖(P_n, P_t)‖``."""
        return float(np.hypot(*self.size))

    def text(self) -> str:
        return f"{self.time:.6g} c{self.contact + 1} ({self.size[0]:.4g}, {self.size[1]:.4g})"


def smooth_force_level(spans: NDArray[np.float64], impulses: NDArray[np.float64], floor: float) -> float:
    """``F``: the median total normal force ``Σ_c P_n,c / Δ`` over the run's intervals of positive length that
    carry force, and at least ``floor`` (the system's slow force scale, for a run that barely touches).

    A median, so that the few impulsive intervals do not set it: it is the force of the run's contact phases."""
    normal = impulses[..., 0].sum(axis=-1)
    carrying = (spans > 0) & (normal > 0)
    if not carrying.any():
        return floor
    return max(floor, float(np.median(normal[carrying] / spans[carrying])))


def impulse_events(
    starts: NDArray[np.float64],
    spans: NDArray[np.float64],
    impulses: NDArray[np.float64],
    force_level: float,
    factor: float = IMPULSE_FACTOR,
) -> tuple[Impulse, ...]:
    """The impulses of a run, in time order.

    An interval carries an impulse at a contact when its normal impulse exceeds ``factor · force_level · Δ``,
    what the run's smooth force can deliver over it (an interval of length zero: whenever it is positive);
    consecutive flagged intervals of one contact are one impulse, its size their sum and its time their
    impulse-weighted centre.

    Args:
        starts: the intervals' start times ``t_i``, shape ``(N,)``.
        spans: their lengths ``Δ_i`` (zero for an impulse applied at one instant).
        impulses: the contact impulse of each interval, ``∫λ dt`` over it, shape ``(N, k, 2)`` (normal, tangential).
        force_level: the run's smooth force level (:func:`smooth_force_level`).
        factor: ``κ`` (default :data:`IMPULSE_FACTOR`).

    Returns:
        The :class:`Impulse` objects, sorted by time and contact.
    """
    flagged = impulses[..., 0] > factor * force_level * spans[:, None]
    found = []
    for contact in range(impulses.shape[1]):
        column = flagged[:, contact]
        edges = np.flatnonzero(np.diff(np.concatenate([[0], column.astype(int), [0]])))
        for first, stop in zip(edges[0::2], edges[1::2]):
            window = impulses[first:stop, contact]
            normal = window[:, 0]
            centres = starts[first:stop] + 0.5 * spans[first:stop]
            time = float(np.sum(normal * centres) / np.sum(normal))
            size = window.sum(axis=0)
            found.append(Impulse(time, contact, (float(size[0]), float(size[1]))))
    return tuple(sorted(found, key=lambda impulse: (impulse.time, impulse.contact)))


def read_impulses(
    starts: NDArray[np.float64],
    spans: NDArray[np.float64],
    impulses: NDArray[np.float64],
    step: float,
    t_min: float,
    floor: float,
    smallest: float = 0.0,
) -> tuple[tuple[Impulse, ...], float]:
    """A run's impulses at ``t ≥ t_min`` of size ``‖P‖ ≥ smallest``, and its resolution ``κ F step``; ``F`` is
    :func:`smooth_force_level` over the intervals from ``t_min`` on, at least ``floor``."""
    after = starts >= t_min
    level = smooth_force_level(spans[after], impulses[after], floor)
    found = impulse_events(starts, spans, impulses, level)
    kept = tuple(p for p in found if p.time >= t_min and p.magnitude >= smallest)
    return kept, IMPULSE_FACTOR * level * step


def impulses_agree(
    run: Sequence[Impulse],
    reference: Sequence[Impulse],
    resolution: float,
    tolerance: float,
    window: float,
) -> str | None:
    """``None`` if ``run``'s impulses are the ``reference``'s, else why not.

    Compared contact by contact (impulses at several contacts at one instant come in either order) at the run's
    ``resolution`` (``κ F Δ``): reference impulses no larger than it are not asked of the run; the others must
    appear in order at the same contact, within ``window`` in time, and of the same size to within ``tolerance``
    of the reference's size plus the resolution, ``‖P − P_ref‖ ≤ tolerance ‖P_ref‖ + κ F Δ``."""
    wanted = [p for p in reference if p.magnitude > resolution]
    for contact in sorted({p.contact for p in [*run, *wanted]}):
        mine = [p for p in run if p.contact == contact]
        theirs = [p for p in wanted if p.contact == contact]
        if len(mine) != len(theirs):
            found = ", ".join(p.text() for p in mine) or "none"
            asked = ", ".join(p.text() for p in theirs) or "none"
            return f"impulses {found} where the reference has {asked}"
        for one, other in zip(mine, theirs):
            difference = float(np.hypot(one.size[0] - other.size[0], one.size[1] - other.size[1]))
            if abs(one.time - other.time) > window or difference > tolerance * other.magnitude + resolution:
                return f"impulse {one.text()}, the reference's {other.text()}"
    return None
