"""The abstract study kind: what every ``[study] kind`` declares and does, asked blind by the loader and the CLI."""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from regcontact.studies.study_result import StudyResult, constant_columns, format_table
from regcontact.studies.study_size import DeviceSet, Estimate

__all__ = ["AbstractStudyKind", "Estimate"]


class AbstractStudyKind(abc.ABC):
    """A kind of study: the value of ``[study] kind`` in a study file.

    A concrete kind is a final subclass with a :attr:`NAME`, its :attr:`TABLE_COLUMNS` and the four methods below;
    it is registered by one line in :data:`~regcontact.studies.loading.STUDY_KINDS`. The loader and the command
    line only ever call these members (as diffrax's ``diffeqsolve`` calls ``solver.step``): nothing outside a kind
    asks which kind it is.

    Class attributes:
        NAME: the name a config gives in ``[study] kind``.
        TABLE_COLUMNS: the columns printed after a run, in order (those a result lacks are left out).
        CHUNKED: its ``run`` solves its cases in chunks and takes ``checkpoints``, ``engine`` and
            ``announce_above`` (``regcontact run --resume``, ``--scheduler``, ``--local-cluster``).
        ON_DEVICES: a run says the JAX devices and compilation cache it uses (``False``: it solves on the host).
    """

    NAME: ClassVar[str]
    TABLE_COLUMNS: ClassVar[Sequence[str]]
    CHUNKED: ClassVar[bool] = False
    ON_DEVICES: ClassVar[bool] = True

    @abc.abstractmethod
    def schema(self, raw: dict[str, Any]) -> dict[str, Any]:
        """The schema of this kind's config, for the raw config ``raw`` (whose choices may pick tables)."""

    def overridden(self, written: dict[str, Any], raw: dict[str, Any], overridden: list[str]) -> list[str]:
        """Resolve in ``raw`` (the config after ``--set``) what ``--set`` changed of the file ``written`` beyond the
        keys it names (a switched law: the file's parameters for its former law); returns notes. Nothing by
        default."""
        del written, raw, overridden
        return []

    @abc.abstractmethod
    def check(self, config: dict[str, Any], overridden: list[str]) -> list[str]:
        """The rules across keys of a config that passed the schema (:class:`~regcontact.studies.config.ConfigError`
        on the first one broken), given the keys ``--set`` changed; returns notes to say before the run."""

    @abc.abstractmethod
    def estimate(self, config: Mapping[str, Any], devices: DeviceSet) -> Estimate:
        """The size of a study whose config passed the schema, counted from its lengths alone (nothing built)."""

    @abc.abstractmethod
    def run(self, config: dict[str, Any], progress: Callable[[str], None] = lambda message: None) -> StudyResult:
        """Run a validated study, saying what it does through ``progress``; returns its table and metadata."""

    def check_lines(self, config: dict[str, Any]) -> list[str]:
        """What ``regcontact check`` says of a validated study after its size (JAX started): nothing by default."""
        del config
        return []

    def text(self, result: StudyResult, config: dict[str, Any], wide: bool = False) -> list[str]:
        """The lines printed after a run: the study's title, its table (a sweep's swept keys first), summary,
        failures and notes. Unless ``wide``, a column with the same value in every row (two or more) is said once
        under the table instead of repeated in it."""
        study = config["study"]
        keys = [column for axis in result.grid or [] for column in axis.columns]
        columns = keys + [c for c in self.TABLE_COLUMNS if c in result.columns and c not in keys]
        same = {} if wide else constant_columns(result, [c for c in columns if c not in keys])
        return [
            f"{study['name']}: {study.get('description', '')}".rstrip(": "),
            format_table(result, [c for c in columns if c not in same]),
            *(
                ["in every row: " + ", ".join(f"{c} = {cell}" for c, cell in same.items()) + " (--wide: as columns)"]
                if same
                else []
            ),
            *result.summary,
            *(f"FAILED {line}" for line in result.failures),
            *(f"note: {note}" for note in result.notes),
        ]
