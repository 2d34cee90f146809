"""Rules of the rigid analyses' arguments that :mod:`regcontact._argument_checks` does not name: a coefficient in
``[0, 1]`` and a count (checked with :func:`~regcontact._argument_checks.check_argument`, so every value, NaN and
inf included, is refused in the same one line); and :func:`scalar`, for the host functions that compute with one
number per argument."""

from __future__ import annotations

from typing import Any

import numpy as np

from regcontact._argument_checks import Rule, check_argument

__all__ = ["RESTITUTION", "at_least", "scalar"]

#: A restitution coefficient (Poisson's, Newton's or Stronge's): ``0 ≤ r ≤ 1``.
RESTITUTION = Rule("a number in [0, 1]", lambda x: (x >= 0.0) & (x <= 1.0))


def at_least(minimum: int) -> Rule:
    """The rule ``x`` is an integer ``≥ minimum`` (a count of samples, steps or events)."""
    return Rule(f"an integer ≥ {minimum}", lambda x: (x >= minimum) & (x == np.round(x)))


def scalar(name: str, value: Any, rule: Rule) -> float:
    """``value`` as a Python float (a number, a numpy or a concrete JAX scalar) checked against ``rule``;
    ``ValueError("name = value: expected …")`` otherwise."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} = {value!r}: expected {rule[0]}") from None
    check_argument(name, number, rule)
    return number
