"""Rules for descriptions the schema contradicts (TK806–TK808, TK810): the words and the keywords both state a
constraint, and they state different ones.

The model reads the description; the validator enforces the schema. When the description says ``between 1 and
100`` and the schema says ``maximum: 50``, a model that asks for 80 is refused for doing what it was told (or,
the other way round, the validator lets through what the words rule out). Each rule names both sides and, as
its fix, both ways to make them agree: the keyword and value the words ask for, or the words the schema's
keywords say (``set maximum: 100 or change the description to 'between 1 and 50'``).

* A bound is compared only on a side both state (``at least 1`` says nothing about a ``maximum``); a side the
  schema leaves open is a missing promise (:mod:`._promises`). Integers compare as inclusive integers
  (``positive`` is ``minimum: 1``, as is ``exclusiveMinimum: 0``); a number whose bound differs only in
  being inclusive is a missing promise too (``greater than 0`` over ``minimum: 0``).
* A list of values is compared with the branch's ``enum`` (or its items' ``enum``) when they share a value
  (case aside): a listed value the enum lacks is an error; an enum value a complete list (``one of``) leaves
  out, and the description never mentions, is a warning.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from toolkit._lints._promises import Finding, bound_keyword, schema_bound, to_integer
from toolkit._lints._subject import Field, Subject, types
from toolkit._lints._words import Bound, Span

__all__ = ["count_contradicted", "enum_contradicted", "length_contradicted", "range_contradicted"]

_FIXED = ("enum", "const")
_ITEM_UNITS = frozenset({"", "item", "items", "element", "elements", "entry", "entries", "value", "values"})
"""Words that count an array's items whatever it holds; any other must be a word of the field's name
(``up to 20 tags`` for ``tags``): ``a maximum of 300,000 tokens`` says nothing about an array of strings."""
_SIZE_KEYS = {"string": ("minLength", "maxLength", " characters"), "array": ("minItems", "maxItems", " items")}


def range_contradicted(s: Subject) -> Iterator[Finding]:
    for f, span in s.promises("value"):
        for branch in s.branches(f):
            kinds = types(branch)
            if not kinds & {"integer", "number"} or any(k in branch for k in _FIXED):
                continue
            integer = "number" not in kinds
            sides = {side: schema_bound(branch, side, integer=integer) for side in ("low", "high")}
            differ = [side for side in ("low", "high") if _differs(span, sides[side], side, integer=integer)]
            if differ:
                said = [(bound_keyword(b, side), b.value) for side, b in ((d, _said(span, d, integer)) for d in differ)]
                yield _finding(f, span.quote, branch, differ, said, _phrase(sides["low"], sides["high"], ""))
            break


def length_contradicted(s: Subject) -> Iterator[Finding]:
    yield from _sized(s, "string", "length")


def count_contradicted(s: Subject) -> Iterator[Finding]:
    yield from _sized(s, "array", "count")


def _sized(s: Subject, kind: str, measure: str) -> Iterator[Finding]:
    low_key, high_key, unit = _SIZE_KEYS[kind]
    for f, span in s.promises(measure):
        if kind == "array" and not span.units <= _ITEM_UNITS | _name_words(f.name):
            continue
        for branch in s.branches(f):
            if kind not in types(branch) or any(k in branch for k in _FIXED):
                continue
            sides = {side: _size_bound(branch.get(key)) for side, key in (("low", low_key), ("high", high_key))}
            differ = [side for side in ("low", "high") if _differs(span, sides[side], side, integer=True)]
            if span.low is not None and to_integer(span.low, up=True) == 0 and sides["low"] is None:
                differ = [side for side in differ if side != "low"]
            if differ:
                keys = {"low": low_key, "high": high_key}
                said = [(keys[side], _said(span, side, True).value) for side in differ]
                yield _finding(f, span.quote, branch, differ, said, _phrase(sides["low"], sides["high"], unit), keys)
            break


def _name_words(name: str) -> frozenset[str]:
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower().replace("-", "_").split("_")
    return frozenset(words) | {word + "s" for word in words}


def _size_bound(value: Any) -> Bound | None:
    return Bound(value, False) if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _said(span: Span, side: str, integer: bool) -> Bound:
    """The words' bound on ``side`` as the schema would state it (an integer's as an inclusive integer)."""
    bound = span.low if side == "low" else span.high
    assert bound is not None
    if not integer:
        return bound
    value = to_integer(bound, up=side == "low")
    return Bound(value if value is not None else bound.value, False)


def _differs(span: Span, have: Bound | None, side: str, *, integer: bool) -> bool:
    bound = span.low if side == "low" else span.high
    if bound is None or have is None:
        return False
    if integer:
        want = to_integer(bound, up=side == "low")
        return want is not None and want != have.value
    if _whole(bound.value) and _whole(have.value) and (bound.exclusive or have.exclusive):
        return to_integer(bound, up=side == "low") != to_integer(have, up=side == "low")  # > 0 is >= 1
    return bound.value != have.value


def _whole(value: Any) -> bool:
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _phrase(low: Bound | None, high: Bound | None, unit: str) -> str:
    """The schema's interval in words (``between 1 and 50``, ``at most 10 characters``)."""
    if low is not None and high is not None and not (low.exclusive or high.exclusive):
        return f"between {_show(low.value)} and {_show(high.value)}{unit}"
    parts = []
    if low is not None:
        parts.append(f"{'greater than' if low.exclusive else 'at least'} {_show(low.value)}")
    if high is not None:
        parts.append(f"{'less than' if high.exclusive else 'at most'} {_show(high.value)}")
    return " and ".join(parts) + unit


