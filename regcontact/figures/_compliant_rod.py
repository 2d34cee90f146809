"""Preclik & Rüde Figs. 6 and 7: the compliant Painlevé rod of Sec. 2.1.

Fig. 6 shows the contact forces over time for k_n = γ_n = γ_t = 1e2 and 1e4 (α = 1e2, 1e4); Fig. 7 the force
integrals against α with the impulse-velocity solution Λ and the time-stepping solution δt λ̃ (δt = 0.01).
Both take the rod, laws and solver from ``studies/table1.toml``: Fig. 7 runs that study on a dense α grid
(one vmapped call) and draws its results.
"""

from __future__ import annotations

import csv
from pathlib import Path

import jax
import jax.numpy as jnp
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from regcontact.compliant import Controls, SolveSettings, trajectory  # noqa: E402
from regcontact.compliant.dynamics import CompliantSystem, contact_forces  # noqa: E402
from regcontact.figures import figure, study_config  # noqa: E402
from regcontact.studies.compliant_study import build_cases  # noqa: E402
from regcontact.studies.loading import load_study  # noqa: E402

__all__ = ["draw_force_histories", "draw_force_integrals"]

HISTORY_ALPHAS = (1e2, 1e4)
DENSE_ALPHAS = tuple(float(a) for a in np.logspace(2, 8, 25))


def _write_csv(path: Path, header: list[str], rows) -> None:
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)


@figure("preclik_fig6_compliant_forces")
def draw_force_histories(out_dir: Path) -> list[Path]:
    """λ_n(t), λ_t(t) for α = 1e2 and 1e4 over two contact times, with the slip→stick switch marked.

    The force axis is logarithmic: it shows the exponential growth while sliding (the Painlevé instability), the
    peak at the switch, and the order-one force of the stick phase that follows, on one picture.
    """
    loaded = load_study(
        study_config("table1"), [f"sweep.alpha={list(HISTORY_ALPHAS)!r}", "termination.contact_times=2.0"]
    )
    _, cases = build_cases(loaded.config)
    settings = SolveSettings(solver=loaded.config["solver"]["name"], events=(), max_steps=100_000)
    figure_, axes = plt.subplots(1, len(HISTORY_ALPHAS), figsize=(11, 4.2))
    rows = []
    for i, alpha in enumerate(HISTORY_ALPHAS):
        case = jax.tree_util.tree_map(lambda leaf, i=i: leaf[i], cases)
        ts = jnp.linspace(0.0, case.controls.t_max, 4001)
        controls = Controls(1e-9, 1e-11, case.controls.t_max)
        ys, _ = jax.jit(trajectory, static_argnums=4)(case.system, case.contact, case.alpha, controls, settings, ts)
        normal, friction = case.contact.at_stiffness(case.alpha)
        args = CompliantSystem(case.system, normal, friction)
        lam = np.asarray(jax.vmap(lambda y, args=args: contact_forces(args, y.q, y.v)[0])(ys))
        slip = np.asarray(jax.vmap(lambda y, rod=case.system: rod.jacobian(y.q)[1] @ y.v)(ys))
        sticking = np.abs(np.asarray(friction.damping) * slip) < float(case.system.mu) * lam[:, 0]
        switch = np.argmax(sticking & (np.asarray(ts) > 0))
        t = np.asarray(ts)
        rows += [[alpha, t[k], lam[k, 0], lam[k, 1], slip[k]] for k in range(len(t))]

        ax = axes[i]
        ax.plot(t, lam[:, 0], color="tab:blue", label=r"$\lambda_n$")
        ax.plot(t, lam[:, 1], color="tab:red", label=r"$\lambda_t$")
        ax.axvline(t[switch], color="0.4", ls=":", lw=1)
        ax.annotate("slip → stick", (t[switch], lam[switch, 1]), xytext=(8, 10), textcoords="offset points", fontsize=8)
        ax.axvline(t[-1] / 2, color="0.6", ls="--", lw=1)
        ax.set_yscale("log")
        ax.set_ylim(1e-2, 3 * lam.max())
        ax.text(t[-1] / 2, lam.max(), "  one contact time\n  (Table 1 window)", fontsize=8, color="0.4", va="top")
        ax.set_title(rf"$k_n = \gamma_n = \gamma_t = 10^{{{int(np.log10(alpha))}}}$")
        ax.set_xlabel("t")
        ax.set_ylabel("contact force (log scale)")
        ax.legend(loc="lower right")
    figure_.suptitle("Compliant Painlevé rod (Preclik & Rüde Fig. 6): sliding, impulsive switch to stick, stick")
    figure_.tight_layout()
    png, data = out_dir / "preclik_fig6_compliant_forces.png", out_dir / "preclik_fig6_compliant_forces.csv"
    figure_.savefig(png, dpi=130)
    plt.close(figure_)
    _write_csv(data, ["alpha", "t", "lambda_n", "lambda_t", "slip_rate"], rows)
    return [png, data]


