"""Hostile schemas and instances: every one finishes quickly with a typed answer, never a hang.

A left-recursive schema (a reference cycle that never reads into the value) is the tool author's mistake and
is refused with ``SchemaError(slug="left_recursive_ref")`` on the first validation; recursion through
``properties`` / ``items`` keeps working, bounded by the data and by the nesting cap.

Internals: ``_validation._checks.MAX_DEPTH``, the depth limit the hostile schemas aim at.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from toolkit import Policy, SchemaError, Tool, ToolContract, ToolResult
from toolkit._validation._checks import MAX_DEPTH


def make_tool(properties: Mapping[str, Any], defs: Mapping[str, Any]) -> Tool:
    """A tool holding the schema as the validator sees it (no lowering or lints: this file is about validation)."""
    schema = {"type": "object", "properties": dict(properties), "$defs": dict(defs)}
    return Tool(contract=ToolContract(name="hostile", description="Hostile schema.", args_schema=schema),
                parameters=None, policy=Policy())  # fmt: skip


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def self_branches(keyword: str, count: int) -> dict[str, Any]:
    return {"A": {keyword: [ref("A") for _ in range(count)] + [{"type": "string"}]}}


LEFT_RECURSIVE = {
    "self_anyOf": self_branches("anyOf", 1),
    "self_oneOf": self_branches("oneOf", 1),
    "self_allOf": self_branches("allOf", 1),
    "self_ref_only": {"A": ref("A")},
    "ref_with_siblings": {"A": {"$ref": "#/$defs/A", "type": "string"}},
    "mutual_two_defs": {
        "A": {"anyOf": [ref("B"), {"type": "string"}]},
        "B": {"oneOf": [ref("A"), {"type": "integer"}]},
    },
    "through_three_defs": {"A": {"allOf": [ref("B")]}, "B": {"anyOf": [ref("C"), {"type": "null"}]}, "C": ref("A")},
    "ten_self_branches": self_branches("anyOf", 10),
    "twenty_self_branches": self_branches("anyOf", 20),
    "twenty_nested_anyOf": {
        "A": {"anyOf": [{"anyOf": [ref("A"), ref("A")]} for _ in range(20)] + [{"type": "string"}]}
    },
    "through_not": {"A": {"not": ref("A")}},
    "through_if_then": {"A": {"if": {"type": "string"}, "then": ref("A")}},
    "through_else": {"A": {"if": {"type": "string"}, "else": {"anyOf": [ref("A"), {"type": "integer"}]}}},
}


@pytest.mark.timeout(10)
@pytest.mark.parametrize("defs", list(LEFT_RECURSIVE.values()), ids=list(LEFT_RECURSIVE))
def test_left_recursive_schema_is_refused_with_the_cycle_named(defs: dict[str, Any]) -> None:
    tool = make_tool({"x": ref("A")}, defs)
    with pytest.raises(SchemaError) as caught:
        tool.validate({"x": "text"})
    assert caught.value.slug == "left_recursive_ref"
    assert "#/$defs/A" in str(caught.value)


@pytest.mark.timeout(10)
def test_left_recursion_in_a_definition_reached_only_through_items_is_refused() -> None:
    tool = make_tool({"xs": {"type": "array", "items": ref("A")}}, self_branches("anyOf", 15))
    with pytest.raises(SchemaError) as caught:
        tool.validate({"xs": []})
    assert caught.value.slug == "left_recursive_ref"


@pytest.mark.timeout(10)
def test_unused_left_recursive_definition_does_not_refuse_the_tool() -> None:
    result = make_tool({"x": {"type": "string"}}, self_branches("anyOf", 20)).validate({"x": "text"})
    assert result.status == "ok"


TREE = {
    "Node": {
        "type": "object",
        "properties": {"value": {"type": "integer"}, "children": {"type": "array", "items": ref("Node")}},
        "required": ["value"],
        "additionalProperties": False,
    }
}
NESTED_UNION = {"Json": {"anyOf": [{"type": "string"}, {"type": "array", "items": ref("Json")}, ref("Map")]},
                "Map": {"type": "object", "additionalProperties": ref("Json")}}  # fmt: skip


def chain(depth: int) -> dict[str, Any]:
    node: dict[str, Any] = {"value": 0}
    for i in range(1, depth):
        node = {"value": i, "children": [node]}
    return node


@pytest.mark.timeout(10)
def test_right_recursive_tree_validates_and_keeps_its_values() -> None:
    args = {"root": chain(MAX_DEPTH // 2 - 1)}
    result = make_tool({"root": ref("Node")}, TREE).validate(args)
    assert result.status == "ok", result.errors
    assert result.data == args


@pytest.mark.timeout(10)
def test_right_recursive_tree_reports_a_bad_leaf_by_its_path() -> None:
    args = {"root": {"value": 1, "children": [{"value": 2, "children": [{"value": "three"}]}]}}
    result = make_tool({"root": ref("Node")}, TREE).validate(args)
    assert [(e.field, e.code) for e in result.errors] == [("root.children[0].children[0].value", "wrong_type")]


@pytest.mark.timeout(10)
@pytest.mark.parametrize("defs", [TREE, NESTED_UNION], ids=["tree", "union_of_array_and_map"])
def test_a_thousand_levels_deep_instance_is_a_too_deep_error_not_a_recursion_error(defs: dict[str, Any]) -> None:
    root: Any = chain(1_000)
    if "Json" in defs:
        root = "leaf"
        for _ in range(1_000):
            root = [{"k": root}]
    result = make_tool({"root": ref(next(iter(defs)))}, defs).validate({"root": root})
    assert isinstance(result, ToolResult)
    assert result.status == "invalid_arguments"
    assert "too_deep" in {e.code for e in result.errors}


@pytest.mark.timeout(10)
def test_ten_thousand_items_validate_and_a_bad_one_is_found() -> None:
    tool = make_tool({"items": {"type": "array", "items": ref("Node")}}, TREE)
    items: list[dict[str, Any]] = [{"value": i, "children": [{"value": -i}]} for i in range(10_000)]
    assert tool.validate({"items": items}).status == "ok"
    items[9_999]["children"][0]["value"] = "bad"
    result = tool.validate({"items": items})
    assert [(e.field, e.code) for e in result.errors] == [("items[9999].children[0].value", "wrong_type")]


@pytest.mark.timeout(10)
def test_wide_union_of_many_definitions_validates_ten_thousand_items() -> None:
    kind = {"type": "object", "required": ["kind"]}
    defs: dict[str, Any] = {f"D{i}": {**kind, "properties": {"kind": {"const": f"k{i}"}}} for i in range(20)}
    defs["Any"] = {"anyOf": [ref(f"D{i}") for i in range(20)]}
    tool = make_tool({"xs": {"type": "array", "items": ref("Any")}}, defs)
    result = tool.validate({"xs": [{"kind": f"k{i % 20}"} for i in range(10_000)]})
    assert result.status == "ok", result.errors[:3]
