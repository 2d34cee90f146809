"""Champneys & Várkonyi Fig. 11(a), (b): where reverse chatter is possible, (a) for one contact over
``(a/(−b), μ)`` per restitution, (b) for the classical Painlevé rod over ``(θ, μ)`` (``docs/impacts.md``, "Chatter
and reverse chatter")."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from regcontact.figures import figure
from regcontact.rigid import reverse_chatter_possible

A, B, C = 1.0, 0.5, 1.0
RESTITUTIONS = (0.5, 0.7, 0.9, 1.0)
MU_MAX = 3.0


def threshold(
    ratio: float, r: float, tol: float = 1e-3, form: tuple[float, float, float] = (A, B, C), samples: int = 2001
) -> float:
    """The smallest ``μ ≤ MU_MAX`` with reverse chatter at ``a/(−b) = ratio`` for the contact-space ``form``
    ``(A, B, C)`` (``nan`` if none)."""
    possible = lambda mu: reverse_chatter_possible(ratio, -1.0, *form, mu, r, samples=samples)  # noqa: E731
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


ROD_RESTITUTIONS = (0.5, 0.7, 1.0)


def rod_chatter_region(theta: float, mus: np.ndarray, r: float, spins: int = 6) -> np.ndarray:
    """For each ``μ`` of ``mus``, whether the Painlevé rod at angle ``θ`` can chatter in reverse for some ``θ̇``
    (the rod's reverse-chatter condition, ``docs/impacts.md``)."""
    from regcontact.rigid import ContactState
    from regcontact.systems import PainleveRod

    states = [ContactState.from_system(PainleveRod(phi0=theta, omega0=omega)) for omega in (0.0, 1.0)]
    (b0, a0), (b_spun, a_spun) = (state.free_acceleration[0] for state in states)
    b1, a1 = b_spun - b0, a_spun - a0  # the slopes in θ̇² = w: the values at θ̇ = 1 less those at rest
    G = states[0].delassus
    form = (float(G[1, 1]), float(G[1, 0]), float(G[0, 0]))
    # θ̇² = w with b = b0 + b1 w < 0: up to 0.98 of the root (where b changes sign), or a range if b1 ≤ 0
    w_max = 0.98 * (-b0 / b1) if b1 > 0 else 10.0
    ratios = [(a0 + a1 * w) / -(b0 + b1 * w) for w in np.linspace(0.0, w_max, spins)]
    return np.array([any(reverse_chatter_possible(x, -1.0, *form, mu, r, samples=401) for x in ratios) for mu in mus])


@figure("champneys_fig11b_reverse_chatter_rod")
def draw_rod(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    thetas = np.linspace(0.05, 1.5, 16)
    mus = np.linspace(0.05, MU_MAX, 30)
    regions = {r: np.array([rod_chatter_region(theta, mus, r) for theta in thetas]) for r in ROD_RESTITUTIONS}
    fig = Figure(figsize=(6.8, 5.2))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    degrees = np.degrees(thetas)
    colours = {0.5: "#1f77b4", 0.7: "#ff7f0e", 1.0: "#2ca02c"}
    for r, region in regions.items():
        if r == 0.7:
            ax.contourf(degrees, mus, region.T.astype(float), levels=[0.5, 1.5], colors=["#fdae61"], alpha=0.35)
        if region.any() and not region.all():
            ax.contour(degrees, mus, region.T.astype(float), levels=[0.5], colors=[colours[r]], linewidths=2)
        found = "e > 1 for some θ̇ above the curve" if region.any() else f"no e > 1 for μ ≤ {MU_MAX:g}"
        ax.plot([], [], color=colours[r], lw=2, label=f"r = {r:g}: {found}")
    critical = np.array([_painleve_mu(theta) for theta in thetas])
    ax.plot(degrees, critical, color="black", ls="--", lw=1, label="p = 0: Painlevé region above")
    ax.set_xlim(0, 90)
    ax.set_ylim(0, MU_MAX)
    ax.set_xlabel("rod angle θ (degrees)")
    ax.set_ylabel("friction coefficient μ")
    ax.set_title(
        "Fig. 11(b): where the Painlevé rod can chatter in reverse (energetic r; boundary of each region)", fontsize=9
    )
    ax.legend(fontsize=8, loc="upper right")
    ax.grid(alpha=0.3)
    png = out_dir / "champneys_fig11b_reverse_chatter_rod.png"
    fig.savefig(png, dpi=150, bbox_inches="tight")
    data = out_dir / "champneys_fig11b_reverse_chatter_rod.csv"
    with data.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["theta_rad", "mu", *(f"reverse_chatter_r{r:g}" for r in ROD_RESTITUTIONS)])
        for i, theta in enumerate(thetas):
            for j, mu in enumerate(mus):
                writer.writerow([theta, mu, *(int(regions[r][i, j]) for r in ROD_RESTITUTIONS)])
    return [png, data]


def _painleve_mu(theta: float) -> float:
    """The rod's ``μ`` at which its Painlevé parameter ``C − μ|B|`` vanishes."""
    from regcontact.rigid import ContactState
    from regcontact.systems import PainleveRod

    G = ContactState.from_system(PainleveRod(phi0=theta)).delassus
    return float(G[0, 0] / abs(G[1, 0]))
