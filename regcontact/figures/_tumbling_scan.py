"""Champneys & Várkonyi Sec. 6.4: where a two-legged body resting on a slope tumbles, by the leading-order cycle map
(:func:`regcontact.stability.tumbling_multipliers`) over planes of parameters of Fig. 16's body
(``docs/impacts.md``): the multiplier above 1 (the rocking grows), below 1 (it dies out), and why the cycle does not
exist elsewhere. The S+F boundary is the closed form ``μ₁ = x₁/h``, where leg 2's normal acceleration in S+F
vanishes."""

from __future__ import annotations

import csv
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import ListedColormap, TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from regcontact.figures import figure
from regcontact.stability import TUMBLING_FAILURES, TumblingScan, tumbling_multipliers
from regcontact.systems.legged_body import TwoLeggedBody

#: Fig. 16's body (``_tumbling_body.py``): legs ``(x₁, −h)``, ``(x₂, −h)``, gyration, slope in degrees, μ₁, μ₂.
X1, X2, HEIGHT, GYRATION, SLOPE_DEG, MU1, MU2 = 0.1, 0.6, 1.0, 0.5, 10.0, 0.11, 0.8


def _arrays(x1, x2, h, rho, mu1, mu2, beta):
    body = TwoLeggedBody(
        legs=jnp.stack([jnp.stack([x1, -h]), jnp.stack([x2, -h])]), mu=jnp.stack([mu1, mu2]), gyration=rho, slope=beta
    )
    q, v = body.initial_state()
    return body.mass_matrix(q), body.jacobians(q), body.forces(q, v, 0.0), body.friction_coefficients


def scan(
    x1=X1, x2=X2, h=HEIGHT, rho=GYRATION, mu1=MU1, mu2=MU2, slope_deg=SLOPE_DEG
) -> tuple[TumblingScan, tuple[int, ...]]:
    """The cycle map of the legged body over broadcast arrays of its parameters (one vmapped build of the bodies'
    ``M``, ``W``, ``h``, one pass of :func:`~regcontact.stability.tumbling_multipliers`)."""
    values = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in (x1, x2, h, rho, mu1, mu2, slope_deg)))
    shape = values[0].shape
    flat = [jnp.asarray(a.ravel()) for a in values]
    flat[-1] = jnp.radians(flat[-1])
    M, J, f, mu = jax.vmap(_arrays)(*flat)
    result = tumbling_multipliers(M, J, f, mu)
    reshaped = TumblingScan(*(np.asarray(a).reshape(shape) for a in vars(result).values()))
    return reshaped, shape


#: The CSV holds every third point of each plane's grid in each direction.
CSV_STRIDE = 3

#: The failures' colours (code 1 … 5), beside a diverging map of log₁₀ of the multiplier.
FAILURE_COLOURS = ("#f2f2f2", "#d9d9d9", "#bdbdbd", "#969696", "#525252")

#: The planes: title, the other axis (the slope or leg 1's position), μ₂, μ₁'s range.
PANELS = (
    ("μ₂ = 0.8 (Fig. 16's body)", "slope", 0.8, (0.08, 0.2)),
    ("μ₂ = 1.5", "slope", 1.5, (0.08, 0.2)),
    ("β = 20°, μ₂ = 1.5", "x1", 1.5, (0.0, 0.3)),
)


def panels() -> list[dict[str, np.ndarray]]:
    """The three planes: μ₁ against the slope (μ₂ = 0.8 and 1.5), μ₁ against leg 1's position ``x₁``."""
    out = []
    for _, axis, mu2, (low, high) in PANELS:
        mu1 = np.linspace(low, high, 241)
        if axis == "slope":
            other = np.linspace(1.0, 30.0, 175)
            grid_mu1, grid_other = np.meshgrid(mu1, other, indexing="ij")
            result, _ = scan(mu1=grid_mu1, mu2=mu2, slope_deg=grid_other)
        else:
            other = np.linspace(0.01, 0.25, 161)
            grid_mu1, grid_other = np.meshgrid(mu1, other, indexing="ij")
            result, _ = scan(x1=grid_other, mu1=grid_mu1, mu2=mu2, slope_deg=20.0)
        out.append({"mu1": grid_mu1, "other": grid_other, "axis": np.array(axis), "mu2": np.array(mu2), **vars(result)})
    return out


