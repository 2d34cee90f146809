"""The ``files`` entry of ``results.json``: the size and SHA-256 of every other result file and the table's row
count, written with the files and checked when they are read back, so that a file cut short, edited or left by
another run is refused, never read as a result (``docs/results.md``)."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["FILES_ENTRY", "file_records", "read_recorded_files"]

#: The entry of ``results.json`` that holds the records.
FILES_ENTRY = "files"

_SHA256 = re.compile(r"[0-9a-f]{64}")


def file_records(contents: Mapping[str, bytes], table: str, rows: int) -> dict[str, dict[str, Any]]:
    """Per file name, its ``bytes`` and ``sha256``; the ``table`` file's record also has its ``rows``."""
    records: dict[str, dict[str, Any]] = {}
    for name, content in contents.items():
        records[name] = {"bytes": len(content), "sha256": hashlib.sha256(content).hexdigest()}
        if name == table:
            records[name]["rows"] = rows
    return records


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _record_problem(name: str, record: Any, table: str) -> str | None:
    """What a record lacks (``None``: it has what :func:`file_records` writes)."""
    if not isinstance(record, dict):
        return f"{name}'s record is no object"
    if not _count(record.get("bytes")):
        return f"{name}'s bytes are no count"
    if not isinstance(record.get("sha256"), str) or not _SHA256.fullmatch(record["sha256"]):
        return f"{name}'s sha256 is no 64 hexadecimal digits"
    if name == table and not _count(record.get("rows")):
        return f"{name}'s rows are no count"
    return None


def read_recorded_files(
    folder: Path, json_name: str, records: Any, names: tuple[str, ...], table: str, refuse: Callable[[str], Exception]
) -> dict[str, bytes]:
    """The files of ``folder`` that ``records`` (the ``files`` entry of its ``json_name``) lists, read whole and
    checked against their records; raises ``refuse(expected)`` for a malformed entry, a listed file that is
    missing, of another size or another SHA-256, or a result file of ``names`` in the folder that the entry does
    not list."""
    if not isinstance(records, dict) or table not in records:
        raise refuse(f"a {json_name} whose {FILES_ENTRY!r} is an object of records with one for {table}")
    for name, record in records.items():
        if name not in names:
            raise refuse(f"a {json_name} whose {FILES_ENTRY!r} lists result files ({name!r} is none of {names})")
        problem = _record_problem(name, record, table)
        if problem is not None:
            raise refuse(f"a {json_name} whose {FILES_ENTRY!r} holds records as `regcontact run` writes ({problem})")
    contents = {}
    for name, record in records.items():
        try:
            content = (folder / name).read_bytes()
        except FileNotFoundError:
            raise refuse(f"{name} beside {json_name}, which lists it (there is none: not a whole folder)") from None
        except OSError as error:
            raise refuse(f"a readable {name} ({error.strerror or error})") from None
        if len(content) != record["bytes"]:
            raise refuse(
                f"{name} of the {record['bytes']:,} bytes {json_name} records (it has {len(content):,}: cut short "
                "or edited)"
            )
        if hashlib.sha256(content).hexdigest() != record["sha256"]:
            raise refuse(f"{name} with the SHA-256 {json_name} records (it differs: edited, or another run's)")
        contents[name] = content
    for name in names:
        if name not in records and os.path.lexists(folder / name):
            raise refuse(f"no {name} beside a {json_name} that does not list it (it is another run's: remove it)")
    return contents
