"""``regcontact run``'s device, host-core and compilation-cache setup, done before JAX starts."""

import subprocess
import sys

import jax
import pytest
from jax._src import compilation_cache as jax_compilation_cache

from regcontact import cli
from regcontact.compliant.compilation_cache import CACHE_ENVIRONMENT_VARIABLE
from regcontact.studies.config import ConfigError


def _args(*options):
    return cli._parser().parse_args(["run", "studies/table1.toml", *options])


@pytest.mark.slow
def test_importing_the_package_does_not_start_jax():
    """Else the host device count could no longer be set after ``import regcontact``."""
    code = (
        "import regcontact, regcontact.cli, regcontact.studies.compliant_study\n"
        "from regcontact.compliant.devices import backends_started\n"
        "print(backends_started())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_no_compilation_cache_flag_keeps_the_cache_off(monkeypatch, tmp_path):
    monkeypatch.setenv(CACHE_ENVIRONMENT_VARIABLE, str(tmp_path / "cache"))
    before = jax.config.jax_compilation_cache_dir
    cli._start_jax(_args("--no-compilation-cache"))
    assert jax.config.jax_compilation_cache_dir == before
    assert not (tmp_path / "cache").exists()


def test_cache_on_by_default(monkeypatch, tmp_path):
    monkeypatch.setenv(CACHE_ENVIRONMENT_VARIABLE, str(tmp_path / "cache"))
    before = jax.config.jax_compilation_cache_dir
    try:
        cli._start_jax(_args())
        assert jax.config.jax_compilation_cache_dir == str(tmp_path / "cache")
    finally:
        jax.config.update("jax_compilation_cache_dir", before)
        jax_compilation_cache.reset_cache()


@pytest.mark.skipif(jax.default_backend() == "gpu", reason="asks for a GPU where there is none: this machine has one")
def test_device_gpu_without_one_is_a_config_error():
    with pytest.raises(ConfigError, match="--device = 'gpu': expected a device that JAX finds here"):
        cli._start_jax(_args("--device", "gpu", "--no-compilation-cache"))


def test_unknown_device_is_refused_by_the_parser(capsys):
    with pytest.raises(SystemExit):
        _args("--device", "tpu")
    assert "invalid choice: 'tpu'" in capsys.readouterr().err
