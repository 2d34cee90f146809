"""Moreau–Jean time stepping of ``B`` systems of one class together: the same scheme as
:func:`~regcontact.rigid.moreau_jean`, run for a sweep (a map over ``μ``, ``φ₀``, … of whole rigid motions).

One system's step is a problem of ``2k`` unknowns solved in about 90 µs of Python and numpy dispatch; ``B``
systems stepped one by one pay that ``B`` times per step. Here, per step, the ``B`` systems' ``M, h, W, g_n``
come from one jitted ``vmap`` of the system's functions over its stacked leaves, and the ``B × 4^k`` mode
combinations (:mod:`regcontact.rigid._formulations.contact_modes`) are solved in one ``np.linalg.solve`` call,
checked, collapsed onto distinct reactions, labelled and selected
(:mod:`regcontact.rigid._formulations.selection_rules`) with masks over the
batch. Every operation is the one-system code's, applied per lane in the same order, so each lane repeats
:func:`~regcontact.rigid.moreau_jean` to round-off (bit for bit on the tested cases).

What is not vectorised goes through the one-system step
(:func:`~regcontact.rigid._integrators.moreau_jean.moreau_jean_step_arrays`) for that lane only, counted in
``statistics.serial_steps``: the ``"lemke"`` rule on a step with several solutions (Lemke's pivoting is
sequential), and a step where no mode combination is admissible (the LCP enumeration's fallback). Mode combinations
with a singular system (the two-point rod sticking flat) take their minimum-norm solution by ``lstsq``
one by one, as in the one-system code.
"""

from __future__ import annotations

import time as clock
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from regcontact.rigid._formulations.contact_modes import _admissible, _templates, mode_systems_regular
from regcontact.rigid._formulations.selection_rules import SelectionRule, check_selection_rule
from regcontact.rigid._formulations.solutions import CONTACT_LABELS, ContactLabel
from regcontact.rigid._integrators.moreau_jean import moreau_jean_step_arrays
from regcontact.rigid._integrators.trajectory import RigidTrajectory, TrajectoryStatistics, check_positive
from regcontact.rigid._state import SystemSnapshots
from regcontact.systems.system import AbstractSystem

__all__ = ["moreau_jean_batch"]


class _Step(NamedTuple):
    """The step's answer per lane: reactions ``(B, k, 2)``, ``v'`` ``(B, n)``, mode codes ``(B, k)`` (indices into
    ``F, T, S+, S−``), the number of distinct solutions ``(B,)`` and which lanes still need the one-system step."""

    reactions: NDArray[np.float64]
    velocity: NDArray[np.float64]
    modes: NDArray[np.int_]
    solutions: NDArray[np.int_]
    serial: NDArray[np.bool_]


