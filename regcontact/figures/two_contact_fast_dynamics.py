"""Fig. 15 A–B and Table 4 of Champneys & Várkonyi (2016, Sec. 6): two forward-slipping contacts.

**Fig. 15.** The fast normal dynamics of two contacts with the contact law (31) at each
(:func:`regcontact.stability.two_contact_vector_field`), projected on the penetrations ``(ỹ₁, ỹ₂)``:

* **A** (class 261, ``S+S+`` the unique consistent mode but unstable): orbits from rest (``ṽ = 0``) at many
  penetrations; each ends with one contact driven to ``ỹ → −∞`` (an IWC) while the other lifts off. The
  background colours every initial penetration of a fine grid by its outcome (``IF`` or ``FI``); the border is
  the trace of the stable manifold of ``S+S+`` (the square), whose linearisation is drawn dashed.
* **B** (class 142, ``S+S+`` the only consistent mode, unstable; ``IF`` and ``FI`` impossible, only the
  necessary condition of ``II`` holds, as in all of class 14): the orbit from ``ỹ = ṽ = 0`` settles on a limit
  cycle along which contact 2 repeatedly lifts off and lands again while contact 1 keeps slipping (drawn in the
  ``(ỹ₁, ỹ₂)`` plane and against time).

The caption's symbols are not those of Eqs. 8–10: its ``B = [[·]ᵀ [·]ᵀ]`` lists the columns ``p₁, p₂`` of
``p⁺`` and its ``a`` is ``−b`` (its angle ``α`` is ``β``). That reading reproduces the printed ``γ₁, γ₂, α`` and
the stated classes (261 and 142; with ``a = b`` they would be 264 and 145). Two entries of caption B are not
used as printed: ``k₁ = 1, k₂ = 3, q₁ = q₂ = 1.2`` are positive, but Eq. 31 needs ``k, q < 0`` (properties 3–4;
A uses ``k = q = −1``), so we take ``k = (−1, −3), q = −1.2``; and ``p₂₂ = −0.0375`` gives ``γ₂ = 1.007π``, not
the printed ``1.07π``, and a *stable* ``S+S+`` focus, contradicting the text, while ``p₂₂ = −0.375`` gives
``γ₂ = 1.070π``, an unstable ``S+S+`` and the limit cycle the text describes. Panel B uses ``−0.375``; the
literal value is drawn as panel B′. Every trajectory of all panels is one vmapped diffrax call.

**Table 4.** :func:`regcontact.stability.two_contact.recompute_table4` for all 24 classes, compared with the
printed rows (:func:`~regcontact.stability.two_contact.compare_with_printed`); CSV and a PNG rendering with the
paper's shading convention (grey: unstable, yellow: depends on ``p⁺`` and the contact law, none: stable).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

import jax
import jax.numpy as jnp
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import ListedColormap  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from regcontact.figures import figure  # noqa: E402
from regcontact.stability.two_contact import (  # noqa: E402
    IMPACT_NAMES,
    PRINTED_TABLE4,
    TWO_CONTACT_MODE_NAMES,
    TwoContactSystem,
    class_code,
    class_label,
    compare_with_printed,
    impacts_without_collision,
    recompute_table4,
    slip_slip_equilibrium,
    slip_slip_jacobian,
    two_contact_autodiff_eigenvalues,
    two_contact_modes,
    two_contact_trajectories,
)

__all__ = [
    "FIG15_PANELS",
    "Fig15Panel",
    "Fig15Data",
    "compute_fig15",
    "draw",
    "draw_fig15",
    "draw_table4",
    "write_table4",
]

FIG15_NAME = "champneys_fig15_two_contact_fast_dynamics"
TABLE4_NAME = "champneys_table4_two_contact_classes"


@dataclass(frozen=True)
class Fig15Panel:
    """One panel of Fig. 15: the subclass the caption names, ``b``, ``p⁺`` (rows), the contact laws, and the
    caption's angles ``γ₁/π, γ₂/π, α/π``."""

    letter: str
    subclass: str
    b: tuple[float, float]
    painleve: tuple[tuple[float, float], tuple[float, float]]
    k: tuple[float, float]
    q: tuple[float, float]
    caption_angles: tuple[float, float, float]
    note: str

    def system(self) -> TwoContactSystem:
        return TwoContactSystem(np.asarray(self.b), np.asarray(self.painleve), np.asarray(self.k), np.asarray(self.q))

    def angles(self) -> tuple[float, float, float]:
        """``γ₁/π, γ₂/π, β/π`` of the parameters used."""
        p = np.asarray(self.painleve)
        angle = lambda x, y: float(np.mod(np.arctan2(y, x), 2 * np.pi) / np.pi)  # noqa: E731
        return angle(p[0, 0], p[1, 0]), angle(p[0, 1], p[1, 1]), angle(-self.b[0], -self.b[1])


