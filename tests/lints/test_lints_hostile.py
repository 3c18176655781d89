"""Lints stay linear on hostile schemas: unions that refer back to themselves, wide recursive fan-out.

A union that refers back to itself without reading into the value is refused when the tool is built
(``left_recursive_ref``, as the validator refuses it); the lints alone still read it in linear time.

Internals: ``_lints.lint`` (timed alone on hostile schemas) and ``build_tool`` for a tool from a hand-written JSON
Schema.
"""

from __future__ import annotations

from typing import Any

import pytest

from toolkit import SchemaError, Tool, ToolContract
from toolkit._lints import lint
from toolkit._tool import build_tool


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


_HOSTILE_UNITS = {
    "digit-run": "1",
    "whitespace-after-a-head": "at most" + " " * 40,
    "chained-ranges": "between 1 and 2 and ",
    "thousands": "1,000,",
    "dashed-numbers": "1-",
    "clause-starts": ":",
    "open-backticks": "`",
    "unclosed-prefixes": "must start with `a",
    "bare-followed-by": "`a_` followed by ",
    "date-tokens": "YYYY-",
    "iso-mentions": "ISO 8601 ",
    "time-tokens": "HH:MM:",
    "conditions": "for if when at most 1 ",
    "n-character-nouns": "a 1-character ",
    "signs": "be positive ",
    "listed-values": "one of `a`, ",
    "many-lists": "one of `a1` or `b`. ",
    "whitespace-after-a-value": "either `a`" + " " * 40,
    "colon-lists": ': "a" or ',
    "plain-lists": "one of: a, ",
    "decimal-places": "at most two decimal places ",
    "minor-units": "in cents ",
}


@pytest.mark.timeout(20)
@pytest.mark.parametrize("unit", list(_HOSTILE_UNITS.values()), ids=list(_HOSTILE_UNITS))
def test_descriptions_built_to_backtrack_are_read_in_linear_time(unit: str) -> None:
    """200,000 characters of one repeated fragment: every word lint reads it (linear patterns, bounded windows)."""
    text = (unit * (200_000 // len(unit) + 1))[:200_000]
    properties = {
        kind: {"type": kind, "description": text, **({"items": {"type": "string"}} if kind == "array" else {})}
        for kind in ("string", "integer", "number", "array")
    }
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    findings = lint(
        Tool(contract=ToolContract(name="t", description="Do the thing.", args_schema=schema), parameters=None)
    )
    assert {item.path for item in findings} <= set(properties)
