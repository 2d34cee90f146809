"""Champneys & Várkonyi Fig. 16: a two-legged body standing in stick on a 10° slope that tumbles down after a small
perturbation, with plastic impacts (Darboux–Keller, ``r_e = 0``).

The paper omits the body's dimensions; these are chosen for the described cycle (``docs/impacts.md`` derives it):
legs at ``(0.1, −1)`` and ``(0.6, −1)`` from the centre of mass in the slope's frame (leg 2 downhill), radius of
gyration 0.5, ``μ₁ = 0.11``, ``μ₂ = 0.8``. With leg 1 sliding down and leg 2 free (S+F) the normal acceleration of
leg 2 is ``g cos β (x₂ − x₁) k / (ρ² D₁)``, ``k = x₁ − μ₁ h``, ``D₁ = 1 + x₁ k/ρ²``: it vanishes at
``μ₁ = x₁/h = 0.1``. Below, S+F is consistent at rest (the ambiguity of the caption); above, leg 2 falls back,
slowly near 0.1, while the slip of leg 1 accelerates: the cycle S+F, sticking impact of leg 2, FT, impact of
leg 1 gains speed. :func:`cycle_multiplier` is the cycle's leading-order map, the general one of any body on two
contacts (:func:`regcontact.stability.tumbling_cycle`) with leg 1 the slider.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from regcontact.contact import ContactModel, SpringDamper, ViscousCoulomb, law_exponents
from regcontact.figures import figure
from regcontact.stability import tumbling_cycle
from regcontact.systems.legged_body import TwoLeggedBody

SLOPE = math.radians(10.0)
LEGS = ((0.1, -1.0), (0.6, -1.0))
GYRATION = 0.5
MU = (0.11, 0.8)
#: the perturbation: a rotation about leg 2 lifting leg 1, ω₀
OMEGA0 = -1e-3


def tumbling_body(mu1: float = MU[0], omega0: float = OMEGA0) -> TwoLeggedBody:
    """The body at rest on both legs, perturbed by a rotation ``ω₀`` about leg 2 (leg 2 at rest)."""
    (x2, h) = LEGS[1][0], -LEGS[1][1]
    return TwoLeggedBody(
        legs=LEGS, mu=(mu1, MU[1]), gyration=GYRATION, slope=SLOPE, vx0=-h * omega0, vy0=-x2 * omega0, omega0=omega0
    )


def cycle_multiplier(body: TwoLeggedBody) -> float:
    """The leading-order cycle map's multiplier of ``body`` (leg 1 slips forward, leg 2 the pivot):
    :func:`~regcontact.stability.tumbling_cycle`'s, NaN where the cycle does not exist."""
    return tumbling_cycle(body).multiplier


def contact_model() -> ContactModel:
    """Preclik & Rüde's law (``k_n = γ_n = α``) with ``γ_t = α^1.5``: its limit impact law is Darboux–Keller's
    with ``r = 0`` (``docs/impacts.md``)."""
    return ContactModel(
        SpringDamper(1.0, 1.0),  # type: ignore[arg-type]  # equinox takes numbers
        ViscousCoulomb(1.0),
        law_exponents(SpringDamper),
        ViscousCoulomb(1.5),
    )


def world_points(body: TwoLeggedBody, q: np.ndarray) -> dict[str, np.ndarray]:
    """The centre of mass and the two leg ends, in a frame with ``x`` horizontal (the slope's frame rotated by
    ``β``): ``(samples, 2)`` each."""
    c, s = math.cos(SLOPE), math.sin(SLOPE)
    rotation = np.array([[c, s], [-s, c]])  # slope frame (x down the slope, y normal) to horizontal, vertical
    points = {"centre": q[:, :2]}
    for i in range(2):
        rx, ry = float(body.legs[i, 0]), float(body.legs[i, 1])
        ci, si = np.cos(q[:, 2]), np.sin(q[:, 2])
        points[f"leg{i + 1}"] = q[:, :2] + np.column_stack([ci * rx - si * ry, si * rx + ci * ry])
    return {name: p @ rotation.T for name, p in points.items()}


T_END = 5.5
ALPHAS = (1e7, 1e8)
SAMPLES = 5501


def runs(t_end: float = T_END, samples: int = SAMPLES, alphas=ALPHAS):
    """The event-driven run (Darboux–Keller, ``r = 0``) and the compliant runs, on a common time grid."""
    import jax
    import jax.numpy as jnp

    from regcontact.compliant import SOLVER_STATUSES, Controls, SolveSettings, trajectory
    from regcontact.rigid import DarbouxKellerImpact, event_driven

    body = tumbling_body()
    grid = np.linspace(0.0, t_end, samples)
    rigid = event_driven(body, t_end, impact_law=DarbouxKellerImpact(), sample_times=grid, max_events=2000)
    keep = np.isin(rigid.times, grid)
    _, first = np.unique(rigid.times[keep], return_index=True)
    rigid_q = rigid.q[keep][first]
    compliant = {}
    controls = Controls(rtol=1e-8, atol=1e-10, t_max=t_end)
    solve = jax.jit(
        lambda al: trajectory(body, contact_model(), al, controls, SolveSettings(events=()), jnp.asarray(grid))
    )
    for alpha in alphas:
        states, status = solve(alpha)
        compliant[alpha] = (np.asarray(states.q), np.asarray(states.v), SOLVER_STATUSES[int(status)])
    return body, grid, rigid, rigid_q, compliant


