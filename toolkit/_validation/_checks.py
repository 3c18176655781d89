"""Scalar keyword checks compiled into closures: types, numbers, strings, enums.

Each factory takes the keyword's value (and the schema it sits in, for the ``expected`` phrase) and returns a
:data:`Check` — ``check(value, loc, run) -> value`` — that appends :class:`FieldError` s and
:class:`Notice` s to ``run`` and returns the (possibly clamped or normalised) value. Every check guards its
own JSON type, because in JSON Schema ``minimum`` simply does not apply to a string. The ``expected`` phrase
is built only when an error is reported, so the happy path costs one or two comparisons per keyword.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, TypeGuard

from toolkit._codes import FieldCode, NoticeAction
from toolkit._envelope import UNSET, FieldError, Notice
from toolkit._validation._expected import (
    Loc,
    clause,
    const_phrase,
    describe,
    enum_phrase,
    format_path,
    number_text,
    once,
    range_phrase,
    type_name,
)
from toolkit._validation._formats import FORMAT_CHECKS, FORMAT_PHRASES, INTEGER_FORMATS, ecma_regex

__all__ = ["MAX_DEPTH", "Check", "Run", "json_key", "short", "type_check"]

MAX_DEPTH = 64
"""Deepest data nesting (objects and arrays) the validator walks; deeper data is an error, not a RecursionError."""


class Run:
    """The mutable state of one validation pass: errors and notices found, and how deep we are."""

    __slots__ = ("depth", "errors", "hops", "notices")

    def __init__(self) -> None:
        self.errors: list[FieldError] = []
        self.notices: list[Notice] = []
        self.depth = 0
        self.hops = 0

    def error(self, loc: Loc, code: FieldCode, problem: str, expected: str) -> None:
        self.errors.append(FieldError(format_path(loc), code, problem, expected))

    def notice(self, loc: Loc, action: NoticeAction, message: str, to: Any = UNSET, from_: Any = UNSET) -> None:
        self.notices.append(Notice(format_path(loc), action, message, to, from_))


Check = Callable[[Any, Loc, Run], Any]

RANGE_WORDS: tuple[str, ...] = ("between", "least", "most", "up to", "max", "min", "more", "less", "fewer")
RANGE_WORDS += ("greater", "from", "exceed", "range", "below", "above", "≤", "≥", "<", ">", "to ")
_PATTERN_WORDS = ("format", "like", "e.g.", "such as", "pattern", "starts with", "followed by", "digits")
LENGTH_WORDS = ("character", "char", "letter", "long", "length", "digit", "symbol")
ITEM_WORDS = ("item", "element", "entr", "value", "element")
FORMAT_WORDS: Mapping[str, tuple[str, ...]] = {
    "date": ("YYYY-MM-DD", "ISO 8601", "ISO-8601", "RFC 3339", "RFC3339"),
    "date-time": ("RFC 3339", "RFC3339", "ISO 8601", "ISO-8601", "YYYY-MM-DDTHH"),
    "time": ("HH:MM", "RFC 3339", "ISO 8601"),
    "uuid": ("UUID",),
    "email": ("email", "e-mail"),
    "uri": ("URL", "URI"),
}


def short(value: Any) -> str:
    """The value as JSON, cut to 60 characters, for a ``problem`` text."""
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    except RecursionError:  # a hostile, deeply nested value: its outline is all a problem text needs
        text = "[...]" if isinstance(value, list) else "{...}" if isinstance(value, dict) else type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def json_key(value: Any) -> tuple[Any, ...]:
    """A hashable key with JSON equality: ``1 == 1.0`` but ``true != 1`` and ``"1" != 1``."""
    if value is None or isinstance(value, bool):
        return ("b", value)
    if isinstance(value, int | float):
        return ("n", value)
    if isinstance(value, str):
        return ("s", value)
    try:
        return ("j", json.dumps(value, sort_keys=True, default=repr))
    except RecursionError:  # too deep to compare by content (deeper than any schema lets through): by identity
        return ("deep", id(value))


# -- type --------------------------------------------------------------------------------------------
_ARTICLES = {"integer": "an integer", "number": "a number", "string": "a string", "boolean": "true or false"}
_ARTICLES |= {"array": "an array", "object": "an object", "null": "null"}


def _is_integer(value: Any) -> bool:
    kind = type(value)
    return kind is int or (kind is float and value.is_integer())


_TYPE_TESTS: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: type(v) is str,
    "integer": _is_integer,
    "number": lambda v: type(v) is int or type(v) is float,
    "boolean": lambda v: type(v) is bool,
    "null": lambda v: v is None,
    "array": lambda v: type(v) is list,
    "object": lambda v: type(v) is dict,
}


def type_check(
    kinds: list[str], schema: Mapping[str, Any], description: str | None
) -> tuple[Callable[[Any], bool], Check]:
    """``type``: strict JSON types (``true`` is not ``1``, ``"10"`` is not ``10``); ``10.0`` is an integer.

    Returns the test and the check to run when it fails (which reports ``wrong_type``). An integral float
    passes the test for ``integer``; the cleaning to ``int`` happens in the number checks.
    """
    tests = tuple(_TYPE_TESTS[k] for k in kinds if k in _TYPE_TESTS)
    wanted = " or ".join(_ARTICLES.get(k, k) for k in kinds)
    test = tests[0] if len(tests) == 1 else (lambda v: any(t(v) for t in tests))
    expected = once(lambda: describe(schema))

    def fail(value: Any, loc: Loc, run: Run) -> Any:
        shown = "null" if value is None else f"{type_name(value)} {short(value)}"
        run.error(loc, "wrong_type", f"{shown} is not {wanted}", expected())
        return value

    return test, fail


def integral_float_check(kinds: Any) -> Check | None:
    """Clean ``10.0`` to ``10`` where the schema says integer (and not number): same JSON value, right type."""
    named = {kinds} if isinstance(kinds, str) else set(kinds) if isinstance(kinds, list) else set()
    if "integer" not in named or "number" in named:
        return None
    return lambda v, loc, run: int(v) if type(v) is float else v


# -- numbers -----------------------------------------------------------------------------------------
def _range_expected(schema: Mapping[str, Any], description: str | None) -> str:
    numbers = [
        number_text(schema[k]) for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") if k in schema
    ]
    noun = "integer" if schema.get("type") == "integer" else "number"
    return clause(description, numbers, RANGE_WORDS) or range_phrase(schema, noun)


def _is_number(value: Any) -> TypeGuard[int | float]:
    kind = type(value)
    return kind is int or kind is float


def range_check(schema: Mapping[str, Any], description: str | None, clamp: bool) -> Check | None:
    """``minimum``/``maximum``/``exclusive*``: reject, or clamp with a notice when the tool's policy says so."""
    low, high = schema.get("minimum"), schema.get("maximum")
    xlow, xhigh = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if all(not _is_number(b) for b in (low, high, xlow, xhigh)):
        return None
    integer = schema.get("type") == "integer"
    floor = low if _is_number(low) else (xlow + 1 if integer and _is_number(xlow) else None)
    ceiling = high if _is_number(high) else (xhigh - 1 if integer and _is_number(xhigh) else None)
    lo = low if _is_number(low) else -_INF
    hi = high if _is_number(high) else _INF
    xlo = xlow if _is_number(xlow) else -_INF
    xhi = xhigh if _is_number(xhigh) else _INF
    expected = once(lambda: _range_expected(schema, description))

    def outside(value: Any) -> bool:
        return not (lo <= value <= hi and xlo < value < xhi)

    def report(value: Any, loc: Loc, run: Run) -> Any:
        bound = floor if (value < lo or value <= xlo) else ceiling  # None: no bound to clamp to
        if clamp and bound is not None and not outside(bound):
            run.notice(loc, "clamped", f"{number_text(value)} is out of range; used {number_text(bound)}",
                       from_=value, to=bound)  # fmt: skip
            return bound
        run.error(loc, "out_of_range", f"out of range: {number_text(value)}", expected())
        return value

    def check(value: Any, loc: Loc, run: Run) -> Any:
        kind = type(value)
        if (kind is int or kind is float) and not (lo <= value <= hi and xlo < value < xhi):
            return report(value, loc, run)
        return value

    return check


