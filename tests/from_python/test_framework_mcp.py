"""MCP server tools (FastMCP and the MCP SDK's MCPServer): ``ctx: Context`` and dependency defaults injected,
the tools run through each server's in-memory client, which fills them."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("fastmcp", reason="fastmcp is not installed (optional extra `frameworks`)")
pytest.importorskip("mcp.server.mcpserver", reason="mcp 2.x is not installed (optional extra `mcp`)")

from fastmcp import Client
from framework_tools.mcp_tools import CASES, sdk_server, server
from google.genai import types as genai_types
from mcp import Client as SdkClient

import toolkit as tk


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_context_is_injected_and_the_declaration_hides_it(name: str) -> None:
    case = CASES[name]
    tool = tk.from_function(case.obj, effect="read")
    assert tool.name == name
    assert {i.name for i in tool.contract.injected} == case.injected
    assert {i.framework for i in tool.contract.injected} == {case.framework}
    assert set(tool.declaration["parameters"]["properties"]) == case.visible
    genai_types.FunctionDeclaration.model_validate(tool.declaration)


@pytest.mark.parametrize("name", sorted(CASES))
def test_descriptions_are_complete(name: str) -> None:
    tool = tk.from_function(CASES[name].obj, effect="read")
    assert tool.description
    assert "Args:" not in tool.description
    assert not [lint for lint in tool.lints if lint.slug == "missing_parameter_description"]
    # the server's schema agrees, except that no server reads a nested model's Attributes: section
    nested = {"search_issues": {"filters.labels", "filters.state"}, "cancel_order": set()}[name]
    assert {(lint.slug, lint.path) for lint in tool.lints if lint.code.startswith("TK7")} == {
        ("framework_description", path) for path in nested
    }


def test_validate_no_longer_demands_the_context() -> None:
    tool = tk.from_function(CASES["search_issues"].obj, effect="read")
    assert tool.validate({"query": "login"}).ok
    assert "ctx" not in tool.args_schema.get("required", [])


def test_fastmcp_fills_the_context_and_the_dependency_through_its_client() -> None:
    progress: list[tuple[float, float | None]] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total))

    async def run() -> Any:
        async with Client(server, progress_handler=on_progress) as client:
            return await client.call_tool("search_issues", {"query": "login", "filters": {"labels": ["bug"]}})

    result = asyncio.run(run())
    assert not result.is_error
    assert result.data["server"] == "issues"
    assert result.data["request"]  # the request id only a live Context knows
    assert (result.data["tenant"], result.data["labels"]) == ("acme", ["bug"])
    assert progress == [(1.0, 2.0)]


def test_the_tool_object_from_the_server_builds_the_same_tool() -> None:
    registered = asyncio.run(server.get_tool("search_issues"))
    from_object = tk.from_function(registered, effect="read")
    from_function = tk.from_function(CASES["search_issues"].obj, effect="read")
    assert from_object.declaration == from_function.declaration
    assert from_object.contract.injected == from_function.contract.injected


def test_the_mcp_sdk_fills_its_context_through_its_client() -> None:
    async def run() -> Any:
        async with SdkClient(sdk_server) as client:
            return await client.call_tool("cancel_order", {"order_id": "ord_00000042", "reason": "Too late."})

    result = asyncio.run(run())
    assert not result.is_error
    text = result.content[0].text
    assert text.startswith("cancelled ord_00000042 in request ")
    assert text.removeprefix("cancelled ord_00000042 in request ")  # a live request id
