"""Figure 8 of Preclik & Rüde: the coefficient ``m A`` of Eq. 10 for the slender rod.

(a) ``m A(φ)`` for ``μ = 3/2``: where it drops below zero the sliding rod has no force solution.
(b) ``m A(φ*(μ), μ)`` at the minimising angle of Eq. 26: its root is the critical friction ``μ = 4/3``.
The curves are written as CSV next to the picture.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from regcontact.figures import figure
from regcontact.rigid import critical_angle, critical_friction, painleve_coefficient

MU_PAPER = 1.5
MASS, LENGTH = 1.0, 2.0  # m A is the same for every slender rod


@figure("preclik_fig8_painleve_coefficient")
def draw(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    phi = np.linspace(0.0, np.pi / 2, 721)
    mA_phi = MASS * painleve_coefficient(phi, MU_PAPER, MASS, LENGTH)
    mu = np.linspace(0.01, 3.0, 600)
    phi_star = critical_angle(mu)
    mA_star = MASS * painleve_coefficient(phi_star, mu, MASS, LENGTH)
    mu_crit = critical_friction(MASS, LENGTH)

    fig = Figure(figsize=(11.0, 4.2))
    FigureCanvasAgg(fig)
    left, right = fig.subplots(1, 2)
    degrees = np.degrees(phi)
    left.plot(degrees, mA_phi, color="#1f3b73", lw=2)
    left.fill_between(
        degrees, mA_phi, 0.0, where=mA_phi < 0, color="#d62728", alpha=0.3, label="mA < 0: no force solution"
    )
    left.axhline(0.0, color="black", lw=0.8)
    left.axvline(60.0, color="grey", ls=":", lw=1, label="φ = π/3 (Sec. 2.1)")
    left.set_xlabel("inclination φ [deg]")
    left.set_ylabel("m A")
    left.set_title("(a) m A(φ) for μ = 3/2, slender rod")
    left.legend(fontsize=8)
    left.grid(alpha=0.3)

    right.plot(mu, mA_star, color="#1f3b73", lw=2)
    right.axhline(0.0, color="black", lw=0.8)
    right.fill_between(mu, mA_star, 0.0, where=mA_star < 0, color="#d62728", alpha=0.3, label="paradox possible")
    right.plot([mu_crit], [0.0], "o", color="#d62728")
    right.annotate(
        f"μ_crit = {mu_crit:.6f}\nφ* = {np.degrees(critical_angle(mu_crit)):.3f}°",
        (mu_crit, 0.0),
        textcoords="offset points",
        xytext=(10, 15),
        fontsize=9,
    )
    right.set_xlabel("friction coefficient μ")
    right.set_ylabel("m A(φ*(μ), μ)")
    right.set_title("(b) m A at the minimising angle φ*(μ)")
    right.legend(fontsize=8)
    right.grid(alpha=0.3)
    png = out_dir / "preclik_fig8_painleve_coefficient.png"
    fig.savefig(png, dpi=150, bbox_inches="tight")

    csv_a = out_dir / "preclik_fig8a_mA_of_phi.csv"
    with csv_a.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["phi_rad", "phi_deg", "mA", "mu"])
        writer.writerows((p, d, a, MU_PAPER) for p, d, a in zip(phi, degrees, mA_phi))
    csv_b = out_dir / "preclik_fig8b_mA_at_critical_angle.csv"
    with csv_b.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["mu", "phi_star_rad", "mA"])
        writer.writerows(zip(mu, phi_star, mA_star))
    return [png, csv_a, csv_b]
