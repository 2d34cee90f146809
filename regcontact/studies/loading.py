"""Load a study from a TOML file with ``--set`` overrides, validate it, and hand it to its kind, picked by
``[study] kind`` from :data:`STUDY_KINDS`. Its size is counted once the schema has passed and checked against the
caller's limits before the kind's own check, which may build what the study will solve.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from regcontact.studies._study_kind import AbstractStudyKind
from regcontact.studies._user_classes import study_folder
from regcontact.studies.chatter_study import ChatterStudy
from regcontact.studies.compliant_study import CompliantSweepStudy
from regcontact.studies.config import ConfigError, apply_override, read_toml, validate
from regcontact.studies.crossing_study import SpatialCrossingStudy
from regcontact.studies.jam_study import DynamicJamStudy
from regcontact.studies.landing_study import LandingTableStudy
from regcontact.studies.multiple_impacts_study import MultipleImpactsStudy
from regcontact.studies.rigid_study import RigidPainleveStudy
from regcontact.studies.study_size import DeviceSet, SizeLimits, StudySize, study_size
from regcontact.studies.trajectory_study import RigidTrajectoriesStudy

#: The devices to size a study for: a :class:`DeviceSet`, or a callable that gives it (e.g. after starting JAX).
Devices = DeviceSet | Callable[[], DeviceSet] | None

__all__ = [
    "MAX_CONFIG_BYTES",
    "STUDY_KINDS",
    "LoadedStudy",
    "chunked_kinds",
    "load_config",
    "load_study",
    "read_study_file",
    "study_kind",
]

#: Each study kind's class, by the name a config gives in ``[study] kind`` (the first is the default). A new kind is
#: one final subclass of :class:`~regcontact.studies.AbstractStudyKind` and one line here.
STUDY_KINDS: dict[str, type[AbstractStudyKind]] = {
    kind.NAME: kind
    for kind in (
        CompliantSweepStudy,
        RigidPainleveStudy,
        RigidTrajectoriesStudy,
        LandingTableStudy,
        ChatterStudy,
        DynamicJamStudy,
        SpatialCrossingStudy,
        MultipleImpactsStudy,
    )
}

#: The largest CONFIG file read (a study's TOML is a few kB; anything this large is not one).
MAX_CONFIG_BYTES = 16 * 2**20


def study_kind(name: str) -> AbstractStudyKind:
    """The study kind ``name`` (a key of :data:`STUDY_KINDS`)."""
    return STUDY_KINDS[name]()


def chunked_kinds() -> list[str]:
    """The names of the kinds whose sweep runs in chunks (the only ones ``--scheduler`` can run)."""
    return [name for name, kind in STUDY_KINDS.items() if kind.CHUNKED]


@dataclasses.dataclass(frozen=True)
class LoadedStudy:
    """A validated study: its resolved config, its kind, notes made while resolving it, and its size (when the
    caller gave limits or devices to size it for)."""

    config: dict[str, Any]
    kind: AbstractStudyKind
    notes: tuple[str, ...]
    size: StudySize | None = None


_FILE_TYPES = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def read_study_file(path: str | Path) -> dict[str, Any]:
    """A study's TOML file as a dict; :class:`ConfigError` (naming ``CONFIG``) for a path that is missing, a
    directory, not a regular file (a FIFO would block the reading forever), too large, unreadable, not UTF-8 or
    not TOML (named as given)."""
    shown, path = str(path), Path(path)

    def refuse(expected: str) -> ConfigError:
        return ConfigError("CONFIG", shown, expected)

    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise refuse("an existing TOML file") from None
    except OSError as error:
        raise refuse(f"a readable TOML file ({error.strerror or error})") from None
    if stat.S_ISDIR(info.st_mode):
        raise refuse("an existing TOML file (it is a directory)")
    if not stat.S_ISREG(info.st_mode):
        kind = next((name for test, name in _FILE_TYPES if test(info.st_mode)), "not a regular file")
        raise refuse(f"a regular TOML file (it is {kind})")
    if info.st_size > MAX_CONFIG_BYTES:
        raise refuse(f"a TOML file of at most {MAX_CONFIG_BYTES // 2**20} MiB (it has {info.st_size:,} bytes)")
    try:
        return read_toml(path)
    except UnicodeDecodeError as error:
        raise refuse(f"a UTF-8 TOML file (byte {error.start} is not UTF-8)") from None
    except OSError as error:
        raise refuse(f"a readable TOML file ({error.strerror or error})") from None


def load_study(
    path: str | Path,
    overrides: Sequence[str] = (),
    limits: SizeLimits | None = None,
    devices: Devices = None,
    on_size: Callable[[StudySize], None] | None = None,
) -> LoadedStudy:
    """Read, override and validate a study; raises :class:`ConfigError` on the first problem.

    Args:
        path: the study's TOML file.
        overrides: ``key.path=value`` assignments, as ``--set`` takes them (the value in TOML syntax).
        limits: a study above them is refused (:class:`ConfigError`, with its size) before its kind's check,
            i.e. before anything of its size is built.
        devices: the devices to size the study for (default, when ``limits`` are given: JAX's devices for a
            sweep, :func:`~regcontact.compliant.devices.sweep_devices`).
        on_size: receives the study's size as soon as it is known, before the kind's own check.

    Returns:
        The validated config with every default filled in, the study kind, notes (e.g. that the
        paper's columns were dropped because an override changed the system) and, with ``limits`` or
        ``devices``, the study's size.
    """
    with study_folder(path):  # a class named by a relative file path lives beside the study file
        return load_config(read_study_file(path), overrides, limits, devices, on_size)


def _check_name(config: dict[str, Any]) -> None:
    """A study's name is the folder its results go to by default (``results/<name>/``): a plain folder name."""
    name = config["study"]["name"]
    separators = [sep for sep in (os.sep, os.altsep, "\0") if sep]
    if name in ("", ".", "..") or any(sep in name for sep in separators) or len(name.encode()) > 255:
        raise ConfigError(
            "study.name", name, "a plain folder name (no '/', not '.' or '..'; results go to results/<name>/)"
        )


def load_config(
    raw: dict[str, Any],
    overrides: Sequence[str] = (),
    limits: SizeLimits | None = None,
    devices: Devices = None,
    on_size: Callable[[StudySize], None] | None = None,
) -> LoadedStudy:
    """Override and validate a study given as a dict shaped like its TOML file (left unchanged); as
    :func:`load_study`."""
    written, raw = raw, copy.deepcopy(raw)
    for assignment in overrides:
        apply_override(raw, assignment)
    study_table = raw.get("study", {})
    kind_name = study_table.get("kind", next(iter(STUDY_KINDS))) if isinstance(study_table, dict) else None
    if not isinstance(kind_name, str) or kind_name not in STUDY_KINDS:
        raise ConfigError("study.kind", kind_name, "one of " + ", ".join(repr(k) for k in STUDY_KINDS))
    kind = study_kind(kind_name)
    overridden = [assignment.partition("=")[0].strip() for assignment in overrides]
    switched = kind.overridden(written, raw, overridden)
    config = validate(raw, kind.schema(raw))
    _check_name(config)
    size = None
    if limits is not None or devices is not None or on_size is not None:
        size = study_size(kind, config, _device_set(devices))
        if on_size is not None:
            on_size(size)
        if limits is not None:
            limits.check(size)
    notes = switched + kind.check(config, overridden)
    return LoadedStudy(config=config, kind=kind, notes=tuple(notes), size=size)


def _device_set(devices: Devices) -> DeviceSet:
    """The devices to size a study for: given, given by a callable, or JAX's for a sweep."""
    if isinstance(devices, DeviceSet):
        return devices
    if devices is not None:
        return devices()
    from regcontact.compliant.devices import sweep_devices

    return DeviceSet.of(sweep_devices())
