"""Table 4 of Champneys & Várkonyi (2016, Sec. 6) written and drawn: the recomputed classes of two
forward-slipping contacts and their subclasses as CSV, and the printed rows rendered with the paper's shading
(grey: unstable, yellow: depends on ``p⁺`` and the contact law, white: stable), each compared with the print."""

from __future__ import annotations

import csv
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from regcontact.figures import figure  # noqa: E402
from regcontact.stability import (  # noqa: E402
    IMPACT_NAMES,
    PRINTED_TABLE4,
    TWO_CONTACT_MODE_NAMES,
    compare_with_printed,
    recompute_table4,
)

TABLE4_NAME = "champneys_table4_two_contact_classes"

SHADES = {"unstable": "0.72", "depends": "#fff3a0", "stable": "white"}


def _cell_shade(result, mode: str) -> str:
    if mode == "S+S+":
        return SHADES[result.slip_slip_stability]
    if mode == "S+F":
        return SHADES["stable" if result.slip_free_stable else "unstable"]
    if mode == "FS+":
        return SHADES["stable" if result.free_slip_stable else "unstable"]
    return "white"


@figure(TABLE4_NAME)
def draw_table4(out_dir: Path) -> list[Path]:
    """Table 4 recomputed: CSV of all 24 classes and of the 144 subclasses, and a PNG of the printed rows."""
    return write_table4(out_dir, recompute_table4())


def write_table4(out_dir: Path, classes) -> list[Path]:
    """CSVs and PNG of Table 4 from :func:`~regcontact.stability.recompute_table4`'s classes."""
    out_dir.mkdir(parents=True, exist_ok=True)
    comparisons = {c.name: c for c in compare_with_printed(classes)}
    printed = {row.name: row for row in PRINTED_TABLE4}
    table_csv = out_dir / f"{TABLE4_NAME}.csv"
    with table_csv.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(
            [
                "class",
                "dual",
                "printed_row",
                *TWO_CONTACT_MODE_NAMES,
                *IMPACT_NAMES,
                "slip_slip_stability",
                "slip_slip_stable_fraction",
                "slip_slip_stability_k_q_minus_1",
                "slip_slip_law_dependent",
                "slip_free_stable",
                "free_slip_stable",
                "printed_mode_digits",
                "printed_impact_marks",
                "dual_agrees",
                "modes_agree",
                "mode_readings",
                "impacts_agree",
                "impact_readings",
            ]
        )
        for result in classes:
            row, comparison = printed.get(result.name), comparisons.get(result.name)
            check = (
                [
                    row.mode_digits,
                    row.impact_marks,
                    comparison.dual_agrees,
                    comparison.modes_agree,
                    comparison.mode_readings,
                    comparison.impacts_agree,
                    comparison.impact_readings,
                ]
                if row and comparison
                else ["", "", "", "", "", "", ""]
            )
            writer.writerow(
                [
                    result.name,
                    result.dual,
                    row is not None,
                    *(" ".join(map(str, result.mode_column(mode))) for mode in TWO_CONTACT_MODE_NAMES),
                    *(
                        {"IF": "x", "FI": "x", "II": "(x)"}[name] if name in result.impacts else ""
                        for name in IMPACT_NAMES
                    ),
                    result.slip_slip_stability,
                    f"{result.slip_slip_stable_fraction:.3f}",
                    result.slip_slip_stable_paper_law,
                    result.law_dependent,
                    result.slip_free_stable,
                    result.free_slip_stable,
                    *check,
                ]
            )
    subclasses_csv = out_dir / f"{TABLE4_NAME}_subclasses.csv"
    with subclasses_csv.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(
            [
                "subclass",
                "samples",
                "modes_same_for_all_samples",
                "consistent_modes",
                "example_p11",
                "example_p12",
                "example_p21",
                "example_p22",
                "example_b1",
                "example_b2",
            ]
        )
        for result in classes:
            for sub in result.subclasses:
                writer.writerow(
                    [
                        sub.name,
                        sub.samples,
                        sub.uniform,
                        " ".join(m for m in TWO_CONTACT_MODE_NAMES if m in sub.modes),
                        *(f"{x:.6g}" for x in sub.example_painleve.ravel()),
                        *(f"{x:.6g}" for x in sub.example_b),
                    ]
                )
    png = out_dir / f"{TABLE4_NAME}.png"
    _draw_table4_png(png, classes, comparisons)
    return [png, table_csv, subclasses_csv]


def _draw_table4_png(png: Path, classes, comparisons) -> None:
    by_name = {c.name: c for c in classes}
    header = ["class (dual)", *TWO_CONTACT_MODE_NAMES, *IMPACT_NAMES, "vs. the printed row"]
    cells, colours = [], []
    for row in PRINTED_TABLE4:
        result, comparison = by_name[row.name], comparisons[row.name]
        dual = "self" if result.dual == result.name else result.dual
        columns = [" ".join(map(str, result.mode_column(mode))) for mode in TWO_CONTACT_MODE_NAMES]
        impacts = [{"IF": "x", "FI": "x", "II": "(x)"}[name] if name in result.impacts else "" for name in IMPACT_NAMES]
        agree = comparison.dual_agrees and comparison.modes_agree and comparison.impacts_agree
        verdict = ("agrees" if agree else "DIFFERS") + (
            ""
            if comparison.mode_readings == 1 and comparison.impact_readings == 1
            else f" ({comparison.mode_readings} × {comparison.impact_readings} readings)"
        )
        cells.append([f"{row.name} ({dual})", *columns, *impacts, verdict])
        colours.append(
            [
                "white",
                *(
                    _cell_shade(result, mode) if column else "white"
                    for mode, column in zip(TWO_CONTACT_MODE_NAMES, columns)
                ),
                "white",
                "white",
                "white",
                "white" if agree else "#f4a6a6",
            ]
        )
    figure_, axis = plt.subplots(figsize=(11, 6.4))
    axis.axis("off")
    table = axis.table(cellText=cells, cellColours=colours, colLabels=header, loc="center", cellLoc="center")
    table.auto_set_font_size(False)
    table.set_fontsize(9)
    table.scale(1.0, 1.35)
    widths = [0.1, 0.085, 0.085, 0.085, 0.085, 0.055, 0.055, 0.055, 0.22]
    for (r, c), cell in table.get_celld().items():
        cell.set_width(widths[c])
        if r == 0:
            cell.set_text_props(weight="bold")
    axis.set_title(
        "Table 4 recomputed (Champneys & Várkonyi, Sec. 6): classes of two forward-slipping contacts\n"
        "mode columns: the s₃ where the mode is consistent; shading: grey unstable, yellow depends on p⁺ and the "
        "contact law, white normally stable;\nIF, FI: x; II: (x), the necessary condition only. Last column: the "
        "printed row (text extraction) against ours;\n'readings': ways the printed run-together digits × marks "
        "split into columns (ours is one of them)",
        fontsize=9.5,
    )
    figure_.savefig(png, dpi=110, bbox_inches="tight")
    plt.close(figure_)
