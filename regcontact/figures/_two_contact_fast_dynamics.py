"""Fig. 15 A–B of Champneys & Várkonyi (2016, Sec. 6) drawn and written: the fast normal dynamics of two
forward-slipping contacts in the ``(ỹ₁, ỹ₂)`` plane (panel A's outcome grid and orbits, panel B's limit cycle in
the plane and in time, B read literally as B′), with the panels, outcomes and trajectories as CSV."""

from __future__ import annotations

import csv
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import ListedColormap  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from regcontact.figures import figure  # noqa: E402
from regcontact.figures._two_contact_orbits import (  # noqa: E402
    B_CYCLE_WINDOW,
    B_DURATION,
    FIG15_PANELS,
    WINDOW_A,
    Fig15Data,
    Fig15Panel,
    compute_fig15,
    stable_manifold_line,
)
from regcontact.stability import IMPACT_NAMES  # noqa: E402

FIG15_NAME = "champneys_fig15_two_contact_fast_dynamics"


OUTCOME_COLOURS = {"IF": "tab:red", "FI": "tab:blue", "none": "0.3"}
OUTCOME_LABELS = {
    "IF": "IF: IWC at contact 1, contact 2 lifts off",
    "FI": "FI: IWC at contact 2, contact 1 lifts off",
    "none": "no escape within the window",
}


def _mark_equilibrium(axis: plt.Axes, facts: dict) -> None:
    y1, y2 = facts["penetration"]
    axis.plot(y1, y2, "s", ms=10, mfc="white" if not facts["stable"] else "k", mec="k", mew=1.8, zorder=6)
    kind = "stable" if facts["stable"] else "unstable"
    axis.annotate(
        f"S+S+ ({kind})",
        (y1, y2),
        xytext=(8, 8),
        textcoords="offset points",
        fontsize=8.5,
        zorder=7,
        bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.85),
    )


def _parameter_text(panel: Fig15Panel, facts: dict) -> str:
    p = np.asarray(panel.painleve)
    g1, g2, beta = facts["angles"]
    eig = facts["eigenvalues"]
    unstable = eig[np.argmax(eig.real)]
    modes = ", ".join(sorted(facts["modes"])) or "none"
    impacts = ", ".join(f"{name} {'yes' if name in facts['impacts'] else 'no'}" for name in IMPACT_NAMES)
    return (
        f"class {facts['subclass']}: b = ({panel.b[0]:g}, {panel.b[1]:g}),  p⁺ = [[{p[0, 0]:g}, {p[0, 1]:g}], "
        f"[{p[1, 0]:g}, {p[1, 1]:g}]]\n"
        f"k = ({panel.k[0]:g}, {panel.k[1]:g}), q = ({panel.q[0]:g}, {panel.q[1]:g});  γ₁ = {g1:.3f}π, "
        f"γ₂ = {g2:.3f}π, β = {beta:.3f}π\n"
        f"consistent: {modes};  IWC conditions (Sec. 6.3): {impacts} (II: necessary only);  "
        f"max Re λ(J) = {unstable.real:.4f}"
    )


def _text_box(axis: plt.Axes, text: str) -> None:
    axis.text(
        0.02,
        0.02,
        text,
        transform=axis.transAxes,
        fontsize=7.2,
        va="bottom",
        zorder=8,
        bbox=dict(boxstyle="round,pad=0.3", fc="white", ec="0.6", alpha=0.92),
    )


