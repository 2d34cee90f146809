"""The views of one run over time: its contact forces λ(t) and its whole motion q(t), from
:func:`~regcontact.force_history`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from regcontact.plot._axes import new_axes

if TYPE_CHECKING:
    from regcontact.compliant import ForceHistory

__all__ = ["forces", "motion"]


def forces(history: ForceHistory, contacts: Sequence[int] | None = None, ax: Any = None, log: bool = False) -> Any:
    """``λ_n(t)`` and ``λ_t(t)`` of each contact (``λ_t``: each tangential component of a spatial contact).

    Args:
        history: what :func:`~regcontact.force_history` returns.
        contacts: which contacts (0-based; default: all).
        ax: the matplotlib axes (default: a new figure's).
        log: a logarithmic force axis (the growth of the Painlevé instability and an impulsive peak on one
            picture; non-positive forces are left out there).

    Returns:
        The axes.
    """
    ax = new_axes(1) if ax is None else ax
    t, lam = np.asarray(history.ts), np.asarray(history.forces)
    k, width = lam.shape[1], lam.shape[2]
    for j in range(k) if contacts is None else contacts:
        suffix = f",{j + 1}" if k > 1 else ""
        for c in range(width):
            name = "n" if c == 0 else ("t" if width == 2 else f"t{c}")
            ax.plot(t, lam[:, j, c], label=rf"$\lambda_{{{name}{suffix}}}$")
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("t")
    ax.set_ylabel("contact force")
    ax.legend(fontsize=8)
    return ax


def motion(history: ForceHistory, names: Sequence[str] | None = None, axes: Any = None) -> Any:
    """The whole motion: each coordinate ``q_i(t)`` and velocity ``v_i(t)`` of the run (times after an event that
    ended it are left out).

    Args:
        history: what :func:`~regcontact.force_history` returns (its ``states``).
        names: a name for each coordinate (default ``q1, q2, …``), e.g. ``("x", "y", "φ")`` for a rod.
        axes: two matplotlib axes, for ``q`` and ``v`` (default: a new figure's).

    Returns:
        The two axes.
    """
    axes = new_axes(2) if axes is None else axes
    t, q, v = np.asarray(history.ts), np.asarray(history.states.q), np.asarray(history.states.v)
    names = names or [f"q{i + 1}" for i in range(q.shape[1])]
    for ax, values, what in ((axes[0], q, "{}"), (axes[1], v, r"\dot{{{}}}")):
        for i, name in enumerate(names):
            ax.plot(t, values[:, i], label=f"${what.format(name)}$")
        ax.set_xlabel("t")
        ax.legend(fontsize=8)
    axes[0].set_title("coordinates")
    axes[1].set_title("velocities")
    return axes
