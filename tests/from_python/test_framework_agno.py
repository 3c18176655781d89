"""agno tools: ``run_context: RunContext`` and ``agent`` injected, executed by agno's ``FunctionCall`` with a
real run context, which reaches the function."""

from __future__ import annotations

import pytest

pytest.importorskip("agno.tools", reason="agno is not installed (optional extra `frameworks`)")

from agno.agent import Agent
from agno.run import RunContext
from agno.tools.function import FunctionCall
from framework_tools.agno_tools import CASES
from google.genai import types as genai_types

import toolkit as tk


def test_the_run_context_and_agent_are_injected_and_hidden() -> None:
    case = CASES["add_to_list"]
    tool = tk.from_function(case.obj, effect="write")
    assert tool.name == "add_to_list"
    assert {i.name: i.type for i in tool.contract.injected} == {
        "run_context": "agno.run.base.RunContext",
        "agent": "agno.agent.agent.Agent",
    }
    assert set(tool.declaration["parameters"]["properties"]) == case.visible
    assert not [lint for lint in tool.lints if lint.slug == "missing_parameter_description"]
    items = tool.args_schema["properties"]["items"]
    assert items["description"] == "The lines to add."
    genai_types.FunctionDeclaration.model_validate(tool.declaration)


def test_agno_passes_its_run_context_and_agent_to_the_function() -> None:
    function = CASES["add_to_list"].obj.model_copy(deep=True)
    function.process_entrypoint()  # what an agent does before it runs a tool: arguments become Item objects
    context = RunContext(run_id="run-1", session_id="sess-1", user_id="u-1", session_state={})
    function._run_context = context
    function._agent = Agent(name="shopper")
    call = FunctionCall(function=function, arguments={"items": [{"name": "milk"}, {"name": "eggs"}]}, call_id="c-1")
    result = call.execute()
    assert result.status == "success", call.error
    assert call.result == {"session": "sess-1", "agent": "shopper", "list": ["milk", "eggs"]}
    assert context.session_state == {"shopping": ["milk", "eggs"]}


def test_the_toolkit_tool_calls_the_function_with_the_run_context_it_is_given() -> None:
    tool = tk.from_function(CASES["add_to_list"].obj)
    context = RunContext(run_id="run-2", session_id="sess-2", user_id="u-2", session_state={"shopping": ["tea"]})
    result = tool.call({"items": [{"name": "bread", "quantity": 2}]}, tk.ToolContext(extras={"run_context": context}))
    assert result.data == {"session": "sess-2", "agent": None, "list": ["tea", "bread"]}
    assert tool.validate({"items": [{"name": "bread", "quantity": "2"}]}).status == "invalid_arguments"
