"""JAX's persistent compilation cache in a user cache folder, so that a re-run does not compile again.

Compiling a vmapped stiff solve takes seconds (2–9 s for the Radau sweep on a CPU); JAX can keep compiled
executables on disk, keyed by the program, its shapes, the devices and the JAX version, so an identical re-run
loads them instead. The package never switches this on by itself on import: the ``regcontact`` command does it
for its own process (off with ``--no-compilation-cache``), a Python user calls :func:`use_compilation_cache`.

The folder: ``REGCONTACT_COMPILATION_CACHE`` if set (``off`` switches the cache off), else the platform's user
cache folder: ``$XDG_CACHE_HOME/regcontact/jax`` (default ``~/.cache/regcontact/jax``) on Linux,
``~/Library/Caches/regcontact/jax`` on macOS, ``%LOCALAPPDATA%\\regcontact\\cache\\jax`` on Windows.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import jax
from jax._src import compilation_cache as _jax_compilation_cache

__all__ = ["CACHE_ENVIRONMENT_VARIABLE", "OFF", "cache_folder", "use_compilation_cache"]

#: The environment variable that names the cache folder, or switches the cache off.
CACHE_ENVIRONMENT_VARIABLE = "REGCONTACT_COMPILATION_CACHE"

#: Values of :data:`CACHE_ENVIRONMENT_VARIABLE` that switch the cache off.
OFF = frozenset({"off", "0", "false", "no", "none"})


def _user_cache_root() -> Path:
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local")) / "regcontact" / "cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "regcontact"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "regcontact"


def cache_folder() -> Path | None:
    """Where compiled executables are kept: :data:`CACHE_ENVIRONMENT_VARIABLE`, else the user cache folder;
    ``None`` when the variable switches the cache off."""
    setting = os.environ.get(CACHE_ENVIRONMENT_VARIABLE, "").strip()
    if setting.lower() in OFF and setting:
        return None
    return Path(setting).expanduser() if setting else _user_cache_root() / "jax"


def use_compilation_cache(folder: str | os.PathLike | None = None) -> Path | None:
    """Keep JAX's compiled executables in ``folder`` (default: :func:`cache_folder`) for later runs; return the
    folder, or ``None`` if the environment switches the cache off (then nothing changes).

    Every compilation is kept, however quick (JAX's default keeps only those over 1 s): a study also compiles
    many small functions, and together they cost seconds. Applies to compilations from now on, in this process.
    """
    path = Path(folder).expanduser() if folder is not None else cache_folder()
    if path is None:
        return None
    path.mkdir(parents=True, exist_ok=True)
    jax.config.update("jax_compilation_cache_dir", str(path))
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    # JAX decides once per process whether to use its cache, at the first compilation: let it decide again.
    _jax_compilation_cache.reset_cache()
    return path
