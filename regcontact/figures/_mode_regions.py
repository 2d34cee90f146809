"""Fig. 9 of Champneys & Várkonyi (2016): consistency regions of the contact modes in the (a, b) plane.

``A = 1.1, B = 0.3, C = 0.1`` at three friction coefficients: ``μ = 0.2`` (``k⁺ < 0``: stick confined to one
quadrant), ``μ = 0.3`` (all of ``p±, k±`` positive) and ``μ = 0.5`` (``p⁺ < 0``: stick and slip reach into
``b > 0``, with indeterminacy and inconsistency), for slip ``u > 0`` (top) and rest ``u = 0`` (bottom), under the
rigid-body conditions of Table 1 (Table 2). Every condition is homogeneous in ``(a, b)``, so the regions are
wedges from the origin: the modes are evaluated on a fine fan of directions and each run of directions with the
same modes is drawn as a wedge. The CSV lists those wedges.
"""

from __future__ import annotations

import csv
from pathlib import Path

import jax
import jax.numpy as jnp
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.patches import Patch, Polygon  # noqa: E402

from regcontact.figures import figure  # noqa: E402
from regcontact.stability import MODE_NAMES, painleve_parameters, rigid_consistent_modes  # noqa: E402

__all__ = ["draw", "mode_wedges"]

A, B, C = 1.1, 0.3, 0.1
FRICTION_COEFFICIENTS = (0.2, 0.3, 0.5)
SLIP_SIGNS = (1.0, 0.0)
DIRECTIONS = 36_000
STYLE = {  # mode: (colour, hatch)
    "F": ("tab:blue", "\\\\"),
    "T": ("tab:green", "||"),
    "S+": ("tab:red", "//"),
    "S-": ("tab:orange", "--"),
}
INDETERMINATE, INCONSISTENT = "tab:purple", "0.35"


def mode_wedges(mu: float, slip_sign: float, directions: int = DIRECTIONS) -> list[tuple[float, float, frozenset]]:
    """Runs ``(θ_start, θ_end, modes)`` of directions ``(a, b) = (cos θ, sin θ)`` with the same consistent modes."""
    theta = np.linspace(-np.pi, np.pi, directions, endpoint=False) + np.pi / directions
    flags = np.asarray(
        jax.jit(rigid_consistent_modes)(jnp.cos(theta), jnp.sin(theta), A, B, C, mu, slip_sign).stacked()
    )
    codes = flags.T @ (1 << np.arange(len(MODE_NAMES)))
    starts = np.flatnonzero(codes != np.roll(codes, 1))  # first direction of each run, cyclically
    if starts.size == 0:
        starts = np.array([0])
    step = 2 * np.pi / directions
    wedges = []
    for first, following in zip(starts, np.roll(starts, -1)):
        count = (following - first) % directions or directions
        modes = frozenset(name for bit, name in enumerate(MODE_NAMES) if codes[first] >> bit & 1)
        start = theta[first] - step / 2
        wedges.append((start, start + count * step, modes))
    return wedges


def _label(modes: frozenset) -> str:
    return ", ".join(name for name in MODE_NAMES if name in modes) or "none"


def _draw_panel(axis: plt.Axes, wedges: list[tuple[float, float, frozenset]], radius: float = 3.0) -> None:
    for start, end, modes in wedges:
        arc = np.linspace(start, end, 64)
        outline = np.vstack([[0.0, 0.0], np.column_stack([radius * np.cos(arc), radius * np.sin(arc)])])
        background = STYLE[next(iter(modes))][0] if len(modes) == 1 else (INDETERMINATE if modes else INCONSISTENT)
        axis.add_patch(Polygon(outline, closed=True, facecolor=background, alpha=0.3, edgecolor="none"))
        for mode in (name for name in MODE_NAMES if name in modes):  # fixed order: reproducible pictures
            colour, hatch = STYLE[mode]
            axis.add_patch(Polygon(outline, closed=True, facecolor="none", edgecolor=colour, hatch=hatch, lw=0))
        middle = 0.5 * (start + end)
        if end - start > np.radians(4):
            axis.text(
                0.78 * np.cos(middle),
                0.78 * np.sin(middle),
                _label(modes),
                ha="center",
                va="center",
                fontsize=8,
                bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="0.6", alpha=0.85),
            )
        axis.plot([0, radius * np.cos(start)], [0, radius * np.sin(start)], color="0.3", lw=0.6)
    axis.set_xlim(-1, 1)
    axis.set_ylim(-1, 1)
    axis.set_aspect("equal")
    axis.axhline(0, color="k", lw=0.8)
    axis.axvline(0, color="k", lw=0.8)


@figure("champneys_fig9_mode_regions")
def draw(out_dir: Path) -> list[Path]:
    """Fig. 9: wedges of consistent modes for u > 0 and u = 0 at three values of μ; PNG and CSV."""
    out_dir.mkdir(parents=True, exist_ok=True)
    figure_, axes = plt.subplots(2, 3, figsize=(13, 9), constrained_layout=True)
    rows = []
    for column, mu in enumerate(FRICTION_COEFFICIENTS):
        painleve = painleve_parameters(A, B, C, mu)
        for row, slip_sign in enumerate(SLIP_SIGNS):
            wedges = mode_wedges(mu, slip_sign)
            axis = axes[row, column]
            _draw_panel(axis, wedges)
            rows += [(mu, slip_sign, np.degrees(s), np.degrees(e), _label(m)) for s, e, m in wedges]
            axis.set_title(
                f"μ = {mu}, {'u > 0' if slip_sign > 0 else 'u = 0'}\n"
                f"p⁺ = {float(painleve.p_plus):.3g}, p⁻ = {float(painleve.p_minus):.3g}, "
                f"k⁺ = {float(painleve.k_plus):.3g}, k⁻ = {float(painleve.k_minus):.3g}",
                fontsize=10,
            )
            axis.set_xlabel("a")
            axis.set_ylabel("b")
    legend = [Patch(facecolor=c, alpha=0.3, hatch=h, edgecolor=c, label=m) for m, (c, h) in STYLE.items()]
    legend.append(Patch(facecolor=INDETERMINATE, alpha=0.4, label="indeterminate (several modes)"))
    legend.append(Patch(facecolor=INCONSISTENT, alpha=0.4, label="inconsistent (no mode)"))
    figure_.legend(handles=legend, loc="outside lower center", ncol=6)
    figure_.suptitle(f"Consistent contact modes (Table 1 / Table 2), A = {A}, B = {B}, C = {C}")
    png, data = out_dir / "champneys_fig9_mode_regions.png", out_dir / "champneys_fig9_mode_regions.csv"
    figure_.savefig(png, dpi=120)
    plt.close(figure_)
    with data.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["mu", "slip_sign", "theta_start_deg", "theta_end_deg", "modes", "A", "B", "C"])
        writer.writerows((mu, s, f"{t0:.3f}", f"{t1:.3f}", modes, A, B, C) for mu, s, t0, t1, modes in rows)
    return [png, data]
