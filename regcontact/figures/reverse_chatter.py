"""Champneys & Várkonyi Fig. 11(a): where reverse chatter is possible, over ``a/(−b)`` and ``μ``.

One contact with ``B = 0.5``, ``A = C = 1`` (the caption's) and Stronge's energetic restitution ``r``: for each
``a/(−b)`` the smallest ``μ`` at which a direction kept by the bounce map has an effective restitution ``e > 1``
(:func:`~regcontact.rigid.chatter.chatter_directions`), found by bisection in ``μ``, which takes the region to lie
at larger ``μ`` (``tests/figures/test_rigid_figures.py`` checks that on sample rows). The Painlevé region
``p⁺ < 0`` is ``μ > C/B = 2``.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from regcontact.figures import figure
from regcontact.rigid.chatter import reverse_chatter_possible

A, B, C = 1.0, 0.5, 1.0
RESTITUTIONS = (0.5, 0.7, 0.9, 1.0)
MU_MAX = 3.0


def threshold(ratio: float, r: float, tol: float = 1e-3) -> float:
    """The smallest ``μ ≤ MU_MAX`` with reverse chatter at ``a/(−b) = ratio`` (``nan`` if none)."""
    possible = lambda mu: reverse_chatter_possible(ratio, -1.0, A, B, C, mu, r)  # noqa: E731
    if not possible(MU_MAX):
        return float("nan")
    low, high = 0.0, MU_MAX
    while high - low > tol:
        middle = 0.5 * (low + high)
        low, high = (low, middle) if possible(middle) else (middle, high)
    return high


@figure("champneys_fig11a_reverse_chatter")
def draw(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    ratios = np.linspace(0.05, 4.0, 40)
    curves = {r: np.array([threshold(x, r) for x in ratios]) for r in RESTITUTIONS}
    fig = Figure(figsize=(6.8, 5.2))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for r, mu in curves.items():
        ax.plot(mu, ratios, lw=2, label=f"r = {r:g}")
        if r == 0.7:
            ax.fill_betweenx(ratios, np.nan_to_num(mu, nan=MU_MAX), MU_MAX, color="#fdae61", alpha=0.35,
                             label="reverse chatter possible, r = 0.7")  # fmt: skip
    ax.axvline(C / B, color="black", ls="--", lw=1, label="p⁺ = 0 (Painlevé region μ > 2)")
    ax.set_xlim(0, MU_MAX)
    ax.set_ylim(0, ratios[-1])
    ax.set_xlabel("friction coefficient μ")
    ax.set_ylabel("a / (−b)")
    ax.set_title("Fig. 11(a): e > 1 to the right of each curve (B = 0.5, A = C = 1, energetic r)", fontsize=9)
    ax.legend(fontsize=8, loc="upper right")
    ax.grid(alpha=0.3)
    png = out_dir / "champneys_fig11a_reverse_chatter.png"
    fig.savefig(png, dpi=150, bbox_inches="tight")
    data = out_dir / "champneys_fig11a_reverse_chatter.csv"
    with data.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["a_over_minus_b", *(f"mu_threshold_r{r:g}" for r in RESTITUTIONS)])
        writer.writerows([x, *(curves[r][i] for r in RESTITUTIONS)] for i, x in enumerate(ratios))
    return [png, data]
