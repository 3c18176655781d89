"""Rules for descriptions that promise what the schema does not enforce (TK801–TK805).

A description saying ``at most 80 characters`` over a schema without ``maxLength`` is read by the model
but not by the validator: the bad value goes through to the function or the API, which fails later and
less clearly. Each rule reads the promise with :func:`toolkit._lints._words.read` and compares it with
the field's branches of the matching type; it stays quiet when the schema already enforces the promise
(a bound at least as tight, or any ``format``/``pattern``/``enum``/``const`` for a shape), and otherwise
names the keywords to add as its fix (``add to the schema: minimum: 1, maximum: 100``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from toolkit._contract import Severity
from toolkit._lints._shapes import Promise
from toolkit._lints._subject import Field, Subject, types
from toolkit._lints._words import Bound, Span

__all__ = [
    "Finding",
    "count_unenforced",
    "format_unenforced",
    "length_unenforced",
    "pattern_unenforced",
    "promised_format",
    "promised_prefix",
    "range_unenforced",
]

Finding = tuple[str, str, str] | tuple[str, str, str, Severity]
_FIXED = ("enum", "const")
_SHAPED = ("format", "pattern", "enum", "const")


def length_unenforced(s: Subject) -> Iterator[Finding]:
    yield from _sized(s, "string", lambda f: f.reading.length, "minLength", "maxLength")


def count_unenforced(s: Subject) -> Iterator[Finding]:
    yield from _sized(s, "array", lambda f: f.reading.count, "minItems", "maxItems")


def range_unenforced(s: Subject) -> Iterator[Finding]:
    for f in s.promising:
        span = f.reading.value
        if span is None:
            continue
        for branch in s.branches(f):
            kinds = types(branch)
            if not kinds & {"integer", "number"} or any(k in branch for k in _FIXED):
                continue
            integer = "number" not in kinds
            missing = _missing_value(span, branch, integer=integer)
            if missing:
                yield _finding(f, span.quote, missing, branch)
            break


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
def _sized(
    s: Subject, kind: str, span_of: Callable[[Field], Span | None], low_key: str, high_key: str
) -> Iterator[Finding]:
    for f in s.promising:
        span = span_of(f)
        if span is None:
            continue
        for branch in s.branches(f):
            if kind not in types(branch) or any(k in branch for k in _FIXED):
                continue
            missing = []
            low, high = _inclusive(span.low, up=True), _inclusive(span.high, up=False)
            if low is not None and low > 0 and not _at_least(branch.get(low_key), low):
                missing.append((low_key, low))
            if high is not None and not _at_most(branch.get(high_key), high):
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
    """The bound keywords ``branch`` lacks to enforce ``span`` (integers get exact inclusive bounds)."""
    missing: list[tuple[str, Any]] = []
    for bound, side in ((span.low, "low"), (span.high, "high")):
        if bound is None:
            continue
        have = _schema_bound(branch, side, integer=integer)
        if integer:
            want = _inclusive(bound, up=side == "low")
            if want is None or (have is not None and (have.value >= want if side == "low" else have.value <= want)):
                continue
            missing.append(("minimum" if side == "low" else "maximum", want))
        elif have is None or not _tighter(have, bound, side):
            key = ("exclusiveMinimum" if side == "low" else "exclusiveMaximum") if bound.exclusive else None
            missing.append((key or ("minimum" if side == "low" else "maximum"), bound.value))
    return missing


def _schema_bound(branch: Mapping[str, Any], side: str, *, integer: bool) -> Bound | None:
    """The tightest bound ``branch`` itself sets on one side (for an integer, as an inclusive bound)."""
    inclusive, exclusive = ("minimum", "exclusiveMinimum") if side == "low" else ("maximum", "exclusiveMaximum")
    found = [Bound(branch[k], k == exclusive) for k in (inclusive, exclusive) if _is_number(branch.get(k))]
    if integer:
        found = [Bound(b, False) for b in (_inclusive(b, up=side == "low") for b in found) if b is not None]
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


def _inclusive(bound: Bound | None, *, up: bool) -> int | None:
    """The integer inclusive bound equal to ``bound`` (a lower bound rounds up, an upper one down)."""
    if bound is None or not math.isfinite(bound.value):
        return None
    if up:
        return math.floor(bound.value) + 1 if bound.exclusive else math.ceil(bound.value)
    return math.ceil(bound.value) - 1 if bound.exclusive else math.floor(bound.value)


def _at_least(value: Any, want: int) -> bool:
    return _is_number(value) and value >= want


def _at_most(value: Any, want: int) -> bool:
    return _is_number(value) and value <= want


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
