"""Test strictness for the whole suite, set before any test module is imported.

* float64, as the package sets on import (a test that imports a submodule first must not run in float32);
* no implicit rank promotion: ``(8,) + (3, 8)`` raises instead of broadcasting, so a shape mistake in a vector
  field or a solver fails loudly (the package's own broadcasts are written out with ``[None]`` or
  ``jnp.broadcast_to``).
* two host devices, so that every sweep on CPU runs sharded, the way ``regcontact run`` runs it
  (``tests/compliant/test_sharding.py`` compares with one device);
* no persistent compilation cache: a test that calls the command line in-process must not fill the user's cache
  folder (``tests/compliant/test_compilation_cache.py`` switches it on in a temporary folder).
"""

import os

import jax

from regcontact.compliant.devices import use_host_cores

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_numpy_rank_promotion", "raise")
os.environ.setdefault("REGCONTACT_COMPILATION_CACHE", "off")
use_host_cores(2)
