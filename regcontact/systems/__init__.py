"""Mechanical systems: a planar body (or several) with k unilateral frictional contacts, and spatial ones.

:class:`AbstractSystem` is what the compliant, rigid and stability code needs (mass matrix, forces, gaps, contact
Jacobians, μ, energy); the shipped systems implement it. A body of your own is one small subclass
(``docs/systems.md``).
:class:`AbstractSpatialSystem` is the same for contacts with a 2-vector tangent (``docs/spatial_contact.md``).
"""

from regcontact.systems._planar_rod import (
    AbstractPlanarRod as AbstractPlanarRod,
    slender_inertia as slender_inertia,
)
from regcontact.systems.reduced_contact import (
    ContactSpaceForm as ContactSpaceForm,
    ReducedSingleContact as ReducedSingleContact,
)
from regcontact.systems.reduced_two_contact import (
    ReducedTwoContact as ReducedTwoContact,
    contact_space_form as contact_space_form,
)
from regcontact.systems.rod import (
    PainleveRod as PainleveRod,
)
from regcontact.systems.spatial_rod import (
    SpatialRod as SpatialRod,
    painleve_friction as painleve_friction,
    spatial_rod_form as spatial_rod_form,
)
from regcontact.systems.spatial_system import (
    AbstractSpatialSystem as AbstractSpatialSystem,
    SpatialContactSpaceForm as SpatialContactSpaceForm,
    check_spatial_system as check_spatial_system,
    spatial_contact_space_form as spatial_contact_space_form,
)
from regcontact.systems.system import (
    AbstractSystem as AbstractSystem,
    check_system as check_system,
    first_bad_system as first_bad_system,
)
from regcontact.systems.two_point_rod import (
    TwoPointRod as TwoPointRod,
)
