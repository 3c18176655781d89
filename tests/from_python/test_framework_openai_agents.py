"""OpenAI Agents SDK tools: ``RunContextWrapper``/``ToolContext`` injected, run by the SDK (``on_invoke_tool``
and a whole ``Runner.run`` with its scripted model), which fills the context."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("agents", reason="openai-agents is not installed (optional extra `frameworks`)")

import agents
from agents import Agent, Runner
from agents.testing import ScriptedModel, assistant_message, function_call
from agents.tool_context import ToolContext as AgentsToolContext
from framework_tools.openai_agents_tools import CASES, Account, find_hotels
from google.genai import types as genai_types

import toolkit as tk

agents.set_tracing_disabled(True)  # no export of traces from an offline run


def invoke(tool: Any, args: dict[str, Any], account: Account, call_id: str) -> Any:
    raw = json.dumps(args)
    context = AgentsToolContext(context=account, tool_name=tool.name, tool_call_id=call_id, tool_arguments=raw)
    return asyncio.run(tool.on_invoke_tool(context, raw))


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_run_context_is_injected_and_the_declaration_hides_it(name: str) -> None:
    case = CASES[name]
    tool = tk.from_function(case.obj, effect="read")
    assert tool.name == name
    assert {(i.name, i.framework) for i in tool.contract.injected} == {("ctx", "openai-agents")}
    assert set(tool.declaration["parameters"]["properties"]) == case.visible
    assert tool.description
    assert "Args:" not in tool.description
    assert not [lint for lint in tool.lints if lint.slug == "missing_parameter_description"]
    genai_types.FunctionDeclaration.model_validate(tool.declaration)


def test_strict_mode_s_required_defaults_are_shown_as_a_lint() -> None:
    tool = tk.from_function(find_hotels, effect="read")
    assert find_hotels.strict_json_schema
    (lint,) = [lint for lint in tool.lints if lint.slug == "framework_required"]
    assert lint.path == "budget"
    assert "budget" not in tool.args_schema["required"]


def test_the_sdk_passes_its_context_to_the_function() -> None:
    out = invoke(find_hotels, {"city": "Porto", "nights": 2, "budget": None}, Account("u-7", "pro"), "call-1")
    assert out == {"user": "u-7", "plan": "pro", "city": "Porto", "nights": 2, "cap": None}
    booked = invoke(CASES["book_room"].obj, {"hotel_id": "htl_000123", "nights": 3}, Account("u-7"), "call-2")
    assert booked == "u-7 booked htl_000123 for 3 nights in call call-2"


def test_a_whole_agent_run_fills_the_context_from_runner_run() -> None:
    model = ScriptedModel(
        [
            [function_call("book_room", {"hotel_id": "htl_000042", "nights": 1}, call_id="rc-1")],
            [assistant_message("Booked.")],
        ]
    )
    agent = Agent(name="travel", instructions="Book rooms.", model=model, tools=[CASES["book_room"].obj])
    result = asyncio.run(Runner.run(agent, "Book htl_000042 tonight", context=Account("u-run")))
    assert result.final_output == "Booked."
    outputs = [item.output for item in result.new_items if getattr(item, "type", "") == "tool_call_output_item"]
    assert outputs == ["u-run booked htl_000042 for 1 nights in call rc-1"]


def test_the_toolkit_tool_calls_the_function_with_the_context_it_is_given() -> None:
    tool = tk.from_function(find_hotels, effect="read")
    wrapper = agents.RunContextWrapper(context=Account("u-1"))
    result = tool.call({"city": "Oslo", "nights": 1, "budget": {"currency": "NOK", "nightly_max": 900}},
                       tk.ToolContext(extras={"ctx": wrapper}))  # fmt: skip
    assert result.data == {"user": "u-1", "plan": "free", "city": "Oslo", "nights": 1, "cap": 900}


def test_a_tool_made_by_hand_without_a_function_is_refused_with_its_slug() -> None:
    async def invoke_raw(context: Any, raw: str) -> str:
        return raw

    by_hand = agents.FunctionTool(
        name="raw_tool",
        description="A tool made by hand.",
        params_json_schema={"type": "object", "properties": {}},
        on_invoke_tool=invoke_raw,
    )
    with pytest.raises(tk.SignatureError) as caught:
        tk.from_function(by_hand)
    assert caught.value.slug == "no_tool_function"
    assert "agents.tool.FunctionTool" in caught.value.message
