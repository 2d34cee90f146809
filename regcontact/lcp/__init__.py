"""Linear complementarity problems: Lemke's method, all solutions of small problems, planar friction as an LCP.

An LCP(M, q) asks for ``z ≥ 0`` with ``w = M z + q ≥ 0`` and ``zᵀ w = 0``.
"""

from regcontact.lcp.complementarity import LCPResidual, lcp_residual, lcp_scale
from regcontact.lcp.enumeration import LCPSolutions, SolutionContinuum, all_solutions
from regcontact.lcp.friction import FrictionLCP, FrictionSolutions, friction_lcp, friction_solutions
from regcontact.lcp.lemke import LemkeResult, LemkeStatus, lemke
from regcontact.lcp.multi_contact_friction import (
    MultiContactFrictionLCP,
    MultiContactFrictionSolutions,
    multi_contact_friction_lcp,
    multi_contact_friction_solutions,
)
from regcontact.lcp.siconos_format import read_siconos_lcp

__all__ = [
    "FrictionLCP",
    "FrictionSolutions",
    "LCPResidual",
    "LCPSolutions",
    "LemkeResult",
    "LemkeStatus",
    "MultiContactFrictionLCP",
    "MultiContactFrictionSolutions",
    "SolutionContinuum",
    "all_solutions",
    "friction_lcp",
    "friction_solutions",
    "lcp_residual",
    "lcp_scale",
    "lemke",
    "multi_contact_friction_lcp",
    "multi_contact_friction_solutions",
    "read_siconos_lcp",
]
