"""Linear complementarity problems: Lemke's method, all solutions of small problems, planar friction as an LCP.

An LCP(M, q) asks for ``z ≥ 0`` with ``w = M z + q ≥ 0`` and ``zᵀ w = 0``.
"""

from regcontact.rigid.lcp._complementarity import (
    LCPResidual as LCPResidual,
    lcp_residual as lcp_residual,
    lcp_scale as lcp_scale,
)
from regcontact.rigid.lcp._enumeration import (
    DataScales as DataScales,
    LCPSolutions as LCPSolutions,
    SolutionContinuum as SolutionContinuum,
    all_solutions as all_solutions,
)
from regcontact.rigid.lcp._friction import (
    CHECKED_MU as CHECKED_MU,
    FrictionLCP as FrictionLCP,
    FrictionSolutions as FrictionSolutions,
    friction_lcp as friction_lcp,
    friction_solutions as friction_solutions,
)
from regcontact.rigid.lcp._friction_batch import (
    friction_solutions_batch as friction_solutions_batch,
)
from regcontact.rigid.lcp._lemke import (
    LemkeResult as LemkeResult,
    LemkeStatus as LemkeStatus,
    lemke as lemke,
)
from regcontact.rigid.lcp._multi_contact_friction import (
    MultiContactFrictionLCP as MultiContactFrictionLCP,
    MultiContactFrictionSolutions as MultiContactFrictionSolutions,
    multi_contact_friction_lcp as multi_contact_friction_lcp,
    multi_contact_friction_solutions as multi_contact_friction_solutions,
)
from regcontact.rigid.lcp._siconos_format import (
    read_siconos_lcp as read_siconos_lcp,
)
