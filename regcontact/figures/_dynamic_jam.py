"""Dynamic jam (Champneys & Várkonyi Sec. 5.1): Fig. 13 from computed G-spots, and two Painlevé rods that jam.

``champneys_fig13_g_spot_portraits``: the twelve phase portraits of Eqs. 33–34
(:data:`~regcontact.rigid.G_SPOT_PANELS`), each drawn with the ``(α₁, α₂, α₃)`` of a G-spot of a
Painlevé rod (``m = 1``, ``l = 2``, ``g = 1``, constant torque τ) computed by autodiff: over a grid of ``(μ, τ)``
every G-spot is located (:func:`~regcontact.rigid.rod_g_spots`) and each panel takes the one
furthest from the panel's borders. Each panel shows the flow, the invariant ``b``-axis and the ``α₁``-eigenvector
(arrows: stable towards the G-spot, unstable away; two heads on the strong direction of a node), the nullcline
``db/ds = 0`` (dashed), and shades the slip quadrant ``p⁺ > 0 > b`` where it reaches the G-spot.

``dynamic_jam_rods``: the rods of :func:`~regcontact.rigid.search_jamming_rod` for G1 and G2: the
search grid of initial ``(φ₀, ω₀)`` by outcome, ``(p⁺, b)`` along the rigid slip with the G-spot's eigen-directions,
and ``λ_N`` against time.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from regcontact.figures import figure
from regcontact.rigid import (
    G_SPOT_PANELS,
    MU_GRID,
    SLIP_OUTCOMES,
    TORQUE_GRID,
    GSpotPanel,
    JammingRod,
    RodGSpots,
    g_spot_panel,
    jam_case,
    linear_g_spot_flow,
    reaches_g_spot,
    rod_g_spots,
    search_jamming_rod,
)
from regcontact.systems import load_at

__all__ = ["draw_jamming_rods", "draw_portraits", "panel_examples"]

OUTCOME_COLOURS = {"G1": "#1a9850", "G2": "#762a83", "lift-off": "#d73027", "slip": "#4575b4"}


def panel_examples(spots: RodGSpots) -> dict[str, int]:
    """For each panel label, the index of the G-spot in ``spots`` furthest inside it: largest
    ``min(|α₁|, |α₂|, |α₃|, |α₁ − α₃|) / max(|α₁|, |α₃|)``."""
    lin = spots.linearisation
    a1, a2, a3 = (np.asarray(x) for x in (lin.alpha1, lin.alpha2, lin.alpha3))
    margin = np.min(np.abs([a1, a2, a3, a1 - a3]), axis=0) / np.maximum(np.abs(a1), np.abs(a3))
    best: dict[str, int] = {}
    for i in np.argsort(-margin):
        if margin[i] > 0:
            best.setdefault(g_spot_panel(a1[i], a2[i], a3[i]).label, int(i))
    return best


def _trajectory_outcome(alphas: tuple[float, float, float], p: np.ndarray, b: np.ndarray) -> str:
    case = jam_case(*alphas)
    if bool(reaches_g_spot(*alphas, p[0], b[0])):
        return str(case)
    return "lift-off" if np.any(b >= 0) else "slip"


def _arrow_on_line(axis, direction: np.ndarray, stable: bool, strong: bool, colour: str) -> None:
    """Arrowheads on both rays of an invariant line, pointing in (stable) or out; two heads if ``strong``."""
    for ray in (direction, -direction):
        for place in (0.55, 0.75) if strong else (0.65,):
            tip, tail = (place - 0.08, place) if stable else (place, place - 0.08)
            axis.annotate(
                "",
                xy=tip * ray,
                xytext=tail * ray,
                arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 1.6, "mutation_scale": 12},
            )


def _draw_panel(axis, panel: GSpotPanel, alphas: tuple[float, float, float], rod: str) -> list[list]:
    a1, a2, a3 = alphas
    grid = np.linspace(-1, 1, 201)
    P, B = np.meshgrid(grid, grid)
    reach = reaches_g_spot(a1, a2, a3, P, B)
    axis.contourf(P, B, (P > 0) & (B < 0), levels=[0.5, 1.5], colors=["#f0f0f0"])
    if reach.any():
        axis.contourf(P, B, reach, levels=[0.5, 1.5], colors=[OUTCOME_COLOURS[str(jam_case(a1, a2, a3))]], alpha=0.3)
    scale = max(abs(a1), abs(a2), abs(a3))
    axis.streamplot(grid, grid, a1 * P / scale, (a2 * P + a3 * B) / scale, color="#bdbdbd", density=0.7, linewidth=0.6)
    eigenvector = np.array([a1 - a3, a2]) / np.hypot(a1 - a3, a2)
    node = np.sign(a1) == np.sign(a3)
    axis.plot([0, 0], [-1, 1], color="black", lw=2.2)
    axis.plot(*(np.outer([-1.5, 1.5], eigenvector).T), color="black", lw=2.2)
    _arrow_on_line(axis, np.array([0.0, 1.0]), a3 < 0, bool(node and abs(a3) > abs(a1)), "black")
    _arrow_on_line(axis, eigenvector, a1 < 0, bool(node and abs(a1) > abs(a3)), "black")
    axis.plot(grid, -a2 * grid / a3, color="black", ls="--", lw=1.0)
    radius = 0.9 if a1 < 0 and a3 < 0 else 0.2  # start far out where the G-spot attracts, near it where it repels
    for angle in np.linspace(-np.pi / 2 + 0.2, -0.2, 5):
        p0, b0 = radius * np.cos(angle), radius * np.sin(angle)
        s = np.linspace(0, 12 / min(abs(a1), abs(a3)), 800)
        p, b = linear_g_spot_flow(*alphas, p0, b0, s)
        inside = np.cumprod((np.abs(p) <= 1.05) & (np.abs(b) <= 1.05)).astype(bool)
        colour = OUTCOME_COLOURS[_trajectory_outcome(alphas, p, b)]
        axis.plot(p[inside], b[inside], color=colour, lw=1.3)
        axis.plot(p0, b0, "o", color=colour, ms=3)
    axis.plot(0, 0, "o", color="black", ms=5)
    axis.set_xlim(-1, 1)
    axis.set_ylim(-1, 1)
    axis.set_aspect("equal")
    axis.set_xticks([])
    axis.set_yticks([])
    outcomes = ", ".join(sorted(panel.outcomes))
    flow = panel.flow + (f", slow {panel.slow}" if panel.slow else "")
    axis.set_title(f"({panel.label}) {flow}\nα = ({a1:.2f}, {a2:.2f}, {a3:.2f}); slip: {outcomes}\n{rod}", fontsize=7.5)
    return [[panel.label, panel.flow, panel.slow or "", panel.eigenvector_in_slip, outcomes, a1, a2, a3]]


@figure("champneys_fig13_g_spot_portraits")
def draw_portraits(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    mus, torques = (x.ravel() for x in np.meshgrid(MU_GRID, TORQUE_GRID))
    spots = rod_g_spots(mus, torques)
    examples = panel_examples(spots)
    fig = Figure(figsize=(12.5, 12.6))
    FigureCanvasAgg(fig)
    rows = []
    lin = spots.linearisation
    for k, panel in enumerate(G_SPOT_PANELS):
        axis = fig.add_subplot(3, 4, k + 1)
        i = examples[panel.label]
        alphas = (float(lin.alpha1[i]), float(lin.alpha2[i]), float(lin.alpha3[i]))
        mu, torque, phi, omega = (float(x[i]) for x in (spots.mu, spots.torque, spots.phi, spots.omega))
        rod = f"rod μ = {mu:.2f}, τ = {torque:.2f}, φ* = {phi:.3f}, ω* = {omega:.3f}"
        for row in _draw_panel(axis, panel, alphas, rod):
            rows.append([*row, mu, torque, phi, omega])
        if k % 4 == 0:
            axis.set_ylabel("b")
        if k >= 8:
            axis.set_xlabel("p⁺")
    handles = [
        Patch(color=OUTCOME_COLOURS["G1"], alpha=0.4, label="reaches the G-spot, G1 (λ_N → ∞)"),
        Patch(color=OUTCOME_COLOURS["G2"], alpha=0.4, label="reaches the G-spot, G2 (λ_N → α₂/(α₃ − α₁))"),
        Patch(color=OUTCOME_COLOURS["lift-off"], label="lift-off (b reaches 0)"),
        Patch(color=OUTCOME_COLOURS["slip"], label="leaves in slip"),
        Patch(color="#f0f0f0", label="slip quadrant p⁺ > 0 > b"),
    ]
    fig.legend(handles=handles, loc="lower center", ncol=5, fontsize=8, frameon=False)
    fig.suptitle(
        "Fig. 13: Eqs. 33–34 near the G-spot, d(p⁺, b)/ds = [[α₁, 0], [α₂, α₃]](p⁺, b), α of rod G-spots by autodiff\n"
        "bold: invariant b-axis and α₁-eigenvector (arrows in: stable, out: unstable, double: strong); "
        "dashed: nullcline db/ds = 0",
        fontsize=9,
    )
    fig.tight_layout(rect=(0, 0.03, 1, 0.95), h_pad=2.5)
    png = out_dir / "champneys_fig13_g_spot_portraits.png"
    fig.savefig(png, dpi=110)
    data = out_dir / "champneys_fig13_g_spot_portraits.csv"
    with data.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(
            ["panel", "flow", "slow", "eigenvector_in_slip", "slip_outcomes", "alpha1", "alpha2", "alpha3"]
            + ["mu", "torque", "phi_star", "omega_star"]
        )
        writer.writerows(rows)
    return [png, data]


def _draw_rod(axes, found: JammingRod) -> list[list]:
    search, plane, force = axes
    outcomes = found.grid_outcomes
    colours = ["#ffffbf", "#1a9850", "#d73027", "#fdae61", "#000000", "#e0e0e0"]
    phis, omegas = found.grid_phi, found.grid_omega
    search.pcolormesh(phis, omegas, outcomes.T, cmap=ListedColormap(colours), vmin=-0.5, vmax=5.5, shading="nearest")
    search.plot(float(found.rod.phi0), float(found.rod.omega0), "*", color="white", mec="black", ms=13)
    search.plot(float(found.g_spot.phi[0]), float(found.g_spot.omega[0]), "o", color="black", ms=6)
    search.set_xlabel("φ₀")
    search.set_ylabel("ω₀")
    mu, torque = float(found.rod.mu), float(load_at(found.rod.torque, 0.0))
    start = ", ".join(f"{float(x):.4f}" for x in (found.rod.phi0, found.rod.omega0, found.rod.vx0))
    search.set_title(
        f"{found.case}: search over starts (μ = {mu:.2f}, τ = {torque:.2f})\nfound (star): φ₀, ω₀, v_x0 = {start}",
        fontsize=9,
    )
    search.legend(
        handles=[Patch(color=colours[c], label=SLIP_OUTCOMES[c]) for c in np.unique(outcomes)],
        fontsize=7,
        loc="upper right",
    )

    slip = found.slip
    keep = np.isfinite(np.asarray(slip.t))
    p, b = np.asarray(slip.painleve)[keep], np.asarray(slip.free_normal_acceleration)[keep]
    t, force_n = np.asarray(slip.t)[keep], np.asarray(slip.normal_force())[keep]
    lin = found.end
    a1, a2, a3 = float(lin.alpha1), float(lin.alpha2), float(lin.alpha3)
    plane.plot(p, b, color=OUTCOME_COLOURS[found.case], lw=2, label="rigid slip")
    plane.plot(p[0], b[0], "*", color="white", mec="black", ms=12)
    reach = max(p.max(), -b.min()) * 1.1
    eigenvector = np.array([a1 - a3, a2]) / np.hypot(a1 - a3, a2)
    plane.plot(*(np.outer([-reach, reach], eigenvector).T), color="black", lw=1, label="α₁-eigenvector at the G-spot")
    plane.axvline(0, color="black", lw=1.6, label="invariant b-axis")
    plane.axhline(0, color="grey", lw=0.8)
    plane.set_xlim(-0.1 * reach, reach)
    plane.set_ylim(1.15 * b.min(), -0.1 * b.min())
    plane.set_xlabel("p⁺")
    plane.set_ylabel("b")
    plane.set_title(f"(p⁺, b) along the slip; α = ({a1:.2f}, {a2:.2f}, {a3:.2f})", fontsize=9)
    plane.legend(fontsize=7, loc="upper right")

    t_jam = float(slip.jam[2])
    force.semilogy(t, force_n, color=OUTCOME_COLOURS[found.case], lw=2)
    force.axvline(t_jam, color="black", ls=":", lw=1, label=f"t_jam = {t_jam:.4f}")
    if found.case == "G2":
        force.axhline(float(lin.jam_normal_force()), color="black", ls="--", lw=1, label="α₂/(α₃ − α₁)")
    force.set_xlabel("t")
    force.set_ylabel("λ_N")
    force.set_title(f"normal force: λ_N(end) = {force_n[-1]:.4g}", fontsize=9)
    force.legend(fontsize=7)
    return [[found.case, si, ti, pi, bi, fi] for si, ti, pi, bi, fi in zip(np.asarray(slip.s)[keep], t, p, b, force_n)]


@figure("dynamic_jam_rods")
def draw_jamming_rods(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    fig = Figure(figsize=(14, 8.5))
    FigureCanvasAgg(fig)
    rows = []
    for k, case in enumerate(("G1", "G2")):
        found = search_jamming_rod(case)  # type: ignore[arg-type]
        axes = [fig.add_subplot(2, 3, 3 * k + j + 1) for j in range(3)]
        rows += _draw_rod(axes, found)
    fig.suptitle("Painlevé rods (m = 1, l = 2, g = 1) whose rigid slip jams, found by search", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    png = out_dir / "dynamic_jam_rods.png"
    fig.savefig(png, dpi=110)
    data = out_dir / "dynamic_jam_rods.csv"
    with data.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["case", "s", "t", "p_plus", "b", "lambda_n"])
        writer.writerows(rows)
    return [png, data]
