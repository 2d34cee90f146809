"""The impact of k contacts on its own time scale, in contact space: compliant normal forces, viscous or Coulomb
friction, integrated from touch-down to the end of the impact.

On the impact's time scale the finite forces drop out, and the contacts taking part (the closed ones) move with
the contact forces only. With the gaps ``g`` (rescaled to the impact scale), the contact velocities ``w`` (normal
``v``, slip ``u``, interleaved per contact as in :attr:`~regcontact.rigid.ContactState.delassus`) and the
impulses ``P``:

    ġ_i = v_i,        ẇ = G λ,        Ṗ = λ,        λ_n,i = f(g_i, v_i),

``G`` the Delassus matrix of the taking part contacts and ``f`` the normal law on the impact scale (it has no
force for ``g > 0``). The friction force ``λ_t,i`` is

- ``"none"``: zero;
- ``"viscous"``: ``−clip(γ_t u_i, ±μ_i λ_n,i)`` (viscous-limited Coulomb with a finite damping on this scale);
- ``"coulomb"``: Coulomb's law, ``λ_t,i = −sgn(u_i) μ_i λ_n,i`` while slipping, and where ``u_i = 0`` the
  tangential forces that solve the box problem ``u̇_i = 0, |λ_t,i| ≤ μ_i λ_n,i`` or slip on the cone edge with
  ``u̇_i`` along the slip (unique: the tangential block of ``G`` is positive definite). The phases are followed
  segment by segment with fixed modes (``"S+"``, ``"S-"``, ``"T"`` per contact), each ending at a slip running
  down to zero or a sticking contact reaching its cone.

The impact ends when every contact is open (``g ≥ 0``) and separating (``v ≥ 0``, no force: nothing changes
after), or when the normal velocities of the closed contacts have decayed to round-off (``"rest"``: a law with a
damper and no spring, where the contact stays closed). SciPy's DOP853 (rtol 1e-12: on its own scale the impact
is not stiff) with terminal events.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from regcontact._argument_checks import FINITE, NONNEGATIVE, UNIT_INTERVAL, check_argument

__all__ = ["FRICTION_KINDS", "FrictionKind", "ProcessOutcome", "impact_process"]

FrictionKind = Literal["none", "viscous", "coulomb"]
FRICTION_KINDS: tuple[FrictionKind, ...] = ("none", "viscous", "coulomb")
SlipMode = Literal["S+", "S-", "T"]

#: Normal forces of the contacts from their gaps and normal velocities (vectorised over the contacts).
NormalForce = Callable[[NDArray[np.float64], NDArray[np.float64]], NDArray[np.float64]]
#: The same for a law with a memory: also from each contact's deepest penetration so far (its peak).
PeakForce = Callable[[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]], NDArray[np.float64]]

#: Segments at most (each ends at a slip-stick change, a reversal or an opening contact).
MAX_SEGMENTS = 200


@dataclass(frozen=True)
class ProcessOutcome:
    """The contact velocities after the impact ``(k, 2)`` (``v_n, u_t`` per contact), the impulses ``(k, 2)``
    (``P_n, P_t``), how it ended (``"opened"`` or ``"rest"``) and, with Coulomb friction, the slip modes of each
    segment with the normal impulse (summed over the contacts) where it starts."""

    velocity: NDArray[np.float64]
    impulses: NDArray[np.float64]
    ended: Literal["opened", "rest"]
    segments: tuple[tuple[float, tuple[SlipMode, ...]], ...] = ()

    @property
    def modes(self) -> tuple[tuple[SlipMode, ...], ...]:
        """The slip modes of the Coulomb segments, in order, repeats merged."""
        merged: list[tuple[SlipMode, ...]] = []
        for _, modes in self.segments:
            if not merged or merged[-1] != modes:
                merged.append(modes)
        return tuple(merged)


def impact_process(
    delassus: ArrayLike,
    mu: ArrayLike,
    velocity: ArrayLike,
    normal_force: NormalForce,
    friction: FrictionKind,
    tangential_damping: ArrayLike = 0.0,
    rates: ArrayLike = (),
    decays: bool = False,
    rtol: float = 1e-12,
    start_gaps: ArrayLike | None = None,
    peak_force: PeakForce | None = None,
) -> ProcessOutcome:
    """Integrate the impact of the contacts with Delassus matrix ``delassus`` ``(2k, 2k)`` (positive definite),
    friction coefficients ``mu`` ``(k,)`` and incoming contact velocities ``velocity`` ``(k, 2)`` (``v_n, u_t``),
    every contact at ``g = 0`` unless ``start_gaps`` (impact scale) says where each starts (module docstring);
    ``tangential_damping``: a number, or one per contact.
    ``rates``: the inverse time scales of the normal law (its
    slowest sets how long a decaying contact is first followed: 60 of them, then ten times longer as long as it
    decays, to 10⁴ times); ``decays``: the law has no spring, so
    the closed contacts come to rest and the process ends when their normal velocities are at round-off. Every
    value finite, ``μ ≥ 0``, ``0 < rtol < 1``: ``ValueError`` naming the first that is not.

    ``peak_force``: a law with a memory (:class:`~regcontact.contact.AbstractPeakNormalLaw`) in place of
    ``normal_force``, given each contact's deepest penetration so far. The peaks are held fixed in a segment and
    set at events: a loading contact whose normal velocity turns (``v_n`` rising through zero) records its
    penetration and unloads; an unloading one that is pressed back to its peak loads again; a contact that opens
    forgets its peak."""
    from scipy.integrate import solve_ivp  # imported here: importing the package need not wait for SciPy

    G = np.asarray(delassus, dtype=float)
    mu_ = np.asarray(mu, dtype=float).reshape(-1)
    w0 = np.asarray(velocity, dtype=float).reshape(-1, 2)
    for name, value, rule in (
        ("delassus", G, FINITE),
        ("mu", mu_, NONNEGATIVE),
        ("velocity", w0, FINITE),
        ("tangential_damping", tangential_damping, NONNEGATIVE),
        ("rates", np.asarray(rates, dtype=float), FINITE),
        ("rtol", rtol, UNIT_INTERVAL),
        ("start_gaps", None if start_gaps is None else np.asarray(start_gaps, dtype=float), FINITE),
    ):
        check_argument(name, value, rule)
    k = w0.shape[0]
    if G.shape != (2 * k, 2 * k) or mu_.shape != (k,):
        raise ValueError(f"delassus {G.shape}, mu {mu_.shape}: expected ({2 * k}, {2 * k}) and ({k},) for {k} contacts")
    if np.shape(tangential_damping) not in ((), (k,)):
        raise ValueError(
            f"tangential_damping of shape {np.shape(tangential_damping)}: expected a number or ({k},) for {k} contacts"
        )
    eigenvalues = np.linalg.eigvalsh(0.5 * (G + G.T))
    if eigenvalues.min() < -1e-12 * eigenvalues.max() or not np.all(np.diag(G)[0::2] > 0):
        raise ValueError("the Delassus matrix of the contacts taking part must be positive semi-definite")
    if friction not in FRICTION_KINDS:
        raise ValueError(f"friction = {friction!r}: expected one of {', '.join(FRICTION_KINDS)}")
    if not (w0[:, 0] < 0).any():
        raise ValueError("no contact approaches (every v_n ≥ 0): no impact")
    speed = float(np.abs(w0).max())
    positive_rates = [float(r) for r in np.asarray(rates, dtype=float).reshape(-1) if r > 0]
    if not positive_rates:
        raise ValueError("the normal law has no force on the impact scale")
    horizon = first_horizon = 60.0 / min(positive_rates)
    zero = 1e-12 * speed
    w0 = np.where(np.abs(w0) <= zero, 0.0, w0)  # a contact at rest to round-off neither approaches nor slips
    start = np.zeros(k) if start_gaps is None else np.asarray(start_gaps, dtype=float).reshape(k)
    # a penetration's round-off: 1e-12 of the impact's (speed × its slowest time scale)
    peaks = None if peak_force is None else _Peaks(np.maximum(-start, 0.0), 1e-12 * speed / min(positive_rates))
    normal = normal_force if peak_force is None else (lambda g, v: peak_force(g, v, peaks.depth))  # type: ignore[union-attr]
    run = _Process(G, mu_, normal, friction, tangential_damping)
    # state: gaps (k), contact velocities (2k, v_n and u_t interleaved), impulses (2k)
    y = np.concatenate([start, w0.reshape(-1), np.zeros(2 * k)])
    t = 0.0
    segments: list[tuple[float, tuple[SlipMode, ...]]] = []
    at_cone: set[int] = set()  # contacts that reached their cone at the current instant
    for _ in range(MAX_SEGMENTS):
        gaps, w = y[:k], y[k : 3 * k].reshape(k, 2)
        closed = (gaps < 0) | ((gaps >= 0) & (w[:, 0] < 0))  # in contact, or approaching it
        if not closed.any() and (w[:, 0] >= 0).all() and not run.normal(gaps, w[:, 0]).any():
            return ProcessOutcome(w.copy(), y[3 * k :].reshape(k, 2).copy(), "opened", tuple(segments))
        modes = run.modes(gaps, w, zero, at_cone) if friction == "coulomb" else ()
        if modes:
            segments.append((float(y[3 * k :: 2].sum()), modes))
        events = run.events(closed, modes, zero)
        if decays:
            at_rest = lambda _, state, closed=closed: np.abs(state[k : 3 * k : 2][closed]).max() - 0.01 * zero  # noqa: E731
            events.append(_event(at_rest, -1.0))
            run.event_names.append(("rest", -1))
        if peaks is not None:
            events += peaks.events(y, closed, run.event_names)
        solution = solve_ivp(
            lambda _, state, modes=modes: run.field(state, modes),
            (t, horizon),
            y,
            method="DOP853",
            rtol=rtol,
            atol=rtol * speed * 1e-3,
            events=events,
        )
        t, y = float(solution.t[-1]), solution.y[:, -1].copy()
        if solution.status != 1:  # the horizon: the closed contacts must have come to rest
            gaps, w = y[:k], y[k : 3 * k].reshape(k, 2)
            if np.abs(w[gaps <= 0, 0]).max(initial=0.0) <= 1e-9 * speed:
                return ProcessOutcome(w.copy(), y[3 * k :].reshape(k, 2).copy(), "rest", tuple(segments))
            if horizon >= 1e4 * first_horizon:
                raise RuntimeError(f"the impact did not end within τ = {horizon:.3g}: v_n = {w[:, 0]}")
            horizon *= 10.0  # a slow decay (sliding near a Painlevé contact: dv/dI = C − sμB small): go on
            at_cone = set()
            continue
        fired = min((i for i, hit in enumerate(solution.t_events) if hit.size), key=lambda i: solution.t_events[i][0])
        kind, contact = run.event_names[fired]
        # a contact reaching its cone slips next; several at one instant (rigidly coupled) slip together
        at_cone = (at_cone if solution.t[-1] == solution.t[0] else set()) | (
            {contact} if kind == "slip starts" else set()
        )
        if kind == "rest":
            w = y[k : 3 * k].reshape(k, 2)
            return ProcessOutcome(w.copy(), y[3 * k :].reshape(k, 2).copy(), "rest", tuple(segments))
        if kind == "opened":
            y[contact] = 0.0
        if peaks is not None:
            peaks.update(kind, contact, y)
        elif kind == "slip ends":
            y[k + 2 * contact + 1] = 0.0
    raise RuntimeError(f"the impact did not end within {MAX_SEGMENTS} segments")


class _Process:
    """The field and events of one impact process (module docstring)."""

    def __init__(self, G: NDArray, mu: NDArray, normal: NormalForce, friction: FrictionKind, damping: ArrayLike):
        self.G, self.mu, self.normal, self.friction, self.damping = G, mu, normal, friction, damping
        self.k = mu.shape[0]
        self.G_tt, self.G_tn = G[1::2, 1::2], G[1::2, 0::2]
        self.event_names: list[tuple[str, int]] = []

    def tangential(self, lam_n: NDArray, u: NDArray, modes: tuple[SlipMode, ...]) -> NDArray:
        """The friction forces in the current ``modes`` (Coulomb) or from the slips (viscous, none)."""
        if self.friction == "none":
            return np.zeros(self.k)
        limit = self.mu * lam_n
        if self.friction == "viscous":
            return -np.clip(self.damping * u, -limit, limit)
        return self.coulomb(lam_n, modes)

    def coulomb(self, lam_n: NDArray, modes: tuple[SlipMode, ...]) -> NDArray:
        """Slipping contacts on the cone edge against their slip, sticking ones holding ``u̇ = 0``; a sticking
        contact without normal force (its cone is a point) holds no force and sticks only where the others hold it
        (its slip rigidly coupled to theirs, as two legs of one body at one height)."""
        lam_t = np.array([0.0 if m == "T" else (-1.0 if m == "S+" else 1.0) for m in modes]) * self.mu * lam_n
        stick = np.array([m == "T" for m in modes])
        carrying = stick & (lam_n > 0)
        if carrying.any():
            rest = self.G_tn[stick] @ lam_n + self.G_tt[np.ix_(stick, ~stick)] @ lam_t[~stick]
            # least squares: rigidly coupled contacts (a rod flat on two ends) share the force by minimum norm
            lam_t[carrying] = -np.linalg.lstsq(self.G_tt[np.ix_(stick, carrying)], rest, rcond=None)[0]
        return lam_t

    def field(self, y: NDArray, modes: tuple[SlipMode, ...]) -> NDArray:
        k = self.k
        w = y[k : 3 * k].reshape(k, 2)
        lam_n = self.normal(y[:k], w[:, 0])
        lam = np.column_stack([lam_n, self.tangential(lam_n, w[:, 1], modes)]).reshape(-1)
        return np.concatenate([w[:, 0], self.G @ lam, lam])

    def modes(self, gaps: NDArray, w: NDArray, zero: float, at_cone: set[int]) -> tuple[SlipMode, ...]:
        """Coulomb's modes at a segment's start: the slip's sign, and for the contacts at zero slip the solution of
        the box problem on ``u̇`` (enumerated: a few contacts; stick first, except at the contacts whose cone was
        just reached, which slip if they can)."""
        lam_n = self.normal(gaps, w[:, 0])
        fixed: list[SlipMode | None] = ["S+" if u > zero else "S-" if u < -zero else None for u in w[:, 1]]
        free = [i for i, m in enumerate(fixed) if m is None]
        scale = max(float(np.abs(self.G_tn @ lam_n).max(initial=0.0)), 1e-300)
        order: dict[int, tuple[SlipMode, ...]] = {i: ("T", "S+", "S-") for i in free}
        for i in at_cone & set(order):
            order[i] = ("S+", "S-", "T")
        for choice in itertools.product(*(order[i] for i in free)):
            modes = list(fixed)
            for i, m in zip(free, choice):
                modes[i] = m
            candidate = tuple(modes)
            lam_t = self.coulomb(lam_n, candidate)  # type: ignore[arg-type]
            rate = self.G_tt @ lam_t + self.G_tn @ lam_n
            stuck = all(abs(rate[i]) <= 1e-9 * scale for i, m in enumerate(candidate) if m == "T")
            if stuck and all(
                _admissible(m, lam_t[i], rate[i], self.mu[i] * lam_n[i], scale) for i, m in zip(free, choice)
            ):
                return candidate  # type: ignore[return-value]
        raise RuntimeError("no Coulomb mode at zero slip (the tangential Delassus block is not positive definite?)")

    def events(self, closed: NDArray, modes: tuple[SlipMode, ...], zero: float) -> list:
        """Terminal events: a closed contact opening; a slip running through zero (past round-off ``zero``, so a
        slip that starts from zero does not end at once); a sticking contact reaching its cone."""
        k = self.k
        self.event_names = []
        events = []
        for i in map(int, np.flatnonzero(closed)):
            events.append(_event(lambda _, y, i=i: y[i], 1.0))  # the gap opens
            self.event_names.append(("opened", i))
        for i, mode in enumerate(modes):
            if mode == "T":

                def margin(_, y, i=i):
                    w = y[k : 3 * k].reshape(k, 2)
                    lam_n = self.normal(y[:k], w[:, 0])
                    return self.mu[i] * lam_n[i] - abs(self.coulomb(lam_n, modes)[i])

                events.append(_event(margin, -1.0))
                self.event_names.append(("slip starts", i))
            else:
                sign = 1.0 if mode == "S+" else -1.0
                events.append(_event(lambda _, y, i=i, sign=sign: sign * y[k + 2 * i + 1] + zero, -1.0))
                self.event_names.append(("slip ends", i))
        return events


class _Peaks:
    """Each contact's deepest penetration so far and whether it unloads from it (``impact_process``'s
    ``peak_force``)."""

    def __init__(self, depth: NDArray, resolution: float):
        self.depth, self.resolution = depth, resolution
        self.unloading = np.zeros(depth.shape, dtype=bool)

    def events(self, y: NDArray, closed: NDArray, names: list[tuple[str, int]]) -> list:
        """Terminal events of the segment starting at ``y``: a loading contact turning (``v_n`` rising through zero,
        from an approach), an unloading one pressed back to its peak (past round-off of it), and a contact at rest
        on the surface being pressed in past round-off (so that it turns with an event of its own)."""
        k = self.depth.shape[0]
        events = []
        for i in range(k):
            gap, v_n = y[i], y[k + 2 * i]
            if self.unloading[i]:
                level = self.depth[i] * (1.0 + 1e-10) + self.resolution
                events.append(_event(lambda _, y, i=i, level=level: -y[i] - level, 1.0))
                names.append(("reloaded", i))
            elif closed[i] and v_n < 0:
                events.append(_event(lambda _, y, i=i: y[k + 2 * i], 1.0))
                names.append(("turned", i))
            elif gap >= 0 and v_n == 0:
                events.append(_event(lambda _, y, i=i: y[i] + self.resolution, -1.0))
                names.append(("pressed", i))
        return events

    def update(self, kind: str, contact: int, y: NDArray) -> None:
        """The peaks after an event of ``kind`` at ``contact``, in state ``y``."""
        if kind == "turned" and y[contact] < 0:
            self.depth[contact] = max(self.depth[contact], -y[contact])
            self.unloading[contact] = True
        elif kind == "reloaded":
            self.unloading[contact] = False
        elif kind == "opened":
            self.depth[contact] = 0.0
            self.unloading[contact] = False


def _admissible(mode: str, lam_t: float, rate: float, limit: float, scale: float) -> bool:
    """Coulomb's conditions at zero slip, to round-off of the force scale."""
    slack = 1e-12 * scale
    if mode == "T":
        return abs(lam_t) <= limit + slack
    return rate >= -slack if mode == "S+" else rate <= slack


def _event(function, direction: float):
    """A terminal ``solve_ivp`` event crossing zero in ``direction``."""
    function.terminal = True
    function.direction = direction
    return function