FIG15_PANELS = (
    Fig15Panel(
        "A",
        "261",
        b=(-1.0, -1.0),
        painleve=((-0.055, 0.088), (0.055, -0.036)),
        k=(-1.0, -1.0),
        q=(-1.0, -1.0),
        caption_angles=(0.75, 1.875, 0.25),
        note="caption A; b = −a",
    ),
    Fig15Panel(
        "B",
        "142",
        b=(-1.0, -0.727),
        painleve=((3.051, -1.677), (1.555, -0.375)),
        k=(-1.0, -3.0),
        q=(-1.2, -1.2),
        caption_angles=(0.15, 1.07, 0.2),
        note="caption B; b = −a; k, q negated; p22 = −0.375 (printed −0.0375), matching γ2 = 1.07π",
    ),
    Fig15Panel(
        "B′",
        "142",
        b=(-1.0, -0.727),
        painleve=((3.051, -1.677), (1.555, -0.0375)),
        k=(-1.0, -3.0),
        q=(-1.2, -1.2),
        caption_angles=(0.15, 1.07, 0.2),
        note="caption B literally (p22 = −0.0375); k, q negated",
    ),
)

WINDOW_A = ((-110.0, 30.0), (-110.0, 30.0))  # (ỹ₁, ỹ₂) range of panel A
GRID, LATTICE = 41, 7  # outcome grid and drawn orbits of panel A, per side
ESCAPE_RADIUS = 1000.0
A_WINDOW_TIME = 80.0
B_DURATION, B_CYCLE_WINDOW, B_LITERAL_DURATION = 300.0, 25.0, 120.0
SAVES = 1000


@dataclass
class Fig15Data:
    """Everything Fig. 15 draws: the checked panel facts and the trajectories."""

    facts: list[dict]
    grid_points: np.ndarray  # (m, 2) initial penetrations of panel A's outcome grid
    grid_outcomes: list[str]
    orbits: list[tuple[str, str, np.ndarray, np.ndarray]] = field(default_factory=list)  # (panel, outcome, t, z)


def _outcome(final: np.ndarray) -> str:
    """``"IF"``/``"FI"``: which contact was driven to ``ỹ → −∞`` (the other lifting off), else ``"none"``."""
    y = final[:2]
    if not np.all(np.isfinite(final)) or y.min() > -0.5 * ESCAPE_RADIUS:
        return "none"
    return "IF" if y[0] < y[1] else "FI"


def panel_facts(panel: Fig15Panel) -> dict:
    """Class, consistent modes, IWCs and the ``S+S+`` equilibrium with eigenvalues (closed form and autodiff)."""
    system = panel.system()
    equilibrium = slip_slip_equilibrium(system)
    z0 = jnp.concatenate([equilibrium.penetration, jnp.zeros(2)])
    automatic = np.asarray(two_contact_autodiff_eigenvalues(system, z0))
    closed = np.asarray(equilibrium.eigenvalues)
    np.testing.assert_allclose(automatic, closed, rtol=1e-10, atol=1e-12)
    return dict(
        panel=panel.letter,
        subclass=class_label(class_code(system.painleve, system.b)),
        angles=panel.angles(),
        modes=two_contact_modes(system.painleve, system.b).names(),
        impacts=impacts_without_collision(system.painleve).names(),
        penetration=np.asarray(equilibrium.penetration),
        normal_force=np.asarray(equilibrium.normal_force),
        exists=bool(equilibrium.exists),
        stable=bool(equilibrium.stable),
        eigenvalues=closed,
        autodiff_eigenvalues=automatic,
    )


def _stable_manifold_line(panel: Fig15Panel, penetration: np.ndarray) -> np.ndarray:
    """Direction in ``(ỹ₁, ỹ₂)`` of the linearised stable manifold of a saddle-type ``S+S+`` within ``ṽ = 0``:
    orthogonal to the ``ỹ`` part of the left eigenvector of the unstable eigenvalue."""
    jacobian = np.asarray(slip_slip_jacobian(jnp.asarray(panel.painleve), jnp.asarray(panel.k), jnp.asarray(panel.q)))
    values, left = np.linalg.eig(jacobian.T)
    normal = left[:, np.argmax(values.real)].real[:2]
    return np.array([-normal[1], normal[0]]) / np.linalg.norm(normal)


