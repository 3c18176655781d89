"""Rules for descriptions that promise what the schema does not enforce (TK801–TK805, TK809).

A description saying ``at most 80 characters`` over a schema without ``maxLength`` is read by the model
but not by the validator: the bad value goes through to the function or the API, which fails later and
less clearly. Each rule reads the promise with :func:`toolkit._lints._words.read` and compares it with
the field's branches of the matching type; it stays quiet when the schema already enforces the promise
(a bound at least as tight, or any ``format``/``pattern``/``enum``/``const`` for a shape), and otherwise
names the keywords to add as its fix (``add to the schema: minimum: 1, maximum: 100``). A bound the schema
sets to another value is a contradiction, not a missing promise: :mod:`._contradictions` reports it.

A number sent as a decimal string (a Python ``Decimal``, ``format: decimal``) is held to a promised sign or
number of decimal places by a pattern, or by the bounds a Python ``Decimal`` checks on conversion
(:mod:`._decimals`); a promised number of decimal places on a number is held by ``multipleOf``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from toolkit._contract import Severity
from toolkit._lints._decimals import is_decimal_string, pattern_for, python_bounds, refuses
from toolkit._lints._shapes import Promise
from toolkit._lints._subject import Field, Subject, types
from toolkit._lints._words import Bound, Span

__all__ = [
    "Finding",
    "bound_keyword",
    "count_unenforced",
    "format_unenforced",
    "length_unenforced",
    "pattern_unenforced",
    "precision_unenforced",
    "promised_format",
    "promised_prefix",
    "range_unenforced",
    "schema_bound",
    "to_integer",
]

Finding = tuple[str, str, str] | tuple[str, str, str, Severity]
_FIXED = ("enum", "const")
_SHAPED = ("format", "pattern", "enum", "const")
_SHAPED_STRING = ("format", "pattern", "minLength", "maxLength")


def length_unenforced(s: Subject) -> Iterator[Finding]:
    yield from _sized(s, "string", "length", "minLength", "maxLength")


def count_unenforced(s: Subject) -> Iterator[Finding]:
    yield from _sized(s, "array", "count", "minItems", "maxItems")


def range_unenforced(s: Subject) -> Iterator[Finding]:
    for f, span in s.promises("value"):
        for branch, kind in _numeric_branches(s, f):
            if kind == "decimal":
                if _missing_decimal(s, f, span, branch):
                    yield _decimal_finding(s, f, span.quote, branch)
                    break
                continue
            missing = _missing_value(span, branch, integer=kind == "integer")
            if missing:
                yield _finding(f, span.quote, missing, branch)
                break


def precision_unenforced(s: Subject) -> Iterator[Finding]:
    for f, places in s.promises("places"):
        for branch, kind in _numeric_branches(s, f):
            if kind == "number" and not _divides(branch.get("multipleOf"), places.step):
                yield _finding(f, places.quote, [("multipleOf", places.step)], branch)
                break
            if kind == "decimal":
                held = s.converted.get(f.name, frozenset()) & {"decimalPlaces", "multipleOf"}
                if not held and not refuses(branch, ["1." + "1" * (places.digits + 1)]):
                    yield _decimal_finding(s, f, places.quote, branch)
                    break


def _numeric_branches(s: Subject, field: Field) -> Iterator[tuple[Mapping[str, Any], str]]:
    """The field's branches that carry its number, each with its kind: ``integer``, ``number`` or ``decimal`` (a
    decimal string; beside a ``number`` branch, as pydantic writes a ``Decimal``, any plain string is one)."""
    branches = [b for b in s.branches(field) if not any(k in b for k in _FIXED)]
    beside_number = any("number" in types(b) for b in branches)
    for branch in branches:
        kinds = types(branch)
        if kinds & {"integer", "number"}:
            yield branch, "number" if "number" in kinds else "integer"
        elif "string" in kinds and (
            is_decimal_string(branch) or (beside_number and not any(k in branch for k in _SHAPED_STRING))
        ):
            yield branch, "decimal"


def promised_format(branch: Mapping[str, Any], field: Field) -> Promise | None:
    """The date or time format ``field``'s description promises for a string ``branch`` silent on its shape."""
    if field.reading.format is None or "string" not in types(branch) or any(k in branch for k in _SHAPED):
        return None
    return field.reading.format


