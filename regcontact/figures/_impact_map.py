"""Champneys & Várkonyi Fig. 10: the Darboux–Keller impact map of one contact in the ``(u, v)`` plane.

For each of the caption's cases — (a) ``p±, k± > 0``, (b) ``p⁺ < 0`` (a Painlevé contact), (c) ``k⁻ < 0``,
(d) ``k⁺ < 0`` (slip reversal) — the incoming half-plane ``v⁻ ≤ 0`` is split into the regions where the map has a
different form: the sequence of phases (slip ``S±``, stick ``T``; compression, restitution) that
:func:`~regcontact.rigid.darboux_keller_map` follows. The map is homogeneous of degree one in ``(u⁻, v⁻)`` (every
rate is constant in a phase), so the regions are sectors: their boundaries are computed by bisection in the angle
of ``(u⁻, v⁻)``, not drawn by hand. Impact paths from a few incoming velocities are drawn over them, straight
lines with corners at the phase changes, ending at ``(u⁺, v⁺)``; in case (b) one starts at ``v⁻ = 0``: an impact
without collision. Stronge's energetic restitution ``r_e = 0.5``
(the law of the figure's source, [53]); the caption gives no parameters, so each case takes the ``A, B, C, μ`` in
:data:`CASES`.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from regcontact.figures import figure
from regcontact.rigid import ImpactOutcome, RestitutionLaw, darboux_keller_map

#: ``(title, A, B, C, μ)`` per panel; the signs of ``p± = C ∓ μB`` and ``k± = μA ∓ B`` pick the case.
CASES = {
    "a": ("(a) p±, k± > 0", 1.0, 0.3, 1.0, 0.5),
    "b": ("(b) p⁺ < 0", 1.0, 0.9, 1.0, 1.5),
    "c": ("(c) k⁻ < 0", 1.0, -0.6, 1.0, 0.3),
    "d": ("(d) k⁺ < 0", 1.0, 0.6, 1.0, 0.3),
}
RESTITUTION = 0.5
LAW: RestitutionLaw = "energetic"
#: Incoming directions of the drawn paths (angle of ``(u⁻, v⁻)`` from the +u axis, degrees).
PATH_ANGLES = (185.0, 215.0, 250.0, 270.0, 290.0, 325.0, 355.0)


def sequence(outcome: ImpactOutcome) -> str:
    """The map's form: its phases as ``S+ c, T c, T r`` (mode and stage initial), or ``no impact``."""
    if outcome.status != "ended":
        return "no impact" if outcome.status == "no_impact" else "unbounded"
    return ", ".join(f"{phase.mode} {phase.stage[0]}" for phase in outcome.phases)


def _impact(case: str, angle: float) -> ImpactOutcome:
    _, A, B, C, mu = CASES[case]
    u, v = math.cos(angle), math.sin(angle)
    return darboux_keller_map(A, B, C, mu, u, min(v, 0.0), RESTITUTION, LAW)


def sectors(case: str, samples: int = 721, bisections: int = 40) -> list[tuple[float, float, str]]:
    """``(from, to, form)`` of each sector of the incoming half-plane, angles in radians from π to 2π, the
    boundaries located by bisection between samples of different form."""
    angles = np.linspace(math.pi, 2 * math.pi, samples)
    forms = [sequence(_impact(case, a)) for a in angles]
    found: list[tuple[float, float, str]] = []
    start = angles[0]
    for i in range(1, samples):
        if forms[i] == forms[i - 1]:
            continue
        low, high = angles[i - 1], angles[i]
        for _ in range(bisections):
            middle = 0.5 * (low + high)
            low, high = (middle, high) if sequence(_impact(case, middle)) == forms[i - 1] else (low, middle)
        found.append((float(start), float(low), forms[i - 1]))
        start = high
    found.append((float(start), float(angles[-1]), forms[-1]))
    return [(low, high, form) for low, high, form in found if high - low > 1e-9]  # single rays (v⁻ = 0, u⁻ = 0) out


def path(case: str, angle_deg: float) -> np.ndarray:
    """The corners of the impact path from the unit incoming velocity at ``angle_deg``: ``(u, v)`` rows."""
    outcome = _impact(case, math.radians(angle_deg))
    if not outcome.phases:
        return np.array([[math.cos(math.radians(angle_deg)), 0.0]])
    return np.array([outcome.phases[0].start] + [phase.end for phase in outcome.phases])


