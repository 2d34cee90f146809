"""Classes a study file names by where they live: ``"package.module:Class"`` or ``"file.py:Class"``
(``docs/own-body.md``)."""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import importlib
import importlib.abc
import importlib.util
import inspect
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from regcontact._argument_checks import FINITE, Rule
from regcontact.studies import config as cfg

__all__ = [
    "class_records",
    "constructed",
    "constructor_fields",
    "described",
    "file_modules",
    "install_file_modules",
    "is_class_path",
    "load_class",
    "name_or_class",
    "one_line",
    "resolved_class_path",
    "study_folder",
]

#: The folder a relative ``file.py`` is taken from while a study file is loaded (``None``: the working directory).
_STUDY_FOLDER: contextvars.ContextVar[Path | None] = contextvars.ContextVar("study_folder", default=None)

#: Modules imported from files, by (absolute path, SHA-256 of the content).
_FILE_MODULES: dict[tuple[Path, str], Any] = {}

#: The source of each module imported from a file, by module name: its absolute path and content (what a Dask
#: worker needs to import the same module, :func:`file_modules`).
_FILE_SOURCES: dict[str, tuple[str, bytes]] = {}

#: What results record of each class loaded, by its absolute class path.
_RECORDS: dict[str, dict[str, Any]] = {}

#: The user's source files first imported while a module named by a study ran, by that module's name: their
#: paths and SHA-256 (a helper module next to a body file is code the study runs too).
_IMPORTED: dict[str, dict[str, str]] = {}

#: How a class path is written, for the error messages.
FORM = "'package.module:Class' or 'file.py:Class' (a file relative to the study file)"


@contextlib.contextmanager
def study_folder(path: str | Path) -> Iterator[None]:
    """Relative ``file.py:Class`` values are taken from the folder of the study file ``path`` inside."""
    token = _STUDY_FOLDER.set(Path(path).expanduser().absolute().parent)
    try:
        yield
    finally:
        _STUDY_FOLDER.reset(token)


def is_class_path(value: Any) -> bool:
    """Whether a config value names a class by where it lives (it holds a ``:``; a built-in name does not)."""
    return isinstance(value, str) and ":" in value


def _split(key: str, value: str, expected: str) -> tuple[str, str]:
    where, _, name = value.rpartition(":")
    if not where.strip() or not name.isidentifier():
        raise cfg.ConfigError(key, value, f"{expected}, written {FORM}")
    return where.strip(), name


def _file(where: str) -> Path:
    path = Path(where).expanduser()
    if not path.is_absolute():
        path = (_STUDY_FOLDER.get() or Path.cwd()) / path
    return Path(os.path.normpath(path.absolute()))


def resolved_class_path(key: str, value: str, expected: str) -> str:
    """``value`` in its absolute form: a relative file made absolute (see the module docstring), a module path
    as written."""
    where, name = _split(key, value, expected)
    return f"{_file(where)}:{name}" if where.endswith(".py") else f"{where}:{name}"


def name_or_class(key: str, names: Sequence[str], expected: str) -> cfg.Parser:
    """One of the built-in ``names``, or a class path, parsed into its absolute form (the class is loaded and
    checked where the schema is made, before the value is parsed)."""

    def parse(value: Any) -> str:
        if is_class_path(value):
            return resolved_class_path(key, value, expected)
        if value in names:
            return value
        return cfg.choice(*names, other=f"{expected}, written {FORM}")(value)

    return parse


def one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _import_file(key: str, value: str, path: Path, expected: str) -> Any:
    try:
        content = path.read_bytes()
    except OSError as error:
        raise cfg.ConfigError(key, value, f"{expected}; cannot read {path} ({error.strerror or error})") from None
    digest = hashlib.sha256(content).hexdigest()
    found = _FILE_MODULES.get((path, digest))
    if found is not None:
        return found
    module_name = f"_regcontact_user_{path.stem}_{digest[:16]}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise cfg.ConfigError(key, value, f"{expected}; {path} cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    before = set(sys.modules)
    sys.modules[module_name] = module  # dataclasses and equinox look the class's module up while it is made
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as error:  # a sys.exit() in the file is its failure, not the command's end
        del sys.modules[module_name]
        raise cfg.ConfigError(key, value, f"{expected}; importing {path} failed ({one_line(error)})") from None
    _IMPORTED[module_name] = _user_sources(set(sys.modules) - before - {module_name})
    _FILE_MODULES[(path, digest)] = module
    _FILE_SOURCES[module_name] = (str(path), content)
    return module


