"""Scalar keyword checks compiled into closures: types, numbers, strings, enums; and the state of one run.

Each factory takes the keyword's value (and the schema it sits in, for the ``expected`` phrase) and returns a
:data:`Check` — ``check(value, loc, run) -> value`` — that appends :class:`FieldError` s and
:class:`Notice` s to ``run`` and returns the (possibly clamped or normalised) value. Every check guards its
own JSON type, because in JSON Schema ``minimum`` simply does not apply to a string. The ``expected`` phrase
is built only when an error is reported, so the happy path costs one or two comparisons per keyword.

Decisions worth knowing:

* **Equality is JSON equality** (``enum``, ``const``, ``uniqueItems``): ``1 == 1.0`` and ``[1] == [1.0]``, but
  ``true != 1`` and ``"1" != 1`` (see :func:`json_key`).
* **multipleOf is exact, on the number as JSON writes it**: a float is read as its shortest round-trip
  decimal text (Python's ``repr``, which is what ``json.dumps`` writes and what a model sends), so ``0.3`` is
  a multiple of ``0.1`` and ``1e-10`` is not one of ``1``; the arithmetic is on integers, so ``10**400`` and
  ``1e308`` cost no overflow (see :func:`is_multiple`).
* **Patterns are ECMA-262** (:mod:`toolkit._validation._pattern`). A search that reaches the engine's time
  limit is the field error ``pattern_too_slow`` ("a shorter value"); one run spends at most
  :data:`SEARCH_BUDGET` seconds in patterns that may backtrack, after which such strings are reported
  ``pattern_too_slow`` without a search, so a payload of many strings cannot buy unbounded time.
* **At most** :data:`MAX_FIELD_ERRORS` field errors are kept per run; the rest are counted (``Run.more``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, TypeGuard

from toolkit._validation._expected import (
    Loc,
    clause,
    const_phrase,
    describe,
    enum_phrase,
    json_text,
    number_text,
    once,
    range_phrase,
    type_name,
)
from toolkit._validation._formats import FORMAT_CHECKS, FORMAT_PHRASES, INTEGER_FORMATS
from toolkit._validation._pattern import Pattern, PatternLimitError, compile_pattern
from toolkit._validation._run import MAX_DEPTH, MAX_FIELD_ERRORS, SEARCH_BUDGET, Check, Run, json_key, short

__all__ = ["MAX_DEPTH", "MAX_FIELD_ERRORS", "Check", "Run", "json_key", "short", "type_check"]
# Run, Check, json_key and short live in ._run; they are re-exported here, where the checks that use them are.

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


TYPE_TEST_SOURCE: dict[str, str] = {
    "string": "type({0}) is str",
    "integer": "(type({0}) is int or (type({0}) is float and {0}.is_integer()))",
    "number": "(type({0}) is int or type({0}) is float)",
    "boolean": "type({0}) is bool",
    "null": "{0} is None",
    "array": "type({0}) is list",
    "object": "type({0}) is dict",
}
"""The same tests as Python source over a variable, for generated code (``.format(name)``)."""


def type_check(
    kinds: list[str], schema: Mapping[str, Any], description: str | None
) -> tuple[Callable[[Any], bool], Check]:
    """``type``: strict JSON types (``true`` is not ``1``, ``"10"`` is not ``10``); ``10.0`` is an integer.

    Returns the test and the check to run when it fails (which reports ``wrong_type``). An integral float
    passes the test for ``integer``; the cleaning to ``int`` happens in the number checks.
    """
    tests = tuple(_TYPE_TESTS[k] for k in kinds if k in _TYPE_TESTS)
    wanted = wanted_types(kinds)
    test = tests[0] if len(tests) == 1 else (lambda v: any(t(v) for t in tests))
    expected = once(lambda: describe(schema))

    def fail(value: Any, loc: Loc, run: Run) -> Any:
        run.error(loc, "wrong_type", f"{shown(value)} is not {wanted}", expected())
        return value

    return test, fail


def shown(value: Any) -> str:
    """A value as a ``wrong_type`` problem names it: its JSON type and its text (``string "10"``), or ``null``."""
    return "null" if value is None else f"{type_name(value)} {short(value)}"


def wanted_types(kinds: list[str]) -> str:
    """``["integer", "null"]`` -> ``an integer or null``: what a ``wrong_type`` problem asks for."""
    return " or ".join(_ARTICLES.get(k, k) for k in kinds)


def integral_float_check(kinds: Any) -> Check | None:
    """Clean ``10.0`` to ``10`` where the schema says integer (and not number): same JSON value, right type."""
    named = {kinds} if isinstance(kinds, str) else set(kinds) if isinstance(kinds, list) else set()
    if "integer" not in named or "number" in named:
        return None
    return lambda v, loc, run: int(v) if type(v) is float and v.is_integer() else v


# -- numbers -----------------------------------------------------------------------------------------
def range_expected(schema: Mapping[str, Any], description: str | None) -> str:
    """The ``expected`` words of an ``out_of_range`` error (the description's own, when it states the bounds)."""
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
    expected = once(lambda: range_expected(schema, description))

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
_EXACT_FLOAT = 2**53


def decimal_parts(value: int | float) -> tuple[int, int]:
    """``(a, e)`` with ``value == a / 10**e`` as JSON writes it: ``0.07`` -> ``(7, 2)``, ``1e20`` -> ``(10**20, 0)``."""
    if type(value) is int:
        return value, 0
    mantissa, _, exponent = repr(value).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = int(whole + fraction)
    shift = len(fraction) - (int(exponent) if exponent else 0)
    return (digits, shift) if shift >= 0 else (digits * 10**-shift, 0)


def is_multiple(value: float, step: float) -> bool:
    """``multipleOf``, exactly, on both numbers as JSON writes them (see the module docstring)."""
    if type(value) is int and type(step) is int:
        return value % step == 0
    if type(value) is float and type(step) is int and -_EXACT_FLOAT < value < _EXACT_FLOAT and value.is_integer():
        return int(value) % step == 0
    a, e = decimal_parts(value)
    p, q = _step_parts(step)
    return bool((a * q) % (10**e * p) == 0)


def _step_parts(step: int | float) -> tuple[int, int]:
    """``step == p / q`` in lowest terms, read as JSON writes the step."""
    digits, shift = decimal_parts(step)
    ratio = Fraction(digits, 10**shift)
    return ratio.numerator, ratio.denominator


def multiple_check(schema: Mapping[str, Any]) -> Check | None:
    step = schema.get("multipleOf")
    if not _is_number(step) or step <= 0:
        return None
    p, q = _step_parts(step)
    shown = number_text(step)
    int_step = p if q == 1 else None

    def check(value: Any, loc: Loc, run: Run) -> Any:
        kind = type(value)
        if kind is int and int_step is not None:
            if value % int_step == 0:
                return value
        elif kind is int or kind is float:
            a, e = decimal_parts(value)
            if (a * q) % (10**e * p) == 0:
                return value
        else:
            return value
        run.error(loc, "not_multiple", f"{short(value)} is not a multiple of {shown}", f"a multiple of {shown}")
        return value

    return check


def integer_format_check(name: str) -> Check | None:
    if name not in INTEGER_FORMATS:
        return None
    low, high = INTEGER_FORMATS[name]

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if type(value) is int and not low <= value <= high:
            run.error(loc, "out_of_range", f"out of range for {name}: {number_text(value)}", f"{name} integer")
        return value

    return check


# -- strings -----------------------------------------------------------------------------------------
def length_check(schema: Mapping[str, Any], description: str | None) -> Check | None:
    low, high = schema.get("minLength"), schema.get("maxLength")
    if low is None and high is None:
        return None
    low = low or 0
    high = high if high is not None else float("inf")

    expected = once(lambda: length_expected(schema, description))

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if type(value) is str and not low <= len(value) <= high:
            n = len(value)
            if n < low:
                run.error(loc, "too_short", "empty string" if n == 0 else f"too short: {n} characters", expected())
            else:
                run.error(loc, "too_long", f"too long: {n} characters", expected())
        return value

    return check


def length_expected(schema: Mapping[str, Any], description: str | None) -> str:
    """The ``expected`` words of a ``too_short``/``too_long`` error."""
    tokens = [str(b) for b in (schema.get("minLength"), schema.get("maxLength")) if b is not None and b != 0]
    found = clause(description, tokens, LENGTH_WORDS) if tokens else None
    return found or describe({k: v for k, v in schema.items() if k != "format"} | {"type": "string"})


Search = Callable[[str, Run], "bool | None"]
"""A pattern search within a run: True or False, or None when it ran out of time (``pattern_too_slow``)."""


def searcher(pattern: Pattern) -> Search:
    """``pattern.search`` within a run's time budget (see :data:`SEARCH_BUDGET`)."""
    search = pattern.search
    if pattern.linear:  # an RE2 twin answers long strings; the ECMA engine alone answers within a time limit

        def quick(text: str, run: Run) -> bool | None:
            try:
                return search(text)
            except PatternLimitError:
                return None

        return quick

    def timed(text: str, run: Run) -> bool | None:
        spent = run.spent
        if spent[0] >= SEARCH_BUDGET:
            return None
        start = time.perf_counter()
        try:
            return search(text)
        except PatternLimitError:
            return None
        finally:
            spent[0] += time.perf_counter() - start

    return timed


SLOW_EXPECTED = "a shorter value"


def slow_problem(pattern: str, text: str) -> str:
    return f"the pattern {json_text(pattern, 60)} could not be checked in time on {len(text):,} characters"


def pattern_check(schema: Mapping[str, Any], description: str | None) -> Check | None:
    pattern = schema.get("pattern")
    if not isinstance(pattern, str):
        return None
    search = searcher(compile_pattern(pattern))
    expected = once(lambda: clause(description, (), _PATTERN_WORDS) or f"string matching {pattern}")

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if type(value) is str:
            found = search(value, run)
            if found is None:
                run.error(loc, "pattern_too_slow", slow_problem(pattern, value), SLOW_EXPECTED)
            elif not found:
                run.error(loc, "pattern_mismatch", f"{short(value)} does not match the pattern {pattern}", expected())
        return value

    return check


def format_check(name: str, description: str | None) -> Check | None:
    test = FORMAT_CHECKS.get(name)
    if test is None:
        return None
    noun = name.replace("-", " ")
    expected = once(lambda: format_expected(name, description))

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if type(value) is str and not test(value):
            run.error(loc, "bad_format", f"{short(value)} is not a valid {noun}", expected())
        return value

    return check


def format_expected(name: str, description: str | None) -> str:
    """The ``expected`` words of a ``bad_format`` error."""
    return clause(description, (), FORMAT_WORDS.get(name, ())) or FORMAT_PHRASES[name]


# -- enum / const ------------------------------------------------------------------------------------
def enum_check(values: list[Any], description: str | None, insensitive: bool, const: bool = False) -> Check:
    """``enum``/``const`` with JSON equality; case-insensitive matching (with a notice) when the policy says so."""
    keys = {json_key(v) for v in values}
    strings = {v for v in values if isinstance(v, str)}
    folded: dict[str, str | None] = {}
    for v in strings:
        folded[v.casefold()] = None if v.casefold() in folded else v

    expected = once(lambda: enum_expected(values, description, const))

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


def enum_expected(values: list[Any], description: str | None, const: bool = False) -> str:
    """The ``expected`` words of a ``not_in_enum`` error."""
    if const:
        return const_phrase(values[0])
    strings = [v for v in values if isinstance(v, str)][:8]
    found = clause(description, strings, ()) if 1 < len(strings) == len(values) else None
    return found or clause(description, (), ("one of",)) or enum_phrase(values)


def declared_check(node: Check, texts: Mapping[str, Any]) -> Check:
    """Read back the strings the declaration shows for non-string ``enum``/``const`` members (``"2"`` → ``2``).

    ``texts`` maps each declared string to its member (see :func:`~toolkit._validation._expected.declared_texts`,
    which the compiler gathers through ``$ref``, ``allOf`` and union branches). A string value runs through
    ``node`` as it is first; only when that fails and the string is one the declaration offered is it read
    as the member, with a ``coerced_enum`` notice. Every other value (``"10"`` for a plain integer, ``"5"``
    for ``enum [1, 2]``) meets ``node`` unchanged, so the boundary stays strict.
    """

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if type(value) is not str or value not in texts:
            return node(value, loc, run)
        passed, cleaned = run.attempt(node, value, loc)
        if passed:
            return cleaned
        member = texts[value]
        coerced = run.probe()
        coerced.notice(loc, "coerced_enum", f"{short(value)} read as {short(member)}: the declaration sends "
                       "this value as a string", from_=value, to=member)  # fmt: skip
        cleaned = node(member, loc, coerced)
        run.absorb(coerced)
        return cleaned

    return check
