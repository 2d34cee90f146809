"""The rules values must follow, and their checks: one rule per value, whichever way it enters (the Python API
at construction, the config by the same rules, a compiled run for traced values; ``docs/results.md``, "What is
checked where")."""

from __future__ import annotations

import math
import operator
import reprlib
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

__all__ = [
    "FINITE",
    "MAX_STEPS",
    "MIN_RTOL",
    "NONNEGATIVE",
    "POSITIVE",
    "RELATIVE_TOLERANCE",
    "RULES",
    "UNIT_INTERVAL",
    "ArgumentError",
    "Rule",
    "check_argument",
    "check_arguments",
    "check_count",
    "check_parameters",
    "check_type",
    "count_problem",
    "holds",
    "in_open_interval",
    "is_traced",
    "rule_problem",
]


class Rule(NamedTuple):
    """A rule: what is expected, in words, and an elementwise test of finite values (the same function on numpy
    arrays on the host and on JAX arrays in a compiled run).

    Examples:
        >>> from regcontact._argument_checks import Rule, check_argument
        >>> EVEN = Rule("an even number", lambda x: x % 2 == 0)
        >>> check_argument("n", 3, EVEN)
        Traceback (most recent call last):
        ...
        regcontact._argument_checks.ArgumentError: n = 3: expected an even number
    """

    expected: str
    test: Callable[[Any], Any]


FINITE = Rule("a finite number", lambda x: x == x)
POSITIVE = Rule("a positive number", lambda x: x > 0)
NONNEGATIVE = Rule("a number ≥ 0", lambda x: x >= 0)


def in_open_interval(low: float, high: float, label: str | None = None) -> Rule:
    """The rule ``low < x < high`` (``label`` writes the bounds, e.g. ``"0, π"``)."""
    return Rule(f"a number in ({label or f'{low:g}, {high:g}'})", lambda x: (low < x) & (x < high))


UNIT_INTERVAL = in_open_interval(0.0, 1.0)

#: The smallest relative tolerance of a solve: 100 float64 epsilons, 2.2e-14, the floor SciPy's and MATLAB's
#: integrators clamp to. Below it a step's error estimate is round-off, the step-size controller cannot meet the
#: tolerance, and its steps stop meaning anything (at rtol 1e-100 a run ended with its integrals 72 % off).
MIN_RTOL = 100 * float(np.finfo(np.float64).eps)

#: The rule of a solve's ``rtol``: ``MIN_RTOL ≤ rtol < 1``.
RELATIVE_TOLERANCE = Rule(
    f"a number in [{MIN_RTOL:.2g}, 1) (100 float64 epsilons or more: a smaller rtol cannot be met in float64)",
    lambda x: (x >= MIN_RTOL) & (x < 1.0),
)

#: The rules by the names the contact laws use in their ``PARAMETERS``.
RULES: dict[str, Rule] = {"finite": FINITE, "positive": POSITIVE, "nonnegative": NONNEGATIVE}

#: The largest step budget of a solve: more steps than any run can take (a day of steps at a microsecond each is
#: 1e11), and well inside the int64 counters of the solver.
MAX_STEPS = 10**12

#: float64's smallest normal number: XLA computes with anything smaller in size as zero.
_TINY = float(np.finfo(np.float64).tiny)

_FLUSHED = " (JAX flushes subnormal numbers, below 2.2e-308 in size, to zero)"


class ArgumentError(ValueError):
    """A value that breaks its rule, a ``ValueError`` of one line: ``name = value: expected …``
    (``rtol = 2.0: expected a number in (0, 1)``). The parts are kept as ``name``, ``value`` and ``expected``, so
    a config can translate the error into its own key.

    Args:
        name: the argument's name.
        value: the value refused.
        expected: what was expected, in words.
        shown: how to write the value where its ``repr`` would not do (an array by its shape).
    """

    def __init__(self, name: str, value: Any, expected: str, shown: str | None = None):
        self.name, self.value, self.expected = name, value, expected
        written = " ".join(repr(value).split()) if shown is None else shown  # an array's repr on one line
        super().__init__(f"{name} = {written}: expected {expected}")


def is_traced(value: Any) -> bool:
    """Whether ``value`` (or any leaf of it) is a JAX tracer: a value under ``jit``/``vmap``, not known yet."""
    return any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree_util.tree_leaves(value))


def _number(x: float) -> float | int:
    return int(x) if math.isfinite(x) and x == int(x) else x


def _has_bool_or_text(value: Any) -> bool:
    """A bool or a string, or a list or tuple holding one at any depth (numpy would read them as numbers)."""
    if isinstance(value, list | tuple):
        return any(_has_bool_or_text(item) for item in value)
    return isinstance(value, bool | np.bool_ | str | bytes)