def file_modules(pickled: bytes) -> tuple[tuple[str, str, bytes], ...]:
    """The modules imported from files that the pickle ``pickled`` refers to (a class of theirs is pickled by its
    module's name): each as (module name, path, content), for :func:`install_file_modules` in another process."""
    return tuple((name, *_FILE_SOURCES[name]) for name in sorted(_FILE_SOURCES) if name.encode() in pickled)


class _ContentLoader(importlib.abc.Loader):
    """Executes a file's content as it was read in the process that shipped it (not the file as it is here)."""

    def __init__(self, path: str, content: bytes):
        self.path, self.content = path, content

    def exec_module(self, module: Any) -> None:
        exec(compile(self.content, self.path, "exec"), module.__dict__)


def install_file_modules(modules: Sequence[tuple[str, str, bytes]]) -> None:
    """Imports each module of :func:`file_modules` under its own name, from its shipped content (a module of that
    name is already here: its name holds the content's SHA-256, so it is the same code), so that what refers to
    its classes unpickles here as in the process that loaded the study."""
    for name, path, content in modules:
        if name in sys.modules:
            continue
        spec = importlib.util.spec_from_loader(name, _ContentLoader(path, content), origin=path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        module.__file__ = path
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise


def _user_sources(names: set[str]) -> dict[str, str]:
    """The source files of the modules ``names`` that are the user's (not in the Python installation or its
    environments, not regcontact's own), by path, with their SHA-256."""
    installed = {Path(prefix).resolve() for prefix in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    own = Path(__file__).resolve().parents[1]
    found: dict[str, str] = {}
    for name in names:
        file = getattr(sys.modules.get(name), "__file__", None)
        if not isinstance(file, str) or not file.endswith(".py"):
            continue
        path = Path(file).resolve()
        if path.is_relative_to(own) or any(path.is_relative_to(prefix) for prefix in installed):
            continue
        with contextlib.suppress(OSError):
            found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return dict(sorted(found.items()))


def _import_module(key: str, value: str, where: str, expected: str) -> Any:
    before = set(sys.modules)
    try:
        module = importlib.import_module(where)
        if where not in _IMPORTED:
            _IMPORTED[where] = _user_sources(set(sys.modules) - before - {where})
        return module
    except ModuleNotFoundError as error:
        if error.name is not None and (where == error.name or where.startswith(error.name + ".")):
            raise cfg.ConfigError(key, value, f"{expected}; no module named {error.name!r}") from None
        raise cfg.ConfigError(key, value, f"{expected}; importing {where} failed ({one_line(error)})") from None
    except (Exception, SystemExit) as error:  # KeyboardInterrupt still ends the command
        raise cfg.ConfigError(key, value, f"{expected}; importing {where} failed ({one_line(error)})") from None


def _source(cls: type) -> tuple[str, str]:
    """The file a class is defined in and its SHA-256 (empty where there is none)."""
    try:
        path = inspect.getsourcefile(cls) or ""
        return path, hashlib.sha256(Path(path).read_bytes()).hexdigest() if path else ""
    except (OSError, TypeError):
        return "", ""


def load_class(key: str, value: str, base: type | tuple[type, ...], expected: str) -> type:
    """The class ``value`` names (``"package.module:Class"`` or ``"file.py:Class"``), which must be a concrete
    subclass of ``base``; else a :class:`~regcontact.studies.config.ConfigError` of ``key`` saying ``expected`` and
    what went wrong (a module or file not found, an import that raised, no such class, another class)."""
    where, name = _split(key, value, expected)
    if where.endswith(".py"):
        path = _file(where)
        if not path.is_file():
            raise cfg.ConfigError(key, value, f"{expected}; no file {path}")
        module = _import_file(key, value, path, expected)
        canonical = f"{path}:{name}"
    else:
        module = _import_module(key, value, where, expected)
        canonical = f"{where}:{name}"
    found = getattr(module, name, None)
    if found is None:
        raise cfg.ConfigError(key, value, f"{expected}; {where} has no {name!r}")
    if not (isinstance(found, type) and issubclass(found, base)):
        raise cfg.ConfigError(key, value, f"{expected}; {name} is {described(found)}")
    if inspect.isabstract(found):
        missing = ", ".join(sorted(getattr(found, "__abstractmethods__", ())))
        raise cfg.ConfigError(key, value, f"{expected}; {name} is abstract (it does not define {missing})")
    source, digest = _source(found)
    record: dict[str, Any] = {"class": canonical, "module": found.__module__, "file": source, "sha256": digest}
    if _IMPORTED.get(module.__name__):
        record["imports"] = _IMPORTED[module.__name__]
    _RECORDS[canonical] = record
    return found


def described(thing: Any) -> str:
    """``a class derived from A, B``, or ``a T, not a class``: what a value named as a class turned out to be."""
    if isinstance(thing, type):
        return f"a class derived from {', '.join(base.__name__ for base in thing.__mro__[1:-1]) or 'object'}"
    return f"a {type(thing).__name__}, not a class"


def class_records(config: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each class a validated config names by path, by its dotted key: the class path, its module, its source
    file and that file's SHA-256 (empty where the source cannot be read), and under ``imports`` the user's own
    modules that importing it imported first, with theirs."""
    found: dict[str, dict[str, Any]] = {}

    def walk(node: Mapping[str, Any], prefix: str) -> None:
        for key, value in node.items():
            if isinstance(value, Mapping):
                walk(value, f"{prefix}{key}.")
            elif isinstance(value, str) and value in _RECORDS:
                found[prefix + key] = _RECORDS[value]

    walk(config, "")
    return found


def constructed(cls: type, values: Mapping[str, Any]) -> Any:
    """``cls(**values)`` for the keys that have a value (``None``: the constructor's default); a refusal that is
    no ``ValueError`` (a ``TypeError`` of the class's own code) raised as one, in one line."""
    try:
        return cls(**{key: value for key, value in values.items() if value is not None})
    except ValueError:
        raise
    except Exception as error:
        raise ValueError(f"{cls.__name__}(...) raised {one_line(error)}") from None


def _default(value: Any) -> Any:
    """A constructor's default as a config value: numbers as floats (lists for arrays), ``None`` otherwise
    (the key is then not passed: the constructor's own default holds)."""
    if value is None or isinstance(value, bool | str):
        return None
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return None
    return array.tolist() if np.all(np.isfinite(array)) else None


def constructor_fields(
    key: str, value: str, cls: type, rules: Mapping[str, Rule], reserved: tuple[str, ...] = ()
) -> dict[str, cfg.Field]:
    """The config fields of ``cls``: one per keyword parameter of its constructor, parsed with ``rules`` (the
    class's ``ARGUMENT_RULES``) where it has one, else as finite numbers; required where the constructor has no
    default. ``reserved`` names keys the table has already (a parameter of that name is refused)."""
    try:
        parameters = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError) as error:
        raise cfg.ConfigError(key, value, f"a class whose constructor can be inspected ({one_line(error)})") from None
    fields: dict[str, cfg.Field] = {}
    for parameter in parameters:
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        name = parameter.name
        if parameter.kind == parameter.POSITIONAL_ONLY or name in reserved:
            taken = f"the table's own key {name!r}" if name in reserved else f"the positional-only {name!r}"
            raise cfg.ConfigError(key, value, f"a class whose constructor takes keyword parameters, not {taken}")
        rule = rules.get(name, FINITE)
        required = parameter.default is inspect.Parameter.empty
        default = cfg.REQUIRED if required else _default(parameter.default)
        fields[name] = cfg.Field(cfg.ruled_array(rule), default, f"{name}: {rule.expected} (or a list of them)")
    return fields
