"""Study configuration: TOML files, ``--set`` overrides, and validation against a declared schema
(``docs/results.md``)."""

from __future__ import annotations

import dataclasses
import itertools
import math
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from regcontact import _argument_checks as rules
from regcontact._argument_checks import ArgumentError, Rule, count_problem, rule_problem

__all__ = [
    "REQUIRED",
    "ConfigError",
    "Field",
    "NamedTables",
    "TableRule",
    "apply_override",
    "boolean",
    "choice",
    "finite",
    "finite_or_table",
    "float_or_choice",
    "in_open_interval",
    "increasing",
    "list_of",
    "matrix",
    "nonnegative",
    "nonnegative_or_table",
    "or_word",
    "positive",
    "positive_int",
    "read_toml",
    "relative_tolerance",
    "ruled",
    "ruled_array",
    "step_budget",
    "study_fields",
    "text",
    "validate",
    "values_of",
]


class ConfigError(ValueError):
    """A bad configuration value: ``key = value: expected ...``."""

    def __init__(self, key: str, value: Any, expected: str):
        self.key, self.value, self.expected = key, value, expected
        shown = "(missing)" if value is REQUIRED else repr(value)
        super().__init__(f"{key} = {shown}: expected {expected}")


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


#: Default of a field that the config must give.
REQUIRED: Any = _Required()

Parser = Callable[[Any], Any]


@dataclasses.dataclass(frozen=True)
class Field:
    """One config value: how to parse it, its default, and a line of documentation."""

    parse: Parser
    default: Any = REQUIRED
    doc: str = ""


@dataclasses.dataclass(frozen=True)
class TableRule:
    """A rule across the keys of the table whose schema holds it (an entry of the schema, not a key of the config):
    ``check`` receives the parsed table and raises :class:`~regcontact._argument_checks.ArgumentError` naming the
    key at fault (an object's own rule, e.g. a system's), which becomes a :class:`ConfigError` of that key."""

    check: Callable[[dict[str, Any]], None]


@dataclasses.dataclass(frozen=True)
class NamedTables:
    """A table of sub-tables with names the user chooses, each validated against ``schema``."""

    schema: Mapping[str, Any]
    min_count: int = 1
    doc: str = ""


class _Invalid(Exception):
    """Raised by parsers with the text of what was expected."""


# -- parsers: each returns the parsed value or raises _Invalid(expected) ------------------------------------


