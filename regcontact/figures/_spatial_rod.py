"""The slipping 3D rod (Champneys & Várkonyi Sec. 7, Fig. 17) and what the compliant model does past its crossing.

``champneys_fig17_spatial_rod``: rigid slip of the slender rod (μ = 1, radius of gyration ρ = 0.1 l, g = l = m = 1)
from ten oblique starts, in the 3D projection (slip direction ``ϕ − ψ``, inclination ``θ``, slip speed ``|u|``) of
state space, with the grey surface ``p(ϕ) = 0`` (where ``μ cos(ϕ − ψ) = μ_p(θ)``, Eq. 51), the starts (circles)
and the crossings of ``p = 0`` (crosses). The CSV has every sample and one row per crossing with ``b`` and ``dp/ds``
there.

``spatial_crossing_convergence``: one of those rods run through its crossing by the compliant model (Eq. 22,
viscous Coulomb as the friction disk) for α = 1e4 … 1e10: the normal force and the slip against ``t − t*``, and
against α the distances of the impulse and the velocities to the rigid IWC (:func:`~regcontact.rigid.
spatial_crossing.crossing_impact`) and the height of the bounce after it. The CSV has one row per α.
"""

from __future__ import annotations

import csv
import functools
import math
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from regcontact.contact import ContactModel
from regcontact.figures import figure
from regcontact.passages import CrossingPassage, PastCrossing, pass_through
from regcontact.rigid import (
    SLIP_OUTCOMES,
    CrossingReference,
    RigidSlip,
    crossing_reference,
    rigid_slip,
)
from regcontact.systems.spatial_rod import SpatialRod, painleve_friction

__all__ = ["ALPHAS", "CROSSING_ROD", "FIG17_STARTS", "fig17_rod", "fig17_slips", "spatial_crossing_runs"]

#: Fig. 17's parameters: μ = 1, radius of gyration 0.1 l (l: the half-length, as in Eqs. 42–51).
MU, GYRATION = 1.0, 0.1

#: The starts ``(θ₀, ϕ₀ − ψ₀)``: each ``θ₀`` with the slip turned 0.4 rad beyond ``p = 0`` on either side (``p > 0``).
FIG17_STARTS = tuple(
    (theta, sign * (math.acos(float(painleve_friction(theta, (1 / GYRATION) ** 2)) / MU) + 0.4))
    for theta in (0.9, 1.0, 1.1, 1.2, 1.3)
    for sign in (1.0, -1.0)
)

#: The rod the compliant model runs through its crossing (θ₀ = 1.2, ϕ₀ − ψ₀ = 1.3, unit slip speed).
CROSSING_ROD = (1.2, 1.3)

#: The stiffness multipliers run past the crossing.
ALPHAS = (1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10)


def fig17_rod(theta0: float, slip_direction: float) -> SpatialRod:
    """Fig. 17's rod at ``ψ₀ = 0``, at rest but for a unit slip in the direction ``slip_direction``."""
    slip = (math.cos(slip_direction), math.sin(slip_direction))
    return SpatialRod(gyration=GYRATION, mu=MU, theta0=theta0, slip0=slip)


@functools.cache
def fig17_slips() -> RigidSlip:
    """The rigid slips of :data:`FIG17_STARTS`, one vmap."""
    rods = [fig17_rod(*start) for start in FIG17_STARTS]
    batch = jax.tree_util.tree_map(lambda *leaves: jnp.stack(leaves), *rods)
    return jax.jit(jax.vmap(lambda rod: rigid_slip(rod, saves=300)))(batch)


