"""Normal contact laws: the normal force λ_n as a pure function of the gap g_n and its rate ġ_n.

Each law is an equinox module whose fields are its parameters (JAX arrays), so a batch of laws is a pytree
with a leading batch axis and a new parameter value never recompiles. A law never pulls: λ_n ≥ 0 everywhere.

Every law is an :class:`AbstractNormalLaw` (the equinox abstract/final style: abstract bases, concrete laws that
are not subclassed further) and declares, for configs and for the α-scaling of
:mod:`regcontact.contact`:

* ``PARAMETERS``: parameter name -> ``"positive"`` or ``"nonnegative"`` (what a config may give at α = 1);
* ``EXPONENTS``: parameter name -> default α-exponent ``e`` (the parameter is used as ``p · α^e``);
* ``LINEAR_STIFFNESS``: the parameter that is a linear spring stiffness ``k`` (``λ_n ≈ −k g_n`` for a slow
  penetration), which defines the contact time ``π √(m_n / k)``; ``None`` for a law without one.

A law whose force *jumps* on touch-down is an :class:`AbstractJumpingNormalLaw`: it also has
``contact_force(gap, gap_rate)``, the closed-contact branch continued across ``g_n = 0``, for solves that locate
touch-down (:mod:`regcontact.compliant.switches`). Every law has an ``elastic_energy(gap)``: the potential of the
law's elastic part, so that kinetic + potential + elastic energy is conserved when the damping is zero and never
grows otherwise.

Each law also answers the rigid limit's question (:meth:`AbstractNormalLaw.impact_scale`): for given α-exponents,
on which time scale it impacts and which of its terms survive there; and how fast a contact decays on that scale
(:meth:`AbstractNormalLaw.impact_rates`). A law that does not answer refuses in one line (``ValueError``).
"""

from __future__ import annotations

import abc
import math
from collections.abc import Sequence
from typing import ClassVar, NamedTuple

import equinox as eqx
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Float

from regcontact._argument_checks import check_parameters
from regcontact._readable_repr import readable_repr
from regcontact.contact._per_contact import uniform_value

#: Why the rigid limit needs one α-exponent per parameter for all contacts.
_ONE_SCALE = "the limit law needs one impact time scale for all contacts, so one α-exponent"

__all__ = [
    "NORMAL_LAWS",
    "AbstractJumpingNormalLaw",
    "AbstractLinearSpringDamper",
    "AbstractNormalLaw",
    "ChampneysFastScale",
    "ClippedKelvinVoigt",
    "HuntCrossley",
    "HuntCrossleyDamping",
    "ImpactScale",
    "SpringDamper",
]

Scalar = Float[Array, ""]


def _f64(a: ArrayLike) -> Scalar:
    return jnp.asarray(a, dtype=float)


class ImpactScale(NamedTuple):
    """A normal law on its own impact time scale ``T ∝ α^(−exponent)`` as α → ∞: ``law`` keeps the terms that
    survive there (the others set to zero); ``has_spring`` says whether a restoring term survives (the contact
    opens at the end of the impact) or not (the normal velocity decays and the contact stays closed)."""

    law: AbstractNormalLaw
    exponent: float
    has_spring: bool


class AbstractNormalLaw(eqx.Module):
    """A compliant normal law ``λ_n(g_n, ġ_n) ≥ 0`` with its parameters as fields (see the module docstring)."""

    PARAMETERS: eqx.AbstractClassVar[dict[str, str]]
    EXPONENTS: eqx.AbstractClassVar[dict[str, float]]
    LINEAR_STIFFNESS: eqx.AbstractClassVar[str | None]

    def __repr__(self) -> str:
        return readable_repr(self)

    @abc.abstractmethod
    def __call__(self, gap: Scalar, gap_rate: Scalar) -> Scalar:
        """The normal force; elementwise, so it also takes every contact's gaps and rates at once."""

    @abc.abstractmethod
    def elastic_energy(self, gap: Scalar) -> Scalar:
        """The potential of the law's elastic part (zero outside contact)."""

    def impact_scale(self, exponents: AbstractNormalLaw) -> ImpactScale:
        """The law on its impact time scale as α → ∞, its parameters scaled by the α-exponents ``exponents`` (a
        law of the same class whose fields are the exponents): a term of exponent ``e`` carries ``α^(e − s)`` on
        the scale ``T ∝ α^(−s)``, so the fastest terms survive and the others vanish (``docs/impacts.md``).

        **Arguments:** ``exponents``, the α-exponents of the law's parameters.

        **Returns:** an :class:`ImpactScale`. A law whose rigid limit is not derived (this base) raises
        ``ValueError`` in one line; a law that has one overrides this method."""
        raise ValueError(f"{type(self).__name__} does not derive its impact-scale limit (no impact_scale method)")

    def impact_rates(self, normal_mass_inverse: np.ndarray | Sequence[float], speed: float) -> list[float]:
        """The inverse time scales of the law on its impact scale for contacts of inverse normal masses
        ``C_ii`` hit at ``speed``: how long a decaying contact is followed. ``ValueError`` in one line for a law
        that does not derive them (this base)."""
        raise ValueError(f"{type(self).__name__} does not derive its impact time scales (no impact_rates method)")


