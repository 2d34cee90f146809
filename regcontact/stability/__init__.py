"""Rigid-contact analysis beside the simulation (Champneys & Várkonyi 2016, Secs. 3–4 and 6): the reduced
quantities and Painlevé parameters of one contact, its consistent modes (Tables 1–3), its fast-scale normal
dynamics, and the same for two forward-slipping contacts with Table 4 recomputed. ``docs/stability.md`` is the
book."""

from regcontact.stability._fast_scale import (
    Equilibrium as Equilibrium,
    FastScaleSystem as FastScaleSystem,
    autodiff_eigenvalues as autodiff_eigenvalues,
    equilibrium_type as equilibrium_type,
    fast_trajectories as fast_trajectories,
    fast_vector_field as fast_vector_field,
    linearisation_eigenvalues as linearisation_eigenvalues,
    normal_force as normal_force,
    slip_equilibrium as slip_equilibrium,
    slip_vector_field as slip_vector_field,
    stick_equilibrium as stick_equilibrium,
    stick_vector_field as stick_vector_field,
)
from regcontact.stability._modes import (
    MODE_NAMES as MODE_NAMES,
    ContactModes as ContactModes,
    TableCell as TableCell,
    cell_label as cell_label,
    consistent_modes as consistent_modes,
    rigid_consistent_modes as rigid_consistent_modes,
    table_cell as table_cell,
)
from regcontact.stability._printed_table4 import (
    PRINTED_TABLE4 as PRINTED_TABLE4,
    PrintedRow as PrintedRow,
    RowComparison as RowComparison,
    compare_with_printed as compare_with_printed,
    impact_readings as impact_readings,
    mode_readings as mode_readings,
)
from regcontact.stability._reduced import (
    PainleveParameters as PainleveParameters,
    ReducedDynamics as ReducedDynamics,
    at_most_one_nonpositive as at_most_one_nonpositive,
    painleve_parameters as painleve_parameters,
    reduced_dynamics as reduced_dynamics,
    rod_reduced_dynamics as rod_reduced_dynamics,
)
from regcontact.stability._table4 import (
    ClassResult as ClassResult,
    SubclassResult as SubclassResult,
    recompute_table4 as recompute_table4,
    sample_configurations as sample_configurations,
)
from regcontact.stability._tumbling_cycle import (
    TUMBLING_FAILURES as TUMBLING_FAILURES,
    TumblingCycle as TumblingCycle,
    TumblingScan as TumblingScan,
    tumbling_cycle as tumbling_cycle,
    tumbling_multipliers as tumbling_multipliers,
)
from regcontact.stability._two_contact_classes import (
    IMPACT_NAMES as IMPACT_NAMES,
    TWO_CONTACT_MODE_NAMES as TWO_CONTACT_MODE_NAMES,
    class_code as class_code,
    class_label as class_label,
    painleve_matrix as painleve_matrix,
    swap_contacts as swap_contacts,
)
from regcontact.stability._two_contact_fast_scale import (
    TwoContactEquilibrium as TwoContactEquilibrium,
    TwoContactSystem as TwoContactSystem,
    characteristic_polynomial as characteristic_polynomial,
    equal_law_eigenvalues as equal_law_eigenvalues,
    hurwitz_stable as hurwitz_stable,
    slip_slip_eigenvalues as slip_slip_eigenvalues,
    slip_slip_equilibrium as slip_slip_equilibrium,
    slip_slip_jacobian as slip_slip_jacobian,
    two_contact_autodiff_eigenvalues as two_contact_autodiff_eigenvalues,
    two_contact_trajectories as two_contact_trajectories,
    two_contact_vector_field as two_contact_vector_field,
)
from regcontact.stability._two_contact_modes import (
    TwoContactImpacts as TwoContactImpacts,
    TwoContactModes as TwoContactModes,
    cone_meets_quadrant as cone_meets_quadrant,
    impacts_without_collision as impacts_without_collision,
    lcp_modes as lcp_modes,
    two_contact_modes as two_contact_modes,
)