def compute_fig15(grid: int = GRID, lattice: int = LATTICE) -> Fig15Data:
    """Panel facts and all trajectories (panel A's grid and orbits, B, B′) in one vmapped call."""
    facts = [panel_facts(panel) for panel in FIG15_PANELS]
    (y1_low, y1_high), (y2_low, y2_high) = WINDOW_A
    grid_points = np.array(
        [(y1, y2) for y1 in np.linspace(y1_low, y1_high, grid) for y2 in np.linspace(y2_low, y2_high, grid)]
    )
    inset = lambda low, high: np.linspace(low, high, lattice + 2)[1:-1]  # noqa: E731
    orbit_points = np.array([(y1, y2) for y1 in inset(y1_low, y1_high) for y2 in inset(y2_low, y2_high)])
    jobs = [("grid", 0, np.array([y1, y2, 0.0, 0.0]), (0.0, A_WINDOW_TIME)) for y1, y2 in grid_points]
    jobs += [("A", 0, np.array([y1, y2, 0.0, 0.0]), (0.0, A_WINDOW_TIME)) for y1, y2 in orbit_points]
    origin = np.zeros(4)
    jobs += [
        ("B", 1, origin, (0.0, B_DURATION)),
        ("B cycle", 1, origin, (B_DURATION - B_CYCLE_WINDOW, B_DURATION)),
        ("B′", 2, origin, (0.0, B_LITERAL_DURATION)),
    ]
    systems = jax.tree_util.tree_map(lambda *x: jnp.stack(x), *[FIG15_PANELS[job[1]].system() for job in jobs])
    solved_times, solved_states = two_contact_trajectories(
        systems,
        jnp.asarray(np.stack([job[2] for job in jobs])),
        jnp.asarray(np.array([job[3] for job in jobs])),
        jnp.asarray(ESCAPE_RADIUS),
        SAVES,
    )
    times, states = np.asarray(solved_times), np.asarray(solved_states)
    data = Fig15Data(facts=facts, grid_points=grid_points, grid_outcomes=[])
    for (kind, _, _, _), t, z in zip(jobs, times, states):
        finite = np.all(np.isfinite(z), axis=1) & np.isfinite(t)
        t, z = t[finite], z[finite]
        outcome = _outcome(z[-1])
        if kind == "grid":
            data.grid_outcomes.append(outcome)
        else:
            data.orbits.append((kind, outcome, t, z))
    return data


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
    direction = _stable_manifold_line(panel, facts["penetration"])
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


# ---------------------------------------------------------------------------------------------------------------
# Table 4
# ---------------------------------------------------------------------------------------------------------------

SHADES = {"unstable": "0.72", "depends": "#fff3a0", "stable": "white"}


def _cell_shade(result, mode: str) -> str:
    if mode == "S+S+":
        return SHADES[result.slip_slip_stability]
    if mode == "S+F":
        return SHADES["stable" if result.slip_free_stable else "unstable"]
    if mode == "FS+":
        return SHADES["stable" if result.free_slip_stable else "unstable"]
    return "white"


@figure(TABLE4_NAME)
def draw_table4(out_dir: Path) -> list[Path]:
    """Table 4 recomputed: CSV of all 24 classes and of the 144 subclasses, and a PNG of the printed rows."""
    return write_table4(out_dir, recompute_table4())


