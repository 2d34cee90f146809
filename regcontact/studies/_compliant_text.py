"""The text ``regcontact run`` prints for a compliant study besides its table: the sweep's axes, the convergence
block, one line per failed run. Every number shown is in ``results.json``; this only writes it for a screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from regcontact.studies.sweep_plan import SweepPlan, column_name

__all__ = ["MAX_PRINTED_SYSTEMS", "SHOWN_SYSTEMS", "axes_line", "convergence_lines", "failure_line", "laws_line"]


def _number(value: float) -> str:
    """``1e5``, ``0.01``, ``2.5e-7``: short, for α and δt."""
    return f"{value:.3g}".replace("e+0", "e").replace("e+", "e").replace("e-0", "e-")


def _vector(values: Any) -> str:
    flat = np.ravel(values)
    return "(" + ", ".join(f"{v:.6g}" for v in flat) + ")"


def _reference_line(name: str, entry: dict[str, Any], variable: str = "α") -> list[str]:
    """``impulse_velocity Λ = (…): order 0.503 over α 1e5…1e8 (residual …); limit (…), 2.1e-06 from it``."""
    if entry.get("reference") is None:
        reasons = [warning.removeprefix("no reference: ") for warning in entry["warnings"]]
        label = name.removesuffix(" =").split(" ")[0]
        return [f"  {label}: no reference ({'; '.join(reason.removeprefix(label + ': ') for reason in reasons)})"]
    head = f"  {name} {_vector(entry['reference'])}: "
    if entry["order"] is None:
        head += "no order"
    else:
        low, high = entry["fit_dt_range"] if variable == "δt" else entry["fit_alpha_range"]
        head += f"order {entry['order']:.3f} in {variable} over {variable} {_number(low)}…{_number(high)} "
        head += f"(fit residual {entry['fit_residual']:.1e} decades)"
    if entry["limit"] is not None:
        head += f"; limit {_vector(entry['limit'])}, {entry['distance_of_limit']:.1e} from it"
    return [head, *(f"    warning: {warning}" for warning in entry["warnings"])]


#: Past this many systems the convergence block shows the first and last :data:`SHOWN_SYSTEMS` and counts the
#: warnings (every system is in ``results.json``), so that it fits on a screen.
MAX_PRINTED_SYSTEMS = 10
SHOWN_SYSTEMS = 3


def convergence_lines(convergence: dict[str, Any], alphas: Sequence[float] | None = None) -> list[str]:
    """The convergence block ``regcontact run`` prints after the table; for many systems, the first and last few
    and each distinct warning once, with the number of systems that have it. A sweep of one α (``alphas``, its
    distinct values) has no convergence to show: one line says so."""
    systems = convergence["systems"]
    if alphas is not None and len(alphas) < 2:
        return [
            f"convergence as α → ∞: not analysed, one α ({', '.join(map(_number, alphas))}); give sweep.alpha "
            "several values (e.g. [1e4, 1e5, 1e6, 1e7]) for an order and a limit"
        ]
    lines = [
        "convergence as α → ∞ (d = max-norm distance of the force integrals to the reference, d ∝ α^-order fitted "
        f"over the {convergence['tail_rule']}; limit extrapolated with that order from the last two α):"
    ]
    if "note" in convergence:
        lines.append(f"note: {convergence['note']}")
    if len(systems) <= MAX_PRINTED_SYSTEMS:
        lines += _system_lines(systems)
    else:
        left_out = len(systems) - 2 * SHOWN_SYSTEMS
        first, last = (
            [line for line in _system_lines(part) if not line.lstrip().startswith("warning: ")]
            for part in (systems[:SHOWN_SYSTEMS], systems[-SHOWN_SYSTEMS:])
        )
        lines += [*first, f"… {left_out:,} more systems …", *last]
        counts: dict[str, int] = {}
        for line in _system_lines(systems):
            if line.lstrip().startswith("warning: "):
                counts[line.strip()] = counts.get(line.strip(), 0) + 1
        if counts:
            lines.append(f'warnings over all {len(systems):,} systems (each in results.json, under "convergence"):')
            lines += [f"  {warning} ({count:,} systems)" for warning, count in counts.items()]
    return lines


_IMPACT_LAWS = ("impulse_velocity", "compliant_limit")


def _converges_to_line(entry: dict[str, Any]) -> str:
    """``converges to compliant_limit (order 1.000), not to impulse_velocity (order 0.000); the laws differ by
    2.0e-01``: the verdict of ``entry["converges_to"]`` with the orders behind it."""

    def named(names: list[str]) -> str:
        return " and ".join(f"{name} (order {_order(entry[name]['order'])})" for name in names)

    verdict = entry["converges_to"]
    to = verdict["references"]
    others = [name for name in _IMPACT_LAWS if name not in to]
    if not to:
        said = f"converges to neither {' nor '.join(named([name]) for name in others)}"
    else:
        said = f"converges to {named(to)}" + (f", not to {named(others)}" if others else "")
    return f"  {said}; the laws differ by {verdict['laws_differ_by']:.1e}"


def _order(order: float | None) -> str:
    return "none" if order is None else f"{order:.3f}"


def _system_lines(systems: list[dict[str, Any]]) -> list[str]:
    """The convergence lines of each system: its label, its warnings and one line per reference."""
    lines: list[str] = []
    for entry in systems:
        if entry["system"]:
            lines.append("system " + ", ".join(f"{k}={v:g}" for k, v in entry["system"].items()) + ":")
        lines += [f"  warning: {warning}" for warning in entry.get("warnings", [])]
        if "impulse_velocity" in entry:
            lines += _reference_line("impulse_velocity Λ =", entry["impulse_velocity"])
        if "compliant_limit" in entry:
            lines += _reference_line("compliant_limit P =", entry["compliant_limit"])
        if "converges_to" in entry:
            lines.append(_converges_to_line(entry))
        for dt, step in entry.get("time_stepping", {}).items():
            lines += _reference_line(f"time_stepping δt = {_number(float(dt))}, δt·λ̃ =", step)
        if "time_stepping_trend" in entry:
            trend = entry["time_stepping_trend"]
            if "order" in trend:
                lines += _reference_line("time stepping δt·λ̃ → Λ as δt → 0, Λ =", trend, "δt")
            else:
                lines += [f"  time stepping as δt → 0: {'; '.join(trend['warnings'])}"]
    return lines


def _shown(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float | int) and not isinstance(value, bool) else str(value)


def failure_line(row: dict[str, Any], keys: list[str]) -> str:
    """``alpha=1e+06, mu=1.5, phi0=0.9: max_steps_reached`` (every swept key, the status, a failed check)."""
    values = ", ".join(f"{name}={_shown(row[name])}" for name in keys)
    reason = row["status"] if row["check"] == "passed" else f"{row['status']}, check {row['check']} failed"
    return f"{values}: {reason}"


def axes_line(plan: SweepPlan, systems: int) -> str:
    """``1600 cases: 40 mu × 40 phi0 × 1 alpha, 1600 distinct system(s)`` (zipped keys joined by ``+``)."""
    axes = " × ".join(f"{axis.length} {'+'.join(map(column_name, axis.keys))}" for axis in plan.axes)
    return f"{plan.size} cases: {axes}, {systems} distinct system(s)"


def laws_line(contact: dict[str, Any], swept: list[str]) -> str:
    """``laws: normal spring_damper (stiffness 1·α^1, damping 1·α^1), friction viscous_coulomb (damping 1·α^1)``:
    every parameter of the laws in effect at α = 1 with its α-exponent (``swept`` keys say so instead of a value),
    said before a run so that the laws it integrates are never a guess."""
    sides = []
    for side in ("normal", "friction"):
        values, exponents = contact[side], contact[f"{side}_exponents"]
        parameters = ", ".join(
            f"{name} {'swept' if f'contact.{side}.{name}' in swept else _shown(value)}·α^{_shown(exponents[name])}"
            for name, value in values.items()
        )
        sides.append(f"{side} {contact[f'{side}_law']} ({parameters})")
    return "laws: " + ", ".join(sides)
