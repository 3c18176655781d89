"""The referenced schemas inlined inside a parameter are walked once per memo and replayed after: every lowering
through a shared memo equals a fresh one (schema and losses, in order), whatever depth, nesting or root meets
the definition again, and replaying never changes what an earlier lowering returned.

Internals: ``Memo`` and its ``references`` table (``_lowering._shared``), the unit under test."""

from __future__ import annotations

import copy
from typing import Any

from toolkit import lower
from toolkit._lowering import Memo

DEFS: dict[str, Any] = {
    "Leaf": {
        "type": "number",
        "exclusiveMinimum": 0,
        "examples": [1],
        "format": "decimal",
        "description": "A leaf.",
    },
    "Pair": {
        "type": "object",
        "properties": {
            "left": {"$ref": "#/$defs/Leaf"},
            "right": {"$ref": "#/$defs/Leaf"},
            "any": {},
            "list": {"type": "array"},
            "three": {"const": 3},
        },
    },
    "Tree": {
        "type": "object",
        "properties": {
            "value": {"$ref": "#/$defs/Pair"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
        },
        "required": ["value", "missing"],
    },
    "Either": {"anyOf": [{"$ref": "#/$defs/Leaf"}, {"$ref": "#/$defs/Pair"}, {"type": "null"}]},
    "Choice": {"anyOf": [{"type": "string"}, {"type": "integer"}], "minLength": 2},
}


def _deep(levels: int, inner: dict[str, Any]) -> dict[str, Any]:
    """``inner`` under ``levels`` plain objects (so that its definition is met near the nesting cut)."""
    node = inner
    for _ in range(levels):
        node = {"type": "object", "properties": {"x": node}}
    return node


def _roots() -> list[dict[str, Any]]:
    """Roots that meet the same definitions at different places, depths and nesting levels (one root is not
    shareable as a whole: its parameters are walked without the parameter memo)."""
    return [
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/Pair"}, "b": {"$ref": "#/$defs/Tree"}}},
        {"type": "object", "properties": {"c": {"$ref": "#/$defs/Tree"}, "d": {"$ref": "#/$defs/Either"}}},
        {"type": "object", "properties": {"e": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}}},
        {"type": "object", "properties": {"f": _deep(60, {"$ref": "#/$defs/Tree"})}},
        {"type": "object", "properties": {"g": {"allOf": [{"$ref": "#/$defs/Either"}, {"description": "G."}]}}},
        {"type": "object", "properties": {"h": {"$ref": "#/$defs/Pair"}}, "not": {"required": ["zz"]}},
        {"type": "object", "properties": {"i": {"anyOf": [{"$ref": "#/$defs/Choice"}, {"type": "null"}]}}},
        {"type": "object", "properties": {"j": {"$ref": "#/$defs/Choice"}}},
    ]


def test_lowerings_through_a_shared_memo_equal_fresh_ones() -> None:
    memo = Memo()
    roots = [{**root, "$defs": DEFS} for root in _roots()]
    seen = []
    for depth in (8, 3, 1, 8, 2, 0):
        for root in roots:
            fresh, shared = lower(root, max_depth=depth), lower(root, max_depth=depth, memo=memo)
            assert shared.schema == fresh.schema
            assert shared.losses == fresh.losses
            seen.append((shared, copy.deepcopy(shared.schema)))
    assert memo.references
    for lowered, schema in seen:  # no later lowering changed an earlier one's nodes
        assert lowered.schema == schema


def test_a_definition_replaced_in_another_root_is_walked_again() -> None:
    """A shared walk is reused only while every reference it read points at the same schema."""
    memo = Memo()
    first = {**_roots()[0], "$defs": DEFS}
    other_leaf = {**DEFS, "Leaf": {"type": "string", "minLength": 2}}
    second = {**_roots()[0], "$defs": other_leaf}
    for root in (first, second, first):
        assert lower(root, memo=memo) == lower(root)
