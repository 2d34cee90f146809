"""The README's quick start is what CI runs: the test command in `.ci/run` appears verbatim in the README."""

from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_ci_runs_the_readme_test_command():
    ci_lines = [
        line
        for line in (ROOT / ".ci" / "run").read_text().splitlines()
        if line and not line.startswith(("#", "set ", "cd "))
    ]
    assert len(ci_lines) == 1
    readme = (ROOT / "README.md").read_text()
    assert f"\n{ci_lines[0]}\n" in readme


def test_readme_main_command_runs_the_table1_study():
    readme = (ROOT / "README.md").read_text()
    assert "regcontact run studies/table1.toml" in readme
    assert (ROOT / "studies" / "table1.toml").exists()
