"""Compliant contact laws as JAX modules, and how their parameters scale with the stiffness multiplier α
(``docs/systems.md``, "Contact laws")."""

from regcontact.contact._bilinear_spring import (
    AbstractPeakNormalLaw as AbstractPeakNormalLaw,
    BilinearSpring as BilinearSpring,
)
from regcontact.contact._contact_model import (
    ContactModel as ContactModel,
    default_exponents as default_exponents,
    law_exponents as law_exponents,
    scale_parameters as scale_parameters,
)
from regcontact.contact._friction_disk import (
    friction_disk as friction_disk,
)
from regcontact.contact._friction_laws import (
    FRICTION_LAWS as FRICTION_LAWS,
    AbstractFrictionLaw as AbstractFrictionLaw,
    ViscousCoulomb as ViscousCoulomb,
)
from regcontact.contact._normal_laws import (
    NORMAL_LAWS as NORMAL_LAWS,
    AbstractJumpingNormalLaw as AbstractJumpingNormalLaw,
    AbstractLinearSpringDamper as AbstractLinearSpringDamper,
    AbstractNormalLaw as AbstractNormalLaw,
    ChampneysFastScale as ChampneysFastScale,
    ClippedKelvinVoigt as ClippedKelvinVoigt,
    HuntCrossley as HuntCrossley,
    HuntCrossleyDamping as HuntCrossleyDamping,
    ImpactScale as ImpactScale,
    SpringDamper as SpringDamper,
)
from regcontact.contact._per_contact import (
    check_per_contact as check_per_contact,
    is_per_contact as is_per_contact,
    select_contacts as select_contacts,
    uniform_value as uniform_value,
)