class AbstractJumpingNormalLaw(AbstractNormalLaw):
    """A normal law whose force jumps on touch-down, with its closed branch continued across ``g_n = 0``."""

    @abc.abstractmethod
    def contact_force(self, gap: Scalar, gap_rate: Scalar) -> Scalar:
        """The force of the closed contact, continued smoothly across ``g_n = 0``."""


def _linear_spring_energy(stiffness: Scalar, gap: Scalar) -> Scalar:
    """``½ k g²`` in contact (``g < 0``), zero outside."""
    penetration = jnp.maximum(-gap, 0.0)
    return 0.5 * stiffness * penetration**2


class AbstractLinearSpringDamper(AbstractNormalLaw):
    """Laws built from a linear spring ``stiffness`` and a linear damper ``damping``: their parameters, default
    α-exponents (1, 1, as in Preclik & Rüde), linear stiffness and elastic energy."""

    PARAMETERS: ClassVar[dict[str, str]] = {"stiffness": "positive", "damping": "nonnegative"}
    EXPONENTS: ClassVar[dict[str, float]] = {"stiffness": 1.0, "damping": 1.0}
    LINEAR_STIFFNESS: ClassVar[str | None] = "stiffness"

    stiffness: Scalar
    damping: Scalar

    def __init__(self, stiffness: ArrayLike = 1.0, damping: ArrayLike = 1.0):
        check_parameters(type(self), stiffness=stiffness, damping=damping)
        self.stiffness = _f64(stiffness)
        self.damping = _f64(damping)

    def elastic_energy(self, gap: Scalar) -> Scalar:
        return _linear_spring_energy(self.stiffness, gap)

    def impact_scale(self, exponents: AbstractNormalLaw) -> ImpactScale:
        """The spring's scale ``α^(−a/2)`` and the damper's ``α^(−b)``: the faster survives, both at
        ``b = a/2`` (``a``, ``b`` the exponents of stiffness and damping; see the base). Per-contact values are
        kept per contact; the exponents must be the same at every contact."""
        if not isinstance(exponents, AbstractLinearSpringDamper):
            raise ValueError(f"exponents = {exponents!r}: expected the exponents of a linear spring-damper law")
        a = uniform_value("exponents.stiffness", exponents.stiffness, _ONE_SCALE)
        b = uniform_value("exponents.damping", exponents.damping, _ONE_SCALE)
        s = max(a / 2, b)
        # a dropped term is a zero parameter, which a law refuses from a user (a zero spring): set on the fields
        kept = eqx.tree_at(
            lambda law: (law.stiffness, law.damping),
            self,
            (
                _f64(self.stiffness) if a / 2 == s else jnp.zeros_like(_f64(self.stiffness)),
                _f64(self.damping) if b == s else jnp.zeros_like(_f64(self.damping)),
            ),
        )
        return ImpactScale(kept, s, bool(np.all(np.asarray(kept.stiffness) > 0)))

    def impact_rates(self, normal_mass_inverse: np.ndarray | Sequence[float], speed: float) -> list[float]:
        """``√(k C_ii)`` and ``γ C_ii`` of each contact (per-contact ``k``, ``γ``: contact ``i``'s), the zero ones
        left out."""
        C = np.asarray(normal_mass_inverse, dtype=float)
        k = np.broadcast_to(np.asarray(self.stiffness, dtype=float), C.shape)
        gamma = np.broadcast_to(np.asarray(self.damping, dtype=float), C.shape)
        return [
            r
            for k_i, gamma_i, c in zip(k.tolist(), gamma.tolist(), C.tolist())
            for r in (math.sqrt(k_i * c), gamma_i * c)
            if r > 0
        ]


