"""The rules that read a tool's name, descriptions and types (TK101–TK601): one small function per trap.

Each rule takes the :class:`~toolkit._lints._subject.Subject` and yields ``(path, message, fix)`` findings
(``(path, message, fix, severity)`` when its severity depends on how bad the finding is); the catalogue in
:mod:`toolkit._lints` gives each one its code, slug and severity.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from toolkit._contract import TOOL_NAME, Severity
from toolkit._lints._promises import Finding, promised_format
from toolkit._lints._subject import MAX_NESTING, Subject, containers, types
from toolkit._lints._words import money_word
from toolkit._lowering._size import tokens
from toolkit._regex import lazy

__all__ = [
    "HUGE_DECLARATION",
    "LARGE_DECLARATION",
    "MAX_PARAMETERS",
    "bad_tool_name",
    "declaration_over_budget",
    "declaration_too_large",
    "deep_nesting",
    "enum_case",
    "missing_parameter_description",
    "missing_tool_description",
    "too_many_parameters",
    "untyped_map",
    "untyped_value",
    "vague_parameter_description",
]

MAX_PARAMETERS = 8
LARGE_DECLARATION = 8 * 1024
"""Bytes of canonical JSON above which a declaration is a warning (~2k tokens, sent with every request)."""
HUGE_DECLARATION = 64 * 1024
"""Bytes above which it is an error: the declaration alone eats a large share of the model's context."""
_DATE_NAME = lazy(r"^(date|since|until|deadline|timestamp)$|_(at|on|date|time|since|until|deadline)$", re.I)
_MONEY_NAME = lazy(r"^(amount|price|cost|total|fee|balance)$|_(amount|price|cost|total|fee|balance)$", re.I)
_TEMPORAL_FORMATS = frozenset({"date", "date-time", "time", "duration"})
_FILLER = frozenset({"the", "a", "an", "of", "for", "to", "this", "its"})


def missing_tool_description(s: Subject) -> Iterator[Finding]:
    if not s.description.strip():
        yield "", f"tool {s.name!r} has no description", "write when to call it and what it returns"


def missing_parameter_description(s: Subject) -> Iterator[Finding]:
    for f in s.fields:
        if not str(f.schema.get("description") or "").strip():
            yield f.path, f"{f.path!r} has no description", _DESCRIBE_FIX


def vague_parameter_description(s: Subject) -> Iterator[Finding]:
    for f in s.fields:
        text = str(f.schema.get("description") or "").strip()
        if not text:
            continue
        verdict = _vague(text, f.name)
        if verdict == "short":
            yield f.path, f"description of {f.path!r} is too short to guide the model: {text!r}", _DESCRIBE_FIX
        elif verdict == "name":
            yield f.path, f"description of {f.path!r} only repeats its name: {text!r}", _DESCRIBE_FIX


_DESCRIBE_FIX = "say what to put in the slot: format, unit, allowed range, where the value comes from"
_WORD = lazy(r"[A-Za-z0-9]+")
_CAMEL_STEP = lazy(r"(?<=[a-z0-9])(?=[A-Z])")


def _vague(text: str, name: str) -> str | None:
    """``"short"`` for a description of fewer than 3 words, ``"name"`` for one whose words other than filler are
    the name's words, else ``None``; reads the words only as far as it takes to know (a long description is
    neither once it has 3 words and more meaningful words than the name has)."""
    expected = _name_words(name)
    most = len(expected)
    words = 0
    meaningful: list[str] = []
    # an ASCII text's words are the lowercase text's words, lowercased; elsewhere lowercasing can make letters
    # (the Kelvin sign is a k), so the whole text is lowercased first
    for match in _WORD.finditer(text if text.isascii() else text.lower()):
        words += 1
        word = match.group().lower()
        if word not in _FILLER:
            meaningful.append(word)
            if words >= 3 and len(meaningful) > most:
                return None
    if words < 3:
        return "short"
    return "name" if meaningful == expected else None


@functools.lru_cache(maxsize=4096)
def _name_words(name: str) -> list[str]:
    """A name's words, lowercased (shared between calls: never change the list)."""
    return _CAMEL_STEP.sub("_", name).lower().replace("-", "_").strip("_").split("_")


def untyped_value(s: Subject) -> Iterator[Finding]:
    for f in s.fields:
        items = [s.resolve(b["items"]) for b in f.branches if "items" in b and isinstance(b["items"], Mapping)]
        if any(_is_untyped(b) for b in [*f.branches, *items]):
            yield (
                f.path,
                f"{f.path!r} accepts any JSON value (Any/object): the model can send anything and nothing is checked",
                "give it a concrete type; if the payload varies, split the tool or use a union of typed shapes",
            )


def _is_untyped(schema: Any) -> bool:
    if not (
        schema.__class__ is dict or (schema is not None and isinstance(schema, Mapping))
    ):  # a boolean branch: true accepts anything, false nothing
        return schema is True
    return schema.keys().isdisjoint(_SHAPE_KEYS)


_SHAPE_KEYS = frozenset({"type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const", "properties", "items"})


def untyped_map(s: Subject) -> Iterator[Finding]:
    for f in s.fields:
        for b in f.branches:
            if "object" in types(b) and not b.get("properties") and _free_values(s, b.get("additionalProperties")):
                yield (
                    f.path,
                    f"{f.path!r} is an untyped map (dict[str, Any]): an unvalidatable bag of keys",
                    "declare the keys as a model/TypedDict, or type the values (dict[str, int])",
                )
                break


def _free_values(s: Subject, additional: Any) -> bool:
    if additional is None or additional is True:
        return True
    resolved = s.resolve(additional)
    return isinstance(resolved, Mapping) and _is_untyped(resolved)


