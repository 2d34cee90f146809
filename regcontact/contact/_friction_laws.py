"""Friction laws: the tangential force λ_t as a pure function of the slip rate ġ_t, λ_n and μ."""

from __future__ import annotations

import abc
from typing import ClassVar, Literal

import equinox as eqx
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Float

from regcontact._argument_checks import check_parameters
from regcontact._readable_repr import readable_repr
from regcontact.contact._per_contact import uniform_value

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

    def impact_friction(
        self, exponents: AbstractFrictionLaw, scale_exponent: float
    ) -> tuple[Literal["none", "viscous", "coulomb"], float | np.ndarray]:
        """The friction during an impact on the normal law's time scale ``T ∝ α^(−scale_exponent)`` as α → ∞, the
        law's parameters scaled by the α-exponents ``exponents``: ``("none", 0)``, ``("viscous", γ_t)`` or
        ``("coulomb", 0)``. A law whose limit is not derived (this base) raises ``ValueError`` in one line."""
        raise ValueError(f"the limit impact law is derived for viscous Coulomb friction, not {self!r}")


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

    def impact_friction(
        self, exponents: AbstractFrictionLaw, scale_exponent: float
    ) -> tuple[Literal["none", "viscous", "coulomb"], float | np.ndarray]:
        """With damping exponent ``c`` against the impact scale ``s``: ``c = s`` keeps the viscous branch
        (``λ_T = −clip(γ_t u, ±μλ_N)``), ``c < s`` (or ``γ_t = 0``) leaves no friction during the impact, and
        ``c > s`` makes the tangential damper infinitely stiff there: Coulomb's law (Darboux–Keller). A
        per-contact ``γ_t`` comes back per contact on the viscous branch; ``c`` must be one for all contacts, and
        ``c > s`` with ``γ_t = 0`` at some contacts only is refused (Coulomb there, none elsewhere)."""
        if not isinstance(exponents, ViscousCoulomb):
            raise ValueError(f"the limit impact law is derived for viscous Coulomb friction, not {exponents!r}")
        c = uniform_value(
            "friction_exponents.damping", exponents.damping, "the limit law needs one friction kind for all contacts"
        )
        gamma = np.asarray(self.damping, dtype=float)
        if gamma.ndim == 0:
            gamma_t = float(gamma)
            if gamma_t == 0 or c < scale_exponent:
                return "none", 0.0
            return ("viscous", gamma_t) if c == scale_exponent else ("coulomb", 0.0)
        if not gamma.any() or c < scale_exponent:
            return "none", 0.0
        if c == scale_exponent:
            return "viscous", gamma
        if not gamma.all():
            raise ValueError(
                f"friction.damping = {gamma.tolist()} per contact with α-exponent {c:g} > {scale_exponent:g}: Coulomb "
                "at the contacts with γ_t > 0 and none at the others, which the limit law does not model"
            )
        return "coulomb", 0.0


#: Friction laws by config name.
FRICTION_LAWS: dict[str, type[AbstractFrictionLaw]] = {"viscous_coulomb": ViscousCoulomb}
