"""JAX's persistent compilation cache: a folder from the environment or the user cache folder, and off."""

import jax
import jax.numpy as jnp
import pytest
from jax._src import compilation_cache as jax_compilation_cache

from regcontact.compliant.compilation_cache import CACHE_ENVIRONMENT_VARIABLE, cache_folder, use_compilation_cache


@pytest.fixture
def restore_cache_config():
    before = jax.config.jax_compilation_cache_dir
    yield
    jax.config.update("jax_compilation_cache_dir", before)
    jax_compilation_cache.reset_cache()


def test_cache_off_from_the_environment(monkeypatch, restore_cache_config):
    monkeypatch.setenv(CACHE_ENVIRONMENT_VARIABLE, "off")
    before = jax.config.jax_compilation_cache_dir
    assert cache_folder() is None
    assert use_compilation_cache() is None
    assert jax.config.jax_compilation_cache_dir == before


def test_default_folder_is_the_user_cache_folder(monkeypatch, tmp_path):
    monkeypatch.delenv(CACHE_ENVIRONMENT_VARIABLE, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr("sys.platform", "linux")
    assert cache_folder() == tmp_path / "regcontact" / "jax"


def test_compiled_code_lands_in_the_folder(monkeypatch, tmp_path, restore_cache_config):
    monkeypatch.setenv(CACHE_ENVIRONMENT_VARIABLE, str(tmp_path / "cache"))
    folder = use_compilation_cache()
    assert folder == tmp_path / "cache"
    jax.jit(lambda x: jnp.sin(x) * 3.0 + 1.25)(jnp.arange(7.0)).block_until_ready()
    assert any(folder.iterdir())
