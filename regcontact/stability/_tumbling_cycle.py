"""The leading-order cycle map of a planar body resting on two contacts that rocks itself off (Champneys & Várkonyi
Sec. 6.4, ``docs/impacts.md``): S+F (the slider slips, the pivot is free), a sticking impact of the pivot, FT (the
slider free, the rotation about the pivot), an impact of the slider that starts S+F again. At small speeds every
phase has the rest configuration's accelerations and lasts a time proportional to the speed, and the impacts
(Darboux–Keller, ``r = 0``) are homogeneous of degree one: the cycle is linear, and after the sticking impact the
velocity is one number (a planar body has three coordinates; two are fixed by the pivot), so its map is a
multiplier: above 1 the rocking grows, below 1 it dies out."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from jaxtyping import ArrayLike, Float
from numpy.typing import NDArray

from regcontact._argument_checks import check_type
from regcontact.rigid import ContactState, darboux_keller
from regcontact.stability._checks import check_values
from regcontact.systems.system import SYSTEM_EXPECTED, AbstractSystem

__all__ = ["TUMBLING_FAILURES", "TumblingCycle", "TumblingScan", "tumbling_cycle", "tumbling_multipliers"]

#: Where a cycle fails, by code (``TumblingScan.failure``; code 0: the cycle exists).
TUMBLING_FAILURES: tuple[str, ...] = (
    "",
    "S+F: the pivot does not fall back (or the slider has no normal force)",
    "FT: the slider does not fall back or the pivot slips",
    "the impact of the slider does not start S+F",
    "the impact of the pivot does not stick",
    "the impact of one contact draws the other one in",
)
_PHASES = ("S+F", "sticking impact of the pivot", "FT", "impact of the slider")
_FAILED_PHASE = (None, "S+F", "FT", "impact of the slider", "impact of the pivot", "impact")


@dataclasses.dataclass(frozen=True)
class TumblingCycle:
    """The cycle map of one body (:func:`tumbling_cycle`).

    Attributes:
        multiplier: the rotation about the pivot after a sticking impact of the pivot over the one before (NaN
            where the cycle does not exist).
        phases: the cycle's phases in order, starting with S+F; empty where it does not exist.
        failed: the phase or impact that is not the described one (``"S+F"``, ``"FT"``, ``"impact of the
            slider"``, ``"impact of the pivot"``), ``None`` where the cycle exists.
        reason: why it fails, or the phase sequence in words.
        slide_normal: ``b₂``, the pivot's normal acceleration in S+F at rest (negative: it falls back).
        slide_slip: ``a₁``, the slider's slip acceleration in S+F at rest, along the slip.
    """

    multiplier: float
    phases: tuple[str, ...]
    failed: str | None
    reason: str
    slide_normal: float
    slide_slip: float

    @property
    def exists(self) -> bool:
        return self.failed is None


def _rows(state: ContactState, slider: int) -> NDArray[np.float64]:
    """``W`` with the slider's rows first (``n_s, t_s, n_p, t_p``)."""
    W = state.jacobian_matrix
    return W if slider == 0 else W[[2, 3, 0, 1]]


def _mode_accelerations(
    state: ContactState, slider: int = 0, slip: int = 1
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], dict[str, float]]:
    """``W`` (rows slider n, t, pivot n, t) and the generalised accelerations of S+F and FT at rest, with their
    forces."""
    M_inv = np.linalg.inv(np.asarray(state.mass_matrix))
    W, f = _rows(state, slider), np.asarray(state.applied_force)
    mu = float(state.mu[slider])
    direction = W[0] - mu * W[1] if slip == 1 else W[0] + mu * W[1]  # λ_t = −μ λ_n along the slip
    normal_1 = -(W[0] @ M_inv @ f) / (W[0] @ M_inv @ direction)
    slide = M_inv @ (f + direction * normal_1)
    pivot_rows = W[2:]
    forces_2 = -np.linalg.solve(pivot_rows @ M_inv @ pivot_rows.T, pivot_rows @ M_inv @ f)
    pivot = M_inv @ (f + pivot_rows.T @ forces_2)
    forces = {"normal_1": normal_1, "normal_2": forces_2[0], "tangential_2": forces_2[1]}
    return W, slide, pivot, forces


def _rotation_about_pivot(W: NDArray[np.float64]) -> tuple[NDArray[np.float64], int]:
    """The velocity that keeps the pivot at rest and lifts the slider (``W_p v = 0``, ``W_n,s v > 0``), and the
    coordinate it is measured in (its largest component, the last of equals)."""
    v = np.cross(W[2], W[3])
    v = v if W[0] @ v > 0 else -v
    size = np.abs(v)
    return v, int(len(v) - 1 - np.argmax(size[::-1]))


