"""Table 4 as printed (the text extraction's rows) and how a recomputed table compares with it: the printed
digit and mark runs admit several readings, and the recomputed columns must be one of them."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from regcontact.stability._table4 import ClassResult
from regcontact.stability._two_contact_classes import IMPACT_NAMES, TWO_CONTACT_MODE_NAMES


@dataclass(frozen=True)
class PrintedRow:
    """One row of Table 4 as the text extraction has it: the class, its dual, the digits of the four mode columns
    run together (the column borders and the shading are lost), and the IWC marks run together."""

    name: str
    dual: str
    mode_digits: str
    impact_marks: str


PRINTED_TABLE4: tuple[PrintedRow, ...] = (
    PrintedRow("11", "11", "5 2 1 2 6 2 3 4", ""),
    PrintedRow("12", "12", "5 2 1 6 3 4", ""),
    PrintedRow("13", "41", "5 2 3 1 6 4", ""),
    PrintedRow("14", "31", "4 5 2 3 4 1 6 4", "(x)"),
    PrintedRow("15", "32", "4 5 1 5 6 1 6 4", "(x)"),
    PrintedRow("16", "21", "4 1 6 1 5 6 4 5", "x"),
    PrintedRow("22", "45", "5 3 4 5 3 4", "x"),
    PrintedRow("23", "46", "5 3 3 4 5 4", "x"),
    PrintedRow("24", "36", "4 5 3 4 3 4 5 4", "x (x)"),
    PrintedRow("25", "25", "4 3 4 5 3 4 4 5", "x x (x)"),
    PrintedRow("26", "26", "4 1 2 6 3 4 4 5", "x x"),
    PrintedRow("33", "44", "4 5 3 4 5 3", "(x)"),
    PrintedRow("34", "34", "3 4 5 4 5 3", "(x)"),
    PrintedRow("35", "35", "3 4 5 4 4 5 3 4", "(x)"),
    PrintedRow("42", "42", "4 1 2 6 5 3", ""),
    PrintedRow("43", "43", "4 3 4 5 5 3", "(x)"),
)


def mode_readings(digits: str) -> list[tuple[tuple[int, ...], ...]]:
    """Every way to cut a printed digit run into the four mode columns, each strictly ascending (possibly empty).

    One reading: every mode cell of the row is determined by the text; several: only the run as a whole is.
    """
    values = [int(d) for d in digits.split()]
    readings = []
    for cuts in itertools.combinations_with_replacement(range(len(values) + 1), 3):
        bounds = (0, *cuts, len(values))
        groups = tuple(tuple(values[bounds[i] : bounds[i + 1]]) for i in range(4))
        if all(all(x < y for x, y in zip(g, g[1:])) for g in groups):
            readings.append(groups)
    return readings


def impact_readings(marks: str) -> list[frozenset[str]]:
    """Every assignment of a printed mark run to the columns ``IF, FI, II`` in order: ``x`` in ``IF`` or ``FI``,
    ``(x)`` in ``II`` (the text marks ``II`` only by ``(x)``)."""
    tokens = marks.split()
    allowed = {"x": ("IF", "FI"), "(x)": ("II",)}
    readings = []
    for columns in itertools.combinations(IMPACT_NAMES, len(tokens)):
        if all(column in allowed[token] for token, column in zip(tokens, columns)):
            readings.append(frozenset(columns))
    return readings


@dataclass(frozen=True)
class RowComparison:
    """A printed row against the recomputed class: what agrees and how many readings the text admits."""

    name: str
    dual_agrees: bool
    modes_agree: bool  # the recomputed columns are one reading of the printed digits
    mode_readings: int
    impacts_agree: bool
    impact_readings: int
    computed_digits: str
    computed_marks: str


def compare_with_printed(classes: tuple[ClassResult, ...]) -> tuple[RowComparison, ...]:
    """Each row of :data:`PRINTED_TABLE4` against the recomputed class of the same name."""
    by_name = {c.name: c for c in classes}
    comparisons = []
    for row in PRINTED_TABLE4:
        computed = by_name[row.name]
        columns = tuple(computed.mode_column(mode) for mode in TWO_CONTACT_MODE_NAMES)
        modes = mode_readings(row.mode_digits)
        impacts = impact_readings(row.impact_marks)
        comparisons.append(
            RowComparison(
                name=row.name,
                dual_agrees=computed.dual == row.dual,
                modes_agree=columns in modes,
                mode_readings=len(modes),
                impacts_agree=computed.impacts in impacts,
                impact_readings=len(impacts),
                computed_digits=computed.mode_digits(),
                computed_marks=computed.impact_marks(),
            )
        )
    return tuple(comparisons)