def _projection(slips: RigidSlip) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(ϕ − ψ, θ, |u|)`` of every sample."""
    q, v = np.asarray(slips.q), np.asarray(slips.v)
    rows = jax.vmap(jax.vmap(lambda qq: fig17_rod(1.0, 0.0).jacobians(qq)[0, 1:]))(jnp.asarray(q))
    slip = np.einsum("bstn,bsn->bst", np.asarray(rows), v)
    relative = np.angle(np.exp(1j * (np.asarray(slips.phi) - q[..., 4])))
    return relative, q[..., 3], np.linalg.norm(slip, axis=-1)


@figure("champneys_fig17_spatial_rod")
def draw_fig17(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    slips = fig17_slips()
    relative, theta, speed = _projection(slips)
    fig = Figure(figsize=(9, 7.5))
    FigureCanvasAgg(fig)
    axis = fig.add_subplot(projection="3d")
    # p = 0: μ cos(ϕ − ψ) = μ_p(θ), a vertical sheet over the curve in (ϕ − ψ, θ), both branches
    thetas = np.linspace(0.75, 1.45, 80)
    limit = np.asarray(painleve_friction(thetas, (1 / GYRATION) ** 2)) / MU
    inside = limit <= 1
    heights = np.linspace(np.nanmin(speed) * 0.98, np.nanmax(speed) * 1.01, 2)
    for sign in (1.0, -1.0):
        edge = sign * np.arccos(limit[inside])
        X, Z = np.meshgrid(edge, heights)
        Y, _ = np.meshgrid(thetas[inside], heights)
        axis.plot_surface(X, Y, Z, color="grey", alpha=0.35, linewidth=0)
    for k in range(len(FIG17_STARTS)):
        axis.plot(relative[k], theta[k], speed[k], color="C0", lw=1.3)
        axis.scatter(relative[k, 0], theta[k, 0], speed[k, 0], marker="o", s=30, facecolors="none", edgecolors="C0")
    end_q, end_v = np.asarray(slips.end[0]), np.asarray(slips.end[1])
    end_relative = np.angle(np.exp(1j * (np.asarray(slips.end_phi) - end_q[:, 4])))
    rows = jax.vmap(lambda qq: fig17_rod(1.0, 0.0).jacobians(qq)[0, 1:])(jnp.asarray(end_q))
    end_speed = np.linalg.norm(np.einsum("btn,bn->bt", np.asarray(rows), end_v), axis=-1)
    crossed = np.asarray(slips.outcome) == SLIP_OUTCOMES.index("crossing")
    axis.scatter(end_relative[crossed], end_q[crossed, 3], end_speed[crossed], marker="x", s=60, color="C3")
    axis.set_xlabel("ϕ − ψ (slip direction)")
    axis.set_ylabel("θ (inclination)")
    axis.set_zlabel("|u| (slip speed)")
    axis.view_init(elev=25, azim=-60)
    fig.suptitle(
        "Fig. 17: the slipping 3D rod (μ = 1, radius of gyration 0.1 l), rigid slip from 10 starts (○) to its "
        "crossing of p = 0 (×, grey surface)",
        fontsize=10,
    )
    png = out_dir / "champneys_fig17_spatial_rod.png"
    fig.savefig(png, dpi=100)
    data = out_dir / "champneys_fig17_spatial_rod.csv"
    with data.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(
            ["start", "theta0", "slip_direction0", "row", "t", "phi_minus_psi", "theta", "slip_speed", "p", "b"]
            + ["dp_ds", "normal_impulse"]
        )
        for k, start in enumerate(FIG17_STARTS):
            head = [k, *(f"{a:.6g}" for a in start)]
            columns = (
                slips.t[k],
                relative[k],
                theta[k],
                speed[k],
                slips.painleve[k],
                slips.free_normal_acceleration[k],
            )
            for values in zip(*(np.asarray(c) for c in columns), np.asarray(slips.normal_impulse[k])):
                if np.isfinite(values[0]):
                    writer.writerow([*head, "sample", *(f"{a:.8g}" for a in values[:6]), "", f"{values[6]:.8g}"])
            end = [slips.end[2][k], end_relative[k], end_q[k, 3], end_speed[k], 0.0]
            end += [slips.end_free_normal_acceleration[k], slips.end_painleve_rate[k], slips.end_normal_impulse[k]]
            writer.writerow([*head, SLIP_OUTCOMES[int(slips.outcome[k])], *(f"{float(a):.8g}" for a in end)])
    return [png, data]


@functools.cache
def spatial_crossing_runs(
    alphas: tuple[float, ...] = ALPHAS,
) -> tuple[CrossingReference, CrossingPassage, PastCrossing]:
    """The crossing rod's rigid reference, its compliant passage for every α and their classification."""
    rod = fig17_rod(*CROSSING_ROD)
    reference = crossing_reference(rod)
    passage = pass_through(rod, ContactModel(), np.asarray(alphas), reference)
    return reference, passage, passage.classify(rod, reference)


