"""Fig. 12 of Champneys & Várkonyi (2016): phase portraits of the fast normal contact dynamics, k = q = −1.

Panels A–D slip forward (``u > 0``) in cases I(i–ii), I(iii), I(iv–v) and I(vi) of Table 3; panels E and F
start at rest (``u = 0``) with ``b > 0`` and ``p⁺ < 0``, outside the friction cone (lift-off only) and inside it
(indeterminacy between lift-off and stick). The caption places E and F in II(ii), the text in II(iii) with a
saddle ``S+`` and positive tangential acceleration right of the cone line; we follow the text (II(ii) is its
mirror image ``B → −B, u → −u``). At ``u = 0`` the field is stick left of the dashed cone line and slip
``S+`` right of it (:func:`regcontact.stability.fast_vector_field`).

Every trajectory of all six panels (orbits through a grid of points forwards and backwards, the saddles'
stable and unstable manifolds) comes from one vmapped diffrax call. Each panel's parameters are checked against
the classification (:func:`regcontact.stability.table_cell`, :func:`regcontact.stability.consistent_modes`)
before anything is drawn.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

from regcontact.figures import figure  # noqa: E402
from regcontact.stability import (  # noqa: E402
    FastScaleSystem,
    autodiff_eigenvalues,
    cell_label,
    consistent_modes,
    equilibrium_type,
    fast_trajectories,
    fast_vector_field,
    painleve_parameters,
    rigid_consistent_modes,
    slip_equilibrium,
    stick_equilibrium,
    table_cell,
)

__all__ = ["PANELS", "Panel", "draw", "panel_equilibria"]

WINDOW = ((-5.0, 3.0), (-4.0, 4.0))  # (ỹ range, ṽ range)
GRID = 6  # orbits through a GRID × GRID lattice of points, forwards and backwards
DURATION, ESCAPE_RADIUS, SAVES = 60.0, 12.0, 300
MANIFOLD_OFFSET = 1e-6


@dataclass(frozen=True)
class Panel:
    """One panel: the case it must lie in, the modes Table 3 must give, and its parameters."""

    letter: str
    cases: tuple[str, ...]
    modes: frozenset[str]
    a: float
    b: float
    mu: float
    slip_sign: float
    A: float = 1.0
    B: float = 0.5
    C: float = 1.0
    k: float = -1.0
    q: float = -1.0

    def system(self) -> FastScaleSystem:
        return FastScaleSystem(self.a, self.b, self.A, self.B, self.C, self.mu, self.slip_sign, self.k, self.q)

    def check_case(self) -> str:
        """The panel's cell of Table 3; raises if it or its consistent modes are not the intended ones."""
        arguments = (self.b, self.A, self.B, self.C, self.mu, self.slip_sign)
        cell = cell_label(table_cell(*arguments))
        modes = consistent_modes(self.a, *arguments).names()
        if cell not in self.cases or modes != self.modes:
            raise AssertionError(
                f"panel {self.letter}: cell {cell}, modes {set(modes)}; wanted {self.cases}, {set(self.modes)}"
            )
        return cell


PANELS = (
    Panel("A", ("I(i)", "I(ii)"), frozenset({"F"}), a=0.0, b=1.0, mu=0.6, slip_sign=1.0),
    Panel("B", ("I(iii)",), frozenset({"F", "IWC"}), a=0.0, b=1.0, mu=3.0, slip_sign=1.0),
    Panel("C", ("I(iv)", "I(v)"), frozenset({"S+"}), a=0.0, b=-1.0, mu=0.6, slip_sign=1.0),
    Panel("D", ("I(vi)",), frozenset({"IWC"}), a=0.0, b=-1.0, mu=3.0, slip_sign=1.0),
    Panel("E", ("II(iii)",), frozenset({"F"}), a=3.0, b=1.0, mu=3.0, slip_sign=0.0),
    Panel("F", ("II(iii)",), frozenset({"F", "T"}), a=6.0, b=1.0, mu=3.0, slip_sign=0.0),
)


