"""Preclik & Rüde Sec. 5.2 tested: does an initial penetration ``δ = c α^(−p)`` change the limit? The rod over
``(c, p)`` and the six α of Table 1, one vmapped sweep, each run's limit classified at α = 1e8 against the
fast-scale saddle's boundary ``c α^(1−p) = λ_S/k₀`` (``docs/sec52_penetration.md``)."""

from __future__ import annotations

import csv
from pathlib import Path

import jax
import jax.numpy as jnp
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import ListedColormap  # noqa: E402

from regcontact.compliant import SolveSettings, sweep  # noqa: E402
from regcontact.compliant.outcome import END_MODES, classify  # noqa: E402
from regcontact.figures import figure, study_config  # noqa: E402
from regcontact.rigid import force_acceleration, impulse_velocity  # noqa: E402
from regcontact.studies.compliant_study import build_cases  # noqa: E402
from regcontact.studies.loading import load_study  # noqa: E402

__all__ = ["COEFFICIENTS", "LIMITS", "POWERS", "draw_penetration_map", "penetration_map"]

#: The grid: δ = c α^(−p).
COEFFICIENTS = tuple(float(c) for c in np.logspace(-1, 1.5, 11))
POWERS = tuple(float(p) for p in np.linspace(0.25, 1.5, 11))
#: The limit classes at α = 1e8.
LIMITS = (
    "→ (0, 0): the claim holds",
    "→ Λ: impact without collision",
    "grows with α (stored energy → ∞)",
    "neither yet at α = 1e8",
    "failed",
)


def penetration_map(coefficients=COEFFICIENTS, powers=POWERS) -> dict[str, np.ndarray]:
    """The Sec. 5.2 rod over ``coefficients × powers × α``; arrays indexed ``[i_c, i_p, i_α]``."""
    loaded = load_study(study_config("sec52_penetration"), ["system.initial_penetration=0.0"])
    config = loaded.config
    alphas = np.asarray(config["sweep"]["alpha"], dtype=float)
    _, base = build_cases(config)
    c, p, a = np.meshgrid(np.asarray(coefficients), np.asarray(powers), np.arange(len(alphas)), indexing="ij")
    index = a.reshape(-1)
    cases = jax.tree_util.tree_map(lambda leaf: leaf[index], base)
    depth = c.reshape(-1) * alphas[index] ** (-p.reshape(-1))
    cases = type(cases)(cases.system, cases.contact, cases.alpha, cases.controls, penetration=jnp.asarray(depth))
    settings = SolveSettings(
        solver=config["solver"]["name"], events=tuple(config["termination"]["events"]), max_steps=100_000
    )
    runs, _ = sweep(cases, settings, chunk_size=256)
    impulsive, end_mode = classify(cases, runs, settings)
    rod = jax.tree_util.tree_map(lambda leaf: leaf[0], base.system)
    (sliding,) = [s.reaction for s in force_acceleration(rod) if s.mode in ("S+", "S-")]
    (sticking,) = [s.reaction for s in impulse_velocity(rod) if s.mode == "T"]
    shape = c.shape
    return {
        "c": c,
        "p": p,
        "alpha": alphas[a],
        "integrals": np.asarray(runs.force_integrals).reshape(*shape, 2),
        "ok": np.asarray(runs.ok).reshape(shape),
        "impulsive": np.asarray(impulsive).reshape(shape),
        "end_mode": np.asarray(end_mode).reshape(shape),
        "sliding_force": np.asarray(sliding),
        "sticking_impulse": np.asarray(sticking),
        "stiffness": np.asarray(config["contact"]["normal"]["stiffness"]),
    }


def limit_classes(data: dict[str, np.ndarray], tolerance: float = 2e-2) -> np.ndarray:
    """Per ``(c, p)``: index into :data:`LIMITS` from the integrals at the largest α."""
    size = np.max(np.abs(data["integrals"]), axis=-1)
    last = data["integrals"][:, :, -1]
    to_zero = size[:, :, -1] < tolerance
    to_impulse = np.max(np.abs(last - data["sticking_impulse"]), axis=-1) < tolerance
    growing = np.all(np.diff(size, axis=-1) > 0, axis=-1) & (size[:, :, -1] > 1.0)
    classes = np.where(to_zero, 0, np.where(to_impulse, 1, np.where(growing, 2, 3)))
    return np.where(np.all(data["ok"], axis=-1), classes, 4)


