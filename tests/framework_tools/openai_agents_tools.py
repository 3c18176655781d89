"""OpenAI Agents SDK tools: ``@function_tool`` with ``RunContextWrapper[...]`` first, and one with its
``ToolContext`` (which carries the tool call's id)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from agents import RunContextWrapper, function_tool
from agents.tool_context import ToolContext as AgentsToolContext
from pydantic import BaseModel, Field

from framework_tools import case


@dataclass
class Account:
    """The application's own context object: who is signed in."""

    user_id: str
    plan: Literal["free", "pro"] = "free"


class Budget(BaseModel):
    """Spending limits for one trip."""

    currency: str = Field(description="ISO 4217 code the limits are in, such as 'EUR'.")
    nightly_max: int = Field(description="Most the traveller pays per night, in whole units of the currency.")


@function_tool
def find_hotels(
    ctx: RunContextWrapper[Account],
    city: str,
    nights: int,
    budget: Budget | None = None,
) -> dict[str, Any]:
    """Find hotels with free rooms in a city for a number of nights.

    Args:
        city: City to stay in, as the traveller named it.
        nights: How many nights to stay (1-30).
        budget: Spending limits; no limit when left out.
    """
    return {
        "user": ctx.context.user_id,
        "plan": ctx.context.plan,
        "city": city,
        "nights": nights,
        "cap": budget.nightly_max if budget else None,
    }


@function_tool(name_override="book_room")
def book(ctx: AgentsToolContext[Account], hotel_id: str, nights: int) -> str:
    """Book a room in a hotel found by find_hotels.

    Args:
        hotel_id: The hotel's id from find_hotels (htl_ and 6 digits).
        nights: How many nights to book (1-30).
    """
    return f"{ctx.context.user_id} booked {hotel_id} for {nights} nights in call {ctx.tool_call_id}"


CASES = {
    "find_hotels": case(find_hotels, "openai-agents", {"ctx"}, {"city", "nights", "budget"}),
    "book_room": case(book, "openai-agents", {"ctx"}, {"hotel_id", "nights"}),
}
