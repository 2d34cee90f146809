"""Load a study from a TOML file with ``--set`` overrides, validate it, and dispatch it to its kind.

A study kind is a module with ``KIND``, ``schema(raw) -> schema``, ``check(config, overridden) -> notes``,
``TABLE_COLUMNS`` and ``run(config, progress) -> StudyResult``. The ``[study] kind`` key picks it.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from regcontact.studies.config import ConfigError, apply_override, read_toml, validate

__all__ = ["STUDY_KINDS", "LoadedStudy", "load_config", "load_study", "study_kind"]

#: The module of each study kind, by the name a config gives in ``[study] kind`` (the first is the default).
#: A kind is imported when a config names it: the rigid study need not wait for the compliant solvers.
STUDY_KINDS: dict[str, str] = {
    "compliant_sweep": "regcontact.studies.compliant_study",
    "rigid_painleve": "regcontact.studies.rigid_study",
    "rigid_trajectories": "regcontact.studies.trajectory_study",
    "landing_table": "regcontact.studies.landing_study",
    "chatter": "regcontact.studies.chatter_study",
    "dynamic_jam": "regcontact.studies.jam_study",
    "spatial_crossing": "regcontact.studies.crossing_study",
}


def study_kind(name: str) -> ModuleType:
    """The module of the study kind ``name`` (a key of :data:`STUDY_KINDS`)."""
    module = importlib.import_module(STUDY_KINDS[name])
    assert module.KIND == name
    return module


@dataclasses.dataclass(frozen=True)
class LoadedStudy:
    """A validated study: its resolved config, its kind's module, and notes made while resolving it."""

    config: dict[str, Any]
    kind: ModuleType
    notes: tuple[str, ...]


def load_study(path: Path, overrides: Sequence[str] = ()) -> LoadedStudy:
    """Read, override and validate a study; raises :class:`ConfigError` on the first problem.

    Args:
        path: the study's TOML file.
        overrides: ``key.path=value`` assignments, as ``--set`` takes them (the value in TOML syntax).

    Returns:
        The validated config with every default filled in, the study kind's module, and notes (e.g. that the
        paper's columns were dropped because an override changed the system).
    """
    return load_config(read_toml(path), overrides)


def load_config(raw: dict[str, Any], overrides: Sequence[str] = ()) -> LoadedStudy:
    """Override and validate a study given as a dict shaped like its TOML file (left unchanged); as
    :func:`load_study`."""
    raw = copy.deepcopy(raw)
    for assignment in overrides:
        apply_override(raw, assignment)
    study_table = raw.get("study", {})
    kind_name = study_table.get("kind", next(iter(STUDY_KINDS))) if isinstance(study_table, dict) else None
    if kind_name not in STUDY_KINDS:
        raise ConfigError("study.kind", kind_name, "one of " + ", ".join(repr(k) for k in STUDY_KINDS))
    kind = study_kind(kind_name)
    config = validate(raw, kind.schema(raw))
    overridden = [assignment.partition("=")[0].strip() for assignment in overrides]
    notes = kind.check(config, overridden)
    return LoadedStudy(config=config, kind=kind, notes=tuple(notes))
