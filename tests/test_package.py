"""The package's promises on import: float64 on, and every public name resolvable."""

import jax.numpy as jnp

import regcontact


def test_importing_the_package_switches_on_float64():
    assert jnp.asarray(1.0).dtype == jnp.float64


def test_every_public_name_exists():
    assert [name for name in regcontact.__all__ if not hasattr(regcontact, name)] == []
