"""Lints stay linear on hostile schemas: unions that refer back to themselves, wide recursive fan-out."""

from __future__ import annotations

import pytest

from toolkit._contract import ToolContract
from toolkit._tool import build_tool


@pytest.mark.timeout(20)
@pytest.mark.parametrize("branches", [2, 10, 30], ids=lambda n: f"{n}_self_branches")
def test_self_referring_union_builds_without_blowing_up(branches: int) -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A", "description": "a value made of many self references"}},
        "additionalProperties": False,
        "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}] * branches + [{"type": "string"}]}},
    }
    tool = build_tool(ToolContract(name="t", description="a tool with a hostile schema", args_schema=schema))
    assert tool.name == "t"
    assert tool.parameters is not None


@pytest.mark.timeout(20)
def test_recursive_fan_out_through_properties_is_bounded() -> None:
    node = {"type": "object", "properties": {k: {"$ref": "#/$defs/N"} for k in "abcdefgh"}}
    schema = {
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/N", "description": "the root of a recursive tree"}},
        "additionalProperties": False,
        "$defs": {"N": node},
    }
    tool = build_tool(ToolContract(name="t", description="a tool over a recursive tree", args_schema=schema))
    paths = [lint.path for lint in tool.lints]
    assert len(paths) == len({(lint.code, lint.path) for lint in tool.lints})
    assert any(path.startswith("root.") for path in paths)
