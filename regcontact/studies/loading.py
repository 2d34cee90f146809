"""Load a study from a TOML file with ``--set`` overrides, validate it, and dispatch it to its kind.

A study kind is a module with ``KIND``, ``schema(raw) -> schema``, ``check(config, overridden) -> notes``,
``TABLE_COLUMNS`` and ``run(config, progress) -> StudyResult``. The ``[study] kind`` key picks it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from regcontact.studies import compliant_study, rigid_study, trajectory_study
from regcontact.studies.config import ConfigError, apply_override, read_toml, validate

__all__ = ["STUDY_KINDS", "LoadedStudy", "load_study"]

#: Study kinds by the name a config gives in ``[study] kind``.
STUDY_KINDS: dict[str, ModuleType] = {
    module.KIND: module for module in (compliant_study, rigid_study, trajectory_study)
}


@dataclasses.dataclass(frozen=True)
class LoadedStudy:
    """A validated study: its resolved config, its kind's module, and notes made while resolving it."""

    config: dict[str, Any]
    kind: ModuleType
    notes: tuple[str, ...]


def load_study(path: Path, overrides: Sequence[str] = ()) -> LoadedStudy:
    """Read, override and validate a study; raises :class:`ConfigError` on the first problem."""
    raw = read_toml(path)
    for assignment in overrides:
        apply_override(raw, assignment)
    study_table = raw.get("study", {})
    kind_name = study_table.get("kind", compliant_study.KIND) if isinstance(study_table, dict) else None
    if kind_name not in STUDY_KINDS:
        raise ConfigError("study.kind", kind_name, "one of " + ", ".join(repr(k) for k in STUDY_KINDS))
    kind = STUDY_KINDS[kind_name]
    config = validate(raw, kind.schema(raw))
    overridden = [assignment.partition("=")[0].strip() for assignment in overrides]
    notes = kind.check(config, overridden)
    return LoadedStudy(config=config, kind=kind, notes=tuple(notes))
