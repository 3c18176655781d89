"""One-call acceptance tests for simple scalar schemas: the hot path of a typical tool call.

Most arguments are flat scalars (a bounded integer, an enum, a date string). For those,
:func:`fast_predicate` builds a single predicate that is true exactly when the value is valid **and** the
validator would pass it through unchanged (no clamping, no case normalising, no cleaning of ``10.0``). An
object check tries the predicate first and falls back to the full compiled check — which produces the
errors and notices — only when it says no. Schemas with anything else (``$ref``, combinators, nested
structure, ``multipleOf``, nullable types) get no predicate.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping
from typing import Any

from toolkit._exceptions import SchemaError
from toolkit._validation._formats import FORMAT_CHECKS
from toolkit._validation._pattern import Pattern, PatternLimitError, compile_pattern

__all__ = ["fast_array_predicate", "fast_predicate", "memory", "remembered_source"]

Predicate = Callable[[Any], bool]
_SIMPLE = (
    frozenset({"type", "description", "title", "default", "examples", "example", "deprecated", "readOnly", "writeOnly"})
    | {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern"}
    | {
        "format",
        "enum",
        "$comment",
    }
)
_INF = float("inf")


def _number(value: Any) -> bool:
    return type(value) in (int, float)


def fast_predicate(schema: Any) -> Predicate | None:
    """A predicate for a simple scalar schema (see the module docstring), or ``None``."""
    if isinstance(schema, Mapping) and ("anyOf" in schema or "oneOf" in schema):
        return _optional(schema)
    if not isinstance(schema, Mapping) or not schema.keys() <= _SIMPLE or any(k.startswith("x-") for k in schema):
        return None
    kind = schema.get("type")
    if kind == "string":
        return _string(schema)
    if kind == "integer" or kind == "number":
        return _number_predicate(schema, kind == "integer")
    if kind == "boolean" and "enum" not in schema:
        return lambda v: type(v) is bool
    return None


_NULL = {"type": "null"}
_ANNOTATIONS = frozenset({"description", "title", "default", "examples", "example", "deprecated", "$comment"})


def _optional(schema: Mapping[str, Any]) -> Predicate | None:
    """``anyOf``/``oneOf`` ``[X, {type: null}]`` (either order, nothing else beside it but annotations) of a simple
    scalar or array X: null passes unchanged (the property accepts it), X's values as X's predicate says."""
    keyword = "anyOf" if "anyOf" in schema else "oneOf"
    branches = schema[keyword]
    rest = schema.keys() - {keyword}
    if not rest <= _ANNOTATIONS or not isinstance(branches, list) or len(branches) != 2:
        return None
    if _NULL not in branches:
        return None
    other = branches[1] if branches[0] == _NULL else branches[0]
    inner = fast_predicate(other) if isinstance(other, Mapping) and "anyOf" not in other else None
    inner = inner or fast_array_predicate(other)
    if inner is None or inner(None):
        return None
    return lambda v: v is None or inner(v)


_ARRAY = frozenset({"type", "items", "minItems", "maxItems", "description", "title", "default", "examples"})


def fast_array_predicate(schema: Any) -> Predicate | None:
    """The same for an array of simple scalars (no ``uniqueItems``, ``contains`` or ``prefixItems``)."""
    if not isinstance(schema, Mapping) or schema.get("type") != "array" or not schema.keys() <= _ARRAY:
        return None
    item = fast_predicate(schema.get("items"))
    low, high = schema.get("minItems", 0), schema.get("maxItems")
    if item is None or not isinstance(low, int) or (high is not None and not isinstance(high, int)):
        return None
    top = high if high is not None else _INF
    return lambda v: type(v) is list and low <= len(v) <= top and all(map(item, v))


def _bounds(schema: Mapping[str, Any]) -> tuple[float, float, float, float] | None:
    values = [schema.get(k) for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")]
    if any(v is not None and not _number(v) for v in values):
        return None
    low, high, xlow, xhigh = values
    return (
        low if low is not None else -_INF,
        high if high is not None else _INF,
        xlow if xlow is not None else -_INF,
        xhigh if xhigh is not None else _INF,
    )


def _number_predicate(schema: Mapping[str, Any], integer: bool) -> Predicate | None:
    bounds = _bounds(schema)
    if bounds is None or "enum" in schema or schema.get("format") in ("int32", "int64"):
        return None
    lo, hi, xlo, xhi = bounds
    if integer:
        return lambda v: type(v) is int and lo <= v <= hi and xlo < v < xhi
    return lambda v: (type(v) is int or type(v) is float) and lo <= v <= hi and xlo < v < xhi


def _string(schema: Mapping[str, Any]) -> Predicate | None:
    low, high = schema.get("minLength", 0), schema.get("maxLength")
    if not isinstance(low, int) or (high is not None and not isinstance(high, int)):
        return None
    high = high if high is not None else _INF
    tests: list[Predicate] = []
    if "enum" in schema:
        if not isinstance(schema["enum"], list) or not all(isinstance(v, str) for v in schema["enum"]):
            return None
        members = frozenset(schema["enum"])
        tests.append(members.__contains__)
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt in FORMAT_CHECKS:
        tests.append(FORMAT_CHECKS[fmt])
    if "pattern" in schema:
        try:
            compiled = compile_pattern(schema["pattern"])
        except SchemaError:  # the full check reports it (or the tool was refused when it was built)
            return None
        if not compiled.linear:  # it may backtrack: the full check searches within the run's time budget
            return None
        tests.append(_matches(compiled))
    if not tests:
        return lambda v: type(v) is str and low <= len(v) <= high
    if len(tests) == 1:
        only = tests[0]
        return lambda v: type(v) is str and low <= len(v) <= high and only(v)
    return lambda v: type(v) is str and low <= len(v) <= high and all(t(v) for t in tests)


def _matches(pattern: Pattern) -> Predicate:
    """The pattern's search; False when it runs out of time, so that the full check reports it."""
    search = pattern.search

    def matches(value: str) -> bool:
        try:
            return search(value)
        except PatternLimitError:
            return False

    return matches


