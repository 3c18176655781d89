"""Canonical JSON: stable bytes for golden files, and stable keys for idempotency.

Two canonical forms, for two jobs:

* :func:`pretty` — what golden files and generated resources hold: sorted keys, 2-space indent, UTF-8
  (no ``\\u`` escapes for non-ASCII), a trailing newline. Same input, same bytes, on every machine.
* :func:`compact` — what idempotency keys hash: sorted keys, no whitespace, numbers normalised
  (``1.0`` and ``1`` are the same number; ``Decimal("1.50")`` is ``1.5``).

And one key for the memos that share work between the operations of a document: :func:`json_text_key`, the JSON
text of a value as it is (keys in their order), which tells apart every two values that lower differently. Its
equality is the text's: ``1`` and ``1.0`` are two keys, because they lower to two declarations. The validator's
``json_key`` (``toolkit._validation._run``) is JSON Schema's equality instead (``enum``, ``const``,
``uniqueItems``: ``1`` is ``1.0``); ``tests/schema/test_json_text_key.py`` shows each caller needs its own.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

import orjson

__all__ = ["JSON_TYPES", "JSONValue", "compact", "json_copy", "json_text_key", "json_type", "pretty"]

JSON_TYPES = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})
"""The seven JSON Schema type names."""

JSONValue = Any  # dict[str, JSONValue] | list[JSONValue] | str | int | float | bool | None


def pretty(value: JSONValue) -> str:
    """Serialise ``value`` the way golden files and generated resources store it."""
    return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def _normalise_number(value: Any) -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float | Decimal):
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"non-finite number {value!r} has no canonical JSON form")
        as_decimal = Decimal(str(value)) if isinstance(value, float) else value
        if as_decimal == as_decimal.to_integral_value():
            return int(as_decimal)
        return float(as_decimal.normalize())
    if isinstance(value, dict):
        return {str(k): _normalise_number(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_normalise_number(v) for v in value]
    return value


def compact(value: JSONValue) -> str:
    """Serialise ``value`` for hashing: sorted keys, no whitespace, normalised numbers."""
    return json.dumps(
        _normalise_number(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def json_text_key(value: Any) -> bytes | None:
    """``value``'s JSON text, keys in their order, as a dictionary key (``None`` for what JSON cannot spell):
    equal for two values only when ``json.dumps`` writes them alike, so ``1`` and ``1.0``, ``true`` and ``1``,
    ``null`` and NaN stay apart. orjson writes it (about five times faster than ``json.dumps``); what orjson
    would write otherwise than ``json.dumps`` goes to the standard encoder: a NaN or an infinity (orjson writes
    ``null``, so any bare ``null`` sends the value there), an integer beyond 64 bits, a key that is not a
    string, a lone surrogate, a subclass of ``str``, ``int``, ``dict`` or ``list``, a dataclass or a date."""
    try:
        text = orjson.dumps(value, default=_not_json, option=_KEY_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError is one
        return _std_key(value)
    if b"null" in text and (b":null" in text or b",null" in text or b"[null" in text or text.startswith(b"null")):
        return _std_key(value)
    return text


_KEY_OPTIONS = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS


def _not_json(value: Any) -> Any:
    raise TypeError(type(value).__name__)


def _std_key(value: Any) -> bytes | None:
    try:
        return json.dumps(value, ensure_ascii=False, check_circular=False).encode("utf-8", "surrogatepass")
    except (TypeError, ValueError, RecursionError):
        return None


def json_copy(value: JSONValue) -> JSONValue:
    """A deep copy of a JSON-shaped value (dicts, lists, scalars); much cheaper than ``copy.deepcopy``."""
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    return value


def json_type(value: Any) -> str:
    """The JSON Schema type name of a JSON value (``null boolean integer number string array object``);
    for anything that is not JSON, the name of its Python type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__
