"""Does the contact break after the impulse? The Table 1 rod over the plane of the α-exponents of ``k_n`` and
``γ_n``, one vmapped sweep: per cell whether the contact broke, and the integrals "until contact breaks" against
Λ and the paper's digits (``docs/table1.md``; the contact breaks exactly when ``e_k > e_γ``)."""

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

from regcontact.compliant import Controls, SolveSettings, sweep, trajectory  # noqa: E402
from regcontact.compliant.dynamics import CompliantSystem, contact_forces  # noqa: E402
from regcontact.compliant.termination import contact_time  # noqa: E402
from regcontact.figures import figure, study_config  # noqa: E402
from regcontact.rigid import rigid_references  # noqa: E402
from regcontact.studies.compliant_study import build_cases  # noqa: E402
from regcontact.studies.loading import load_study  # noqa: E402

__all__ = [
    "EXPONENTS",
    "SERIES",
    "WINDOW_CONTACT_TIMES",
    "contact_break_map",
    "draw_contact_break_time_series",
    "draw_exponent_plane",
]

#: The grid of exponents, both axes (Preclik & Rüde: e_k = e_γ = 1; Champneys & Várkonyi: e_k = 1, e_γ = 1/2).
EXPONENTS = tuple(float(e) for e in np.linspace(0.5, 1.5, 21))
#: How long a run may take to break contact, in contact times ``π √(m_n / k_n)`` of its own ``k_n``.
WINDOW_CONTACT_TIMES = 10.0


def contact_break_map(exponents=EXPONENTS, window: float = WINDOW_CONTACT_TIMES) -> dict[str, np.ndarray]:
    """Run the Table 1 rod over ``exponents × exponents × α`` in one sweep; arrays indexed ``[i_k, i_γ, i_α]``.

    Returns ``e_k``, ``e_gamma``, ``alpha`` (grids), ``broke`` (the contact opened within the window),
    ``integrals`` (``[..., 2]``, until the run ended), ``ok``, ``t_end``, ``steps``, and ``impulse`` (Λ) and
    ``paper`` (Table 1, ``[α, 2]``) for the comparison.
    """
    loaded = load_study(study_config("table1"))
    config = loaded.config
    alphas = np.asarray(config["sweep"]["alpha"], dtype=float)
    _, base = build_cases(config)  # one case per α, the rod and laws of the study
    e_k, e_gamma, alpha_index = np.meshgrid(np.asarray(exponents), np.asarray(exponents), np.arange(len(alphas)))
    e_k, e_gamma = np.swapaxes(e_k, 0, 1), np.swapaxes(e_gamma, 0, 1)  # [i_k, i_γ, i_α]
    alpha_index = np.swapaxes(alpha_index, 0, 1)
    flat_index = alpha_index.reshape(-1)
    cases = jax.tree_util.tree_map(lambda leaf: leaf[flat_index], base)
    exponent_law = cases.contact.normal_exponents
    exponent_law = type(exponent_law)(stiffness=jnp.asarray(e_k.reshape(-1)), damping=jnp.asarray(e_gamma.reshape(-1)))
    contact = type(cases.contact)(
        cases.contact.normal, cases.contact.friction, exponent_law, cases.contact.friction_exponents
    )
    rod = jax.tree_util.tree_map(lambda leaf: leaf[0], base.system)
    stiffness = config["contact"]["normal"]["stiffness"] * alphas[flat_index] ** e_k.reshape(-1)
    t_max = window * np.asarray(contact_time(rod, jnp.asarray(stiffness)))
    controls = type(cases.controls)(cases.controls.rtol, cases.controls.atol, jnp.asarray(t_max))
    cases = type(cases)(system=cases.system, contact=contact, alpha=cases.alpha, controls=controls)
    settings = SolveSettings(solver=config["solver"]["name"], events=("contact_open",), max_steps=100_000)
    runs, timings = sweep(cases, settings, chunk_size=512)
    shape = e_k.shape
    paper = np.stack([config["paper"]["int_lambda_n"], config["paper"]["int_lambda_t"]], axis=-1)
    return {
        "e_k": e_k,
        "e_gamma": e_gamma,
        "alpha": alphas[alpha_index],
        "broke": (np.asarray(runs.termination) == 1).reshape(shape),
        "ok": np.asarray(runs.ok).reshape(shape),
        "integrals": np.asarray(runs.force_integrals).reshape(*shape, 2),
        "t_end": np.asarray(runs.t_end).reshape(shape),
        "steps": np.asarray(runs.num_steps).reshape(shape),
        "impulse": np.asarray(rigid_references(rod).impulse).reshape(-1),
        "paper": paper,
        "solve_s": np.asarray(timings.compile_s + timings.run_s),
    }


