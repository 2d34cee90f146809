"""The files a run creates in its output folder (its lock, its results' temporary names): never written through
what someone else put at their path, a symbolic link or a second hard link to another file."""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["create_own_file", "foreign_entry", "not_own", "write_own_file"]

_NOT_FILES = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)

#: How a file of the run's own is created: new (never an existing one), never through a link at its path.
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def foreign_entry(path: Path) -> str | None:
    """What is at ``path`` that a run may not write through (``a symbolic link to '/etc/passwd'``, ``a FIFO``,
    ``a file with 2 hard links``), or None: nothing there, or a plain file of its own (one left by a run that was
    killed)."""
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):  # nothing there: the folder may not exist yet
        return None
    if stat.S_ISLNK(info.st_mode):
        try:
            target = os.readlink(path)
        except OSError:
            return "a symbolic link"
        return f"a symbolic link to {target!r}"
    what = next((name for test, name in _NOT_FILES if test(info.st_mode)), None)
    if what is not None:
        return what
    if info.st_nlink > 1:
        return f"a file with {info.st_nlink} hard links"
    return None


def not_own(path: Path, what: str) -> str:
    """What a folder was expected to be, for a refusal of what :func:`foreign_entry` found at ``path``."""
    return (
        f"a folder whose {path.name} is the run's own ({path} is {what}; the run does not write through it: remove it)"
    )


def create_own_file(path: Path, mode: int = 0o644) -> int:
    """A new file at ``path``, opened for writing: what was there is removed first, unless it is a folder (a
    link is removed itself, never its target), and the file is created with ``O_EXCL | O_NOFOLLOW``, so nothing
    put there meanwhile is opened instead. Returns its descriptor; ``OSError`` when it cannot be created."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        pass
    else:
        if not stat.S_ISDIR(info.st_mode):
            os.unlink(path)
    return os.open(path, _CREATE, mode)


def write_own_file(path: Path, content: bytes) -> None:
    """``content`` into a new file at ``path`` (:func:`create_own_file`); on an error the file is removed."""
    descriptor = create_own_file(path)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(content)
    except BaseException:
        Path(path).unlink(missing_ok=True)
        raise
