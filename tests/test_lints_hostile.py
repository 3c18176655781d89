"""Lints stay linear on hostile schemas: unions that refer back to themselves, wide recursive fan-out.

A union that refers back to itself without reading into the value is refused when the tool is built
(``left_recursive_ref``, as the validator refuses it); the lints alone still read it in linear time.
"""

from __future__ import annotations

from typing import Any

import pytest

from toolkit._contract import ToolContract
from toolkit._exceptions import SchemaError
from toolkit._lints import lint
from toolkit._tool import Tool, build_tool


def _self_referring(branches: int) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"due_date": {"$ref": "#/$defs/A", "description": "a value made of many self references"}},
        "additionalProperties": False,
        "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}] * branches + [{"type": "string"}]}},
    }


@pytest.mark.timeout(20)
@pytest.mark.parametrize("branches", [2, 10, 30], ids=lambda n: f"{n}_self_branches")
def test_self_referring_union_is_linted_without_blowing_up(branches: int) -> None:
    contract = ToolContract(name="t", description="a tool with a hostile schema", args_schema=_self_referring(branches))
    lints = lint(Tool(contract=contract, parameters=None))
    assert ("date_as_string", "due_date") in [(item.slug, item.path) for item in lints]  # the string branch was read


@pytest.mark.timeout(20)
@pytest.mark.parametrize("branches", [2, 10, 30], ids=lambda n: f"{n}_self_branches")
def test_self_referring_union_is_refused_when_built(branches: int) -> None:
    contract = ToolContract(name="t", description="a tool with a hostile schema", args_schema=_self_referring(branches))
    with pytest.raises(SchemaError) as caught:
        build_tool(contract)
    assert caught.value.slug == "left_recursive_ref"


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
