"""AG2 before 1.0 (the ``autogen`` package): ``Tool(func_or_tool=...)`` over an ``Annotated`` function, and
``@tool`` over one whose ``Depends(...)`` dependency AG2 resolves itself."""

# no `from __future__ import annotations`: AG2 reads the annotation objects of the function
from typing import Annotated

from autogen.tools import Depends, Tool, tool

from framework_tools import case


def check_stock(
    sku: Annotated[str, "The product's stock-keeping unit, such as 'LAMP-042'."],
    warehouse: Annotated[str, "The warehouse's code; the main one when left out."] = "MAIN",
) -> str:
    """Tell how many units of a product a warehouse holds."""
    return f"{sku}@{warehouse}: 12"


class Prices:
    """A dependency AG2 resolves when it calls the tool."""

    def __init__(self) -> None:
        self.table = {"LAMP-042": 3999}


@tool(description="Quote a product's price in euro cents.")
def quote_price(
    sku: Annotated[str, "The product's stock-keeping unit."],
    prices: Annotated[Prices, Depends(Prices)],
) -> int:
    return prices.table[sku]


CASES = {
    "check_stock": case(
        Tool(name="check_stock", description="Check stock levels.", func_or_tool=check_stock),
        "ag2",
        set(),
        {"sku", "warehouse"},
    ),
    "quote_price": case(quote_price, "ag2", set(), {"sku"}),
}
