"""regcontact: stiff compliant-contact regularisations of rigid frictional contact.

The layers, each a subpackage, from the bottom up (a layer imports only those below it):

* :mod:`regcontact.systems`: planar bodies with k frictional contacts (:class:`AbstractSystem`);
* :mod:`regcontact.contact`: compliant normal and friction laws, and their α-scaling;
* :mod:`regcontact.compliant`: the compliant vector field, events, restarts and the vmapped solve;
* :mod:`regcontact.rigid`: LCPs (:mod:`regcontact.rigid.lcp`), the rigid formulations, impacts, integrators and
  Painlevé analyses (beside :mod:`regcontact.compliant`, never importing it);
* :mod:`regcontact.passages`: compliant runs through a jam or a crossing against the rigid prediction;
* :mod:`regcontact.stability`: Champneys & Várkonyi's reduced quantities and fast-scale stability;
* :mod:`regcontact.studies`: configs, study kinds and results (the only layer that knows config strings);
* :mod:`regcontact.figures` and :mod:`regcontact.cli`: the paper figures and the ``regcontact`` command.

Importing the package switches JAX to float64 once: stiffness ratios of 1e8 and beyond are meaningless in
float32. This is the one place that sets it: on JAX if it is already imported, else through ``JAX_ENABLE_X64``,
which JAX reads when it is first imported. It also asks for XLA's sequential CPU schedule
(``--xla_cpu_enable_concurrency_optimized_scheduler=false`` in ``XLA_FLAGS``, read when JAX starts its back ends):
a solve is a long chain of tiny thunks, and JAX's default schedule hands them between the threads of XLA's pool,
which costs more than they do (``docs/performance.md``). Sweeps are the other way round (a wide batch runs faster
on the default schedule), so :func:`regcontact.use_host_cores`, which ``regcontact run`` calls and a sweep in
Python calls first, takes the flag back. A user's ``XLA_FLAGS`` that names that flag is kept, and nothing is set
or taken back once JAX has started. The top-level names (``regcontact.solve``, …) are imported on first
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

#: The XLA flag regcontact adds to ``XLA_FLAGS`` before JAX starts (see the module docstring).
_SEQUENTIAL_SCHEDULE = "--xla_cpu_enable_concurrency_optimized_scheduler=false"


def _ask_for_sequential_schedule() -> bool:
    """Add ``_SEQUENTIAL_SCHEDULE`` to ``XLA_FLAGS`` unless the user's flags name the scheduler or JAX's back
    ends have started (then the schedule is fixed); whether it was added."""
    flags = _os.environ.get("XLA_FLAGS", "")
    bridge = _sys.modules.get("jax._src.xla_bridge")
    if "xla_cpu_enable_concurrency_optimized_scheduler" in flags or (
        bridge is not None and bridge.backends_are_initialized()
    ):
        return False
    _os.environ["XLA_FLAGS"] = f"{flags} {_SEQUENTIAL_SCHEDULE}".strip()
    return True


#: Whether importing the package added ``_SEQUENTIAL_SCHEDULE`` (``False``: the user named the flag, or JAX had
#: started).
_SCHEDULE_SET_ON_IMPORT = _ask_for_sequential_schedule()


def _use_default_schedule() -> None:
    """Take back ``_SEQUENTIAL_SCHEDULE`` if this package added it and JAX has not started: wide batches run
    faster on JAX's default schedule (``regcontact.use_host_cores`` calls this; a user's own flag is kept)."""
    global _SCHEDULE_SET_ON_IMPORT
    bridge = _sys.modules.get("jax._src.xla_bridge")
    if not _SCHEDULE_SET_ON_IMPORT or (bridge is not None and bridge.backends_are_initialized()):
        return
    flags = _os.environ.get("XLA_FLAGS", "").split()
    _os.environ["XLA_FLAGS"] = " ".join(flag for flag in flags if flag != _SEQUENTIAL_SCHEDULE)
    _SCHEDULE_SET_ON_IMPORT = False


def _installed_version() -> str:
    """The installed distribution's version (from the git tags when it was built: ``0.2.0`` at tag ``v0.2.0``),
    read on first use: ``importlib.metadata`` is most of the package's import time, and the command line sets its
    signal handlers right after that import."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("regcontact")
    except PackageNotFoundError:  # a source tree on sys.path that was never installed
        return "0.0+unknown"


if _TYPE_CHECKING:
    from regcontact._api import *  # noqa: F403


def __getattr__(name: str):
    """A top-level name (or ``__all__``), imported with every other one on first use; ``__version__``, read on
    first use."""
    if name == "__version__":
        globals()[name] = value = _installed_version()
        return value
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
