"""The Python API's argument checks: the rules the config applies, at construction, on values known there.

A check names the argument, the value and what was expected, in the config's words (``rtol = 2.0: expected a
number in (0, 1)``), and raises :class:`ValueError`. Only host values are checked: Python numbers and numpy
arrays (elementwise, so a batch is checked in one pass). A JAX array is taken as it is: under ``jit`` or ``vmap``
it is a tracer with no value, and outside them reading it could mean a transfer from a device; a JAX program
that builds its arguments from arrays is responsible for them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import jax
import numpy as np

__all__ = [
    "FINITE",
    "NONNEGATIVE",
    "POSITIVE",
    "RULES",
    "UNIT_INTERVAL",
    "Rule",
    "check_argument",
    "check_parameters",
    "in_open_interval",
]

#: A rule: what is expected, in words, and an elementwise test of finite float64 values.
Rule = tuple[str, Callable[[np.ndarray], np.ndarray]]

FINITE: Rule = ("a finite number", lambda x: np.ones(x.shape, bool))
POSITIVE: Rule = ("a positive number", lambda x: x > 0)
NONNEGATIVE: Rule = ("a number ≥ 0", lambda x: x >= 0)


def in_open_interval(low: float, high: float, label: str | None = None) -> Rule:
    """The rule ``low < x < high`` (``label`` writes the bounds, e.g. ``"0, π"``)."""
    return (f"a number in ({label or f'{low:g}, {high:g}'})", lambda x: (low < x) & (x < high))


UNIT_INTERVAL: Rule = in_open_interval(0.0, 1.0)

#: The rules by the names the contact laws use in their ``PARAMETERS``.
RULES: dict[str, Rule] = {"finite": FINITE, "positive": POSITIVE, "nonnegative": NONNEGATIVE}


def check_argument(name: str, value: Any, rule: Rule) -> None:
    """Raise ``ValueError("name = value: expected …")`` if a host ``value`` (or any element of it) breaks ``rule``
    or is not a finite number; JAX arrays and ``None`` pass unchecked."""
    if value is None or isinstance(value, jax.Array):
        return
    expected, test = rule
    if isinstance(value, bool) or isinstance(value, np.bool_):
        raise ValueError(f"{name} = {value!r}: expected {expected}")
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} = {value!r}: expected {expected}") from None
    good = np.isfinite(array) & test(np.where(np.isfinite(array), array, 0.0))
    if not np.all(good):
        bad = array.flat[int(np.argmin(good.ravel()))] if array.ndim else array
        shown = value if array.ndim == 0 and not isinstance(value, np.ndarray) else _number(float(bad))
        raise ValueError(f"{name} = {shown!r}: expected {expected}")


def check_parameters(law: Any, **values: Any) -> None:
    """Check the parameters a contact law is built with against its class's ``PARAMETERS`` rules."""
    for name, value in values.items():
        check_argument(name, value, RULES[law.PARAMETERS[name]])


def _number(x: float) -> float | int:
    return int(x) if math.isfinite(x) and x == int(x) else x