def _draw_panel_a(axis: plt.Axes, data: Fig15Data) -> None:
    panel, facts = FIG15_PANELS[0], data.facts[0]
    (y1_low, y1_high), (y2_low, y2_high) = WINDOW_A
    side = int(round(np.sqrt(len(data.grid_outcomes))))
    codes = np.array([{"IF": 0, "FI": 1, "none": 2}[o] for o in data.grid_outcomes]).reshape(side, side).T
    colours = ListedColormap(["#f6c9c4", "#c6dbef", "0.85"])
    axis.imshow(
        codes,
        origin="lower",
        extent=(y1_low, y1_high, y2_low, y2_high),
        cmap=colours,
        vmin=-0.5,
        vmax=2.5,
        aspect="auto",
        interpolation="nearest",
        zorder=0,
    )
    for kind, outcome, _, z in data.orbits:
        if kind != "A":
            continue
        axis.plot(z[:, 0], z[:, 1], color=OUTCOME_COLOURS[outcome], lw=1.0, zorder=2)
        axis.plot(z[0, 0], z[0, 1], "o", ms=3, color=OUTCOME_COLOURS[outcome], zorder=3)
        inside = z[(z[:, 0] > y1_low) & (z[:, 0] < y1_high) & (z[:, 1] > y2_low) & (z[:, 1] < y2_high)]
        if len(inside) > 4:
            middle = len(inside) // 2
            axis.annotate(
                "",
                xy=tuple(inside[middle + 1, :2]),
                xytext=tuple(inside[middle, :2]),
                arrowprops=dict(arrowstyle="-|>", color=OUTCOME_COLOURS[outcome], lw=0.8, mutation_scale=9),
            )
    direction = stable_manifold_line(panel, facts["penetration"])
    segment = facts["penetration"][None, :] + np.linspace(-30, 30, 2)[:, None] * direction[None, :]
    axis.plot(segment[:, 0], segment[:, 1], "--", color="k", lw=1.4, zorder=4)
    axis.axvline(0.0, color="k", lw=0.8, ls=":")
    axis.axhline(0.0, color="k", lw=0.8, ls=":")
    _mark_equilibrium(axis, facts)
    axis.set_xlim(y1_low, y1_high)
    axis.set_ylim(y2_low, y2_high)
    axis.set_xlabel("ỹ₁")
    axis.set_ylabel("ỹ₂")
    axis.set_title("A: class 261, orbits from rest (ṽ = 0), k = q = −1", fontsize=10.5)
    _text_box(axis, _parameter_text(panel, facts))
    axis.legend(
        handles=[
            Patch(fc="#f6c9c4", label=OUTCOME_LABELS["IF"]),
            Patch(fc="#c6dbef", label=OUTCOME_LABELS["FI"]),
            Line2D([], [], ls="--", color="k", label="stable manifold of S+S+ ∩ {ṽ = 0}, linearised"),
        ],
        loc="upper right",
        fontsize=7.5,
        framealpha=0.92,
    )


def _draw_panel_b(axis: plt.Axes, data: Fig15Data, index: int, title: str, window: tuple) -> None:
    panel, facts = FIG15_PANELS[index], data.facts[index]
    for kind, _, _, z in data.orbits:
        if kind == panel.letter:
            axis.plot(z[:, 0], z[:, 1], color="0.55", lw=0.7, zorder=2, label="orbit from ỹ = ṽ = 0")
            axis.plot(z[0, 0], z[0, 1], "o", ms=4, color="k", zorder=3)
        if kind == "B cycle" and panel.letter == "B":
            axis.plot(
                z[:, 0],
                z[:, 1],
                color="tab:purple",
                lw=2.2,
                zorder=4,
                label=f"t̃ ∈ [{B_DURATION - B_CYCLE_WINDOW:g}, {B_DURATION:g}]: the limit cycle",
            )
    axis.axhline(0.0, color="k", lw=0.8, ls=":")
    axis.axvline(0.0, color="k", lw=0.8, ls=":")
    _mark_equilibrium(axis, facts)
    (low1, high1), (low2, high2) = window
    axis.set_xlim(low1, high1)
    axis.set_ylim(low2, high2)
    axis.set_xlabel("ỹ₁")
    axis.set_ylabel("ỹ₂")
    axis.set_title(title, fontsize=10.5)
    axis.legend(loc="upper left", fontsize=7.5, framealpha=0.92)
    _text_box(axis, _parameter_text(panel, facts))


def _draw_panel_b_time(axis: plt.Axes, data: Fig15Data) -> None:
    panel = FIG15_PANELS[1]
    ((_, _, t, z),) = [orbit for orbit in data.orbits if orbit[0] == "B cycle"]
    force_2 = np.maximum(panel.k[1] * z[:, 1] + panel.q[1] * z[:, 3], 0.0) * ~((z[:, 1] >= 0) & (z[:, 3] >= 0))
    axis.fill_between(
        t, -1.0, 1.0, where=force_2 <= 0, color="tab:orange", alpha=0.18, lw=0, label="contact 2 lifted off (λ₂ = 0)"
    )
    axis.plot(t, z[:, 0], color="tab:green", lw=1.4, label="ỹ₁")
    axis.plot(t, z[:, 1], color="tab:purple", lw=1.4, label="ỹ₂")
    axis.axhline(0.0, color="k", lw=0.8, ls=":")
    axis.set_ylim(-1.0, 0.4)
    axis.set_xlim(t[0], t[-1])
    axis.set_xlabel("t̃")
    axis.set_ylabel("penetration")
    axis.set_title("B: the limit cycle in time: contact 2 lifts off and lands again", fontsize=10.5)
    axis.legend(loc="lower right", fontsize=7.5, ncol=3, framealpha=0.92)


