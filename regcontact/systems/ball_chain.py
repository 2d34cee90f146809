"""Balls on a line, each touching the next: a chain struck at one end, Newton's cradle, a column of beads.

``N`` balls of radii ``r_i`` and masses ``m_i`` move along one axis ``x`` (for a column of beads: up); each also
has a coordinate ``y`` across the line, the tangential direction of its contacts, so the contacts are planar ones
of the toolkit (frictionless: ``μ = 0``). ``q = (x_1 … x_N, y_1 … y_N)``. Contact ``j`` between balls ``i`` and
``i + 1`` has the gap and Jacobian rows

    g_j = (x_{i+1} − x_i − r_i − r_{i+1},  y_{i+1} − y_i),     ġ_j = (v_{x,i+1} − v_{x,i},  v_{y,i+1} − v_{y,i}),

and a column of beads on a floor at ``x = 0`` has one more contact, first: ``g_0 = (x_1 − r_1, y_1)``. The
Jacobians are constant (``Ẇ v = 0``). The applied forces are gravity along ``−x`` and, for a cradle, each ball's
pendulum, linearised about its rest place ``x_i⁰``: ``−m_i ω² (x_i − x_i⁰)`` (``ω² = g/L`` for strings of length
``L``). Without them the impact of a touching chain is scale-free: a compliant run at any α ends with its limit.

The chain starts touching (every gap zero), ball ``i`` with velocity ``v_i⁰``: one ball moving into the others is a
struck chain or cradle; all moving down onto the floor, a dropped column.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

import equinox as eqx
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Float

from regcontact._argument_checks import FINITE, NONNEGATIVE, POSITIVE, Rule, check_argument, check_arguments
from regcontact.systems.system import AbstractSystem

__all__ = ["BallChain", "ball_chain", "hertz_stiffness"]


class BallChain(AbstractSystem):
    """A frictionless chain of balls on a line (see the module docstring), with or without a floor under the first
    ball. Its number of contacts is a class constant, so a chain is made by :func:`ball_chain`, which picks the
    subclass of its size; ``BallChain`` itself has no ``NUM_CONTACTS``."""

    ARGUMENT_RULES: ClassVar[dict[str, Rule]] = {"gravity": NONNEGATIVE, "pendulum": NONNEGATIVE, "v0": FINITE}

    radii: Float[Array, " N"]
    masses: Float[Array, " N"]
    v0: Float[Array, " N"]
    gravity: Float[Array, ""]
    pendulum: Float[Array, ""]
    floor: bool = eqx.field(static=True)

    def __init__(
        self,
        radii: ArrayLike,
        masses: ArrayLike,
        v0: ArrayLike,
        gravity: ArrayLike = 0.0,
        pendulum: ArrayLike = 0.0,
        floor: bool = False,
    ):
        radii, masses, v0 = (np.asarray(a, dtype=float) for a in (radii, masses, v0))
        shape = radii.shape
        if len(shape) != 1 or shape[0] < 1 or masses.shape != shape or v0.shape != shape:
            raise ValueError(
                f"BallChain: radii, masses and v0 of shapes {shape}, {masses.shape}, {v0.shape}: expected one value "
                "per ball, the same shape (N,)"
            )
        if not (np.all(radii > 0) and np.all(masses > 0)):
            raise ValueError("BallChain: radii and masses: expected positive numbers")
        for name, value in (("radii", radii), ("masses", masses)):  # a subnormal one is zero in JAX
            check_argument(name, value, POSITIVE)
        check_arguments(self.ARGUMENT_RULES, gravity=gravity, pendulum=pendulum, v0=v0)
        expected = shape[0] - 1 + int(floor)
        if getattr(type(self), "NUM_CONTACTS", None) != expected:
            raise TypeError(f"BallChain of {shape[0]} balls, floor={floor}: make it with ball_chain(...)")
        self.radii, self.masses, self.v0 = (jnp.asarray(a) for a in (radii, masses, v0))
        self.gravity = jnp.asarray(gravity, dtype=float)
        self.pendulum = jnp.asarray(pendulum, dtype=float)
        self.floor = bool(floor)

    @property
    def num_balls(self) -> int:
        return int(self.radii.shape[0])

    def _rows(self) -> np.ndarray:
        """The constant ``W`` (``(k, 2, 2N)``), built from the static sizes only."""
        n, floor = self.num_balls, int(self.floor)
        rows = np.zeros((n - 1 + floor, 2, 2 * n))
        if floor:
            rows[0, 0, 0], rows[0, 1, n] = 1.0, 1.0
        for i in range(n - 1):
            j = i + floor
            rows[j, 0, i], rows[j, 0, i + 1], rows[j, 1, n + i], rows[j, 1, n + i + 1] = -1.0, 1.0, -1.0, 1.0
        return rows

    def rest_positions(self) -> Float[Array, " N"]:
        """``x_i⁰``: every ball touching the next (and the first the floor, or its centre at ``x = 0``)."""
        r = self.radii
        start = r[0] if self.floor else jnp.zeros(())
        return start + jnp.concatenate([jnp.zeros(1), jnp.cumsum(r[:-1] + r[1:])])

    def mass_matrix(self, q: Float[Array, " n"]) -> Float[Array, "n n"]:
        return jnp.diag(jnp.concatenate([self.masses, self.masses]))

    def mass_solve(self, q: Float[Array, " n"], force: Float[Array, " n"]) -> Float[Array, " n"]:
        return force / jnp.concatenate([self.masses, self.masses])

    def forces(self, q: Float[Array, " n"], v: Float[Array, " n"], t: ArrayLike) -> Float[Array, " n"]:
        x = q[: self.num_balls]
        along = -self.masses * (self.gravity + self.pendulum * (x - self.rest_positions()))
        return jnp.concatenate([along, jnp.zeros(self.num_balls)])

    def gaps(self, q: Float[Array, " n"]) -> Float[Array, "k 2"]:
        n, r = self.num_balls, self.radii
        x, y = q[:n], q[n:]
        between = jnp.stack([x[1:] - x[:-1] - r[1:] - r[:-1], y[1:] - y[:-1]], axis=1)
        if not self.floor:
            return between
        return jnp.concatenate([jnp.stack([x[0] - r[0], y[0]])[None], between])

    def jacobians(self, q: Float[Array, " n"]) -> Float[Array, "k 2 n"]:
        return jnp.asarray(self._rows())

    def jacobian_rates(self, q: Float[Array, " n"], v: Float[Array, " n"]) -> Float[Array, "k 2"]:
        return jnp.zeros((type(self).NUM_CONTACTS, 2))

    @property
    def friction_coefficients(self) -> Float[Array, " k"]:
        return jnp.zeros(type(self).NUM_CONTACTS)

    def potential_energy(self, q: Float[Array, " n"]) -> Float[Array, ""]:
        x = q[: self.num_balls]
        offset = x - self.rest_positions()
        return jnp.sum(self.masses * (self.gravity * x + 0.5 * self.pendulum * offset**2))

    def initial_state(self) -> tuple[Float[Array, " n"], Float[Array, " n"]]:
        zeros = jnp.zeros(self.num_balls)
        return jnp.concatenate([self.rest_positions(), zeros]), jnp.concatenate([self.v0, zeros])

    @property
    def length_scale(self) -> Float[Array, ""]:
        return 2.0 * jnp.sum(self.radii)


@functools.cache
def _chain_class(num_contacts: int) -> type[BallChain]:
    metaclass: Any = type(BallChain)  # equinox's: the subclass is a module like its base
    return metaclass("BallChain", (BallChain,), {"NUM_CONTACTS": num_contacts, "__module__": __name__})


def ball_chain(
    radii: ArrayLike,
    masses: ArrayLike,
    v0: ArrayLike,
    gravity: ArrayLike = 0.0,
    pendulum: ArrayLike = 0.0,
    floor: bool = False,
) -> BallChain:
    """A touching chain of balls on a line (:class:`BallChain`), of the subclass with its number of contacts.

    Args:
        radii: ``r_i`` of the ``N`` balls, in order along ``x``.
        masses: ``m_i``.
        v0: the balls' velocities along ``x`` at the start (all touching).
        gravity: ``g`` along ``−x`` (a column of beads), ≥ 0.
        pendulum: ``ω² = g/L`` of each ball's linearised pendulum (Newton's cradle), ≥ 0.
        floor: a floor under the first ball (one more contact, the first).

    Returns:
        The chain, with ``N − 1`` contacts (``N`` with a floor), frictionless.

    Examples:
        >>> import regcontact as rc
        >>> cradle = rc.systems.ball_chain([1.0] * 5, [1.0] * 5, [1.0, 0, 0, 0, 0], pendulum=1e-3)
        >>> type(cradle).NUM_CONTACTS
        4
    """
    count = np.shape(radii)[0] if np.ndim(radii) == 1 else 0
    return _chain_class(max(count - 1 + int(floor), 1))(radii, masses, v0, gravity, pendulum, floor)


def hertz_stiffness(radii: ArrayLike, floor: bool = False) -> np.ndarray:
    """Hertz's ``k = (4/3) E* √R`` with ``E* = 1`` for each contact of a chain of balls of one material: between
    neighbours ``R = r_i r_{i+1}/(r_i + r_{i+1})``, ``E* = E/(2(1 − ν²))``; a floor of the same material under the
    first ball, ``R = r_1``, the same ``E*``. Multiply by the material's ``E*`` for physical units (the limit
    impact needs only the ratios)."""
    r = np.asarray(radii, dtype=float)
    between = 4.0 / 3.0 * np.sqrt(r[:-1] * r[1:] / (r[:-1] + r[1:]))
    return np.concatenate([[4.0 / 3.0 * np.sqrt(r[0])], between]) if floor else between
