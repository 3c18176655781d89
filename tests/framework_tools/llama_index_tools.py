"""llama-index tools: ``FunctionTool.from_defaults`` over a sync and an async function, a tool spec's
``to_tool_list()`` (bound methods, one async), a function asking for the workflow ``Context``, and a
``QueryEngineTool`` (no function of its own: ``call(input=...)`` described by ``metadata.fn_schema``)."""

# no `from __future__ import annotations`: llama-index builds fn_schema from the annotation objects
from typing import Annotated

from llama_index.core.query_engine import CustomQueryEngine
from llama_index.core.tools import FunctionTool, QueryEngineTool, ToolMetadata
from llama_index.core.tools.tool_spec.base import BaseToolSpec
from llama_index.core.workflow import Context
from pydantic import Field

from framework_tools import case


def track_parcel(
    tracking_number: Annotated[str, Field(description="The carrier's tracking number, letters and digits.")],
    carrier: Annotated[str, Field(description="The carrier's name, such as 'DHL' or 'UPS'.")] = "DHL",
) -> str:
    """Tell where a parcel is and when it should arrive."""
    return f"{carrier} {tracking_number}: in transit"


async def rate_answer(
    answer_id: Annotated[int, Field(description="The answer's identifier.")],
    stars: Annotated[int, Field(ge=1, le=5, description="The rating, from 1 to 5 stars.")],
) -> str:
    """Record the user's rating of an answer."""
    return f"{answer_id}: {stars} stars"


class CalendarSpec(BaseToolSpec):
    """A tool spec: each listed method becomes a FunctionTool."""

    spec_functions = ["list_events", "cancel_event"]  # noqa: RUF012 (llama-index's own class attribute)

    def list_events(self, day: str, limit: int = 10) -> list[str]:
        """List the events of one day of the user's calendar.

        Args:
            day: The day, as an ISO 8601 date such as '2026-12-03'.
            limit: How many events to list at most.
        """
        return [f"{day} #{i}" for i in range(min(limit, 2))]

    async def cancel_event(self, event_id: str, notify: bool = True) -> str:
        """Cancel an event of the user's calendar.

        Args:
            event_id: The event's identifier, as listed by list_events.
            notify: Tell the other attendees.
        """
        return f"cancelled {event_id}{' (notified)' if notify else ''}"


async def remember(ctx: Context, fact: Annotated[str, Field(description="The fact to remember, one sentence.")]) -> str:
    """Remember a fact for the rest of the conversation."""
    facts = await ctx.store.get("facts", default=[])
    await ctx.store.set("facts", [*facts, fact])
    return fact


class Handbook(CustomQueryEngine):
    """A query engine over the staff handbook (answers from a dictionary here)."""

    def custom_query(self, query_str: str) -> str:
        return f"handbook: {query_str}"


handbook = QueryEngineTool(
    query_engine=Handbook(),
    metadata=ToolMetadata(name="handbook", description="Answer questions about the staff handbook."),
)
calendar = {tool.metadata.name: tool for tool in CalendarSpec().to_tool_list()}

parcel = FunctionTool.from_defaults(track_parcel)
CASES = {
    "track_parcel": case(parcel, "llama-index", set(), {"tracking_number", "carrier"}),
    "rate_answer": case(FunctionTool.from_defaults(async_fn=rate_answer), "llama-index", set(), {"answer_id", "stars"}),
    "list_events": case(calendar["list_events"], "llama-index", set(), {"day", "limit"}),
    "cancel_event": case(calendar["cancel_event"], "llama-index", set(), {"event_id", "notify"}),
    "remember": case(FunctionTool.from_defaults(async_fn=remember), "llama-index", {"ctx"}, {"fact"}),
    "handbook": case(handbook, "llama-index", set(), {"input"}),
}
