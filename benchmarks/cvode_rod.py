"""The compliant Painlevé rod for SUNDIALS CVODE (BDF, dense linear solver, analytic Jacobian) through
``scikit-sundae``: the strongest peer a Python user would pick for a small stiff system.

Two flavours of the same callbacks (``benchmarks/scipy_rod.py``'s :func:`rod_field` and :func:`rod_jacobian`,
one source):

* ``"numpy"``: plain Python on the state's floats, what a SciPy user's field becomes in CVODE's signature;
* ``"numba"``: the same functions compiled with ``numba.njit`` (what a performance-minded user writes), called
  by CVODE through a Python call each, with the parameters as ``userdata``.

A run integrates one contact time from the Table 1 start and keeps the end state only (``init_step`` and one
``step`` to ``t_end`` with ``tstop``), as regcontact's ``solve`` does. Install with ``pip install -e ".[bench]"``.
"""

from __future__ import annotations

import time
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from benchmarks.scipy_rod import ScipyRod, _tie_weights, rod_field, rod_jacobian

__all__ = ["CALLBACKS", "cvode_solve"]


def _numpy_callbacks(model: ScipyRod) -> tuple[Callable, Callable, Any]:
    params = model.params.tolist()

    def rhs(t, y, yp):
        rod_field(y.tolist(), params, yp)

    def jac(t, y, yp, JJ):
        rod_jacobian(y.tolist(), params, JJ)

    return rhs, jac, None


_COMPILED: dict[str, Callable] = {}


def _numba_callbacks(model: ScipyRod) -> tuple[Callable, Callable, Any]:
    if not _COMPILED:
        import numba

        # the same source, with its helper compiled too (numba resolves globals at compile time)
        helpers = {**rod_jacobian.__globals__, "_tie_weights": numba.njit(_tie_weights)}
        field = numba.njit(rod_field)
        jacobian = numba.njit(types.FunctionType(rod_jacobian.__code__, helpers, "rod_jacobian"))

        @numba.njit
        def rhs(t, y, yp, userdata):
            field(y, userdata[0], yp)

        @numba.njit
        def jac(t, y, yp, JJ, userdata):
            jacobian(y, userdata[0], JJ)

        _COMPILED.update(rhs=rhs, jac=jac)
    return _COMPILED["rhs"], _COMPILED["jac"], (model.params,)  # a tuple: scikit-sundae tests its truth


#: name -> builder of ``(rhsfn, jacfn, userdata)`` for a :class:`ScipyRod`
CALLBACKS: dict[str, Callable[[ScipyRod], tuple[Callable, Callable, Any]]] = {
    "numpy": _numpy_callbacks,
    "numba": _numba_callbacks,
}


def cvode_solve(model: ScipyRod, y0: np.ndarray, t_end: float, rtol: float, atol: float, callbacks: str) -> dict:
    """One CVODE solve to ``t_end``: the end state, wall and CPU seconds (set-up included) and success."""
    from sksundae.cvode import CVODE

    rhs, jac, userdata = CALLBACKS[callbacks](model)
    options: dict[str, Any] = dict(method="BDF", linsolver="dense", rtol=rtol, atol=atol, jacfn=jac)
    options["max_num_steps"] = 1_000_000
    if userdata is not None:
        options["userdata"] = userdata
    start, cpu = time.perf_counter(), time.process_time()
    solver = CVODE(rhs, **options)
    solver.init_step(0.0, y0)
    result = solver.step(t_end, tstop=t_end)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return dict(y=np.asarray(result.y).reshape(-1), time=elapsed, cpu=cpu, ok=bool(result.success))
