"""Stiff solvers for diffrax, built for contact laws whose Jacobian jumps on switching surfaces.

* :class:`CrossingBisection`: the root finder of events and restarts (bisection to the sign change).
* :class:`RadauIIA5`: Radau IIA of order 5 with Newton on stage Jacobians, the Hairer–Wanner filtered error
  estimate and collocation dense output (for event root finding).
* :class:`RadauIIA9`: the same with five stages, order 9 (fewer, longer steps at tight tolerances).
* :class:`StepFloorController`: diffrax's PID controller that ends a run whose tolerance float64 cannot meet.
"""

from regcontact._crossing_bisection import (
    CrossingBisection as CrossingBisection,
)
from regcontact.compliant.solvers.polynomial_interpolation import (
    PolynomialInterpolation as PolynomialInterpolation,
)
from regcontact.compliant.solvers.radau_iia import (
    NewtonTolerances as NewtonTolerances,
    RadauIIA5 as RadauIIA5,
    RadauIIA5Tableau as RadauIIA5Tableau,
    RadauIIA9 as RadauIIA9,
    RadauIIATableau as RadauIIATableau,
    radau_iia5_tableau as radau_iia5_tableau,
    radau_iia_tableau as radau_iia_tableau,
    radau_nodes as radau_nodes,
)
from regcontact.compliant.solvers.step_floor import (
    STEP_FLOOR as STEP_FLOOR,
    StepFloorController as StepFloorController,
)