def _batch_step(
    M_inv: NDArray[np.float64],
    h: NDArray[np.float64],
    W: NDArray[np.float64],
    gaps: NDArray[np.float64],
    v: NDArray[np.float64],
    mu: NDArray[np.float64],
    combos: NDArray[np.int_],
    rows_of_G: NDArray[np.float64],
    constant: NDArray[np.float64],
    dt: float,
    rule: SelectionRule,
    tol: float,
) -> _Step:
    """:func:`~regcontact.rigid._integrators.moreau_jean.moreau_jean_step_arrays` and
    :func:`~regcontact.rigid.law_solutions_by_mode` over a batch: the same operations per lane."""
    B, k = mu.shape
    C = combos.shape[0]
    free_velocity = v + dt * (M_inv @ h[..., None])[..., 0]
    response = M_inv @ np.swapaxes(W, 1, 2)  # (B, n, 2k)
    G = W @ response
    b = (W @ free_velocity[..., None])[..., 0]
    b[:, 0::2] += gaps / dt

    # every mode combination of every lane: (B, C, 2k, 2k) systems
    A = rows_of_G[None, :, :, None] * G[:, None] + constant
    r = -rows_of_G * b[:, None]
    norm_G = np.maximum(np.abs(G).sum(axis=2).max(axis=1), 1e-300)
    norm_b = np.abs(b).max(axis=1)
    scale = np.abs(A).max(axis=(2, 3))
    regular = mode_systems_regular(A, rows_of_G, constant, norm_G)
    if regular.all():
        reactions = np.linalg.solve(A, r[..., None])[..., 0]
    else:
        reactions = np.full(r.shape, np.nan)
        reactions[regular] = np.linalg.solve(A[regular], r[regular][..., None])[..., 0]
        for lane, c in np.argwhere(~regular):
            x, *_ = np.linalg.lstsq(A[lane, c], r[lane, c], rcond=None)
            residual = np.abs(A[lane, c] @ x - r[lane, c]).max()
            if residual <= tol * (scale[lane, c] * np.abs(x).max() + np.abs(r[lane, c]).max()):
                reactions[lane, c] = x
    rates = reactions @ np.swapaxes(G, 1, 2) + b[:, None]
    admissible = _admissible(
        np.asarray(reactions.reshape(B, C, k, 2), dtype=np.float64),
        np.asarray(rates.reshape(B, C, k, 2), dtype=np.float64),
        combos,
        mu[:, None, :],
        norm_G[:, None, None],
        norm_b[:, None, None],
        tol,
    )

    # collapse onto distinct reactions, keeping the first of each cluster in combination order
    reaction_scale = norm_b / norm_G
    with np.errstate(invalid="ignore"):
        size_here = np.maximum(np.maximum(np.abs(reactions).max(axis=2), reaction_scale[:, None]), 1e-300)
        distance = np.abs(reactions[:, :, None, :] - reactions[:, None, :, :]).max(axis=3)  # (B, C, C)
        close = distance <= 1e2 * tol * size_here[:, :, None]
    kept = np.zeros((B, C), dtype=bool)
    for c in range(C):
        kept[:, c] = admissible[:, c] & ~(kept[:, :c] & close[:, c, :c]).any(axis=1)
    count = kept.sum(axis=1)

    # labels, as contact_modes._labels: from the rates at each reaction
    size = np.abs(reactions).max(axis=2)  # (B, C)
    reaction_zero = tol * np.maximum(size, reaction_scale[:, None])
    slip_zero = tol * (norm_G[:, None] * size + norm_b[:, None])
    u = (G[:, None] @ reactions[..., None])[..., 0] + b[:, None]
    lam_n, u_t = reactions[:, :, 0::2], u[:, :, 1::2]
    with np.errstate(invalid="ignore"):
        free = (lam_n <= reaction_zero[..., None]) & (np.abs(reactions[:, :, 1::2]) <= reaction_zero[..., None])
        labels = np.where(
            free,
            0,
            np.where(np.abs(u_t) <= slip_zero[..., None], 1, np.where(u_t > 0, 2, 3)),
        )

    # selection: the rule's two criteria over the kept solutions, then the smallest reaction norm
    velocities = free_velocity[:, None] + (reactions[:, :, None, :] @ np.swapaxes(response, 1, 2)[:, None])[:, :, 0]
    mass = np.linalg.inv(M_inv)
    impulse = reactions[:, :, 0::2].sum(axis=2)
    energy = 0.5 * np.einsum("bci,bij,bcj->bc", velocities, mass, velocities)
    ambiguous = np.flatnonzero(count > 1)
    for size_of_set in np.unique(count[ambiguous]):
        # as the one-system step: v' and energies of a lane's distinct solutions from one (count × 2k) product
        lanes = ambiguous[count[ambiguous] == size_of_set]
        which = np.nonzero(kept[lanes])[1].reshape(lanes.shape[0], size_of_set)
        found = reactions[lanes[:, None], which]
        found_velocities = free_velocity[lanes][:, None] + found @ np.swapaxes(response[lanes], 1, 2)
        velocities[lanes[:, None], which] = found_velocities
        energy[lanes[:, None], which] = 0.5 * np.einsum(
            "lsi,lij,lsj->ls", found_velocities, mass[lanes], found_velocities
        )
    norms = np.sqrt((reactions[:, :, None, :] @ reactions[..., None])[:, :, 0, 0])  # as np.linalg.norm: a dot
    first, second = (impulse, energy) if rule != "least_energy" else (energy, impulse)
    candidates = kept.copy()
    with np.errstate(invalid="ignore"):
        for criterion in (first, second):
            least = np.where(candidates, criterion, np.inf).min(axis=1)
            spread = np.maximum(np.where(candidates, np.abs(criterion), 0.0).max(axis=1), 1e-300)
            candidates &= criterion <= (least + 1e-12 * spread)[:, None]
    chosen = np.argmin(np.where(candidates, norms, np.inf), axis=1)
    every = np.arange(B)
    serial = (count == 0) | ((rule == "lemke") & (count > 1))
    return _Step(
        reactions[every, chosen].reshape(B, k, 2),
        velocities[every, chosen],
        labels[every, chosen],
        count,
        serial,
    )