@figure("champneys_fig10_impact_map")
def draw(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    fig = Figure(figsize=(12.5, 11.0))
    FigureCanvasAgg(fig)
    axes = fig.subplots(2, 2).ravel()
    colours = [
        "#a6cee3", "#b2df8a", "#fdbf6f", "#cab2d6", "#fb9a99", "#ffff99", "#8dd3c7", "#bebada", "#fccde5", "#d9d9d9",
    ]  # fmt: skip
    sector_rows, path_rows = [], []
    for ax, case in zip(axes, CASES):
        title, A, B, C, mu = CASES[case]
        found = sectors(case)
        radius = 1.6
        for number, (low, high, form) in enumerate(found, start=1):
            wedge = np.linspace(low, high, 60)
            xs = np.concatenate([[0.0], radius * np.cos(wedge), [0.0]])
            ys = np.concatenate([[0.0], radius * np.sin(wedge), [0.0]])
            ax.fill(xs, ys, color=colours[(number - 1) % len(colours)], alpha=0.8, lw=0, label=f"{number}: {form}")
            middle = 0.5 * (low + high)
            ax.annotate(str(number), (1.35 * math.cos(middle), 1.35 * math.sin(middle)), ha="center", fontsize=9)
            for edge in (low, high):
                ax.plot([0, radius * math.cos(edge)], [0, radius * math.sin(edge)], ls="--", color="0.35", lw=0.8)
            sector_rows.append([case, number, math.degrees(low), math.degrees(high), form])
        # an impact without collision (v⁻ = 0) where a Painlevé parameter is negative: from (±1, 0)
        without_collision = [360.0] * (C - mu * B < 0) + [180.0] * (C + mu * B < 0)
        for angle in (*PATH_ANGLES, *without_collision):
            corners = path(case, angle)
            ax.plot(corners[:, 0], corners[:, 1], "-", color="#1f3b73", lw=1.4)
            ax.plot(corners[0, 0], corners[0, 1], "o", color="#1f3b73", ms=3.5)
            ax.plot(corners[-1, 0], corners[-1, 1], ">", color="#d62728", ms=4.5)
            path_rows += [[case, angle, i, u, v] for i, (u, v) in enumerate(corners)]
        ax.axhline(0.0, color="black", lw=0.8)
        ax.axvline(0.0, color="black", lw=0.5)
        p_plus, p_minus, k_plus, k_minus = C - mu * B, C + mu * B, mu * A - B, mu * A + B
        ax.set_title(
            f"{title}: A={A:g}, B={B:g}, C={C:g}, μ={mu:g}\n"
            f"p⁺={p_plus:.2f}, p⁻={p_minus:.2f}, k⁺={k_plus:.2f}, k⁻={k_minus:.2f}",
            fontsize=9,
        )
        ax.set_xlim(-1.8, 1.8)
        ax.set_ylim(-1.7, 1.3)
        ax.set_aspect("equal")
        ax.set_xlabel("slip u")
        ax.set_ylabel("normal velocity v")
        ax.legend(loc="upper left", fontsize=6.5, title="region: phases (c compression, r restitution)",
                  title_fontsize=6.5)  # fmt: skip
    fig.suptitle(
        "Champneys & Várkonyi Fig. 10: Darboux–Keller impact map, energetic restitution r_e = 0.5 — regions of "
        "(u⁻, v⁻) with one form of the map (computed), paths (u⁻, v⁻) ● → (u⁺, v⁺) ▶",
        fontsize=10,
    )
    png = out_dir / "champneys_fig10_impact_map.png"
    fig.savefig(png, dpi=130, bbox_inches="tight")
    sectors_csv = out_dir / "champneys_fig10_impact_map_regions.csv"
    with sectors_csv.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["case", "region", "from_deg", "to_deg", "phases"])
        writer.writerows(sector_rows)
    paths_csv = out_dir / "champneys_fig10_impact_map_paths.csv"
    with paths_csv.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["case", "incoming_deg", "corner", "u", "v"])
        writer.writerows(path_rows)
    return [png, sectors_csv, paths_csv]