@dataclass(frozen=True)
class MarkedEquilibrium:
    name: str
    penetration: float
    kind: str
    eigenvalues: np.ndarray
    real: bool  # consistent (in its own region); False: a virtual equilibrium of the other field


def panel_equilibria(panel: Panel) -> list[MarkedEquilibrium]:
    """Slip (and, at rest, stick) equilibria with positive normal force, checked against autodiff."""
    system = panel.system()
    rigid = rigid_consistent_modes(panel.a, panel.b, panel.A, panel.B, panel.C, panel.mu, panel.slip_sign)
    candidates = [("T", stick_equilibrium(system), bool(rigid.stick))] if panel.slip_sign == 0 else []
    for name, sign, consistent in (("S+", 1.0, rigid.slip_plus), ("S-", -1.0, rigid.slip_minus)):
        if panel.slip_sign in (0.0, sign):
            slipping = eqx.tree_at(lambda s: s.slip_sign, system, jnp.asarray(sign))
            candidates.append((name, slip_equilibrium(slipping), bool(consistent)))
    marked = []
    for name, equilibrium, real in candidates:
        if float(equilibrium.normal_force) <= 0:
            continue  # not an equilibrium at all: the contact is passive there
        eigenvalues = np.asarray(equilibrium.eigenvalues)
        if real:  # the closed form must match the Jacobian of the field that is actually integrated
            automatic = np.asarray(autodiff_eigenvalues(fast_vector_field, system, equilibrium.penetration))
            np.testing.assert_allclose(automatic, eigenvalues, rtol=1e-10, atol=1e-12)
        marked.append(
            MarkedEquilibrium(name, float(equilibrium.penetration), equilibrium_type(eigenvalues), eigenvalues, real)
        )
    return marked


def _manifold_starts(system: FastScaleSystem, saddle: MarkedEquilibrium) -> list[tuple[str, np.ndarray, float]]:
    """Points just off a saddle along its eigenvectors: stable ones integrated backwards, unstable forwards."""
    z0 = jnp.array([saddle.penetration, 0.0])
    jacobian = np.asarray(jax.jacfwd(lambda z: fast_vector_field(0.0, z, system))(z0))
    values, vectors = np.linalg.eig(jacobian)
    starts = []
    for value, vector in zip(values.real, vectors.T.real):
        kind, direction = ("stable manifold", -1.0) if value < 0 else ("unstable manifold", 1.0)
        starts += [(kind, np.asarray(z0) + sign * MANIFOLD_OFFSET * vector, direction) for sign in (1.0, -1.0)]
    return starts


def _all_trajectories(panels, equilibria) -> list[tuple[int, str, float, np.ndarray]]:
    """``(panel index, kind, direction, path)`` for every trajectory, integrated in one vmapped call."""
    (y_low, y_high), (v_low, v_high) = WINDOW
    ys, vs = np.linspace(y_low, y_high, GRID + 2)[1:-1], np.linspace(v_low, v_high, GRID + 2)[1:-1]
    lattice = [(y, v) for y in ys for v in vs]
    jobs = []
    for index, (panel, marked) in enumerate(zip(panels, equilibria)):
        system = panel.system()
        jobs += [(index, "orbit", direction, np.array(z)) for z in lattice for direction in (1.0, -1.0)]
        for saddle in (e for e in marked if e.real and e.kind == "saddle"):
            jobs += [(index, kind, direction, z) for kind, z, direction in _manifold_starts(system, saddle)]
    systems = jax.tree_util.tree_map(lambda *x: jnp.stack(x), *[panels[job[0]].system() for job in jobs])
    paths = fast_trajectories(
        systems,
        jnp.asarray(np.stack([job[3] for job in jobs])),
        jnp.asarray([job[2] for job in jobs]),
        jnp.asarray(DURATION),
        jnp.asarray(ESCAPE_RADIUS),
        SAVES,
    )
    return [(index, kind, direction, path) for (index, kind, direction, _), path in zip(jobs, np.asarray(paths))]


