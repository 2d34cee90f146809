"""``.ci/mark_slow.py`` turns a full run's JUnit XML into slow marks that leave the rest within a budget."""

import ast
import importlib.util
from pathlib import Path

ROOT = Path(__file__).parents[1]


def _script():
    spec = importlib.util.spec_from_file_location("mark_slow", ROOT / ".ci" / "mark_slow.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MODULE_A = '''"""A."""

import numpy as np


def test_fast():
    assert np.ones(1)


@pytest.mark.parametrize("x", [1, 2])
def test_long(x):
    assert x
'''

MODULE_B = '''"""B: a module-scoped fixture, charged to its first test."""

import pytest


@pytest.fixture(scope="module")
def study():
    return 1


def test_first(study):
    assert study


def test_second(study):
    assert study
'''

JUNIT = """<testsuites><testsuite>
<testcase classname="tests.test_a" name="test_fast" time="20"/>
<testcase classname="tests.test_a" name="test_long[1]" time="30"/>
<testcase classname="tests.test_a" name="test_long[2]" time="31"/>
<testcase classname="tests.test_b" name="test_first" time="40"/>
<testcase classname="tests.test_b" name="test_second" time="2"/>
</testsuite></testsuites>"""


def test_the_slowest_are_marked_until_the_rest_fits_and_the_files_still_parse(tmp_path, capsys):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text(MODULE_A)
    (tmp_path / "tests" / "test_b.py").write_text(MODULE_B)
    (tmp_path / "junit.xml").write_text(JUNIT)
    script = _script()
    seconds, order = script.read_junit(tmp_path / "junit.xml", tmp_path)
    assert seconds[("tests/test_a.py", "test_long")] == 61
    whole, functions, left = script.plan(seconds, order, 25.0, tmp_path)
    # test_long (61 s) and test_first (40 s) go; test_b whole: its module fixture would move to test_second
    assert whole == {"tests/test_b.py"} and functions == {("tests/test_a.py", "test_long")} and left == 20
    assert script.main([str(tmp_path / "junit.xml"), "--budget", "25", "--root", str(tmp_path), "--apply"]) == 0
    a, b = ((tmp_path / "tests" / name).read_text() for name in ("test_a.py", "test_b.py"))
    assert "@pytest.mark.slow\n@pytest.mark.parametrize" in a and "import pytest\n" in a
    assert "\npytestmark = pytest.mark.slow\n" in b
    for source in (a, b):
        ast.parse(source)
    # marks already there count: a second run plans nothing new
    seconds, order = script.read_junit(tmp_path / "junit.xml", tmp_path)
    assert script.plan(seconds, order, 25.0, tmp_path)[:2] == (set(), set())
    assert "unmarked after this: 20 s (budget 25 s)" in capsys.readouterr().out
