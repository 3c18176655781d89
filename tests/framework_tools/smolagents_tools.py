"""smolagents tools: ``@tool`` (the function becomes a static ``forward``), a ``Tool`` subclass whose
``inputs`` describe a typed ``forward``, one whose ``forward`` is not annotated at all, and the library's own
``PythonInterpreterTool``, ``UserInputTool`` and ``FinalAnswerTool``."""

from __future__ import annotations

from typing import Any, ClassVar

from smolagents import Tool, tool
from smolagents.default_tools import FinalAnswerTool, PythonInterpreterTool, UserInputTool

from framework_tools import case


@tool
def convert_currency(amount: float, source: str, target: str = "EUR") -> str:
    """Convert an amount of money between two currencies at today's rate.

    Args:
        amount: How much money to convert, in the source currency.
        source: ISO 4217 code of the currency the amount is in, such as 'USD'.
        target: ISO 4217 code of the currency to convert to.
    """
    return f"{amount:.2f} {source} in {target}"


class SearchCatalogue(Tool):
    name = "search_catalogue"
    description = "Search the shop's catalogue for products whose title or description matches the query."
    inputs: ClassVar[dict[str, dict[str, Any]]] = {
        "query": {"type": "string", "description": "Words to look for in product titles and descriptions."},
        "limit": {"type": "integer", "description": "How many products to return at most.", "nullable": True},
        "in_stock": {"type": "boolean", "description": "Only list products that can ship today.", "nullable": True},
    }
    output_type = "array"

    def forward(self, query: str, limit: int | None = None, in_stock: bool | None = None) -> list[str]:
        found = [f"{query} #{i}" for i in range(limit or 2)]
        return found if not in_stock else found[:1]


class TagPhotos(Tool):
    """A class tool as smolagents' own default tools write some of theirs: ``forward`` has no annotations."""

    name = "tag_photos"
    description = "Attach tags to the photos of an album."
    inputs: ClassVar[dict[str, dict[str, Any]]] = {
        "album": {"type": "string", "description": "The album's identifier, as shown in its URL."},
        "tags": {"type": "array", "description": "The tags to attach to every photo of the album."},
        "note": {
            "type": "string",
            "description": "A note kept with the change, for the album's history.",
            "nullable": True,
        },
    }
    output_type = "object"

    def forward(self, album, tags, note=None):  # type: ignore[no-untyped-def]
        return {"album": album, "tags": list(tags), "note": note}


CASES = {
    "convert_currency": case(convert_currency, "smolagents", set(), {"amount", "source", "target"}),
    "search_catalogue": case(SearchCatalogue(), "smolagents", set(), {"query", "limit", "in_stock"}),
    "tag_photos": case(TagPhotos(), "smolagents", set(), {"album", "tags", "note"}),
    "python_interpreter": case(PythonInterpreterTool(), "smolagents", set(), {"code"}),
    "user_input": case(UserInputTool(), "smolagents", set(), {"question"}),
    "final_answer": case(FinalAnswerTool(), "smolagents", set(), {"answer"}),
}
