"""Type inference: which JSON types a schema node accepts, and the one type to make or show a value of it as.

One reading of ``type`` plus OpenAPI 3.0's ``nullable`` (which adds ``null``), with ``enum``, ``const`` and the
combinators: :func:`schema_types` gives the set of types a value may have, :func:`main_type` the one type to
make an example value or a form control of, :func:`named_types` the names a node's own ``type`` gives (in order).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolkit._canonical import JSON_TYPES, json_type
from toolkit._schema._keywords import IN_PLACE_LIST
from toolkit._schema._pointers import Resolve

__all__ = ["TypeSet", "declared_types", "main_type", "named_types", "schema_types"]

TypeSet = frozenset[str] | None
"""The JSON types a schema accepts; ``None`` means it does not constrain the type."""

_NAMED = {name: frozenset({name, "integer"} if name == "number" else {name}) for name in JSON_TYPES}
_NARROWING = frozenset({"enum", "const", "$ref", *IN_PLACE_LIST})
"""Keywords besides ``type`` that :func:`schema_types` reads."""


def named_types(schema: Mapping[str, Any]) -> list[str] | None:
    """The types a node's own ``type`` names, in its order, ``nullable: true`` adding ``null`` (OpenAPI 3.0's
    spelling, which the declaration carries as nullable); ``None`` when it names none. The validator's one
    reading of "type plus nullable": its type check and its fast tier both read it."""
    kinds = schema.get("type")
    if not isinstance(kinds, str | list):
        return None
    named = [kinds] if isinstance(kinds, str) else list(kinds)
    if schema.get("nullable") is True and "null" not in named:
        named.append("null")
    return named


def declared_types(node: Mapping[str, Any]) -> TypeSet:
    """The JSON types a node's own ``type`` and ``nullable`` admit (``number`` covering ``integer``; OpenAPI
    3.0's ``nullable: true`` adding ``null``, honoured as the declaration honours it), or ``None`` when it has no
    ``type``: :func:`schema_types` without ``enum``, ``const`` or subschemas."""
    kinds = node.get("type")
    if kinds.__class__ is str and node.get("nullable") is not True:  # the common case, looked up
        return _NAMED.get(kinds) or frozenset({kinds})
    if not isinstance(kinds, str | list):
        return None
    named = {kinds} if isinstance(kinds, str) else {k for k in kinds if isinstance(k, str)}
    if node.get("nullable") is True:
        named.add("null")
    return frozenset(named | ({"integer"} if "number" in named else set()))


def _of_value(value: Any) -> str:
    kind = json_type(value)
    return kind if kind in JSON_TYPES else "other"


def schema_types(node: Any, resolve: Resolve | None = None, *, deep: bool = True, depth: int = 0) -> TypeSet:
    """The JSON types a value may have under ``node``, or ``None`` when ``node`` does not constrain the type.

    Reads ``type`` (a name or a list; ``number`` includes ``integer``; OpenAPI's ``nullable: true`` adds
    ``null``), ``enum`` and ``const`` (the types of their values), and, meeting them, ``allOf`` members, the
    union of ``anyOf`` / ``oneOf`` branches and, given ``resolve``, the ``$ref`` target. ``true`` and ``{}``
    give ``None``; ``false`` gives the empty set (nothing is accepted). With ``deep=False``, only the node's
    own keywords count (``type``, ``nullable``, ``enum``, ``const``): what the node itself declares.
    """
    if (node.__class__ is not dict and not isinstance(node, Mapping)) or depth > 16:
        return frozenset() if node is False else None
    found = declared_types(node)
    if _NARROWING.isdisjoint(node):
        return found
    for key in ("enum", "const"):
        if key in node:
            values = node[key] if key == "enum" and isinstance(node[key], list) else [node[key]]
            found = _meet(found, frozenset(_of_value(v) for v in values))
    if not deep:
        return found
    if resolve is not None and "$ref" in node:
        found = _meet(found, schema_types(resolve(node["$ref"]), resolve, depth=depth + 1))
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list) and branches:
            found = _meet(found, _join([schema_types(b, resolve, depth=depth + 1) for b in branches]))
    for sub in node.get("allOf") or ():
        found = _meet(found, schema_types(sub, resolve, depth=depth + 1))
    return found


def main_type(
    node: Any,
    resolve: Resolve | None = None,
    *,
    default: str | None = None,
    branches: bool = True,
    sole: bool = False,
    depth: int = 0,
) -> str | None:
    """The one JSON type to make or show a value of ``node`` as (an example value, a form control).

    The first of: the declared ``type`` (of a list, the first name that is not ``null``; ``null`` when it is
    all); the type of ``const``, or of the first ``enum`` member that is not null; the shape (``properties``
    or ``required``: ``object``; ``items`` or ``prefixItems``: ``array``); given ``resolve``, the ``$ref``
    target's main type; with ``branches``, the first ``anyOf`` / ``oneOf`` branch whose main type is not
    ``null``; else ``default``. Without ``branches``, a union is left to its branches (``default``): a caller
    reading the node's own keywords (``maxLength``, ``minimum``) must not take one branch's type for them.

    With ``sole``, only a type the node is sure of: the one type :func:`schema_types` leaves besides ``null``
    (``number`` covering ``integer``), or ``null`` when that is all it accepts; ``default`` when it accepts
    several types or does not constrain the type. That is the question "which value is surely of the wrong
    type here?" needs answered.
    """
    if sole:
        return _sole(schema_types(node, resolve), default)
    if not isinstance(node, Mapping) or depth > 16:
        return default
    kinds = node.get("type")
    if isinstance(kinds, str):
        return kinds
    if isinstance(kinds, list) and kinds:
        names = [k for k in kinds if isinstance(k, str)]
        return next((k for k in names if k != "null"), "null" if names else default)
    if "const" in node:
        return _of_value(node["const"])
    members = node.get("enum")
    if isinstance(members, list) and members:
        return next((_of_value(v) for v in members if v is not None), "null")
    if "properties" in node or "required" in node:
        return "object"
    if "items" in node or "prefixItems" in node:
        return "array"
    if resolve is not None and "$ref" in node:
        return main_type(resolve(node["$ref"]), resolve, default=default, branches=branches, depth=depth + 1)
    for key in ("anyOf", "oneOf") if branches else ():
        for branch in node.get(key) or ():
            found = main_type(branch, resolve, depth=depth + 1)
            if found is not None and found != "null":
                return found
    return default


def _sole(types: TypeSet, default: str | None) -> str | None:
    if not types:
        return default
    named = types - {"null"}
    if "number" in named:
        named -= {"integer"}
    if len(named) == 1:
        return next(iter(named))
    return "null" if not named else default


def _meet(a: TypeSet, b: TypeSet) -> TypeSet:
    if a is None:
        return b
    if b is None:
        return a
    return a & b


def _join(sets: Sequence[TypeSet]) -> TypeSet:
    if any(s is None for s in sets):
        return None
    return frozenset().union(*[s for s in sets if s is not None])
