"""Champneys & Várkonyi Fig. 11(c, d): a reverse-chatter event of a rod with applied body forces, simulated with
the stiff compliant model: the bounces grow, each ending in stick, by the effective restitution the limit impact
law predicts (``docs/impacts.md``, "A reverse-chatter event"). Two contacts restituting 0.7 without friction:
Stronge's bilinear spring, whose limit is the paper's law (Darboux–Keller with energetic ``r = 0.7``), and a
Kelvin–Voigt law, whose limit is its own."""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import NullFormatter
from numpy.typing import NDArray

from regcontact.contact import (
    AbstractPeakNormalLaw,
    BilinearSpring,
    ClippedKelvinVoigt,
    ContactModel,
    ViscousCoulomb,
    law_exponents,
)
from regcontact.figures import figure
from regcontact.rigid import (
    ChatterDirection,
    ContactState,
    bounce_directions,
    compliant_limit_map,
    kelvin_voigt_restitution,
    limit_law,
)
from regcontact.systems import PainleveRod, load_at

THETA = math.radians(60.0)
MU = 1.2
RATIO = -2.0  # a/(−b) of the rod at rest
ZETA = 0.113  # frictionless restitution exp(−πζ/√(1−ζ²)) = 0.700
RESTITUTION = 0.7  # Stronge's energetic coefficient of the bilinear spring, Fig. 11(a)'s shaded r


def reverse_chatter_rod(theta: float = THETA, mu: float = MU, ratio: float = RATIO) -> PainleveRod:
    """The rod at rest on its lower end at angle ``θ`` with ``f_x`` and ``τ`` chosen so that its free contact
    accelerations have ``a/(−b) = ratio`` and the applied loads have no moment about the contact point:

        a = f_x/m + h sin θ τ/I,   b = −g − h cos θ τ/I,   τ = h (m g cos θ + f_x sin θ)   (h = l/2)."""
    rod = PainleveRod(mu=mu, phi0=theta, omega0=0.0, vx0=0.0)
    m, g, inertia, h = (float(x) for x in (rod.mass, load_at(rod.gravity, 0.0), rod.inertia, 0.5 * rod.length))
    c, s = math.cos(theta), math.sin(theta)
    # unknowns (f_x, τ): a − ratio (−b) = 0 and the moment condition
    matrix = np.array([[1.0 / m, h * s / inertia - ratio * h * c / inertia], [-h * s, 1.0]])
    force_x, torque = np.linalg.solve(matrix, [ratio * g, h * m * g * c])
    return PainleveRod(torque=torque, force_x=force_x, mu=mu, phi0=theta, omega0=0.0, vx0=0.0)


def contact_model(rod: PainleveRod, zeta: float = ZETA) -> ContactModel:
    """A clipped Kelvin–Voigt law at damping ratio ``ζ`` for the rod's normal mass ``1/C`` (``k ∝ α``, ``γ ∝ √α``)
    with ``γ_t = α``: Coulomb's law during the impacts."""
    C = float(ContactState.from_system(rod).delassus[0, 0])
    return ContactModel(
        ClippedKelvinVoigt(1.0, 2.0 * zeta / math.sqrt(C)),  # type: ignore[arg-type]  # equinox takes numbers
        ViscousCoulomb(1.0),
        law_exponents(ClippedKelvinVoigt, damping=0.5),
        ViscousCoulomb(1.0),
    )


def energetic_model(restitution: float = RESTITUTION) -> ContactModel:
    """Stronge's bilinear spring (``k ∝ α``, ``r`` fixed) with ``γ_t = α``: its limit impact law is Darboux–Keller's
    with Stronge's energetic coefficient ``r`` (``docs/impacts.md``)."""
    return ContactModel(
        BilinearSpring(1.0, restitution),
        ViscousCoulomb(1.0),
        law_exponents(BilinearSpring),
        ViscousCoulomb(1.0),
    )


def contact_form(rod: PainleveRod) -> tuple[float, float, float, float, float]:
    """``(a, b, A, B, C)`` of the rod at rest."""
    state = ContactState.from_system(rod)
    (b, a), G = state.free_acceleration[0], state.delassus
    return float(a), float(b), float(G[1, 1]), float(G[1, 0]), float(G[0, 0])


