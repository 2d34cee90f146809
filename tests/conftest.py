"""Test strictness for the whole suite, set before any test module is imported.

* float64, as the package sets on import (a test that imports a submodule first must not run in float32);
* no implicit rank promotion: ``(8,) + (3, 8)`` raises instead of broadcasting, so a shape mistake in a vector
  field or a solver fails loudly (the package's own broadcasts are written out with ``[None]`` or
  ``jnp.broadcast_to``).
* two host devices, so that every sweep on CPU runs sharded, the way ``regcontact run`` runs it
  (``tests/compliant/test_sharding.py`` compares with one device);
* one persistent compilation cache, ``.cache/jax`` in the repository (created by the first run; another folder
  with ``REGCONTACT_TEST_COMPILATION_CACHE``): a program compiled once is loaded, not compiled again, by a later
  module (after compiled code was freed), by the other ``pytest-xdist`` worker, by the command-line processes the
  tests start (they inherit the folder through ``REGCONTACT_COMPILATION_CACHE``) and by the documentation build's
  gallery (``.mkdocs/figures.py``); never the user's cache folder. JAX's keys hash the program, its shapes and the
  versions, and a kept sweep's key the package's source, so nothing stale is loaded; ``rm -r .cache`` for a cold
  run. ``tests/compliant/test_compilation_cache.py`` switches the cache to temporary folders of its own;
* compiled code is freed after a test module that leaves the process above 4 GiB: JAX's caches and the package's
  compiled sweeps otherwise keep every executable of the session, and the suite's process grows past the memory
  of a 24 GiB machine;
* under ``pytest-xdist`` (``-n 2 --dist loadfile``, the README's test command), the test files are handed out
  longest first, by ``tests/file_durations.json`` (``.ci/file_durations.py`` writes it from a run's JUnit XML):
  a long file left for the end would keep one worker busy while the other idles;
* Ctrl-C is not ignored: a suite started in the background of a non-interactive shell (``pytest … &``) inherits
  SIGINT ignored, and so would every ``regcontact run`` the tests start and interrupt (an ignored signal stays
  ignored across ``exec``); the tests of the command's answer to Ctrl-C need the default.
"""

import collections
import json
import os
import signal
import threading
from pathlib import Path

import jax
import pytest

from regcontact.compliant.compilation_cache import CACHE_ENVIRONMENT_VARIABLE, use_compilation_cache
from regcontact.compliant.devices import use_host_cores

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_numpy_rank_promotion", "raise")
use_host_cores(2)
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN and threading.current_thread() is threading.main_thread():
    signal.signal(signal.SIGINT, signal.default_int_handler)

#: The run's compilation cache: ``.cache/jax`` in the repository, or ``REGCONTACT_TEST_COMPILATION_CACHE``.
SUITE_CACHE = os.environ.get("REGCONTACT_TEST_COMPILATION_CACHE") or os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), ".cache", "jax"
)
os.environ[CACHE_ENVIRONMENT_VARIABLE] = SUITE_CACHE
use_compilation_cache(SUITE_CACHE)


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


#: Each test file's seconds in a measured run; a file not in it counts a fifth of a second a test.
FILE_DURATIONS = Path(__file__).with_name("file_durations.json")


def pytest_configure(config):
    """``REGCONTACT_TEST_PROFILE=<file.jsonl>``: one line a test with its trace, lowering and compile seconds.
    With ``--dist loadfile`` the scheduler keeps the collection's order (:func:`pytest_collection_modifyitems`)
    instead of handing out the files with the most tests first."""
    if getattr(config.option, "dist", "no") == "loadfile":
        config.option.loadscopereorder = False
    path = os.environ.get("REGCONTACT_TEST_PROFILE")
    if path:
        from tests._compile_profile import CompileProfile

        config.pluginmanager.register(CompileProfile(path), "regcontact-compile-profile")


def pytest_collection_modifyitems(config, items):
    """In a ``pytest-xdist`` worker: the files longest first (a stable sort, so each file's tests keep their
    order). Every worker sorts the same collection the same way, as the scheduler requires."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    seconds = json.loads(FILE_DURATIONS.read_text()) if FILE_DURATIONS.exists() else {}
    files = [item.nodeid.split("::")[0] for item in items]
    counts = collections.Counter(files)
    cost = {file: seconds.get(file, 0.2 * count) for file, count in counts.items()}
    order = sorted(range(len(items)), key=lambda i: -cost[files[i]])
    items[:] = [items[i] for i in order]
