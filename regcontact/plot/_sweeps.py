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


def window_phrase(config: Mapping[str, Any]) -> str:
    """What a study's force integrals are taken over, from its ``[termination]``: ``over one contact time``,
    ``up to t = 10 or an event``; ``over each run's window`` when the window is swept."""
    termination = config.get("termination", {})
    if (config.get("sweep", {}) or {}).get("termination"):
        return "over each run's window"
    limit = termination.get("time_limit", "contact_time")
    event = " or an event" if termination.get("events") else ""
    if limit == "contact_time":
        times = float(termination.get("contact_times", 1.0))
        return ("over one contact time" if times == 1.0 else f"over {times:g} contact times") + event
    if limit == "impact_time":
        times = float(termination.get("impact_times", 3.0))
        return ("over one impact time" if times == 1.0 else f"over {times:g} impact times") + event
    return f"up to t = {float(limit):g}{event}"


def force_integrals(
    results: FinishedStudy,
    contact: int = 0,
    where: Mapping[str, Any] | None = None,
    axes: Any = None,
    paper: bool = True,
) -> Any:
    """``∫λ_n dt`` and ``∫λ_t dt`` of one contact against α, with the rigid references the study compared them to.

    Drawn on two axes: the compliant integrals (dots), the paper's values where the config has them
    (``[paper]``, open squares, labelled with its ``source``), the impulse-velocity solution Λ (dashed), each
    time-stepping reaction δt·λ̃ (dotted) and the compliant limit's impulse P (dash-dotted) where the study
    computed them. The titles say the window the integrals are taken over, from the study's ``[termination]``.

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
    new = axes is None
    axes = new_axes(2) if new else axes
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
        if figures.get(f"int_lambda_{name}") and column == f"int_lambda_{name}":
            ax.semilogx(
                figures["alpha"],
                figures[f"int_lambda_{name}"],
                "s",
                mfc="none",
                color="k",
                label=figures.get("source") or "the paper's values",
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
        limit = _column(table, f"compliant_limit_{name}", contact)
        values = np.array(table[limit].tolist(), dtype=float) if limit in table.columns else np.array([])
        if np.isfinite(values).any():
            ax.axhline(
                values[np.isfinite(values)][0],
                color="tab:purple",
                ls="-.",
                label=rf"$P_{name}$ (compliant limit)",
            )
        ax.set_xlabel(r"$\alpha$")
        ax.set_title(rf"$\int \lambda_{name}\,dt$ {window_phrase(results.config)}")
        ax.legend(fontsize=8)
    if new:
        axes[0].figure.tight_layout()
    return axes


def distances(results: FinishedStudy, system: int = 0, ax: Any = None, time_stepping: bool = True) -> Any:
    """The distances of the force integrals to the rigid references (the impulse-velocity Λ, the compliant limit P,
    the time-stepping reactions) against α (log-log), with the order fitted over the fit's range (shaded) to the
    distances of the reference the integrals converge to (Λ where they reach neither), as the study's convergence
    analysis found them.

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
    new = ax is None
    ax = new_axes(1) if new else ax
    entries = [("impulse_velocity", convergence.get("impulse_velocity"), "tab:green",
                r"$\|\int\lambda\,dt - \Lambda\|_\infty$"),
               ("compliant_limit", convergence.get("compliant_limit"), "tab:purple",
                r"$\|\int\lambda\,dt - P\|_\infty$ (compliant limit)")]  # fmt: skip
    for dt, entry in (convergence.get("time_stepping") or {}).items() if time_stepping else ():
        label = rf"$\|\int\lambda\,dt - \delta t\,\tilde\lambda\|_\infty$ ($\delta t$ = {float(dt):g})"
        entries.append(("time_stepping", entry, "tab:orange", label))
    # The fit of the reference the integrals converge to (the impulse-velocity Λ where they reach neither).
    fitted = set((convergence.get("converges_to") or {}).get("references") or ["impulse_velocity"])
    for key, entry, colour, label in entries:
        if not entry or "distances" not in entry:
            continue
        alphas, distance = np.asarray(entry["alpha"], dtype=float), np.asarray(entry["distances"], dtype=float)
        open_marker = {"mfc": "none", "ms": 6} if key == "compliant_limit" else {"ms": 3}  # Λ = P shows both
        ax.loglog(alphas, distance, "o", color=colour, label=label, **open_marker)
        low, high = entry.get("fit_alpha_range") or (np.inf, -np.inf)  # no fit: no range
        inside = (alphas >= low) & (alphas <= high)
        if key in fitted and np.any(inside) and entry.get("order") is not None:
            anchor = np.exp(np.mean(np.log(distance[inside]) + entry["order"] * np.log(alphas[inside])))
            fit = np.geomspace(low, high, 20)
            ax.loglog(fit, anchor * fit ** (-entry["order"]), "-", color=colour, lw=1.2,
                      label=f"fit: order {entry['order']:.3f} over α = {low:.0e} … {high:.0e}")  # fmt: skip
            ax.axvspan(low, high, color="0.9", zorder=0)
    ax.set_xlabel(r"$\alpha$")
    ax.set_title("Distance to the rigid references (shaded: the fit's range)")
    ax.legend(fontsize=8)
    if new:
        ax.figure.tight_layout()  # the log axes' tick labels inside the figure
    return ax