def kept_directions(rod: PainleveRod, model: ContactModel, samples: int = 81) -> list[ChatterDirection]:
    """The directions the bounce map of ``model``'s limit impact law keeps, for the rod at rest."""
    a, b, A, B, C = contact_form(rod)
    law, mu = limit_law(model), float(rod.mu)

    def impact(u: float, v: float) -> tuple[float, float]:
        outcome = compliant_limit_map(A, B, C, mu, u, v, law)
        return outcome.u, outcome.v

    return bounce_directions(a, b, impact, span=4.0 * abs(2 * a / b), samples=samples)


@dataclass(frozen=True)
class CompliantBounces:
    """A sampled compliant run: ``times``, the contact's ``gaps`` ``g_n``, ``normal_rates`` ``ġ_n``, ``slips``
    ``ġ_t``; each apex of the contact point: ``apex_times``, the bounce speed ``speeds`` ``v⁺ = √(2|b| h)`` and
    ``apex_slips`` ``ġ_t``; and the solver status."""

    times: NDArray[np.float64]
    gaps: NDArray[np.float64]
    normal_rates: NDArray[np.float64]
    slips: NDArray[np.float64]
    apex_times: NDArray[np.float64]
    speeds: NDArray[np.float64]
    apex_slips: NDArray[np.float64]
    status: str

    @property
    def restitutions(self) -> NDArray[np.float64]:
        """``e_n = v⁺_{n+1}/v⁺_n``."""
        return self.speeds[1:] / self.speeds[:-1]

    def growth(self, below: float) -> int:
        """How many of the first bounces grow, each faster than the one before and slower than ``below``: the
        reverse chatter, before the motion leaves the bounce map's small speeds."""
        n = 1
        while n < self.speeds.size and self.speeds[n - 1] < self.speeds[n] < below:
            n += 1
        return n


def compliant_bounces(
    rod: PainleveRod, model: ContactModel, alpha: float, speed: float, t_end: float, samples: int
) -> CompliantBounces:
    """The compliant run (implicit Radau, rtol 1e-10; restarted at each turn of a peak law's contact) from the
    apex of a bounce of speed ``speed`` (module docstring), sampled at ``samples`` times in ``[0, t_end]``."""
    import jax
    import jax.numpy as jnp

    from regcontact.compliant import SOLVER_STATUSES, Controls, SolveSettings, trajectory
    from regcontact.compliant.dynamics import CompliantState

    a, b, *_ = contact_form(rod)
    q0, _ = rod.initial_state()
    theta, h = float(rod.phi0), 0.5 * float(rod.length)
    c, s = math.cos(theta), math.sin(theta)
    m, inertia = float(rod.mass), float(rod.inertia)
    # ġ_n = 0, ġ_t = (a/(−b)) v₀, angular momentum about the contact point zero
    rows = np.array([[0.0, 1.0, -h * c], [1.0, 0.0, h * s], [-m * h * s, m * h * c, inertia]])
    v0 = np.linalg.solve(rows, [0.0, a / -b * speed, 0.0])
    start = CompliantState(
        q=q0 + jnp.array([0.0, speed**2 / (2.0 * -b), 0.0]), v=jnp.asarray(v0), impulses=jnp.zeros((1, 2))
    )
    ts = jnp.linspace(0.0, t_end, samples)
    controls = Controls(rtol=1e-10, atol=1e-12, t_max=t_end)
    restarts = ("peak",) if isinstance(model.normal, AbstractPeakNormalLaw) else ()
    settings = SolveSettings(events=(), max_steps=400_000, restart_at=restarts)
    states, status = jax.jit(lambda al: trajectory(rod, model, al, controls, settings, ts, start))(jnp.asarray(alpha))
    gaps = np.asarray(jax.vmap(rod.gaps)(states.q))[:, 0, 0]
    rates = np.einsum("mkn,mn->mk", np.asarray(jax.vmap(rod.jacobians)(states.q))[:, 0], np.asarray(states.v))
    times = np.asarray(ts)
    i = np.flatnonzero((gaps[1:-1] > gaps[:-2]) & (gaps[1:-1] >= gaps[2:]) & (gaps[1:-1] > 0)) + 1
    left, mid, right = gaps[i - 1], gaps[i], gaps[i + 1]
    curvature = left - 2.0 * mid + right
    heights = mid - (right - left) ** 2 / (8.0 * curvature)
    offsets = (left - right) / (2.0 * curvature) * (times[1] - times[0])
    return CompliantBounces(
        times,
        gaps,
        rates[:, 0],
        rates[:, 1],
        times[i] + offsets,
        np.sqrt(2.0 * -b * heights),
        rates[i, 1],
        SOLVER_STATUSES[int(status)],
    )


