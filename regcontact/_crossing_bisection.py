"""A bracketing root finder for diffrax events: where, inside one step, a condition changed sign.

diffrax detects an event when a condition's sign differs between the ends of an accepted step, then root-finds
on the step's dense output over ``[t_prev, t_next]``. With a Newton root finder started at ``t_next`` (the
usual choice) the located time is not guaranteed to lie at a sign change: on a step where the condition rises
and falls again (a contact that lifts by 1e-9 and comes back, a hump), Newton runs into the end of the bracket
and stops there, far from the crossing (measured: a "lift-off" located at ``g_n = +7e-10`` with ``ġ_n < 0``).
Bisection cannot get lost that way: the step's two ends have opposite signs by construction, so a sign change
stays inside the halved bracket down to the spacing of floating-point times.

:class:`CrossingBisection` returns the end of the final bracket that lies *after* the crossing (where the
condition has its new sign), so that the state handed on is on the far side of the surface, never on it.
It differs from ``optimistix.Bisection`` in three ways that the event machinery needs:

* the orientation (rising or falling) is read from the two ends, and a zero at an end is allowed
  (diffrax's rising test is ``old ≤ 0 < new``), where ``optimistix.Bisection`` raises;
* a pytree of conditions (diffrax passes one value per event, all but the triggered one zero) is summed;
* it stops on the bracket's width alone: the condition's units (a gap, a force) carry no absolute tolerance.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import equinox as eqx
import jax.numpy as jnp
import jax.tree_util as jtu
import optimistix as optx
from jaxtyping import Array, Bool, PyTree, Scalar

__all__ = ["CrossingBisection"]


def _total(values: PyTree) -> Scalar:
    return sum(jtu.tree_leaves(values), jnp.asarray(0.0))


class _CrossingState(eqx.Module):
    before: Scalar
    after: Scalar
    falling: Bool[Array, ""]


class CrossingBisection(optx.AbstractRootFinder):  # type: ignore[misc]  # optimistix's abstract fields, as above
    """Bisection on ``[lower, upper]`` (``options``) to a sign change; returns the end past the change.

    Stops when the bracket is narrower than ``atol + rtol |t|`` (default: a few units in the last place).
    """

    rtol: float = 4 * float(jnp.finfo(float).eps)
    atol: float = 0.0
    norm: ClassVar[Callable] = jnp.abs  # type: ignore[misc]  # an equinox AbstractVar/ClassVar override, which mypy reads as a clash

    def init(self, fn, y, args, options: dict[str, Any], f_struct, aux_struct, tags) -> _CrossingState:
        lower = jnp.asarray(options["lower"], jnp.result_type(y))
        upper = jnp.asarray(options["upper"], jnp.result_type(y))
        falling = _total(fn(lower, args)[0]) > _total(fn(upper, args)[0])
        return _CrossingState(before=lower, after=upper, falling=falling)

    def _is_after(self, value: Scalar, falling: Bool[Array, ""]) -> Bool[Array, ""]:
        # Rising: after the crossing the condition is > 0; falling: it is ≤ 0 (diffrax's tests).
        return jnp.where(falling, value <= 0.0, value > 0.0)

    def step(self, fn, y, args, options, state: _CrossingState, tags):
        middle = state.before + 0.5 * (state.after - state.before)
        value, aux = fn(middle, args)
        after = self._is_after(_total(value), state.falling)
        new = _CrossingState(
            before=jnp.where(after, state.before, middle),
            after=jnp.where(after, middle, state.after),
            falling=state.falling,
        )
        return new.after, new, aux

    def terminate(self, fn, y, args, options, state: _CrossingState, tags):
        width = jnp.abs(state.after - state.before)
        scale = self.atol + self.rtol * jnp.maximum(jnp.abs(state.before), jnp.abs(state.after))
        return width <= scale, optx.RESULTS.successful

    def postprocess(self, fn, y, aux, args, options, state: _CrossingState, tags, result):
        return state.after, aux, {}
