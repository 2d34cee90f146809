"""A step-size controller that says when float64 cannot meet its tolerance.

diffrax's PID controller shrinks a rejected step without bound: once the step it retries is below the spacing of
float64 numbers at ``t``, the step no longer moves the state by anything the error estimate can see, and a run
crawls to its step budget. MATLAB's ``ode15s`` and SciPy's ``Radau`` stop there
instead ("unable to meet integration tolerances"): a rejected step whose retry is shorter than ``16 ε |t|``
(``ε`` = float64's epsilon) ends the run. :class:`StepFloorController` is diffrax's PID controller with that stop:
the run ends with diffrax's ``dt_min_reached``, so it is not ``ok``. Accepted steps are untouched (a short step
at the start of a piece, where ``t`` may be 0, is not a failure), so a run that never needs such a retry takes the
same steps as with ``diffrax.PIDController``.
"""

from __future__ import annotations

from collections.abc import Callable

import diffrax
import jax.numpy as jnp
import numpy as np
import optimistix as optx
from jaxtyping import Array, PyTree

from ..._argument_checks import POSITIVE, RELATIVE_TOLERANCE, check_arguments

__all__ = ["STEP_FLOOR", "StepFloorController"]

#: The shortest retry of a rejected step at time ``t``, in units of ``|t|``: 16 float64 epsilons (``ode15s``'s
#: ``16 eps |t|``; SciPy's Radau stops at 10 spacings of ``t``, about 10–20 ε |t|).
STEP_FLOOR = 16 * float(np.finfo(np.float64).eps)


class StepFloorController(diffrax.AbstractAdaptiveStepSizeController):
    """diffrax's ``PIDController(rtol, atol)`` that ends the run with ``dt_min_reached`` when a rejected step's
    retry is shorter than :data:`STEP_FLOOR` ``· |t|``: the tolerance cannot be met in float64 there."""

    rtol: float | Array
    atol: float | Array
    norm: Callable[[PyTree], float | Array] = optx.rms_norm

    def __check_init__(self):
        # The tolerances' rules are Controls' (a concrete rtol below 100 ε is refused here too; traced ones are
        # the run's to check, as invalid_tolerance).
        check_arguments({"rtol": RELATIVE_TOLERANCE, "atol": POSITIVE}, rtol=self.rtol, atol=self.atol)

    def _pid(self) -> diffrax.PIDController:
        return diffrax.PIDController(rtol=self.rtol, atol=self.atol, norm=self.norm)

    def wrap(self, direction):
        return self

    def init(self, terms, t0, t1, y0, dt0, args, func, error_order):
        return self._pid().init(terms, t0, t1, y0, dt0, args, func, error_order)

    def adapt_step_size(self, t0, t1, y0, y1_candidate, args, y_error, error_order, controller_state):
        keep, next_t0, next_t1, made_jump, state, result = self._pid().adapt_step_size(
            t0, t1, y0, y1_candidate, args, y_error, error_order, controller_state
        )
        below = ~keep & (next_t1 - next_t0 < STEP_FLOOR * jnp.abs(next_t0))
        result = diffrax.RESULTS.where(below, diffrax.RESULTS.dt_min_reached, result)
        return keep, next_t0, next_t1, made_jump, state, result
