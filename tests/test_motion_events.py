"""Impulses read off a run's interval impulses: one impulse however the forces and the step are scaled, a layer
over several intervals is one impulse, an impulse applied at an instant is read exactly, and the comparison
with a reference at the run's resolution."""

import numpy as np
import pytest

from regcontact.motion_events import IMPULSE_FACTOR, Impulse, impulse_events, impulses_agree, smooth_force_level


def _run(force: float, step: float, kicks: dict[int, float], count: int = 200):
    """A contact carrying ``force`` over ``count`` steps, with extra normal impulses at some steps."""
    starts = np.arange(count) * step
    spans = np.full(count, step)
    impulses = np.zeros((count, 1, 2))
    impulses[:, 0, 0] = force * step
    for index, size in kicks.items():
        impulses[index, 0, 0] += size
    return starts, spans, impulses


@pytest.mark.parametrize("force_unit", [1e-9, 1.0, 1e9])
@pytest.mark.parametrize("step", [1e-2, 1e-4])
def test_an_impulse_is_found_at_any_scale(force_unit, step):
    starts, spans, impulses = _run(2.0 * force_unit, step, {120: 0.5 * force_unit})
    level = smooth_force_level(spans, impulses, floor=0.0)
    assert level == pytest.approx(2.0 * force_unit)
    (found,) = impulse_events(starts, spans, impulses, level)
    assert found.contact == 0 and found.time == pytest.approx(120.5 * step)
    assert found.size[0] == pytest.approx((0.5 + 2.0 * step) * force_unit)


def test_a_force_below_the_factor_is_no_impulse_and_a_layer_is_one():
    starts, spans, impulses = _run(1.0, 1e-3, {50: 0.5 * IMPULSE_FACTOR * 1e-3, 100: 0.3, 101: 0.4, 102: 0.2})
    (found,) = impulse_events(starts, spans, impulses, smooth_force_level(spans, impulses, floor=0.0))
    assert found.size[0] == pytest.approx(0.9 + 3e-3)
    assert 100e-3 < found.time < 103e-3


def test_an_impulse_at_an_instant_is_read_exactly():
    starts, spans = np.array([0.0, 0.3, 0.3]), np.array([0.3, 0.0, 0.2])
    impulses = np.zeros((3, 1, 2))
    impulses[1, 0] = (3.5, 5.8)
    (found,) = impulse_events(starts, spans, impulses, force_level=1.0)
    assert found == Impulse(0.3, 0, (3.5, 5.8))


def test_agreement_at_the_runs_resolution():
    reference = (Impulse(0.1, 0, (0.05, 0.0)), Impulse(0.5, 0, (3.5, 5.8)))
    big = Impulse(0.501, 0, (3.6, 5.9))
    # A coarse run cannot see the small impulse: it is not asked of it.
    assert impulses_agree((big,), reference, resolution=0.1, tolerance=0.1, window=0.05) is None
    # A fine run must show it.
    assert "where the reference has" in impulses_agree((big,), reference, 1e-3, 0.1, 0.05)
    # Skipping the big one, or a different size, does not agree.
    assert impulses_agree((), reference, 0.1, 0.1, 0.05) is not None
    assert impulses_agree((Impulse(0.5, 0, (0.8, 1.3)),), reference, 0.1, 0.1, 0.05) is not None