@figure("spatial_crossing_convergence")
def draw_crossing(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    reference, passage, result = spatial_crossing_runs()
    from matplotlib import colormaps

    colours = [colormaps["viridis"](x) for x in np.linspace(0, 0.9, len(ALPHAS))]
    fig = Figure(figsize=(15, 4.8))
    FigureCanvasAgg(fig)
    force_axis, slip_axis, error_axis = (fig.add_subplot(1, 3, i) for i in (1, 2, 3))
    for i, colour in enumerate(colours):
        times = np.asarray(passage.times[i]) - reference.t_cross
        force_axis.plot(times, np.asarray(passage.normal_force[i]), color=colour, lw=1.2, label=f"α = {ALPHAS[i]:.0e}")
        rates = np.asarray(passage.rates[i])
        slip_axis.plot(times, rates[:, 1], color=colour, lw=1.2)
        slip_axis.plot(times, rates[:, 2], color=colour, lw=1.2, ls="--")
    for axis in (force_axis, slip_axis):
        axis.set_xscale("symlog", linthresh=1e-6)
        axis.axvline(0, color="grey", lw=0.8)
        axis.set_xlabel("t − t*")
    force_axis.set_yscale("log")
    force_axis.set_title("normal force λ_N", fontsize=10)
    force_axis.legend(fontsize=7)
    slip_axis.axhline(0, color="grey", lw=0.8)
    slip_axis.set_title("slip u₁ (solid), u₂ (dashed)", fontsize=10)
    alpha = np.asarray(ALPHAS)
    for values, label, marker in (
        (result.impulse_error, "impulse − rigid IWC's (max over 3 components)", "o"),
        (result.velocity_error, "velocities at t* + Δ − rigid IWC's v⁺", "s"),
        (result.bounce, "largest gap after the impulse", "^"),
    ):
        error_axis.loglog(alpha, values, marker=marker, label=label)
    error_axis.set_xlabel("α")
    error_axis.grid(True, lw=0.3)
    error_axis.legend(fontsize=7)
    error_axis.set_title("against α: every run an IWC into stick, then reverse slip", fontsize=10)
    fig.suptitle(
        f"The 3D rod through its crossing of p = 0 at t* = {reference.t_cross:.5f} (θ₀ = 1.2, ϕ₀ − ψ₀ = 1.3): "
        "compliant runs, Eq. 22 with the friction disk",
        fontsize=10,
    )
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    png = out_dir / "spatial_crossing_convergence.png"
    fig.savefig(png, dpi=100)
    data = out_dir / "spatial_crossing_convergence.csv"
    with data.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(
            ["alpha", "outcome", "excess_normal_impulse", "excess_tangential_impulse_1", "excess_tangential_impulse_2"]
            + ["rigid_normal_impulse", "impulse_error", "velocity_error", "slip_after", "normal_velocity_after"]
            + ["bounce", "end_slip_1", "end_slip_2", "end_closed"]
        )
        for i in range(len(ALPHAS)):
            writer.writerow(
                [f"{ALPHAS[i]:.0e}", result.outcome_names[i]]
                + [f"{x:.8g}" for x in result.impulse[i]]
                + [f"{float(reference.impact.normal_impulse):.8g}"]
                + [f"{x:.8g}" for x in (result.impulse_error[i], result.velocity_error[i], result.slip_after[i])]
                + [f"{x:.8g}" for x in (result.normal_velocity_after[i], result.bounce[i], *result.end_slip[i])]
                + [bool(result.end_closed[i])]
            )
    return [png, data]
