"""Test strictness for the whole suite, set before any test module is imported.

* float64, as the package sets on import (a test that imports a submodule first must not run in float32);
* no implicit rank promotion: ``(8,) + (3, 8)`` raises instead of broadcasting, so a shape mistake in a vector
  field or a solver fails loudly (the package's own broadcasts are written out with ``[None]`` or
  ``jnp.broadcast_to``).
* two host devices, so that every sweep on CPU runs sharded, the way ``regcontact run`` runs it
  (``tests/compliant/test_sharding.py`` compares with one device);
* no persistent compilation cache: a test that calls the command line in-process must not fill the user's cache
  folder (``tests/compliant/test_compilation_cache.py`` switches it on in a temporary folder);
* compiled code is freed after a test module that leaves the process above 4 GiB: JAX's caches and the package's
  compiled sweeps otherwise keep every executable of the session, and the suite's process grows past the memory
  of a 24 GiB machine.
"""

import os

import jax
import pytest

from regcontact.compliant.devices import use_host_cores

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_numpy_rank_promotion", "raise")
os.environ.setdefault("REGCONTACT_COMPILATION_CACHE", "off")
use_host_cores(2)


#: Resident memory above which compiled code is freed at the end of a test module.
FREE_ABOVE_BYTES = 4 * 2**30


def _resident_bytes() -> int:
    """This process's resident memory (Linux's ``/proc``; elsewhere unknown, counted as above the limit)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return FREE_ABOVE_BYTES + 1


@pytest.fixture(autouse=True, scope="module")
def _free_compiled_code():
    """Drop every compiled executable when a test module ends with the process above
    :data:`FREE_ABOVE_BYTES` (later modules compile what they need again; below it they reuse it)."""
    yield
    if _resident_bytes() > FREE_ABOVE_BYTES:
        from regcontact.compliant import _sweep

        _sweep._COMPILED.clear()
        jax.clear_caches()
