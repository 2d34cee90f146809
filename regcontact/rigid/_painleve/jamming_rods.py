"""Painlevé rods whose rigid slip jams: their G-spots, and initial states that reach one, found by search.

The rod is :class:`~regcontact.systems.PainleveRod` (uniform, ``m = 1``, ``l = 2``, ``g = 1`` unless given) under
a constant torque ``τ``, its lower end slipping towards ``−x`` (``ġ_t < 0``: Champneys' ``S+`` with ``θ = φ``).
Its slip state in contact is fixed by ``(φ, ω)`` (:meth:`PainleveRod.initial_state`; the horizontal velocity only
sets how long the slip lasts), ``p`` depends on ``φ`` alone and ``b`` on ``(φ, ω)``: a G-spot is a root ``φ*`` of
``p`` and a root ``ω*`` of ``b`` there, both found by bracketing on a grid and bisection (:func:`rod_g_spots`),
with Eqs. 33–34 by :func:`~regcontact.rigid.g_spot_linearisation`.

:func:`search_jamming_rod` looks for a rod and an initial state that jam in case G1 or G2 in two steps: over a
grid of ``(μ, τ)``, the G-spots of that case (least torque first); then, for the chosen rod, rigid slip
(:func:`~regcontact.rigid.rigid_slip`) from a grid of ``(φ₀, ω₀)`` around its G-spot, keeping an
initial state inside the set that jams.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Float

from regcontact._argument_checks import FINITE, NONNEGATIVE, POSITIVE, check_argument
from regcontact.rigid._checks import at_least
from regcontact.rigid._painleve.dynamic_jam import (
    GSpotLinearisation,
    g_spot_linearisation,
    jam_case,
    slip_normal_dynamics,
)
from regcontact.rigid._painleve.rigid_slip import rigid_slip
from regcontact.rigid._painleve.slip import RigidSlip
from regcontact.systems.rod import PainleveRod

__all__ = ["JammingRod", "RodGSpots", "rod_g_spots", "search_jamming_rod"]

#: Slip of the lower end towards ``−x``.
SIGN = -1.0

#: The ``(μ, τ)`` grid :func:`search_jamming_rod` searches by default (``g = 1``).
MU_GRID = np.round(np.linspace(1.35, 3.0, 34), 12)
TORQUE_GRID = np.round(np.linspace(-0.5, 0.5, 21), 12)


def _rod(mu, torque, gravity, phi, omega, vx=-1.0) -> PainleveRod:
    return PainleveRod(mu=mu, torque=torque, gravity=gravity, phi0=phi, omega0=omega, vx0=vx)


def _painleve_and_b(mu, torque, gravity, phi, omega) -> tuple[Float[Array, ""], Float[Array, ""]]:
    rod = _rod(mu, torque, gravity, phi, omega)
    q, v = rod.initial_state()
    return slip_normal_dynamics(rod, (q, v, jnp.zeros(())), SIGN)


def _bisect(function, low: Float[Array, " m"], high: Float[Array, " m"], steps: int = 60) -> Float[Array, " m"]:
    """A root of ``function`` (elementwise) in each bracket ``[low, high]`` whose ends differ in sign."""
    f_low = function(low)
    for _ in range(steps):
        middle = 0.5 * (low + high)
        same = jnp.sign(function(middle)) == jnp.sign(f_low)
        low, high = jnp.where(same, middle, low), jnp.where(same, high, middle)
    return 0.5 * (low + high)


def _brackets(values: np.ndarray, grid: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows and grid intervals where ``values`` (rows × grid) changes sign."""
    rows, cols = np.nonzero(np.sign(values[:, :-1]) * np.sign(values[:, 1:]) < 0)
    return rows, grid[cols], grid[cols + 1]


class RodGSpots(eqx.Module):
    """The G-spots found, one entry each: the rod's ``μ, τ, g``, the state ``(φ*, ω*)`` and Eqs. 33–34 there."""

    mu: Float[Array, " m"]
    torque: Float[Array, " m"]
    gravity: Float[Array, " m"]
    phi: Float[Array, " m"]
    omega: Float[Array, " m"]
    linearisation: GSpotLinearisation

    def cases(self) -> list[str | None]:
        """:func:`~regcontact.rigid.jam_case` of each."""
        lin = self.linearisation
        return [jam_case(*x) for x in zip(*(np.asarray(a) for a in (lin.alpha1, lin.alpha2, lin.alpha3)))]


