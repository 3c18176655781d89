"""google-adk tools: read from ``FunctionTool`` objects, their ``ToolContext`` injected, run under ADK itself."""

from __future__ import annotations

import asyncio
import sys
import typing
from typing import Any

import pytest

pytest.importorskip("google.adk.tools", reason="google-adk is not installed (optional extra `adk`)")

from framework_tools.adk_tools import CASES, search_issues
from google.adk.agents import LlmAgent
from google.adk.agents.invocation_context import InvocationContext
from google.adk.sessions import InMemorySessionService
from google.adk.tools import FunctionTool, ToolContext
from google.genai import types as genai_types

import toolkit as tk
from toolkit import RuntimeConfigError
from toolkit.runtime.adk import to_adk


class Address(typing.TypedDict):
    """A postal address."""

    city: str


def adk_context(tool: Any, call_id: str = "call-42") -> ToolContext:
    """A real ADK ToolContext over an in-memory session (building an LlmAgent calls no model)."""

    async def make() -> ToolContext:
        service = InMemorySessionService()
        session = await service.create_session(app_name="issues", user_id="u-1", session_id="s-1")
        agent = LlmAgent(name="assistant", model="gemini-2.0-flash", tools=[tool])
        invocation = InvocationContext(invocation_id="inv-1", agent=agent, session=session, session_service=service)
        return ToolContext(invocation, function_call_id=call_id)

    return asyncio.run(make())


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_context_is_injected_and_the_declaration_hides_it(name: str) -> None:
    case = CASES[name]
    tool = tk.from_function(case.obj, effect="read")
    assert {i.name for i in tool.contract.injected} == case.injected
    assert {i.framework for i in tool.contract.injected} == {"google-adk"}
    assert set(tool.declaration["parameters"]["properties"]) == case.visible
    assert set(tool.args_schema["properties"]) == case.visible
    genai_types.FunctionDeclaration.model_validate(tool.declaration)  # what ADK sends, accepted


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_parameter_and_nested_field_is_described(name: str) -> None:
    tool = tk.from_function(CASES[name].obj, effect="read")
    assert tool.name == name
    assert tool.description
    assert "Args:" not in tool.description
    assert not [lint for lint in tool.lints if lint.slug == "missing_parameter_description"]


def test_the_injected_context_names_its_type_and_reason() -> None:
    tool = tk.from_function(CASES["search_issues"].obj)
    (injected,) = tool.contract.injected
    assert injected.type == "google.adk.agents.context.Context"  # ToolContext is an alias of it in ADK 2
    assert "ToolContext" in injected.reason
    by_name = tk.from_function(CASES["remember_preference"].obj).contract.injected[0]
    assert by_name.type == "(the name tool_context)"
    assert "tool_context: google-adk" not in str(tool)  # the summary shows a table, not a repr
    assert "tool_context" in str(tool._repr_mimebundle_()["text/plain"]).split("injected (1):")[1]


def test_adk_sends_no_docstring_descriptions_and_a_lint_says_so() -> None:
    tool = tk.from_function(CASES["search_issues"].obj)
    assert tool.contract.framework is not None
    assert tool.contract.framework.object_type == "google.adk.tools.function_tool.FunctionTool"
    described = {lint.path for lint in tool.lints if lint.slug == "framework_description"}
    # ADK reads neither the Args: section nor the nested model's Attributes: section
    assert described == {"query", "window", "limit", "window.start", "window.end"}
    assert not [lint for lint in tool.lints if lint.slug in ("framework_parameters", "framework_required")]


def test_the_function_receives_adk_s_context_when_adk_runs_it() -> None:
    function_tool = CASES["search_issues"].obj
    context = adk_context(function_tool)
    out = asyncio.run(function_tool.run_async(args={"query": "login", "limit": 3}, tool_context=context))
    assert out == {"session": "s-1", "call": "call-42", "query": "login", "window": None, "limit": 3}
    assert context.state["last_query"] == "login"


def test_the_toolkit_tool_receives_adk_s_context_through_the_adapter() -> None:
    tool = tk.from_function(CASES["search_issues"].obj, effect="read")
    adapted = to_adk(tool)
    context = adk_context(adapted, call_id="call-7")
    args = {"query": "crash", "window": {"start": "2026-01-01"}, "limit": 2}
    result = asyncio.run(adapted.run_async(args=args, tool_context=context))
    assert result["status"] == "ok"
    assert result["data"] == {
        "session": "s-1",
        "call": "call-7",
        "query": "crash",
        "window": {"start": "2026-01-01", "end": None},
        "limit": 2,
    }
    assert context.state["last_query"] == "crash"
    refused = asyncio.run(adapted.run_async(args={"query": "crash", "limit": "2"}, tool_context=context))
    assert refused["status"] == "invalid_arguments"  # ADK itself would have passed "2" through


def test_the_name_only_context_reaches_the_function_under_adk_and_through_the_adapter() -> None:
    tool = tk.from_function(CASES["remember_preference"].obj)
    adapted = to_adk(tool)
    context = adk_context(adapted)
    result = asyncio.run(adapted.run_async(args={"key": "units", "value": "metric"}, tool_context=context))
    assert result == {"status": "ok", "data": "stored units for session s-1", "errors": [], "notices": []}
    assert context.state["user:units"] == "metric"


def test_calling_outside_adk_without_the_context_says_how_to_pass_it() -> None:
    tool = tk.from_function(CASES["search_issues"].obj)
    with pytest.raises(RuntimeConfigError) as caught:
        tool.call({"query": "login"})
    assert caught.value.slug == "missing_context"
    assert "to_adk" in caught.value.message
    assert tool.validate({"query": "login"}).ok  # validation alone needs no context
    context = adk_context(CASES["search_issues"].obj)
    result = tool.call({"query": "login"}, tk.ToolContext(extras={"tool_context": context}))
    assert result.data["session"] == "s-1"


def test_a_plain_function_with_an_adk_context_is_recognised_without_the_tool_object() -> None:
    tool = tk.from_function(search_issues)
    assert [i.name for i in tool.contract.injected] == ["tool_context"]
    assert tool.contract.framework is None
    assert not [lint for lint in tool.lints if lint.code.startswith("TK7")]


def test_a_plain_function_keeps_an_unannotated_tool_context_refused() -> None:
    from framework_tools.adk_tools import remember_preference

    with pytest.raises(tk.SignatureError) as caught:
        tk.from_function(remember_preference)
    assert caught.value.slug == "missing_annotation"  # the name counts only for ADK's own tool objects


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="pydantic refuses typing.TypedDict before Python 3.12 only")
def test_a_function_tool_adk_cannot_declare_is_built_with_a_lint() -> None:
    def ship(to: Address) -> str:
        """Ship the order.

        Args:
            to: Address the parcel goes to, as the user gave it.
        """
        return to["city"]

    function_tool = FunctionTool(ship)
    with pytest.raises(Exception, match=r"typing_extensions\.TypedDict"):
        function_tool._get_declaration()  # ADK itself refuses the stdlib TypedDict on Python 3.11
    tool = tk.from_function(function_tool)
    (refused,) = [lint for lint in tool.lints if lint.slug == "framework_refused"]
    assert "typing_extensions.TypedDict" in refused.message
    assert tool.call({"to": {"city": "Lyon"}}).data == "Lyon"
