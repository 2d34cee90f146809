"""Each test file's seconds in a run, from its JUnit XML, into ``tests/file_durations.json``.

    python -m pytest -q -n 2 --dist loadfile --junitxml=junit.xml
    python .ci/file_durations.py junit.xml

Under ``pytest-xdist`` the suite hands out its files longest first (``tests/conftest.py``), so that no long file
is left for the end while the other worker idles. The file only orders the work: a stale or missing entry
costs balance, never a test.
"""

from __future__ import annotations

import argparse
import collections
import json
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).parents[1]
OUT = ROOT / "tests" / "file_durations.json"


def file_seconds(junit: Path) -> dict[str, float]:
    """Seconds per test file (``tests/…/test_x.py``), setup and teardown included."""
    seconds: dict[str, float] = collections.defaultdict(float)
    for case in ET.parse(junit).iter("testcase"):
        parts = case.get("classname", "").split(".")
        modules = [i for i, part in enumerate(parts) if part.startswith("test_")]
        if modules:
            seconds["/".join(parts[: modules[-1] + 1]) + ".py"] += float(case.get("time") or 0.0)
    return {name: round(value, 1) for name, value in sorted(seconds.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("junit", type=Path)
    arguments = parser.parse_args()
    OUT.write_text(json.dumps(file_seconds(arguments.junit), indent=1) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
