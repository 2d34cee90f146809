"""Rigid-contact analysis beside the simulation (Champneys & Várkonyi 2016, Secs. 3–4).

* :mod:`~regcontact.stability.reduced` — the reduced quantities ``a, b, A, B, C`` of a planar single contact and
  the Painlevé parameters ``p±, k±``;
* :mod:`~regcontact.stability.modes` — which contact modes are consistent (Tables 1–3);
* :mod:`~regcontact.stability.fast_scale` — the fast-scale normal dynamics of a compliant contact, its
  equilibria and their linearisation (Sec. 4).
"""

from regcontact.stability.fast_scale import (
    Equilibrium,
    FastScaleSystem,
    autodiff_eigenvalues,
    equilibrium_type,
    fast_trajectories,
    fast_vector_field,
    linearisation_eigenvalues,
    normal_force,
    slip_equilibrium,
    slip_vector_field,
    stick_equilibrium,
    stick_vector_field,
)
from regcontact.stability.modes import (
    MODE_NAMES,
    ContactModes,
    TableCell,
    cell_label,
    consistent_modes,
    rigid_consistent_modes,
    table_cell,
)
from regcontact.stability.reduced import (
    PainleveParameters,
    ReducedDynamics,
    at_most_one_nonpositive,
    painleve_parameters,
    reduced_dynamics,
    rod_reduced_dynamics,
)

__all__ = [
    "ReducedDynamics",
    "PainleveParameters",
    "reduced_dynamics",
    "rod_reduced_dynamics",
    "painleve_parameters",
    "at_most_one_nonpositive",
    "MODE_NAMES",
    "ContactModes",
    "TableCell",
    "rigid_consistent_modes",
    "consistent_modes",
    "table_cell",
    "cell_label",
    "FastScaleSystem",
    "Equilibrium",
    "normal_force",
    "slip_vector_field",
    "stick_vector_field",
    "fast_vector_field",
    "slip_equilibrium",
    "stick_equilibrium",
    "linearisation_eigenvalues",
    "autodiff_eigenvalues",
    "equilibrium_type",
    "fast_trajectories",
]