def promised_prefix(branch: Mapping[str, Any], field: Field) -> Promise | None:
    """The identifier shape ``field``'s description promises for a string ``branch`` silent on its shape."""
    if field.reading.prefix is None or "string" not in types(branch) or any(k in branch for k in _SHAPED):
        return None
    return field.reading.prefix


def format_unenforced(s: Subject) -> Iterator[Finding]:
    yield from _shaped(s, promised_format)


def pattern_unenforced(s: Subject) -> Iterator[Finding]:
    yield from _shaped(s, promised_prefix)


# -- comparing a promise with a branch ------------------------------------------------------------------------
def _sized(s: Subject, kind: str, measure: str, low_key: str, high_key: str) -> Iterator[Finding]:
    for f, span in s.promises(measure):
        for branch in s.branches(f):
            if kind not in types(branch) or any(k in branch for k in _FIXED):
                continue
            missing = []
            low, high = to_integer(span.low, up=True), to_integer(span.high, up=False)
            if low is not None and low > 0 and not _is_number(branch.get(low_key)):
                missing.append((low_key, low))
            if high is not None and not _is_number(branch.get(high_key)):
                missing.append((high_key, high))
            if missing:
                yield _finding(f, span.quote, missing, branch)
            break


def _shaped(s: Subject, promised: Callable[[Mapping[str, Any], Field], Promise | None]) -> Iterator[Finding]:
    for f in s.promising:
        if f.reading.format is None and f.reading.prefix is None:
            continue  # nothing promised: skip reading the branches
        for branch in s.branches(f):
            promise = promised(branch, f)
            if promise is not None:
                yield _finding(f, promise.quote, [(promise.keyword, promise.value)], branch)
                break


def _missing_value(span: Span, branch: Mapping[str, Any], *, integer: bool) -> list[tuple[str, Any]]:
    """The bound keywords ``branch`` lacks to enforce ``span`` (integers get exact inclusive bounds); a side the
    schema bounds at another value is left to :func:`~toolkit._lints._contradictions.range_contradicted`."""
    missing: list[tuple[str, Any]] = []
    for bound, side in ((span.low, "low"), (span.high, "high")):
        if bound is None:
            continue
        have = schema_bound(branch, side, integer=integer)
        if integer:
            want = to_integer(bound, up=side == "low")
            if want is None or have is not None:
                continue
            missing.append(("minimum" if side == "low" else "maximum", want))
        elif have is None or (have.value == bound.value and not _tighter(have, bound, side)):
            missing.append((bound_keyword(bound, side), bound.value))
    return missing


def bound_keyword(bound: Bound, side: str) -> str:
    """The keyword that states ``bound`` on its side (``exclusiveMinimum`` for ``greater than 0``)."""
    if side == "low":
        return "exclusiveMinimum" if bound.exclusive else "minimum"
    return "exclusiveMaximum" if bound.exclusive else "maximum"


