"""The gallery's examples run as the documentation build runs them, and print what their text says.

Each runs in its own process, as ``mkdocs build`` runs it (one host device, the suite's compilation cache switched
on the way ``.mkdocs/figures.py`` does), so the build that follows a test run loads the solves compiled here.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from regcontact.compliant.compilation_cache import CACHE_ENVIRONMENT_VARIABLE

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("plot_*.py"))

RUN_AS_THE_BUILD_DOES = """
import runpy, sys
import matplotlib
matplotlib.use("Agg")
from regcontact.compliant.compilation_cache import use_compilation_cache
use_compilation_cache(sys.argv[2])
runpy.run_path(sys.argv[1], run_name="__main__")
"""

#: A line each example prints when its solves succeed.
PRINTS = {
    "plot_alpha_sweep.py": "all ok: True",
    "plot_first_solve.py": "ok: True status: successful",
    "plot_impact_laws.py": "impacts at t = ",
    "plot_own_body.py": "ok: True ended by: event_occurred",
}


def test_every_example_is_checked():
    assert sorted(path.name for path in EXAMPLES) == sorted(PRINTS)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.stem)
def test_an_example_runs_as_the_documentation_build_runs_it(example, tmp_path):
    environment = {key: value for key, value in os.environ.items() if key not in ("JAX_NUM_CPU_DEVICES", "XLA_FLAGS")}
    done = subprocess.run(
        [sys.executable, "-c", RUN_AS_THE_BUILD_DOES, str(example), environment[CACHE_ENVIRONMENT_VARIABLE]],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**environment, "PYTHONPATH": str(ROOT)},
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert PRINTS[example.name] in done.stdout, done.stdout