def tumbling_cycle(
    state: ContactState | AbstractSystem, slider: int = 0, slip: int = 1, cycles: int = 3
) -> TumblingCycle:
    """The leading-order cycle map of a planar body at rest on two closed contacts (Sec. 6.4) and its multiplier.

    The ``slider`` slips along ``slip`` (``+1``: forward, ``λ_t = −μ λ_n``) while the other contact, the pivot,
    is free (S+F); the pivot lands and sticks; the body rotates about it with the slider free (FT) until the
    slider lands; that impact must lift the pivot and start the slip again. Phases use the rest configuration's
    accelerations and last until the contact that left lands again (a time proportional to the speed); the
    impacts are :func:`~regcontact.rigid.darboux_keller`'s with ``r = 0``. The map starts from a rotation about
    the pivot and is applied ``cycles`` times (the map on that line is linear, so one cycle gives the multiplier;
    more check it).

    Args:
        state: the body at rest on both contacts (a system: at its initial configuration; only ``M``, ``W``,
            the applied force and ``μ`` are read), with three coordinates.
        slider: the contact that slips (0 or 1).
        slip: the direction of its slip, ``+1`` or ``−1``.
        cycles: how many cycles to apply.

    Returns:
        A :class:`TumblingCycle`: the multiplier (NaN where the cycle does not exist), the phases, which phase
        fails and why.

    Example:
        ```python
        body = TwoLeggedBody(legs=((0.1, -1), (0.6, -1)), mu=(0.11, 0.8), gyration=0.5, slope=math.radians(10))
        tumbling_cycle(body).multiplier  # 1.6732: the rocking grows
        ```
    """
    check_values(slip_sign=float(slip), cycles=float(cycles))
    if slider not in (0, 1) or slip not in (1, -1) or cycles < 1:
        raise ValueError(f"slider = {slider}, slip = {slip}, cycles = {cycles}: expected 0 or 1, ±1, ≥ 1")
    check_type("state", state, (ContactState, AbstractSystem), f"a ContactState or {SYSTEM_EXPECTED}")
    state = state if isinstance(state, ContactState) else ContactState.from_system(state)
    if state.num_contacts != 2 or state.velocity.shape[0] != 3:
        raise ValueError(
            f"tumbling_cycle: {state.num_contacts} contacts, {state.velocity.shape[0]} coordinates: expected a "
            "planar body with 2 contacts and 3 coordinates"
        )
    W, slide, pivot, forces = _mode_accelerations(state, slider, slip)
    slide_normal, slide_slip = float(W[2] @ slide), float(slip * (W[1] @ slide))

    def failure(code: int) -> TumblingCycle:
        return TumblingCycle(math.nan, (), _FAILED_PHASE[code], TUMBLING_FAILURES[code], slide_normal, slide_slip)

    if not forces["normal_1"] > 0 or not W[2] @ slide < 0:
        return failure(1)
    if not W[0] @ pivot < 0 or abs(forces["tangential_2"]) > float(state.mu[1 - slider]) * forces["normal_2"]:
        return failure(2)
    order = [0, 1, 2, 3] if slider == 0 else [2, 3, 0, 1]  # slider rows first, as W
    rest = dataclasses.replace(state, velocity=np.zeros(3))
    v, j = _rotation_about_pivot(W)
    start, multiplier = v[j], math.nan
    for _ in range(cycles):
        v = v + pivot * (-2.0 * (W[0] @ v) / (W[0] @ pivot))  # FT until the slider lands
        v = darboux_keller(dataclasses.replace(rest, velocity=v))[1]
        w = (state.jacobian_matrix @ v)[order]
        zero = 1e-9 * np.abs(w).max()
        if not (w[2] > zero and (slip * w[1] > zero or (abs(w[1]) <= zero and slide_slip > 0))):
            return failure(3)
        v = v + slide * (-2.0 * (W[2] @ v) / (W[2] @ slide))  # S+F until the pivot lands
        v = darboux_keller(dataclasses.replace(rest, velocity=v))[1]
        w = (state.jacobian_matrix @ v)[order]
        if not (abs(w[3]) <= 1e-9 * np.abs(w).max() and w[0] > 0):
            return failure(4)
        multiplier, start = v[j] / start, v[j]
    words = "S+F, sticking impact of the pivot, FT, impact of the slider"
    return TumblingCycle(float(multiplier), _PHASES, None, words, slide_normal, slide_slip)


