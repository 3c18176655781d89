"""An integer's exclusive bound lowers to the exact inclusive bound, with no loss, and the validator agrees.

``gt=0`` on an ``int`` is ``exclusiveMinimum: 0`` in ``args_schema``; the declaration says ``minimum: 1``,
which means the same thing for integers. The oracle is the validator itself (it enforces ``args_schema``,
never the declaration): for every integer around the bounds, it accepts exactly the values the declared
inclusive bounds allow.

Internals: ``build_tool``, for a tool from a hand-written JSON Schema, which no public constructor takes.
"""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from pydantic import Field

from toolkit import ToolContract, from_function, lower
from toolkit._tool import build_tool


def count_pages(pages: Annotated[int, Field(gt=0, description="How many pages to print.")]) -> int:
    """Print a document."""
    return pages


def test_gt_zero_on_an_int_is_declared_as_minimum_one_and_the_validator_agrees() -> None:
    tool = from_function(count_pages, namespace="docs")
    assert tool.args_schema["properties"]["pages"]["exclusiveMinimum"] == 0
    declared = tool.declaration["parameters"]["properties"]["pages"]
    assert (declared["type"], declared["minimum"]) == ("INTEGER", 1)
    assert [loss for loss in tool.losses if loss.keyword == "exclusiveMinimum"] == []
    rejected = tool.validate({"pages": 0})
    assert rejected.status == "invalid_arguments"
    assert [error.code for error in rejected.errors] == ["out_of_range"]
    assert tool.validate({"pages": 1}).status == "ok"


def test_a_read_tool_clamps_to_the_declared_inclusive_bound() -> None:
    tool = from_function(count_pages, namespace="docs", effect="read")
    result = tool.validate({"pages": 0})
    assert result.status == "ok"
    assert [(n.action, n.to) for n in result.notices] == [("clamped", 1)]
    assert tool.declaration["parameters"]["properties"]["pages"]["minimum"] == 1


@pytest.mark.parametrize(
    ("bounds", "low", "high"),
    [
        pytest.param({"exclusiveMinimum": 0}, 1, None, id="gt-0"),
        pytest.param({"exclusiveMaximum": 10}, None, 9, id="lt-10"),
        pytest.param({"exclusiveMinimum": -1, "exclusiveMaximum": 101}, 0, 100, id="both-exclusive"),
        pytest.param({"exclusiveMinimum": 5, "minimum": 0}, 6, None, id="exclusive-tighter"),
        pytest.param({"exclusiveMinimum": 0, "minimum": 5}, 5, None, id="inclusive-tighter"),
        pytest.param({"exclusiveMaximum": 50, "maximum": 50}, None, 49, id="equal-bounds"),
        pytest.param({"exclusiveMinimum": 0.5, "exclusiveMaximum": 9.5}, 1, 9, id="fractional-bounds"),
        pytest.param({"exclusiveMinimum": 2.0}, 3, None, id="integral-float-bound"),
    ],
)
def test_declared_inclusive_bounds_accept_exactly_what_the_validator_accepts(
    bounds: dict[str, Any], low: int | None, high: int | None
) -> None:
    for kind in ("integer", ["integer", "null"]):
        schema = {"type": "object", "properties": {"n": {"type": kind, **bounds}}, "required": ["n"]}
        tool = build_tool(ToolContract(name="t", description="Take a count.", args_schema=schema))
        declared = tool.declaration["parameters"]["properties"]["n"]
        assert (declared.get("minimum"), declared.get("maximum")) == (low, high)
        assert tool.losses == () or all(loss.keyword not in bounds for loss in tool.losses)
        for value in range(-3, 104):
            inside = (low is None or value >= low) and (high is None or value <= high)
            verdict = tool.validate({"n": value}).status
            assert verdict == ("ok" if inside else "invalid_arguments"), (kind, bounds, value)


def test_number_bounds_keep_their_loss() -> None:
    lowered = lower({"type": "object", "properties": {"x": {"type": "number", "exclusiveMinimum": 0}}})
    assert lowered.schema["properties"]["x"]["minimum"] == 0
    assert [(loss.keyword, loss.path) for loss in lowered.losses] == [("exclusiveMinimum", "/properties/x")]


def test_an_integer_bound_too_large_for_a_double_keeps_its_loss() -> None:
    big = 2**60
    lowered = lower({"type": "object", "properties": {"n": {"type": "integer", "exclusiveMinimum": big}}})
    assert lowered.schema["properties"]["n"]["minimum"] == big
    assert [loss.keyword for loss in lowered.losses] == ["exclusiveMinimum"]
