"""The README is the manual's first page: its quick start is what CI runs, its links resolve, its Python example
runs as printed, and it stays short."""

import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text()


def test_ci_runs_the_readme_test_command():
    ci_lines = [
        line
        for line in (ROOT / ".ci" / "run").read_text().splitlines()
        if line and not line.startswith(("#", "set ", "cd "))
    ]
    assert len(ci_lines) == 1
    assert f"\n{ci_lines[0]}\n" in README


def test_readme_main_command_runs_the_table1_study():
    assert "regcontact run studies/table1.toml" in README
    assert (ROOT / "studies" / "table1.toml").exists()


def test_readme_is_a_manual_not_a_notebook():
    assert len(README.splitlines()) <= 150
    assert not re.search(r"\bissue \d+", README, re.IGNORECASE)


def test_readme_links_resolve():
    targets = re.findall(r"\]\(([^)#]+)\)", README)
    local = [t for t in targets if not t.startswith("http")]
    assert local
    assert [t for t in local if not (ROOT / t).exists()] == []


@pytest.mark.slow
def test_readme_python_example_prints_what_it_says():
    block = re.search(r"```python\n(.*?)```", README, re.DOTALL)
    assert block
    namespace: dict = {"print": lambda *args: None}
    exec(block.group(1), namespace)
    run = namespace["run"]
    printed = re.search(r"# True \[([\d.]+) ([\d.]+)\]", block.group(1))
    assert printed
    assert bool(run.ok)
    np.testing.assert_allclose(np.asarray(run.force_integrals), [float(printed[1]), float(printed[2])], atol=5e-7)