class SpringDamper(AbstractLinearSpringDamper, AbstractJumpingNormalLaw):
    """Preclik & Rüde Eq. 22: a spring with damping on approach only.

        λ_n = 0                               if g_n > 0
        λ_n = −k g_n − γ_n min(ġ_n, 0)        otherwise

    Both terms are non-negative in contact, so the law is never adhesive; the damper dissipates only while the
    bodies approach, so a separating contact is a conservative spring. The force jumps by ``γ_n |ġ_n|`` where
    the gap closes with ``ġ_n < 0`` (touch-down), and is continuous elsewhere (in particular where the contact
    opens, and for a contact that starts at rest); its derivative jumps on ``g_n = 0`` and on ``ġ_n = 0``.
    """

    def __call__(self, gap: Scalar, gap_rate: Scalar) -> Scalar:
        return jnp.where(gap > 0.0, 0.0, self.contact_force(gap, gap_rate))

    def contact_force(self, gap: Scalar, gap_rate: Scalar) -> Scalar:
        """The force of the closed contact, continued smoothly across ``g_n = 0``.

        The law jumps on touch-down (by ``γ_n |ġ_n|``); a solve that locates ``g_n = 0`` and holds the contact
        state fixed in between (:mod:`regcontact.compliant.switches`) integrates this smooth branch while closed.
        """
        return -self.stiffness * gap - self.damping * jnp.minimum(gap_rate, 0.0)


class ClippedKelvinVoigt(AbstractLinearSpringDamper):
    """A Kelvin–Voigt spring and damper in parallel, clipped so that it never pulls:

        λ_n = max(0, −k g_n − c ġ_n).

    Unlike :class:`SpringDamper` the damper also acts while the bodies separate (until the total force reaches
    zero, where the clip releases the contact before the gap opens), and a fast approach is braked before the
    gap closes (``g_n > 0`` with ``ġ_n < −k g_n / c``). The force is continuous; its derivative jumps on the line
    ``k g_n + c ġ_n = 0``. Default α-exponents (1, 1) as in Preclik & Rüde.
    """

    def __call__(self, gap: Scalar, gap_rate: Scalar) -> Scalar:
        return jnp.maximum(-self.stiffness * gap - self.damping * gap_rate, 0.0)