STYLE: dict[str, dict[str, Any]] = {
    "orbit": dict(color="0.45", lw=0.7),
    "stable manifold": dict(color="tab:red", lw=2.2),
    "unstable manifold": dict(color="tab:blue", lw=1.6, ls=(0, (6, 2))),
}
MARKERS = {"stable focus": "o", "stable node": "o", "saddle": "X", "unstable node": "s", "unstable focus": "s"}


def _arrow(axis: plt.Axes, path: np.ndarray, color: str) -> None:
    inside = path[
        (np.abs(path[:, 0] - np.mean(WINDOW[0])) < 0.5 * np.ptp(WINDOW[0])) & (np.abs(path[:, 1]) < WINDOW[1][1])
    ]
    if len(inside) > 6:
        middle = len(inside) // 2
        axis.annotate(
            "",
            xy=inside[middle + 1],
            xytext=inside[middle],
            arrowprops=dict(arrowstyle="-|>", color=color, lw=0.8, mutation_scale=9),
        )


def _draw_panel(axis: plt.Axes, panel: Panel, cell: str, marked, trajectories) -> None:
    (y_low, y_high), (v_low, v_high) = WINDOW
    y = np.linspace(y_low, y_high, 2)
    # Active region f_N > 0 shaded; the dotted border k ỹ + q ṽ = 0.
    border = -panel.k * y / panel.q
    axis.fill_between(y, border, v_low if panel.q < 0 else v_high, color="0.92", zorder=0)
    axis.plot(y, border, ":", color="k", lw=1.4)
    painleve = painleve_parameters(panel.A, panel.B, panel.C, panel.mu)
    if panel.slip_sign == 0:  # friction-cone line: λ_N = a / k⁺ (stick to its left, S+ slip to its right)
        cone_force = panel.a / float(painleve.k_plus)
        axis.plot(y, (cone_force - panel.k * y) / panel.q, "--", color="k", lw=1.4)
    for _, kind, direction, path in trajectories:
        finite = path[np.all(np.isfinite(path), axis=1)]
        axis.plot(finite[:, 0], finite[:, 1], **STYLE[kind], zorder=2 if kind == "orbit" else 3)
        if kind == "orbit" and direction > 0:
            _arrow(axis, finite, STYLE["orbit"]["color"])
    for order, equilibrium in enumerate(sorted(marked, key=lambda e: e.penetration)):
        axis.plot(
            equilibrium.penetration,
            0.0,
            MARKERS[equilibrium.kind],
            ms=10,
            zorder=5,
            mfc="k" if equilibrium.real else "white",
            mec="k",
        )
        label = f"{equilibrium.name}: {equilibrium.kind}" + ("" if equilibrium.real else " (virtual)")
        left = order == 0 and len(marked) > 1  # two labels: the left one goes below left, the other above right
        axis.annotate(
            label,
            (equilibrium.penetration, 0.0),
            xytext=(-6, -16) if left else (6, 8),
            textcoords="offset points",
            ha="right" if left else "left",
            fontsize=8,
            zorder=6,
            bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.8),
        )
    modes = ", ".join(sorted(panel.modes))  # checked against consistent_modes by Panel.check_case
    text = (
        f"a = {panel.a:g}, b = {panel.b:g}, A = {panel.A:g}, B = {panel.B:g}, C = {panel.C:g}, μ = {panel.mu:g}\n"
        f"p⁺ = {float(painleve.p_plus):g}, p⁻ = {float(painleve.p_minus):g}, k⁺ = {float(painleve.k_plus):g};"
        f" Table 3: {modes}"
    )
    axis.text(
        0.02,
        0.02,
        text,
        transform=axis.transAxes,
        fontsize=7.5,
        va="bottom",
        bbox=dict(boxstyle="round,pad=0.3", fc="white", ec="0.6", alpha=0.9),
        zorder=7,
    )
    axis.set_title(f"{panel.letter}: {cell}, {'u > 0' if panel.slip_sign > 0 else 'u = 0'}", fontsize=11)
    axis.set_xlim(y_low, y_high)
    axis.set_ylim(v_low, v_high)
    axis.set_xlabel("ỹ")
    axis.set_ylabel("ṽ")


