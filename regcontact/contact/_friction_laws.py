"""Friction laws: the tangential force λ_t as a pure function of the slip rate ġ_t, λ_n and μ."""

from __future__ import annotations

import abc
from typing import ClassVar

import equinox as eqx
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float

from regcontact._argument_checks import check_parameters
from regcontact._readable_repr import readable_repr

__all__ = ["FRICTION_LAWS", "AbstractFrictionLaw", "ViscousCoulomb"]

Scalar = Float[Array, ""]


class AbstractFrictionLaw(eqx.Module):
    """A compliant friction law ``λ_t(ġ_t, λ_n, μ)`` with its parameters as fields; it opposes the slip
    (``λ_t ġ_t ≤ 0``) and stays in the cone (``|λ_t| ≤ μ λ_n``).

    ``PARAMETERS`` (name -> ``"positive"``/``"nonnegative"``) and ``EXPONENTS`` (name -> default α-exponent) play
    the roles they play for :class:`~regcontact.contact.AbstractNormalLaw`.
    """

    PARAMETERS: eqx.AbstractClassVar[dict[str, str]]
    EXPONENTS: eqx.AbstractClassVar[dict[str, float]]

    def __repr__(self) -> str:
        return readable_repr(self)

    @abc.abstractmethod
    def __call__(self, slip_rate: Scalar, normal_force: Scalar, mu: Scalar) -> Scalar:
        """The tangential force; elementwise, so it also takes every contact's values at once."""


class ViscousCoulomb(AbstractFrictionLaw):
    """Viscous-limited Coulomb friction, Preclik & Rüde Eq. 22 (second line), in the plane:

        λ_t = −sgn(ġ_t) min(μ λ_n, γ_t |ġ_t|) = −clip(γ_t ġ_t, −μ λ_n, μ λ_n).

    Below the Coulomb limit it is a viscous damper (the regularised stick), at the limit it is Coulomb sliding.
    It always opposes the slip, so λ_t ġ_t ≤ 0: friction never feeds energy in.
    """

    PARAMETERS: ClassVar[dict[str, str]] = {"damping": "nonnegative"}
    #: Preclik & Rüde: γ_t ∝ α.
    EXPONENTS: ClassVar[dict[str, float]] = {"damping": 1.0}

    damping: Scalar

    def __init__(self, damping: ArrayLike = 1.0):
        check_parameters(type(self), damping=damping)
        self.damping = jnp.asarray(damping, dtype=float)

    def __call__(self, slip_rate: Scalar, normal_force: Scalar, mu: Scalar) -> Scalar:
        limit = mu * normal_force
        return -jnp.clip(self.damping * slip_rate, -limit, limit)


#: Friction laws by config name.
FRICTION_LAWS: dict[str, type[AbstractFrictionLaw]] = {"viscous_coulomb": ViscousCoulomb}