def enum_case(s: Subject) -> Iterator[Finding]:
    for f in s.fields:
        for b in f.branches:
            values = [v for v in b.get("enum") or () if isinstance(v, str) and _LETTER.search(v)]
            styles = {_case_style(v) for v in values}
            if "other" in styles or {"snake", "camel"} <= styles:
                yield (
                    f.path,
                    f"enum values of {f.path!r} mix cases or use SCREAMING_SNAKE/PascalCase: {values!r}; "
                    "models emit lowercase or camelCase and strict validation rejects the mismatch",
                    "advertise the values in one lowercase (snake_case) or camelCase style, "
                    "or set Policy(enum_case='insensitive')",
                )
                break


_LETTER = lazy(r"[A-Za-z]")
_SEPARATOR = lazy(r"[_\- ]")
_CAMEL_CASE = lazy(r"[a-z][a-z0-9]*([A-Z][a-z0-9]*)+")


def _case_style(value: str) -> str:
    if value == value.lower():
        return "snake" if _SEPARATOR.search(value) else "lower"
    if _CAMEL_CASE.fullmatch(value):
        return "camel"
    return "other"


def date_as_string(s: Subject) -> Iterator[Finding]:
    for f in s.fields:
        if not _DATE_NAME.search(f.name):
            continue
        plain = [b for b in f.branches if "string" in types(b) and b.get("format") not in _TEMPORAL_FORMATS]
        if plain and not any(promised_format(b, f) for b in plain):  # that rule names the format
            yield (
                f.path,
                f"{f.path!r} looks like a date or time but is a plain string: expect 'next Tuesday' and '08/07'",
                "type it date/datetime (format date or date-time) and say how relative dates are meant",
            )


def money_as_float(s: Subject) -> Iterator[Finding]:
    for f in s.fields:
        if not _may_be_number(f.schema):
            continue
        by_name = _MONEY_NAME.search(f.name) is not None
        word = None if by_name else money_word(f.name, f.description)
        if not by_name and word is None:
            continue
        kinds = set().union(*(types(b) for b in s.branches(f)))
        if "number" in kinds and "string" not in kinds:
            why = "looks like money" if by_name else f"is money (its description says {word!r})"
            yield (
                f.path,
                f"{f.path!r} {why} but is a float: 19.99 becomes 19.990000000000002",
                "take a Decimal (sent as a decimal string) or integer minor units, and say which in the description",
            )


def _may_be_number(schema: Mapping[str, Any]) -> bool:
    """False only when the node plainly declares another type (a cheap test before reading its words)."""
    kind = schema.get("type")
    if not isinstance(kind, str) or kind == "number":
        return True
    return any(key in schema for key in ("anyOf", "oneOf", "allOf", "$ref"))


def deep_nesting(s: Subject) -> Iterator[Finding]:
    for f in s.fields:
        if f.depth == MAX_NESTING + 1 and any(True for _ in containers(s.refs, f.schema)):
            yield (
                f.path,
                f"{f.path!r} is an object nested {f.depth} levels deep (limit {MAX_NESTING}); models lose track "
                "of deep slots",
                "flatten the arguments into top-level scalar parameters or split the tool",
            )


def too_many_parameters(s: Subject) -> Iterator[Finding]:
    count = sum(1 for f in s.fields if f.depth == 1)
    if count > MAX_PARAMETERS:
        yield (
            "",
            f"tool {s.name!r} has {count} parameters (more than {MAX_PARAMETERS}); long lists make models misfill",
            "split the tool by purpose or give the rarely used parameters documented defaults in a second tool",
        )


def declaration_too_large(s: Subject) -> Iterator[Finding]:
    size = s.declaration_bytes
    if size is None or size <= LARGE_DECLARATION or s.over_budget is not None:  # TK504 says more
        return
    severity: Severity = "error" if size > HUGE_DECLARATION else "warning"
    limit = HUGE_DECLARATION if severity == "error" else LARGE_DECLARATION
    yield (
        "",
        f"the declaration of {s.name!r} is {size / 1024:.1f} KiB of JSON (~{size // 4:,} tokens, over "
        f"{limit // 1024} KiB), sent with every request: it crowds the model's context and slows every call",
        "narrow the operation with overrides (fewer parameters, a smaller request body, shallower references) "
        "or split it into tools that each do one thing",
        severity,
    )


def declaration_over_budget(s: Subject) -> Iterator[Finding]:
    size, budget = s.declaration_bytes, s.over_budget
    if size is None or budget is None:
        return
    own = len(json.dumps(s.description, ensure_ascii=False).encode())
    arguments = sum(1 for f in s.fields if f.depth == 1)
    yield (
        "",
        f"the declaration of {s.name!r} is {size:,} bytes (~{tokens(size):,} tokens), over the default budget of "
        f"{budget:,} bytes even with every reduction, so none was taken and it is sent whole, with every request "
        f"(its own description is {own:,} bytes, never reduced; it has {arguments} top-level arguments)",
        "shorten the tool's description, leave rarely used arguments out, or split the tool; or accept the size "
        "by setting a budget "
        f"(budget={-(-size // 1024) * 1024} when building, Policy(declaration_budget=...) for this tool, or "
        "policy: {declaration_budget: ...} in the OpenAPI overrides): a set budget refuses what it cannot fit",
    )


def bad_tool_name(s: Subject) -> Iterator[Finding]:
    if not TOOL_NAME.fullmatch(s.name):
        yield (
            "",
            f"tool name {s.name!r} breaks the declaration rule [A-Za-z_][A-Za-z0-9_.:-]{{0,127}}",
            "rename it with letters, digits, '_', '.', ':' and '-', starting with a letter or '_', ≤ 128 characters",
        )
