"""Left recursion: a reference cycle that never reads into the value, refused with ``left_recursive_ref``.

:func:`check_references` reads every reference reachable from a schema (with the reader's slugs) and walks the
keywords that apply a subschema to the same value (:data:`~toolkit._schema._keywords.REFERENCES`,
``IN_PLACE_*``) apart from those that apply one to a part of it (``PARTS_*``): a cycle through the first kind
alone applies the schema to the very value it is checking, so it has no meaning (2020-12 calls it invalid).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkit._exceptions import SchemaError
from toolkit._schema._keywords import IN_PLACE_LIST, IN_PLACE_MAP, PARTS_LIST, PARTS_MAP, PARTS_ONE, REFERENCES
from toolkit._schema._pointers import LEFT_RECURSIVE_REF, Refs, Resolve
from toolkit._schema._walk import Edge

__all__ = ["check_references"]


def _edges(schema: Mapping[str, Any], at: str, resolve: Resolve) -> tuple[list[Edge], list[Edge]]:
    """The subschemas of ``schema`` applied to the same value, and those applied to a part of it."""
    same: list[Edge] = []
    for keyword in REFERENCES:
        if keyword in schema:
            ref = schema[keyword]
            target = resolve.lookup(ref, at[1:]) if isinstance(resolve, Refs) else resolve(ref)
            same.append((target, ref if isinstance(ref, str) else repr(ref)))
    for key in IN_PLACE_LIST:
        branches = schema.get(key)
        if isinstance(branches, list):
            same.extend((sub, f"{at}/{key}/{i}") for i, sub in enumerate(branches))
    conditional = ("if", "then", "else") if "then" in schema or "else" in schema else ()
    same.extend((schema[key], f"{at}/{key}") for key in ("not", *conditional) if key in schema)
    for key in IN_PLACE_MAP:
        dependent = schema.get(key)
        if isinstance(dependent, Mapping):
            same.extend((sub, f"{at}/{key}/{name}") for name, sub in dependent.items())
    parts: list[Edge] = []
    for key in PARTS_MAP:
        table = schema.get(key)
        if table.__class__ is dict or (
            table is not None and isinstance(table, Mapping)
        ):  # a dict or None, mostly: no ABC check
            parts.extend((sub, f"{at}/{key}/{name}") for name, sub in table.items())
    parts.extend((schema[key], f"{at}/{key}") for key in PARTS_ONE if key in schema)
    for key in PARTS_LIST:
        prefix = schema.get(key)
        if isinstance(prefix, list):
            parts.extend((sub, f"{at}/{key}/{i}") for i, sub in enumerate(prefix))
    return same, parts


def check_references(schema: Any, resolve: Resolve, done: dict[int, int] | None = None, at: str = "#") -> None:
    """Read every reference reachable from ``schema`` (raising the reader's slugs) and refuse left recursion.

    Left recursion is a reference cycle through ``$ref`` / ``$dynamicRef`` / ``anyOf`` / ``oneOf`` / ``allOf`` /
    ``not`` / ``if``-``then``-``else`` / ``dependentSchemas`` that never steps into ``properties``, ``items`` and
    the like; it raises ``SchemaError(slug="left_recursive_ref")`` naming the cycle. Cutting the cycle instead
    is not sound: for a cycle through two definitions the cut would depend on which one was entered first, and
    a cycle through ``not`` has no consistent meaning at all. One iterative depth-first walk: linear in the
    schema's size. ``done`` (``id`` of a node -> state) may be shared between calls over one document, so that
    each node is walked once however many times it is asked about.
    """
    state: dict[int, int] = {} if done is None else done  # 1 while on the current path, 2 when done
    entries: list[Edge] = [(schema, at)]
    while entries:
        start, where = entries.pop()
        if not isinstance(start, Mapping) or id(start) in state:
            continue
        state[id(start)] = 1
        same, parts = _edges(start, where, resolve)
        entries.extend(parts)
        path: list[tuple[Mapping[str, Any], str, list[Edge]]] = [(start, where, same)]
        while path:
            node, _, todo = path[-1]
            if not todo:
                state[id(node)] = 2
                path.pop()
                continue
            sub, there = todo.pop()
            if not isinstance(sub, Mapping):
                continue
            seen = state.get(id(sub))
            if seen == 1:
                first = next(i for i, step in enumerate(path) if step[0] is sub)
                cycle = (*(step[1] for step in path[first:]), there)
                raise SchemaError(
                    f"the schema refers back to itself without reading into the value: {' -> '.join(cycle)}; such "
                    "a branch can never match anything new, so remove it, or put the recursion under properties "
                    "or items",
                    slug=LEFT_RECURSIVE_REF,
                )
            if seen is None:
                state[id(sub)] = 1
                same, parts = _edges(sub, there, resolve)
                entries.extend(parts)
                path.append((sub, there, same))
