"""Per-test compile accounting, switched on by ``REGCONTACT_TEST_PROFILE=<file.jsonl>``.

Each test's line: its node id, wall seconds, and the seconds (and counts) JAX spent tracing, lowering and compiling
in it, the persistent cache's hits and misses (and the compile seconds the hits saved), and the functions that
compiled longest. ``.ci/compile_report.py`` sums a run's lines by test file and by compiled function.
"""

from __future__ import annotations

import collections
import json
import os
import time

import jax
import pytest

_EVENTS = {
    "/jax/core/compile/jaxpr_trace_duration": "trace",
    "/jax/core/compile/jaxpr_to_mlir_module_duration": "lower",
    "/jax/core/compile/backend_compile_duration": "compile",
    "/jax/compilation_cache/compile_time_saved_sec": "saved",
}


class CompileProfile:
    """Collects JAX's compile events between the start and the end of each test and writes one JSON line a test."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.seconds: collections.Counter[str] = collections.Counter()
        self.counts: collections.Counter[str] = collections.Counter()
        self.functions: collections.Counter[str] = collections.Counter()
        self.cache: collections.Counter[str] = collections.Counter()
        jax.monitoring.register_event_duration_secs_listener(self._listen)
        jax.monitoring.register_event_listener(self._count)

    def _count(self, event: str, **kwargs) -> None:
        if event in ("/jax/compilation_cache/cache_hits", "/jax/compilation_cache/cache_misses"):
            self.cache[event.rsplit("_", 1)[-1]] += 1

    def _listen(self, event: str, duration: float, **kwargs) -> None:
        kind = _EVENTS.get(event)
        if kind is None:
            return
        self.seconds[kind] += duration
        self.counts[kind] += 1
        if kind == "compile":
            self.functions[str(kwargs.get("fun_name", "?"))] += duration

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        self.seconds.clear()
        self.counts.clear()
        self.functions.clear()
        self.cache.clear()
        start = time.perf_counter()
        yield
        line = {
            "test": item.nodeid,
            "worker": os.environ.get("PYTEST_XDIST_WORKER", "main"),
            "seconds": round(time.perf_counter() - start, 3),
            **{f"{kind}_s": round(self.seconds[kind], 3) for kind in _EVENTS.values()},
            **{f"{kind}_n": self.counts[kind] for kind in _EVENTS.values()},
            "cache_hits": self.cache["hits"],
            "cache_misses": self.cache["misses"],
            "top": [[name, round(s, 3)] for name, s in self.functions.most_common(5)],
        }
        with open(self.path, "a") as out:
            out.write(json.dumps(line) + "\n")
