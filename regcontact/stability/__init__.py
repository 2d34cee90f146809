"""Rigid-contact analysis beside the simulation (Champneys & Várkonyi 2016, Secs. 3–4).

* :mod:`~regcontact.stability.reduced` — the reduced quantities ``a, b, A, B, C`` of a planar single contact and
  the Painlevé parameters ``p±, k±``;
* :mod:`~regcontact.stability.modes` — which contact modes are consistent (Tables 1–3);
* :mod:`~regcontact.stability.fast_scale` — the fast-scale normal dynamics of a compliant contact, its
  equilibria and their linearisation (Sec. 4);
* :mod:`~regcontact.stability.two_contact` — two non-sticking contacts: class codes, consistent modes, impacts
  without collision, the normal stability of ``S+S+`` and Table 4 recomputed (Sec. 6).
"""

from regcontact.stability.fast_scale import (
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
from regcontact.stability.modes import (
    MODE_NAMES as MODE_NAMES,
    ContactModes as ContactModes,
    TableCell as TableCell,
    cell_label as cell_label,
    consistent_modes as consistent_modes,
    rigid_consistent_modes as rigid_consistent_modes,
    table_cell as table_cell,
)
from regcontact.stability.reduced import (
    PainleveParameters as PainleveParameters,
    ReducedDynamics as ReducedDynamics,
    at_most_one_nonpositive as at_most_one_nonpositive,
    painleve_parameters as painleve_parameters,
    reduced_dynamics as reduced_dynamics,
    rod_reduced_dynamics as rod_reduced_dynamics,
)
from regcontact.stability.two_contact import (
    IMPACT_NAMES as IMPACT_NAMES,
    TWO_CONTACT_MODE_NAMES as TWO_CONTACT_MODE_NAMES,
    TwoContactEquilibrium as TwoContactEquilibrium,
    TwoContactImpacts as TwoContactImpacts,
    TwoContactModes as TwoContactModes,
    TwoContactSystem as TwoContactSystem,
    characteristic_polynomial as characteristic_polynomial,
    class_code as class_code,
    class_label as class_label,
    cone_meets_quadrant as cone_meets_quadrant,
    equal_law_eigenvalues as equal_law_eigenvalues,
    hurwitz_stable as hurwitz_stable,
    impacts_without_collision as impacts_without_collision,
    lcp_modes as lcp_modes,
    painleve_matrix as painleve_matrix,
    recompute_table4 as recompute_table4,
    slip_slip_eigenvalues as slip_slip_eigenvalues,
    slip_slip_equilibrium as slip_slip_equilibrium,
    slip_slip_jacobian as slip_slip_jacobian,
    swap_contacts as swap_contacts,
    two_contact_autodiff_eigenvalues as two_contact_autodiff_eigenvalues,
    two_contact_modes as two_contact_modes,
    two_contact_trajectories as two_contact_trajectories,
    two_contact_vector_field as two_contact_vector_field,
)
