"""Champneys & Várkonyi's contact-space form of one planar contact, as a system (their Eqs. 8–11).

A single contact reduced to its own coordinates: ``x`` along the contact (slip velocity ``u = ẋ``) and ``y``
normal to it (the gap, ``v = ẏ``), with

    u̇ = a + A λ_T + B λ_N,        v̇ = b + B λ_T + C λ_N.

As a system, ``q = (x, y)``, the inverse mass matrix is the contact-space Delassus matrix ``M⁻¹ = [[A, B], [B,
C]]`` (symmetric positive definite: ``A > 0``, ``AC − B² > 0``), the applied force ``h = M (a, b)`` is constant
(or given in time, where ``a`` or ``b`` is a load profile), and the one contact has gap ``(g_n, g_t) = (y, x)``
with ``λ = (λ_N, λ_T)``. This lets the compliant model run at any point of the (a, b) plane, not only where a rod
can reach. ``a``, ``b`` do not follow the motion: the velocity
terms they contain for a real body (``Ẇ v``) are frozen at the state they were computed at, so the form is the
body's own only over times short against its rotation (the impulsive phase at large α).

Signs are Champneys': ``u > 0`` is slip in the ``+x`` direction (mode S+), so friction pushes ``λ_T < 0`` then.
"""

from __future__ import annotations

from typing import Any, ClassVar

import equinox as eqx
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Float

from regcontact._argument_checks import FINITE, NONNEGATIVE, POSITIVE, ArgumentError, Rule, check_arguments, is_traced
from regcontact.systems._loads import AbstractLoad, depends_on_time, load_at, load_rule_value
from regcontact.systems.system import AbstractSystem

__all__ = ["ContactSpaceForm", "ReducedSingleContact", "check_inverse_mass"]


def check_inverse_mass(A: Any, B: Any, C: Any) -> None:
    """The rule of the contact-space inverse mass ``[[A, B], [B, C]]`` (``A, C > 0`` by their own rules): positive
    definite, ``B² < A C``, else there is no mass matrix. Raises :class:`~regcontact._argument_checks.ArgumentError`
    naming ``B``; elementwise over a batch; traced values pass."""
    if is_traced((A, B, C)):
        return
    a, b, c = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (A, B, C)))
    with np.errstate(invalid="ignore", over="ignore"):
        bad = ~(a * c - b**2 > 0.0)
    if np.any(bad):
        i = int(np.argmax(bad.ravel()))
        shown = B if isinstance(B, int | float) else float(b.flat[i])
        raise ArgumentError(
            "B",
            shown,
            f"B² < A C = {float(a.flat[i] * c.flat[i]):g}: the contact-space inverse mass [[A, B], [B, C]] must be "
            "positive definite (else the mass matrix is singular or indefinite)",
        )


class ContactSpaceForm(eqx.Module):
    """The quantities of Champneys' contact-space form, ``u̇ = a + A λ_T + B λ_N``, ``v̇ = b + B λ_T + C λ_N``, with
    the friction coefficient ``μ``: what the reduced system and the fast-scale analysis
    (:class:`~regcontact.stability.FastScaleSystem`) are both made of."""

    a: Float[Array, ""]
    b: Float[Array, ""]
    A: Float[Array, ""]
    B: Float[Array, ""]
    C: Float[Array, ""]
    mu: Float[Array, ""]

    def inverse_mass_matrix(self) -> Float[Array, "2 2"]:
        """``[[A, B], [B, C]]``: how forces along and normal to the contact accelerate it."""
        return jnp.stack([jnp.stack([self.A, self.B]), jnp.stack([self.B, self.C])])


