"""How long JAX spent compiling while some work ran (:class:`CompileClock`).

The work around a sweep's solve (its rigid references, compliant limits, rows) runs small jitted and eager JAX
programs. In a fresh process each is traced, lowered and compiled (or read from the compilation cache) on its
first call, which is compile time, not the work's own. JAX announces each of those steps as an event with a
time span (``jax.monitoring``: tracing, lowering to MLIR, the back end's compile or cache read); the clock keeps
the spans announced while it is active and counts their union, so a program traced inside another's trace is
counted once.
"""

from __future__ import annotations

import threading
from types import TracebackType

import jax.monitoring

__all__ = ["CompileClock"]

#: JAX's events whose spans are compile time (``jax._src.dispatch``'s names).
COMPILE_EVENTS = frozenset(
    {
        "/jax/core/compile/jaxpr_trace_duration",
        "/jax/core/compile/jaxpr_to_mlir_module_duration",
        "/jax/core/compile/backend_compile_duration",
    }
)


class CompileClock:
    """A context manager: ``seconds`` is the time JAX spent compiling in this thread while it was active.

    Examples:
        >>> import jax.numpy as jnp
        >>> with CompileClock() as clock:
        ...     _ = jnp.sin(jnp.arange(3.0)) + 1
        >>> clock.seconds >= 0
        True
    """

    def __init__(self) -> None:
        self._spans: list[tuple[float, float]] = []
        self._thread = threading.get_ident()

    def _listen(self, event: str, start_time: float, end_time: float, **kwargs: str | int) -> None:
        if event in COMPILE_EVENTS and threading.get_ident() == self._thread:
            self._spans.append((start_time, end_time))

    def __enter__(self) -> CompileClock:
        self._thread = threading.get_ident()
        jax.monitoring.register_event_time_span_listener(self._listen)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        jax.monitoring.unregister_event_time_span_listener(self._listen)

    @property
    def seconds(self) -> float:
        """The union of the compile spans seen, in seconds."""
        total, reach = 0.0, float("-inf")
        for start, end in sorted(self._spans):
            if end > reach:
                total += end - max(start, reach)
                reach = end
        return total