class HuntCrossley(AbstractNormalLaw):
    """Hunt & Crossley (1975): a nonlinear spring with damping proportional to it, clipped at zero:

        λ_n = max(0, k δⁿ (1 + c δ̇))  for δ = −g_n > 0,        λ_n = 0 otherwise.

    The damping vanishes with the penetration, so the force is continuous at first touch (unlike a linear
    damper), and ``c`` relates to a restitution coefficient ``e ≈ 1 − (2/3) c v_impact`` for ``n = 3/2``
    (Hertz). The spring is not linear (for ``n ≠ 1``), so the law has no contact time ``π √(m_n/k)``.
    Default α-exponents: ``k ∝ α`` and the shape ``n`` and the (restitution) damping ``c`` fixed.
    """

    PARAMETERS: ClassVar[dict[str, str]] = {"stiffness": "positive", "exponent": "positive", "damping": "nonnegative"}
    EXPONENTS: ClassVar[dict[str, float]] = {"stiffness": 1.0, "exponent": 0.0, "damping": 0.0}
    LINEAR_STIFFNESS: ClassVar[str | None] = None

    stiffness: Scalar
    exponent: Scalar
    damping: Scalar

    def __init__(self, stiffness: ArrayLike = 1.0, exponent: ArrayLike = 1.5, damping: ArrayLike = 1.0):
        check_parameters(type(self), stiffness=stiffness, exponent=exponent, damping=damping)
        self.stiffness = _f64(stiffness)
        self.exponent = _f64(exponent)
        self.damping = _f64(damping)

    def _spring(self, gap: Scalar) -> tuple[Array, Scalar]:
        """``(δ > 0, k δⁿ)``, written so that the derivative is finite (zero) outside contact for any ``n``."""
        in_contact = gap < 0.0
        penetration = jnp.where(in_contact, -gap, 1.0)
        return in_contact, jnp.where(in_contact, self.stiffness * penetration**self.exponent, 0.0)

    def __call__(self, gap: Scalar, gap_rate: Scalar) -> Scalar:
        in_contact, spring = self._spring(gap)
        return jnp.where(in_contact, jnp.maximum(spring * (1.0 - self.damping * gap_rate), 0.0), 0.0)

    def elastic_energy(self, gap: Scalar) -> Scalar:
        in_contact, spring = self._spring(gap)
        return jnp.where(in_contact, spring * (-gap) / (self.exponent + 1.0), 0.0)

    def impact_scale(self, exponents: AbstractNormalLaw) -> ImpactScale:
        """``k δⁿ (1 − c ġ)`` with ``k ∝ α^a`` and ``c ∝ α^b``: the damping factor ``c ġ`` is dimensionless in the
        velocity, so on the spring's scale ``s = a/(n + 1)`` it carries ``α^b`` and nothing else.

        - ``b = 0``: the law is its own limit, with a restitution that depends on ``c v⁻`` alone;
        - ``b < 0``: the damping vanishes and Hertz's elastic spring is left (``e = 1``);
        - ``b > 0``: the damping term ``k c δⁿ (−ġ)`` alone, on the faster scale ``s = (a + b)/(n + 1)``: it stops
          the contact at ``δ* = ((n + 1) v⁻/(k c C))^(1/(n+1))`` and holds it there (``e = 0``; a compliant run
          leaves at a speed below ``1/c``, so its restitution falls as ``α^(−b)``).

        A shape ``n`` that changes with α is refused (``ValueError``): the contacts would change law."""
        if not isinstance(exponents, HuntCrossley):
            raise ValueError(f"exponents = {exponents!r}: expected the exponents of a Hunt–Crossley law")
        a = uniform_value("exponents.stiffness", exponents.stiffness, _ONE_SCALE)
        shape = uniform_value("exponents.exponent", exponents.exponent, _ONE_SCALE)
        damping = uniform_value("exponents.damping", exponents.damping, _ONE_SCALE)
        if shape != 0.0:
            raise ValueError(
                f"Hunt–Crossley with α-exponent {shape:g} of its shape n: the limit law is derived for a fixed shape"
            )
        n = self._shape()
        if damping > 0.0:
            kept_damping = HuntCrossleyDamping(_f64(self.stiffness) * _f64(self.damping), self.exponent)
            return ImpactScale(kept_damping, (a + damping) / (n + 1.0), False)
        kept = HuntCrossley(self.stiffness, self.exponent, self.damping if damping == 0.0 else 0.0)
        return ImpactScale(kept, a / (n + 1.0), bool(np.all(np.asarray(kept.stiffness) > 0)))

    def impact_rates(self, normal_mass_inverse: np.ndarray | Sequence[float], speed: float) -> list[float]:
        """``k δⁿ`` against ``1/C`` over ``δ ~ v T``: ``1/T = (k C v^(n−1))^(1/(n+1))`` per contact (per-contact
        ``k``: contact ``i``'s)."""
        n, C = self._shape(), np.asarray(normal_mass_inverse, dtype=float)
        k = np.asarray(self.stiffness, dtype=float)
        return list(((float(k) if k.ndim == 0 else k) * C * speed ** (n - 1.0)) ** (1.0 / (n + 1.0)))

    def _shape(self) -> float:
        """The exponent ``n``, one for all contacts: contacts of different ``n`` impact on different scales
        ``α^(−a/(n+1))``, which one limit law does not follow."""
        why = "contacts of different n impact on different time scales α^(−a/(n+1)); the limit law needs one"
        return uniform_value("exponent", self.exponent, why)