def write_table4(out_dir: Path, classes) -> list[Path]:
    """CSVs and PNG of Table 4 from :func:`~regcontact.stability.two_contact.recompute_table4`'s classes."""
    out_dir.mkdir(parents=True, exist_ok=True)
    comparisons = {c.name: c for c in compare_with_printed(classes)}
    printed = {row.name: row for row in PRINTED_TABLE4}
    table_csv = out_dir / f"{TABLE4_NAME}.csv"
    with table_csv.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(
            [
                "class",
                "dual",
                "printed_row",
                *TWO_CONTACT_MODE_NAMES,
                *IMPACT_NAMES,
                "slip_slip_stability",
                "slip_slip_stable_fraction",
                "slip_slip_stability_k_q_minus_1",
                "slip_slip_law_dependent",
                "slip_free_stable",
                "free_slip_stable",
                "printed_mode_digits",
                "printed_impact_marks",
                "dual_agrees",
                "modes_agree",
                "mode_readings",
                "impacts_agree",
                "impact_readings",
            ]
        )
        for result in classes:
            row, comparison = printed.get(result.name), comparisons.get(result.name)
            check = (
                [
                    row.mode_digits,
                    row.impact_marks,
                    comparison.dual_agrees,
                    comparison.modes_agree,
                    comparison.mode_readings,
                    comparison.impacts_agree,
                    comparison.impact_readings,
                ]
                if row and comparison
                else ["", "", "", "", "", "", ""]
            )
            writer.writerow(
                [
                    result.name,
                    result.dual,
                    row is not None,
                    *(" ".join(map(str, result.mode_column(mode))) for mode in TWO_CONTACT_MODE_NAMES),
                    *(
                        {"IF": "x", "FI": "x", "II": "(x)"}[name] if name in result.impacts else ""
                        for name in IMPACT_NAMES
                    ),
                    result.slip_slip_stability,
                    f"{result.slip_slip_stable_fraction:.3f}",
                    result.slip_slip_stable_paper_law,
                    result.law_dependent,
                    result.slip_free_stable,
                    result.free_slip_stable,
                    *check,
                ]
            )
    subclasses_csv = out_dir / f"{TABLE4_NAME}_subclasses.csv"
    with subclasses_csv.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(
            [
                "subclass",
                "samples",
                "modes_same_for_all_samples",
                "consistent_modes",
                "example_p11",
                "example_p12",
                "example_p21",
                "example_p22",
                "example_b1",
                "example_b2",
            ]
        )
        for result in classes:
            for sub in result.subclasses:
                writer.writerow(
                    [
                        sub.name,
                        sub.samples,
                        sub.uniform,
                        " ".join(m for m in TWO_CONTACT_MODE_NAMES if m in sub.modes),
                        *(f"{x:.6g}" for x in sub.example_painleve.ravel()),
                        *(f"{x:.6g}" for x in sub.example_b),
                    ]
                )
    png = out_dir / f"{TABLE4_NAME}.png"
    _draw_table4_png(png, classes, comparisons)
    return [png, table_csv, subclasses_csv]


def _draw_table4_png(png: Path, classes, comparisons) -> None:
    by_name = {c.name: c for c in classes}
    header = ["class (dual)", *TWO_CONTACT_MODE_NAMES, *IMPACT_NAMES, "vs. the printed row"]
    cells, colours = [], []
    for row in PRINTED_TABLE4:
        result, comparison = by_name[row.name], comparisons[row.name]
        dual = "self" if result.dual == result.name else result.dual
        columns = [" ".join(map(str, result.mode_column(mode))) for mode in TWO_CONTACT_MODE_NAMES]
        impacts = [{"IF": "x", "FI": "x", "II": "(x)"}[name] if name in result.impacts else "" for name in IMPACT_NAMES]
        agree = comparison.dual_agrees and comparison.modes_agree and comparison.impacts_agree
        verdict = ("agrees" if agree else "DIFFERS") + (
            ""
            if comparison.mode_readings == 1 and comparison.impact_readings == 1
            else f" ({comparison.mode_readings} × {comparison.impact_readings} readings)"
        )
        cells.append([f"{row.name} ({dual})", *columns, *impacts, verdict])
        colours.append(
            [
                "white",
                *(
                    _cell_shade(result, mode) if column else "white"
                    for mode, column in zip(TWO_CONTACT_MODE_NAMES, columns)
                ),
                "white",
                "white",
                "white",
                "white" if agree else "#f4a6a6",
            ]
        )
    figure_, axis = plt.subplots(figsize=(11, 6.4))
    axis.axis("off")
    table = axis.table(cellText=cells, cellColours=colours, colLabels=header, loc="center", cellLoc="center")
    table.auto_set_font_size(False)
    table.set_fontsize(9)
    table.scale(1.0, 1.35)
    widths = [0.1, 0.085, 0.085, 0.085, 0.085, 0.055, 0.055, 0.055, 0.22]
    for (r, c), cell in table.get_celld().items():
        cell.set_width(widths[c])
        if r == 0:
            cell.set_text_props(weight="bold")
    axis.set_title(
        "Table 4 recomputed (Champneys & Várkonyi, Sec. 6): classes of two forward-slipping contacts\n"
        "mode columns: the s₃ where the mode is consistent; shading: grey unstable, yellow depends on p⁺ and the "
        "contact law, white normally stable;\nIF, FI: x; II: (x), the necessary condition only. Last column: the "
        "printed row (text extraction) against ours;\n'readings': ways the printed run-together digits × marks "
        "split into columns (ours is one of them)",
        fontsize=9.5,
    )
    figure_.savefig(png, dpi=110, bbox_inches="tight")
    plt.close(figure_)
