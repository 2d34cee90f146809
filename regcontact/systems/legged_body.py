"""A rigid body standing on two legs on a slope: two point contacts fixed in the body (Champneys & Várkonyi Sec. 6.4).

The ground is a straight line inclined at the angle ``β``; coordinates are taken in its frame, ``x`` down the slope
and ``y`` normal to it, so gravity is ``g (sin β, −cos β)``. ``q = (x, y, φ)`` is the centre of mass and the body's
angle; leg ``i`` ends at the body-frame point ``r_i`` (relative to the centre of mass at ``φ = 0``), at
``p_i = (x, y) + R(φ) r_i`` with ``R(φ) r = (c r_x − s r_y, s r_x + c r_y)``. The gaps, Jacobians and ``J̇ v``:

    g_i = (p_i,y, p_i,x),
    W_i = [[0, 1,  c r_x − s r_y], [1, 0, −s r_x − c r_y]],
    Ẇ_i v = (−(s r_x + c r_y) ω², −(c r_x − s r_y) ω²).

``M = diag(m, m, m ρ²)`` with the radius of gyration ``ρ``. The body starts standing on both legs (they must be at
one height in the body frame, ``r_1,y = r_2,y < 0``) with the velocities ``(v_x0, v_y0, ω₀)``: a perturbation of
the rest state.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar

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
from regcontact.systems.system import AbstractSystem

__all__ = ["TwoLeggedBody"]


class TwoLeggedBody(AbstractSystem):
    """A rigid body of mass ``m`` and radius of gyration ``ρ`` on two legs ``r_1``, ``r_2`` (body frame, from the
    centre of mass) with friction coefficients ``μ_1``, ``μ_2``, on a slope of angle ``β`` (module docstring)."""

    NUM_CONTACTS: ClassVar[int] = 2
    ARGUMENT_RULES: ClassVar[dict[str, Rule]] = {
        "legs": FINITE,
        "mass": POSITIVE,
        "gyration": POSITIVE,
        "gravity": FINITE,
        "slope": in_open_interval(-math.pi / 2, math.pi / 2, "−π/2, π/2"),
        "mu": NONNEGATIVE,
        "vx0": FINITE,
        "vy0": FINITE,
        "omega0": FINITE,
    }

    mass: Float[Array, ""]
    gyration: Float[Array, ""]
    gravity: Float[Array, ""]
    slope: Float[Array, ""]
    legs: Float[Array, "2 2"]
    mu: Float[Array, "2"]
    vx0: Float[Array, ""]
    vy0: Float[Array, ""]
    omega0: Float[Array, ""]

    def __init__(
        self,
        legs: ArrayLike | Sequence[Sequence[float]] = ((-1.0, -1.0), (1.0, -1.0)),
        mu: ArrayLike | Sequence[float] = (0.5, 0.5),
        mass: ArrayLike = 1.0,
        gyration: ArrayLike = 0.5,
        gravity: ArrayLike = 1.0,
        slope: ArrayLike = 0.0,
        vx0: ArrayLike = 0.0,
        vy0: ArrayLike = 0.0,
        omega0: ArrayLike = 0.0,
    ):
        check_arguments(
            self.ARGUMENT_RULES,
            legs=legs,
            mass=mass,
            gyration=gyration,
            gravity=gravity,
            slope=slope,
            mu=mu,
            vx0=vx0,
            vy0=vy0,
            omega0=omega0,
        )
        f64 = lambda a: jnp.asarray(a, dtype=float)  # noqa: E731
        self.legs = f64(jnp.asarray(legs, dtype=float)).reshape(2, 2)
        self.mu = f64(mu).reshape(2)
        self.mass, self.gyration, self.gravity, self.slope = f64(mass), f64(gyration), f64(gravity), f64(slope)
        self.vx0, self.vy0, self.omega0 = f64(vx0), f64(vy0), f64(omega0)

    def __check_init__(self):
        if is_traced(self.legs) or np.ndim(self.legs) != 2:
            return  # a traced body has no values yet; a batch is checked body by body
        legs = np.asarray(self.legs)
        heights = legs[:, 1]
        if not np.all(heights < 0) or abs(heights[0] - heights[1]) > 1e-12 * np.abs(legs).max():
            raise ArgumentError("legs", legs.tolist(), "both legs below the centre, at one height")

    def _rotated(self, phi: Float[Array, ""]) -> tuple[Float[Array, "2"], Float[Array, "2"]]:
        """``(R r_i)_x`` and ``(R r_i)_y`` of both legs."""
        c, s = jnp.cos(phi), jnp.sin(phi)
        rx, ry = self.legs[:, 0], self.legs[:, 1]
        return c * rx - s * ry, s * rx + c * ry

    def gaps(self, q: Float[Array, "3"]) -> Float[Array, "2 2"]:
        px, py = self._rotated(q[2])
        return jnp.stack([q[1] + py, q[0] + px], axis=1)

    def jacobians(self, q: Float[Array, "3"]) -> Float[Array, "2 2 3"]:
        px, py = self._rotated(q[2])
        zero, one = jnp.zeros(2), jnp.ones(2)
        normal = jnp.stack([zero, one, px], axis=1)  # d(R r)_y/dφ = (R r)_x
        tangential = jnp.stack([one, zero, -py], axis=1)  # d(R r)_x/dφ = −(R r)_y
        return jnp.stack([normal, tangential], axis=1)

    def jacobian_rates(self, q: Float[Array, "3"], v: Float[Array, "3"]) -> Float[Array, "2 2"]:
        px, py = self._rotated(q[2])
        omega2 = v[2] ** 2
        return jnp.stack([-py * omega2, -px * omega2], axis=1)

    def mass_matrix(self, q: Float[Array, "3"] | None = None) -> Float[Array, "3 3"]:
        return jnp.diag(jnp.stack([self.mass, self.mass, self.mass * self.gyration**2]))

    def forces(self, q: Float[Array, "3"], v: Float[Array, "3"], t: ArrayLike) -> Float[Array, "3"]:
        weight = self.mass * self.gravity
        return jnp.stack([weight * jnp.sin(self.slope), -weight * jnp.cos(self.slope), jnp.zeros_like(weight)])

    def potential_energy(self, q: Float[Array, "3"]) -> Float[Array, ""]:
        weight = self.mass * self.gravity
        return weight * (q[1] * jnp.cos(self.slope) - q[0] * jnp.sin(self.slope))

    @property
    def friction_coefficients(self) -> Float[Array, "2"]:
        return self.mu

    def initial_state(self) -> tuple[Float[Array, "3"], Float[Array, "3"]]:
        """Standing on both legs (``φ = 0``, the centre at ``x = 0``), with the velocities ``(v_x0, v_y0, ω₀)``."""
        q0 = jnp.stack([jnp.zeros_like(self.mass), -self.legs[0, 1], jnp.zeros_like(self.mass)])
        return q0, jnp.stack([self.vx0, self.vy0, self.omega0])

    @property
    def length_scale(self) -> Float[Array, ""]:
        return jnp.abs(self.legs).max()
