"""Losses view: what the declaration could not carry (the validator still enforces all of it)."""

from __future__ import annotations

from toolkit._display._core import losses_html
from toolkit._tool import Tool
from toolkit.widgets._base import View, html_widget

__all__ = ["LossesView"]


class LossesView(View):
    """A table of ``tool.losses``: JSON pointer, keyword, original value, reason."""

    def __init__(self, tool: Tool) -> None:
        self.tool = tool
        self.widget = html_widget(losses_html(tool.losses))

    def summary(self) -> str:
        keywords = sorted({x.keyword for x in self.tool.losses})
        return f"Losses of {self.tool.name}: {len(self.tool.losses)}" + (
            f" ({', '.join(keywords)})" if keywords else ""
        )
