"""Figures 3, 4 and 5 of Preclik & Rüde: the solution spaces of the impulse-velocity and time-stepping LCPs.

Each picture is the plane of impulses ``Λ = (Λ_n, Λ_t)`` (for time-stepping ``δt λ̃``) with

- the *Signorini line* (dark blue): for every ``Λ_t``, the ``Λ_n ≥ 0`` that satisfies the normal condition
  ``u_n ≥ 0 ⊥ Λ_n ≥ 0``, i.e. ``Λ_n = max(0, −(b_n + W_nt Λ_t)/W_nn)``;
- the *Coulomb line* (light blue): for every ``Λ_n ≥ 0``, the ``Λ_t`` that satisfies the friction box,
  ``Λ_t = clip(−(b_t + W_tn Λ_n)/W_tt, −μΛ_n, μΛ_n)``;
- the friction cone ``|Λ_t| = μ Λ_n`` (black) and isolines of the kinetic energy after the impulse;
- every solution of the LCP (the intersections of the two lines), marked and labelled with its mode.

Here ``u = W Λ + b`` is the contact velocity after the impulse. The data behind each picture is written as
CSV next to it.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from numpy.typing import NDArray

from regcontact.figures import figure
from regcontact.rigid import ContactSolutions, ContactState, impulse_velocity, time_stepping, torque_threshold
from regcontact.systems.rod import PainleveRod

__all__ = ["SolutionSpace", "solution_space"]

TIME_STEP = 0.01  # δt of Secs. 4.1 and 4.2
#: Marker, colour and name of each contact mode (one contact: the papers' words).
MODE_STYLE = {
    "F": ("o", "#7b3294", "opening"),
    "S+": ("s", "#0571b0", "sliding"),
    "S-": ("s", "#0571b0", "sliding"),
    "T": ("D", "#ca0020", "sticking"),
}


@dataclass(frozen=True)
class SolutionSpace:
    """What one solution-space picture shows: ``u = W Λ + b``, the velocity before any impulse
    (``free_velocity``: ``v`` for impulse-velocity, ``v + δt M⁻¹ f`` for time-stepping) and the solutions."""

    title: str
    state: ContactState
    delassus: NDArray[np.float64]
    free: NDArray[np.float64]
    free_velocity: NDArray[np.float64]
    solutions: ContactSolutions

    def kinetic_energy(self, impulse_n: NDArray[np.float64], impulse_t: NDArray[np.float64]) -> NDArray[np.float64]:
        """``½ v⁺ᵀ M v⁺`` with ``v⁺ = v_free + M⁻¹ Jᵀ Λ``, on a grid of impulses."""
        impulses = np.stack([impulse_n, impulse_t], axis=-1)
        response = np.linalg.solve(self.state.mass_matrix, self.state.jacobian_matrix.T).T  # rows: M⁻¹ Jᵀ e_k
        velocity = self.free_velocity + impulses @ response
        return 0.5 * np.einsum("...i,ij,...j->...", velocity, self.state.mass_matrix, velocity)

    def signorini_line(self, impulse_t: NDArray[np.float64]) -> NDArray[np.float64]:
        """``Λ_n(Λ_t)`` satisfying the normal complementarity."""
        W, b = self.delassus, self.free
        return np.maximum(0.0, -(b[0] + W[0, 1] * impulse_t) / W[0, 0])

    def coulomb_line(self, impulse_n: NDArray[np.float64]) -> NDArray[np.float64]:
        """``Λ_t(Λ_n)`` satisfying the friction box."""
        W, b, mu = self.delassus, self.free, self.state.mu[0]
        return np.clip(-(b[1] + W[1, 0] * impulse_n) / W[1, 1], -mu * impulse_n, mu * impulse_n)


def solution_space(state: ContactState, dt: float | None = None) -> SolutionSpace:
    """The impulse-velocity solution space of ``state`` (``dt`` None) or that of one time step ``dt``."""
    W = state.delassus
    if dt is None:
        return SolutionSpace(
            "impulse-velocity", state, W, state.contact_velocity[0], state.velocity, impulse_velocity(state)
        )
    free_velocity = state.velocity + dt * np.linalg.solve(state.mass_matrix, state.applied_force)
    free = state.jacobian_matrix @ free_velocity + np.array([state.gaps[0] / dt, 0.0])
    return SolutionSpace(f"time-stepping, δt = {dt:g}", state, W, free, free_velocity, time_stepping(state, dt))


def paper_rod(non_unique: bool) -> ContactState:
    """The rod of Sec. 2.1, or with the torque of Sec. 2.2 (``τ = 2 f_y I/(m l cos φ) − 1``)."""
    phi = np.pi / 3
    torque = torque_threshold(phi) - 1.0 if non_unique else 0.0
    return ContactState.from_system(PainleveRod(mu=1.5, phi0=phi, vx0=-1.0, torque=torque))


@figure("preclik_fig3_impulse_velocity_solutions")
def draw_fig3(out_dir: Path) -> list[Path]:
    """Fig. 3: impulse-velocity LCP of Sec. 3.1 (two solutions; the steepest-descent arrow at Λ = 0)."""
    space = solution_space(paper_rod(non_unique=False))
    return _draw(
        space, out_dir, "preclik_fig3_impulse_velocity_solutions", "Fig. 3: impulse-velocity LCP, Sec. 3.1", True
    )


@figure("preclik_fig4_time_stepping_one_solution")
def draw_fig4(out_dir: Path) -> list[Path]:
    """Fig. 4: time-stepping LCP of Sec. 4.1, δt = 0.01 (a single, impulsive solution)."""
    space = solution_space(paper_rod(non_unique=False), TIME_STEP)
    return _draw(space, out_dir, "preclik_fig4_time_stepping_one_solution", "Fig. 4: time-stepping LCP, Sec. 4.1")


@figure("preclik_fig5_time_stepping_three_solutions")
def draw_fig5(out_dir: Path) -> list[Path]:
    """Fig. 5: time-stepping LCP of Sec. 4.2, δt = 0.01 (three solutions: opening, sliding, sticking)."""
    space = solution_space(paper_rod(non_unique=True), TIME_STEP)
    return _draw(space, out_dir, "preclik_fig5_time_stepping_three_solutions", "Fig. 5: time-stepping LCP, Sec. 4.2")


def _draw(space: SolutionSpace, out_dir: Path, name: str, title: str, descent_arrow: bool = False) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    reactions = space.solutions.reactions
    top = 1.4 * max(np.abs(reactions).max(initial=0.0), 0.1)
    n_axis = np.linspace(-0.1 * top, top, 400)
    t_axis = np.linspace(-0.3 * top, top, 400)
    impulse_t_line = np.linspace(t_axis[0], t_axis[-1], 801)
    impulse_n_line = np.linspace(0.0, n_axis[-1], 801)
    signorini = space.signorini_line(impulse_t_line)
    coulomb = space.coulomb_line(impulse_n_line)
    impulsive = space.title == "impulse-velocity"
    symbol = r"\Lambda" if impulsive else r"\delta t\,\tilde\lambda"

    fig = Figure(figsize=(6.6, 5.6))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    grid_n, grid_t = np.meshgrid(n_axis, t_axis)
    energy = space.kinetic_energy(grid_n, grid_t)
    levels = np.linspace(energy.min(), energy.max(), 16)[1:-1]
    colours = matplotlib.colormaps["YlOrRd"](np.linspace(0.35, 1.0, levels.size))  # yellow (low) to red
    contours = ax.contour(grid_n, grid_t, energy, levels=levels, colors=colours, linewidths=1.0)
    fig.colorbar(contours, ax=ax, label="kinetic energy after the impulse")
    mu = space.state.mu[0]
    cone_n = np.array([0.0, n_axis[-1]])
    ax.plot(cone_n, mu * cone_n, color="black", lw=1.2, label=rf"friction cone $|{symbol}_t| = \mu {symbol}_n$")
    ax.plot(cone_n, -mu * cone_n, color="black", lw=1.2)
    ax.plot(signorini, impulse_t_line, color="#08306b", lw=2.4, label="Signorini condition (normal)")
    ax.plot(impulse_n_line, coulomb, color="#6baed6", lw=2.4, label="Coulomb condition (tangential)")
    if descent_arrow:
        gradient = space.free  # ∇E(Λ) = J v⁺ = W Λ + b, at Λ = 0
        direction = -gradient / np.linalg.norm(gradient)
        tip = 0.25 * top * direction
        ax.annotate("", xy=tuple(tip), xytext=(0.0, 0.0), arrowprops={"arrowstyle": "-|>", "color": "#238b45", "lw": 2})
        ax.annotate(
            "steepest descent", tuple(tip), textcoords="offset points", xytext=(6, 0), fontsize=8, color="#238b45"
        )
    for solution in space.solutions:
        lam_n, lam_t = solution.reaction
        marker, colour, word = MODE_STYLE[solution.mode]
        label = f"{word} ({solution.mode})"
        ax.plot(lam_n, lam_t, marker, ms=9, mfc="white", mew=2.2, color=colour, label=f"solution: {label}")
        ax.annotate(
            f"{label} ({lam_n:.4f}, {lam_t:.4f})",
            (lam_n, lam_t),
            textcoords="offset points",
            xytext=(10, -4),
            fontsize=8.5,
            color=colour,
            bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": colour, "alpha": 0.85},
        )
    ax.set_xlim(n_axis[0], n_axis[-1])
    ax.set_ylim(t_axis[0], t_axis[-1])
    ax.set_xlabel(rf"normal ${symbol}_n$")
    ax.set_ylabel(rf"tangential ${symbol}_t$")
    ax.set_title(f"{title}: {len(space.solutions)} solution(s)", fontsize=10)
    ax.legend(loc="lower right", fontsize=7.5)
    ax.grid(alpha=0.3)
    png = out_dir / f"{name}.png"
    fig.savefig(png, dpi=150, bbox_inches="tight")

    lines_csv = out_dir / f"{name}_lines.csv"
    with lines_csv.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["line", "impulse_n", "impulse_t"])
        writer.writerows(("signorini", n, t) for n, t in zip(signorini, impulse_t_line))
        writer.writerows(("coulomb", n, t) for n, t in zip(impulse_n_line, coulomb))
    solutions_csv = out_dir / f"{name}_solutions.csv"
    with solutions_csv.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["impulse_n", "impulse_t", "mode", "kinetic_energy_after"])
        for solution in space.solutions:
            energy_after = space.kinetic_energy(*solution.reaction)
            writer.writerow([*solution.reaction, solution.mode, float(energy_after)])
    return [png, lines_csv, solutions_csv]
