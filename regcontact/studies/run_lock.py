"""One run per output folder: an exclusive lock that a ``regcontact run`` holds on its ``--out`` for its whole life
(``docs/cluster.md``)."""

from __future__ import annotations

import contextlib
import datetime
import errno
import fcntl
import json
import os
import socket
import stat
import threading
from pathlib import Path
from typing import Any

from regcontact.studies._own_files import foreign_entry, not_own

__all__ = ["LOCK_FILE", "ForeignLockFile", "RunLock", "RunLockHeld", "lock_output"]

#: The lock file inside the output folder.
LOCK_FILE = ".regcontact.lock"


class RunLockHeld(Exception):
    """Another live process holds the folder's lock; ``holder`` is what it wrote there (may be empty)."""

    def __init__(self, folder: Path, holder: dict[str, Any]):
        self.folder, self.holder = folder, holder
        super().__init__(self.describe())

    def describe(self) -> str:
        """``pid 4242 on node7 since 2026-11-26T06:00:00+00:00, running studies/big.toml``."""
        holder = self.holder
        if not holder:
            return "another process (it has not said which yet)"
        return (
            f"pid {holder.get('pid', '?')} on {holder.get('host', '?')} since {holder.get('started', '?')}, "
            f"running {holder.get('config', '?')}"
        )


class ForeignLockFile(Exception):
    """The lock file's path holds what the run may not open and write its holder into: a symbolic link (writing
    through it would overwrite the file it points to), a file with other hard links, a FIFO, a folder."""

    def __init__(self, path: Path, what: str):
        self.path, self.what = path, what
        super().__init__(f"{path} is {what}")


class RunLock:
    """The exclusive lock of one output folder, taken by :meth:`acquire` and given back by :meth:`release`.

    :meth:`release` also removes the lock file, and the folder if this lock created it and nothing else was
    written there (a run stopped before it wrote anything leaves nothing behind).
    """

    def __init__(self, folder: Path, descriptor: int, created: list[Path]):
        self.folder = folder
        self._descriptor: int | None = descriptor
        self._created = created
        self._releasing = threading.Lock()  # the main thread and a watchdog may both give it back

    @classmethod
    def acquire(cls, folder: Path, config: str) -> RunLock:
        """Create ``folder`` if need be and lock it for this process.

        Raises :class:`RunLockHeld` if another process holds it, :class:`ForeignLockFile` if its path holds
        anything but a plain file (the lock file is opened with ``O_NOFOLLOW``), ``OSError`` if the folder or its
        lock file cannot be created or locked.
        """
        folder = Path(folder)
        created = _missing_parents(folder)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / LOCK_FILE
        try:
            while True:
                descriptor = _open_lock_file(path)
                try:
                    fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError as error:
                    os.close(descriptor)
                    if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                        raise RunLockHeld(folder, _holder(path)) from None
                    raise
                # A holder that was releasing may have removed the file between our open and our lock: then we
                # hold a lock on a file no one else will find, and must take the one at the path instead.
                try:
                    same = os.path.samestat(os.fstat(descriptor), os.stat(path))
                except FileNotFoundError:
                    same = False
                if same:
                    break
                os.close(descriptor)
            holder = {
                "pid": os.getpid(),
                "host": socket.gethostname(),
                "started": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                "config": config,
            }
            os.ftruncate(descriptor, 0)
            os.pwrite(descriptor, (json.dumps(holder) + "\n").encode(), 0)
        except BaseException:
            _remove_created(created)
            raise
        return cls(folder, descriptor, created)

    @property
    def held(self) -> bool:
        return self._descriptor is not None

    def release(self) -> None:
        """Give the lock back (once; later calls do nothing), removing the lock file and the folders it created if
        they are left empty."""
        with self._releasing:
            descriptor, self._descriptor = self._descriptor, None
        if descriptor is None:
            return
        with contextlib.suppress(OSError):
            (self.folder / LOCK_FILE).unlink()  # while still held: no one can have locked the file at this path
        os.close(descriptor)
        _remove_created(self._created)

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()


def lock_output(folder: Path, config: str, key: str, shown: str) -> RunLock:
    """:meth:`RunLock.acquire`, its refusals as one-line ``ConfigError`` naming ``key = shown``."""
    from regcontact.studies.config import ConfigError

    try:
        return RunLock.acquire(folder, config)
    except RunLockHeld as held:
        raise ConfigError(key, shown, f"a folder no other run is using (it is held by {held.describe()})") from None
    except ForeignLockFile as foreign:
        raise ConfigError(key, shown, not_own(foreign.path, foreign.what)) from None
    except OSError as error:
        raise ConfigError(key, shown, f"a folder where results can be written ({error.strerror or error})") from None


def _open_lock_file(path: Path) -> int:
    """The lock file at ``path``, created if need be, opened for reading and writing; never through a link, and
    only a plain file with no other name (its holder's line is written into it)."""
    foreign = foreign_entry(path)
    if foreign is not None:
        raise ForeignLockFile(path, foreign)
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
    except OSError as error:
        if error.errno == errno.ELOOP:  # a link put there since the check
            raise ForeignLockFile(path, "a symbolic link") from None
        raise
    info = os.fstat(descriptor)
    if not stat.S_ISREG(info.st_mode) or info.st_nlink > 1:
        os.close(descriptor)
        raise ForeignLockFile(path, foreign_entry(path) or "not a plain file")
    return descriptor


def _holder(path: Path) -> dict[str, Any]:
    """What the lock's holder wrote (nothing yet, if it has only just taken it)."""
    try:
        holder = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        return {}
    return holder if isinstance(holder, dict) else {}


def _missing_parents(folder: Path) -> list[Path]:
    """``folder`` and those of its parents that do not exist yet, innermost first."""
    missing = []
    path = folder.absolute()
    while not os.path.lexists(path) and path != path.parent:
        missing.append(path)
        path = path.parent
    return missing


def _remove_created(created: list[Path]) -> None:
    """Remove the folders that were created, innermost first, as long as they are empty."""
    for path in created:
        try:
            path.rmdir()
        except OSError:
            return
