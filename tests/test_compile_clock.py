"""The compile clock counts JAX's compile time once, in its own thread, and only while it runs."""

import threading
import time

import jax
import jax.numpy as jnp
import pytest

from regcontact._compile_clock import COMPILE_EVENTS, CompileClock


def test_a_first_call_is_compile_and_a_second_is_not():
    def program(x):
        return jnp.cos(x) * 3.0 + jnp.sum(x)

    jitted = jax.jit(program)
    x = jnp.linspace(0.0, 1.0, 7)
    with CompileClock() as first:
        started = time.perf_counter()
        jitted(x).block_until_ready()
        elapsed = time.perf_counter() - started
    with CompileClock() as second:
        jitted(x).block_until_ready()
    assert 0.0 < first.seconds <= elapsed
    assert second.seconds == 0.0


def test_nested_spans_count_once():
    clock = CompileClock()
    event = next(iter(COMPILE_EVENTS))
    with clock:
        # a program traced inside another's trace: the inner span lies within the outer one
        jax.monitoring.record_event_time_span(event, 10.0, 14.0)
        jax.monitoring.record_event_time_span(event, 11.0, 12.0)
        jax.monitoring.record_event_time_span(event, 13.0, 15.0)  # overlaps the end of the first
        jax.monitoring.record_event_time_span(event, 20.0, 21.0)
        jax.monitoring.record_event_time_span("/jax/some/other_event", 30.0, 40.0)
    assert clock.seconds == pytest.approx(6.0)


def test_other_threads_and_after_exit_are_not_counted():
    event = next(iter(COMPILE_EVENTS))
    with CompileClock() as clock:
        other = threading.Thread(target=jax.monitoring.record_event_time_span, args=(event, 0.0, 5.0))
        other.start()
        other.join()
    jax.monitoring.record_event_time_span(event, 0.0, 5.0)
    assert clock.seconds == 0.0