#: (α, starting bounce speed) of the runs drawn, for each contact law; the time series are those at α = 1e8.
RUNS = ((1e6, 1e-2), (1e8, 1e-2), (1e10, 1e-2), (1e8, 1e-3))
T_END = 3.5
SAMPLES = 70_001
#: bounces counted in the comparison with the map (leading order in v: Eq. 28's flights)
SMALL_SPEED = 0.1
#: the contact laws drawn: name in the CSVs, label, marker face (filled or open)
LAWS = {
    "bilinear_spring": (f"bilinear spring r = {RESTITUTION:g} (limit: energetic Darboux–Keller)", "full"),
    "kelvin_voigt": (f"Kelvin–Voigt ζ = {ZETA:g} (limit: its own)", "none"),
}


def models(rod: PainleveRod) -> dict[str, ContactModel]:
    """The contact model of each of :data:`LAWS`."""
    return {"bilinear_spring": energetic_model(), "kelvin_voigt": contact_model(rod)}


@figure("champneys_fig11cd_reverse_chatter_event")
def draw(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    rod = reverse_chatter_rod()
    e_map, runs = {}, {}
    for law, model in models(rod).items():
        e_map[law] = max(d.restitution for d in kept_directions(rod, model) if d.restitution > 1.0)
        for alpha, speed in RUNS:
            runs[law, alpha, speed] = compliant_bounces(rod, model, alpha, speed, T_END, SAMPLES)
    fig = Figure(figsize=(13.0, 8.6), layout="constrained")
    FigureCanvasAgg(fig)
    grid = fig.add_gridspec(2, 6)
    height, rate = fig.add_subplot(grid[0, :3]), fig.add_subplot(grid[0, 3:])
    speeds = fig.add_subplot(grid[1, :2])
    ratios = {law: fig.add_subplot(grid[1, 2 + 2 * i : 4 + 2 * i]) for i, law in enumerate(LAWS)}
    colours = {1e6: "#1f77b4", 1e8: "#d62728", 1e10: "#2ca02c"}
    series = {"bilinear_spring": "#1f77b4", "kelvin_voigt": "#ff7f0e"}
    map_style = {"bilinear_spring": "--", "kelvin_voigt": ":"}
    for (law, alpha, speed), run in runs.items():
        name, face = LAWS[law]
        if alpha == 1e8:
            style: dict[str, Any] = dict(lw=0.8, color=series[law], ls="-" if speed == 1e-2 else "--")
            label = f"{name.split(' (')[0]}, α = 1e8, v₀ = {speed:g}"
            height.plot(run.times, run.gaps, label=label, **style)
            rate.plot(run.times, run.normal_rates, label=label, **style)
        grown = run.growth(SMALL_SPEED)
        marker = "o" if speed == 1e-2 else "s"
        marks: dict[str, Any] = dict(color=colours[alpha], mfc=colours[alpha] if face == "full" else "none", ms=4)
        speeds.semilogy(np.arange(grown), run.speeds[:grown], marker, **marks)
        ratios[law].plot(run.speeds[: grown - 1], run.restitutions[: grown - 1], marker + "-", lw=0.7, **marks)
    for law in LAWS:
        for speed in (1e-2, 1e-3):
            n = np.arange(runs[law, 1e8, speed].growth(SMALL_SPEED))
            speeds.semilogy(n, runs[law, 1e8, speed].speeds[0] * e_map[law] ** n, "k", ls=map_style[law], lw=1)
        ratios[law].axhline(e_map[law], color="black", ls=map_style[law], lw=1)
    for ax, title in (
        (height, "(c) contact-point height g_n: bounces growing from rest"),
        (rate, "(c) contact-point normal velocity ġ_n"),
    ):
        ax.set_xlabel("time t")
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=7, loc="upper left")
        ax.grid(alpha=0.3)
    height.set_ylabel("g_n")
    rate.set_ylabel("ġ_n")
    speeds.set_xlabel("bounce n")
    speeds.set_ylabel("bounce speed v⁺_n (from the apex height)")
    speeds.set_title(f"(d) the growing bounces (v⁺ < {SMALL_SPEED:g})\nagainst the bounce maps", fontsize=9)
    r = kelvin_voigt_restitution(ZETA)
    for law, ax in ratios.items():
        ax.set_xscale("log")
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("bounce speed v⁺_n")
        ax.set_ylabel("effective restitution e_n = v⁺_{n+1} / v⁺_n")
        restitution = RESTITUTION if law == "bilinear_spring" else r
        ax.set_title(f"(d) {LAWS[law][0]}:\ne → {e_map[law]:.4f} > 1 from r = {restitution:.2f}", fontsize=9)
    for ax in (speeds, *ratios.values()):
        ax.grid(alpha=0.3, which="both")
    proxies = [Line2D([], [], color=c, marker="o", ls="", label=f"α = {alpha:g}") for alpha, c in colours.items()]
    proxies += [Line2D([], [], color="grey", marker=m, ls="", mfc="none", label=f"v₀ = {v:g}")
                for v, m in ((1e-2, "o"), (1e-3, "s"))]  # fmt: skip
    proxies += [Line2D([], [], color="grey", marker="o", ls="", mfc=mfc, label=LAWS[law][0].split(" (")[0])
                for law, mfc in (("bilinear_spring", "grey"), ("kelvin_voigt", "none"))]  # fmt: skip
    proxies += [Line2D([], [], color="black", ls=map_style[law], label=f"bounce map, e = {e_map[law]:.4f} "
                       f"({LAWS[law][0].split(' (limit: ')[1][:-1]})") for law in LAWS]  # fmt: skip
    fig.legend(handles=proxies, loc="outside lower center", ncol=5, fontsize=8)
    fig.suptitle(
        "Fig. 11(c, d): reverse chatter of a rod with body forces (θ = 60°, μ = 1.2, a/(−b) = −2), compliant: "
        f"Stronge's bilinear spring r = {RESTITUTION:g}\n(the paper's law in the limit: Darboux–Keller, energetic r) "
        f"and Kelvin–Voigt ζ = {ZETA:g}; Coulomb friction during impacts",
        fontsize=10,
    )
    png = out_dir / "champneys_fig11cd_reverse_chatter_event.png"
    fig.savefig(png, dpi=150, bbox_inches="tight")
    bounces = out_dir / "champneys_fig11cd_reverse_chatter_event_bounces.csv"
    with bounces.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            ["contact_law", "alpha", "start_speed", "bounce", "apex_time", "speed", "apex_slip", "restitution", "map_e"]
        )
        for (law, alpha, speed), run in runs.items():
            e = np.append(run.restitutions, np.nan)
            for j in range(run.speeds.size):
                writer.writerow(
                    [law, alpha, speed, j, run.apex_times[j], run.speeds[j], run.apex_slips[j], e[j], e_map[law]]
                )
    time_series = out_dir / "champneys_fig11cd_reverse_chatter_event_time_series.csv"
    with time_series.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["contact_law", "alpha", "start_speed", "t", "g_n", "normal_rate", "slip"])
        for (law, alpha, speed), run in runs.items():
            if alpha == 1e8:
                for j in range(0, run.times.size, 10):
                    writer.writerow([law, alpha, speed, run.times[j], run.gaps[j], run.normal_rates[j], run.slips[j]])
    return [png, bounces, time_series]
