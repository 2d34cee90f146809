"""Traced programs kept on disk beside the compilation cache (the compliant sweep, the batched compliant limits),
so that a re-run neither traces nor compiles.

JAX's persistent cache keeps compiled executables, but finding one needs the program, and producing the program
means tracing the solve (diffrax's loop, the Radau step, the events): about 1.5 s for the rod, every run. Here the
traced program is exported once (``jax.export``, StableHLO) and kept in ``<compilation cache>/regcontact-exported``;
a re-run reads it back, and its compilation is then a cache hit (0.15 s from file to the first solve, against
1.7 s).

A kept program is used only by the same computation: its key hashes the solve settings, the batch's structure,
shapes and dtypes, the devices, the versions of JAX, jaxlib, diffrax and equinox, the source of every
``regcontact`` module and the source of every other module that defines a class of the batch (a user's body or
law), so an edited body, law or solver is traced again. A batch with a class whose source cannot be read (typed
into an interactive session) is never kept. Without a
compilation cache (``REGCONTACT_COMPILATION_CACHE=off``, or a Python session that did not call
:func:`~regcontact.compliant.compilation_cache.use_compilation_cache`) nothing is kept.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import inspect
import os
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import equinox as eqx
import jax
import jax.tree_util as jtu

from regcontact._package_code import package_code

__all__ = ["exported_or_traced"]

FOLDER_NAME = "regcontact-exported"


def _module_types(tree: Any) -> set[type]:
    """The classes of every equinox module in ``tree`` (the system, the contact laws, …)."""
    found: set[type] = set()

    def visit(node: Any) -> None:
        if isinstance(node, eqx.Module):
            found.add(type(node))
            for field in dataclasses.fields(node):
                visit(getattr(node, field.name, None))
        elif isinstance(node, list | tuple):
            for item in node:
                visit(item)
        elif isinstance(node, dict):
            for item in node.values():
                visit(item)

    visit(tree)
    return found


def _outside_sources(tree: Any) -> list[str] | None:
    """The source of every module outside this package that defines a class of ``tree`` (a user's body or law),
    or ``None`` where one has no source to read (a class typed into a session): then nothing may be kept."""
    package = __name__.split(".")[0]
    sources = {}
    for cls in _module_types(tree):
        name = cls.__module__
        if name.split(".")[0] == package or name in sources:
            continue
        try:
            sources[name] = inspect.getsource(sys.modules[name])
        except (KeyError, OSError, TypeError):
            return None
    return [sources[name] for name in sorted(sources)]


def _key(parts: tuple[Any, ...], outside: list[str]) -> str:
    versions = [f"{name}={metadata.version(name)}" for name in ("jax", "jaxlib", "diffrax", "equinox")]
    text = repr((parts, versions, package_code(), outside))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _folder() -> Path | None:
    cache = jax.config.values.get("jax_compilation_cache_dir")
    return Path(cache) / FOLDER_NAME if cache else None


def _write_atomically(path: Path, content: bytes | bytearray) -> None:
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        partial.write_bytes(content)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def exported_or_traced(
    function: Callable[..., Any],
    example: Any,
    sharding: Any,
    out_structure: Any,
    key_parts: tuple[Any, ...],
) -> Callable[[Any], Any] | None:
    """``function`` (a batch → a pytree, ``jit``-able with ``sharding`` on its inputs and outputs) as a compiled
    callable, read from the export folder when it holds the same computation, else traced, exported, kept and
    compiled. ``out_structure``: a pytree with the output's structure (to rebuild it from the flat outputs).
    ``None`` when there is no compilation cache, a class of ``example`` has no readable source, or the program
    cannot be exported (the caller lowers it itself)."""
    folder = _folder()
    outside = _outside_sources(example)
    if folder is None or outside is None:
        return None
    leaves, treedef = jtu.tree_flatten(example)
    path = folder / f"{_key((key_parts, treedef, [(leaf.shape, leaf.dtype) for leaf in leaves]), outside)}.bin"
    exported = None
    if path.exists():
        with contextlib.suppress(Exception):  # a damaged or foreign file is traced again
            exported = jax.export.deserialize(bytearray(path.read_bytes()))
    if exported is None:

        def flat(*flat_leaves):
            return jtu.tree_leaves(function(jtu.tree_unflatten(treedef, flat_leaves)))

        try:
            shapes = [jax.ShapeDtypeStruct(leaf.shape, leaf.dtype, sharding=sharding) for leaf in leaves]
            exported = jax.export.export(jax.jit(flat, in_shardings=sharding, out_shardings=sharding))(*shapes)
            folder.mkdir(parents=True, exist_ok=True)
            _write_atomically(path, exported.serialize())
        except Exception:  # noqa: BLE001  (not exportable: the caller lowers it as before)
            return None
    shapes = [jax.ShapeDtypeStruct(leaf.shape, leaf.dtype, sharding=sharding) for leaf in leaves]
    call = jax.jit(exported.call).lower(*shapes).compile()
    out_treedef = jtu.tree_structure(out_structure)

    def compiled(batch: Any) -> Any:
        return jtu.tree_unflatten(out_treedef, call(*jtu.tree_leaves(batch)))

    return compiled
