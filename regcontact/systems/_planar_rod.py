"""What the one-contact and the two-contact rod share: a rigid rod in the plane under its applied loads (each a
number or a load profile of time)."""

from __future__ import annotations

from typing import ClassVar

import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float

from regcontact._argument_checks import (
    FINITE,
    NONNEGATIVE,
    POSITIVE,
    ArgumentError,
    Rule,
    check_arguments,
    is_traced,
    rule_problem,
)
from regcontact.systems._loads import AbstractLoad, depends_on_time, load_at, load_rule_value
from regcontact.systems.system import AbstractSystem

__all__ = ["AbstractPlanarRod", "check_slender_inertia", "slender_inertia"]


def slender_inertia(mass: ArrayLike, length: ArrayLike) -> Float[Array, ""]:
    """Moment of inertia of a thin uniform rod about its centre, ``m l² / 12``."""
    return jnp.asarray(mass, dtype=float) * jnp.asarray(length, dtype=float) ** 2 / 12.0


def check_slender_inertia(mass: ArrayLike, length: ArrayLike, inertia: ArrayLike | None) -> None:
    """With no inertia given a rod takes a slender rod's ``m l²/12``, which can overflow or underflow where ``m``
    and ``l`` are fine: refused naming ``length`` (the key the user gave), as the constructor and the config do."""
    if inertia is not None:
        return
    derived = slender_inertia(mass, length)
    if is_traced(derived):
        return
    problem = rule_problem(derived, AbstractPlanarRod.ROD_RULES["inertia"])
    if problem is not None:
        shown, expected = problem
        raise ArgumentError(
            "length",
            length,
            f"a length whose slender-rod inertia m l²/12 (mass = {mass}) is {expected} "
            f"(it is {shown}; or give inertia)",
        )