class HuntCrossleyDamping(AbstractNormalLaw):
    """Hunt–Crossley's damping term alone, the impact-scale limit of a :class:`HuntCrossley` law whose damping
    grows with α:

        λ_n = k_c δⁿ max(−ġ_n, 0)  for δ = −g_n > 0,        λ_n = 0 otherwise,

    with ``k_c = k c``. Its impulse is a function of the penetration, ``k_c δⁿ⁺¹/(n + 1)``: an approaching contact
    stops at ``δ* = ((n + 1) v⁻/(k_c C))^(1/(n+1))`` (``C`` its inverse normal mass) and stays there, so the
    restitution is zero and the normal velocity decays (``ImpactScale.has_spring`` is false). Built from a checked
    Hunt–Crossley law (a contact with ``c = 0`` has ``k_c = 0``: no force); not a law for a study file.
    """

    PARAMETERS: ClassVar[dict[str, str]] = {"stiffness": "nonnegative", "exponent": "positive"}
    EXPONENTS: ClassVar[dict[str, float]] = {"stiffness": 1.0, "exponent": 0.0}
    LINEAR_STIFFNESS: ClassVar[str | None] = None

    stiffness: Scalar
    exponent: Scalar

    def __init__(self, stiffness: ArrayLike = 1.0, exponent: ArrayLike = 1.5):
        check_parameters(type(self), stiffness=stiffness, exponent=exponent)
        self.stiffness = _f64(stiffness)
        self.exponent = _f64(exponent)

    def __call__(self, gap: Scalar, gap_rate: Scalar) -> Scalar:
        in_contact = gap < 0.0
        penetration = jnp.where(in_contact, -gap, 1.0)
        force = self.stiffness * penetration**self.exponent * jnp.maximum(-gap_rate, 0.0)
        return jnp.where(in_contact, force, 0.0)

    def elastic_energy(self, gap: Scalar) -> Scalar:
        return jnp.zeros_like(_f64(gap))

    def impact_scale(self, exponents: AbstractNormalLaw) -> ImpactScale:
        """Its own limit, on the scale ``s = a/(n + 1)`` (``k_c ∝ α^a``), with no spring."""
        if not isinstance(exponents, HuntCrossleyDamping):
            raise ValueError(f"exponents = {exponents!r}: expected the exponents of a Hunt–Crossley damping")
        a = uniform_value("exponents.stiffness", exponents.stiffness, _ONE_SCALE)
        if uniform_value("exponents.exponent", exponents.exponent, _ONE_SCALE) != 0.0:
            raise ValueError("Hunt–Crossley damping with an α-exponent of its shape n: derived for a fixed shape")
        n = uniform_value("exponent", self.exponent, "one limit law needs one shape n")
        return ImpactScale(self, a / (n + 1.0), False)

    def impact_rates(self, normal_mass_inverse: np.ndarray | Sequence[float], speed: float) -> list[float]:
        """The rate at which the normal velocity decays near the stop ``δ*``: ``k_c C δ*ⁿ =
        (k_c C)^(1/(n+1)) ((n + 1) v)^(n/(n+1))`` per contact (the contacts without force left out)."""
        n = uniform_value("exponent", self.exponent, "one limit law needs one shape n")
        C = np.asarray(normal_mass_inverse, dtype=float)
        k = np.broadcast_to(np.asarray(self.stiffness, dtype=float), C.shape)
        rates = (k * C) ** (1.0 / (n + 1.0)) * ((n + 1.0) * speed) ** (n / (n + 1.0))
        return [float(r) for r in rates.reshape(-1) if r > 0]


class ChampneysFastScale(AbstractLinearSpringDamper):
    """Champneys & Várkonyi (2016) Eqs. 30–31, the linear law of their fast-scale analysis:

        λ_N = max(k ỹ + q ṽ, 0),     k, q < 0,     ỹ = y/ε,  ṽ = dỹ/dt̃ = v/√ε,  t̃ = t/√ε.

    Their ``y`` is the normal gap (``y ≥ 0`` separated) and ``v = ẏ``: ``y = g_n``, ``v = ġ_n``. With ε = 1/α and
    the magnitudes ``stiffness = −k > 0``, ``damping = −q > 0``:

        λ_n = max(−stiffness · α g_n − damping · √α ġ_n, 0),

    so the default α-exponents are (1, 1/2): the damping ratio on the fast scale stays fixed as α → ∞ (Preclik
    and Rüde scale both by α instead). Eq. 30's rule "λ_N = 0 for y ≥ 0, v ≥ 0" is implied by the clip. The force
    is the clipped Kelvin–Voigt one; it is continuous, and nonzero before touching when the approach is fast.
    """

    EXPONENTS: ClassVar[dict[str, float]] = {"stiffness": 1.0, "damping": 0.5}

    def __call__(self, gap: Scalar, gap_rate: Scalar) -> Scalar:
        k, q = -self.stiffness, -self.damping  # the paper's signs
        return jnp.maximum(k * gap + q * gap_rate, 0.0)


#: Normal laws by config name.
NORMAL_LAWS: dict[str, type[AbstractNormalLaw]] = {
    "spring_damper": SpringDamper,
    "clipped_kelvin_voigt": ClippedKelvinVoigt,
    "hunt_crossley": HuntCrossley,
    "champneys_fast_scale": ChampneysFastScale,
}