@figure("champneys_sec64_tumbling_scan")
def draw(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    data = panels()
    fig = Figure(figsize=(15.0, 5.2))
    FigureCanvasAgg(fig)
    axes = [fig.add_subplot(1, 3, j + 1) for j in range(3)]
    failures = ListedColormap(FAILURE_COLOURS)
    mesh = None
    norm = TwoSlopeNorm(vcenter=0.0, vmin=-0.1, vmax=1.0)
    fig16 = scan()[0].multiplier
    for ax, panel, (title, axis, _, _) in zip(axes, data, PANELS):
        x, y, m = panel["other"], panel["mu1"], panel["multiplier"]
        code = np.where(panel["failure"] > 0, panel["failure"], np.nan)
        ax.pcolormesh(x, y, code, cmap=failures, vmin=0.5, vmax=5.5, shading="nearest")
        mesh = ax.pcolormesh(x, y, np.log10(m), cmap="RdBu_r", norm=norm, shading="nearest")
        if np.nanmin(m) < 1.0 < np.nanmax(m):
            ax.contour(x, y, np.where(np.isfinite(m), m, 0.0), levels=[1.0], colors="black", linewidths=1.0)
        x_line = x[0] if axis == "x1" else np.full_like(x[0], X1)
        ax.plot(x[0], x_line / HEIGHT, "k--", lw=1.0, label="μ₁ = x₁/h: leg 2's S+F acceleration vanishes")
        if axis == "slope" and panel["mu2"] == MU2:
            ax.plot([SLOPE_DEG], [MU1], "k*", ms=10, label=f"Fig. 16's body ({float(fig16):.4f})")
        ax.set_xlabel("slope β (degrees)" if axis == "slope" else "leg 1 at x₁ (leg 2 at x₂ = 0.6, h = 1)")
        ax.set_ylabel("μ₁ (leg 1, the slider)")
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=7, loc="upper left")
    handles = [Patch(color=c, label=f"{j + 1}: {TUMBLING_FAILURES[j + 1]}") for j, c in enumerate(FAILURE_COLOURS)]
    fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=7, frameon=False)
    assert mesh is not None
    bar = fig.colorbar(mesh, cax=fig.add_axes((0.915, 0.25, 0.012, 0.63)))
    bar.set_label("log₁₀ cycle multiplier (> 0: the rocking grows, < 0: it dies out)")
    fig.suptitle(
        "Sec. 6.4: where a two-legged body at rest on a slope rocks itself off (leading-order cycle map, "
        "legs (x₁, −1), (0.6, −1), ρ = 0.5, Darboux–Keller r = 0)",
        fontsize=10,
    )
    fig.subplots_adjust(bottom=0.25, top=0.88, left=0.05, right=0.9, wspace=0.25)
    png = out_dir / "champneys_sec64_tumbling_scan.png"
    fig.savefig(png, dpi=150, bbox_inches="tight")
    path = out_dir / "champneys_sec64_tumbling_scan.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["panel", "slope_deg", "x1", "mu1", "mu2", "multiplier", "failure", "slide_normal"])
        for j, panel in enumerate(data):
            every = (slice(None, None, CSV_STRIDE), slice(None, None, CSV_STRIDE))
            other = panel["other"][every].ravel()
            slope = other if panel["axis"] == "slope" else np.full_like(other, 20.0)
            x1 = other if panel["axis"] == "x1" else np.full_like(other, X1)
            columns = (panel["mu1"], panel["multiplier"], panel["failure"], panel["slide_normal"])
            mu1, m, code, b2 = (c[every].ravel() for c in columns)
            for row in zip(slope, x1, mu1, m, code, b2):
                writer.writerow(
                    [j + 1, f"{row[0]:.6g}", f"{row[1]:.6g}", f"{row[2]:.6g}", float(panel["mu2"]), f"{row[3]:.10g}",
                     int(row[4]), f"{row[5]:.10g}"]
                )  # fmt: skip
    return [png, path]