_INF = float("inf")


def is_multiple(value: float, step: float) -> bool:
    """``multipleOf`` for JSON numbers: exact for integers, tolerant of binary fractions (``0.3`` of ``0.1``),
    and safe for huge values (``1e308``, ``10**400``) where a float quotient overflows."""
    if type(value) is int and type(step) is int:
        return value % step == 0
    try:
        quotient = value / step
        if math.isfinite(quotient):
            return abs(quotient - round(quotient)) <= 1e-9
    except OverflowError:
        pass
    if isinstance(value, float) and not math.isfinite(value):
        return False
    return Fraction(value) % Fraction(str(step)) == 0  # exact rational arithmetic: no overflow, no rounding


def multiple_check(schema: Mapping[str, Any]) -> Check | None:
    step = schema.get("multipleOf")
    if not _is_number(step) or step <= 0:
        return None

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if _is_number(value) and not is_multiple(value, step):
            shown = number_text(step)
            run.error(loc, "not_multiple", f"{short(value)} is not a multiple of {shown}", f"a multiple of {shown}")
        return value

    return check


def integer_format_check(name: str) -> Check | None:
    if name not in INTEGER_FORMATS:
        return None
    low, high = INTEGER_FORMATS[name]

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if type(value) is int and not low <= value <= high:
            run.error(loc, "out_of_range", f"out of range for {name}: {value}", f"{name} integer")
        return value

    return check


