"""Moreau–Jean time stepping of many systems at once: the per-step contact problems batched across cases.

:func:`~regcontact.rigid.moreau_jean` steps one system on the host, about 90 µs of Python and numpy dispatch a
step. A sweep of whole rigid motions (a map over μ, φ₀, …) would pay that per system per step. Here ``B``
systems of one class step together: per step, one jitted, vmapped evaluation of every system's ``M, h, W, g_n``,
one batched inverse, and the ``4^k`` contact-mode systems of every lane (:mod:`regcontact.rigid.contact_modes`)
in one ``np.linalg.solve`` call with the admissibility checks as masks.

A lane whose step is not the common case — a singular mode system (a statically indeterminate contact set), no
admissible mode or more than one (several solutions: the selection rule decides) — is stepped by the one-system
code, :func:`~regcontact.rigid.moreau_jean.moreau_jean_step_arrays`, on the same arrays, so every rule applies
unchanged; ``statistics.fallback_steps`` counts those steps per lane. The common case computes what
:func:`~regcontact.rigid.contact_modes.law_solutions_by_mode` computes for a single admissible mode, in the same
order of operations; the trajectories equal :func:`~regcontact.rigid.moreau_jean`'s to round-off (tested).
"""

from __future__ import annotations

import time as clock
from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import jax.tree_util as jtu
import numpy as np
from numpy.typing import NDArray

from regcontact.rigid.contact_modes import _templates
from regcontact.rigid.moreau_jean import moreau_jean_step_arrays
from regcontact.rigid.multi_contact import ContactLabel
from regcontact.rigid.selection_rules import check_selection_rule
from regcontact.rigid.trajectory import RigidTrajectory, TrajectoryStatistics, check_positive

__all__ = ["moreau_jean_batch"]

_LABELS: tuple[ContactLabel, ...] = ("F", "T", "S+", "S-")


def _contact_data(system: Any, q: jax.Array, v: jax.Array, t: jax.Array) -> tuple[jax.Array, ...]:
    return system.mass_matrix(q), system.forces(q, v, t), system.jacobians(q), system.gaps(q)[:, 0]


_batched_contact_data = jax.jit(jax.vmap(_contact_data))


def _unique_solutions(
    G: NDArray[np.float64], b: NDArray[np.float64], mu: NDArray[np.float64], tol: float
) -> tuple[NDArray[np.float64], NDArray[np.int_], NDArray[np.bool_]]:
    """For each lane ``(B, 2k, 2k)``, ``(B, 2k)``: the reaction of its one admissible mode combination ``(B, 2k)``,
    its labels ``(B, k)`` (indices of ``F, T, S+, S−``), and whether the lane is that common case."""
    lanes, size = b.shape
    k = size // 2
    combos = _templates(mu[0])[0]
    rows = [_templates(m) for m in mu]  # cached per μ
    rows_of_G = np.stack([r[1] for r in rows])
    constant = np.stack([r[2] for r in rows])
    A = rows_of_G[:, :, :, None] * G[:, None] + constant
    r = -rows_of_G * b[:, None]
    norm_G = np.maximum(np.abs(G).sum(axis=2).max(axis=1), 1e-300)
    norm_b = np.abs(b).max(axis=1)
    scale = np.abs(A).max(axis=(2, 3))
    regular = np.abs(np.linalg.det(A / scale[..., None, None])) > 1e-12
    simple = regular.all(axis=1)
    reactions = np.full(r.shape, np.nan)
    reactions[simple] = np.linalg.solve(A[simple], r[simple][..., None])[..., 0]
    lam = reactions.reshape(lanes, -1, k, 2)
    u = (reactions @ np.swapaxes(G, 1, 2) + b[:, None]).reshape(lanes, -1, k, 2)
    size_c = np.abs(lam).max(axis=(2, 3))[..., None]
    reaction_zero = tol * np.maximum(size_c, (norm_b / norm_G)[:, None, None])
    rate_zero = tol * (norm_G[:, None, None] * size_c + norm_b[:, None, None])
    lam_n, lam_t, u_n, u_t = lam[..., 0], lam[..., 1], u[..., 0], u[..., 1]
    with np.errstate(invalid="ignore"):  # NaN (a singular lane, not used) compares False
        ok = np.where(combos == 0, u_n >= -rate_zero, lam_n >= -reaction_zero)
        ok &= (combos != 1) | (np.abs(lam_t) <= mu[:, None, :] * lam_n + reaction_zero)
        ok &= (combos != 2) | (u_t >= -rate_zero)
        ok &= (combos != 3) | (u_t <= rate_zero)
    admissible = ok.all(axis=2) & np.isfinite(size_c[..., 0])
    common = simple & (admissible.sum(axis=1) == 1)
    chosen = np.argmax(admissible, axis=1)
    reaction = reactions[np.arange(lanes), chosen]
    # Labels as contact_modes._labels gives them for the one distinct reaction.
    one = reaction.reshape(lanes, k, 2)
    size_1 = np.abs(one).max(axis=(1, 2))
    zero_1 = tol * np.maximum(size_1, norm_b / norm_G)
    slip_1 = tol * (norm_G * size_1 + norm_b)
    rates = (np.einsum("bij,bj->bi", G, reaction) + b).reshape(lanes, k, 2)
    labels = np.where(
        one[..., 0] <= zero_1[:, None],
        0,
        np.where(np.abs(rates[..., 1]) <= slip_1[:, None], 1, np.where(rates[..., 1] > 0, 2, 3)),
    )
    return reaction, labels, common


