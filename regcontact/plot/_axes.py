"""Axes to draw on: those given, or a new figure's."""

from __future__ import annotations

from typing import Any


def new_axes(count: int, width: float = 5.5, height: float = 4.4) -> Any:
    """``count`` axes side by side on a new figure (a list; one axes alone for ``count == 1``)."""
    import matplotlib.pyplot as plt

    _, grid = plt.subplots(1, count, figsize=(width * count, height), squeeze=False)
    axes = list(grid[0])
    return axes[0] if count == 1 else axes


def missing(view: str, results: Any, expected: str) -> ValueError:
    """The one-line error of a view that cannot be drawn from ``results``."""
    where = f" ({results.folder})" if getattr(results, "folder", None) is not None else ""
    return ValueError(f"plot.{view}: the study {results.name!r}{where} has no {expected}")