MEMO_SIZE = 4096
"""The most strings one memory keeps (once full, it keeps what it has)."""
MEMO_LENGTH = 64
"""The longest string a memory keeps: dates, times, ids, short codes."""
_MEMORIES: dict[Predicate, set[str]] = {}


def memory(test: Predicate) -> set[str]:
    """The strings ``test`` (a pure test of a string, living as long as the process: a format's) passed, kept
    for generated code to ask ``value in seen`` before running it (see :func:`remembered_source`). The date
    format's starts with the days a model most often sends (:func:`recent_days`)."""
    found = _MEMORIES.get(test)
    if found is None:
        found = _MEMORIES[test] = recent_days() if test is FORMAT_CHECKS["date"] else set()
    return found


def recent_days() -> set[str]:
    """Every day from January two years back to the end of next year, as ``YYYY-MM-DD`` (about 1,460)."""
    today = datetime.date.today()
    first, last = datetime.date(today.year - 2, 1, 1), datetime.date(today.year + 1, 12, 31)
    return {(first + datetime.timedelta(days=i)).isoformat() for i in range((last - first).days + 1)}


def remembered_source(test: str, seen: str, var: str) -> str:
    """Source for ``test`` (a name) on the string in ``var`` that answers from ``seen`` (a name) first, and adds a
    short passing string while ``seen`` has room: a value a model sends again (the same date, call after call)
    costs a set lookup; a new one, the test and a few comparisons more."""
    return (
        f"({var} in {seen} or ({test}({var}) and "
        f"(len({var}) > {MEMO_LENGTH} or len({seen}) >= {MEMO_SIZE} or not {seen}.add({var}))))"
    )
