"""Stiff solvers for diffrax, built for contact laws whose Jacobian jumps on switching surfaces.

* :class:`CrossingBisection`: the root finder of events and restarts (bisection to the sign change).
* :class:`RadauIIA5`: Radau IIA of order 5 with Newton on stage Jacobians, the Hairer–Wanner filtered error
  estimate and collocation dense output (for event root finding).
"""

from regcontact.solvers.crossing_bisection import CrossingBisection
from regcontact.solvers.polynomial_interpolation import PolynomialInterpolation
from regcontact.solvers.radau_iia import NewtonTolerances, RadauIIA5, RadauIIA5Tableau, radau_iia5_tableau

__all__ = [
    "CrossingBisection",
    "NewtonTolerances",
    "PolynomialInterpolation",
    "RadauIIA5",
    "RadauIIA5Tableau",
    "radau_iia5_tableau",
]
