"""Tools whose context types are imported for type checking only (the habit of typed codebases): the
annotations stay strings that cannot be evaluated, and toolkit must still recognise every context without
importing a single framework. Nothing here imports a framework at run time."""

from __future__ import annotations

import typing as t
from typing import TYPE_CHECKING, Annotated, Any, Optional

if TYPE_CHECKING:
    import agents
    from agno.run import RunContext as AgnoRunContext
    from fastmcp import Context
    from google.adk.tools import ToolContext
    from langchain_core.callbacks import CallbackManagerForToolRun
    from langchain_core.tools import InjectedToolArg
    from langgraph.prebuilt import InjectedState, InjectedStore
    from mcp.server.mcpserver import Context as McpContext
    from pydantic_ai import RunContext as RC


def adk_search(query: str, tool_context: ToolContext) -> str:
    """Search.

    Args:
        query: Words to look for.
    """
    return query


def agents_lookup(wrapper: agents.RunContextWrapper[dict[str, Any]], key: str) -> str:
    """Look a key up.

    Args:
        key: The key to look up.
    """
    return key


def pydantic_ai_greet(ctx: RC[int], name: str) -> str:
    """Greet someone.

    Args:
        name: Who to greet.
    """
    return name


def fastmcp_optional(query: str, ctx: Optional["Context"] = None) -> str:  # noqa: UP037, UP045 - the form under test
    """Search with an optional context.

    Args:
        query: Words to look for.
    """
    return query


def mcp_union(order_id: str, ctx: McpContext | None = None) -> str:
    """Cancel an order.

    Args:
        order_id: The order's id.
    """
    return order_id


def langchain_markers(
    query: str,
    user: Annotated[str, InjectedToolArg],
    cart: t.Annotated[dict[str, Any], InjectedState("cart")],
    store: Annotated[Any, InjectedStore()],
    run_manager: CallbackManagerForToolRun | None = None,
) -> str:
    """Search with injected arguments.

    Args:
        query: Words to look for.
    """
    return query


def agno_context(run_context: AgnoRunContext, item: str) -> str:
    """Add an item.

    Args:
        item: What to add.
    """
    return item


def context_or_text(value: str | RC[int]) -> str:
    """A union of a context and data, which no runtime can fill honestly."""
    return str(value)


EXPECTED: dict[str, dict[str, str]] = {
    "adk_search": {"tool_context": "google-adk"},
    "agents_lookup": {"wrapper": "openai-agents"},
    "pydantic_ai_greet": {"ctx": "pydantic-ai"},
    "fastmcp_optional": {"ctx": "fastmcp"},
    "mcp_union": {"ctx": "mcp"},
    "langchain_markers": {"user": "langchain", "cart": "langgraph", "store": "langgraph", "run_manager": "langchain"},
    "agno_context": {"run_context": "agno"},
}
