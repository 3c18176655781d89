"""MCP server tools: FastMCP (``fastmcp``) with ``ctx: Context`` and a ``Depends`` default, and the MCP SDK's
``MCPServer`` (``mcp`` 2.x, formerly ``mcp.server.fastmcp``) with its own ``Context``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastmcp import Context, FastMCP
from fastmcp.dependencies import Depends
from mcp.server.mcpserver import Context as SdkContext
from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field

from framework_tools import case


class Filters(BaseModel):
    """Narrow a search.

    Attributes:
        labels: Only issues carrying every one of these labels.
        state: Only issues in this state.
    """

    labels: list[str] = []
    state: Literal["open", "closed", "all"] = "open"


def current_tenant() -> str:
    """The shop the server runs for (a dependency FastMCP resolves, never the model)."""
    return "acme"


server = FastMCP("issues")


@server.tool
async def search_issues(
    query: str,
    ctx: Context,
    filters: Filters | None = None,
    limit: int = 10,
    tenant: str = Depends(current_tenant),
) -> dict[str, Any]:
    """Search the issue tracker by free text.

    Args:
        query: Words to look for in issue titles and bodies.
        ctx: The FastMCP request context.
        filters: Extra conditions the issues must meet.
        limit: Largest number of issues to return (1-100).
        tenant: The shop, resolved by the server.
    """
    await ctx.report_progress(1, 2, "searching")
    return {
        "server": ctx.fastmcp.name,
        "request": ctx.request_id,
        "tenant": tenant,
        "query": query,
        "labels": filters.labels if filters else [],
        "limit": limit,
    }


sdk_server = MCPServer("orders")


@sdk_server.tool()
async def cancel_order(
    order_id: Annotated[str, Field(description="The order's id, ord_ and 8 digits.", pattern=r"^ord_[0-9]{8}$")],
    ctx: SdkContext,
    reason: Annotated[str, Field(description="Why the customer cancels, in their words.")] = "",
) -> str:
    """Cancel an order that has not shipped yet."""
    await ctx.report_progress(1, 1)
    return f"cancelled {order_id} in request {ctx.request_id}"


CASES = {
    "search_issues": case(search_issues, "fastmcp", {"ctx", "tenant"}, {"query", "filters", "limit"}),
    "cancel_order": case(sdk_server._tool_manager.get_tool("cancel_order"), "mcp", {"ctx"}, {"order_id", "reason"}),
}
