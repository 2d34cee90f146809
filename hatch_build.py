"""Hatch build hook: ship the git commit a wheel or sdist is built from as ``regcontact/_commit.txt``.

A non-editable install (``pip install .``) runs from site-packages, away from the checkout, so the commit cannot be
asked of git at run time; ``results.json`` reads this file instead. An editable install runs from the checkout
and asks git there (the file would go stale at the next commit), so it gets none. Without git (a ``git archive``
tarball) the commit comes from ``.git_archival.txt``; an sdist's own file is shipped as it is.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

COMMIT_FILE = "regcontact/_commit.txt"


def checkout_commit(root: Path) -> str | None:
    """``HEAD`` of the checkout at ``root`` (``+dirty`` with uncommitted changes to tracked files), or None."""
    if not (root / ".git").exists():
        return None

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=10, check=True).stdout

    try:
        commit = git("rev-parse", "HEAD").strip()
        dirty = git("status", "--porcelain", "--untracked-files=no").strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return commit + ("+dirty" if dirty else "")


def archive_commit(root: Path) -> str | None:
    """The ``node`` that ``git archive`` wrote into ``.git_archival.txt`` (None if absent or not substituted)."""
    path = root / ".git_archival.txt"
    if not path.exists():
        return None
    for line in path.read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "node" and value.strip() and "$Format" not in value:
            return value.strip()
    return None


class CommitHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name == "wheel" and version == "editable":
            return
        root = Path(self.root)
        commit = checkout_commit(root) or archive_commit(root)
        if commit is None:
            return
        self._folder = tempfile.TemporaryDirectory()
        path = Path(self._folder.name) / "_commit.txt"
        path.write_text(commit + "\n", encoding="ascii")
        build_data["force_include"][str(path)] = COMMIT_FILE

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        folder = getattr(self, "_folder", None)
        if folder is not None:
            folder.cleanup()
