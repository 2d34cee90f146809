"""What code this is: a hash of regcontact's own source files, for the identities of kept chunks and kept
programs (an edited checkout is another code, whatever its version string says)."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

__all__ = ["package_code"]


@functools.cache
def package_code() -> str:
    """The SHA-256 of regcontact's source files (their paths inside the package and their contents)."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()
