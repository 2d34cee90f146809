"""Whole motions, rigid and compliant: trajectories overlaid, the mode sequences as a strip
under them, and the convergence in α and δt on log-log axes.

Each figure runs one study of ``kind = "rigid_trajectories"`` (:mod:`regcontact.studies.trajectory_study`) from
its shipped config: the compliant model at its α, Moreau–Jean at its δt, Gholami et al. where asked, and the
event-driven reference, all on the study's common grid. Grey bands mark the grid points the comparison leaves
out (the impulsive layers).
"""

from __future__ import annotations

import csv
import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import ListedColormap  # noqa: E402

from regcontact.figures import figure, study_config  # noqa: E402
from regcontact.studies.loading import load_study  # noqa: E402
from regcontact.studies.trajectory_study import Comparison, SampledRun, compare  # noqa: E402

__all__ = ["MODE_COLOURS", "TrajectoryFigure", "draw_trajectories"]

#: Mode → colour of the strip.
MODE_COLOURS = {"F": "#f0f0f0", "T": "#3b6fb6", "S+": "#f2a33a", "S-": "#d1495b"}


@dataclasses.dataclass(frozen=True)
class TrajectoryFigure:
    """What one figure shows: its study, a coordinate over the whole run, a velocity over a window."""

    study: str
    coordinate: int
    coordinate_label: str
    velocity: int
    velocity_label: str
    window: tuple[float, float]
    title: str


FIGURES = {
    "rigid_trajectories": TrajectoryFigure(
        "rigid_trajectories",
        2,
        "φ (rad)",
        0,
        "v_x",
        (2.2, 3.0),
        "Preclik Sec. 2.1 rod over 3 s: impact without collision, stick, slip onset at t = 2.4027",
    ),
    "rigid_trajectories_two_point_rod": TrajectoryFigure(
        "rigid_trajectories_two_point_rod",
        2,
        "φ (rad)",
        0,
        "v_x",
        (0.2, 0.6),
        "Two-point rod: lands on end 1, slides, lands on end 2, slides flat, sticks",
    ),
}


def _style(run: SampledRun, index: int, count: int) -> dict[str, Any]:
    """Compliant: blues light → dark with α; time stepping: greens with δt → 0; Gholami: purple."""
    shade = 0.35 + 0.6 * index / max(count - 1, 1)
    if run.integrator == "compliant":
        return {"color": plt.get_cmap("Blues")(shade), "lw": 1.2}
    if run.integrator.startswith("moreau"):
        return {"color": plt.get_cmap("Greens")(shade), "lw": 1.2, "ls": "--"}
    return {"color": "tab:purple", "lw": 1.0, "ls": ":"}


def _write_csv(comparison: Comparison, path_trajectories: Path, path_convergence: Path, stride: int = 10) -> None:
    runs = [comparison.reference, *comparison.runs]
    n, k = comparison.reference.q.shape[1], comparison.reference.modes.shape[1]
    with open(path_trajectories, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            ["run", "t", *(f"q{i}" for i in range(n)), *(f"v{i}" for i in range(n)), "compared"]
            + [f"mode{c + 1}" for c in range(k)]
        )
        for run in runs:
            for j in range(0, len(comparison.grid), stride):
                writer.writerow(
                    [
                        run.label,
                        repr(float(comparison.grid[j])),
                        *map(repr, run.q[j].tolist()),
                        *map(repr, run.v[j].tolist()),
                        bool(comparison.compared[j]),
                        *run.modes[j].tolist(),
                    ]
                )
    with open(path_convergence, "w", newline="") as handle:
        columns = ["run", "alpha", "dt", "distance_q", "distance_v", "event_error", "modes", "modes_equal"]
        table = csv.DictWriter(handle, fieldnames=columns, extrasaction="ignore")
        table.writeheader()
        table.writerows(comparison.rows)


def _left_out_bands(ax, comparison: Comparison, **style) -> None:
    """Shade the grid intervals the comparison leaves out (grey by default)."""
    grid, skipped = comparison.grid, ~comparison.compared
    edges = np.flatnonzero(np.diff(np.concatenate([[0], skipped.astype(int), [0]])))
    for start, stop in zip(edges[::2], edges[1::2]):
        ax.axvspan(grid[start], grid[stop - 1], **(style or {"color": "0.85", "lw": 0, "zorder": 0}))


def _convergence_panel(ax, rows, key: str, label: str, sign: float, fit: dict) -> None:
    rows = [r for r in rows if r[key] is not None and r["distance_q"] is not None]
    x = np.array([r[key] for r in rows])
    for quantity, marker in (("distance_q", "o"), ("distance_v", "s")):
        ax.loglog(x, [r[quantity] for r in rows], marker=marker, label=quantity.replace("distance_", "max |Δ") + "|")
        entry = fit.get(quantity)
        if entry is not None:
            ax.annotate(
                f"order {entry['order']:.2f}",
                (x[-1], rows[-1][quantity]),
                textcoords="offset points",
                xytext=(-10 * sign, 8 if quantity == "distance_q" else -14),
                fontsize=8,
                ha="right" if sign > 0 else "left",
            )
    ax.set_xlabel(label)
    ax.set_ylabel("distance to event-driven")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)