@figure("preclik_sec52_penetration_map")
def draw_penetration_map(out_dir: Path) -> list[Path]:
    """The limit of the force integrals over (c, p), with the saddle's c* = λ_S/k₀ at p = 1 and p = 1/2."""
    data = penetration_map()
    classes = limit_classes(data)
    magnitude = np.max(np.abs(data["integrals"][:, :, -1]), axis=-1)
    coefficients, powers = data["c"][:, 0, 0], data["p"][0, :, 0]
    threshold = float(data["sliding_force"][0] / data["stiffness"])

    figure_, axes = plt.subplots(1, 2, figsize=(14, 5.4), constrained_layout=True)
    log_c = np.log10(coefficients)
    step_c, step_p = np.diff(log_c).mean() / 2, np.diff(powers).mean() / 2
    extent = (powers[0] - step_p, powers[-1] + step_p, log_c[0] - step_c, log_c[-1] + step_c)
    colours = ["#31a354", "#e6550d", "#756bb1", "#bcbddc", "#000000"]
    axes[0].imshow(
        classes, origin="lower", extent=extent, aspect="auto", cmap=ListedColormap(colours), vmin=-0.5, vmax=4.5,
        interpolation="nearest",
    )  # fmt: skip
    present = sorted(set(classes.ravel().tolist()))
    handles = [plt.Rectangle((0, 0), 1, 1, color=colours[k]) for k in present]
    axes[0].legend(handles, [LIMITS[k] for k in present], loc="lower left", fontsize=8)
    axes[0].set_title("Limit of the force integrals at α = 1e8")
    image = axes[1].imshow(np.log10(magnitude), origin="lower", extent=extent, aspect="auto", cmap="viridis")
    figure_.colorbar(image, ax=axes[1], label=r"$\log_{10} \|\int\lambda\,dt\|_\infty$ at α = 1e8")
    axes[1].set_title("Size of the force integrals at α = 1e8")
    # The saddle at α = 1e8: a start at rest lifts off iff c α^(1−p) < c* (``docs/sec52_penetration.md``).
    boundary_p = np.linspace(powers[0], 1.0, 50)
    boundary_c = np.log10(threshold) - (1.0 - boundary_p) * np.log10(data["alpha"][0, 0, -1])
    for ax in axes:
        ax.plot(boundary_p, boundary_c, color="w", lw=1.6, ls="--", label=r"$c\,lpha^{1-p} = c^*$ at α = 1e8")
        ax.set_ylim(extent[2], extent[3])
        ax.axvline(1.0, color="w", lw=0.8, ls=":")
        ax.axvline(0.5, color="w", lw=0.8, ls=":")
        ax.plot([1.0], [np.log10(threshold)], marker="X", ms=12, color="k", mec="w", ls="none")
        ax.annotate(
            rf"saddle: $c^* = \lambda_S/k_0$ = {threshold:.2f}", (1.0, np.log10(threshold)), xytext=(8, 8),
            textcoords="offset points", fontsize=8, color="k",
        )  # fmt: skip
        ax.set_xlabel(r"power $p$ in $\delta = c\,\alpha^{-p}$  (p = 1: O(1) force; p = ½: O(1) energy)")
        ax.set_ylabel(r"$\log_{10} c$")
    figure_.suptitle(
        "Preclik & Rüde Sec. 5.2: the non-unique rod (torque of Sec. 2.2) started with a penetration δ = c α^(−p); "
        "k_n = γ_n = γ_t = α"
    )
    png, csv_path = out_dir / "preclik_sec52_penetration_map.png", out_dir / "preclik_sec52_penetration_map.csv"
    figure_.savefig(png, dpi=120)
    plt.close(figure_)
    with open(csv_path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["c", "p", "alpha", "int_lambda_n", "int_lambda_t", "ok", "impulsive", "end_mode", "limit"])
        for i, j, k in np.ndindex(data["ok"].shape):
            writer.writerow(
                [
                    repr(float(data["c"][i, j, k])),
                    repr(float(data["p"][i, j, k])),
                    f"{data['alpha'][i, j, k]:g}",
                    repr(float(data["integrals"][i, j, k, 0])),
                    repr(float(data["integrals"][i, j, k, 1])),
                    bool(data["ok"][i, j, k]),
                    bool(data["impulsive"][i, j, k]),
                    END_MODES[int(data["end_mode"][i, j, k])],
                    LIMITS[int(classes[i, j])],
                ]
            )
    return [png, csv_path]
