"""regcontact: stiff compliant-contact regularisations of rigid frictional contact.

Importing the package switches JAX to float64 once: stiffness ratios of 1e8 and beyond are meaningless in
float32.
"""

import jax as _jax

_jax.config.update("jax_enable_x64", True)

from regcontact.rod import PainleveRod, slender_inertia  # noqa: E402

__version__ = "0.1.0"

__all__ = ["PainleveRod", "slender_inertia", "__version__"]
