"""Lints view: the known traps found in a tool (code, severity, path, message, fix)."""

from __future__ import annotations

from toolkit._display._core import lints_html
from toolkit._tool import Tool
from toolkit.widgets._base import View, html_widget

__all__ = ["LintsView"]


class LintsView(View):
    """A table of ``tool.lints``; empty when the tool avoids every known trap."""

    def __init__(self, tool: Tool) -> None:
        self.tool = tool
        self.widget = html_widget(lints_html(tool.lints))

    def summary(self) -> str:
        found = ", ".join(f"{x.code} {x.slug} at {x.path or '(tool)'}" for x in self.tool.lints)
        return f"Lints of {self.tool.name}: {len(self.tool.lints)}" + (f" ({found})" if found else "")
