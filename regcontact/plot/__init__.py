"""Plots of finished studies and of single runs, on matplotlib axes: the standard views of the figures.

Each function takes what :func:`~regcontact.load_results` reads (a :class:`~regcontact.studies.FinishedStudy`) or
what :func:`~regcontact.force_history` returns, draws on the axes given (new ones when none are) and returns them,
as xarray's and pandas' ``.plot`` do; the figure scripts of :mod:`regcontact.figures` draw with the same
functions. No physics module imports this package.
"""

from regcontact.plot._histories import (
    forces as forces,
    motion as motion,
)
from regcontact.plot._maps import (
    OUTCOMES as OUTCOMES,
    outcome_map as outcome_map,
)
from regcontact.plot._sweeps import (
    distances as distances,
    force_integrals as force_integrals,
    window_phrase as window_phrase,
)
