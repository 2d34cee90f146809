"""Fig. 15 of Champneys & Várkonyi (2016, Sec. 6) computed: the caption's panels as parameters, each panel's
facts (class, modes, the ``S+S+`` equilibrium) and every trajectory the figure draws, in one vmapped solve. How
the caption is read: ``docs/stability.md``, "Fig. 15"."""

from __future__ import annotations

from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
import numpy as np

from regcontact.stability import (
    TwoContactSystem,
    class_code,
    class_label,
    impacts_without_collision,
    slip_slip_equilibrium,
    slip_slip_jacobian,
    two_contact_autodiff_eigenvalues,
    two_contact_modes,
    two_contact_trajectories,
)


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


def stable_manifold_line(panel: Fig15Panel, penetration: np.ndarray) -> np.ndarray:
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
