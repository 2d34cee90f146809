"""Beyond the jam (Champneys & Várkonyi Sec. 5.1's open question): the compliant model run through the G-spot of
the jamming rods G1 and G2 with three normal laws, one vmap over α per law; the excess normal impulse and slip
against time, and the lift-off lag, impulse and velocities against α (``docs/dynamic_jam.md``)."""

from __future__ import annotations

import csv
import functools
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from regcontact.contact import ChampneysFastScale, ContactModel, HuntCrossley, SpringDamper
from regcontact.figures import figure
from regcontact.passages import BEYOND_JAM_OUTCOMES, BeyondJam, JamPassage, pass_through
from regcontact.rigid import JamReference, jam_reference, search_jamming_rod

__all__ = ["ALPHAS", "LAWS", "beyond_jam_runs"]

#: The stiffness multipliers run.
ALPHAS = (1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10)

#: The normal laws, by label, with their default α-exponents (Eq. 22: k, γ ∝ α; Eq. 31: k ∝ α, q ∝ √α;
#: Hunt–Crossley: k ∝ α, n = 3/2 and c = 1 fixed).
LAWS = {
    # equinox uses the __init__ these laws inherit; mypy's dataclass model generates one of its own.
    "Eq. 22 (spring-damper)": SpringDamper(),  # type: ignore[call-arg]
    "Eq. 31 (Champneys)": ChampneysFastScale(),  # type: ignore[call-arg]
    "Hunt–Crossley": HuntCrossley(),
}

OUTCOME_MARKERS = {"jump_into_stick": "o", "impact_in_slip": "s", "lift_off": "^", "stays_in_contact": "D"}
LAW_COLOURS = dict(zip(LAWS, ("#1b9e77", "#d95f02", "#7570b3")))


@functools.cache
def beyond_jam_runs(alphas: tuple[float, ...] = ALPHAS) -> dict[str, tuple[JamReference, dict]]:
    """Per case: the rigid reference and, per law label, its passage and classification."""
    runs: dict[str, tuple[JamReference, dict]] = {}
    for case in ("G1", "G2"):
        rod = search_jamming_rod(case).rod
        reference = jam_reference(rod)
        per_law = {}
        for label, law in LAWS.items():
            passage = pass_through(rod, ContactModel(normal=law), np.asarray(alphas), reference)
            per_law[label] = (passage, passage.classify(rod, reference))
        runs[case] = (reference, per_law)
    return runs


def _alpha_colours(count: int) -> list:
    from matplotlib import colormaps

    return [colormaps["viridis"](x) for x in np.linspace(0, 0.9, count)]


@figure("beyond_jam_time_series")
def draw_time_series(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    runs = beyond_jam_runs()
    fig = Figure(figsize=(15, 13))
    FigureCanvasAgg(fig)
    colours = _alpha_colours(len(ALPHAS))
    for k, (case, (reference, per_law)) in enumerate(runs.items()):
        jump = float(reference.jump.normal_impulse)
        for j, (label, (passage, result)) in enumerate(per_law.items()):
            impulse_axis = fig.add_subplot(4, 3, 6 * k + j + 1)
            slip_axis = fig.add_subplot(4, 3, 6 * k + j + 4)
            _draw_series(impulse_axis, slip_axis, passage, result, reference, colours)
            impulse_axis.axhline(jump, color="black", ls="--", lw=1)
            impulse_axis.set_title(f"{case}, {label}: excess normal impulse", fontsize=9)
            slip_axis.set_title(f"{case}, {label}: slip ġ_t", fontsize=9)
    handles = [Line2D([], [], color=c, lw=1.5, label=f"α = {a:.0e}") for c, a in zip(colours, ALPHAS)]
    handles.append(Line2D([], [], color="black", ls="--", lw=1, label="rigid jump into stick I*"))
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=8)
    fig.suptitle(
        "Compliant runs through the G-spot (t_jam): P_n(t) − P_rigid(t_jam) and ġ_t against t − t_jam, "
        "to lift-off (symmetric-log time axis, linear within 1e-6)",
        fontsize=10,
    )
    fig.tight_layout(rect=(0, 0.03, 1, 0.97))
    png = out_dir / "beyond_jam_time_series.png"
    fig.savefig(png, dpi=100)
    data = out_dir / "beyond_jam_time_series.csv"
    with data.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["case", "law", "alpha", "t_minus_t_jam", "excess_normal_impulse", "lambda_n", "slip"])
        for case, (reference, per_law) in runs.items():
            for label, (passage, _) in per_law.items():
                for i, alpha in enumerate(ALPHAS):
                    times = np.asarray(passage.times[i]) - reference.t_jam
                    excess = np.asarray(passage.normal_impulse[i]) - reference.impulse[0]
                    forces = np.asarray(passage.forces[i])
                    slips = np.asarray(passage.rates[i])[:, 1]
                    for row in zip(times, excess, forces[:, 0], slips):
                        writer.writerow([case, label, alpha, *(f"{x:.10g}" for x in row)])
    return [png, data]


