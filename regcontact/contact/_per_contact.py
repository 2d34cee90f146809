"""Per-contact law parameters: a law's parameter is a number (every contact alike) or an array of one value per
contact, applied to contact ``i`` by broadcasting against the contacts' gaps and rates (the laws act elementwise)."""

from __future__ import annotations

from typing import Any, TypeVar

import equinox as eqx
import jax.numpy as jnp
import numpy as np

from regcontact._argument_checks import ArgumentError

__all__ = ["check_per_contact", "is_per_contact", "select_contacts", "uniform_value"]

LawT = TypeVar("LawT")


def _parameters(law: Any) -> list[str]:
    return [name for name in getattr(type(law), "PARAMETERS", {}) if hasattr(law, name)]


def check_per_contact(law: Any, num_contacts: int, name: str) -> None:
    """Refuse a parameter of ``law`` that is neither a number nor one value per contact (shape ``(k,)``):
    ``ArgumentError`` in one line naming ``name.parameter``, its shape and ``k``. Shapes only, so it also checks
    traced laws.

    Examples:
        >>> import jax.numpy as jnp
        >>> from regcontact.contact import HuntCrossley, check_per_contact
        >>> check_per_contact(HuntCrossley(stiffness=jnp.array([1.0, 2.0, 3.0])), 2, "normal")
        Traceback (most recent call last):
        ...
        regcontact._argument_checks.ArgumentError: normal.stiffness = an array of shape (3,): expected a number, \
or one per contact: shape (2,) for 2 contacts
    """
    for parameter in _parameters(law):
        value = getattr(law, parameter)
        shape = tuple(np.shape(value))
        if shape not in ((), (num_contacts,)):
            raise ArgumentError(
                f"{name}.{parameter}",
                value,
                f"a number, or one per contact: shape ({num_contacts},) for {num_contacts} contacts",
                shown=f"an array of shape {shape}",
            )


def is_per_contact(law: Any) -> bool:
    """Whether any parameter of ``law`` is an array (one value per contact) rather than a number."""
    return any(np.ndim(getattr(law, parameter)) > 0 for parameter in _parameters(law))


def select_contacts(law: LawT, index: Any) -> LawT:
    """``law`` at the contacts ``index`` (an integer, or an index array): each per-contact parameter indexed, each
    number kept as it is (so a law of numbers comes back unchanged)."""
    names = [parameter for parameter in _parameters(law) if np.ndim(getattr(law, parameter)) > 0]
    if not names:
        return law
    return eqx.tree_at(
        lambda tree: [getattr(tree, parameter) for parameter in names],
        law,
        [jnp.asarray(getattr(law, parameter))[index] for parameter in names],
    )


def uniform_value(name: str, value: Any, why: str) -> float:
    """``value`` as one number: a number, or an array whose entries are all equal; else ``ValueError`` in one line
    saying ``why`` one value is needed."""
    array = np.asarray(value, dtype=float)
    if array.ndim == 0:
        return float(array)
    if array.size and np.all(array == array.flat[0]):
        return float(array.flat[0])
    raise ValueError(f"{name} = {array.tolist()} per contact: {why}")