def _draw_distances(ax, convergence: dict, dt: float) -> None:
    """Log-log distances to Λ and to δt·λ̃ with the fitted order over the fit range (``regcontact.convergence``)."""
    for key, entry, colour, label in (
        ("impulse_velocity", convergence["impulse_velocity"], "tab:green", r"$\|\int\lambda\,dt - \Lambda\|_\infty$"),
        (
            "time_stepping",
            convergence["time_stepping"][repr(dt)],
            "tab:orange",
            rf"$\|\int\lambda\,dt - \delta t\,\tilde\lambda\|_\infty$ ($\delta t$ = {dt:g})",
        ),
    ):
        alphas, distances = np.asarray(entry["alpha"]), np.asarray(entry["distances"])
        ax.loglog(alphas, distances, "o", ms=3, color=colour, label=label)
        low, high = entry["fit_alpha_range"]
        inside = (alphas >= low) & (alphas <= high)
        if key == "impulse_velocity" and np.any(inside):
            anchor = np.exp(np.mean(np.log(distances[inside]) + entry["order"] * np.log(alphas[inside])))
            fit = np.geomspace(low, high, 20)
            ax.loglog(fit, anchor * fit ** (-entry["order"]), "-", color="k", lw=1.2,
                      label=f"fit: order {entry['order']:.3f} over α = {low:.0e} … {high:.0e}")  # fmt: skip
            ax.axvspan(low, high, color="0.9", zorder=0)
    ax.set_xlabel(r"$\alpha$")
    ax.set_title("Distance to the rigid references (shaded: the fit's range)")
    ax.legend(fontsize=8)


@figure("preclik_fig7_force_integrals")
def draw_force_integrals(out_dir: Path) -> list[Path]:
    """∫λ_n, ∫λ_t against α from the Table 1 study on a dense grid, with Λ, δt λ̃ and the paper's Table 1."""
    loaded = load_study(study_config("table1"), [f"sweep.alpha={list(DENSE_ALPHAS)!r}"])
    result = loaded.kind.run(loaded.config)
    paper = loaded.config["paper"]
    alphas = np.array([row["alpha"] for row in result.rows])
    integrals = np.array([[row["int_lambda_n"], row["int_lambda_t"]] for row in result.rows])
    (impulse,) = np.array(result.references["impulse_velocity"])  # per contact: the rod has one
    ((dt, steps),) = result.references["time_stepping"].items()
    (stepped,) = [np.array(s["reactions"][0]) for s in steps]  # the rod has one contact

    figure_, axes = plt.subplots(1, 3, figsize=(16.5, 4.4))
    for k, (ax, name) in enumerate(zip(axes[:2], ("n", "t"))):
        ax.semilogx(
            alphas, integrals[:, k], "o-", ms=3, color="tab:blue", label=rf"$\int \lambda_{name}\,dt$ (compliant)"
        )
        ax.semilogx(
            paper["alpha"], paper[f"int_lambda_{name}"], "s", mfc="none", color="k", label="Preclik & Rüde, Table 1"
        )
        ax.axhline(impulse[k], color="tab:green", ls="--", label=rf"$\Lambda_{name}$ (impulse-velocity LCP)")
        ax.axhline(
            stepped[k],
            color="tab:orange",
            ls=":",
            label=rf"$\delta t\,\tilde\lambda_{name}$ (time-stepping, $\delta t$ = {float(dt):g})",
        )
        ax.set_xlabel(r"$\alpha$")
        ax.set_title(rf"$\int \lambda_{name}\,dt$ over one contact time")
        ax.legend(fontsize=8)
    _draw_distances(axes[2], result.extra["convergence"]["systems"][0], float(dt))
    figure_.suptitle("Convergence of the force integrals to Λ as α → ∞ (Preclik & Rüde Fig. 7)")
    figure_.tight_layout()
    png, data = out_dir / "preclik_fig7_force_integrals.png", out_dir / "preclik_fig7_force_integrals.csv"
    figure_.savefig(png, dpi=130)
    plt.close(figure_)
    _write_csv(
        data,
        ["alpha", "int_lambda_n", "int_lambda_t", "Lambda_n", "Lambda_t", "status"],
        [[row["alpha"], row["int_lambda_n"], row["int_lambda_t"], *impulse, row["status"]] for row in result.rows],
    )
    return [png, data]
