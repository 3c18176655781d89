"""AG2 tools: ``@tool`` over a function with ``Field`` descriptions, and an async one whose conversation
context, ``Inject``/``Variable`` values and ``Depends`` dependency AG2 fills (FastDepends)."""

from __future__ import annotations

from typing import Annotated, Any

from ag2.annotations import Context, Inject, Variable
from ag2.tools import tool
from fast_depends import Depends
from pydantic import Field

from framework_tools import case


@tool
def plan_trip(
    city: Annotated[str, Field(description="The city to visit, in English.")],
    days: Annotated[int, Field(ge=1, le=14, description="How many days the trip lasts.")] = 3,
) -> str:
    """Plan a city trip, one line per day."""
    return "\n".join(f"day {day + 1}: {city}" for day in range(days))


def rates() -> dict[str, float]:
    return {"EUR": 1.0, "USD": 1.1}


@tool(description="Price an order in the customer's currency.")
async def price_order(
    total: Annotated[float, Field(description="The order's total in euros.")],
    context: Context,
    table: Annotated[dict[str, float], Depends(rates)],
    currency: Annotated[str, Inject()],
    rounding: Annotated[int, Variable()] = 2,
) -> dict[str, Any]:
    return {"amount": round(total * table[currency], rounding), "currency": currency}


CASES = {
    "plan_trip": case(plan_trip, "ag2", set(), {"city", "days"}),
    "price_order": case(price_order, "ag2", {"context", "table", "currency", "rounding"}, {"total"}),
}
