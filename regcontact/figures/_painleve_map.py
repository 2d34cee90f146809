"""The Painlevé map: the compliant rod over (μ, φ₀) at a large α, with the rigid boundaries.

Runs ``studies/painleve_map.toml`` (one vmapped sweep) and draws, per case, what the compliant run did
(impulsive or not, and how it ended: :mod:`regcontact.compliant.outcome`) and how far its force integrals are
from the rigid impulse the study's rule picks (README, "Which rigid impulse is the reference"). Over it the
rigid boundaries of Preclik & Rüde: ``A(φ, μ) = 0`` (Eq. 10; below the curve, ``A < 0``, the sliding rod has no
force solution since ``b > 0`` without torque) and ``μ_crit = 4/3`` (Appendix A), the smallest μ with any such φ.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import ListedColormap  # noqa: E402

from regcontact.figures import figure, study_config  # noqa: E402
from regcontact.plot import OUTCOMES, window_phrase  # noqa: E402  (the outcome classes drawn, with their colours)
from regcontact.rigid import critical_friction, painleve_coefficient  # noqa: E402
from regcontact.studies import FinishedStudy  # noqa: E402
from regcontact.studies.loading import load_study  # noqa: E402
from regcontact.studies.sweep_plan import ALPHA, column_name, plan_sweep  # noqa: E402

__all__ = ["draw_painleve_map"]


def _rows(results: FinishedStudy) -> list[dict[str, Any]]:
    """The rows of a finished study as the study gives them: Python values, a blank result ``None``."""
    table = results.table.astype(object)
    return table.where(results.table.notna(), None).to_dict("records")


#: What the figure draws, as its refusals say it: ``EXPECTED`` to a study of another shape, ``ALONE`` after the
#: reason a sweep over μ and φ₀ cannot be drawn.
EXPECTED = "a compliant sweep of the rod over mu and phi0 at one α (e.g. results of studies/painleve_map.toml)"
ALONE = "a compliant sweep of the rod over mu and phi0 alone, each on an axis of its own, at one α"
_MU, _PHI0 = ("system.mu",), ("system.phi0",)


def _check_map(kind: str, config: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    """Raise ``ValueError`` in one line unless the study is a compliant sweep over a grid of μ and φ₀ at one α,
    every case in its rows: a key swept besides (or a zipped μ, φ₀) would put several runs on one cell."""
    name = config.get("study", {}).get("name") if isinstance(config.get("study"), dict) else None

    def refuse(why: str = "") -> ValueError:
        said = f"{why}; the figure draws {ALONE} (e.g. results of studies/painleve_map.toml)" if why else None
        return ValueError(f"painleve_map: the study {name!r} {said or 'is not ' + EXPECTED}")

    if kind != "compliant_sweep" or not rows or "impulsive" not in rows[0]:
        raise refuse()
    system = config.get("system", {}).get("kind", "painleve_rod") if isinstance(config.get("system"), dict) else None
    if system != "painleve_rod":
        raise refuse(f"is of the system {system!r}, not the Painlevé rod whose A = 0 and μ_crit it draws")
    try:
        plan = plan_sweep(config)
    except (KeyError, TypeError, ValueError):  # no sweep's config
        raise refuse() from None
    if not {_MU[0], _PHI0[0]} <= set(plan.keys):
        raise refuse()
    for axis in plan.axes:
        names = " and ".join(column_name(key) for key in axis.keys)
        if axis.keys in (_MU, _PHI0) or axis.length == 1:
            continue
        if len(axis.keys) > 1:
            raise refuse(f"sweeps {names} zipped, along one axis of {axis.length} values")
        if axis.keys == (ALPHA,):
            raise refuse(f"sweeps alpha over {axis.length} values")
        raise refuse(f"also sweeps {names} ({axis.length} values), and each cell would show its last value's run")
    if len(rows) != plan.size:
        raise refuse(f"has {len(rows):,} rows for its {plan.size:,} cases")


@figure("painleve_map", from_results="a compliant sweep of the Painlevé rod over mu and phi0 at one α (painleve_map)")
def draw_painleve_map(out_dir: Path, results: FinishedStudy | None = None) -> list[Path]:
    """Outcome and distance to the rigid impulse over (μ, φ₀), with A = 0 and μ_crit drawn: from the Painlevé map
    study, run here or finished (``results``)."""
    if results is None:
        loaded = load_study(study_config("painleve_map"))
        config, rows = loaded.config, loaded.kind.run(loaded.config).rows
    else:
        config, rows = results.config, _rows(results)
    _check_map(results.kind.NAME if results is not None else loaded.kind.NAME, config, rows)
    mus = np.array(sorted({row["mu"] for row in rows}))
    phis = np.array(sorted({row["phi0"] for row in rows}))
    index = {(row["mu"], row["phi0"]): row for row in rows}
    keys = list(OUTCOMES)
    codes = np.full((len(phis), len(mus)), np.nan)
    distance = np.full((len(phis), len(mus)), np.nan)
    for i, phi in enumerate(phis):
        for j, mu in enumerate(mus):
            row = index[(mu, phi)]
            key = ("", "") if row["end_mode"] is None else (str(row["impulsive"]), row["end_mode"])
            codes[i, j] = keys.index(key)
            if row.get("distance_to_impulse_velocity") is not None:
                distance[i, j] = row["distance_to_impulse_velocity"]

    alpha = config["sweep"]["alpha"][0]
    mass, length = config["system"]["mass"], config["system"]["length"]
    inertia = config["system"]["inertia"]
    inertia = None if inertia == "slender" else inertia
    fine_mu = np.linspace(mus.min(), mus.max(), 400)
    fine_phi = np.linspace(phis.min(), phis.max(), 400)
    coefficient = painleve_coefficient(fine_phi[:, None], fine_mu[None, :], mass, length, inertia)
    mu_crit = critical_friction(mass, length, inertia)

    figure_, axes = plt.subplots(1, 2, figsize=(14, 5.6), constrained_layout=True)
    step_mu, step_phi = np.diff(mus).mean() / 2, np.diff(phis).mean() / 2
    extent = (
        mus.min() - step_mu,
        mus.max() + step_mu,
        np.degrees(phis.min() - step_phi),
        np.degrees(phis.max() + step_phi),
    )
    colours = ListedColormap([colour for _, colour in OUTCOMES.values()])
    axes[0].imshow(
        codes, origin="lower", extent=extent, aspect="auto", cmap=colours, vmin=-0.5, vmax=len(OUTCOMES) - 0.5,
        interpolation="nearest",
    )  # fmt: skip
    present = sorted({int(c) for c in codes[np.isfinite(codes)]})
    handles = [plt.Rectangle((0, 0), 1, 1, color=OUTCOMES[keys[c]][1]) for c in present]
    axes[0].legend(handles, [OUTCOMES[keys[c]][0] for c in present], loc="upper left", fontsize=8)
    axes[0].set_title(f"What the compliant rod does (α = {alpha:.0e}, {window_phrase(config)})")
    image = axes[1].imshow(np.log10(distance), origin="lower", extent=extent, aspect="auto", cmap="magma_r")
    figure_.colorbar(
        image, ax=axes[1], label=r"$\log_{10}\,\|\int\lambda\,dt - \Lambda\|_\infty$ (chosen rigid impulse)"
    )
    axes[1].set_title("Distance of the force integrals to the rigid prediction")
    for ax in axes:
        ax.contour(fine_mu, np.degrees(fine_phi), coefficient, levels=[0.0], colors="k", linewidths=1.6)
        ax.axvline(mu_crit, color="k", ls="--", lw=1.2)
        shown = "4/3" if math.isclose(mu_crit, 4.0 / 3.0, rel_tol=1e-12) else f"{mu_crit:.3g}"
        ax.text(mu_crit + 0.02, np.degrees(phis.min()) + 2, rf"$\mu_{{crit}} = {shown}$", fontsize=9)
        ax.set_xlabel(r"friction coefficient $\mu$")
        ax.set_ylabel(r"initial angle $\varphi_0$ (degrees)")
    negative = coefficient < 0.0  # labelled where the shipped map has room, else at the middle of the region
    at = (2.0, math.radians(66.0))
    if negative.any():
        inside = fine_mu[0] <= at[0] <= fine_mu[-1] and fine_phi[0] <= at[1] <= fine_phi[-1]
        if not (inside and painleve_coefficient(at[1], at[0], mass, length, inertia) < 0.0):
            rows_, columns_ = np.nonzero(negative)
            at = (float(fine_mu[columns_].mean()), float(fine_phi[rows_].mean()))
        axes[1].text(at[0], np.degrees(at[1]), "A < 0\n(no force solution)", fontsize=9, ha="center")
    figure_.suptitle(
        "The Painlevé map: the compliant rod sliding left at normal rest (Preclik & Rüde Sec. 2.1) over (μ, φ₀); "
        "solid line A(φ, μ) = 0 (Eq. 10)"
    )
    png, data = out_dir / "painleve_map.png", out_dir / "painleve_map.csv"
    figure_.savefig(png, dpi=120)
    plt.close(figure_)
    columns = ["mu", "phi0", "alpha", "int_lambda_n", "int_lambda_t", "impulse_velocity_n", "impulse_velocity_t"]
    columns += ["distance_to_impulse_velocity", "impulsive", "end_mode", "termination", "status", "check"]
    with open(data, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        writer.writerows([[row.get(column) for column in columns] for row in rows])
    return [png, data]