def rod_g_spots(
    mu: ArrayLike, torque: ArrayLike, gravity: ArrayLike = 1.0, points: int = 400, omega_max: float = 6.0
) -> RodGSpots:
    """Every G-spot of the rods ``(μ_i, τ_i, g)`` (1-d arrays, paired) with ``φ* ∈ (0, π)``, ``|ω*| < omega_max``:
    roots of ``p(φ)`` bracketed on ``points`` angles, then roots of ``b(φ*, ω)`` on ``points`` rates. ``ValueError``
    for a value out of range (``μ ≥ 0``, ``τ`` finite, ``g > 0``, ``points ≥ 2``, ``omega_max > 0``)."""
    mu, torque = np.atleast_1d(np.asarray(mu, float)), np.atleast_1d(np.asarray(torque, float))
    gravity = np.broadcast_to(np.asarray(gravity, float), mu.shape)
    for name, value, rule in (
        ("mu", mu, NONNEGATIVE),
        ("torque", torque, FINITE),
        ("gravity", gravity, POSITIVE),
        ("points", points, at_least(2)),
        ("omega_max", omega_max, POSITIVE),
    ):
        check_argument(name, value, rule)
    if mu.shape != torque.shape:
        raise ValueError(f"mu {mu.shape}, torque {torque.shape}: expected paired 1-d arrays of one length")
    pb = jax.jit(jax.vmap(jax.vmap(_painleve_and_b, (None, None, None, 0, 0)), (0, 0, 0, None, None)))
    angles = np.linspace(1e-3, np.pi - 1e-3, points)
    painleve = np.asarray(pb(mu, torque, gravity, angles, np.zeros(points))[0])
    rows, low, high = _brackets(painleve, angles)
    phi_of = jax.jit(jax.vmap(lambda m, t, g, x: _painleve_and_b(m, t, g, x, 0.0)[0]))
    phi = _bisect(lambda x: phi_of(mu[rows], torque[rows], gravity[rows], x), jnp.asarray(low), jnp.asarray(high))
    rates = np.linspace(-omega_max, omega_max, points)
    b_of = jax.jit(jax.vmap(jax.vmap(lambda m, t, g, x, w: _painleve_and_b(m, t, g, x, w)[1], (None,) * 4 + (0,))))
    free = np.asarray(b_of(mu[rows], torque[rows], gravity[rows], phi, np.broadcast_to(rates, (len(rows), points))))
    spots, w_low, w_high = _brackets(free, rates)
    rows, phi = rows[spots], phi[spots]
    omega_of = jax.jit(jax.vmap(lambda m, t, g, x, w: _painleve_and_b(m, t, g, x, w)[1]))
    omega = _bisect(
        lambda w: omega_of(mu[rows], torque[rows], gravity[rows], phi, w), jnp.asarray(w_low), jnp.asarray(w_high)
    )

    def linearise(m, t, g, x, w):
        rod = _rod(m, t, g, x, w)
        q, v = rod.initial_state()
        return g_spot_linearisation(rod, q, v, 0.0, SIGN)

    linearisation = jax.jit(jax.vmap(linearise))(mu[rows], torque[rows], gravity[rows], phi, omega)
    return RodGSpots(
        mu=jnp.asarray(mu[rows]),
        torque=jnp.asarray(torque[rows]),
        gravity=jnp.asarray(gravity[rows]),
        phi=phi,
        omega=omega,
        linearisation=linearisation,
    )


@dataclass(frozen=True)
class JammingRod:
    """A rod and an initial state whose rigid slip jams, with the search that found it.

    ``rod`` starts at ``(φ₀, ω₀)`` with ``v_x0``; ``g_spot`` is the G-spot it was searched around (its ``(μ, τ)``
    chosen in the first step); ``slip`` its rigid slip; ``end`` Eqs. 33–34 at the end of that slip (next to the
    G-spot); ``grid_phi``, ``grid_omega``, ``grid_outcomes`` the second step's grid and the outcome code of each
    of its starts (:data:`~regcontact.rigid.SLIP_OUTCOMES`).
    """

    case: str
    rod: PainleveRod
    g_spot: RodGSpots
    slip: RigidSlip
    end: GSpotLinearisation
    grid_phi: np.ndarray
    grid_omega: np.ndarray
    grid_outcomes: np.ndarray


def _margin(lin: GSpotLinearisation, case: str) -> np.ndarray:
    """How far from the boundaries of its case a G-spot's ``(α₁, α₂, α₃)`` lies, relative to their size."""
    a1, a2, a3 = (np.asarray(x) for x in (lin.alpha1, lin.alpha2, lin.alpha3))
    scale = np.maximum(np.abs(a1), np.abs(a3))
    parts = [np.abs(a1 - a3), np.abs(a1), np.abs(a3)] + ([np.abs(a2)] if case == "G2" else [])
    return np.min(parts, axis=0) / scale


