"""The keyword catalogue the walker dispatches on, and small value checks.

Every keyword of :data:`toolkit._schema.VOCABULARY` (and the subset's own ``propertyOrdering``) is in
:data:`KEYWORDS` with the walker method that handles it (``kw_<name>``). The keywords the subset carries or
rewrites are listed here; ``silent`` keywords never constrain a value and have no place in a declaration, so
they are consumed without a loss; every other keyword of the vocabulary is ``unsupported``: dropped with a
loss whose reason comes from :data:`REASONS`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from toolkit._canonical import JSON_TYPES
from toolkit._canonical import json_type as canonical_json_type
from toolkit._exceptions import SchemaError
from toolkit._schema import DEFINITIONS, VOCABULARY

__all__ = [
    "KEYWORDS",
    "LATE",
    "REASONS",
    "SILENT_KEYWORDS",
    "TYPES",
    "bad",
    "count",
    "integer_bound",
    "json_type",
    "number",
]

_HANDLED: dict[str, str] = {
    # carried
    "type": "type",
    "nullable": "nullable",
    "enum": "enum",
    "const": "const",
    "description": "description",
    "default": "default",
    "format": "format",
    "pattern": "pattern",
    "minimum": "bound",
    "maximum": "bound",
    "minLength": "count",
    "maxLength": "count",
    "minItems": "count",
    "maxItems": "count",
    "minProperties": "count",
    "maxProperties": "count",
    "properties": "properties",
    "required": "required",
    "items": "items",
    "propertyOrdering": "property_ordering",
    "readOnly": "read_only",
    # rewritten
    "exclusiveMinimum": "exclusive_bound",
    "exclusiveMaximum": "exclusive_bound",
    "prefixItems": "prefix_items",
    "$ref": "ref",
    "allOf": "all_of",
    "anyOf": "any_of",
    "oneOf": "one_of",
    # consumed without a loss (no constraint, no place in a declaration)
    "title": "silent",
    "$schema": "silent",
    "$id": "silent",
    "$anchor": "silent",
    "$dynamicAnchor": "silent",
    "$vocabulary": "silent",
    **dict.fromkeys(DEFINITIONS, "silent"),  # read only through the $ref that inlines them
}
KEYWORDS: dict[str, str] = {
    **_HANDLED,
    # dropped with a loss: the rest of the vocabulary, in a fixed order
    **dict.fromkeys(sorted(VOCABULARY - _HANDLED.keys()), "unsupported"),
}
SILENT_KEYWORDS = frozenset(key for key, method in KEYWORDS.items() if method == "silent")
LATE = ("const", "$ref", "allOf", "anyOf", "oneOf")  # read after a node's own keywords: own words win
TYPES = {
    "string": "STRING",
    "number": "NUMBER",
    "integer": "INTEGER",
    "boolean": "BOOLEAN",
    "array": "ARRAY",
    "object": "OBJECT",
    "null": "NULL",
}
REASONS = {
    "additionalProperties": "the subset cannot say which extra keys an object accepts",
    "multipleOf": "the subset has no step constraint",
    "uniqueItems": "the subset cannot ask for distinct items",
    "examples": "examples are not sent; put a representative value in the description",
    "example": "examples are not sent; put a representative value in the description",
    "oneOf": "sent as anyOf: the model is not told that exactly one branch may match",
    "discriminator": "the subset has no discriminator; branches are offered as a plain anyOf",
    "deprecated": "the model is not told the field is deprecated",
    "writeOnly": "annotation without a place in the subset",
    "$comment": "comments are not sent",
}
REASONS["unevaluatedProperties"] = REASONS["additionalProperties"]  # the closure Tool.args_schema writes, read alike


def bad(path: str, keyword: str, message: str) -> SchemaError:
    where = path or "the root"
    return SchemaError(f"{keyword} at {where} {message}", slug="bad_keyword")


def json_type(value: Any) -> str:
    """The subset's type for a JSON value (``2`` → ``INTEGER``); anything that is not JSON travels as STRING."""
    name = canonical_json_type(value)
    return name.upper() if name in JSON_TYPES else "STRING"


def number(value: Any, path: str, keyword: str) -> float | int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise bad(path, keyword, f"is {value!r}; use a finite number")
    return value


EXACT_INTEGERS = 2**53
"""Bounds beyond this are not rewritten: the declaration's numbers travel as doubles, which stop being exact."""


def integer_bound(schema: Mapping[str, Any], inclusive: str, path: str) -> int | None:
    """The exact inclusive bound an integer node's own ``minimum``/``exclusiveMinimum`` (or maximum) pair sets.

    ``{type: integer, exclusiveMinimum: 0}`` is exactly ``minimum: 1``; with both keywords the tighter one
    wins. ``None`` when the node is not an integer node, has no numeric exclusive bound on that side, or the
    bound is too large to travel exactly.
    """
    exclusive = "exclusiveMinimum" if inclusive == "minimum" else "exclusiveMaximum"
    raw = schema.get(exclusive)
    if raw is None or isinstance(raw, bool) or not _integer_only(schema.get("type")):
        return None
    lower = inclusive == "minimum"
    value = number(raw, path, exclusive)
    bound = math.floor(value) + 1 if lower else math.ceil(value) - 1
    if inclusive in schema:
        plain = number(schema[inclusive], path, inclusive)
        rounded = math.ceil(plain) if lower else math.floor(plain)
        bound = max(bound, rounded) if lower else min(bound, rounded)
    return bound if abs(bound) <= EXACT_INTEGERS else None


def _integer_only(kind: Any) -> bool:
    """Whether a ``type`` value admits integers and no other numbers (``"integer"``, ``["integer", "null"]``)."""
    names = [kind] if isinstance(kind, str) else kind if isinstance(kind, list) else []
    return "integer" in names and "number" not in names


def count(value: Any, path: str, keyword: str) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise bad(path, keyword, f"is {value!r}; use a non-negative integer")
    return value