def rule_problem(value: Any, rule: Rule) -> tuple[Any, str] | None:
    """``(the value to show, what was expected)`` if a concrete ``value`` (or any element of it) breaks ``rule``,
    else ``None``. A bool, a string, an empty array or anything that is not an array of real numbers breaks
    every rule."""
    expected, test = rule
    if _has_bool_or_text(value):
        return value, expected
    if isinstance(value, int | float):  # the common case, without numpy's overhead
        try:
            x = float(value)
        except OverflowError:  # an integer beyond float64
            return value, expected
        if not (math.isfinite(x) and test(x)):
            return value, expected
        return (value, expected + _FLUSHED) if abs(x) < _TINY and not test(0.0) else None
    try:
        array = np.asarray(value)
        if array.dtype == object and isinstance(value, list | tuple):  # Python integers beyond int64
            array = np.asarray(value, dtype=float)
    except (TypeError, ValueError, OverflowError):
        return value, expected
    if array.dtype.kind not in "iuf" or array.size == 0:
        return value, expected
    array = array.astype(np.float64)
    finite = np.isfinite(array)
    safe = np.where(finite, array, 0.0)
    with np.errstate(invalid="ignore"):
        good = finite & test(safe)
        flushed_good = test(np.where(np.abs(safe) < _TINY, 0.0, safe))
    if np.all(good) and np.all(flushed_good):
        return None
    first = int(np.argmin(good.ravel())) if not np.all(good) else int(np.argmin(np.asarray(flushed_good).ravel()))
    bad = float(array.flat[first])
    shown = value if isinstance(value, int | float) else _number(bad)
    return shown, expected if not np.all(good) else expected + _FLUSHED


def check_argument(name: str, value: Any, rule: Rule) -> None:
    """Check one concrete value against its rule, elementwise (a batch in one pass).

    NaN and ±inf never pass; a bool, a string or an empty array neither; a value that passes only because it is
    subnormal (below 2.2e-308 in size, which XLA flushes to zero on CPUs and GPUs) is refused, saying so.

    Args:
        name: the argument's name, for the message.
        value: a Python number, a numpy array or an eager JAX array; ``None`` and traced values (under ``jit`` or
            ``vmap``: no value to read) pass unchecked.
        rule: the :class:`Rule` it must follow.

    Raises:
        ArgumentError: ``name = value: expected …`` for the first element that breaks the rule.
    """
    if value is None or is_traced(value):
        return
    problem = rule_problem(value, rule)
    if problem is not None:
        raise ArgumentError(name, *problem)


def check_arguments(rules: Mapping[str, Rule], **values: Any) -> None:
    """:func:`check_argument` for every value, each against the rule of its name."""
    for name, value in values.items():
        check_argument(name, value, rules[name])


def check_parameters(law: Any, **values: Any) -> None:
    """Check the parameters a contact law is built with against its class's ``PARAMETERS`` rules."""
    for name, value in values.items():
        check_argument(name, value, RULES[law.PARAMETERS[name]])


def count_problem(value: Any, most: int | None = None) -> str | None:
    """What was expected, if ``value`` is not a whole number from 1 to ``most`` (a Python or numpy integer; a
    bool or a float, even a whole one, is not a count); else ``None``."""
    expected = "a positive integer" if most is None else f"a positive integer ≤ {most:.0e}"
    if isinstance(value, bool | np.bool_):
        return expected
    try:
        count = operator.index(value)
    except TypeError:
        return expected
    return expected if count < 1 or (most is not None and count > most) else None


def check_count(name: str, value: Any, most: int | None = None) -> int:
    """``value`` as an ``int`` if it is a whole number from 1 to ``most``; else ``ArgumentError``."""
    expected = count_problem(value, most)
    if expected is not None:
        raise ArgumentError(name, value, expected)
    return operator.index(value)


def check_type(name: str, value: Any, kind: type | tuple[type, ...], expected: str) -> None:
    """``TypeError`` of one line unless ``value`` is an instance of ``kind``: ``name = 'rod': expected a system (an
    AbstractSystem such as PainleveRod()), not a str`` (a class given for its instance says to call it).

    Examples:
        >>> from regcontact._argument_checks import check_type
        >>> check_type("count", "3", int, "an integer")
        Traceback (most recent call last):
        ...
        TypeError: count = '3': expected an integer, not a str
    """
    if isinstance(value, kind):
        return
    if isinstance(value, type):
        raise TypeError(f"{name} = {value.__name__}: expected {expected}, not the class itself (call it)")
    raise TypeError(f"{name} = {reprlib.repr(value)}: expected {expected}, not a {type(value).__name__}")


def holds(value: Any, rule: Rule) -> jax.Array:
    """Whether every element of ``value`` is finite and follows ``rule``, as a JAX boolean: the check of a traced
    value inside a compiled run (XLA flushes subnormal values there itself)."""
    x = jnp.asarray(value, dtype=float)
    finite = jnp.isfinite(x)
    return jnp.all(finite & rule.test(jnp.where(finite, x, 0.0)))
