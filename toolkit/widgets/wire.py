"""Wire view: the exact payload each provider's SDK sends for the tool, picked by dialect, with that dialect's
losses and its size in bytes (or why the dialect refuses the tool)."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from toolkit._display._markup import plural
from toolkit._display._wire import payload_html
from toolkit._lowering import DIALECTS
from toolkit._tool import Tool
from toolkit.widgets._base import View, html_widget

__all__ = ["WireView"]


def _label(tool: Tool, dialect: str) -> str:
    payload = tool.payload(dialect)
    if payload.refusal is not None:
        return f"{dialect} (refused)"
    return f"{dialect} · {payload.size} bytes · {plural(len(payload.losses), 'loss')}"


class WireView(View):
    """A dialect picker over ``tool.payload(dialect)``: the payload, its losses and size."""

    def __init__(self, tool: Tool, dialect: str = "gemini") -> None:
        self.tool = tool
        self.picker = widgets.Dropdown(
            options=[(_label(tool, name), name) for name in DIALECTS],
            value=dialect,
            description="Dialect",
            style={"description_width": "initial"},
            layout=widgets.Layout(width="auto"),
        )
        self.body = html_widget()
        self.picker.observe(lambda _change: self._draw(), names="value")
        self.widget = widgets.VBox([self.picker, self.body])
        self._draw()

    @property
    def dialect(self) -> str:
        return str(self.picker.value)

    def _draw(self) -> None:
        self.body.value = payload_html(self.tool.payload(self.dialect))

    def show(self, dialect: str) -> Any:
        """Pick ``dialect``; the payload it shows."""
        self.picker.value = dialect
        return self.tool.payload(dialect)

    def summary(self) -> str:
        payload = self.tool.payload(self.dialect)
        if payload.refusal is not None:
            return f"Wire of {self.tool.name} in {self.dialect}: refused ({payload.refusal.slug})"
        return (
            f"Wire of {self.tool.name} in {self.dialect}: sent as {payload.name}, {payload.size} bytes, "
            f"{plural(len(payload.losses), 'loss')} ({len(DIALECTS)} dialects)"
        )
