"""Test strictness for the whole suite, set before any test module is imported.

* float64, as the package sets on import (a test that imports a submodule first must not run in float32);
"""

import jax

jax.config.update("jax_enable_x64", True)