def search_jamming_rod(
    case: Literal["G1", "G2"],
    mu: ArrayLike = MU_GRID,
    torque: ArrayLike = TORQUE_GRID,
    gravity: float = 1.0,
    grid: int = 24,
    phi_span: float = 0.5,
    omega_span: float = 2.0,
    slip_speed: float = 2.0,
    s_max: float = 40.0,
) -> JammingRod:
    """A rod and initial state whose rigid slip reaches a G-spot of ``case``.

    Step 1: the G-spots of the rods on the ``(μ, τ)`` grid whose case is ``case``; among those with the least
    ``|τ|`` the one furthest inside its case (:func:`_margin`). Step 2: rigid slip of that rod from a
    ``grid × grid`` lattice of ``φ₀ ∈ φ* ± phi_span``, ``ω₀ ∈ ω* ± omega_span`` (lower end slipping at
    ``slip_speed``); of the starts that jam and whose lattice neighbours all jam, the one that takes longest to
    reach the G-spot. Raises ``ValueError`` if either step finds nothing, or for an argument out of range.
    """
    if case not in ("G1", "G2"):
        raise ValueError(f"case = {case!r}: expected 'G1' or 'G2'")
    for name, value, rule in (
        ("grid", grid, at_least(3)),
        ("phi_span", phi_span, POSITIVE),
        ("omega_span", omega_span, POSITIVE),
        ("slip_speed", slip_speed, POSITIVE),
        ("s_max", s_max, POSITIVE),
    ):
        check_argument(name, value, rule)
    mus, torques = (np.asarray(x, float).ravel() for x in np.meshgrid(np.asarray(mu), np.asarray(torque)))
    spots = rod_g_spots(mus, torques, gravity)
    matching = np.flatnonzero(np.array([c == case for c in spots.cases()]))
    if matching.size == 0:
        raise ValueError(f"no G-spot of case {case} on the (μ, τ) grid searched")
    least = np.abs(np.asarray(spots.torque)[matching])
    candidates = matching[least <= least.min() + 1e-12]
    chosen = int(candidates[np.argmax(_margin(spots.linearisation, case)[candidates])])
    spot = jax.tree_util.tree_map(lambda x: x[chosen : chosen + 1], spots)
    mu_star, torque_star = float(spot.mu[0]), float(spot.torque[0])
    phi_star, omega_star = float(spot.phi[0]), float(spot.omega[0])

    phis = np.linspace(max(phi_star - phi_span, 1e-2), min(phi_star + phi_span, np.pi - 1e-2), grid)
    omegas = np.linspace(omega_star - omega_span, omega_star + omega_span, grid)
    starts = np.stack(np.meshgrid(phis, omegas, indexing="ij"), -1).reshape(-1, 2)

    def slip_from(phi, omega):
        # the lower end slides at slip_speed towards −x: ġ_t = v_x + (l/2) sin φ ω
        rod = _rod(mu_star, torque_star, gravity, phi, omega, -slip_speed - jnp.sin(phi) * omega)
        q, v = rod.initial_state()
        slip = rigid_slip(rod, q, v, s_max=s_max, saves=2)
        return slip.outcome, slip.jam[2]

    outcomes, times = (np.asarray(x).reshape(grid, grid) for x in jax.jit(jax.vmap(slip_from))(*starts.T))
    jams = outcomes == 1
    padded = np.pad(jams, 1)
    interior = jams & np.all(
        [np.roll(np.roll(padded, i, 0), j, 1)[1:-1, 1:-1] for i in (-1, 0, 1) for j in (-1, 0, 1)], 0
    )
    if not interior.any():
        raise ValueError(f"no initial state around the G-spot of case {case} jams with all its neighbours")
    i, j = np.unravel_index(np.argmax(np.where(interior, times, -np.inf)), interior.shape)
    phi0, omega0 = float(phis[i]), float(omegas[j])
    rod = _rod(mu_star, torque_star, gravity, phi0, omega0, -slip_speed - np.sin(phi0) * omega0)
    q, v = rod.initial_state()
    slip = rigid_slip(rod, q, v, s_max=s_max)
    end_q, end_v, end_t = slip.end
    return JammingRod(
        case=case,
        rod=rod,
        g_spot=spot,
        slip=slip,
        end=g_spot_linearisation(rod, end_q, end_v, end_t, SIGN),
        grid_phi=phis,
        grid_omega=omegas,
        grid_outcomes=outcomes,
    )
