"""The views of an α-sweep: its force integrals against α with the rigid references, and their distances to the
references with the fitted order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from regcontact.plot._axes import missing, new_axes

if TYPE_CHECKING:
    from regcontact.studies import FinishedStudy

__all__ = ["distances", "force_integrals"]


def _column(table: Any, stem: str, contact: int | None) -> str:
    """The column ``stem`` of one contact: ``stem`` alone for a one-contact body, else ``stem_<contact + 1>``."""
    return stem if contact is None or stem in table.columns else f"{stem}_{contact + 1}"


def force_integrals(
    results: FinishedStudy,
    contact: int = 0,
    where: Mapping[str, Any] | None = None,
    axes: Any = None,
    paper: bool = True,
) -> Any:
    """``∫λ_n dt`` and ``∫λ_t dt`` of one contact against α, with the rigid references the study compared them to.

    Drawn on two axes: the compliant integrals (dots), the paper's values where the config has them
    (``[paper]``, open squares), the impulse-velocity solution Λ (dashed) and each time-stepping reaction δt·λ̃
    (dotted) where the study computed them.

    Args:
        results: a finished α-sweep (:func:`~regcontact.load_results`) with ``int_lambda_n`` columns.
        contact: which contact (0-based) of a body with several.
        where: for a sweep over more than α, the values of the other swept keys, e.g. ``{"mu": 1.0}``.
        axes: two matplotlib axes (default: a new figure's).
        paper: draw the config's ``[paper]`` values.

    Returns:
        The two axes.

    Examples:
        >>> import regcontact as rc
        >>> rc.plot.force_integrals(rc.load_results("results/table1"))  # doctest: +SKIP
    """
    table = results.table
    for key, value in (where or {}).items():
        if key not in table.columns:
            raise missing("force_integrals", results, f"column {key!r} to select by")
        table = table[table[key] == value]
    if "alpha" not in table.columns or not any(column.startswith("int_lambda_n") for column in table.columns):
        raise missing("force_integrals", results, "force integrals against α (columns alpha, int_lambda_n)")
    if len(table) == 0:
        raise missing("force_integrals", results, f"rows where {dict(where or {})}")
    if table["alpha"].duplicated().any():
        raise missing("force_integrals", results, "one row per α: give `where` for the other swept keys")
    axes = new_axes(2) if axes is None else axes
    alphas = np.array(table["alpha"].tolist())
    single = results.convergence is not None and len(results.convergence.get("systems", ())) == 1
    steps = results.references.get("time_stepping", {}) if single else {}
    figures = results.config.get("paper", {}) if paper else {}
    for k, (ax, name) in enumerate(zip(axes[:2], ("n", "t"))):
        column = _column(table, f"int_lambda_{name}", contact)
        ax.semilogx(
            alphas,
            np.array(table[column].tolist()),
            "o-",
            ms=3,
            color="tab:blue",
            label=rf"$\int \lambda_{name}\,dt$ (compliant)",
        )
        if f"int_lambda_{name}" in figures and column == f"int_lambda_{name}":
            ax.semilogx(
                figures["alpha"],
                figures[f"int_lambda_{name}"],
                "s",
                mfc="none",
                color="k",
                label="Preclik & Rüde, Table 1",
            )
        reference = _column(table, f"impulse_velocity_{name}", contact)
        if reference in table.columns:
            ax.axhline(
                table[reference].tolist()[0],
                color="tab:green",
                ls="--",
                label=rf"$\Lambda_{name}$ (impulse-velocity LCP)",
            )
        for dt, solutions in steps.items():
            for solution in solutions:
                ax.axhline(
                    np.array(solution["reactions"][contact])[k],
                    color="tab:orange",
                    ls=":",
                    label=rf"$\delta t\,\tilde\lambda_{name}$ (time-stepping, $\delta t$ = {float(dt):g})",
                )
        ax.set_xlabel(r"$\alpha$")
        ax.set_title(rf"$\int \lambda_{name}\,dt$ over one contact time")
        ax.legend(fontsize=8)
    return axes


def distances(results: FinishedStudy, system: int = 0, ax: Any = None, time_stepping: bool = True) -> Any:
    """The distances of the force integrals to the rigid references against α (log-log), with the order fitted to
    the impulse-velocity distances over the fit's range (shaded), as the study's convergence analysis found them.

    Args:
        results: a finished α-sweep with a convergence analysis (``results.convergence``).
        system: which system of a sweep over several (the order of ``results.convergence["systems"]``).
        ax: the matplotlib axes (default: a new figure's).
        time_stepping: draw the distances to the time-stepping reactions too, where the study has them.

    Returns:
        The axes.
    """
    if not results.convergence or not results.convergence.get("systems"):
        raise missing("distances", results, "convergence analysis (a kind without one, or one α)")
    systems = results.convergence["systems"]
    if not 0 <= system < len(systems):
        raise missing("distances", results, f"system {system} (it has {len(systems)})")
    convergence = systems[system]
    ax = new_axes(1) if ax is None else ax
    entries = [("impulse_velocity", convergence.get("impulse_velocity"), "tab:green",
                r"$\|\int\lambda\,dt - \Lambda\|_\infty$")]  # fmt: skip
    for dt, entry in (convergence.get("time_stepping") or {}).items() if time_stepping else ():
        label = rf"$\|\int\lambda\,dt - \delta t\,\tilde\lambda\|_\infty$ ($\delta t$ = {float(dt):g})"
        entries.append(("time_stepping", entry, "tab:orange", label))
    for key, entry, colour, label in entries:
        if not entry or "distances" not in entry:
            continue
        alphas, distance = np.asarray(entry["alpha"], dtype=float), np.asarray(entry["distances"], dtype=float)
        ax.loglog(alphas, distance, "o", ms=3, color=colour, label=label)
        low, high = entry.get("fit_alpha_range") or (np.inf, -np.inf)  # no fit: no range
        inside = (alphas >= low) & (alphas <= high)
        if key == "impulse_velocity" and np.any(inside):
            anchor = np.exp(np.mean(np.log(distance[inside]) + entry["order"] * np.log(alphas[inside])))
            fit = np.geomspace(low, high, 20)
            ax.loglog(fit, anchor * fit ** (-entry["order"]), "-", color="k", lw=1.2,
                      label=f"fit: order {entry['order']:.3f} over α = {low:.0e} … {high:.0e}")  # fmt: skip
            ax.axvspan(low, high, color="0.9", zorder=0)
    ax.set_xlabel(r"$\alpha$")
    ax.set_title("Distance to the rigid references (shaded: the fit's range)")
    ax.legend(fontsize=8)
    return ax
