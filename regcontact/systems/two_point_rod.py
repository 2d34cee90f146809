"""The Painlevé rod with both ends able to touch the ground: two contacts.

Coordinates ``q = (x, y, φ)`` of the centre of mass and the angle (counter-clockwise from the ground), as for
:class:`~regcontact.systems.rod.PainleveRod`. With ``h = l/2``, ``s = sin φ``, ``c = cos φ`` the two ends are

    end 1 (at −h along the rod):   (x − h c, y − h s),        end 2 (at +h):   (x + h c, y + h s),

so the gaps (rows: normal = height of the end, tangential = its horizontal position) and Jacobians are

    g_1 = (y − h s, x − h c),   W_1 = [[0, 1, −h c], [1, 0,  h s]],   Ẇ_1 v = ( h s ω²,  h c ω²),
    g_2 = (y + h s, x + h c),   W_2 = [[0, 1,  h c], [1, 0, −h s]],   Ẇ_2 v = (−h s ω², −h c ω²).

The rod can fall on one end, rock, land flat and slide flat. Its initial state is given by the angle ``φ₀``, the
height of the lower end above the ground (``height``, 0 = touching) and the three velocities.
"""

from __future__ import annotations

import math
from typing import ClassVar

import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float

from regcontact._argument_checks import FINITE, NONNEGATIVE, Rule, check_arguments, in_open_interval
from regcontact.systems._loads import AbstractLoad
from regcontact.systems._planar_rod import AbstractPlanarRod

__all__ = ["TwoPointRod"]


class TwoPointRod(AbstractPlanarRod):
    """A rigid rod of mass ``m``, length ``l``, inertia ``I`` whose two ends are frictional contacts."""

    NUM_CONTACTS: ClassVar[int] = 2
    ARGUMENT_RULES: ClassVar[dict[str, Rule]] = {
        **AbstractPlanarRod.ROD_RULES,
        "phi0": in_open_interval(-math.pi / 2, math.pi / 2, "−π/2, π/2"),
        "height": NONNEGATIVE,
        "vx0": FINITE,
        "vy0": FINITE,
        "omega0": FINITE,
    }

    phi0: Float[Array, ""]
    height: Float[Array, ""]
    vx0: Float[Array, ""]
    vy0: Float[Array, ""]
    omega0: Float[Array, ""]

    def __init__(
        self,
        mass: ArrayLike = 1.0,
        length: ArrayLike = 2.0,
        inertia: ArrayLike | None = None,
        gravity: ArrayLike | AbstractLoad = 1.0,
        torque: ArrayLike | AbstractLoad = 0.0,
        force_x: ArrayLike | AbstractLoad = 0.0,
        mu: ArrayLike = 0.5,
        phi0: ArrayLike = 0.0,
        height: ArrayLike = 0.0,
        vx0: ArrayLike = 0.0,
        vy0: ArrayLike = 0.0,
        omega0: ArrayLike = 0.0,
    ):
        self._set_rod(mass, length, inertia, gravity, torque, force_x, mu)
        check_arguments(self.ARGUMENT_RULES, phi0=phi0, height=height, vx0=vx0, vy0=vy0, omega0=omega0)
        f64 = lambda a: jnp.asarray(a, dtype=float)  # noqa: E731
        self.phi0 = f64(phi0)
        self.height = f64(height)
        self.vx0 = f64(vx0)
        self.vy0 = f64(vy0)
        self.omega0 = f64(omega0)

    def gaps(self, q: Float[Array, "3"]) -> Float[Array, "2 2"]:
        return jnp.stack([self.end_gap(q, -1.0), self.end_gap(q, 1.0)])

    def jacobians(self, q: Float[Array, "3"]) -> Float[Array, "2 2 3"]:
        return jnp.stack([self.end_jacobian(q, -1.0), self.end_jacobian(q, 1.0)])

    def jacobian_rates(self, q: Float[Array, "3"], v: Float[Array, "3"]) -> Float[Array, "2 2"]:
        return jnp.stack([self.end_jacobian_rate(q, v, -1.0), self.end_jacobian_rate(q, v, 1.0)])

    @property
    def friction_coefficients(self) -> Float[Array, "2"]:
        return jnp.stack([self.mu, self.mu])

    def initial_state(self) -> tuple[Float[Array, "3"], Float[Array, "3"]]:
        """The lower end ``height`` above the ground (end 1 at ``x = 0``), velocities ``(v_x0, v_y0, ω₀)``."""
        h = 0.5 * self.length
        c, s = jnp.cos(self.phi0), jnp.sin(self.phi0)
        q0 = jnp.stack([h * c, self.height + h * jnp.abs(s), self.phi0])
        v0 = jnp.stack([self.vx0, self.vy0, self.omega0])
        return q0, v0
