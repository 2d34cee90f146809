"""Which tests to mark ``slow`` so that ``pytest -m "not slow"`` fits a time budget, from a full run's JUnit XML.

    python -m pytest -q --junitxml=junit.xml          # a full run (CI's command, plus the report)
    python .ci/mark_slow.py junit.xml --budget 150    # the plan: what to mark, and the time left
    python .ci/mark_slow.py junit.xml --budget 150 --apply && ruff check --fix tests && ruff format tests

``--budget`` is in the JUnit file's own seconds: on a machine slower than the one the quick subset is for (a loaded
one), scale it by how much slower (``--budget 150 --slower 3``). The test functions (their parametrised cases
summed) are marked slowest first until the rest fits. A module is marked whole (``pytestmark = pytest.mark.slow``)
when every function of it would be, or when it has a module-scoped fixture and its first test is marked (that
fixture's time would move to the next test); otherwise each function gets ``@pytest.mark.slow``, and its fast
neighbours stay in the quick subset.
Tests already marked are counted as marked. ``--apply`` edits the test files; it adds ``import pytest`` where a
module lacks it (``ruff check --fix`` then sorts the imports).
"""

from __future__ import annotations

import argparse
import ast
import collections
import re
import xml.etree.ElementTree as ET
from pathlib import Path

MARK = "pytest.mark.slow"


def read_junit(path: Path, root: Path) -> tuple[dict[tuple[str, str], float], list[tuple[str, str]]]:
    """Seconds per test function ``(file, function)`` (parametrised cases summed) and the functions in run order."""
    seconds: dict[tuple[str, str], float] = collections.defaultdict(float)
    order: list[tuple[str, str]] = []
    for case in ET.parse(path).iter("testcase"):
        parts = case.get("classname", "").split(".")
        modules = [i for i, part in enumerate(parts) if part.startswith("test_")]
        if not modules:
            continue
        file = "/".join(parts[: modules[-1] + 1]) + ".py"
        if not (root / file).exists():
            continue
        key = (file, case.get("name", "").split("[")[0])
        if key not in seconds:
            order.append(key)
        seconds[key] += float(case.get("time") or 0.0)
    return dict(seconds), order


def marked_already(root: Path, key: tuple[str, str]) -> bool:
    source = (root / key[0]).read_text()
    if re.search(rf"^pytestmark = {re.escape(MARK)}$", source, flags=re.M):
        return True
    return any(
        isinstance(node, ast.FunctionDef)
        and node.name == key[1]
        and any(ast.unparse(decorator) == MARK for decorator in node.decorator_list)
        for node in ast.walk(ast.parse(source))
    )


def plan(
    seconds: dict[tuple[str, str], float], order: list[tuple[str, str]], budget: float, root: Path
) -> tuple[set[str], set[tuple[str, str]], float]:
    """Modules to mark whole, functions to mark one by one (both new marks only), and the seconds left unmarked."""
    already = {key for key in seconds if marked_already(root, key)}
    marked = set(already)
    left = sum(t for key, t in seconds.items() if key not in marked)
    for key in sorted(seconds, key=seconds.__getitem__, reverse=True):
        if left <= budget:
            break
        if key not in marked:
            marked.add(key)
            left -= seconds[key]
    by_module: dict[str, list[tuple[str, str]]] = collections.defaultdict(list)
    for key in order:
        by_module[key[0]].append(key)
    whole = set()
    for file, keys in by_module.items():
        if not any(key in marked - already for key in keys):
            continue
        module_fixture = 'scope="module"' in (root / file).read_text()
        if all(key in marked for key in keys) or (module_fixture and keys[0] in marked):
            whole.add(file)
    left = sum(t for key, t in seconds.items() if key not in marked and key[0] not in whole)
    return whole, {key for key in marked - already if key[0] not in whole}, left


def _with_pytest_imported(source: str) -> str:
    if re.search(r"^import pytest$", source, flags=re.M):
        return source
    tree = ast.parse(source)
    imports = [node for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)]
    lines = source.splitlines(keepends=True)
    at = imports[0].lineno - 1 if imports else 0
    return "".join(lines[:at] + ["import pytest\n"] + lines[at:])


def mark_module(path: Path) -> None:
    source = _with_pytest_imported(path.read_text())
    tree = ast.parse(source)
    imports = [node for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)]
    lines = source.splitlines(keepends=True)
    at = max(node.end_lineno or node.lineno for node in imports)
    path.write_text("".join(lines[:at] + ["\n", f"pytestmark = {MARK}\n"] + lines[at:]))


def mark_function(path: Path, name: str) -> None:
    source = _with_pytest_imported(path.read_text())
    node = next(node for node in ast.parse(source).body if isinstance(node, ast.FunctionDef) and node.name == name)
    first = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)]) - 1
    lines = source.splitlines(keepends=True)
    path.write_text("".join(lines[:first] + [f"@{MARK}\n"] + lines[first:]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("junit", type=Path, help="JUnit XML of a full run (pytest --junitxml)")
    parser.add_argument("--budget", type=float, default=150.0, help="seconds the unmarked tests may take")
    parser.add_argument("--slower", type=float, default=1.0, help="how much slower the JUnit's machine ran")
    parser.add_argument("--root", type=Path, default=Path("."), help="the repository root (default: here)")
    parser.add_argument("--apply", action="store_true", help="edit the test files")
    args = parser.parse_args(argv)
    seconds, order = read_junit(args.junit, args.root)
    budget = args.budget * args.slower
    whole, functions, left = plan(seconds, order, budget, args.root)
    print(
        f"{len(seconds)} test functions, {sum(seconds.values()):.0f} s; unmarked after this: {left:.0f} s "
        f"(budget {budget:.0f} s)"
    )
    for file in sorted(whole):
        print(f"module   {file} ({sum(t for (f, _), t in seconds.items() if f == file):.1f} s)")
    for file, name in sorted(functions, key=seconds.__getitem__, reverse=True):
        print(f"function {file}::{name} ({seconds[file, name]:.1f} s)")
    if args.apply:
        for file in sorted(whole):
            mark_module(args.root / file)
        for file, name in sorted(functions):
            mark_function(args.root / file, name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