@figure("champneys_fig16_tumbling_body")
def draw(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    body, grid, rigid, rigid_q, compliant = runs()
    mus = np.linspace(0.1005, 0.116, 32)
    multipliers = np.array([cycle_multiplier(tumbling_body(mu1=m)) for m in mus])
    fig = Figure(figsize=(12.0, 7.8))
    FigureCanvasAgg(fig)
    path_ax = fig.add_subplot(2, 1, 1)
    speed_ax, map_ax = fig.add_subplot(2, 2, 3), fig.add_subplot(2, 2, 4)
    styles = {"leg1": "-", "leg2": "--", "centre": ":"}
    rigid_points = world_points(body, rigid_q)
    for name, style in styles.items():
        path_ax.plot(*rigid_points[name].T, style, color="black", lw=1.2, label=f"{name}, event-driven (DK, r = 0)")
    q_c, v_c, _ = compliant[ALPHAS[-1]]
    for name, style in styles.items():
        path_ax.plot(*world_points(body, q_c)[name].T, style, color="#d62728", lw=0.8,
                     label=f"{name}, compliant α = {ALPHAS[-1]:g}")  # fmt: skip
    path_ax.set_aspect("equal")
    path_ax.set_xlabel("horizontal position")
    path_ax.set_ylabel("height")
    path_ax.set_title("contact points (leg 1 solid, leg 2 dashed) and centre of mass (dotted), down the 10° slope",
                      fontsize=9)  # fmt: skip
    path_ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    path_ax.grid(alpha=0.3)
    rigid_speed = np.abs(rigid.v).max(axis=1)
    speed_ax.semilogy(rigid.times, rigid_speed, color="black", lw=1.2, label="event-driven, Darboux–Keller r = 0")
    for alpha, (_, v, status) in compliant.items():
        speed_ax.semilogy(grid, np.abs(v).max(axis=1), lw=0.8, label=f"compliant α = {alpha:g} ({status})")
    m = cycle_multiplier(body)
    impacts = [e.time for e in rigid.events if e.kind == "impact" and e.contact == 1]
    speed_ax.plot(impacts[:6], [1e-3 * m ** (j + 1) for j in range(len(impacts[:6]))], "o", mfc="none", color="k",
                  label=f"×{m:.3f} per cycle (the cycle map)")  # fmt: skip
    speed_ax.set_xlabel("time t")
    speed_ax.set_ylabel("largest |velocity component|")
    speed_ax.set_title(f"growth from ω₀ = {OMEGA0:g} (μ₁ = {MU[0]}, μ₂ = {MU[1]})", fontsize=9)
    speed_ax.legend(fontsize=7)
    speed_ax.grid(alpha=0.3, which="both")
    map_ax.plot(mus, multipliers, "o-", ms=3)
    map_ax.axhline(1.0, color="grey", lw=1)
    map_ax.axvline(0.1, color="black", ls="--", lw=1, label="μ₁ = 0.1: S+F consistent at rest below")
    map_ax.set_yscale("log")
    map_ax.set_xlabel("μ₁")
    map_ax.set_ylabel("cycle multiplier")
    map_ax.set_title("the leading-order cycle map (gaps: leg 2's impact does not stick)", fontsize=9)
    map_ax.legend(fontsize=7)
    map_ax.grid(alpha=0.3, which="both")
    fig.suptitle("Fig. 16: a body in stick on a 10° slope, perturbed, rocks ever faster, slides and falls over",
                 fontsize=10)  # fmt: skip
    fig.tight_layout()
    png = out_dir / "champneys_fig16_tumbling_body.png"
    fig.savefig(png, dpi=150, bbox_inches="tight")
    data = out_dir / "champneys_fig16_tumbling_body.csv"
    with data.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["t", "x_rigid", "y_rigid", "phi_rigid", *(f"{c}_alpha{a:g}" for a in ALPHAS for c in "xyφ")])
        for j, t in enumerate(grid):
            writer.writerow([t, *rigid_q[j], *(value for a in ALPHAS for value in compliant[a][0][j])])
    cycle = out_dir / "champneys_fig16_tumbling_body_cycle_map.csv"
    with cycle.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["mu1", "multiplier"])
        writer.writerows(zip(mus, multipliers))
    return [png, data, cycle]