def _digits(integrals: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """Digits shared with the paper's 4-digit values: ``−log10`` of the largest relative difference (a cell's
    six α and two integrals), capped at the 4 digits the paper prints."""
    relative = np.max(np.abs(integrals - paper) / np.abs(paper), axis=(-1, -2))
    return np.minimum(-np.log10(np.maximum(relative, 1e-12)), 4.0)


@figure("preclik_exponent_plane_contact_break")
def draw_exponent_plane(out_dir: Path) -> list[Path]:
    """Three panels over (e_k, e_γ): does the contact break, distance to Λ at α = 1e8, digits of Table 1."""
    data = contact_break_map()
    e_k, e_gamma = data["e_k"][:, :, 0], data["e_gamma"][:, :, 0]
    broke, ok = data["broke"], data["ok"]
    distance = np.max(np.abs(data["integrals"] - data["impulse"]), axis=-1)
    broke_all = np.all(broke & ok, axis=-1)
    breaks_count = np.sum(broke & ok, axis=-1)
    digits = np.where(broke_all, _digits(data["integrals"], data["paper"]), np.nan)
    last = np.where(broke[:, :, -1] & ok[:, :, -1], distance[:, :, -1], np.nan)

    figure_, axes = plt.subplots(1, 3, figsize=(16, 5.0), constrained_layout=True)
    extent = (e_gamma.min(), e_gamma.max(), e_k.min(), e_k.max())
    step = (e_gamma.max() - e_gamma.min()) / (e_gamma.shape[1] - 1)
    extent = (extent[0] - step / 2, extent[1] + step / 2, extent[2] - step / 2, extent[3] + step / 2)
    counts = axes[0].imshow(
        breaks_count, origin="lower", extent=extent, aspect="auto", vmin=0, vmax=broke.shape[-1],
        cmap=ListedColormap(plt.get_cmap("viridis")(np.linspace(0, 1, broke.shape[-1] + 1))),
    )  # fmt: skip
    figure_.colorbar(counts, ax=axes[0], label="α of Table 1 (of 6) at which the contact breaks")
    axes[0].set_title("Does the contact break after the impulse?")
    image = axes[1].imshow(np.log10(last), origin="lower", extent=extent, aspect="auto", cmap="magma_r")
    figure_.colorbar(image, ax=axes[1], label=r"$\log_{10}\,\|\int\lambda\,dt - \Lambda\|_\infty$ at α = 1e8")
    axes[1].set_title("Integrals until contact breaks: distance to Λ")
    image = axes[2].imshow(digits, origin="lower", extent=extent, aspect="auto", cmap="cividis", vmin=0, vmax=4)
    figure_.colorbar(image, ax=axes[2], label="digits shared with Table 1 (all six α)")
    axes[2].set_title("Integrals until contact breaks vs Preclik & Rüde's Table 1")
    for ax in axes:
        ax.plot([0.5, 1.5], [0.5, 1.5], color="w" if ax is not axes[0] else "k", ls="--", lw=1.2)
        ax.plot([1.0], [1.0], marker="*", ms=14, color="tab:red", ls="none", label="Preclik & Rüde (1, 1)")
        ax.plot([0.5], [1.0], marker="D", ms=8, color="tab:orange", ls="none", label="Champneys & Várkonyi (1, ½)")
        ax.set_xlabel(r"$e_\gamma$  ($\gamma_n = \alpha^{e_\gamma}$)")
        ax.set_ylabel(r"$e_k$  ($k_n = \alpha^{e_k}$)")
        ax.set_facecolor("0.85")
    axes[0].text(0.55, 1.42, "breaks\n(spring wins: $e_k > e_\\gamma$)", fontsize=9, va="top")
    axes[0].text(1.05, 0.6, "stays on the ground\n(damper wins: $e_k < e_\\gamma$)", fontsize=9, color="w")
    axes[0].legend(loc="lower right", fontsize=8)
    figure_.suptitle(
        r"Table 1 rod, $k_n = \alpha^{e_k}$, $\gamma_n = \alpha^{e_\gamma}$, $\gamma_t = \alpha$, α = 1e3 … 1e8; "
        f"each run ends when the contact opens or after {WINDOW_CONTACT_TIMES:g} contact times "
        "(grey: no break, middle at α = 1e8, right at some α)"
    )
    png = out_dir / "preclik_exponent_plane_contact_break.png"
    csv_path = out_dir / "preclik_exponent_plane_contact_break.csv"
    figure_.savefig(png, dpi=120)
    plt.close(figure_)
    with open(csv_path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            ["e_k", "e_gamma", "alpha", "contact_breaks", "ok", "int_lambda_n", "int_lambda_t", "distance_to_Lambda"]
            + ["t_end", "n_steps"]
        )
        for index in np.ndindex(broke.shape):
            writer.writerow(
                [
                    f"{data['e_k'][index]:.4g}",
                    f"{data['e_gamma'][index]:.4g}",
                    f"{data['alpha'][index]:g}",
                    bool(broke[index]),
                    bool(ok[index]),
                    repr(float(data["integrals"][index][0])),
                    repr(float(data["integrals"][index][1])),
                    repr(float(distance[index])),
                    repr(float(data["t_end"][index])),
                    int(data["steps"][index]),
                ]
            )
    return [png, csv_path]


#: The runs drawn as time series: (e_k, e_γ, α); Preclik & Rüde's scaling and one above the diagonal.
SERIES = ((1.0, 1.0, 1e4), (1.0, 1.0, 1e6), (1.25, 1.0, 1e4), (1.25, 1.0, 1e6))


@figure("preclik_contact_break_time_series")
def draw_contact_break_time_series(out_dir: Path) -> list[Path]:
    """Gap, normal force, slip rate over time for (e_k, e_γ) on and above the diagonal: the mechanism."""
    loaded = load_study(study_config("table1"))
    _, base = build_cases(loaded.config)
    rod = jax.tree_util.tree_map(lambda leaf: leaf[0], base.system)
    contact0 = jax.tree_util.tree_map(lambda leaf: leaf[0], base.contact)
    settings = SolveSettings(solver=loaded.config["solver"]["name"], events=("contact_open",), max_steps=100_000)
    solve = jax.jit(trajectory, static_argnums=4)
    figure_, axes = plt.subplots(3, 1, figsize=(9, 9), sharex=True, constrained_layout=True)
    rows = []
    for e_k, e_gamma, alpha in SERIES:
        exponents = type(contact0.normal_exponents)(stiffness=e_k, damping=e_gamma)
        contact = type(contact0)(contact0.normal, contact0.friction, exponents, contact0.friction_exponents)
        t_c = float(contact_time(rod, jnp.asarray(alpha**e_k)))
        ts = jnp.linspace(0.0, 4.0 * t_c, 2001)
        states, _ = solve(rod, contact, jnp.asarray(alpha), Controls(1e-10, 1e-12, 4.0 * t_c), settings, ts)
        normal, friction = contact.at_stiffness(alpha)
        args = CompliantSystem(rod, normal, friction)
        q, v = np.asarray(states.q), np.asarray(states.v)
        done = np.all(np.isfinite(q), axis=1)
        q, v, t = q[done], v[done], np.asarray(ts)[done]
        forces = np.asarray(
            jax.vmap(lambda qi, vi, args=args: contact_forces(args, qi, vi)[0])(jnp.asarray(q), jnp.asarray(v))
        )
        gaps = np.asarray(jax.vmap(lambda qi: rod.gaps(qi)[0, 0])(jnp.asarray(q)))
        slips = np.asarray(jax.vmap(lambda qi, vi: (rod.jacobians(qi) @ vi)[0, 1])(jnp.asarray(q), jnp.asarray(v)))
        label = rf"$e_k$ = {e_k:g}, $e_\gamma$ = {e_gamma:g}, α = 1e{int(np.log10(alpha))}"
        style = dict(ls="-" if e_k == e_gamma else "--", lw=1.3)
        axes[0].plot(t / t_c, gaps * alpha**e_gamma, label=label, **style)
        axes[1].plot(t / t_c, forces[:, 0], label=label, **style)
        axes[2].plot(t / t_c, slips, label=label, **style)
        rows += [[e_k, e_gamma, alpha, ti, g, f[0], f[1], s] for ti, g, f, s in zip(t, gaps, forces, slips)]
    axes[0].axhline(0.0, color="k", lw=0.6)
    axes[0].set_ylabel(r"gap $g_n \cdot \alpha^{e_\gamma}$")
    axes[0].set_title("The gap, scaled by the damper's length scale: above the diagonal it opens (the rod bounces)")
    axes[1].set_yscale("symlog", linthresh=1.0)
    axes[1].set_ylim(bottom=0.0)
    axes[1].set_ylabel(r"$\lambda_n$")
    axes[1].set_title("Normal force: the impulse, then the spring's push; on the diagonal it settles at the weight")
    axes[2].set_ylabel(r"slip rate $\dot g_t$")
    axes[2].set_xlabel(r"$t / t_c$   (contact times of each run's own $k_n$)")
    axes[2].set_title("Slip: the impulse turns sliding into sticking in every run")
    axes[0].legend(fontsize=8)
    figure_.suptitle(
        r"Table 1 rod, $k_n = \alpha^{e_k}$, $\gamma_n = \alpha^{e_\gamma}$: why the contact breaks or not"
    )
    png = out_dir / "preclik_contact_break_time_series.png"
    csv_path = out_dir / "preclik_contact_break_time_series.csv"
    figure_.savefig(png, dpi=120)
    plt.close(figure_)
    with open(csv_path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["e_k", "e_gamma", "alpha", "t", "gap", "lambda_n", "lambda_t", "slip_rate"])
        writer.writerows(rows)
    return [png, csv_path]
