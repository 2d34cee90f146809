"""regcontact: stiff compliant-contact regularisations of rigid frictional contact.

The layers, each a subpackage, from the bottom up (a layer imports only those below it):

* :mod:`regcontact.systems`: planar bodies with k frictional contacts (:class:`AbstractSystem`);
* :mod:`regcontact.contact`: compliant normal and friction laws, and their α-scaling;
* :mod:`regcontact.compliant`: the compliant vector field, events, restarts and the vmapped solve;
* :mod:`regcontact.rigid`: LCPs (:mod:`regcontact.rigid.lcp`) and the rigid formulations and references;
* :mod:`regcontact.stability`: Champneys & Várkonyi's reduced quantities and fast-scale stability;
* :mod:`regcontact.studies`: configs, study kinds and results (the only layer that knows config strings);
* :mod:`regcontact.figures` and :mod:`regcontact.cli`: the paper figures and the ``regcontact`` command.

Importing the package switches JAX to float64 once: stiffness ratios of 1e8 and beyond are meaningless in
float32. This is the one place that sets it: on JAX if it is already imported, else through ``JAX_ENABLE_X64``,
which JAX reads when it is first imported. The top-level names (``regcontact.solve``, …) are imported on first
use (:mod:`regcontact._api`), so that importing the package, ``regcontact --help`` and a config error do not
wait for JAX.
"""

import os as _os
import sys as _sys
from importlib import import_module as _import_module
from typing import TYPE_CHECKING as _TYPE_CHECKING

if "jax" in _sys.modules:
    _sys.modules["jax"].config.update("jax_enable_x64", True)
else:
    _os.environ["JAX_ENABLE_X64"] = "1"

__version__ = "0.1.0"

if _TYPE_CHECKING:
    from regcontact._api import *  # noqa: F403


def __getattr__(name: str):
    """A top-level name (or ``__all__``), imported with every other one on first use."""
    if name.startswith("_") and name != "__all__":
        raise AttributeError(f"module 'regcontact' has no attribute {name!r}")
    try:
        value = getattr(_import_module("regcontact._api"), name)
    except AttributeError:
        raise AttributeError(f"module 'regcontact' has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_import_module("regcontact._api").__all__})
