"""LangChain and LangGraph tools: ``@tool`` functions, a ``BaseTool`` subclass with an ``args_schema`` model,
``run_manager``/``callbacks``, ``RunnableConfig``, ``InjectedToolArg``, ``InjectedToolCallId``, ``InjectedState``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from langchain_core.callbacks import AsyncCallbackManagerForToolRun, CallbackManagerForToolRun
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, InjectedToolArg, InjectedToolCallId, tool
from langgraph.prebuilt import InjectedState
from pydantic import BaseModel, Field

from framework_tools import case


class Address(BaseModel):
    """Where a parcel goes."""

    street: str = Field(description="Street and house number, as written on the door.")
    city: str = Field(description="City or town name.")
    country: str = Field(description="ISO 3166-1 alpha-2 country code, such as 'FR'.")


class QuoteShippingArgs(BaseModel):
    """Arguments of quote_shipping."""

    weight_grams: int = Field(gt=0, description="Parcel weight in grams, packaging included.")
    destination: Address = Field(description="Where the parcel goes.")
    speed: Literal["standard", "express"] = Field("standard", description="Delivery speed the customer chose.")


class QuoteShipping(BaseTool):
    """A LangChain tool class: the descriptions live in its args_schema model, not in a docstring."""

    name: str = "quote_shipping"
    description: str = "Quote the price of shipping one parcel, in euro cents, before the customer orders."
    args_schema: type[BaseModel] = QuoteShippingArgs

    def _run(
        self,
        weight_grams: int,
        destination: Address,
        speed: str = "standard",
        run_manager: CallbackManagerForToolRun | None = None,
    ) -> dict[str, Any]:
        if run_manager is not None:
            run_manager.on_text(f"quoting {weight_grams} g to {destination.country}")
        base = 450 if destination.country == "FR" else 1200
        return {
            "cents": base + weight_grams // 100 + (900 if speed == "express" else 0),
            "run_id": str(run_manager.run_id) if run_manager is not None else None,
        }

    async def _arun(
        self,
        weight_grams: int,
        destination: Address,
        speed: str = "standard",
        run_manager: AsyncCallbackManagerForToolRun | None = None,
    ) -> dict[str, Any]:
        if run_manager is not None:
            await run_manager.on_text("quoting asynchronously")
        return self._run(weight_grams, destination, speed)


@tool(parse_docstring=True)
def find_orders(
    customer_id: str,
    tenant: Annotated[str, InjectedToolArg],
    config: RunnableConfig,
    status: Literal["open", "shipped", "returned"] = "open",
    limit: int = 20,
) -> dict[str, Any]:
    """Find a customer's orders by status.

    Args:
        customer_id: The customer's id, as shown on their account page (cus_ and 8 digits).
        tenant: The shop the request is for; the application passes it, never the model.
        config: The run's configuration.
        status: Only orders in this state.
        limit: Largest number of orders to return (1-100).
    """
    return {
        "tenant": tenant,
        "customer": customer_id,
        "status": status,
        "limit": limit,
        "tags": list(config.get("tags") or []),
    }


@tool
def annotate_order(
    order_id: str,
    note: str,
    call_id: Annotated[str, InjectedToolCallId],
    callbacks: Any = None,
    run_manager: Any = None,
) -> str:
    """Attach a note to an order, for the support team to read.

    Args:
        order_id: The order's id (ord_ and 8 digits).
        note: The text of the note, one or two sentences.
    """
    return f"{order_id}: {note} (call {call_id}, callbacks {'yes' if callbacks is not None else 'no'})"


@tool
def cart_total(currency: str, state: Annotated[dict[str, Any], InjectedState]) -> str:
    """Total the cart held in the graph state.

    Args:
        currency: ISO 4217 code the total is shown in, such as 'EUR'.
    """
    return f"{sum(state.get('cart', []))} {currency}"


CASES = {
    "quote_shipping": case(QuoteShipping(), "langchain", {"run_manager"}, {"weight_grams", "destination", "speed"}),
    "find_orders": case(find_orders, "langchain", {"tenant", "config"}, {"customer_id", "status", "limit"}),
    "annotate_order": case(annotate_order, "langchain", {"call_id", "callbacks", "run_manager"}, {"order_id", "note"}),
    "cart_total": case(cart_total, "langgraph", {"state"}, {"currency"}),
}
