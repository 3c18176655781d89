"""haystack tools: ``create_tool_from_function`` with ``Annotated`` descriptions, ``@tool`` with a reST
docstring, a hand-written ``Tool`` whose function takes ``**kwargs`` (its JSON Schema is all there is), and a
``ComponentTool`` over a component whose ``run`` takes one input from the agent's state."""

from __future__ import annotations

import os
from typing import Annotated, Any, Literal

os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")  # no telemetry from a test run

from haystack import component
from haystack.tools import ComponentTool, Tool, create_tool_from_function, tool

from framework_tools import case


def book_table(
    restaurant: Annotated[str, "The restaurant's name as listed on the booking site."],
    guests: Annotated[int, "How many people the table is for, the booker included."],
    seating: Annotated[Literal["inside", "terrace"], "Where the table should be."] = "inside",
) -> dict[str, Any]:
    """Book a table at a restaurant for tonight."""
    return {"restaurant": restaurant, "guests": guests, "seating": seating}


@tool
def count_words(text: str, unique: bool = False) -> int:
    """Count the words of a text.

    :param text: The text to count the words of.
    :param unique: Count each distinct word once.
    """
    words = text.lower().split()
    return len(set(words)) if unique else len(words)


def _archive(**kwargs: Any) -> dict[str, Any]:
    return {"archived": kwargs["ticket"], "labels": kwargs.get("labels", [])}


archive_ticket = Tool(
    name="archive_ticket",
    description="Archive a support ticket once the customer confirmed it is solved.",
    parameters={
        "type": "object",
        "properties": {
            "ticket": {"type": "integer", "description": "The ticket's number, as shown in its subject line."},
            "labels": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Labels to keep on the archived ticket.",
            },
        },
        "required": ["ticket"],
    },
    function=_archive,
)


@component
class Translator:
    """Translate a text into the user's language."""

    @component.output_types(text=str)
    def run(self, text: str, formal: bool = False, language: str = "fr") -> dict[str, str]:
        """Translate a text.

        :param text: The text to translate, in any language.
        :param formal: Use the formal form of address.
        :param language: The language to translate into; the agent fills it from the user's profile.
        """
        return {"text": f"[{language}{'/formal' if formal else ''}] {text}"}


translate = ComponentTool(component=Translator(), name="translate", inputs_from_state={"user_language": "language"})

CASES = {
    "book_table": case(create_tool_from_function(book_table), "haystack", set(), {"restaurant", "guests", "seating"}),
    "count_words": case(count_words, "haystack", set(), {"text", "unique"}),
    "archive_ticket": case(archive_ticket, "haystack", set(), {"ticket", "labels"}),
    "translate": case(translate, "haystack", {"language"}, {"text", "formal"}),
}
