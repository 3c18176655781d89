"""CrewAI tools: a ``BaseTool`` subclass with an ``args_schema`` and a typed ``_run``, one whose ``_run`` takes
only ``**kwargs`` (its ``args_schema`` is all there is), and ``@tool("Name with spaces")`` over a function."""

# no `from __future__ import annotations`: CrewAI's @tool builds args_schema from the annotation objects
import json
from typing import Any, Literal

from crewai.tools import BaseTool, tool
from pydantic import BaseModel, Field

from framework_tools import case


class LookupArgs(BaseModel):
    """Arguments of the customer lookup."""

    email: str = Field(description="The customer's e-mail address, as they signed up with it.")
    include_orders: bool = Field(False, description="Also list the customer's last orders.")


class LookupCustomer(BaseTool):
    name: str = "Lookup Customer"
    description: str = "Find a customer's account by e-mail address, with their open tickets."
    args_schema: type[BaseModel] = LookupArgs

    def _run(self, email: str, include_orders: bool = False) -> str:
        return json.dumps({"email": email, "orders": [] if include_orders else None})


class RefundArgs(BaseModel):
    """Arguments of a refund."""

    order_id: str = Field(description="The order's number, such as 'A-1042'.")
    amount_cents: int = Field(gt=0, le=50_000, description="How much to refund, in euro cents.")
    reason: Literal["damaged", "late", "other"] = Field("other", description="Why the customer is refunded.")


class IssueRefund(BaseTool):
    """A tool class as CrewAI's own tools often are: ``_run(**kwargs)`` validated against ``args_schema``."""

    name: str = "issue_refund"
    description: str = "Refund part or all of an order to the customer's original payment method."
    args_schema: type[BaseModel] = RefundArgs

    def _run(self, **kwargs: Any) -> str:
        return f"refunded {kwargs['amount_cents']} on {kwargs['order_id']} ({kwargs.get('reason', 'other')})"


@tool("Convert Temperature")
def convert_temperature(celsius: float, scale: Literal["F", "K"] = "F") -> float:
    """Convert a temperature from degrees Celsius to Fahrenheit or Kelvin."""
    return celsius * 9 / 5 + 32 if scale == "F" else celsius + 273.15


CASES = {
    "lookup_customer": case(LookupCustomer(), "crewai", set(), {"email", "include_orders"}),
    "issue_refund": case(IssueRefund(), "crewai", set(), {"order_id", "amount_cents", "reason"}),
    "convert_temperature": case(convert_temperature, "crewai", set(), {"celsius", "scale"}),
}