def _finding(
    field: Field,
    quote: str,
    branch: Mapping[str, Any],
    differ: list[str],
    said: list[tuple[str, Any]],
    phrase: str,
    keys: Mapping[str, str] | None = None,
) -> Finding:
    sides = {"low": ("minimum", "exclusiveMinimum"), "high": ("maximum", "exclusiveMaximum")}
    names = [k for side in differ for k in ((keys[side],) if keys else sides[side]) if k in branch]
    schema = ", ".join(f"{key}: {_show(branch[key])}" for key in names)
    wanted = ", ".join(f"{key}: {_show(value)}" for key, value in said)
    return (
        field.path,
        f"the description of {field.path!r} says {quote!r} but the schema says {schema}: the model follows the "
        "words and the validator enforces the keywords",
        f"set {wanted} or change the description to {phrase!r}",
    )


def _show(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def enum_contradicted(s: Subject) -> Iterator[Finding]:
    for f, listed in s.promises("listed"):
        for branch in s.branches(f):
            allowed = _enum_of(s, branch)
            if allowed is None:
                continue
            folded = {value.lower() for value in allowed}
            if not any(value.lower() in folded for value in listed.values):
                break  # no value in common: the words list something else
            refused = [value for value in listed.values if value not in allowed]
            unsaid = [v for v in allowed if v not in listed.values and not _mentioned(f.description, v)]
            if refused and all(value.lower() in folded for value in refused):
                spelt = [next(v for v in allowed if v.lower() == value.lower()) for value in refused]
                yield (
                    f.path,
                    f"the description of {f.path!r} lists {listed.quote!r} but the schema's enum spells them "
                    f"{', '.join(map(repr, spelt))}: a model that sends what it reads is refused unless enum case "
                    "is insensitive",
                    f"write {', '.join(map(repr, spelt))} in the description, as enum has them, or set "
                    "Policy(enum_case='insensitive')",
                    "error",
                )
            elif refused:
                yield (
                    f.path,
                    f"the description of {f.path!r} lists {listed.quote!r} but the schema's enum refuses "
                    f"{', '.join(map(repr, refused))}: a model that sends what it reads is refused",
                    f"set enum: {list(dict.fromkeys([*allowed, *refused]))!r} or change the description to list "
                    f"{', '.join(map(repr, allowed))}",
                    "error",
                )
            elif listed.complete and unsaid:
                yield (
                    f.path,
                    f"the description of {f.path!r} lists {listed.quote!r} as the values, but the schema's enum also "
                    f"accepts {', '.join(map(repr, unsaid))}",
                    f"list {', '.join(map(repr, unsaid))} in the description too, or set enum: {list(listed.values)!r}",
                    "warning",
                )
            break


def _enum_of(s: Subject, branch: Mapping[str, Any]) -> list[str] | None:
    """The branch's enum (an array's items' enum) as text, or ``None`` when it has none of strings or numbers."""
    enum = branch.get("enum")
    if enum is None and "array" in types(branch):
        items = s.resolve(branch.get("items"))
        enum = items.get("enum") if isinstance(items, Mapping) else None
    if not isinstance(enum, list):
        return None
    raw = [v for v in enum if isinstance(v, (str, int, float)) and not isinstance(v, bool)]
    values = [v if isinstance(v, str) else _show(v) for v in raw]
    return values or None


def _mentioned(text: str, value: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", text) is not None
