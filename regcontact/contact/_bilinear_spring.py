"""Normal laws with a memory of each contact's deepest penetration, and Stronge's bilinear spring.

A law of this kind needs, besides the gap and its rate, the deepest penetration ``δ_max`` the contact has reached
so far (its *peak*): its force is ``force(gap, gap_rate, peak)``. The memoryless call ``law(gap, gap_rate)`` of
:class:`~regcontact.contact.AbstractNormalLaw` has no peak to give, so it refuses (``TypeError``) rather than
answer with the first-loading curve alone, which would unload elastically. The rigid limit carries the peaks
(:func:`~regcontact.rigid.compliant_limit`), and so does the compliant solve with ``restart_at=("peak",)``
(:data:`regcontact.compliant.RESTART_SURFACES`), which holds each contact's branch and peak between restarts.
"""

from __future__ import annotations

import abc
import math
from collections.abc import Sequence
from typing import ClassVar

import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Float

from regcontact._argument_checks import ArgumentError, Rule, check_argument, check_parameters, is_traced
from regcontact.contact._normal_laws import _ONE_SCALE, NORMAL_LAWS, AbstractNormalLaw, ImpactScale
from regcontact.contact._per_contact import uniform_value

__all__ = ["LIMIT_MIN_RESTITUTION", "MIN_RESTITUTION", "AbstractPeakNormalLaw", "BilinearSpring"]

Scalar = Float[Array, ""]

#: Stronge's energetic coefficient: zero would be an infinitely stiff unloading, above one a spring that gains energy.
_RESTITUTION = Rule("a number in (0, 1]", lambda x: (x > 0.0) & (x <= 1.0))

#: The smallest restitution whose square is a normal float64, ``√(2.2e-308) = 1.49e-154``: below it ``r²`` is
#: subnormal or zero, which XLA flushes to zero, and the unloading line ``k/r²`` is infinite (its force ``0/0``).
MIN_RESTITUTION = math.sqrt(float(np.finfo(np.float64).tiny))

#: The smallest restitution the rigid limit follows (:func:`~regcontact.rigid.compliant_limit`). The restitution
#: phase unloads through ``r² δ_max`` of penetration, a gap the impact process knows to float64's ``ε δ_max`` and
#: to its absolute tolerance (``1e-3 · rtol`` of the impact's size, ``1e-15 δ_max``-ish at rtol 1e-12): the
#: restitution's relative error is about ``1e-15/r²``. Measured on one frictionless contact (``C = 1.3``,
#: ``v⁻ = −2``, against ``v⁺ = −r v⁻``): 6e-10 at r = 1e-3, 4.9e-9 at 1e-4, 1.8e-5 at 1e-5, 0.6 % at 3e-6, 7 % at
#: 1.7e-6, and below about 1.7e-6 no end at all (the coast out of the residual penetration ``δ_max (1 − r²)`` at
#: ``r |v⁻|`` lasts ``1/r`` loading times, past the process's horizon of ``6·10⁵``).
LIMIT_MIN_RESTITUTION = 1e-4

_LIMIT_RESTITUTION = Rule(
    f"a number in [{LIMIT_MIN_RESTITUTION:g}, 1] in the rigid limit (the restitution phase unloads through r² of the "
    "peak penetration, which float64 and the impact process resolve to about 1e-15/r² of it: a smaller r loses "
    "the restitution in round-off)",
    lambda x: (x >= LIMIT_MIN_RESTITUTION) & (x <= 1.0),
)


def _check_unloading(stiffness: ArrayLike, restitution: ArrayLike) -> None:
    """``r² ≥`` float64's smallest normal number and ``k/r²`` finite, elementwise (one line naming the first
    restitution that is not); traced values pass."""
    if is_traced((stiffness, restitution)):
        return
    k, r = np.broadcast_arrays(np.asarray(stiffness, dtype=float), np.asarray(restitution, dtype=float))
    with np.errstate(over="ignore", under="ignore"):
        low = r < np.maximum(MIN_RESTITUTION, np.sqrt(k / np.finfo(np.float64).max))
    if not low.any():
        return
    first = int(np.argmax(low.ravel()))
    ki, ri = float(k.flat[first]), float(r.flat[first])
    least = max(MIN_RESTITUTION, math.sqrt(ki / float(np.finfo(np.float64).max)))
    raise ArgumentError(
        "restitution",
        ri,
        f"at least {least:.3g} with stiffness {ki:g} (the unloading stiffness k/r² must be a finite float64, r² a "
        f"normal one: r ≥ max(√(k/1.8e308), {MIN_RESTITUTION:.3g}))",
    )


class AbstractPeakNormalLaw(AbstractNormalLaw):
    """A normal law whose force depends on each contact's deepest penetration so far (module docstring)."""

    @abc.abstractmethod
    def force(self, gap: Scalar, gap_rate: Scalar, peak: Scalar) -> Scalar:
        """The normal force at ``gap`` and ``gap_rate`` after the contact has reached penetration ``peak ≥ 0``
        (a penetration deeper than ``peak`` is the new peak: the law uses ``max(peak, −gap)``); elementwise."""

    @abc.abstractmethod
    def stored_energy(self, gap: Scalar, peak: Scalar) -> Scalar:
        """The energy the contact still returns at ``gap`` after reaching ``peak`` (what unloading gives back);
        elementwise."""

    def __call__(self, gap: Scalar, gap_rate: Scalar) -> Scalar:
        raise TypeError(
            f"{type(self).__name__} needs each contact's deepest penetration: call force(gap, gap_rate, peak) "
            "(a compliant solve carries it with restart_at=('peak',))"
        )


