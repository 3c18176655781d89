"""google-adk tools, as ADK's documentation writes them: ``tool_context: ToolContext`` and state writes."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from google.adk.agents.callback_context import CallbackContext
from google.adk.tools import FunctionTool, ToolContext
from pydantic import BaseModel, Field

from framework_tools import case


class DateWindow(BaseModel):
    """A window of calendar days.

    Attributes:
        start: First day of the window (ISO 8601, inclusive).
        end: Last day of the window (ISO 8601, inclusive); open-ended when left out.
    """

    start: date
    end: date | None = None


def search_issues(
    query: str,
    tool_context: ToolContext,
    window: DateWindow | None = None,
    limit: int = 10,
) -> dict[str, Any]:
    """Search the issue tracker by free text.

    Args:
        query: Words to look for in issue titles and bodies.
        tool_context: The ADK context; holds the session state.
        window: Only issues updated inside this window of days.
        limit: Largest number of issues to return (1-100).
    """
    tool_context.state["last_query"] = query
    return {
        "session": tool_context.session.id,
        "call": tool_context.function_call_id,
        "query": query,
        "window": window.model_dump(mode="json") if window else None,
        "limit": limit,
    }


def remember_preference(
    key: Annotated[str, Field(description="Name of the preference, such as 'language' or 'units'.")],
    value: Annotated[str, Field(description="Value to store for the preference, as the user said it.")],
    tool_context,  # type: ignore[no-untyped-def]  # ADK fills it by name even without an annotation
) -> str:
    """Store one user preference in the session state so later turns can use it."""
    tool_context.state[f"user:{key}"] = value
    return f"stored {key} for session {tool_context.session.id}"


def end_of_turn_summary(topic: str, callback_context: CallbackContext) -> str:
    """Summarise the turn for the given topic.

    Args:
        topic: What the summary is about, in a few words.
        callback_context: The ADK callback context (the same object as ToolContext in ADK 2).
    """
    return f"{topic}: {callback_context.invocation_id}"


CASES = {
    "search_issues": case(FunctionTool(search_issues), "google-adk", {"tool_context"}, {"query", "window", "limit"}),
    "remember_preference": case(FunctionTool(remember_preference), "google-adk", {"tool_context"}, {"key", "value"}),
    "end_of_turn_summary": case(FunctionTool(end_of_turn_summary), "google-adk", {"callback_context"}, {"topic"}),
}
