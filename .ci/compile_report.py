"""Where a test run's time goes, from the lines ``REGCONTACT_TEST_PROFILE=<file.jsonl>`` writes (one a test).

    REGCONTACT_TEST_PROFILE=profile.jsonl python -m pytest -q -n 2 --dist loadfile
    python .ci/compile_report.py profile.jsonl [--top 25]

Prints the run's seconds in tests and how many of them JAX spent tracing, lowering and compiling; the
persistent cache's hits and misses; the test files and the compiled functions that took longest.
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path


def report(path: Path, top: int) -> str:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    total = sum(row["seconds"] for row in rows)
    kinds = {kind: sum(row[f"{kind}_s"] for row in rows) for kind in ("trace", "lower", "compile")}
    counts = {kind: sum(row[f"{kind}_n"] for row in rows) for kind in ("trace", "lower", "compile")}
    hits, misses = (sum(row.get(key, 0) for row in rows) for key in ("cache_hits", "cache_misses"))
    lines = [f"{len(rows)} tests, {total:.0f} s in tests (summed over workers)"]
    for kind, seconds in kinds.items():
        lines.append(f"  {kind:8s} {seconds:7.0f} s ({seconds / total:5.1%}), {counts[kind]} times")
    rest = total - sum(kinds.values())
    lines.append(f"  {'the rest':8s} {rest:7.0f} s ({rest / total:5.1%}): running, Python, SciPy, subprocesses")
    saved = sum(row.get("saved_s", 0.0) for row in rows)
    lines.append(f"persistent cache: {hits} hits, {misses} misses; the hits saved {saved:.0f} s of compiling")
    files: collections.Counter[str] = collections.Counter()
    compiled: collections.Counter[str] = collections.Counter()
    for row in rows:
        files[row["test"].split("::")[0]] += row["seconds"]
        compiled[row["test"].split("::")[0]] += row["compile_s"] + row["trace_s"] + row["lower_s"]
    lines.append(f"\nthe {top} longest test files (seconds; of which tracing, lowering and compiling):")
    lines += [f"  {seconds:7.1f}  {compiled[name]:7.1f}  {name}" for name, seconds in files.most_common(top)]
    functions: collections.Counter[str] = collections.Counter()
    times: collections.Counter[str] = collections.Counter()
    for row in rows:
        for name, seconds in row["top"]:
            functions[name] += seconds
            times[name] += 1
    lines.append(f"\nthe {top} compiled functions that took longest (seconds, tests compiling them):")
    lines += [f"  {seconds:7.1f}  {times[name]:5d}  {name}" for name, seconds in functions.most_common(top)]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", type=Path)
    parser.add_argument("--top", type=int, default=25)
    arguments = parser.parse_args()
    print(report(arguments.profile, arguments.top))


if __name__ == "__main__":
    main()
