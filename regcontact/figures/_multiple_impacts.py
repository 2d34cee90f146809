"""Multiple impacts in chains of balls and a rocking block: the cases of ``kind = "multiple_impacts"``
(:mod:`regcontact.studies.multiple_impacts_study`) at α = 1e2 … 1e6, drawn against their limit law, and the limit
against Siconos' published LZB outputs (``docs/impacts.md``, "Multiple impacts")."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from regcontact.contact import ContactModel, HuntCrossley, ViscousCoulomb
from regcontact.figures import figure
from regcontact.rigid import compliant_limit
from regcontact.studies.multiple_impacts_study import cases, chain_impact, models
from regcontact.systems import BallChain, ball_chain, hertz_stiffness

#: the growth of the α the compliant runs take
ALPHAS = 10.0 ** np.arange(2.0, 7.0)


#: Siconos' LZB outputs for ten steel balls (e = 1, Hertz, k = E* √R per contact), read from siconos/siconos-tutorials
#: examples/mechanics: ChainOfBalls/MonodisperseChainOfBalls-LZBModel.ref and TaperedChainOfBalls-LZBModel.ref (last
#: rows), ColumnOfBeads/BeadColumnED_LZBModel.ref (the row after the landing at t = 0.10096).
SICONOS = {
    "chain": [-0.0710592929, -0.0301862405, -0.0157496031, -0.0088080553, -0.0050623438,
              -0.0029366319, -0.0017018565, 0.0026245174, 0.1469233856, 0.985956121],
    "tapered": [0.0767626907, 0.0353568505, 0.0866154358, 0.0938120386, 0.1016684248,
                0.1100833819, 0.1192955018, 0.1291118449, 0.3072412347, 1.9298327738],
    "column": [0.19769254, 0.45580093, 0.53588723, 0.86367414, 1.00154924,
               1.03207557, 1.06989721, 1.13710345, 1.26873992, 1.55385617],
}  # fmt: skip


def siconos_cases() -> dict[str, BallChain]:
    """Siconos' three cases (their radii and masses up to units, which the elastic Hertz limit does not see): ten
    equal balls struck at 1, ten balls of radii ``0.95^i`` struck at 1, ten beads landing at ``√(2 · 9.81 · 0.05)``."""
    ones, struck, tapered = np.ones(10), np.eye(10)[0], 0.95 ** np.arange(1, 11)
    return {
        "chain": ball_chain(ones, ones, struck),
        "tapered": ball_chain(tapered, tapered**3, struck),
        "column": ball_chain(ones, ones, -math.sqrt(2 * 9.81 * 0.05) * ones, floor=True),
    }


CASE_TITLES = {
    "cradle": "Newton's cradle, 5 equal balls, pendulums ω² = 1",
    "tapered": "tapered chain, radii $0.8^i$, pendulums ω² = 1",
    "column": "column of 5 beads landing, gravity 1",
    "rocking_block": "rocking block landing flat, turning, gravity 1",
}
#: the block's velocities, by their index
BLOCK_VELOCITIES = ("$v_x$", "$v_y$", "$\\omega$")
LAW_STYLES = {
    "hertz": ("Hertz $\\delta^{3/2}$", "o-"),
    "spring_damper": ("spring–damper, $\\gamma \\propto \\sqrt{\\alpha}$", "s--"),
    "bilinear": ("bilinear, e = 0.8", "^:"),
}


@figure("multiple_impacts")
def draw(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    results = {
        (case, law): chain_impact(chain, model, ALPHAS)
        for case, chain in cases().items()
        for law, model in models(chain).items()
    }
    data = out_dir / "multiple_impacts.csv"
    with data.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["case", "law", "alpha", "ball", "v_compliant", "v_limit", "finished"])
        for (case, law), result in results.items():
            for a, alpha in enumerate(ALPHAS):
                for i, v in enumerate(result.compliant[a]):
                    writer.writerow(
                        [
                            case,
                            law,
                            f"{alpha:g}",
                            i + 1,
                            repr(float(v)),
                            repr(float(result.limit[i])),
                            bool(result.finished[a]),
                        ]
                    )
    reference = out_dir / "multiple_impacts_siconos.csv"
    with reference.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["case", "ball", "v_limit_hertz", "v_siconos_lzb"])
        for case, chain in siconos_cases().items():
            k = hertz_stiffness(np.asarray(chain.radii), chain.floor)
            model = ContactModel(HuntCrossley(stiffness=k, exponent=1.5, damping=0.0), ViscousCoulomb(0.0))
            limit = np.asarray(compliant_limit(chain, model)[1])[: chain.num_balls]
            for i, (v, w) in enumerate(zip(limit, SICONOS[case], strict=True)):
                writer.writerow([case, i + 1, repr(float(v)), repr(w)])

    fig = Figure(figsize=(14.0, 8.0))
    FigureCanvasAgg(fig)
    grid = fig.add_gridspec(2, 3)
    panels = [fig.add_subplot(grid[0, i]) for i in range(3)] + [fig.add_subplot(grid[1, 0])]
    error = fig.add_subplot(grid[1, 1:])
    for ax, case in zip(panels, CASE_TITLES, strict=True):
        result = results[(case, "hertz")]
        for i in range(result.limit.size):
            colour = f"C{i}"
            label = BLOCK_VELOCITIES[i] if case == "rocking_block" else f"ball {i + 1}"
            ax.semilogx(
                ALPHAS,
                np.where(result.finished, result.compliant[:, i], np.nan),
                "o-",
                color=colour,
                ms=4,
                lw=1,
                label=label,
            )
            ax.axhline(result.limit[i], color=colour, ls="--", lw=0.8)
        ax.set(title=f"{CASE_TITLES[case]}: Hertz", xlabel="α", ylabel="velocity after the impact")
        ax.title.set_fontsize(9)
    panels[0].legend(fontsize=7, title="compliant (o), limit (--)", title_fontsize=7)
    panels[3].legend(fontsize=7, title="compliant (o), limit (--)", title_fontsize=7)
    colours = {"cradle": "C0", "tapered": "C1", "column": "C2", "rocking_block": "C3"}
    for (case, law), result in results.items():
        name, style = LAW_STYLES[law]
        error.loglog(
            ALPHAS,
            result.errors,
            style,
            color=colours[case],
            ms=4,
            lw=1,
            label=f"{case}, {name}: " + (f"order {order:.2f}" if (order := result.order()) is not None else "no order"),
        )
    error.set(title="distance to the limit law (order: last 3 α)", xlabel="α", ylabel="max_i |v_i − v_i^lim|")
    error.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    path = out_dir / "multiple_impacts.png"
    fig.savefig(path, dpi=110)
    return [path, data, reference]
