"""Loads that depend on time: a force, torque or gravity given as a profile ``f(t)`` instead of a number.

A system's load field holds a number (a constant load, the arithmetic of a constant system unchanged) or a load
profile, a JAX module whose parameters are arrays: a batch of profiles is a ``vmap`` away and a new rate never
recompiles. The system evaluates the profile at the time its ``forces(q, v, t)`` is called with, so the compliant
vector field and the rigid integrators (which carry ``t`` in their state) see the same load at the same ``t``.
"""

from __future__ import annotations

import abc
from typing import Any, ClassVar

import equinox as eqx
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Bool, Float

from regcontact._argument_checks import (
    FINITE,
    NONNEGATIVE,
    ArgumentError,
    Rule,
    check_argument,
    check_arguments,
    holds,
    is_traced,
)
from regcontact._readable_repr import readable_repr

__all__ = ["AbstractLoad", "ConstantLoad", "RampLoad", "TableLoad", "depends_on_time", "load_at", "load_rule_value"]


class AbstractLoad(eqx.Module):
    """A scalar load as a function of time, ``f(t)``; ``DEPENDS_ON_TIME`` says (statically) whether it varies."""

    #: Whether ``f`` varies with ``t`` (static: a system with such a load has no conserved energy).
    DEPENDS_ON_TIME: ClassVar[bool] = True

    def __repr__(self) -> str:
        return readable_repr(self)

    @abc.abstractmethod
    def __call__(self, t: ArrayLike) -> Float[Array, ""]:
        """``f(t)``."""

    def follows_rules(self) -> Bool[Array, ""]:
        """Whether the profile's arguments follow the rules its constructor checks, as a JAX boolean: the check a
        compiled run makes of a profile whose values were traced or set by ``eqx.tree_at`` (never checked)."""
        return jnp.asarray(True)


def _f64(x: ArrayLike) -> Array:
    return jnp.asarray(x, dtype=float)


class ConstantLoad(AbstractLoad):
    """``f(t) = value``: a constant load as a profile (the same as the number itself in a load field)."""

    DEPENDS_ON_TIME: ClassVar[bool] = False
    value: Float[Array, ""]

    def __init__(self, value: ArrayLike):
        check_argument("value", value, FINITE)
        self.value = _f64(value)

    def __call__(self, t: ArrayLike) -> Float[Array, ""]:
        return self.value


#: What each argument of a :class:`RampLoad` must be (an ``until < 0`` would stop the ramp before it starts:
#: ``f(0) ≠ start``). A module constant, not a class variable: a profile's fields are written out as they are.
_RAMP_RULES: dict[str, Rule] = {"start": FINITE, "rate": FINITE, "until": NONNEGATIVE}


class RampLoad(AbstractLoad):
    """``f(t) = start + rate · min(t, until)``: a load that changes at a constant rate, held from ``until`` on.

    **Arguments:**

    - ``start``: ``f(0)``.
    - ``rate``: ``df/dt`` while it ramps.
    - ``until``: the time the ramp stops, ``≥ 0`` (``f`` held at ``start + rate · until`` after it); ``None``:
      never.

    Example: ``RampLoad(0.0, 0.5, until=2.0)`` rises from 0 to 1 over ``t ∈ [0, 2]`` and stays at 1.
    """

    start: Float[Array, ""]
    rate: Float[Array, ""]
    until: Float[Array, ""] | None

    def __init__(self, start: ArrayLike, rate: ArrayLike, until: ArrayLike | None = None):
        check_arguments(_RAMP_RULES, start=start, rate=rate, until=until)
        self.start, self.rate = _f64(start), _f64(rate)
        self.until = None if until is None else _f64(until)

    def __call__(self, t: ArrayLike) -> Float[Array, ""]:
        t = jnp.asarray(t, dtype=float)
        ramp_time = t if self.until is None else jnp.minimum(t, self.until)
        return self.start + self.rate * ramp_time

    def follows_rules(self) -> Bool[Array, ""]:
        return jnp.asarray(True) if self.until is None else holds(self.until, _RAMP_RULES["until"])


class TableLoad(AbstractLoad):
    """``f(t)`` interpolated linearly in a table ``(times, values)``, held at the end values outside it.

    **Arguments:**

    - ``times``: strictly increasing, at least two.
    - ``values``: one per time.

    Example: ``TableLoad([0.0, 1.0, 1.1], [0.0, 0.0, 2.0])``: zero, then a steep rise to 2 (a smoothed step).
    """

    times: Float[Array, " m"]
    values: Float[Array, " m"]

    def __init__(self, times: ArrayLike, values: ArrayLike):
        check_argument("times", times, FINITE)
        check_argument("values", values, FINITE)
        if not is_traced((times, values)):
            t, f = np.asarray(times, dtype=float), np.asarray(values, dtype=float)
            if t.ndim != 1 or t.size < 2 or not np.all(np.diff(t) > 0):
                raise ArgumentError("times", times, "at least two times, strictly increasing")
            if f.shape != t.shape:
                raise ArgumentError("values", values, f"one value per time ({t.size})")
        self.times, self.values = _f64(times), _f64(values)

    def __call__(self, t: ArrayLike) -> Float[Array, ""]:
        return jnp.interp(jnp.asarray(t, dtype=float), self.times, self.values)

    def follows_rules(self) -> Bool[Array, ""]:
        """Whether the times increase strictly (``jnp.interp`` would read an unsorted table without a word)."""
        if self.times.shape[-1] < 2:
            return jnp.asarray(False)
        return jnp.all(jnp.diff(self.times) > 0)


def load_at(load: ArrayLike | AbstractLoad, t: ArrayLike) -> Float[Array, ""]:
    """The value of a load field at ``t``: the field itself if it is a number (a constant load, returned
    untouched), else the profile at ``t``."""
    if isinstance(load, AbstractLoad):
        return load(t)
    return load  # type: ignore[return-value]  # a number or array: the constant load as stored


def depends_on_time(*loads: Any) -> bool:
    """Whether any of the load fields is a profile that varies with time (static: read from the structure)."""
    return any(isinstance(load, AbstractLoad) and type(load).DEPENDS_ON_TIME for load in loads)


def load_rule_value(load: Any) -> Any:
    """What a number rule checks of a load argument: the number itself, or ``0.0`` for a profile (a profile
    checks its own arguments when built)."""
    return 0.0 if isinstance(load, AbstractLoad) else load
