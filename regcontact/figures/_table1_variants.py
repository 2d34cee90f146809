"""Table 1, explained: the paper's Table 1 beside every model variant the toolkit offers.

Each variant is the Table 1 rod with one change — the termination rule, the normal law, the α-exponents of
k_n, γ_n, γ_t, or the ratio k₀/γ₀ — run over the six α of Table 1 in one vmapped sweep (one compilation per law
class). Per entry: how many significant digits agree with the paper's four (``⌊−log10 |ours − paper| / |paper|⌋``,
capped at 4), and per variant the distance to Λ at α = 1e8. Nothing here is tuned to the digits: the variants are
the model's own choices, listed before looking at the result.
"""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from regcontact.figures import figure, study_config  # noqa: E402
from regcontact.studies.loading import load_study  # noqa: E402

__all__ = ["VARIANTS", "Variant", "agreeing_digits", "draw_table1_variants", "run_variants"]


@dataclasses.dataclass(frozen=True)
class Variant:
    """A name and the ``--set`` overrides of ``studies/table1.toml`` that make it."""

    name: str
    overrides: tuple[str, ...]


_OPEN = ('termination.events=["contact_open"]', "termination.contact_times=10")
#: The variants, in the order they are shown.
VARIANTS = (
    Variant("Eq. 22, k, γ_n, γ_t ∝ α; one contact time (the study)", ()),
    Variant("… two contact times", ("termination.contact_times=2",)),
    Variant(
        "… until impulse_end", ('termination.events=["impulse_end", "contact_open"]', "termination.contact_times=3")
    ),
    Variant("… until contact breaks (never: 10 t_c)", _OPEN),
    Variant("… k₀/γ₀ = 3, until contact breaks", (*_OPEN, "contact.normal.stiffness=3.0")),
    Variant("… k ∝ α^1.25, until contact breaks", (*_OPEN, "contact.normal_exponents.stiffness=1.25")),
    Variant("… γ_n ∝ α^0.75, until contact breaks", (*_OPEN, "contact.normal_exponents.damping=0.75")),
    Variant("… γ_t ∝ α^0.5, one contact time", ("contact.friction_exponents.damping=0.5",)),
    Variant("clipped Kelvin–Voigt, ∝ α, one contact time", ('contact.normal_law="clipped_kelvin_voigt"',)),
    Variant(
        "Champneys Eq. 31 (k ∝ α, q ∝ √α), until contact breaks",
        (*_OPEN, 'contact.normal_law="champneys_fast_scale"', "contact.normal_exponents.damping=0.5"),
    ),
    Variant(
        "Hunt–Crossley (n = 3/2, c = 1), until impulse_end",
        (
            'contact.normal_law="hunt_crossley"',
            "contact.normal_exponents.damping=0.0",
            'termination.events=["impulse_end", "contact_open"]',
            "termination.time_limit=1.0",
        ),
    ),
)


def agreeing_digits(ours: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """Significant digits shared with the paper's 4-digit values, ``⌊−log10 |ours − paper| / |paper|⌋`` ≤ 4."""
    relative = np.abs(np.asarray(ours) - np.asarray(paper)) / np.abs(np.asarray(paper))
    return np.clip(np.floor(-np.log10(np.maximum(relative, 1e-16))), 0, 4).astype(int)


def run_variants(variants=VARIANTS) -> list[dict]:
    """Each variant's rows (``alpha``, integrals, paper values, distance, termination) from the Table 1 study."""
    results = []
    for variant in variants:
        loaded = load_study(study_config("table1"), list(variant.overrides))
        result = loaded.kind.run(loaded.config)
        results.append({"variant": variant, "rows": result.rows, "paper": loaded.config["paper"]})
    return results


@figure("preclik_table1_variants")
def draw_table1_variants(out_dir: Path) -> list[Path]:
    """Digits of Table 1 per variant and α, and each variant's distance to Λ at α = 1e8."""
    results = run_variants()
    names = [result["variant"].name for result in results]
    alphas = [row["alpha"] for row in results[0]["rows"]]
    paper = results[0]["paper"]
    paper_values = np.stack([paper["int_lambda_n"], paper["int_lambda_t"]], axis=-1)
    digits = np.zeros((len(results), len(alphas), 2), dtype=int)
    distance = np.full(len(results), np.nan)
    records = []
    for i, result in enumerate(results):
        for j, row in enumerate(result["rows"]):
            ours = np.array([row["int_lambda_n"] or np.nan, row["int_lambda_t"] or np.nan])
            digits[i, j] = agreeing_digits(ours, paper_values[j]) if np.all(np.isfinite(ours)) else -1
            records.append(
                [names[i], row["alpha"], row["int_lambda_n"], row["int_lambda_t"], *paper_values[j], *digits[i, j]]
                + [row.get("distance_to_impulse_velocity"), row["termination"]]
            )
        distance[i] = result["rows"][-1].get("distance_to_impulse_velocity") or np.nan

    figure_, axes = plt.subplots(
        1, 2, figsize=(15, 0.5 * len(names) + 2.2), gridspec_kw={"width_ratios": [3, 1]}, constrained_layout=True
    )
    shown = digits.min(axis=-1)
    axes[0].imshow(shown, cmap="YlGn", vmin=-1, vmax=4, aspect="auto")
    for i in range(len(names)):
        for j in range(len(alphas)):
            n, t = digits[i, j]
            axes[0].text(j, i, f"{n} / {t}", ha="center", va="center", fontsize=9)
    axes[0].set_xticks(range(len(alphas)), [f"α = {a:.0e}" for a in alphas])
    axes[0].set_yticks(range(len(names)), names, fontsize=9)
    axes[0].set_title("Digits shared with Preclik & Rüde's Table 1 (∫λ_n / ∫λ_t; the paper prints 4)")
    axes[1].barh(range(len(names)), np.log10(distance), color="tab:blue")
    axes[1].set_yticks(range(len(names)), [])
    axes[1].invert_yaxis()
    axes[1].set_xlabel(r"$\log_{10}\,\|\int\lambda\,dt - \Lambda\|_\infty$ at α = 1e8")
    axes[1].set_title("Distance to the rigid impulse")
    png, data = out_dir / "preclik_table1_variants.png", out_dir / "preclik_table1_variants.csv"
    figure_.savefig(png, dpi=120)
    plt.close(figure_)
    with open(data, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            ["variant", "alpha", "int_lambda_n", "int_lambda_t", "paper_int_lambda_n", "paper_int_lambda_t"]
            + ["digits_n", "digits_t", "distance_to_impulse_velocity", "termination"]
        )
        writer.writerows(records)
    return [png, data]
