"""The context types of toolkit and of each agent framework, by qualified name: the one table of them.

:data:`CONTEXTS` names the classes a parameter's annotation marks it injected by (bare, generic, in a union, or
as a base class); :data:`MARKERS` the classes of ``Annotated`` metadata that do; :data:`DEFAULTS` the classes of
default values that do; :data:`BY_NAME` the parameter names a framework fills whatever their annotation
(applied only to that framework's own tool objects). Each entry says which framework fills the parameter and
why, in the words the tool's summary shows. Keys are definition sites, current and historical, and the public
import paths users write (string annotations are resolved to those).
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from typing import NamedTuple

__all__ = ["BY_NAME", "CONTEXTS", "DEFAULTS", "MARKERS", "Kind"]


class Kind(NamedTuple):
    """Who fills a parameter, and why (in the words the tool's summary shows)."""

    framework: str
    reason: str


def _table(*entries: tuple[Kind, tuple[str, ...]]) -> Mapping[str, Kind]:
    return types.MappingProxyType({path: kind for kind, paths in entries for path in paths})


_ADK = Kind("google-adk", "google-adk passes its ToolContext (session, state, artifacts) when it runs the tool")
CONTEXTS = _table(
    (
        _ADK,
        (
            "google.adk.agents.context.Context",  # 1.26+, 2.x: ToolContext = CallbackContext = Context
            "google.adk.agents.Context",
            "google.adk.Context",
            "google.adk.tools.tool_context.ToolContext",  # up to 1.25 a class of its own
            "google.adk.tools.ToolContext",
            "google.adk.agents.callback_context.CallbackContext",
            "google.adk.agents.CallbackContext",
        ),
    ),
    (
        Kind("langchain", "LangChain passes the run's callback manager to a tool's _run/_arun"),
        (
            "langchain_core.callbacks.manager.CallbackManagerForToolRun",
            "langchain_core.callbacks.CallbackManagerForToolRun",
            "langchain_core.callbacks.manager.AsyncCallbackManagerForToolRun",
            "langchain_core.callbacks.AsyncCallbackManagerForToolRun",
        ),
    ),
    (
        Kind("langchain", "LangChain passes the run's RunnableConfig"),
        ("langchain_core.runnables.config.RunnableConfig", "langchain_core.runnables.RunnableConfig"),
    ),
    (
        Kind("langgraph", "LangGraph passes the ToolRuntime (state, context, store, tool call id)"),
        (
            "langgraph.prebuilt.tool_node.ToolRuntime",
            "langgraph.prebuilt.ToolRuntime",
            "langchain.tools.ToolRuntime",
            "langchain_core.tools.base._DirectlyInjectedToolArg",
        ),
    ),
    (
        Kind("mcp", "the MCP server passes the request Context (logging, progress, session)"),
        (
            "mcp.server.fastmcp.server.Context",  # mcp 1.x
            "mcp.server.fastmcp.Context",
            "mcp.server.mcpserver.context.Context",  # mcp 2.x: FastMCP became MCPServer
            "mcp.server.mcpserver.Context",
        ),
    ),
    (
        Kind("fastmcp", "FastMCP passes the request Context (logging, progress, session)"),
        ("fastmcp.server.context.Context", "fastmcp.server.Context", "fastmcp.Context"),
    ),
    (Kind("fastmcp", "FastMCP passes the user session"), ("fastmcp.server.sessions.UserSession",)),
    (
        Kind("openai-agents", "the OpenAI Agents SDK passes the run context (RunContextWrapper / ToolContext)"),
        ("agents.run_context.RunContextWrapper", "agents.RunContextWrapper", "agents.tool_context.ToolContext"),
    ),
    (
        Kind("pydantic-ai", "pydantic-ai passes the RunContext (dependencies, usage, tool call id)"),
        ("pydantic_ai._run_context.RunContext", "pydantic_ai.RunContext", "pydantic_ai.tools.RunContext"),
    ),
    (
        Kind("agno", "agno passes the RunContext (run, session and user ids, session state)"),
        ("agno.run.base.RunContext", "agno.run.RunContext"),
    ),
    (
        Kind("agno", "agno passes the agent or team running the tool"),
        ("agno.agent.agent.Agent", "agno.agent.Agent", "agno.team.team.Team", "agno.team.Team"),
    ),
    (Kind("agno", "agno passes the FunctionCall being executed"), ("agno.tools.function.FunctionCall",)),
    (
        Kind("llama-index", "llama-index passes the workflow Context (state, events) when an agent runs the tool"),
        (
            "workflows.context.context.Context",  # llama-index-workflows, which llama-index-core re-exports
            "workflows.Context",
            "llama_index.core.workflow.Context",
            "llama_index.core.workflow.context.Context",
        ),
    ),
    (
        Kind("ag2", "AG2 passes the ConversationContext (stream, dependencies, variables) when it runs the tool"),
        ("ag2.context.ConversationContext", "ag2.ConversationContext"),
    ),
    (
        Kind("toolkit", "toolkit passes its ToolContext (session, call id, progress) in Tool.call"),
        ("toolkit._context.ToolContext", "toolkit.ToolContext"),
    ),
)
MARKERS = _table(
    (
        Kind("langchain", "LangChain leaves an InjectedToolArg to the caller, never the model"),
        ("langchain_core.tools.base.InjectedToolArg", "langchain_core.tools.InjectedToolArg"),
    ),
    (
        Kind("langchain", "LangChain fills an InjectedToolCallId with the tool call's id"),
        ("langchain_core.tools.base.InjectedToolCallId", "langchain_core.tools.InjectedToolCallId"),
    ),
    (
        Kind("langgraph", "LangGraph fills an InjectedState from the graph state"),
        (
            "langgraph.prebuilt.tool_node.InjectedState",
            "langgraph.prebuilt.InjectedState",
            "langchain.tools.InjectedState",
        ),
    ),
    (
        Kind("langgraph", "LangGraph fills an InjectedStore with the graph's store"),
        (
            "langgraph.prebuilt.tool_node.InjectedStore",
            "langgraph.prebuilt.InjectedStore",
            "langchain.tools.InjectedStore",
        ),
    ),
    (
        Kind("ag2", "AG2 fills an Inject/Variable/Context parameter from the conversation (FastDepends)"),
        ("fast_depends.library.model.CustomField", "fast_depends.library.CustomField"),
    ),
    (
        Kind("ag2", "FastDepends resolves a Depends(...) parameter by calling its dependency"),
        ("fast_depends.dependencies.model.Dependant",),
    ),
    (
        Kind("mcp", "the MCP server fills a Resolve(...) parameter from its resolver"),
        ("mcp.server.mcpserver.resolve.Resolve", "mcp.server.mcpserver.Resolve"),
    ),
)
DEFAULTS = _table(
    (
        Kind("fastmcp", "FastMCP resolves a dependency default (Depends, CurrentContext, ...) at call time"),
        ("uncalled_for.base.Dependency",),
    ),
    (
        Kind("ag2", "FastDepends resolves a Depends(...) default by calling its dependency"),
        ("fast_depends.dependencies.model.Dependant",),
    ),
)
_AGNO_NAMES = [
    "agent",
    "team",
    "run_context",
    "fc",
    "images",
    "videos",
    "audios",
    "files",
    "_agno_agent",
    "_agno_team",
    "_agno_run_context",
]
BY_NAME: Mapping[str, Mapping[str, str]] = {
    "google-adk": {
        "tool_context": "google-adk fills a parameter named tool_context with its ToolContext",
        "input_stream": "google-adk fills a parameter named input_stream with the live input stream",
    },
    "langchain": {
        "run_manager": "LangChain fills a parameter named run_manager with the run's callback manager",
        "callbacks": "LangChain fills a parameter named callbacks with the run's child callbacks",
    },
    "agno": {name: f"agno fills a parameter named {name} when it runs the tool" for name in _AGNO_NAMES},
}