def draw_trajectories(spec: TrajectoryFigure, out_dir: Path, overrides: Sequence[str] = ()) -> list[Path]:
    """Run the figure's study (with ``--set``-style ``overrides``) and draw it; the PNG and two CSVs (the
    trajectories at every 10th grid point, and the study's rows)."""
    comparison = compare(load_study(study_config(spec.study), overrides).config)
    runs = [*comparison.runs, comparison.reference]
    grid = comparison.grid
    fig = plt.figure(figsize=(15, 8.5))
    layout = fig.add_gridspec(2, 3, height_ratios=[3, 1.6], width_ratios=[1.2, 1.2, 1], hspace=0.35, wspace=0.3)
    whole, window = fig.add_subplot(layout[0, 0]), fig.add_subplot(layout[0, 1])
    strip = fig.add_subplot(layout[1, :2])
    in_alpha, in_dt = fig.add_subplot(layout[0, 2]), fig.add_subplot(layout[1, 2])

    kinds = {"compliant": 0, "moreau": 0, "gholami": 0}
    counts = {kind: sum(r.integrator.startswith(kind) for r in comparison.runs) for kind in kinds}
    inside = (grid >= spec.window[0]) & (grid <= spec.window[1])
    for run in runs:
        if run is comparison.reference:
            style: dict[str, Any] = {"color": "black", "lw": 1.0}
        else:
            kind = next(k for k in kinds if run.integrator.startswith(k))
            style = _style(run, kinds[kind], counts[kind])
            kinds[kind] += 1
        whole.plot(grid, run.q[:, spec.coordinate], label=run.label, **style)
        window.plot(grid[inside], run.v[inside, spec.velocity], **style)
    for ax in (whole, window):
        _left_out_bands(ax, comparison)
        ax.set_xlabel("t")
        ax.grid(alpha=0.3)
    window.set_xlim(*spec.window)
    whole.set_ylabel(spec.coordinate_label)
    window.set_ylabel(spec.velocity_label)
    window.set_title(f"{spec.velocity_label} on t ∈ [{spec.window[0]:g}, {spec.window[1]:g}]", fontsize=9)
    whole.legend(fontsize=7, ncol=2)
    whole.set_title(spec.title, fontsize=9)

    codes = {mode: i for i, mode in enumerate(MODE_COLOURS)}
    k = comparison.reference.modes.shape[1]
    image, labels = [], []
    for run in runs:
        for contact in range(k):
            image.append([codes[m] for m in run.modes[:, contact]])
            labels.append(run.label if k == 1 else f"{run.label}, end {contact + 1}")
    strip.imshow(
        np.array(image),
        aspect="auto",
        interpolation="nearest",
        cmap=ListedColormap(list(MODE_COLOURS.values())),
        vmin=-0.5,
        vmax=len(MODE_COLOURS) - 0.5,
        extent=(grid[0], grid[-1], len(image) - 0.5, -0.5),
    )
    strip.set_yticks(range(len(labels)), labels, fontsize=6)
    strip.set_xlabel("t")
    strip.set_title("contact modes (F free, T stick, S± slip); left out: hatched", fontsize=9, loc="left")
    for t, _ in comparison.impulsive_events:
        strip.axvline(t, color="k", lw=0.6, ls=":")
    handles = [plt.Rectangle((0, 0), 1, 1, color=c, ec="0.5") for c in MODE_COLOURS.values()]
    strip.legend(handles, list(MODE_COLOURS), fontsize=7, loc="lower right", bbox_to_anchor=(1.0, 1.0), ncol=4)
    _left_out_bands(strip, comparison, fill=False, hatch="///", lw=0, ec="0.4", zorder=2)

    rows = comparison.rows
    _convergence_panel(
        in_alpha, [r for r in rows if r["alpha"] is not None], "alpha", "α", 1.0, comparison.orders["compliant_alpha"]
    )
    in_alpha.set_title("compliant → event-driven as α → ∞", fontsize=9)
    moreau = [r for r in rows if str(r["run"]).startswith("Moreau")]
    _convergence_panel(in_dt, moreau, "dt", "δt", -1.0, comparison.orders["moreau_jean_dt"])
    in_dt.set_title("Moreau–Jean → event-driven as δt → 0", fontsize=9)

    png = out_dir / f"{spec.study}.png"
    trajectories, convergence = out_dir / f"{spec.study}_trajectories.csv", out_dir / f"{spec.study}_convergence.csv"
    fig.savefig(png, dpi=110, bbox_inches="tight")
    plt.close(fig)
    _write_csv(comparison, trajectories, convergence)
    return [png, trajectories, convergence]


@figure("rigid_trajectories")
def rod_trajectories(out_dir: Path) -> list[Path]:
    """The Sec. 2.1 rod over 3 s."""
    return draw_trajectories(FIGURES["rigid_trajectories"], out_dir)


@figure("rigid_trajectories_two_point_rod")
def two_point_rod_trajectories(out_dir: Path) -> list[Path]:
    """The two-point rod landing and sliding flat."""
    return draw_trajectories(FIGURES["rigid_trajectories_two_point_rod"], out_dir)