@figure("champneys_fig12_fast_scale_portraits")
def draw(out_dir: Path) -> list[Path]:
    """Fig. 12 A–F: phase portraits, equilibria with their types, saddle manifolds; PNG and CSVs."""
    out_dir.mkdir(parents=True, exist_ok=True)
    cells = [panel.check_case() for panel in PANELS]
    equilibria = [panel_equilibria(panel) for panel in PANELS]
    trajectories = _all_trajectories(PANELS, equilibria)
    figure_, axes = plt.subplots(2, 3, figsize=(15, 9.5), constrained_layout=True)
    for index, (axis, panel) in enumerate(zip(axes.flat, PANELS)):
        _draw_panel(axis, panel, cells[index], equilibria[index], [t for t in trajectories if t[0] == index])
    legend = [
        Line2D([], [], **STYLE["orbit"], label="trajectory"),
        Line2D([], [], **STYLE["stable manifold"], label="stable manifold of the saddle"),
        Line2D([], [], **STYLE["unstable manifold"], label="unstable manifold of the saddle"),
        Line2D([], [], ls=":", color="k", label="border active / passive contact (k ỹ + q ṽ = 0)"),
        Line2D([], [], ls="--", color="k", label="friction-cone edge λ_N = a/k⁺ (u = 0)"),
        Line2D([], [], marker="o", ls="", color="k", label="stable equilibrium"),
        Line2D([], [], marker="X", ls="", color="k", label="saddle"),
        Line2D([], [], marker="o", ls="", mfc="white", mec="k", label="virtual (outside its region)"),
    ]
    figure_.legend(handles=legend, loc="outside lower center", ncol=4, fontsize=9)
    figure_.suptitle(
        "Fast-scale normal contact dynamics, f_N = max(kỹ + qṽ, 0), k = q = −1 (Champneys & Várkonyi Fig. 12)"
    )
    png = out_dir / "champneys_fig12_fast_scale_portraits.png"
    figure_.savefig(png, dpi=110)
    plt.close(figure_)
    return [png, *_write_data(out_dir, cells, equilibria, trajectories)]


def _write_data(out_dir: Path, cells, equilibria, trajectories) -> list[Path]:
    panels_csv = out_dir / "champneys_fig12_fast_scale_portraits_panels.csv"
    with panels_csv.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["panel", "cell", "a", "b", "A", "B", "C", "mu", "slip_sign", "k", "q", "table3_modes"])
        for panel, cell in zip(PANELS, cells):
            writer.writerow(
                [
                    panel.letter,
                    cell,
                    panel.a,
                    panel.b,
                    panel.A,
                    panel.B,
                    panel.C,
                    panel.mu,
                    panel.slip_sign,
                    panel.k,
                    panel.q,
                    " ".join(sorted(panel.modes)),
                ]
            )
    equilibria_csv = out_dir / "champneys_fig12_fast_scale_portraits_equilibria.csv"
    with equilibria_csv.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["panel", "mode", "penetration", "type", "real", "eigenvalue_1", "eigenvalue_2"])
        for panel, marked in zip(PANELS, equilibria):
            for e in marked:
                writer.writerow([panel.letter, e.name, e.penetration, e.kind, e.real, *map(complex, e.eigenvalues)])
    trajectories_csv = out_dir / "champneys_fig12_fast_scale_portraits_trajectories.csv"
    (y_low, y_high), (v_low, v_high) = WINDOW
    with trajectories_csv.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["panel", "trajectory", "kind", "time_direction", "y", "v"])
        for number, (index, kind, direction, path) in enumerate(trajectories):
            shown = path[np.all(np.isfinite(path), axis=1)]
            near = (shown[:, 0] >= y_low - 1) & (shown[:, 0] <= y_high + 1) & (np.abs(shown[:, 1]) <= v_high + 1)
            shown = shown[near]
            writer.writerows((PANELS[index].letter, number, kind, direction, f"{y:.5g}", f"{v:.5g}") for y, v in shown)
    return [panels_csv, equilibria_csv, trajectories_csv]
