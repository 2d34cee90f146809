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

from regcontact import plot as rc_plot  # noqa: E402
from regcontact.compliant import Controls, SolveSettings, force_history  # noqa: E402
from regcontact.figures import figure, study_config  # noqa: E402
from regcontact.studies import FinishedStudy  # noqa: E402
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
        history = jax.jit(force_history, static_argnums=4)(
            case.system, case.contact, case.alpha, controls, settings, ts
        )
        ys, lam = history.states, np.asarray(history.forces[:, 0])
        _, friction = case.contact.at_stiffness(case.alpha)
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


@figure("preclik_fig7_force_integrals", from_results="a compliant sweep of the Painlevé rod (e.g. table1)")
def draw_force_integrals(out_dir: Path, results: FinishedStudy | None = None) -> list[Path]:
    """∫λ_n, ∫λ_t against α with Λ, δt λ̃ and the paper's Table 1, and their distances with the fitted order: from
    the Table 1 study run on a dense grid, or from a finished study's ``results`` (a study without the paper's
    values, of another system or contact, is drawn under its own name: ``preclik_fig7_force_integrals_<name>``)."""
    if results is None:
        loaded = load_study(study_config("table1"), [f"sweep.alpha={list(DENSE_ALPHAS)!r}"])
        results = FinishedStudy.from_result(loaded.kind.run(loaded.config), loaded.config)
    if "int_lambda_n" not in results.table.columns or not results.convergence:
        raise ValueError(
            f"preclik_fig7_force_integrals: the study {results.name!r} is not a one-contact α-sweep with a "
            "convergence analysis (expected int_lambda_n, e.g. results of studies/table1.toml)"
        )
    # The paper's figure only for the paper's study: its config still holds Table 1 (a study of another system or
    # contact has dropped it). Any other study is drawn under its own name, and says so.
    papers = bool(results.config.get("paper", {}).get("int_lambda_n"))
    figure_, axes = plt.subplots(1, 3, figsize=(16.5, 4.4))
    rc_plot.force_integrals(results, axes=axes[:2])
    rc_plot.distances(results, ax=axes[2])
    if papers:
        figure_.suptitle("Convergence of the force integrals to Λ as α → ∞ (Preclik & Rüde Fig. 7)")
    else:
        figure_.suptitle(f"The force integrals of the study {results.name!r} as α → ∞ (drawn as Preclik & Rüde Fig. 7)")
    figure_.tight_layout()
    stem = "preclik_fig7_force_integrals" + ("" if papers else f"_{results.name}")
    png, data = out_dir / f"{stem}.png", out_dir / f"{stem}.csv"
    figure_.savefig(png, dpi=130)
    plt.close(figure_)
    table = results.table
    columns = ["alpha", "int_lambda_n", "int_lambda_t", "impulse_velocity_n", "impulse_velocity_t", "status"]
    _write_csv(
        data,
        ["alpha", "int_lambda_n", "int_lambda_t", "Lambda_n", "Lambda_t", "status"],
        zip(*(table[column].tolist() for column in columns)),
    )
    return [png, data]
