"""AG2 tools: read with AG2's own names, descriptions and parameters (``schema.function``, what AG2 sends), the
parameters AG2 fills (conversation context, ``Inject``, ``Variable``, ``Depends``) hidden, and called with the
result AG2's own call model gives."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from typing import Any

import pytest

pytest.importorskip("ag2.tools", reason="ag2 is not installed (optional extra `frameworks`)")

from framework_tools import described, differences
from framework_tools.ag2_tools import CASES
from google.genai import types as genai_types

import toolkit as tk


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_tool_reads_as_ag2_declares_it(name: str) -> None:
    case = CASES[name]
    declared = case.obj.schema.function
    tool = tk.from_function(case.obj)
    assert differences(tool, declared.name, declared.description, declared.parameters) == []
    assert {i.name for i in tool.contract.injected} == case.injected
    assert {i.framework for i in tool.contract.injected} <= {"ag2"}
    assert set(tool.declaration["parameters"]["properties"]) == case.visible
    assert described(tool.args_schema) == described(declared.parameters) == len(case.visible)
    assert not [lint for lint in tool.lints if lint.code.startswith("TK7")]
    genai_types.FunctionDeclaration.model_validate(tool.declaration)


def test_field_bounds_come_through() -> None:
    tool = tk.from_function(CASES["plan_trip"].obj)
    assert tool.args_schema["properties"]["days"]["maximum"] == 14
    assert tool.validate({"city": "Rome", "days": 30}).status == "invalid_arguments"


def test_toolkit_calls_the_tool_as_ag2_s_call_model_does() -> None:
    obj = CASES["plan_trip"].obj
    result = tk.from_function(obj).call({"city": "Rome", "days": 2})
    assert result.status == "ok", result
    assert result.data == asyncio.run(_solve(obj.model, city="Rome", days=2))


async def _solve(model: Any, **arguments: Any) -> Any:
    """What AG2 does with a tool call's arguments: its FastDepends call model validates them and calls."""
    async with AsyncExitStack() as stack:
        return await model.asolve(**arguments, stack=stack, cache_dependencies={})


def test_the_filled_parameters_reach_the_function_from_the_context_extras() -> None:
    tool = tk.from_function(CASES["price_order"].obj)
    extras = {"context": None, "table": {"USD": 1.1}, "currency": "USD", "rounding": 1}
    result = tool.call({"total": 10.0}, tk.ToolContext(extras=extras))
    assert result.data == {"amount": 11.0, "currency": "USD"}
