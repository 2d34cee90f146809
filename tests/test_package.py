"""The package's promises on import: float64 on, and every public name resolvable."""

import jax.numpy as jnp

import regcontact


def test_importing_the_package_switches_on_float64():
    assert jnp.asarray(1.0).dtype == jnp.float64


def test_every_public_name_exists():
    assert [name for name in regcontact.__all__ if not hasattr(regcontact, name)] == []


def test_the_code_identity_hashes_the_package_files_only():
    """Kept chunks and kept programs are keyed by the package's own sources: not by the checkout around it (its
    tests, results or virtual environment), whose files come and go without changing what runs."""
    import hashlib
    from pathlib import Path

    from regcontact import _exported_programs
    from regcontact._package_code import package_code
    from regcontact.studies import chunk_checkpoints

    root = Path(regcontact.__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    assert package_code() == digest.hexdigest()
    assert chunk_checkpoints.package_code is package_code and _exported_programs.package_code is package_code