def _missing_decimal(s: Subject, field: Field, span: Span, branch: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The bounds a decimal string lacks: neither checked on conversion nor refused by its own pattern."""
    converted = s.converted.get(field.name, frozenset())
    missing: list[tuple[str, Any]] = []
    for bound, side in ((span.low, "low"), (span.high, "high")):
        if bound is None or converted & {bound_keyword(Bound(0, flag), side) for flag in (False, True)}:
            continue
        step = -1 if side == "low" else 1
        outside = [_plain(bound.value + step)] + ([_plain(bound.value)] if bound.exclusive else [])
        if not refuses(branch, outside):
            missing.append((bound_keyword(bound, side), _number(bound.value)))
    return missing


def _decimal_finding(s: Subject, field: Field, quote: str, branch: Mapping[str, Any]) -> Finding:
    """A promise a decimal string does not keep, with the pattern that keeps every promise it lacks (a sign and
    decimal places; the same pattern for both rules) or, for other bounds, where they can be enforced."""
    span, places = field.reading.value, field.reading.places
    missing = _missing_decimal(s, field, span, branch) if span is not None else []
    held = s.converted.get(field.name, frozenset()) & {"decimalPlaces", "multipleOf"}
    digits = places.digits if places is not None and not held else None
    keys = dict(missing)
    positive = None if not keys else "exclusiveMinimum" in keys
    python = python_bounds([*missing, *([("decimalPlaces", digits)] if digits is not None else [])])
    signed = len(keys) == 1 and keys.get("exclusiveMinimum", keys.get("minimum")) == 0
    pattern = pattern_for(positive=positive, places=digits) if signed or not keys else None
    if pattern is not None:
        fix = (
            f"add to the schema: pattern: {pattern} (for a Python Decimal parameter: Field({python}), checked "
            "when the argument is converted)"
        )
    else:
        constraint = ", ".join(f"{key}: {value}" for key, value in missing)
        fix = (
            f"bound it where the decimal string is converted (a Python Decimal parameter: Field({python})), or "
            f"take a number with {constraint}: a string schema cannot hold a range"
        )
    return (
        field.path,
        f"the description of {field.path!r} promises {quote!r} but the decimal string is not held to it: the "
        "validator lets through values the description rules out",
        fix,
    )


def _divides(step: Any, promised: float) -> bool:
    """Whether ``multipleOf: step`` holds a value to ``promised`` (``0.05`` holds two decimal places)."""
    if not _is_number(step) or step <= 0:
        return False
    ratio = float(step) / promised
    return abs(ratio - round(ratio)) < 1e-9 and round(ratio) >= 1


def _plain(value: float) -> str:
    """A number as a plain decimal string (``-1``, ``0.5``), as a model would send it."""
    return str(_number(value))


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def schema_bound(branch: Mapping[str, Any], side: str, *, integer: bool) -> Bound | None:
    """The tightest bound ``branch`` itself sets on one side (for an integer, as an inclusive bound)."""
    inclusive, exclusive = ("minimum", "exclusiveMinimum") if side == "low" else ("maximum", "exclusiveMaximum")
    found = [Bound(branch[k], k == exclusive) for k in (inclusive, exclusive) if _is_number(branch.get(k))]
    if integer:
        found = [Bound(b, False) for b in (to_integer(b, up=side == "low") for b in found) if b is not None]
    best: Bound | None = None
    for bound in found:
        if best is None or _tighter(bound, best, side):
            best = bound
    return best


def _tighter(a: Bound, b: Bound, side: str) -> bool:
    """Whether bound ``a`` is at least as tight as ``b`` on its side."""
    if a.value == b.value:
        return a.exclusive or not b.exclusive
    return a.value > b.value if side == "low" else a.value < b.value


def to_integer(bound: Bound | None, *, up: bool) -> int | None:
    """The integer inclusive bound equal to ``bound`` (a lower bound rounds up, an upper one down)."""
    if bound is None or not math.isfinite(bound.value):
        return None
    if up:
        return math.floor(bound.value) + 1 if bound.exclusive else math.ceil(bound.value)
    return math.ceil(bound.value) - 1 if bound.exclusive else math.floor(bound.value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _finding(field: Field, quote: str, missing: list[tuple[str, Any]], branch: Mapping[str, Any]) -> Finding:
    constraint = ", ".join(f"{key}: {value}" for key, value in missing)
    clash = [f"{key}: {branch[key]}" for key, _ in missing if key in branch]
    says = f" (the schema says {', '.join(clash)})" if clash else ""
    return (
        field.path,
        f"the description of {field.path!r} promises {quote!r} but the schema does not enforce it{says}: the "
        "validator lets through values the description rules out",
        f"add to the schema: {constraint}",
    )
