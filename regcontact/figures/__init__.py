"""The paper figures: each computes (or reads) its data, writes it as CSV and draws a PNG; ``regcontact figures``
draws them into a folder the user names (``figures-out/`` by default; the tracked ``figures/``, which the docs
show, only when asked with ``--out figures``). Those registered ``from_results`` can also draw a finished study
(``regcontact figures NAME --from RESULTS``). ``docs/figures.md`` lists them."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

#: A figure: ``draw(out_dir)`` writes its files into ``out_dir`` and returns their paths; one registered
#: ``from_results`` also takes ``draw(out_dir, results=...)``, a finished study to draw instead of running its own.
FigureFunction = Callable[..., list[Path]]

#: Every registered figure by name, filled by :func:`load_figures`.
FIGURES: dict[str, FigureFunction] = {}

#: The figures that can draw a finished study (``--from RESULTS``), with the study each needs.
FROM_RESULTS: dict[str, str] = {}

#: The (private) modules that register figures; importing one registers its figures.
FIGURE_MODULES: tuple[str, ...] = (
    "regcontact.figures._solution_spaces",
    "regcontact.figures._painleve_coefficient",
    "regcontact.figures._compliant_rod",
    "regcontact.figures._mode_regions",
    "regcontact.figures._fast_scale_portraits",
    "regcontact.figures._two_contact_fast_dynamics",
    "regcontact.figures._two_contact_classes",
    "regcontact.figures._exponent_plane",
    "regcontact.figures._painleve_map",
    "regcontact.figures._penetration_map",
    "regcontact.figures._table1_variants",
    "regcontact.figures._rigid_trajectories",
    "regcontact.figures._impact_map",
    "regcontact.figures._reverse_chatter",
    "regcontact.figures._reverse_chatter_event",
    "regcontact.figures._tumbling_body",
    "regcontact.figures._tumbling_scan",
    "regcontact.figures._dynamic_jam",
    "regcontact.figures._beyond_jam",
    "regcontact.figures._spatial_rod",
    "regcontact.figures._multiple_impacts",
)


def figure(name: str, from_results: str | None = None) -> Callable[[FigureFunction], FigureFunction]:
    """Register a figure under a name (a decorator).

    Args:
        name: the name ``regcontact figures NAME`` knows it by; a name registered twice raises ``ValueError``.
        from_results: for a figure that can also draw a finished study (``draw(out_dir, results=...)``, with a
            :class:`~regcontact.studies.FinishedStudy`), the study it needs, in words (``regcontact figures
            --list`` shows it).

    Returns:
        The decorator: it registers ``draw(out_dir) -> [paths]`` and returns it unchanged.

    Examples:
        >>> from regcontact.figures import figure
        >>> @figure("my_sketch")
        ... def draw(out_dir):
        ...     return []
    """

    def register(draw: FigureFunction) -> FigureFunction:
        if name in FIGURES:
            raise ValueError(f"figure {name!r} is registered twice")
        FIGURES[name] = draw
        if from_results is not None:
            FROM_RESULTS[name] = from_results
        return draw

    return register


def load_figures() -> dict[str, FigureFunction]:
    """Import every module of :data:`FIGURE_MODULES` (each registers its figures) and return :data:`FIGURES`."""
    for module in FIGURE_MODULES:
        importlib.import_module(module)
    return FIGURES


def study_config(name: str) -> Path:
    """The shipped study a figure reads.

    Args:
        name: the study's name, e.g. ``"table1"``.

    Returns:
        ``studies/<name>.toml`` in the working directory, else beside the package's source tree
        (``FileNotFoundError`` if neither has it).
    """
    for root in (Path.cwd(), Path(__file__).resolve().parents[2]):
        path = root / "studies" / f"{name}.toml"
        if path.exists():
            return path
    raise FileNotFoundError(f"studies/{name}.toml not found: run `regcontact figures` from the repository root")
