"""The stability analyses' argument checks: every concrete value finite, friction coefficients ``≥ 0`` and slip
signs in ``{−1, 0, 1}`` (elementwise, so a grid of parameters is checked in one pass; traced values pass)."""

from __future__ import annotations

from typing import Any

import numpy as np

from regcontact._argument_checks import FINITE, NONNEGATIVE, Rule, check_argument

__all__ = ["COUNT", "SLIP_SIGN", "check_values"]

#: The sign of a slip velocity.
SLIP_SIGN = Rule("-1, 0 or 1", lambda x: (x == -1.0) | (x == 0.0) | (x == 1.0))

#: A positive count (of samples, laws, …).
COUNT = Rule("an integer ≥ 1", lambda x: (x >= 1) & (x == np.round(x)))

_RULES: dict[str, Rule] = {"mu": NONNEGATIVE, "slip_sign": SLIP_SIGN}


def check_values(**values: Any) -> None:
    """``ValueError("name = value: expected …")`` for the first value that breaks its rule: ``mu`` ``≥ 0``,
    ``slip_sign`` in ``{−1, 0, 1}``, every other one finite."""
    for name, value in values.items():
        check_argument(name, value, _RULES.get(name, FINITE))