# -- strings -----------------------------------------------------------------------------------------
def length_check(schema: Mapping[str, Any], description: str | None) -> Check | None:
    low, high = schema.get("minLength"), schema.get("maxLength")
    if low is None and high is None:
        return None
    low = low or 0
    high = high if high is not None else float("inf")

    @once
    def expected() -> str:
        tokens = [str(b) for b in (schema.get("minLength"), schema.get("maxLength")) if b is not None and b != 0]
        found = clause(description, tokens, LENGTH_WORDS) if tokens else None
        return found or describe({k: v for k, v in schema.items() if k != "format"} | {"type": "string"})

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if type(value) is str and not low <= len(value) <= high:
            n = len(value)
            if n < low:
                run.error(loc, "too_short", "empty string" if n == 0 else f"too short: {n} characters", expected())
            else:
                run.error(loc, "too_long", f"too long: {n} characters", expected())
        return value

    return check


def _compile_pattern(pattern: str) -> re.Pattern[str] | None:
    """ECMA-262 semantics (see :func:`~._formats.ecma_regex`); patterns Python cannot read are skipped."""
    return ecma_regex(pattern)


def pattern_check(schema: Mapping[str, Any], description: str | None) -> Check | None:
    pattern = schema.get("pattern")
    compiled = _compile_pattern(pattern) if isinstance(pattern, str) else None
    if compiled is None:
        return None
    search = compiled.search

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if type(value) is str and search(value) is None:
            expected = clause(description, (), _PATTERN_WORDS)
            run.error(loc, "pattern_mismatch", f"{short(value)} does not match the pattern {pattern}",
                      expected or f"string matching {pattern}")  # fmt: skip
        return value

    return check


def format_check(name: str, description: str | None) -> Check | None:
    test = FORMAT_CHECKS.get(name)
    if test is None:
        return None
    noun = name.replace("-", " ")

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if type(value) is str and not test(value):
            found = clause(description, (), FORMAT_WORDS.get(name, ()))
            run.error(loc, "bad_format", f"{short(value)} is not a valid {noun}", found or FORMAT_PHRASES[name])
        return value

    return check


# -- enum / const ------------------------------------------------------------------------------------
def enum_check(values: list[Any], description: str | None, insensitive: bool, const: bool = False) -> Check:
    """``enum``/``const`` with JSON equality; case-insensitive matching (with a notice) when the policy says so."""
    keys = {json_key(v) for v in values}
    strings = {v for v in values if isinstance(v, str)}
    folded: dict[str, str | None] = {}
    for v in strings:
        folded[v.casefold()] = None if v.casefold() in folded else v

    @once
    def expected() -> str:
        if const:
            return const_phrase(values[0])
        shown = [v for v in values if isinstance(v, str)][:8]
        found = clause(description, shown, ()) if 1 < len(shown) == len(values) else None
        return found or clause(description, (), ("one of",)) or enum_phrase(values)

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if type(value) is str and value in strings:
            return value
        if json_key(value) in keys:
            return value
        if insensitive and type(value) is str and folded.get(value.casefold()):
            to = folded[value.casefold()]
            run.notice(loc, "normalised_case", f"{short(value)} read as {short(to)}", from_=value, to=to)
            return to
        run.error(loc, "not_in_enum", f"{short(value)} is not an allowed value", expected())
        return value

    return check


def declared_check(node: Check, texts: Mapping[str, Any]) -> Check:
    """Read back the strings the declaration shows for non-string ``enum``/``const`` members (``"2"`` → ``2``).

    ``texts`` maps each declared string to its member (see :func:`~toolkit._validation._expected.declared_texts`, which
    the compiler gathers through ``$ref``, ``allOf`` and union branches). A string value runs through
    ``node`` as it is first; only when that fails and the string is one the declaration offered is it read
    as the member, with a ``coerced_enum`` notice. Every other value (``"10"`` for a plain integer, ``"5"``
    for ``enum [1, 2]``) meets ``node`` unchanged, so the boundary stays strict.
    """

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if type(value) is not str or value not in texts:
            return node(value, loc, run)
        probe = _probe(run)
        cleaned = node(value, loc, probe)
        if not probe.errors:
            run.notices.extend(probe.notices)
            return cleaned
        member = texts[value]
        coerced = _probe(run)
        coerced.notice(loc, "coerced_enum", f"{short(value)} read as {short(member)}: the declaration sends "
                       "this value as a string", from_=value, to=member)  # fmt: skip
        cleaned = node(member, loc, coerced)
        run.errors.extend(coerced.errors)
        run.notices.extend(coerced.notices)
        return cleaned

    return check


def _probe(run: Run) -> Run:
    probe = Run()
    probe.depth, probe.hops = run.depth, run.hops
    return probe
