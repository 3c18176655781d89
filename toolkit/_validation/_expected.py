"""The words of an error: where it is (a field path) and what we want instead (the ``expected`` phrase).

``expected`` restates the constraint **in the parameter description's own words** when the description
states it ("How many orders to return, between 1 and 100." gives ``"between 1 and 100"``), so a model that
reads the error is told the same thing twice rather than something new. Otherwise a phrase is generated
from the schema ("integer between 1 and 100", "one of: open, closed", "date as YYYY-MM-DD").

Field paths read like code: ``items[2].qty``; a key that is not a plain name is quoted (``meta["a.b"]``);
the root (bad JSON, not an object) is ``""``.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from toolkit._canonical import json_type
from toolkit._lowering.gemini import enum_text
from toolkit._regex import lazy
from toolkit._schema import admitted
from toolkit._validation._formats import FORMAT_PHRASES

__all__ = [
    "clause",
    "const_phrase",
    "declared_texts",
    "describe",
    "enum_phrase",
    "format_path",
    "int_text",
    "json_text",
    "number_text",
    "once",
    "range_phrase",
    "type_name",
]

Loc = tuple[Any, str | int] | None
"""A data location as a linked list ``(parent, key)``; built cheaply, formatted only when reporting."""

_PLAIN_KEY = lazy(r"^[A-Za-z_$][A-Za-z0-9_$-]*$")


def once(make: Callable[[], str]) -> Callable[[], str]:
    """A phrase built on first use and remembered: errors are rare, but a model may repeat one many times."""
    memo: list[str] = []

    def get() -> str:
        if not memo:
            memo.append(make())
        return memo[0]

    return get


@functools.lru_cache(maxsize=4096)
def format_path(loc: Loc) -> str:
    """``(((None, "items"), 2), "qty")`` → ``"items[2].qty"`` (memoised: the same fields recur call after call)."""
    parts: list[str | int] = []
    while loc is not None:
        loc, key = loc
        parts.append(key)
    out = ""
    for key in reversed(parts):
        if isinstance(key, int):
            out += f"[{key}]"
        elif _PLAIN_KEY.match(key):
            out += f".{key}" if out else key
        else:
            out += f"[{json.dumps(key, ensure_ascii=False)}]"
    return out


_EXACT_NAMES = {str: "string", int: "integer", float: "number", bool: "boolean", list: "array", dict: "object"}
_EXACT_NAMES[type(None)] = "null"


def type_name(value: Any) -> str:
    """The JSON type of a value, as the model would name it (see :func:`toolkit._canonical.json_type`, which
    answers for every value; the exact JSON types are looked up first, as they are what arguments hold)."""
    return _EXACT_NAMES.get(type(value)) or json_type(value)


_LOG10_2 = 0.30102999566398120
_LONG_INT_BITS = 4000
"""Integers longer than this many bits (about 1,200 digits) are described, not written out."""


def int_text(value: int) -> str:
    """An integer's digits, or for a huge one (past Python's 4,300-digit ``str()`` limit too) its size."""
    if -(2**_LONG_INT_BITS) < value < 2**_LONG_INT_BITS:
        return str(value)
    digits = int(abs(value).bit_length() * _LOG10_2) + 1
    return f"{'-' if value < 0 else ''}an integer of about {digits:,} digits"


def number_text(value: Any) -> str:
    """``1.0`` → ``"1"``, ``0.5`` → ``"0.5"``: numbers as a person writes them."""
    if type(value) is int:
        return int_text(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return str(value)


def _outline(value: Any) -> str:
    kind = type(value)
    if kind is int:
        return int_text(value)
    if kind is list:
        return f"[... {len(value)} items]"
    if kind is dict:
        return f"{{... {len(value)} fields}}"
    return f"a Python {kind.__name__}"


_STRING_TEXT: Callable[[str], str] = json.encoder.encode_basestring  # what json.dumps writes for a str
_SMALL_INT = 2**64


def json_text(value: Any, width: int) -> str:
    """``value`` as compact JSON cut to ``width`` characters; an outline where JSON cannot write it. Never raises."""
    kind = type(value)
    if kind is str:  # the common cases, written as json.dumps writes them, without its encoder set-up
        text = _STRING_TEXT(value)
        return text if len(text) <= width else text[: width - 3] + "..."
    if kind is int and -_SMALL_INT < value < _SMALL_INT:
        text = int.__repr__(value)
        return text if len(text) <= width else text[: width - 3] + "..."
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError, RecursionError):  # huge ints, keys that are not strings, cycles, NaN, objects
        try:
            text = _outline(value)
        except Exception:  # a hostile __len__: its type is all a problem text needs
            text = f"a Python {type(value).__name__}"
    return text if len(text) <= width else text[: width - 3] + "..."


def range_phrase(schema: Mapping[str, Any], noun: str) -> str:
    """``{"minimum": 1, "maximum": 100}``, "integer" → ``"integer between 1 and 100"``."""
    low, high = schema.get("minimum"), schema.get("maximum")
    xlow, xhigh = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    parts: list[str] = []
    if low is not None and high is not None:
        parts.append(f"between {number_text(low)} and {number_text(high)}")
    else:
        if low is not None:
            parts.append(f"of at least {number_text(low)}")
        if high is not None:
            parts.append(f"of at most {number_text(high)}")
    if xlow is not None:
        parts.append(f"greater than {number_text(xlow)}")
    if xhigh is not None:
        parts.append(f"less than {number_text(xhigh)}")
    if "multipleOf" in schema:
        parts.append(f"a multiple of {number_text(schema['multipleOf'])}")
    return " ".join([noun, " and ".join(parts)]).strip()


def _length_phrase(low: Any, high: Any, unit: str) -> str:
    if low is not None and high is not None:
        return f"{low} to {high} {unit}" if low != high else f"exactly {low} {unit}"
    if low is not None:
        return f"at least {low} {unit}"
    return f"at most {high} {unit}" if high is not None else ""


def _string_phrase(schema: Mapping[str, Any]) -> str:
    if "format" in schema and schema["format"] in FORMAT_PHRASES:
        return FORMAT_PHRASES[schema["format"]]
    low, high = schema.get("minLength"), schema.get("maxLength")
    if low == 1 and high is None:
        text = "non-empty string"
    else:
        length = _length_phrase(low, high, "characters")
        text = f"string of {length}" if length else "string"
    if "pattern" in schema:
        text += f" matching {schema['pattern']}"
    return text


def _array_phrase(schema: Mapping[str, Any]) -> str:
    items = schema.get("items")
    text = f"array of {describe(items)}" if isinstance(items, Mapping) and items else "array"
    length = _length_phrase(schema.get("minItems"), schema.get("maxItems"), "items")
    return f"{text} with {length}" if length else text


def _object_phrase(schema: Mapping[str, Any]) -> str:
    properties = schema.get("properties")
    if isinstance(properties, Mapping) and properties:
        return "object with fields " + ", ".join(str(k) for k in list(properties)[:8])
    return "object"


def _one_type_phrase(kind: str, schema: Mapping[str, Any]) -> str:
    if kind in ("integer", "number"):
        return range_phrase(schema, kind)
    if kind == "string":
        return _string_phrase(schema)
    if kind == "array":
        return _array_phrase(schema)
    if kind == "object":
        return _object_phrase(schema)
    return {"boolean": "true or false", "null": "null"}.get(kind, kind)


def declared_texts(values: Sequence[Any]) -> dict[str, Any]:
    """The strings the lowered declaration shows for the non-string members, mapped back to the members.

    The Gemini subset carries ``enum`` only as strings, so ``[1, 2]`` is declared as ``["1", "2"]`` (by
    :func:`toolkit._lowering.gemini.enum_text`). ``null`` is declared as ``nullable``, not as text; a text
    that is itself a string member stays that member.
    """
    strings = {v for v in values if isinstance(v, str)}
    out: dict[str, Any] = {}
    for value in values:
        if value is not None and not isinstance(value, str):
            text = enum_text(value)
            if text not in strings:
                out.setdefault(text, value)
    return out


def _member_text(value: Any) -> str:
    """A member as the phrase shows it: a string bare, unless it reads as another JSON value (``"3"``, ``"null"``:
    then quoted, so the phrase never offers the number 3 for the string "3"); anything else as JSON."""
    if isinstance(value, str):
        try:
            read = json.loads(value)
        except ValueError:
            return value
        if isinstance(read, str):
            return value
    return json_text(value, 60)


def enum_phrase(values: Sequence[Any]) -> str:
    """``one of: open, closed``; non-string members add the strings the declaration shows for them."""
    if not values:
        return "nothing: the schema lists no allowed values"
    shown = ", ".join(_member_text(v) for v in values[:20])
    phrase = f"one of: {shown}" + (", ..." if len(values) > 20 else "")
    texts = list(declared_texts(values[:20]))
    if texts:
        quoted = ", ".join(json.dumps(t, ensure_ascii=False) for t in texts[:8]) + (", ..." if len(texts) > 8 else "")
        phrase += f" (or the string{'s' if len(texts) > 1 else ''} {quoted})"
    return phrase


def const_phrase(value: Any) -> str:
    """``exactly 1 (or the string "1")``: the const, and the string the declaration shows for it."""
    texts = list(declared_texts([value]))
    shown = json_text(value, 60)
    return f"exactly {shown}" + (f" (or the string {json.dumps(texts[0], ensure_ascii=False)})" if texts else "")


def describe(schema: Any, depth: int = 0) -> str:
    """A short generated phrase for what a schema accepts ("integer between 1 and 100")."""
    if not isinstance(schema, Mapping) or depth > 3:
        return "any value"
    if "enum" in schema and isinstance(schema["enum"], list):
        return enum_phrase(admitted(schema, schema["enum"]))  # a member the type rejects is not offered
    if "const" in schema:
        return const_phrase(schema["const"]) if admitted(schema, [schema["const"]]) else enum_phrase([])
    branches = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(branches, list) and branches:
        return " or ".join(dict.fromkeys(describe(b, depth + 1) for b in branches))
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(_one_type_phrase(k, schema) for k in kind)
    if isinstance(kind, str):
        return _one_type_phrase(kind, schema)
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1] or "value"
    return "any value"


# -- the description's own words --------------------------------------------------------------------
_SEGMENTS = lazy(r"[()\[\]]|(?<!\d)\.(?!\d)|\.(?=\s|$)|[;!?\n]")
_CLAUSES = lazy(r",\s+|\s+-\s+|:\s+")


def _has_token(text: str, token: str) -> bool:
    return re.search(r"(?<![\w.])" + re.escape(token) + r"(?![\w]|\.\d)", text, re.IGNORECASE) is not None


def _fits(text: str, tokens: Iterable[str], any_of: Sequence[str]) -> bool:
    if not all(_has_token(text, t) for t in tokens):
        return False
    lowered = text.lower()
    return not any_of or any(word.lower() in lowered for word in any_of)


def clause(description: str | None, tokens: Sequence[str] = (), any_of: Sequence[str] = ()) -> str | None:
    """The shortest piece of ``description`` naming every token and one of the ``any_of`` words (memoised)."""
    if not description or (not tokens and not any_of):
        return None
    return _clause(description, tuple(tokens), tuple(any_of))


@functools.lru_cache(maxsize=4096)
def _clause(description: str, tokens: tuple[str, ...], any_of: tuple[str, ...]) -> str | None:
    """The shortest piece of ``description`` naming every token and one of the ``any_of`` words.

    The description is cut into sentences and parentheticals, then into comma clauses; the comma clause is
    preferred ("between 1 and 100"), unless it would be a bare token, when its sentence is used
    ("ISO 8601, YYYY-MM-DD").
    """
    for segment in _SEGMENTS.split(description):
        segment = segment.strip(" ,")
        if not segment or not _fits(segment, tokens, any_of):
            continue
        for part in _CLAUSES.split(segment):
            part = part.strip(" ,")
            if part and _fits(part, tokens, any_of):
                bare = part.lower() in {t.lower() for t in (*tokens, *any_of)}
                return segment if bare and len(segment) <= 80 else part
        return segment if len(segment) <= 120 else None
    return None