def moreau_jean_batch(
    systems: Sequence[AbstractSystem], t_end: float, dt: float, selection: str = "painleve", tol: float = 1e-9
) -> list[RigidTrajectory]:
    """:func:`~regcontact.rigid.moreau_jean` for each of ``systems`` (one class, from their initial states),
    stepped together: one :class:`RigidTrajectory` per system, equal to the one-system run.

    ``statistics`` are per system (its ambiguous steps, its ``serial_steps``); ``wall_time`` is the batch's wall
    time divided by ``B``, each system's share. ``ValueError`` for ``dt ≤ 0``, ``t_end ≤ 0``, an unknown
    ``selection``, no systems or systems of different classes.
    """
    dt = check_positive("dt", dt)
    t_end = check_positive("t_end", t_end)
    rule = check_selection_rule(selection)
    if len(systems) == 0:
        raise ValueError("systems: expected at least one system")
    snapshots = SystemSnapshots(systems)
    (q, v), mu = snapshots.initial_state, snapshots.mu
    B, k = mu.shape
    templates = [_templates(mu[lane]) for lane in range(B)]
    combos, rows_of_G = templates[0][0], templates[0][1]
    constant = np.stack([template[2] for template in templates])
    steps = int(np.ceil(t_end / dt - 1e-9))
    times = np.minimum(np.arange(steps + 1) * dt, t_end)
    qs, vs = np.empty((steps + 1, B, q.shape[1])), np.empty((steps + 1, B, v.shape[1]))
    impulses = np.empty((steps, B, k, 2))
    codes = np.empty((steps, B, k), dtype=np.int8)
    serial_modes: dict[tuple[int, int], tuple[ContactLabel, ...]] = {}
    ambiguous = np.zeros(B, dtype=int)
    serial_steps = np.zeros(B, dtype=int)
    qs[0], vs[0] = q, v
    start = clock.perf_counter()
    for i in range(steps):
        h = times[i + 1] - times[i]
        M, force, W, _, gaps = snapshots.arrays(q, v, times[i])
        M_inv = np.asarray(np.linalg.inv(M), dtype=np.float64)
        step = _batch_step(M_inv, force, W, gaps, v, mu, combos, rows_of_G, constant, h, rule, tol)
        reactions, v, count = step.reactions, step.velocity, step.solutions
        for lane in map(int, np.flatnonzero(step.serial)):
            lane_reactions, v[lane], serial_modes[i, lane], count[lane] = moreau_jean_step_arrays(
                M_inv[lane], force[lane], W[lane], gaps[lane], vs[i, lane], mu[lane], h, rule, tol
            )
            reactions[lane] = lane_reactions
            serial_steps[lane] += 1
        q = q + h * v
        qs[i + 1], vs[i + 1], impulses[i], codes[i] = q, v, reactions, step.modes
        ambiguous += count > 1
    wall_time = (clock.perf_counter() - start) / B
    trajectories = []
    # each step's mode codes as one base-4 number per lane, read through a table of the 4^k label tuples
    table = [tuple(CONTACT_LABELS[code] for code in combo) for combo in combos]
    encoded = (codes.astype(np.int64) * 4 ** np.arange(k - 1, -1, -1)).sum(axis=2)
    for lane in range(B):
        labels = [table[number] for number in encoded[:, lane].tolist()]
        for step_index, lane_of_step in serial_modes:
            if lane_of_step == lane:
                labels[step_index] = serial_modes[step_index, lane_of_step]
        modes = tuple(labels)
        statistics = TrajectoryStatistics(
            steps=steps,
            lcp_solves=steps,
            events=0,
            ambiguous_steps=int(ambiguous[lane]),
            wall_time=wall_time,
            serial_steps=int(serial_steps[lane]),
        )
        trajectories.append(
            RigidTrajectory(
                f"moreau_jean[{rule}]",
                times,
                qs[:, lane].copy(),
                vs[:, lane].copy(),
                modes,
                impulses[:, lane].copy(),
                statistics,
            )
        )
    return trajectories
