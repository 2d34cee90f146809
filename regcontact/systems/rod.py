"""The Painlevé rod of Preclik & Rüde (2011), Eqs. 1–4.

A rigid rod of mass ``m``, length ``l`` and moment of inertia ``I`` whose lower end touches the ground.
Generalised coordinates ``q = (x, y, φ)``: the centre of mass and the angle between ground and rod,
counter-clockwise. Velocities ``v = (v_x, v_y, ω)``. The contact point is the lower end of the rod,
``(x − (l/2) cos φ, y − (l/2) sin φ)``, so the gap (Eq. 2) is

    g_n = y − (l/2) sin φ,        g_t = x − (l/2) cos φ

(``g_t`` measured from the initial contact point at the origin), the contact Jacobian (Eq. 3) is
``J = ∂g/∂q``, and the equations of motion (Eq. 1, Eq. 21) are ``M v̇ = f + Jᵀ λ`` with
``λ = (λ_n, λ_t)``.

All parameters are JAX arrays in a pytree, so a batch of rods is a ``vmap`` away and a new value of a
parameter never triggers recompilation. As a :class:`~regcontact.systems.system.AbstractSystem` it has one contact
(``k = 1``); the one-contact helpers ``gap``, ``jacobian``, ``jacobian_rate`` and ``applied_force`` remain for
the code that studies a single contact (rigid formulations of Preclik & Rüde, Champneys' reduction).
"""

from __future__ import annotations

import math
from typing import ClassVar

import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float

from regcontact._argument_checks import FINITE, Rule, check_arguments, in_open_interval
from regcontact.systems._loads import AbstractLoad
from regcontact.systems._planar_rod import AbstractPlanarRod, slender_inertia

__all__ = ["PainleveRod", "slender_inertia"]


class PainleveRod(AbstractPlanarRod):
    """Parameters of the rod and of its initial state.

    The initial state (Preclik Sec. 2.1) has the lower end at the origin, in contact (``g_n = 0``), with the
    contact point at rest in the normal direction (``ġ_n = 0``): ``v_y = (l/2) cos φ₀ ω₀``.

    Args:
        mass: ``m > 0``.
        length: ``l > 0``.
        inertia: ``I > 0``; default: a slender rod, ``m l² / 12``.
        gravity: ``g`` (the applied vertical force is ``f_y = −m g``).
        torque: applied torque ``τ`` (Sec. 2.2 gives a torque just below the lift-off threshold).
        force_x: applied horizontal force ``f_x``. Each of ``gravity``, ``torque``, ``force_x`` may be a load
            profile of time (:class:`~regcontact.systems.RampLoad`, :class:`~regcontact.systems.TableLoad`).
        mu: friction coefficient ``μ ≥ 0``.
        phi0: initial angle ``φ₀`` in (0, π), counter-clockwise from the ground.
        vx0: initial horizontal velocity.
        omega0: initial angular velocity.

    Concrete values (Python numbers, numpy arrays, eager JAX arrays) are checked with the config's rules,
    :attr:`ARGUMENT_RULES` (``mass = -1: expected a positive number``), and the rod they make with
    :func:`~regcontact.systems.system.check_system`'s (a positive definite mass matrix); traced values are checked
    where a compliant run uses them.

    Examples:
        >>> import regcontact as rc
        >>> rc.PainleveRod(mu=2.0, phi0=1.0)
        PainleveRod(mass=1, length=2, inertia=0.333333, gravity=1, torque=0, force_x=0, mu=2, phi0=1, vx0=-1, omega0=0)
    """

    NUM_CONTACTS: ClassVar[int] = 1
    ARGUMENT_RULES: ClassVar[dict[str, Rule]] = {
        **AbstractPlanarRod.ROD_RULES,
        "phi0": in_open_interval(0.0, math.pi, "0, π"),
        "vx0": FINITE,
        "omega0": FINITE,
    }

    phi0: Float[Array, ""]
    vx0: Float[Array, ""]
    omega0: Float[Array, ""]

    def __init__(
        self,
        mass: ArrayLike = 1.0,
        length: ArrayLike = 2.0,
        inertia: ArrayLike | None = None,
        gravity: ArrayLike | AbstractLoad = 1.0,
        torque: ArrayLike | AbstractLoad = 0.0,
        force_x: ArrayLike | AbstractLoad = 0.0,
        mu: ArrayLike = 1.5,
        phi0: ArrayLike = jnp.pi / 3,
        vx0: ArrayLike = -1.0,
        omega0: ArrayLike = 0.0,
    ):
        self._set_rod(mass, length, inertia, gravity, torque, force_x, mu)
        check_arguments(self.ARGUMENT_RULES, phi0=phi0, vx0=vx0, omega0=omega0)
        f64 = lambda a: jnp.asarray(a, dtype=float)  # noqa: E731
        self.phi0 = f64(phi0)
        self.vx0 = f64(vx0)
        self.omega0 = f64(omega0)

    # -- kinematics -------------------------------------------------------------------------------------

    def gap(self, q: Float[Array, "3"]) -> Float[Array, "2"]:
        """``(g_n, g_t)`` of Eq. 2: the lower end (end 1 of the rod, at −l/2)."""
        return self.end_gap(q, -1.0)

    def jacobian(self, q: Float[Array, "3"]) -> Float[Array, "2 3"]:
        """Contact Jacobian ``J = ∂g/∂q`` of Eq. 3 (rows: normal, tangential)."""
        return self.end_jacobian(q, -1.0)

    def jacobian_rate(self, q: Float[Array, "3"], v: Float[Array, "3"]) -> Float[Array, "2"]:
        """``J̇ v``: the velocity-dependent part of ``g̈`` in Eq. 4."""
        return self.end_jacobian_rate(q, v, -1.0)

    # -- the system interface (one contact) ---------------------------------------------------------------

    def gaps(self, q: Float[Array, "3"]) -> Float[Array, "1 2"]:
        return self.gap(q)[None]

    def jacobians(self, q: Float[Array, "3"]) -> Float[Array, "1 2 3"]:
        return self.jacobian(q)[None]

    def jacobian_rates(self, q: Float[Array, "3"], v: Float[Array, "3"]) -> Float[Array, "1 2"]:
        return self.jacobian_rate(q, v)[None]

    @property
    def friction_coefficients(self) -> Float[Array, "1"]:
        return self.mu[None]

    # -- state ------------------------------------------------------------------------------------------

    def initial_state(self) -> tuple[Float[Array, "3"], Float[Array, "3"]]:
        """``(q₀, v₀)``: lower end at the origin, in contact, at rest in the normal direction."""
        half = 0.5 * self.length
        c, s = jnp.cos(self.phi0), jnp.sin(self.phi0)
        q0 = jnp.stack([half * c, half * s, self.phi0])
        v0 = jnp.stack([self.vx0, half * c * self.omega0, self.omega0])
        return q0, v0
