"""Test strictness for the whole suite, set before any test module is imported.

* float64, as the package sets on import (a test that imports a submodule first must not run in float32);
* no implicit rank promotion: ``(8,) + (3, 8)`` raises instead of broadcasting, so a shape mistake in a vector
  field or a solver fails loudly (the package's own broadcasts are written out with ``[None]`` or
  ``jnp.broadcast_to``).
"""

import jax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_numpy_rank_promotion", "raise")
