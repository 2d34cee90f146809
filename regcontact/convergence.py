"""Convergence of force integrals to a rigid reference as α → ∞: distances, the observed order over the tail,
the Richardson limit and warnings (round-off, a tail not yet asymptotic, a reference not approached). Pure
numpy; ``docs/convergence.md`` gives the rules."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "DRIFT_TOLERANCE",
    "MIN_ORDER",
    "MIN_ORDER_VALUES",
    "MIN_TAIL_POINTS",
    "ROUNDOFF_FACTOR",
    "TAIL_DECADES",
    "Convergence",
    "OrderFit",
    "analyse",
    "distances",
    "extrapolate",
    "fit_order",
    "roundoff_floor",
    "why_no_order",
]

#: The tail: the points within this many decades of the largest α.
TAIL_DECADES = 3.0
#: ...but at least this many distinct α (if there are that many).
MIN_TAIL_POINTS = 3
#: The fewest distinct α (or δt) an order is fitted from: two fix any line, so a third is the least that can
#: disagree with it (and a repeated value adds none).
MIN_ORDER_VALUES = 3
#: Largest spread of the local orders in the tail for it to count as asymptotic.
DRIFT_TOLERANCE = 0.1
#: Distances below this many times the solver's tolerance (``rtol · size + atol``) are at round-off.
ROUNDOFF_FACTOR = 10.0
#: Below this order the distances are not falling: the integrals do not approach the reference.
MIN_ORDER = 0.1


@dataclasses.dataclass(frozen=True)
class OrderFit:
    """A least-squares line ``log d = c − p log α`` over the tail: ``order`` ``p``, the α range fitted,
    ``residual`` (rms of the ``log₁₀ d`` residuals, in decades) and the ``local_orders`` between neighbours."""

    order: float
    alpha_range: tuple[float, float]
    residual: float
    local_orders: tuple[float, ...]

    @property
    def drift(self) -> float:
        """Spread of the local orders (0 with fewer than two)."""
        return float(np.ptp(self.local_orders)) if len(self.local_orders) > 1 else 0.0


def distances(integrals: ArrayLike, reference: ArrayLike) -> NDArray[np.float64]:
    """``max |∫λ − Λ|`` per α, over every contact and component (``integrals``: ``(m, …)``, ``reference``: ``(…)``)."""
    integrals = np.asarray(integrals, dtype=float)
    difference = integrals - np.asarray(reference, dtype=float)[None]
    return np.abs(difference.reshape(len(integrals), -1)).max(axis=1)


def roundoff_floor(integrals: ArrayLike, reference: ArrayLike, rtol: float, atol: float) -> float:
    """``ROUNDOFF_FACTOR · (rtol · s + atol)``, ``s`` the largest entry of ``|Λ|`` and of every ``|∫λ|``."""
    size = max(float(np.max(np.abs(reference), initial=0.0)), float(np.max(np.abs(integrals), initial=0.0)))
    return ROUNDOFF_FACTOR * (rtol * size + atol)


def why_no_order(values: ArrayLike, variable: str = "α") -> str | None:
    """Why no order can be fitted over ``values`` (``"only 2 distinct δt"``), or ``None`` when one can: the one
    rule every order printed or recorded passes, at least ``MIN_ORDER_VALUES`` distinct values."""
    distinct = int(np.unique(np.asarray(values, dtype=float)).size)
    return None if distinct >= MIN_ORDER_VALUES else f"only {distinct} distinct {variable}"


def _tail(alpha: NDArray[np.float64]) -> NDArray[np.bool_]:
    """The points within ``TAIL_DECADES`` of the largest α, or those at the last ``MIN_TAIL_POINTS`` distinct α
    (α sorted)."""
    inside = np.log10(alpha) >= np.log10(alpha[-1]) - TAIL_DECADES
    distinct = np.unique(alpha)
    if np.unique(alpha[inside]).size < MIN_TAIL_POINTS:
        inside |= alpha >= distinct[-min(MIN_TAIL_POINTS, distinct.size)]
    return inside


def fit_order(alpha: ArrayLike, distance: ArrayLike) -> OrderFit | None:
    """The order ``p`` of ``d ∝ α^(−p)``: a least-squares line through ``(log α, log d)`` over the tail (the last
    ``TAIL_DECADES`` decades, at least ``MIN_TAIL_POINTS`` points). Pass ``1/δt`` as ``alpha`` for an order in
    the time step.

    Args:
        alpha: nondecreasing.
        distance: one per ``alpha``, every one ``> 0``.

    Returns:
        An :class:`OrderFit`; ``None`` with fewer than ``MIN_ORDER_VALUES`` distinct ``alpha``
        (:func:`why_no_order` says so in words).
    """
    alpha, distance = np.asarray(alpha, dtype=float), np.asarray(distance, dtype=float)
    if why_no_order(alpha) is not None:
        return None
    tail = _tail(alpha)
    x, y = np.log10(alpha[tail]), np.log10(distance[tail])
    slope, intercept = np.polyfit(x, y, 1)
    residual = float(np.sqrt(np.mean((y - (intercept + slope * x)) ** 2)))
    at, group = np.unique(x, return_inverse=True)  # a repeated α: its mean log d
    mean = np.bincount(group, weights=y) / np.bincount(group)
    local = tuple(float(-s) for s in np.diff(mean) / np.diff(at))
    return OrderFit(float(-slope), (float(alpha[tail][0]), float(alpha[tail][-1])), residual, local)


def extrapolate(alpha: ArrayLike, integrals: ArrayLike, order: float) -> NDArray[np.float64]:
    """Richardson's limit from the last two points, ``(∫λ_m − ρ ∫λ_{m−1}) / (1 − ρ)``, ``ρ = (α_{m−1}/α_m)^p``
    (``m − 1`` the last point at a smaller α than the largest: a repeated α is no second point)."""
    alpha, integrals = np.asarray(alpha, dtype=float), np.asarray(integrals, dtype=float)
    before = np.flatnonzero(alpha < alpha[-1])[-1]
    ratio = (alpha[before] / alpha[-1]) ** order
    return (integrals[-1] - ratio * integrals[before]) / (1.0 - ratio)


@dataclasses.dataclass(frozen=True)
class Convergence:
    """How one system's integrals approach one reference, as :func:`analyse` finds it (the rules:
    ``docs/convergence.md``); ``None`` where undefined.

    Attributes:
        reference: the reference ``Λ``.
        alpha: the stiffness multipliers, ascending (failed runs left out).
        distances: ``d(α) = max |∫λ(α) − Λ|`` at each.
        roundoff_floor: the distance below which two values are equal within the solver's tolerance.
        fit: the order fitted over the tail (``None`` with fewer than ``MIN_ORDER_VALUES`` distinct α above
            round-off).
        limit: the extrapolated limit of the integrals.
        limit_order: the order the limit was extrapolated with (the fitted one, or that of the successive
            differences when the distances do not fall).
        warnings: one line per caveat (round-off, a tail not yet asymptotic, a reference not approached).
    """

    reference: NDArray[np.float64]
    alpha: NDArray[np.float64]
    distances: NDArray[np.float64]
    roundoff_floor: float
    fit: OrderFit | None
    limit: NDArray[np.float64] | None
    limit_order: float | None
    warnings: tuple[str, ...]

    @property
    def order(self) -> float | None:
        return None if self.fit is None else self.fit.order

    @property
    def distance_of_limit(self) -> float | None:
        if self.limit is None:
            return None
        return float(np.max(np.abs(self.limit - self.reference)))

    def as_json(self) -> dict[str, Any]:
        """``order``, ``fit_alpha_range``, ``fit_residual``, ``limit``, ``distance_of_limit``, ``warnings`` and
        the data behind them."""
        return {
            "reference": self.reference.tolist(),
            "order": self.order,
            "fit_alpha_range": None if self.fit is None else list(self.fit.alpha_range),
            "fit_residual": None if self.fit is None else self.fit.residual,
            "local_orders": None if self.fit is None else list(self.fit.local_orders),
            "limit": None if self.limit is None else self.limit.tolist(),
            "limit_order": self.limit_order,
            "distance_of_limit": self.distance_of_limit,
            "warnings": list(self.warnings),
            "alpha": self.alpha.tolist(),
            "distances": self.distances.tolist(),
            "roundoff_floor": self.roundoff_floor,
        }


def _difference_order(alpha: NDArray[np.float64], integrals: NDArray[np.float64], floor: float) -> float | None:
    """The reference-free order: ``|∫λ_j − ∫λ_{j−1}| ∝ α_j^(−p)`` (exact for a geometric α grid)."""
    steps = np.abs(integrals[1:] - integrals[:-1]).reshape(len(integrals) - 1, -1).max(axis=1)
    keep = steps > floor
    fit = fit_order(alpha[1:][keep], steps[keep])
    return None if fit is None else fit.order


def analyse(
    alpha: ArrayLike, integrals: ArrayLike, reference: ArrayLike, rtol: float, atol: float = 0.0
) -> Convergence:
    """How a sweep's force integrals approach a rigid reference as α → ∞: distances, the order fitted over the
    tail, the Richardson limit and warnings (round-off, a tail not yet asymptotic, a reference not approached).

    Args:
        alpha: the stiffness multipliers of the sweep.
        integrals: the force integrals ``∫λ`` at each, shape ``(m, …)`` (``(m, 2)`` for one contact).
        reference: the rigid reference ``Λ``, shaped like one entry of ``integrals``.
        rtol: the relative tolerance the integrals were solved to (it sets the round-off floor).
        atol: the absolute tolerance.

    Returns:
        A :class:`Convergence`.

    Examples:
        >>> import numpy as np
        >>> from regcontact.convergence import analyse
        >>> alpha = np.logspace(3, 8, 6)
        >>> integrals = np.stack([0.3248 + 0.5 / np.sqrt(alpha)] * 2, axis=1)
        >>> result = analyse(alpha, integrals, np.full(2, 0.3248), rtol=1e-10)
        >>> round(result.order, 3), result.warnings
        (0.5, ())
    """
    alpha, integrals = np.asarray(alpha, dtype=float), np.asarray(integrals, dtype=float)
    reference = np.asarray(reference, dtype=float)
    order = np.argsort(alpha)
    alpha, integrals = alpha[order], integrals[order]
    d = distances(integrals, reference)
    floor = roundoff_floor(integrals, reference, rtol, atol)
    warnings: list[str] = []

    above = d > floor
    tail = _tail(alpha) if len(alpha) else np.zeros(0, dtype=bool)
    at_roundoff = int(np.sum(~above & tail))
    if at_roundoff and floor == 0:  # the reference and the integrals are all exactly zero: nothing to scale by
        warnings.append(f"round-off: {at_roundoff} tail distance(s) exactly 0: equal to the reference, not fitted")
    elif at_roundoff:
        warnings.append(
            f"round-off: {at_roundoff} tail distance(s) ≤ {floor:.1e} (= {ROUNDOFF_FACTOR:g}·(rtol·size + atol)): "
            "equal to the reference within the solver's tolerance, not fitted"
        )
    fit = fit_order(alpha[above], d[above])
    if fit is None:
        what = (
            "the integrals equal the reference already"
            if at_roundoff and np.all(~above[-2:])
            else f"an order needs {MIN_ORDER_VALUES} or more: sweep more values"
        )
        warnings.append(f"{why_no_order(alpha[above])} with a distance above round-off: no order ({what})")
    elif fit.order >= MIN_ORDER:  # a falling distance: is its tail asymptotic?
        if fit.drift > DRIFT_TOLERANCE:
            local = ", ".join(f"{p:.3f}" for p in fit.local_orders)
            warnings.append(
                f"not asymptotic: the local orders ({local}) spread by {fit.drift:.3f} > {DRIFT_TOLERANCE:g} "
                "(sweep further: the order and limit may still change)"
            )

    limit, limit_order = None, None
    if fit is not None and fit.order >= MIN_ORDER:
        limit_order = fit.order
    elif len(alpha) >= 2:
        limit_order = _difference_order(alpha, integrals, floor)
        if fit is not None:
            warnings.append(
                f"the distances do not fall (order {fit.order:.3f} < {MIN_ORDER:g}): the integrals approach another "
                "limit"
                + ("" if limit_order is None else "; extrapolated with the order of their successive differences")
            )
        if limit_order is None or limit_order < MIN_ORDER:
            limit_order = None
            if np.all(~above[-2:]):
                limit = integrals[-1]  # converged to round-off: the last integrals are the limit
            elif np.unique(alpha).size <= MIN_ORDER_VALUES:
                warnings.append(
                    f"no limit extrapolated (the order of the successive differences needs {MIN_ORDER_VALUES + 1} "
                    "distinct α: sweep more values)"
                )
            else:
                warnings.append("the integrals do not settle: no limit extrapolated (sweep further)")
    if limit_order is not None:
        limit = extrapolate(alpha, integrals, limit_order)
    return Convergence(reference, alpha, d, floor, fit, limit, limit_order, tuple(warnings))
