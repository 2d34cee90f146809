"""Impacts: Darboux–Keller, the compliant limit, the impact process on the impact's own time scale, chatter."""

from regcontact.rigid._impacts.chatter import (
    ChatterDirection as ChatterDirection,
    ChatterSequence as ChatterSequence,
    bounce_directions as bounce_directions,
    chatter_directions as chatter_directions,
    chatter_sequence as chatter_sequence,
    reverse_chatter_possible as reverse_chatter_possible,
)
from regcontact.rigid._impacts.compliant_limit import (
    COULOMB_MU_LIMIT as COULOMB_MU_LIMIT,
    MAX_RATE_RTOL as MAX_RATE_RTOL,
    LimitImpact as LimitImpact,
    LimitLaw as LimitLaw,
    compliant_limit as compliant_limit,
    compliant_limit_map as compliant_limit_map,
    kelvin_voigt_restitution as kelvin_voigt_restitution,
    limit_law as limit_law,
    spring_damper_restitution as spring_damper_restitution,
    touchdown_lead as touchdown_lead,
)
from regcontact.rigid._impacts.darboux_keller import (
    RESTITUTION_LAWS as RESTITUTION_LAWS,
    ImpactOutcome as ImpactOutcome,
    ImpactPhase as ImpactPhase,
    RestitutionLaw as RestitutionLaw,
    darboux_keller as darboux_keller,
    darboux_keller_map as darboux_keller_map,
)
from regcontact.rigid._impacts.impact_law import (
    IMPACT_LAWS as IMPACT_LAWS,
    AbstractImpactLaw as AbstractImpactLaw,
    CompliantLimitImpact as CompliantLimitImpact,
    DarbouxKellerImpact as DarbouxKellerImpact,
    NewtonImpact as NewtonImpact,
    RigidImpact as RigidImpact,
)
from regcontact.rigid._impacts.impact_process import (
    ProcessOutcome as ProcessOutcome,
    impact_process as impact_process,
)
from regcontact.rigid._impacts.limit_batch import compliant_limits as compliant_limits
from regcontact.rigid._impacts.without_collision import (
    IWCCases as IWCCases,
    iwc_cases as iwc_cases,
    iwc_liftoff_velocity as iwc_liftoff_velocity,
)
