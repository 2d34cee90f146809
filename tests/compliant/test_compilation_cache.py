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


@pytest.mark.slow
def test_a_rerun_reads_the_traced_sweep_back(monkeypatch, tmp_path, restore_cache_config):
    """With a compilation cache the traced sweep is kept beside it; a later sweep of the same computation (here:
    after forgetting every compiled sweep, as a new process does) reads it back without tracing, with the same
    results. Another computation (other events) is kept apart."""
    import numpy as np

    from regcontact import _exported_programs
    from regcontact.compliant import SolveSettings, _sweep
    from regcontact.compliant.alpha_sweep import alpha_sweep
    from regcontact.contact import ContactModel
    from regcontact.systems.rod import PainleveRod

    monkeypatch.setenv(CACHE_ENVIRONMENT_VARIABLE, str(tmp_path / "cache"))
    folder = use_compilation_cache() / _exported_programs.FOLDER_NAME

    def run(settings):
        return alpha_sweep(PainleveRod(), ContactModel(), [1e3, 1e5], t_max=0.05, settings=settings)[0]

    settings = SolveSettings(events=("contact_open",))
    monkeypatch.setattr(_sweep, "_COMPILED", {})
    first = run(settings)
    kept = sorted(folder.iterdir())
    assert len(kept) == 1

    def no_tracing(*args, **kwargs):
        raise AssertionError("traced again")

    export = jax.export.export
    monkeypatch.setattr(_sweep, "_COMPILED", {})
    monkeypatch.setattr(jax.export, "export", no_tracing)
    again = run(settings)
    np.testing.assert_array_equal(np.asarray(again.force_integrals), np.asarray(first.force_integrals))
    np.testing.assert_array_equal(np.asarray(again.num_steps), np.asarray(first.num_steps))
    assert sorted(folder.iterdir()) == kept

    monkeypatch.setattr(jax.export, "export", export)
    monkeypatch.setattr(_sweep, "_COMPILED", {})
    run(SolveSettings(events=()))
    assert len(list(folder.iterdir())) == 2


def test_a_kept_sweep_is_keyed_by_the_source_of_every_class_in_it():
    """The key of a kept sweep includes the source of each module outside the package that defines a class of the
    batch (an edited user body is traced again); a class with no readable source makes the sweep unkeepable."""
    import equinox as eqx

    from regcontact import _exported_programs
    from regcontact.contact import ContactModel
    from regcontact.systems.rod import PainleveRod

    class UserLaw(eqx.Module):
        stiffness: float = 1.0

    assert _exported_programs._outside_sources((PainleveRod(), ContactModel())) == []
    sources = _exported_programs._outside_sources((PainleveRod(), [UserLaw()]))
    assert sources is not None and len(sources) == 1 and "class UserLaw(eqx.Module)" in sources[0]

    Typed = type("Typed", (eqx.Module,), {"__module__": "a_session_without_a_file"})
    assert _exported_programs._outside_sources({"law": Typed()}) is None


@pytest.mark.slow
def test_a_rerun_in_a_new_process_never_imports_diffrax(tmp_path):
    """A process that finds its sweep kept runs it without tracing, so it never imports diffrax (0.2 s of a
    re-run's start-up); the first process traces it and does."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from regcontact.compliant.compilation_cache import use_compilation_cache\n"
        f"use_compilation_cache({str(tmp_path / 'cache')!r})\n"
        "from regcontact.compliant.alpha_sweep import alpha_sweep\n"
        "from regcontact.contact import ContactModel\n"
        "from regcontact.systems.rod import PainleveRod\n"
        "runs = alpha_sweep(PainleveRod(), ContactModel(), [1e3, 1e5], t_max=0.05)[0]\n"
        "print(bool(runs.ok.all()), 'diffrax' in sys.modules)\n"
    )

    def run() -> str:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        return done.stdout.strip()

    assert run() == "True True"
    assert run() == "True False"