def ruled(rule: Rule) -> Parser:
    """One number (an integer or a float, not a bool) that follows ``rule``, in the rule's words: the parser of
    every key whose value the Python API checks with the same rule."""

    def parse(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _Invalid(rule.expected)
        problem = rule_problem(value, rule)
        if problem is not None:
            raise _Invalid(problem[1])
        return float(value)

    return parse


def _all_numbers(value: Any) -> bool:
    """A number or a non-empty (nested) list of numbers, as TOML gives them; no bool."""
    if isinstance(value, list):
        return bool(value) and all(_all_numbers(item) for item in value)
    return isinstance(value, int | float) and not isinstance(value, bool)


def ruled_array(rule: Rule) -> Parser:
    """A number, or a rectangular list of numbers (nested for a matrix), each following ``rule``; parsed as a
    float or lists of floats (the parser of a key whose shape only the class that takes it knows)."""

    def parse(value: Any) -> Any:
        if not _all_numbers(value):
            raise _Invalid(f"{rule.expected}, or a list of such numbers")
        try:
            array = np.asarray(value, dtype=float)
        except (ValueError, OverflowError):  # rows of unequal lengths; an integer beyond float64
            raise _Invalid(f"{rule.expected}, or a rectangular list of such numbers") from None
        problem = rule_problem(value, rule)
        if problem is not None:
            raise _Invalid(problem[1])
        return array.tolist()

    return parse


def _number(value: Any, expected: str) -> float:
    return ruled(rules.Rule(expected, rules.FINITE.test))(value)


finite = ruled(rules.FINITE)
positive = ruled(rules.POSITIVE)
nonnegative = ruled(rules.NONNEGATIVE)
#: A solver's ``rtol``: in ``[2.2e-14, 1)``, 100 float64 epsilons or more (a smaller one cannot be met).
relative_tolerance = ruled(rules.RELATIVE_TOLERANCE)


def in_open_interval(low: float, high: float, label: str | None = None) -> Parser:
    return ruled(rules.in_open_interval(low, high, label))


def positive_int(value: Any) -> int:
    expected = count_problem(value)
    if expected is not None:
        raise _Invalid(expected)
    return value


def step_budget(value: Any) -> int:
    """A solve's step budget: the rule of :class:`~regcontact.compliant.SolveSettings`' ``max_steps``."""
    expected = count_problem(value, rules.MAX_STEPS)
    if expected is not None:
        raise _Invalid(expected)
    return value


def boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Invalid("true or false")
    return value


def text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Invalid("a non-empty string")
    return value


def choice(*names: str, other: str = "") -> Parser:
    """One of ``names``; ``other`` says what else the caller accepts, for the message (checked before this)."""
    expected = ("one of " + ", ".join(repr(n) for n in names) if names else "") + (
        f"{', or ' if names else ''}{other}" if other else ""
    )

    def parse(value: Any) -> str:
        if value not in names:
            raise _Invalid(expected)
        return value

    return parse


def float_or_choice(number: Parser, *names: str) -> Parser:
    """A number accepted by ``number``, or one of the given words."""

    def parse(value: Any) -> float | str:
        if isinstance(value, str) and value in names:
            return value
        try:
            return number(value)
        except _Invalid as error:
            raise _Invalid(f"{error} or one of " + ", ".join(repr(n) for n in names)) from None

    return parse


def finite_or_table(**fields: Parser) -> Parser:
    """A finite number, or an inline table with exactly the given keys (each parsed by its parser)."""
    keys = ", ".join(fields)
    expected = f"a finite number or a table {{{keys}}}"

    def parse(value: Any) -> float | dict[str, Any]:
        if isinstance(value, dict):
            if set(value) != set(fields):
                raise _Invalid(expected)
            try:
                return {key: fields[key](item) for key, item in value.items()}
            except _Invalid:
                raise _Invalid(expected) from None
        return _number(value, expected)

    return parse


def load_or_table(number: Parser, **fields: Parser) -> Parser:
    """A load: a number (parsed by ``number``), a ramp ``{start, rate}`` or ``{start, rate, until}`` (finite
    numbers, ``until ≥ 0``), a table ``{times, values}`` (lists of finite numbers; the profile checks their
    order), or an inline table with exactly the given ``fields``. Tables are returned as dicts (the system builds
    the profile)."""
    ramp, ramp_held = {"start": finite, "rate": finite}, {"start": finite, "rate": finite, "until": nonnegative}
    table = {"times": list_of(finite, 2, "times"), "values": list_of(finite, 2, "values")}
    shapes = [ramp, ramp_held, table] + ([fields] if fields else [])
    others = "".join(f" or {{{', '.join(f)}}}" for f in ([fields] if fields else []))
    loads = f"a ramp {{start, rate[, until ≥ 0]}}, a table {{times, values}}{others}"
    expected = f"a number, {loads}"

    def parse(value: Any) -> Any:
        if not isinstance(value, dict):
            try:
                return number(value)
            except _Invalid as error:  # the number's own rule (as the constructor says it), then the loads
                raise _Invalid(f"{error.args[0]}, or {loads}") from None
        shape = next((shape for shape in shapes if set(value) == set(shape)), None)
        if shape is None:
            raise _Invalid(expected)
        try:
            parsed = {key: shape[key](item) for key, item in value.items()}
        except _Invalid:
            raise _Invalid(expected) from None
        if shape is table and (
            len(parsed["values"]) != len(parsed["times"]) or any(b <= a for a, b in itertools.pairwise(parsed["times"]))
        ):
            raise _Invalid(f"{expected}, with strictly increasing times and one value per time")
        return parsed

    return parse


def nonnegative_or_table(**fields: Parser) -> Parser:
    """A number ≥ 0, or an inline table with exactly the given keys (each parsed by its parser)."""
    table = finite_or_table(**fields)
    expected = f"a number ≥ 0 or a table {{{', '.join(fields)}}}"

    def parse(value: Any) -> float | dict[str, Any]:
        try:
            parsed = table(value)
        except _Invalid:
            raise _Invalid(expected) from None
        if not isinstance(parsed, dict) and parsed < 0:
            raise _Invalid(expected)
        return parsed

    return parse


def list_of(item: Parser, min_length: int = 0, what: str = "values", max_length: int | None = None) -> Parser:
    def parse(value: Any) -> list:
        if not isinstance(value, list):
            raise _Invalid(f"a list of {what}")
        if min_length == max_length and len(value) != min_length:
            raise _Invalid(f"a list of {min_length} {what}")
        if len(value) < min_length:
            raise _Invalid(f"a non-empty list of {what}" if min_length == 1 else f"a list of ≥ {min_length} {what}")
        if max_length is not None and len(value) > max_length:
            raise _Invalid(f"a list of ≤ {max_length} {what}")
        parsed = []
        for entry in value:
            try:
                parsed.append(item(entry))
            except _Invalid as error:
                raise _Invalid(f"a list of {what}, each {error}") from None
        return parsed

    return parse


#: Range tables a swept key may give instead of a list: ``{linspace = [a, b, n]}`` (n values from a to b) and
#: ``{logspace = [a, b, n]}`` (n values from 10^a to 10^b), as numpy reads them.
RANGES: dict[str, Callable[[float, float, int], np.ndarray]] = {"linspace": np.linspace, "logspace": np.logspace}

#: The most values one range table gives, checked before it is built (ten times the default case limit; a sweep
#: larger than that in one key is several studies).
MAX_RANGE_VALUES = 10_000_000


def values_of(item: Parser, what: str = "values") -> Parser:
    """A non-empty list of values, or a range table (:data:`RANGES`); each value parsed by ``item``."""
    as_list = list_of(item, 1, what)
    expected = (
        f"a non-empty list of {what}, or {{linspace = [a, b, n]}} / {{logspace = [a, b, n]}} with "
        f"1 ≤ n ≤ {MAX_RANGE_VALUES:,}"
    )

    def parse(value: Any) -> list:
        if isinstance(value, Mapping):
            if len(value) != 1 or next(iter(value)) not in RANGES:
                raise _Invalid(expected)
            ((kind, bounds),) = value.items()
            if (
                not isinstance(bounds, list)
                or len(bounds) != 3
                or not all(isinstance(b, int | float) and not isinstance(b, bool) for b in bounds)
                or not all(math.isfinite(b) for b in bounds)
                or not float(bounds[2]).is_integer()
                or not 1 <= bounds[2] <= MAX_RANGE_VALUES
            ):
                raise _Invalid(expected)
            value = [float(x) for x in RANGES[kind](bounds[0], bounds[1], int(bounds[2]))]
        elif not isinstance(value, list):
            raise _Invalid(expected)
        return as_list(value)

    return parse


def increasing(parse: Parser) -> Parser:
    """A list ``parse`` accepts whose values increase strictly (e.g. stiffness multipliers an order is fitted over)."""

    def parse_increasing(value: Any) -> list:
        values = parse(value)
        if any(b <= a for a, b in zip(values, values[1:])):
            raise _Invalid("increasing values")
        return values

    return parse_increasing


def matrix(rows: int, columns: int, entry: Rule = rules.FINITE) -> Parser:
    """A ``rows × columns`` matrix written as a list of rows, ``[[m11, m12], [m21, m22]]``, each entry following
    ``entry`` (the rule the constructor applies to the matrix, elementwise)."""
    expected = f"a {rows}×{columns} matrix (a list of {rows} rows of {columns} numbers), each entry {entry.expected}"
    number = ruled(entry)

    def parse(value: Any) -> list[list[float]]:
        if not isinstance(value, list) or len(value) != rows:
            raise _Invalid(expected)
        if not all(isinstance(row, list) and len(row) == columns for row in value):
            raise _Invalid(expected)
        try:
            return [[number(item) for item in row] for row in value]
        except _Invalid:
            raise _Invalid(expected) from None

    return parse


def or_word(parse: Parser, word: str) -> Parser:
    """A value ``parse`` accepts, or the word ``word`` (parsed as ``None``: "not given", "automatic")."""

    def parse_or_word(value: Any) -> Any:
        if value == word:
            return None
        try:
            return parse(value)
        except _Invalid as error:
            raise _Invalid(f"{error}, or {word!r}") from None

    return parse_or_word


# -- validation --------------------------------------------------------------------------------------------


def validate(raw: Mapping[str, Any], schema: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Check ``raw`` against ``schema`` and return it parsed, with defaults filled in."""
    if not isinstance(raw, Mapping):
        raise ConfigError(prefix.rstrip(".") or "(top level)", raw, "a table")
    table_rules = [spec for spec in schema.values() if isinstance(spec, TableRule)]
    keys = {key: spec for key, spec in schema.items() if not isinstance(spec, TableRule)}
    unknown = [key for key in raw if key not in keys]
    if unknown:
        key = unknown[0]
        known = ", ".join(sorted(keys)) or "(none)"
        raise ConfigError(prefix + key, raw[key], f"a known key (this table has: {known})")
    parsed: dict[str, Any] = {}
    for key, spec in keys.items():
        dotted = prefix + key
        if isinstance(spec, Mapping):
            parsed[key] = validate(raw.get(key, {}), spec, dotted + ".")
            continue
        if isinstance(spec, NamedTables):
            tables = raw.get(key, {})
            if not isinstance(tables, Mapping) or len(tables) < spec.min_count:
                raise ConfigError(dotted, tables, f"at least {spec.min_count} named table(s): {spec.doc}")
            parsed[key] = {name: validate(table, spec.schema, f"{dotted}.{name}.") for name, table in tables.items()}
            continue
        if key not in raw:
            if spec.default is REQUIRED:
                raise ConfigError(dotted, REQUIRED, _describe(spec))
            parsed[key] = spec.default
            continue
        try:
            parsed[key] = spec.parse(raw[key])
        except _Invalid as error:
            raise ConfigError(dotted, raw[key], str(error)) from None
    for table_rule in table_rules:
        try:
            table_rule.check(parsed)
        except ArgumentError as error:
            raise ConfigError(prefix + error.name, error.value, error.expected) from None
    return parsed


def _describe(spec: Field) -> str:
    return spec.doc or "a value"


def alpha_field(ascending: bool = False) -> Field:
    """``alpha``, the stiffness multipliers of a kind's compliant runs (required); ``ascending``: increasing, where
    an order in α is fitted over them in the order given."""
    if ascending:
        values = increasing(values_of(positive, "α > 0"))
        return Field(values, REQUIRED, "stiffness multipliers α, increasing (an order in α is fitted over them)")
    return Field(values_of(positive, "α > 0"), REQUIRED, "stiffness multipliers α")


def solve_fields(rtol: float, atol: float, max_steps: int | None = None, of: str = "") -> dict[str, Field]:
    """``rtol``, ``atol`` and (given a default) ``max_steps`` of a kind's compliant solves, with the kind's
    defaults: one rule each, those :class:`~regcontact.compliant.Controls` and
    :class:`~regcontact.compliant.SolveSettings` apply (``of``: what the tolerances are of, said after them)."""
    fields = {
        "rtol": Field(relative_tolerance, rtol, f"relative tolerance{of}"),
        "atol": Field(positive, atol, f"absolute tolerance{of}"),
    }
    if max_steps is not None:
        fields["max_steps"] = Field(step_budget, max_steps, "step budget per run")
    return fields


def study_fields(kind: str) -> dict[str, Field]:
    """The ``[study]`` table every study has: its name, its kind, a description."""
    return {
        "name": Field(text, REQUIRED, "a study name (used for the output folder)"),
        "kind": Field(choice(kind), kind, f"'{kind}'"),
        "description": Field(str, "", "free text"),
    }


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file; a syntax error becomes a :class:`ConfigError` naming the file."""
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError("CONFIG", str(path), "an existing TOML file") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError("CONFIG", str(path), f"valid TOML ({error})") from None


def apply_override(raw: dict[str, Any], assignment: str) -> None:
    """Apply ``key.path=value`` to the raw config in place; ``value`` is read as TOML, else as a string."""
    key, sep, text_value = assignment.partition("=")
    key = key.strip()
    if not sep or not key or any(not part for part in key.split(".")):
        raise ConfigError("--set", assignment, "key.path=value")
    try:
        value = tomllib.loads(f"value = {text_value.strip()}")["value"]
    except tomllib.TOMLDecodeError:
        value = text_value.strip()
    *tables, leaf = key.split(".")
    node = raw
    for depth, table in enumerate(tables):
        child = node.setdefault(table, {})
        if not isinstance(child, dict):
            raise ConfigError(".".join(tables[: depth + 1]), child, "a table (cannot set a key inside it)")
        node = child
    node[leaf] = value