@dataclasses.dataclass(frozen=True)
class TumblingScan:
    """The cycle map over a batch of bodies (:func:`tumbling_multipliers`), arrays of the batch's shape.

    Attributes:
        multiplier: as :attr:`TumblingCycle.multiplier` (NaN where the cycle does not exist).
        failure: where it fails, an index into :data:`TUMBLING_FAILURES` (0: the cycle exists).
        slide_normal: ``b₂``, the pivot's normal acceleration in S+F at rest.
        slide_slip: ``a₁``, the slider's slip acceleration in S+F at rest.
    """

    multiplier: NDArray[np.float64]
    failure: NDArray[np.int64]
    slide_normal: NDArray[np.float64]
    slide_slip: NDArray[np.float64]


def _dot(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.einsum("...i,...i->...", a, b)


def _plastic_impact(
    G: NDArray[np.float64], w: NDArray[np.float64], mu: NDArray[np.float64], i: int
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Darboux–Keller's ``r = 0`` impact at contact ``i`` alone, in closed form over a batch: slip (``λ_t =
    −μ σ λ_n``) until the slip stops or the contact does, then stick (``|G_tn| ≤ μ G_tt``) or slip reversed until
    the contact stops. ``G`` ``(..., 4, 4)``, ``w`` (``ġ``, rows ``n₁, t₁, n₂, t₂``) ``(..., 4)``; returns the
    contact velocities after it, the impulse ``(P_n, P_t)`` at contact ``i`` and the lowest normal velocity the
    other contact reaches during it (the impact is contact ``i``'s alone where that is ``≥ 0``)."""
    n, t = 2 * i, 2 * i + 1
    other = 2 * (1 - i)
    Gn, Gt = G[..., :, n], G[..., :, t]
    A, B = G[..., t, t], G[..., t, n]
    u0 = w[..., t]
    sigma = np.sign(u0)
    rate1 = Gn - (mu * sigma)[..., None] * Gt  # slip (no phase where u0 = 0)
    stops = (sigma != 0) & (sigma * rate1[..., t] < 0)
    p_slip = np.where(stops, -u0 / np.where(stops, rate1[..., t], 1.0), np.inf)
    p_stop = np.where(rate1[..., n] > 0, -w[..., n] / np.where(rate1[..., n] > 0, rate1[..., n], 1.0), np.inf)
    p1 = np.where(sigma == 0, 0.0, np.minimum(p_slip, p_stop))
    w1 = w + p1[..., None] * rate1
    w1[..., t] = np.where(p_slip <= p_stop, 0.0, w1[..., t])  # the slip stopped exactly
    sticks = np.abs(B) <= mu * A
    rate2 = np.where(
        sticks[..., None],
        Gn - (B / A)[..., None] * Gt,
        Gn - (mu * np.sign(B))[..., None] * Gt,
    )
    second = (sigma == 0) | (p_slip < p_stop)
    p2 = np.where(second & (rate2[..., n] > 0), -w1[..., n] / np.where(rate2[..., n] > 0, rate2[..., n], 1.0), 0.0)
    p2 = np.where(second & ~(rate2[..., n] > 0), np.inf, p2)
    after = w1 + p2[..., None] * rate2
    after[..., n] = np.where(np.isfinite(p1 + p2), 0.0, after[..., n])  # r = 0: the contact ends at rest
    lowest = np.minimum(np.minimum(w[..., other], w1[..., other]), after[..., other])
    ratio2 = np.where(sticks, -B / A, -mu * np.sign(B))
    tangential = -mu * sigma * p1 + np.where(p2 > 0, ratio2 * p2, 0.0)
    return after, np.stack([p1 + p2, tangential], axis=-1), lowest


def tumbling_multipliers(
    mass_matrix: Float[ArrayLike, "... 3 3"],
    jacobians: Float[ArrayLike, "... 2 2 3"],
    applied_force: Float[ArrayLike, "... 3"],
    mu: Float[ArrayLike, "... 2"],
    slider: int = 0,
    slip: int = 1,
) -> TumblingScan:
    """The cycle map of :func:`tumbling_cycle` over a batch of bodies at rest, in closed form and in one pass
    over the arrays (no loop over the bodies): for scans of where a body tumbles.

    Each impact is Darboux–Keller's ``r = 0`` at the contact that lands, alone: where the other contact's normal
    velocity would turn negative during it (it would take part, as :func:`~regcontact.rigid.darboux_keller`
    lets it), the body gets failure 5 rather than a number. Elsewhere the multipliers equal
    :func:`tumbling_cycle`'s to round-off.

    Args:
        mass_matrix: ``M`` of each body, ``(..., 3, 3)``.
        jacobians: ``W`` at the rest configuration, ``(..., 2, 2, 3)`` (contacts, rows normal and tangential).
        applied_force: ``h`` at rest, ``(..., 3)``.
        mu: the friction coefficients, ``(..., 2)``.
        slider: the contact that slips (0 or 1).
        slip: the direction of its slip, ``+1`` or ``−1``.

    Returns:
        A :class:`TumblingScan` over the batch shape.
    """
    check_values(mass_matrix=mass_matrix, jacobians=jacobians, applied_force=applied_force, mu=mu)
    if slider not in (0, 1) or slip not in (1, -1):
        raise ValueError(f"slider = {slider}, slip = {slip}: expected 0 or 1, and ±1")
    M = np.asarray(mass_matrix, dtype=float)
    J, f, mus = np.asarray(jacobians, dtype=float), np.asarray(applied_force, dtype=float), np.asarray(mu, dtype=float)
    shape = np.broadcast_shapes(M.shape[:-2], J.shape[:-3], f.shape[:-1], mus.shape[:-1])
    M, f = np.broadcast_to(M, (*shape, 3, 3)), np.broadcast_to(f, (*shape, 3))
    J, mus = np.broadcast_to(J, (*shape, 2, 2, 3)), np.broadcast_to(mus, (*shape, 2))
    if slider == 1:
        J, mus = J[..., ::-1, :, :], mus[..., ::-1]
    W = J.reshape(*shape, 4, 3)
    M_inv = np.linalg.inv(M)
    mv = lambda A, x: np.einsum("...ij,...j->...i", A, x)  # noqa: E731
    mu1, mu2 = mus[..., 0], mus[..., 1]
    direction = W[..., 0, :] - (slip * mu1)[..., None] * W[..., 1, :]
    normal_1 = -_dot(W[..., 0, :], mv(M_inv, f)) / _dot(W[..., 0, :], mv(M_inv, direction))
    slide = mv(M_inv, f + direction * normal_1[..., None])
    P = W[..., 2:, :]
    PM = np.einsum("...ij,...jk->...ik", P, M_inv)
    forces_2 = -np.linalg.solve(np.einsum("...ij,...kj->...ik", PM, P), mv(PM, f)[..., None])[..., 0]
    pivot = mv(M_inv, f + np.einsum("...ji,...j->...i", P, forces_2))
    slide_normal, slide_slip = _dot(W[..., 2, :], slide), slip * _dot(W[..., 1, :], slide)
    G = np.einsum("...ij,...jk,...lk->...il", W, M_inv, W)
    failure = np.zeros(shape, dtype=np.int64)
    fail = lambda code, where: np.where((failure == 0) & where, code, failure)  # noqa: E731
    failure = fail(1, ~(normal_1 > 0) | ~(slide_normal < 0))
    failure = fail(2, ~(_dot(W[..., 0, :], pivot) < 0) | (np.abs(forces_2[..., 1]) > mu2 * forces_2[..., 0]))
    v = np.cross(W[..., 2, :], W[..., 3, :])
    v = np.where((_dot(W[..., 0, :], v) > 0)[..., None], v, -v)
    start = v
    with np.errstate(divide="ignore", invalid="ignore"):
        v = v + pivot * (-2.0 * _dot(W[..., 0, :], v) / _dot(W[..., 0, :], pivot))[..., None]  # FT
        w, impulse, lowest = _plastic_impact(G, mv(W, v), mu1, 0)
        v = v + mv(M_inv, np.einsum("...ji,...j->...i", W[..., :2, :], impulse))
        zero = 1e-9 * np.abs(w).max(axis=-1)
        failure = fail(3, ~np.isfinite(impulse).all(axis=-1))
        failure = fail(5, lowest < -zero)
        starts_slip = (w[..., 2] > zero) & (
            (slip * w[..., 1] > zero) | ((np.abs(w[..., 1]) <= zero) & (slide_slip > 0))
        )
        failure = fail(3, ~starts_slip)
        v = v + slide * (-2.0 * _dot(W[..., 2, :], v) / _dot(W[..., 2, :], slide))[..., None]  # S+F
        w, impulse, lowest = _plastic_impact(G, mv(W, v), mu2, 1)
        v = v + mv(M_inv, np.einsum("...ji,...j->...i", W[..., 2:, :], impulse))
        zero = 1e-9 * np.abs(w).max(axis=-1)
        failure = fail(4, ~np.isfinite(impulse).all(axis=-1))
        failure = fail(5, lowest < -zero)
        failure = fail(4, ~((np.abs(w[..., 3]) <= zero) & (w[..., 0] > 0)))
        multiplier = np.where(failure == 0, _dot(v, start) / _dot(start, start), np.nan)
    return TumblingScan(multiplier, failure, slide_normal, slide_slip)