class BilinearSpring(AbstractPeakNormalLaw):
    """Stronge's bilinear spring: a linear spring that unloads stiffer than it loads.

        λ_n = k δ                                      while loading (δ = −g_n at its deepest so far),
        λ_n = max(0, k δ_max − (k/r²)(δ_max − δ))        while unloading from the deepest point δ_max.

    The unloading line returns ``r²`` of the energy stored (``½ k r² δ_max²`` of ``½ k δ_max²``) and leaves a
    residual penetration ``δ_max (1 − r²)`` where the force ends, so for one contact the normal work of restitution
    is ``r²`` times that of compression: in the rigid limit, Darboux–Keller's map with Stronge's energetic
    coefficient ``r`` (``docs/impacts.md``). Reloading follows the unloading line back up to ``δ_max`` and the
    loading line beyond it. ``r = 1`` is the linear elastic spring.

    **Arguments:** ``stiffness`` ``k > 0``; ``restitution`` ``r`` in ``(0, 1]``. Default α-exponents: ``k ∝ α``,
    ``r`` fixed.

    Examples:
        >>> from regcontact.contact import BilinearSpring
        >>> law = BilinearSpring(stiffness=4.0, restitution=0.5)
        >>> float(law.force(-0.5, 0.0, 1.0))  # unloading from δ_max = 1: 4 − 16 · 0.5 < 0
        0.0
        >>> float(law.force(-0.875, 0.0, 1.0))  # 4 − 16 · 0.125
        2.0
    """

    PARAMETERS: ClassVar[dict[str, str]] = {"stiffness": "positive", "restitution": "positive"}
    EXPONENTS: ClassVar[dict[str, float]] = {"stiffness": 1.0, "restitution": 0.0}
    LINEAR_STIFFNESS: ClassVar[str | None] = "stiffness"

    stiffness: Scalar
    restitution: Scalar

    def __init__(self, stiffness: ArrayLike = 1.0, restitution: ArrayLike = 1.0):
        check_parameters(type(self), stiffness=stiffness)
        check_argument("restitution", restitution, _RESTITUTION)
        _check_unloading(stiffness, restitution)
        self.stiffness = jnp.asarray(stiffness, dtype=float)
        self.restitution = jnp.asarray(restitution, dtype=float)

    def force(self, gap: Scalar, gap_rate: Scalar, peak: Scalar) -> Scalar:
        penetration = jnp.maximum(-gap, 0.0)
        deepest = jnp.maximum(peak, penetration)
        unloaded = (deepest - penetration) / self.restitution**2
        return jnp.where(gap < 0.0, self.stiffness * jnp.maximum(deepest - unloaded, 0.0), 0.0)

    def elastic_energy(self, gap: Scalar) -> Scalar:
        """``½ k δ²``: the work of first loading (of which the unloading line returns ``r²``,
        :meth:`stored_energy`)."""
        return 0.5 * self.stiffness * jnp.maximum(-gap, 0.0) ** 2

    def stored_energy(self, gap: Scalar, peak: Scalar) -> Scalar:
        """The energy the unloading line still returns at ``gap`` after the peak ``peak``:
        ``½ (k/r²) (δ − δ_max (1 − r²))²`` above the residual penetration, zero below it."""
        penetration = jnp.maximum(-gap, 0.0)
        deepest = jnp.maximum(peak, penetration)
        r2 = self.restitution**2
        stretch = jnp.maximum(penetration - deepest * (1.0 - r2), 0.0)
        return 0.5 * self.stiffness / r2 * stretch**2

    def impact_scale(self, exponents: AbstractNormalLaw) -> ImpactScale:
        """The spring's scale ``α^(−a/2)`` (``a`` the stiffness's exponent); the law is its own limit there. A
        restitution that changes with α is refused (``ValueError``), and one below
        :data:`LIMIT_MIN_RESTITUTION` (``ArgumentError``: the limit's restitution phase is lost in round-off)."""
        if not isinstance(exponents, BilinearSpring):
            raise ValueError(f"exponents = {exponents!r}: expected the exponents of a bilinear spring")
        a = uniform_value("exponents.stiffness", exponents.stiffness, _ONE_SCALE)
        restitution = uniform_value("exponents.restitution", exponents.restitution, _ONE_SCALE)
        if restitution != 0.0:
            raise ValueError(
                f"BilinearSpring with restitution exponent {restitution:g}: the limit law is derived for a fixed "
                "restitution"
            )
        check_argument("restitution", self.restitution, _LIMIT_RESTITUTION)
        return ImpactScale(self, a / 2, True)

    def impact_rates(self, normal_mass_inverse: np.ndarray | Sequence[float], speed: float) -> list[float]:
        """``√(k C_ii)`` per contact (per-contact ``k``: contact ``i``'s): the loading line's (unloading is ``1/r``
        times faster)."""
        inverse = np.asarray(normal_mass_inverse, dtype=float)
        k = np.broadcast_to(np.asarray(self.stiffness, dtype=float), inverse.shape)
        return [math.sqrt(ki * c) for ki, c in zip(k, inverse, strict=True)]


# The registry is defined with the memoryless laws, which this module builds on; a peak law joins it here. A solve
# with it needs ``restart_at = ["peak"]`` (the config and ``solve`` refuse it without).
NORMAL_LAWS["bilinear_spring"] = BilinearSpring
