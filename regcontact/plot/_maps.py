"""The impact map of a sweep over two keys: what each compliant run did (an impulse or not, and how it ended)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from regcontact.plot._axes import missing, new_axes

if TYPE_CHECKING:
    from regcontact.studies import FinishedStudy

__all__ = ["OUTCOMES", "outcome_map"]

#: The outcome classes of a compliant run, by ``(impulsive, end_mode)``, with their label and colour.
OUTCOMES = {
    ("False", "slips"): ("slides on (no impulse)", "#9ecae1"),
    ("False", "sticks"): ("sticks (no impulse)", "#c7e9c0"),
    ("True", "sticks"): ("impact without collision, then sticks", "#e6550d"),
    ("True", "slips"): ("impact without collision, then slides", "#fdae6b"),
    ("False", "lifts_off"): ("lifts off", "#756bb1"),
    ("True", "lifts_off"): ("impulse, then lifts off", "#bcbddc"),
    ("", ""): ("failed", "#000000"),
}


def _outcome(impulsive: Any, end_mode: Any) -> tuple[str, str]:
    """The key of :data:`OUTCOMES` of one row (a failed run has no end mode)."""
    if end_mode is None or (isinstance(end_mode, float) and np.isnan(end_mode)):
        return ("", "")
    return (str(bool(impulsive)), str(end_mode))


def outcome_map(results: FinishedStudy, x: str, y: str, where: Mapping[str, Any] | None = None, ax: Any = None) -> Any:
    """What each run of a sweep over ``x`` and ``y`` did, as a map of :data:`OUTCOMES` (e.g. the Painlevé map
    over ``(mu, phi0)``).

    Args:
        results: a finished sweep (:func:`~regcontact.load_results`) with the columns ``impulsive`` and
            ``end_mode``.
        x: the swept column on the horizontal axis.
        y: the swept column on the vertical axis.
        where: the values of any other swept key (e.g. ``{"alpha": 1e6}``), so that one row is left per cell.
        ax: the matplotlib axes (default: a new figure's).

    Returns:
        The axes.
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    table = results.table
    for key in (x, y, "impulsive", "end_mode", *(where or {})):
        if key not in table.columns:
            raise missing("outcome_map", results, f"column {key!r}")
    for key, value in (where or {}).items():
        table = table[table[key] == value]
    if table.duplicated([x, y]).any():
        raise missing("outcome_map", results, f"one row per ({x}, {y}): give `where` for the other swept keys")
    xs, ys = np.array(sorted(set(table[x].tolist()))), np.array(sorted(set(table[y].tolist())))
    if len(xs) < 2 or len(ys) < 2:
        raise missing("outcome_map", results, f"sweep over both {x!r} and {y!r} (two values each at least)")
    keys = list(OUTCOMES)
    codes = np.full((len(ys), len(xs)), np.nan)
    for xv, yv, impulsive, end_mode in zip(table[x], table[y], table["impulsive"], table["end_mode"]):
        codes[np.searchsorted(ys, yv), np.searchsorted(xs, xv)] = keys.index(_outcome(impulsive, end_mode))
    ax = new_axes(1) if ax is None else ax
    step_x, step_y = np.diff(xs).mean() / 2, np.diff(ys).mean() / 2
    colours = ListedColormap([colour for _, colour in OUTCOMES.values()])
    ax.imshow(
        codes, origin="lower", extent=(xs.min() - step_x, xs.max() + step_x, ys.min() - step_y, ys.max() + step_y),
        aspect="auto", cmap=colours, vmin=-0.5, vmax=len(OUTCOMES) - 0.5, interpolation="nearest",
    )  # fmt: skip
    present = sorted({int(c) for c in codes[np.isfinite(codes)]})
    handles = [plt.Rectangle((0, 0), 1, 1, color=OUTCOMES[keys[c]][1]) for c in present]
    ax.legend(handles, [OUTCOMES[keys[c]][0] for c in present], loc="upper left", fontsize=8)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    return ax