def _draw_series(impulse_axis, slip_axis, passage: JamPassage, result: BeyondJam, reference, colours) -> None:
    for i, colour in enumerate(colours):
        times = np.asarray(passage.times[i]) - reference.t_jam
        excess = np.asarray(passage.normal_impulse[i]) - reference.impulse[0]
        slips = np.asarray(passage.rates[i])[:, 1]
        style = "-" if result.outcome[i] != BEYOND_JAM_OUTCOMES.index("failed") else ":"
        impulse_axis.plot(times, excess, style, color=colour, lw=1.3)
        slip_axis.plot(times, slips, style, color=colour, lw=1.3)
    for axis in (impulse_axis, slip_axis):
        axis.set_xscale("symlog", linthresh=1e-6)
        axis.axvline(0, color="grey", lw=0.8)
        axis.set_xlabel("t − t_jam")
        axis.tick_params(labelsize=7)
    slip_axis.axhline(0, color="grey", lw=0.8)
    slip_axis.axhline(float(reference.jump.slip_before), color="black", ls=":", lw=1)


@figure("beyond_jam_convergence")
def draw_convergence(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    runs = beyond_jam_runs()
    fig = Figure(figsize=(15, 8.5))
    FigureCanvasAgg(fig)
    rows = []
    for k, (case, (reference, per_law)) in enumerate(runs.items()):
        jump = float(reference.jump.normal_impulse)
        axes = [fig.add_subplot(2, 3, 3 * k + j + 1) for j in range(3)]
        for label, (_, result) in per_law.items():
            alpha = result.alpha
            measures = (np.abs(result.lag), np.abs(result.impulse[:, 0] - jump), result.velocity_error)
            for axis, values in zip(axes, measures):
                axis.loglog(alpha, values, color=LAW_COLOURS[label], lw=1, alpha=0.6)
                for name, marker in OUTCOME_MARKERS.items():
                    mine = np.array(result.outcome_names) == name
                    axis.loglog(alpha[mine], values[mine], marker, color=LAW_COLOURS[label], ms=6, ls="none")
            rows += _csv_rows(case, label, result, jump)
        titles = (
            "|t_lift-off − t_jam|",
            "|ΔP_n − I*|: excess normal impulse against the rigid jump",
            "max |v_end − v⁺|: velocities against the rigid jump",
        )
        for axis, title in zip(axes, titles):
            axis.set_title(f"{case}: {title}", fontsize=9)
            axis.set_xlabel("α")
            axis.grid(True, which="major", lw=0.3)
    handles = [Line2D([], [], color=c, lw=2, label=label) for label, c in LAW_COLOURS.items()]
    handles += [
        Line2D([], [], marker=m, color="grey", ls="none", label=name.replace("_", " "))
        for name, m in OUTCOME_MARKERS.items()
    ]
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=8)
    fig.suptitle("What follows the jam, against α: markers give the outcome of each run", fontsize=10)
    fig.tight_layout(rect=(0, 0.04, 1, 0.96))
    png = out_dir / "beyond_jam_convergence.png"
    fig.savefig(png, dpi=100)
    data = out_dir / "beyond_jam_convergence.csv"
    with data.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(
            ["case", "law", "alpha", "outcome", "lag", "normal_impulse", "tangential_impulse", "rigid_jump"]
            + ["impulse_time", "slip_before", "slip_after", "normal_velocity_before", "normal_velocity_after"]
            + ["velocity_error"]
        )
        writer.writerows(rows)
    return [png, data]


def _csv_rows(case: str, label: str, result: BeyondJam, jump: float) -> list[list]:
    return [
        [case, label, f"{result.alpha[i]:.0e}", result.outcome_names[i]]
        + [
            f"{x:.8g}"
            for x in (
                result.lag[i],
                result.impulse[i, 0],
                result.impulse[i, 1],
                jump,
                result.impulse_time[i],
                result.slip_before[i],
                result.slip_after[i],
                result.normal_velocity_before[i],
                result.normal_velocity_after[i],
                result.velocity_error[i],
            )
        ]
        for i in range(len(result.alpha))
    ]