class ReducedSingleContact(AbstractSystem, ContactSpaceForm):
    """One contact in Champneys' contact-space form ``(a, b, A, B, C, μ)``, starting in contact at ``y = 0``.

    ``a`` and ``b`` may be load profiles of time (:class:`~regcontact.systems.RampLoad`,
    :class:`~regcontact.systems.TableLoad`): the free accelerations at the ``t`` the forces are asked at."""

    NUM_CONTACTS: ClassVar[int] = 1
    ARGUMENT_RULES: ClassVar[dict[str, Rule]] = {
        "a": FINITE,
        "b": FINITE,
        "A": POSITIVE,
        "B": FINITE,
        "C": POSITIVE,
        "mu": NONNEGATIVE,
        "slip0": FINITE,
        "normal_velocity0": FINITE,
    }

    slip0: Float[Array, ""]
    normal_velocity0: Float[Array, ""]

    def __init__(
        self,
        a: ArrayLike | AbstractLoad = 0.0,
        b: ArrayLike | AbstractLoad = -1.0,
        A: ArrayLike = 1.0,
        B: ArrayLike = 0.0,
        C: ArrayLike = 1.0,
        mu: ArrayLike = 0.5,
        slip0: ArrayLike = 0.0,
        normal_velocity0: ArrayLike = 0.0,
    ):
        check_arguments(
            self.ARGUMENT_RULES,
            a=load_rule_value(a),
            b=load_rule_value(b),
            A=A,
            B=B,
            C=C,
            mu=mu,
            slip0=slip0,
            normal_velocity0=normal_velocity0,
        )
        check_inverse_mass(A, B, C)
        f64 = lambda x: jnp.asarray(x, dtype=float)  # noqa: E731
        load = lambda x: x if isinstance(x, AbstractLoad) else f64(x)  # noqa: E731
        self.a, self.b = load(a), load(b)  # type: ignore[assignment]  # a profile where a load of time is given
        self.A, self.B, self.C = f64(A), f64(B), f64(C)
        self.mu, self.slip0, self.normal_velocity0 = f64(mu), f64(slip0), f64(normal_velocity0)

    def mass_matrix(self, q: Float[Array, "2"] | None = None) -> Float[Array, "2 2"]:
        return jnp.linalg.inv(self.inverse_mass_matrix())

    def mass_solve(self, q: Float[Array, "2"], force: Float[Array, "2"]) -> Float[Array, "2"]:
        return self.inverse_mass_matrix() @ force

    def forces(self, q: Float[Array, "2"], v: Float[Array, "2"], t: ArrayLike = 0.0) -> Float[Array, "2"]:
        """``h = M (a, b)``: the free accelerations are ``(a, b)`` (at ``t``)."""
        return self.mass_matrix() @ jnp.stack([load_at(self.a, t), load_at(self.b, t)])

    @property
    def time_dependent_loads(self) -> bool:
        return depends_on_time(self.a, self.b)

    def gaps(self, q: Float[Array, "2"]) -> Float[Array, "1 2"]:
        return jnp.stack([q[1], q[0]])[None]

    def jacobians(self, q: Float[Array, "2"]) -> Float[Array, "1 2 2"]:
        return jnp.array([[[0.0, 1.0], [1.0, 0.0]]])

    def jacobian_rates(self, q: Float[Array, "2"], v: Float[Array, "2"]) -> Float[Array, "1 2"]:
        return jnp.zeros((1, 2))

    @property
    def friction_coefficients(self) -> Float[Array, "1"]:
        return self.mu[None]

    def potential_energy(self, q: Float[Array, "2"]) -> Float[Array, ""]:
        """``−h · q``: the potential of the constant force (of the force at ``t = 0`` where it depends on time)."""
        return -self.forces(q, q) @ q

    def initial_state(self) -> tuple[Float[Array, "2"], Float[Array, "2"]]:
        """In contact (``x = y = 0``) with slip ``u₀`` and normal velocity ``v₀``."""
        return jnp.zeros(2), jnp.stack([self.slip0, self.normal_velocity0])

    @property
    def length_scale(self) -> Float[Array, ""]:
        """Contact-space coordinates start at zero; a unit scale bounds the gap's round-off from above."""
        return jnp.asarray(1.0)
