"""Reduced contact dynamics of a planar single-contact system (Champneys & Várkonyi 2016, Eqs. 7–11): the
scalars ``a, b, A, B, C`` of ``u̇ = a + Aλ_T + Bλ_N``, ``v̇ = b + Bλ_T + Cλ_N`` and the Painlevé parameters
(sign conventions: ``docs/stability.md``, "Sign conventions")."""

from __future__ import annotations

import equinox as eqx
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Bool, Float

from regcontact.stability._checks import check_values
from regcontact.systems.rod import PainleveRod

__all__ = [
    "ReducedDynamics",
    "PainleveParameters",
    "reduced_dynamics",
    "rod_reduced_dynamics",
    "painleve_parameters",
    "at_most_one_nonpositive",
]


class ReducedDynamics(eqx.Module):
    """The scalars of Eqs. 8–10 and the contact-point velocities ``(u, v)`` at one state.

    ``A > 0``, ``C > 0`` and ``AC − B² > 0`` whenever the mass matrix is positive definite (Eq. 10).
    """

    a: Float[Array, ...]
    b: Float[Array, ...]
    A: Float[Array, ...]
    B: Float[Array, ...]
    C: Float[Array, ...]
    u: Float[Array, ...]
    v: Float[Array, ...]

    def tangential_acceleration(self, lambda_t: ArrayLike, lambda_n: ArrayLike) -> Float[Array, ...]:
        """``u̇`` of Eq. 8 for given contact forces."""
        return self.a + self.A * lambda_t + self.B * lambda_n

    def normal_acceleration(self, lambda_t: ArrayLike, lambda_n: ArrayLike) -> Float[Array, ...]:
        """``v̇`` of Eq. 9 for given contact forces."""
        return self.b + self.B * lambda_t + self.C * lambda_n


class PainleveParameters(eqx.Module):
    """``p± = C ∓ μB`` (Eqs. 13, 18) and ``k± = μA ∓ B`` (Eq. 23).

    ``p±`` is the normal acceleration per unit normal force while slipping with ``±u > 0`` (negative: the
    Painlevé paradox for that slip direction); ``k±`` is minus the tangential acceleration per unit normal force
    in the same slip (negative: friction cannot stop the slip).
    """

    p_plus: Float[Array, ...]
    p_minus: Float[Array, ...]
    k_plus: Float[Array, ...]
    k_minus: Float[Array, ...]


def reduced_dynamics(
    mass_matrix: Float[Array, "n n"],
    jacobian: Float[Array, "2 n"],
    applied_force: Float[Array, " n"],
    velocity: Float[Array, " n"],
    jacobian_rate: Float[Array, "2"],
) -> ReducedDynamics:
    """Reduced quantities from a generic description of the system at one state.

    ``jacobian`` has rows ``(d, c) = (∂y/∂q, ∂x/∂q)`` (normal first, as ``regcontact.systems.rod``), ``applied_force``
    is ``f`` of Eq. 7 (all non-contact generalised forces, velocity-dependent ones included) and
    ``jacobian_rate`` is ``J̇ q̇ = (ḋᵀq̇, ċᵀq̇)``.
    """
    check_values(
        mass_matrix=mass_matrix,
        jacobian=jacobian,
        applied_force=applied_force,
        velocity=velocity,
        jacobian_rate=jacobian_rate,
    )
    d, c = jacobian[0], jacobian[1]
    inverse_mass_c = jnp.linalg.solve(mass_matrix, c)
    inverse_mass_d = jnp.linalg.solve(mass_matrix, d)
    inverse_mass_f = jnp.linalg.solve(mass_matrix, applied_force)
    return ReducedDynamics(
        a=c @ inverse_mass_f + jacobian_rate[1],
        b=d @ inverse_mass_f + jacobian_rate[0],
        A=c @ inverse_mass_c,
        B=c @ inverse_mass_d,
        C=d @ inverse_mass_d,
        u=c @ velocity,
        v=d @ velocity,
    )


def rod_reduced_dynamics(rod: PainleveRod, q: Float[Array, "3"], v: Float[Array, "3"]) -> ReducedDynamics:
    """Reduced quantities of Preclik's rod at ``(q, v)``, in Champneys' (mirrored) frame: ``u = −ġ_t``.

    For ``m = g = 1``, half-length ``ℓ = 1`` and ``I = 1/3`` these are the paper's closed forms
    ``a = −ω² cos φ``, ``b = ω² sin φ − 1``, ``A = 1 + 3 sin²φ``, ``B = 3 sin φ cos φ``, ``C = 1 + 3 cos²φ``.
    """
    check_values(q=q, v=v)
    mirror = jnp.array([1.0, -1.0])
    return reduced_dynamics(
        rod.mass_matrix(),
        mirror[:, None] * rod.jacobian(q),
        rod.applied_force(),
        v,
        mirror * rod.jacobian_rate(q, v),
    )


def painleve_parameters(A: ArrayLike, B: ArrayLike, C: ArrayLike, mu: ArrayLike) -> PainleveParameters:
    """The Painlevé parameters of one contact: ``p± = C ∓ μB`` (Eqs. 13, 18), the normal acceleration per unit
    normal force while slipping in the direction ``±``, and ``k± = μA ∓ B`` (Eq. 23).

    Args:
        A: ``cᵀM⁻¹c`` (:class:`ReducedDynamics`).
        B: ``cᵀM⁻¹d``.
        C: ``dᵀM⁻¹d``.
        mu: the friction coefficient, ``≥ 0``.

    Returns:
        A :class:`PainleveParameters`, elementwise over the broadcast arguments.

    Examples:
        >>> from regcontact.stability import painleve_parameters
        >>> float(painleve_parameters(1.0, 0.5, 1.0, 3.0).p_plus)  # the Painlevé region: p⁺ < 0
        -0.5
    """
    check_values(A=A, B=B, C=C, mu=mu)
    A, B, C, mu = (jnp.asarray(x, dtype=float) for x in (A, B, C, mu))
    return PainleveParameters(p_plus=C - mu * B, p_minus=C + mu * B, k_plus=mu * A - B, k_minus=mu * A + B)


def at_most_one_nonpositive(parameters: PainleveParameters) -> Bool[Array, ...]:
    """Eq. 11: at most one of ``k⁺, k⁻, p⁺, p⁻`` is ``≤ 0``.

    Holds whenever ``A > 0``, ``AC > B²`` and ``μ > 0`` (e.g. ``k⁺ ≤ 0`` and ``p⁺ ≤ 0`` give ``μA ≤ B`` and
    ``C ≤ μB``, hence ``μAC ≤ μB²``); at ``μ = 0`` both ``k±`` vanish when ``B = 0``.
    """
    values = jnp.stack([parameters.p_plus, parameters.p_minus, parameters.k_plus, parameters.k_minus])
    return jnp.sum(values <= 0.0, axis=0) <= 1