class AbstractPlanarRod(AbstractSystem):
    """A rod of mass ``m``, length ``l`` and inertia ``I`` with coordinates ``q = (x, y, φ)`` (centre of mass,
    angle counter-clockwise from the ground), under gravity ``g``, a torque ``τ`` and a horizontal force
    ``f_x``; ``M = diag(m, m, I)``. Subclasses say where the contacts are and how the rod starts.

    Each of ``gravity``, ``torque`` and ``force_x`` is a number (a constant load) or a load profile of time
    (:class:`~regcontact.systems.RampLoad`, :class:`~regcontact.systems.TableLoad`), evaluated at the ``t`` the
    forces are asked at; Champneys' ``S_y = −m g`` and ``R = τ``."""

    #: The rules of the arguments every rod has (a subclass adds those of its initial state).
    ROD_RULES: ClassVar[dict[str, Rule]] = {
        "mass": POSITIVE,
        "length": POSITIVE,
        "inertia": POSITIVE,
        "gravity": FINITE,
        "torque": FINITE,
        "force_x": FINITE,
        "mu": NONNEGATIVE,
    }

    mass: Float[Array, ""]
    length: Float[Array, ""]
    inertia: Float[Array, ""]
    gravity: Float[Array, ""] | AbstractLoad
    torque: Float[Array, ""] | AbstractLoad
    force_x: Float[Array, ""] | AbstractLoad
    mu: Float[Array, ""]

    def _set_rod(self, mass, length, inertia, gravity, torque, force_x, mu) -> None:
        """Check the shared arguments (``ARGUMENT_RULES``, the config's rules) and fill them as float64 arrays
        (``inertia=None``: a slender rod, whose ``m l²/12`` is checked too: it can overflow or underflow); a load
        profile is kept as it is (it checked its own arguments)."""
        check_arguments(
            {**self.ROD_RULES, **self.ARGUMENT_RULES},
            mass=mass,
            length=length,
            inertia=inertia,
            gravity=load_rule_value(gravity),
            torque=load_rule_value(torque),
            force_x=load_rule_value(force_x),
            mu=mu,
        )
        check_slender_inertia(mass, length, inertia)
        f64 = lambda a: jnp.asarray(a, dtype=float)  # noqa: E731
        self.mass = f64(mass)
        self.length = f64(length)
        self.inertia = f64(slender_inertia(mass, length) if inertia is None else inertia)
        load = lambda a: a if isinstance(a, AbstractLoad) else f64(a)  # noqa: E731
        self.gravity = load(gravity)
        self.torque = load(torque)
        self.force_x = load(force_x)
        self.mu = f64(mu)

    # -- the two ends: end 1 at −l/2 along the rod (side −1), end 2 at +l/2 (side +1) ----------------------------

    def end_gap(self, q: Float[Array, "3"], side: float) -> Float[Array, "2"]:
        """``(g_n, g_t)`` of an end: its height and its horizontal position, ``(y + side h s, x + side h c)``."""
        x, y, phi = q
        h = 0.5 * self.length
        return jnp.stack([y + side * (h * jnp.sin(phi)), x + side * (h * jnp.cos(phi))])

    def end_jacobian(self, q: Float[Array, "3"], side: float) -> Float[Array, "2 3"]:
        """``∂g/∂q`` of an end: ``[[0, 1, side h c], [1, 0, −side h s]]``."""
        phi = q[2]
        h = 0.5 * self.length
        zero, one = jnp.zeros_like(phi), jnp.ones_like(phi)
        c, s = side * (h * jnp.cos(phi)), -side * (h * jnp.sin(phi))
        return jnp.stack([jnp.stack([zero, one, c]), jnp.stack([one, zero, s])])

    def end_jacobian_rate(self, q: Float[Array, "3"], v: Float[Array, "3"], side: float) -> Float[Array, "2"]:
        """``J̇ v`` of an end: ``−side (h s ω², h c ω²)``."""
        phi, omega = q[2], v[2]
        h = 0.5 * self.length
        return -side * jnp.stack([h * jnp.sin(phi) * omega**2, h * jnp.cos(phi) * omega**2])

    def mass_matrix(self, q: Float[Array, "3"] | None = None) -> Float[Array, "3 3"]:
        """``M = diag(m, m, I)`` (Preclik Eq. 1); constant (``q`` is not needed)."""
        return jnp.diag(jnp.stack([self.mass, self.mass, self.inertia]))

    def mass_solve(self, q: Float[Array, "3"], force: Float[Array, "3"]) -> Float[Array, "3"]:
        """``M⁻¹ f`` by division (the mass matrix is diagonal)."""
        return force / jnp.stack([self.mass, self.mass, self.inertia])

    def applied_force(self, t: ArrayLike = 0.0) -> Float[Array, "3"]:
        """Generalised applied force ``(f_x, f_y, τ)`` at time ``t``, with ``f_y = −m g``."""
        force_x, gravity, torque = (load_at(load, t) for load in (self.force_x, self.gravity, self.torque))
        return jnp.stack([force_x, -self.mass * gravity, torque])

    def forces(self, q: Float[Array, "3"], v: Float[Array, "3"], t: ArrayLike = 0.0) -> Float[Array, "3"]:
        """``h``: the applied loads at ``t``."""
        return self.applied_force(t)

    @property
    def time_dependent_loads(self) -> bool:
        return depends_on_time(self.gravity, self.torque, self.force_x)

    @property
    def length_scale(self) -> Float[Array, ""]:
        return self.length

    def potential_energy(self, q: Float[Array, "3"]) -> Float[Array, ""]:
        """``m g y − τ φ − f_x x`` (of the loads at ``t = 0`` where they depend on time: such loads have no
        potential, :attr:`time_dependent_loads`)."""
        force_x, gravity, torque = (load_at(load, 0.0) for load in (self.force_x, self.gravity, self.torque))
        return self.mass * gravity * q[1] - torque * q[2] - force_x * q[0]

    def kinetic_energy(self, q: Float[Array, "3"], v: Float[Array, "3"]) -> Float[Array, ""]:
        return 0.5 * (self.mass * (v[0] ** 2 + v[1] ** 2) + self.inertia * v[2] ** 2)
