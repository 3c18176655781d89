"""Can the validator enforce this schema? Checked once, when the tool is built, and cheaply.

:func:`check_enforceable` walks every schema node the validator can reach from the root (through the
keywords that hold schemas and through ``$ref`` / ``$dynamicRef``, each node once) and raises
:class:`~toolkit.SchemaError` for what it could not enforce, so a tool is refused when it is built rather
than failing (or, worse, accepting) on a call:

* ``bad_pattern`` -- a ``pattern`` or ``patternProperties`` key that is not an ECMA-262 regular expression
  (:func:`~toolkit._validation._pattern.compile_pattern` reads it);
* ``bad_keyword`` -- a keyword whose value 2020-12 does not allow (``minLength: "3"``, ``multipleOf: 0``,
  ``required: "a"``, ``items: [...]``, a ``NaN`` bound, an ``enum`` or ``const`` that is not JSON). A
  ``default`` that JSON cannot hold (``float("inf")`` from a Python signature) is not refused: it is an
  annotation, and the validator does not fill it in (the function's own default applies);
* ``unsupported_keyword`` -- a keyword of an older draft that 2020-12 replaced and that would otherwise be
  silently ignored (``dependencies``, ``additionalItems``, ``$recursiveRef``, ``$recursiveAnchor``);
* ``unsatisfiable_schema`` -- a node no value can satisfy (``type`` against every ``enum`` member, contradictory
  bounds, a required property whose schema is ``false``: :func:`toolkit._schema.contradiction`), except under
  ``not``/``if``/``then``/``else``, where such a node is a condition;
* the reference slugs of :mod:`toolkit._schema` (``unresolved_ref``, ``remote_ref``, ``left_recursive_ref`` ...).

The compile itself stays lazy (large API schemas compile only as far as the data reaches), so this walk does
no compiling: patterns are compiled once each (and cached for the validator), everything else is a type test.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from toolkit._canonical import JSON_TYPES
from toolkit._exceptions import SchemaError
from toolkit._schema import (
    ANNOTATION_SCHEMAS,
    LEGACY_DEFINITIONS,
    NOT_APPLIED,
    REPLACED,
    SCHEMA_LIST,
    SCHEMA_MAP,
    SCHEMA_ONE,
    Refs,
    check_references,
    conditional,
    contradiction,
    subschemas,
)
from toolkit._validation._pattern import compile_pattern

__all__ = ["check_enforceable", "json_value"]

_COUNTS: tuple[str, ...] = (
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "minContains",
)
_COUNTS += ("maxContains",)
_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
_SCHEMAS = tuple(key for key in SCHEMA_ONE if key not in ANNOTATION_SCHEMAS)
"""Keywords whose value must be one schema (an annotation's schema, never applied, is not checked)."""
_MAPS = tuple(key for key in SCHEMA_MAP if key != LEGACY_DEFINITIONS)
"""Keywords whose value must map names to schemas (``definitions`` is not a 2020-12 keyword: its value is the
author's own, and a reference into it reads a schema like any other)."""
_LISTS = SCHEMA_LIST
_VALUES = ("enum", "const", "default")
_MAX_VALUE_DEPTH = 256
_UNREAD = NOT_APPLIED
"""Keywords holding schemas the validator reads only through a reference (or never: an annotation)."""


def _bad(at: str, keyword: str, problem: str) -> SchemaError:
    return SchemaError(f"{keyword} at {at or 'the root'} {problem}", slug="bad_keyword")


def _is_count(value: Any) -> bool:
    return (type(value) is int and value >= 0) or (type(value) is float and value.is_integer() and value >= 0)


def _is_number(value: Any) -> bool:
    return type(value) is int or (type(value) is float and math.isfinite(value))


def _is_schema(value: Any) -> bool:
    return value.__class__ is dict or type(value) is bool or isinstance(value, Mapping)


def json_value(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is JSON data (no NaN, no cycles, string keys), nested at most 256 deep."""
    if depth > _MAX_VALUE_DEPTH:
        return False
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return True
    if kind is float:
        return math.isfinite(value)
    if kind is list:
        return all(json_value(item, depth + 1) for item in value)
    if kind is dict:
        return all(type(k) is str and json_value(v, depth + 1) for k, v in value.items())
    return False


def _check_types(kinds: Any, at: str) -> None:
    named = [kinds] if isinstance(kinds, str) else kinds
    if not isinstance(named, list) or not named or not all(isinstance(k, str) and k in JSON_TYPES for k in named):
        raise _bad(at, "type", f"is {kinds!r}; use one of {', '.join(sorted(JSON_TYPES))}, or a list of them")


_Rule = Callable[[Any], bool]
_RULES: dict[str, tuple[_Rule, str]] = {
    **dict.fromkeys(_COUNTS, (_is_count, "use a non-negative integer")),
    **dict.fromkeys(_BOUNDS, (_is_number, "use a finite number")),
    "multipleOf": (lambda v: _is_number(v) and v > 0, "use a number greater than 0"),
    "uniqueItems": (lambda v: type(v) is bool, "use true or false"),
    "nullable": (lambda v: type(v) is bool, "use true or false"),
    "format": (lambda v: isinstance(v, str), "use a format name (a string)"),
    "pattern": (lambda v: isinstance(v, str), "use an ECMA-262 regular expression (a string)"),
    "required": (lambda v: isinstance(v, list) and all(isinstance(n, str) for n in v), "use a list of names"),
    "enum": (lambda v: isinstance(v, list) and json_value(v), "use a list of JSON values"),
    "const": (json_value, "use a JSON value"),
    "$ref": (lambda v: isinstance(v, str), "use a reference string like '#/$defs/Name'"),
    "$dynamicRef": (lambda v: isinstance(v, str), "use a reference string like '#name'"),
    "dependentRequired": (
        lambda v: (
            isinstance(v, Mapping)
            and all(isinstance(n, list) and all(isinstance(x, str) for x in n) for n in v.values())
        ),
        "use a map from a property name to a list of names",
    ),
    **dict.fromkeys(_SCHEMAS, (_is_schema, "use a schema (an object or a boolean)")),
    **{
        key: (lambda v: isinstance(v, Mapping) and all(map(_is_schema, v.values())), "use a map of schemas")
        for key in _MAPS
    },
    **{
        key: (lambda v: isinstance(v, list) and bool(v) and all(map(_is_schema, v)), "use a non-empty list of schemas")
        for key in _LISTS
    },
}


def _check_node(node: Mapping[str, Any], at: str) -> None:
    for keyword, value in node.items():
        if keyword in REPLACED:
            raise SchemaError(f"{keyword} at {at or 'the root'} is not a JSON Schema 2020-12 keyword, so it would be "
                              f"ignored: {REPLACED[keyword]}", slug="unsupported_keyword")  # fmt: skip
        rule = _RULES.get(keyword)
        if rule is not None and not rule[0](value):
            raise _bad(at, keyword, f"is {_shown(value)}; {rule[1]}")
    if "type" in node:
        _check_types(node["type"], at)
    if isinstance(node.get("pattern"), str):
        compile_pattern(node["pattern"])
    for pattern in node.get("patternProperties") or ():
        compile_pattern(pattern)


def _check_satisfiable(node: Mapping[str, Any], at: str) -> None:
    reason = contradiction(node)
    if reason is not None and not conditional(at):
        raise SchemaError(f"no value can satisfy the schema at {at or 'the root'}: {reason}; correct the schema",
                          slug="unsatisfiable_schema")  # fmt: skip


def _shown(value: Any) -> str:
    text = repr(value) if type(value) in (str, int, float, bool) or value is None else f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


def _reachable(root: Mapping[str, Any], refs: Refs, done: set[int]) -> Iterator[tuple[Mapping[str, Any], str]]:
    """Every schema node the validator can reach from the root, once each, with its pointer (not those in
    ``done``, nor what is under them)."""
    todo: list[tuple[Any, str]] = [(root, "")]
    seen: set[int] = set()
    while todo:
        node, at = todo.pop()
        if (node.__class__ is not dict and not isinstance(node, Mapping)) or id(node) in seen or id(node) in done:
            continue
        seen.add(id(node))
        yield node, at
        todo.extend(subschemas(node, at, _UNREAD))
        for keyword in ("$ref", "$dynamicRef"):
            if isinstance(node.get(keyword), str):
                found = refs.locate(node[keyword], at)
                todo.append((found[1], found[0]))


def check_enforceable(schema: Mapping[str, Any], *, references: bool = True, done: set[int] | None = None) -> None:
    """Raise :class:`~toolkit.SchemaError` for anything in ``schema`` the validator could not enforce.

    ``references=False`` skips reading every reference first (lowering has just done it, with the same
    reader); ``done`` holds the ids of nodes already found enforceable in the same document, so definitions
    shared by many tools are checked once (the nodes of a schema that passes are added to it).
    """
    if not isinstance(schema, Mapping):
        raise SchemaError(f"a tool's arguments schema must be a JSON object, got {type(schema).__name__}",
                          slug="bad_schema")  # fmt: skip
    refs = Refs(schema)
    if references:
        check_references(schema, refs)
    checked: list[int] = []
    for node, at in _reachable(schema, refs, done if done is not None else set()):
        _check_node(node, at)
        _check_satisfiable(node, at)
        checked.append(id(node))
    if done is not None:
        done.update(checked)
