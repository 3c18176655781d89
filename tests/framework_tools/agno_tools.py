"""agno tools: ``@tool`` with ``run_context: RunContext`` (injected by name and type) and ``agent``."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from agno.agent import Agent
from agno.run import RunContext
from agno.tools import tool

from framework_tools import case


class Item(TypedDict):
    """One line of a shopping list (agno passes nested arguments as plain dicts, so a TypedDict fits).

    Attributes:
        name: What to buy, as the user wrote it.
        quantity: How many units to buy; one when left out.
    """

    name: str
    quantity: NotRequired[int]


@tool
def add_to_list(items: list[Item], run_context: RunContext, agent: Agent | None = None) -> dict[str, Any]:
    """Add items to the user's shopping list, kept in the session state.

    Args:
        items: The lines to add.
    """
    stored = run_context.session_state.setdefault("shopping", [])
    stored.extend(item["name"] for item in items)
    return {"session": run_context.session_id, "agent": agent.name if agent else None, "list": list(stored)}


CASES = {
    "add_to_list": case(add_to_list, "agno", {"run_context", "agent"}, {"items"}),
}
