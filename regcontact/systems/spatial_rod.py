"""A slender rod in space with one end on the plane ``y = 0``: the three-dimensional Painlevé rod of Champneys &
Várkonyi Sec. 7 (Zhao et al.'s rod, Eqs. 42–51).

Coordinates ``q = (x₁, x₂, y, θ, ψ)``: the centre of mass (``y`` vertical) and the rod's direction, ``θ`` its angle
to the horizontal plane and ``ψ`` the azimuth of its horizontal projection, pointing from the centre of mass to the
contact end. The unit vector from the centre to the contact end is ``d = (cos θ cos ψ, cos θ sin ψ, −sin θ)`` and
the contact end is ``P = r + l d`` (``l``: the half-length, the paper's ``l``). A slender rod has no inertia about
its axis, so its kinetic energy is ``½ m |ṙ|² + ½ I (θ̇² + cos²θ ψ̇²)`` with ``I = m ρ²`` (``ρ``: radius of
gyration about a transverse axis through the centre; a uniform rod has ``ρ² = l²/3``):

    M = diag(m, m, m, I, I cos²θ),    h = (0, 0, −m g, −I sin θ cos θ ψ̇², 2 I sin θ cos θ θ̇ ψ̇),

the last two the gyroscopic terms of the Euler–Lagrange equations. The contact has the gap ``g_n = y − l sin θ``
and the tangential coordinates ``(g_t1, g_t2) = (x₁ + l cos θ cos ψ, x₂ + l cos θ sin ψ)``, the end's position on
the plane; its slip ``u = (ġ_t1, ġ_t2)`` is expressed in the fixed ``(x₁, x₂)`` frame, as in the paper.

In contact space (:func:`~regcontact.systems.spatial_contact_space_form`) the rod is Eqs. 42–50 with
the factor 3 replaced by ``κ = l²/ρ²`` (:func:`spatial_rod_form` writes them out); the free normal acceleration is
``b = l sin θ (θ̇² + cos²θ ψ̇²) − g``, where Eq. 43 prints ``l ψ̇² sin θ`` (``docs/spatial_contact.md``). With
``ψ = π``, ``ψ̇ = 0`` and no slip across the rod's plane, the rod moves in the ``(x₁, y)`` plane as the planar
:class:`~regcontact.systems.rod.PainleveRod` of length ``2l`` with ``φ = θ``.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Float

from regcontact._argument_checks import (
    FINITE,
    NONNEGATIVE,
    POSITIVE,
    ArgumentError,
    Rule,
    check_arguments,
    in_open_interval,
    is_traced,
)
from regcontact.systems._spatial_form import SpatialContactSpaceForm
from regcontact.systems.system import AbstractSystem

__all__ = ["SpatialRod", "check_slip", "painleve_friction", "spatial_rod_form"]


def check_slip(slip0: Any) -> None:
    """The rule of the rod's initial slip (each component finite by its own rule): a vector ``(u₁, u₂)``, not
    zero: the contact end slips at the start, and a zero slip has no direction ``ϕ``, so no ``p(ϕ)``. Raises
    :class:`~regcontact._argument_checks.ArgumentError` naming ``slip0``; elementwise over a batch; traced values
    pass."""
    if is_traced(slip0):
        return
    slip = np.asarray(slip0, dtype=float)
    if slip.shape[-1:] != (2,):
        raise ArgumentError("slip0", slip0, "a slip vector (u₁, u₂)")
    still = np.hypot(slip[..., 0], slip[..., 1]) == 0.0
    if np.any(still):
        shown = slip0 if slip.ndim == 1 else slip.reshape(-1, 2)[int(np.argmax(still.ravel()))].tolist()
        raise ArgumentError(
            "slip0",
            shown,
            "a non-zero slip (u₁, u₂): the contact end slips at the start (a zero tangent has no slip direction)",
        )


class SpatialRod(AbstractSystem):
    """A slender rod of mass ``m``, half-length ``l`` and radius of gyration ``ρ`` under gravity ``g``, its lower end
    on the plane ``y = 0`` with friction ``μ`` (module docstring for the coordinates).

    It starts with the contact end at the origin, in contact and at normal rest (``ġ_n = 0``), slipping with
    ``u₀ = slip0``.

    Args:
        mass: ``m > 0``.
        half_length: ``l > 0``, the distance from the centre of mass to the contact end.
        gyration: ``ρ > 0``; default ``l/√3``, a uniform rod (Eqs. 46–50's factor 3).
        gravity: ``g``.
        mu: ``μ ≥ 0``.
        theta0: ``θ₀`` in ``(0, π/2)``.
        psi0: ``ψ₀``.
        slip0: the slip ``u₀ = (u₁, u₂)`` of the contact end.
        theta_rate0: ``θ̇₀``.
        psi_rate0: ``ψ̇₀``.

    Examples:
        >>> import regcontact as rc
        >>> rod = rc.systems.SpatialRod(gyration=0.1, mu=1.0, theta0=1.2, slip0=[1.0, 0.5])
        >>> float(rod.inertia_ratio)  # κ = l²/ρ², Fig. 17's rod
        100.0
    """

    NUM_CONTACTS: ClassVar[int] = 1
    TANGENT_DIM: ClassVar[int] = 2
    ARGUMENT_RULES: ClassVar[dict[str, Rule]] = {
        "mass": POSITIVE,
        "half_length": POSITIVE,
        "gyration": POSITIVE,
        "gravity": FINITE,
        "mu": NONNEGATIVE,
        "theta0": in_open_interval(0.0, math.pi / 2, "0, π/2"),
        "psi0": FINITE,
        "slip0": FINITE,
        "theta_rate0": FINITE,
        "psi_rate0": FINITE,
    }

    mass: Float[Array, ""]
    half_length: Float[Array, ""]
    gyration: Float[Array, ""]
    gravity: Float[Array, ""]
    mu: Float[Array, ""]
    theta0: Float[Array, ""]
    psi0: Float[Array, ""]
    slip0: Float[Array, "2"]
    theta_rate0: Float[Array, ""]
    psi_rate0: Float[Array, ""]

    def __init__(
        self,
        mass: ArrayLike = 1.0,
        half_length: ArrayLike = 1.0,
        gyration: ArrayLike | None = None,
        gravity: ArrayLike = 1.0,
        mu: ArrayLike = 1.0,
        theta0: ArrayLike = math.pi / 3,
        psi0: ArrayLike = 0.0,
        slip0: ArrayLike | tuple[float, float] = (1.0, 0.0),
        theta_rate0: ArrayLike = 0.0,
        psi_rate0: ArrayLike = 0.0,
    ):
        check_arguments(
            self.ARGUMENT_RULES,
            mass=mass,
            half_length=half_length,
            gyration=gyration,
            gravity=gravity,
            mu=mu,
            theta0=theta0,
            psi0=psi0,
            slip0=slip0,
            theta_rate0=theta_rate0,
            psi_rate0=psi_rate0,
        )
        check_slip(slip0)
        f64 = lambda a: jnp.asarray(a, dtype=float)  # noqa: E731
        self.mass, self.half_length, self.gravity, self.mu = f64(mass), f64(half_length), f64(gravity), f64(mu)
        self.gyration = f64(half_length) / math.sqrt(3.0) if gyration is None else f64(gyration)
        self.theta0, self.psi0 = f64(theta0), f64(psi0)
        self.slip0 = f64(slip0)
        if self.slip0.shape[-1:] != (2,):
            raise ArgumentError("slip0", slip0, "a slip vector (u₁, u₂)")
        self.theta_rate0, self.psi_rate0 = f64(theta_rate0), f64(psi_rate0)

    @property
    def inertia(self) -> Float[Array, ""]:
        """``I = m ρ²`` about a transverse axis through the centre of mass."""
        return self.mass * self.gyration**2

    @property
    def inertia_ratio(self) -> Float[Array, ""]:
        """``κ = m l² / I = l²/ρ²``: 3 for a uniform rod (the factor 3 of Eqs. 46–51)."""
        return (self.half_length / self.gyration) ** 2

    # -- dynamics ---------------------------------------------------------------------------------------------

    def mass_matrix(self, q: Float[Array, "5"]) -> Float[Array, "5 5"]:
        return jnp.diag(self._mass_diagonal(q))

    def _mass_diagonal(self, q: Float[Array, "5"]) -> Float[Array, "5"]:
        m, inertia = self.mass, self.inertia
        return jnp.stack([m, m, m, inertia, inertia * jnp.cos(q[3]) ** 2])

    def mass_solve(self, q: Float[Array, "5"], force: Float[Array, "5"]) -> Float[Array, "5"]:
        """``M⁻¹ f`` by division (``M`` is diagonal)."""
        return force / self._mass_diagonal(q)

    def forces(self, q: Float[Array, "5"], v: Float[Array, "5"], t: ArrayLike = 0.0) -> Float[Array, "5"]:
        """Gravity and the gyroscopic terms ``(−I s c ψ̇², 2 I s c θ̇ ψ̇)`` of the angles."""
        s, c = jnp.sin(q[3]), jnp.cos(q[3])
        theta_rate, psi_rate = v[3], v[4]
        zero = jnp.zeros_like(s)
        gyroscopic = self.inertia * s * c
        return jnp.stack(
            [zero, zero, -self.mass * self.gravity, -gyroscopic * psi_rate**2, 2 * gyroscopic * theta_rate * psi_rate]
        )

    def potential_energy(self, q: Float[Array, "5"]) -> Float[Array, ""]:
        return self.mass * self.gravity * q[2]

    # -- the contact at the end ``P = r + l d`` ------------------------------------------------------------------

    def gaps(self, q: Float[Array, "5"]) -> Float[Array, "1 3"]:
        x1, x2, y, theta, psi = q
        arm = self.half_length * jnp.cos(theta)
        return jnp.stack([y - self.half_length * jnp.sin(theta), x1 + arm * jnp.cos(psi), x2 + arm * jnp.sin(psi)])[
            None
        ]

    def jacobians(self, q: Float[Array, "5"]) -> Float[Array, "1 3 5"]:
        theta, psi = q[3], q[4]
        l = self.half_length  # noqa: E741
        s, c, sp, cp = jnp.sin(theta), jnp.cos(theta), jnp.sin(psi), jnp.cos(psi)
        zero, one = jnp.zeros_like(s), jnp.ones_like(s)
        return jnp.stack(
            [
                jnp.stack([zero, zero, one, -l * c, zero]),
                jnp.stack([one, zero, zero, -l * s * cp, -l * c * sp]),
                jnp.stack([zero, one, zero, -l * s * sp, l * c * cp]),
            ]
        )[None]

    def jacobian_rates(self, q: Float[Array, "5"], v: Float[Array, "5"]) -> Float[Array, "1 3"]:
        theta, psi, theta_rate, psi_rate = q[3], q[4], v[3], v[4]
        l = self.half_length  # noqa: E741
        s, c, sp, cp = jnp.sin(theta), jnp.cos(theta), jnp.sin(psi), jnp.cos(psi)
        radial = -l * c * (theta_rate**2 + psi_rate**2)  # the horizontal arm l cos θ turning and shrinking
        cross = 2 * l * s * theta_rate * psi_rate
        return jnp.stack([l * s * theta_rate**2, radial * cp + cross * sp, radial * sp - cross * cp])[None]

    @property
    def friction_coefficients(self) -> Float[Array, "1"]:
        return self.mu[None]

    @property
    def length_scale(self) -> Float[Array, ""]:
        return 2 * self.half_length

    def initial_state(self) -> tuple[Float[Array, "5"], Float[Array, "5"]]:
        """The contact end at the origin, at normal rest, slipping with ``slip0``."""
        l = self.half_length  # noqa: E741
        theta, psi, theta_rate, psi_rate = self.theta0, self.psi0, self.theta_rate0, self.psi_rate0
        s, c, sp, cp = jnp.sin(theta), jnp.cos(theta), jnp.sin(psi), jnp.cos(psi)
        q0 = jnp.stack([-l * c * cp, -l * c * sp, l * s, theta, psi])
        # the end's velocity is ṙ + l ḋ: choose ṙ so that it is (u₁, u₂, 0)
        d_rate = jnp.stack([-s * cp * theta_rate - c * sp * psi_rate, -s * sp * theta_rate + c * cp * psi_rate])
        centre = self.slip0 - l * d_rate
        v0 = jnp.stack([centre[0], centre[1], l * c * theta_rate, theta_rate, psi_rate])
        return q0, v0


def spatial_rod_form(rod: SpatialRod, q: Float[Array, "5"], v: Float[Array, "5"]) -> SpatialContactSpaceForm:
    """Eqs. 42–50 written out for the rod (the factor 3 as ``κ = l²/ρ²``), with ``b`` as derived (module docstring):

    ``a = −l cos θ (θ̇² + cos²θ ψ̇²)(cos ψ, sin ψ)``, ``b = l sin θ (θ̇² + cos²θ ψ̇²) − g``,
    ``m A = (1 + κ) I₂ − κ cos²θ (cos ψ, sin ψ)(cos ψ, sin ψ)ᵀ``, ``m B = κ sin θ cos θ (cos ψ, sin ψ)``,
    ``m C = 1 + κ cos²θ``.
    """
    theta, psi, theta_rate, psi_rate = q[3], q[4], v[3], v[4]
    s, c = jnp.sin(theta), jnp.cos(theta)
    direction = jnp.stack([jnp.cos(psi), jnp.sin(psi)])
    spin = theta_rate**2 + c**2 * psi_rate**2  # |ω|², the rod's angular speed squared
    kappa, l = rod.inertia_ratio, rod.half_length  # noqa: E741
    return SpatialContactSpaceForm(
        a=-l * c * spin * direction,
        b=l * s * spin - rod.gravity,
        A=((1 + kappa) * jnp.eye(2) - kappa * c**2 * jnp.outer(direction, direction)) / rod.mass,
        B=kappa * s * c * direction / rod.mass,
        C=(1 + kappa * c**2) / rod.mass,
    )


def painleve_friction(theta: ArrayLike, inertia_ratio: ArrayLike = 3.0) -> Float[Array, "..."]:
    """``μ_p(θ) = (1 + κ cos²θ) / (κ cos θ sin θ)`` (Eq. 51 with the factor 3 as ``κ = l²/ρ²``): slip in the
    direction ``ϕ`` is a Painlevé state (``p(ϕ) < 0``) exactly where ``μ cos(ϕ − ψ) > μ_p(θ)``."""
    theta = jnp.asarray(theta, dtype=float)
    kappa = jnp.asarray(inertia_ratio, dtype=float)
    s, c = jnp.sin(theta), jnp.cos(theta)
    return (1 + kappa * c**2) / (kappa * c * s)
