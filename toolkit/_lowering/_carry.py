"""The JSON Schema dialects' shared first step: a JSON copy of the schema, and a map over its subschemas.

:func:`carry` copies the schema as JSON. Nothing is rewritten: ``$ref``, ``$defs``, ``oneOf`` and every
other keyword pass through. The only losses are values JSON cannot carry: non-string object keys (turned into
strings), non-finite numbers and values that are not JSON at all (dropped). Tuples become lists without a
loss. References travel as they are, so they must be readable: they are checked by
:func:`toolkit._schema.check_references`, with the same slugs as the other dialects and the validator.

:func:`map_subschemas` rebuilds one node with each of its subschemas passed through a function, at every position
:mod:`toolkit._schema` says a schema holds one, so every dialect walks the same positions. A schema handed to
:func:`~toolkit.lower` may be written in draft-07, so its spellings are mapped too (``additionalItems``, a
tuple ``items: [...]``, ``dependencies``): a dialect that drops them still drops a mapped copy.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from toolkit._contract import Loss
from toolkit._exceptions import SchemaError
from toolkit._schema import (
    LEGACY_DEPENDENCIES,
    LEGACY_ITEMS,
    LEGACY_ONE,
    SCHEMA_LIST,
    SCHEMA_MAP,
    SCHEMA_ONE,
    Refs,
    check_references,
    escape,
    unescape,
)

__all__ = ["IN_LIST", "IN_MAP", "ONE", "carry", "map_subschemas"]

_MISSING = object()
MAX_NESTING = 500

ONE = frozenset((*SCHEMA_ONE, *LEGACY_ONE))
"""Keywords whose value is one subschema, draft-07's included (``items`` may also be a draft-07 list)."""
IN_LIST = frozenset(SCHEMA_LIST)
"""Keywords whose value is a list of subschemas."""
IN_MAP = frozenset(SCHEMA_MAP)
"""Keywords whose value maps names to subschemas."""


def carry(schema: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[Loss, ...]]:
    """A JSON copy of ``schema`` and the losses for whatever JSON cannot hold."""
    if not isinstance(schema, Mapping):
        raise SchemaError(f"a schema must be a JSON object, got {type(schema).__name__}", slug="bad_schema")
    check_references(schema, Refs(schema))  # the references travel as they are: they must be readable
    losses: list[Loss] = []
    result = _copy(schema, "", losses, 0)
    return result, tuple(losses)


Visit = Callable[[Any, str], Any]


def map_subschemas(node: Mapping[str, Any], path: str, visit: Visit) -> dict[str, Any]:
    """A copy of ``node`` whose subschemas are ``visit(subschema, pointer)``; other values are kept as they are."""
    out: dict[str, Any] = {}
    for key, value in node.items():
        where = f"{path}/{escape(key)}"
        if key in IN_MAP and isinstance(value, Mapping):
            out[key] = {name: visit(sub, f"{where}/{escape(name)}") for name, sub in value.items()}
        elif (key in IN_LIST or key == LEGACY_ITEMS) and isinstance(value, list):
            out[key] = [visit(sub, f"{where}/{index}") for index, sub in enumerate(value)]
        elif key in ONE and isinstance(value, Mapping | bool):
            out[key] = visit(value, where)
        elif key == LEGACY_DEPENDENCIES and isinstance(value, Mapping):  # a schema or a list of names
            out[key] = {
                name: visit(sub, f"{where}/{escape(name)}") if isinstance(sub, Mapping) else sub
                for name, sub in value.items()
            }
        else:
            out[key] = value
    return out


def _copy(value: Any, path: str, losses: list[Loss], depth: int) -> Any:
    if depth > MAX_NESTING:
        raise SchemaError(f"the schema nests deeper than {MAX_NESTING} levels at {path}", slug="schema_too_deep")
    if value is None or isinstance(value, str | bool | int):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        losses.append(Loss(path, _keyword(path), value, "JSON has no non-finite numbers"))
        return _MISSING
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = key if isinstance(key, str) else str(key)
            if name is not key:
                losses.append(Loss(path, name, key, "JSON object keys are strings: the key was stringified"))
            copied = _copy(item, f"{path}/{escape(name)}", losses, depth + 1)
            if copied is not _MISSING:
                out[name] = copied
        return out
    if isinstance(value, list | tuple):
        items = [_copy(item, f"{path}/{index}", losses, depth + 1) for index, item in enumerate(value)]
        return [item for item in items if item is not _MISSING]
    losses.append(Loss(path, _keyword(path), repr(value), f"a {type(value).__name__} is not a JSON value"))
    return _MISSING


def _keyword(path: str) -> str:
    return unescape(path.rsplit("/", 1)[-1])