def draw_fig15(out_dir: Path, data: Fig15Data) -> list[Path]:
    """PNG and CSVs of Fig. 15 from :func:`compute_fig15`'s data."""
    out_dir.mkdir(parents=True, exist_ok=True)
    figure_, axes = plt.subplots(2, 2, figsize=(14, 11.5), constrained_layout=True)
    _draw_panel_a(axes[0, 0], data)
    _draw_panel_b(
        axes[0, 1], data, 1, "B: class 142, orbit from rest at ỹ = 0 (p₂₂ = −0.375)", ((-1.0, 0.2), (-0.45, 0.25))
    )
    _draw_panel_b_time(axes[1, 0], data)
    _draw_panel_b(
        axes[1, 1],
        data,
        2,
        "B′: caption B read literally (p₂₂ = −0.0375): S+S+ is stable",
        ((-1.0, 0.2), (-0.45, 0.25)),
    )
    figure_.suptitle(
        "Fast contact dynamics of two forward-slipping contacts, contact law (31) at each "
        "(Champneys & Várkonyi Fig. 15 A–B)"
    )
    png = out_dir / f"{FIG15_NAME}.png"
    figure_.savefig(png, dpi=100)
    plt.close(figure_)
    return [png, *_write_fig15_data(out_dir, data)]


def _write_fig15_data(out_dir: Path, data: Fig15Data) -> list[Path]:
    panels_csv = out_dir / f"{FIG15_NAME}_panels.csv"
    with panels_csv.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(
            [
                "panel",
                "subclass",
                "caption_subclass",
                "b1",
                "b2",
                "p11",
                "p12",
                "p21",
                "p22",
                "k1",
                "k2",
                "q1",
                "q2",
                "gamma1_over_pi",
                "gamma2_over_pi",
                "beta_over_pi",
                "caption_gamma1_over_pi",
                "caption_gamma2_over_pi",
                "caption_alpha_over_pi",
                "consistent_modes",
                "iwc_conditions_met",
                "slip_slip_y1",
                "slip_slip_y2",
                "slip_slip_force1",
                "slip_slip_force2",
                "slip_slip_stable",
                *[f"eigenvalue_{i}" for i in range(1, 5)],
                *[f"autodiff_eigenvalue_{i}" for i in range(1, 5)],
                "note",
            ]
        )
        for panel, facts in zip(FIG15_PANELS, data.facts):
            p = np.asarray(panel.painleve)
            writer.writerow(
                [
                    panel.letter,
                    facts["subclass"],
                    panel.subclass,
                    *panel.b,
                    p[0, 0],
                    p[0, 1],
                    p[1, 0],
                    p[1, 1],
                    *panel.k,
                    *panel.q,
                    *(f"{x:.4f}" for x in facts["angles"]),
                    *panel.caption_angles,
                    " ".join(sorted(facts["modes"])),
                    " ".join(sorted(facts["impacts"])),
                    *facts["penetration"],
                    *facts["normal_force"],
                    facts["stable"],
                    *map(complex, facts["eigenvalues"]),
                    *map(complex, facts["autodiff_eigenvalues"]),
                    panel.note,
                ]
            )
    outcomes_csv = out_dir / f"{FIG15_NAME}_outcomes.csv"
    with outcomes_csv.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["panel", "y1_initial", "y2_initial", "outcome"])
        writer.writerows(("A", y1, y2, outcome) for (y1, y2), outcome in zip(data.grid_points, data.grid_outcomes))
    trajectories_csv = out_dir / f"{FIG15_NAME}_trajectories.csv"
    with trajectories_csv.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["panel", "trajectory", "outcome", "t", "y1", "y2", "v1", "v2"])
        (y1_low, y1_high), (y2_low, y2_high) = WINDOW_A
        for number, (kind, outcome, t, z) in enumerate(data.orbits):
            if kind == "A":  # the part drawn (and a margin): escaping orbits run on to |ỹ| = ESCAPE_RADIUS
                near = (
                    (z[:, 0] > 2 * y1_low) & (z[:, 0] < 2 * y1_high) & (z[:, 1] > 2 * y2_low) & (z[:, 1] < 2 * y2_high)
                )
                t, z = t[near], z[near]
            writer.writerows(
                (kind, number, outcome, f"{time:.6g}", *(f"{x:.6g}" for x in state)) for time, state in zip(t, z)
            )
    return [panels_csv, outcomes_csv, trajectories_csv]


@figure(FIG15_NAME)
def draw(out_dir: Path) -> list[Path]:
    """Fig. 15 A–B (and B read literally): PNG and CSVs."""
    return draw_fig15(out_dir, compute_fig15())
