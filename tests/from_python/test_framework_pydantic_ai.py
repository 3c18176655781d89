"""pydantic-ai tools: ``RunContext[Deps]`` injected, run inside an agent driven by a scripted model, which fills
the context with the run's dependencies and the tool call's id."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("pydantic_ai", reason="pydantic-ai-slim is not installed (optional extra `frameworks`)")

from framework_tools.pydantic_ai_tools import CASES, Deps
from google.genai import types as genai_types
from pydantic_ai import Agent, RunContext
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel
from pydantic_ai.usage import RunUsage

import toolkit as tk


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_run_context_is_injected_and_the_declaration_hides_it(name: str) -> None:
    case = CASES[name]
    tool = tk.from_function(case.obj, effect="read")
    assert tool.name == name
    assert {(i.name, i.framework) for i in tool.contract.injected} == {("ctx", "pydantic-ai")}
    assert set(tool.declaration["parameters"]["properties"]) == case.visible
    assert tool.description
    assert "Args:" not in tool.description
    assert ":param" not in tool.description
    assert not [lint for lint in tool.lints if lint.slug == "missing_parameter_description"]
    # pydantic-ai's schema agrees, except that it does not read a nested model's Attributes: section
    nested = {"book_appointment": {"slot.day", "slot.after_hour"}, "list_doctors": set()}[name]
    assert {(lint.slug, lint.path) for lint in tool.lints if lint.code.startswith("TK7")} == {
        ("framework_description", path) for path in nested
    }
    genai_types.FunctionDeclaration.model_validate(tool.declaration)


def test_an_agent_run_passes_its_dependencies_to_the_tool() -> None:
    def script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            args = {"doctor": "Martin", "slot": {"day": "2026-03-02", "after_hour": 14}}
            return ModelResponse(parts=[ToolCallPart("book_appointment", args, tool_call_id="fc-1")])
        return ModelResponse(parts=[TextPart("Booked.")])

    agent = Agent(FunctionModel(script), deps_type=Deps, tools=[CASES["book_appointment"].obj])
    result = asyncio.run(agent.run("Book me with Dr Martin", deps=Deps("Lyon Nord", "p-17")))
    assert result.output == "Booked."
    returns = [
        part.content for message in result.all_messages() for part in message.parts if isinstance(part, ToolReturnPart)
    ]
    assert returns == ["Lyon Nord: p-17 sees Martin on 2026-03-02 after 14h (call fc-1)"]


def test_the_toolkit_tool_calls_the_function_with_a_run_context() -> None:
    tool = tk.from_function(CASES["list_doctors"].obj, effect="read")
    context: RunContext[Any] = RunContext(deps=Deps("Lyon Nord", "p-1"), model=TestModel(), usage=RunUsage())
    result = tool.call({"speciality": "dermatology"}, tk.ToolContext(extras={"ctx": context}))
    assert result.data == ["Lyon Nord:dermatology:martin"]
