"""Reprs that show the numbers: ``SpringDamper(stiffness=1, damping=1)``, not ``SpringDamper(stiffness=f64[], ...)``.

Concrete arrays of up to :data:`SHOWN_VALUES` values are printed as numbers; larger arrays and traced values as
equinox prints them (dtype and shape). Reading a value for a repr is an explicit request for it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import equinox as eqx
import jax
import numpy as np

__all__ = ["SHOWN_VALUES", "readable_repr"]

#: Arrays with at most this many values are shown in full.
SHOWN_VALUES = 6


def _value(value: Any) -> str:
    if isinstance(value, jax.core.Tracer):
        return eqx.tree_pformat(value)
    if isinstance(value, (jax.Array, np.ndarray)) and value.size <= SHOWN_VALUES:
        numbers = np.asarray(value)
        if numbers.dtype.kind == "f":
            return f"{float(numbers):g}" if numbers.ndim == 0 else np.array2string(numbers, separator=", ")
        return str(numbers.tolist())
    if isinstance(value, (jax.Array, np.ndarray)):
        return eqx.tree_pformat(value)
    return repr(value)


def readable_repr(module: Any) -> str:
    """``ClassName(field=value, ...)`` over the dataclass fields of an equinox module."""
    fields = ", ".join(f"{field.name}={_value(getattr(module, field.name))}" for field in dataclasses.fields(module))
    return f"{type(module).__name__}({fields})"