def moreau_jean_batch(
    systems: Sequence[Any], t_end: float, dt: float, selection: str = "painleve", tol: float = 1e-9
) -> list[RigidTrajectory]:
    """:func:`~regcontact.rigid.moreau_jean` of every system (one class, from its initial state) with one step
    ``dt`` to ``t_end``, the per-step work batched across the systems (module docstring)."""
    dt = check_positive("dt", dt)
    t_end = check_positive("t_end", t_end)
    rule = check_selection_rule(selection)
    if len({type(system) for system in systems}) != 1:
        raise ValueError("systems: expected systems of one class (their arrays are stacked)")
    batch = jtu.tree_map(lambda *leaves: jnp.stack([jnp.asarray(leaf) for leaf in leaves]), *systems)
    starts = [system.initial_state() for system in systems]
    q = np.array([np.asarray(q0, dtype=float) for q0, _ in starts])
    v = np.array([np.asarray(v0, dtype=float) for _, v0 in starts])
    mu = np.array([np.asarray(system.friction_coefficients, dtype=float) for system in systems])
    lanes, n = q.shape
    k = mu.shape[1]
    steps = int(np.ceil(t_end / dt - 1e-9))
    times = np.minimum(np.arange(steps + 1) * dt, t_end)
    qs, vs = np.empty((lanes, steps + 1, n)), np.empty((lanes, steps + 1, n))
    impulses = np.empty((lanes, steps, k, 2))
    labels = np.empty((lanes, steps, k), dtype=int)
    qs[:, 0], vs[:, 0] = q, v
    ambiguous, fallback = np.zeros(lanes, int), np.zeros(lanes, int)
    start = clock.perf_counter()
    for i in range(steps):
        h = times[i + 1] - times[i]
        data = _batched_contact_data(batch, q, v, np.full(lanes, times[i]))
        M, force, jacobians, gaps = (np.asarray(x, dtype=np.float64) for x in data)
        W = jacobians.reshape(lanes, 2 * k, n)
        M_inv = np.linalg.inv(M)
        free_velocity = v + h * np.einsum("bij,bj->bi", M_inv, force)
        response = M_inv @ np.swapaxes(W, 1, 2)
        G = W @ response
        b = np.einsum("bij,bj->bi", W, free_velocity)
        b[:, 0::2] += gaps / h
        reaction, step_labels, common = _unique_solutions(G, b, mu, tol)
        v = free_velocity + np.einsum("bij,bj->bi", response, reaction)
        for lane in np.flatnonzero(~common):  # the one-system step, every rule as it is
            lam, v[lane], modes, count = moreau_jean_step_arrays(
                M_inv[lane], force[lane], W[lane], gaps[lane], vs[lane, i], mu[lane], h, rule, tol
            )
            reaction[lane] = lam.reshape(-1)
            step_labels[lane] = [_LABELS.index(mode) for mode in modes]
            ambiguous[lane] += count > 1
            fallback[lane] += 1
        q = q + h * v
        qs[:, i + 1], vs[:, i + 1], impulses[:, i], labels[:, i] = q, v, reaction.reshape(lanes, k, 2), step_labels
    wall = (clock.perf_counter() - start) / lanes
    return [
        RigidTrajectory(
            f"moreau_jean[{rule}]",
            times,
            qs[lane],
            vs[lane],
            tuple(tuple(_LABELS[m] for m in step) for step in labels[lane]),
            impulses[lane],
            TrajectoryStatistics(
                steps=steps,
                lcp_solves=steps,
                events=0,
                ambiguous_steps=int(ambiguous[lane]),
                wall_time=wall,
                fallback_steps=int(fallback[lane]),
            ),
        )
        for lane in range(lanes)
    ]
