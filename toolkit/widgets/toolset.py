"""Toolset view: the tools built from a spec and the operations refused with their reasons; pick one to open."""

from __future__ import annotations

import os
from typing import Any

import ipywidgets as widgets

from toolkit._display._core import toolset_html
from toolkit._tool import Toolset
from toolkit.widgets._base import View, html_widget
from toolkit.widgets.tool import ToolView

__all__ = ["ToolsetView"]


class ToolsetView(View):
    """The toolset's tables, a picker of its tools, and the picked tool's :class:`ToolView` below."""

    def __init__(self, toolset: Toolset, *, golden_dir: str | os.PathLike[str] | None = None) -> None:
        self.toolset = toolset
        self.golden_dir = golden_dir
        self.opened: ToolView | None = None
        self.tables = html_widget(toolset_html(toolset))
        self.picker = widgets.Dropdown(
            options=[(tool.name, tool.name) for tool in toolset.tools],
            value=None,
            description="Open tool",
            style={"description_width": "initial"},
        )
        self.picker.observe(self._on_pick, names="value")
        self.slot = widgets.VBox([])
        self.widget = widgets.VBox([self.tables, self.picker, self.slot])

    def _on_pick(self, change: dict[str, Any]) -> None:
        if change["new"] is not None:
            self.open(change["new"])

    def open(self, name: str) -> ToolView:
        """Open the view of the tool called ``name`` (or with that operationId) below the tables."""
        self.opened = ToolView(self.toolset[name], golden_dir=self.golden_dir)
        self.slot.children = (self.opened.widget,)
        if self.picker.value != self.opened.tool.name:
            self.picker.value = self.opened.tool.name
        return self.opened

    def summary(self) -> str:
        lines = [
            f"Toolset view of {self.toolset.namespace}: {len(self.toolset.tools)} tools, "
            f"{len(self.toolset.rejected)} refused"
        ]
        lines += [f"  tool {t.name}" for t in self.toolset.tools]
        lines += [
            f"  refused {r.operation_id or r.method.upper() + ' ' + r.path}: {r.slug}" for r in self.toolset.rejected
        ]
        if self.opened is not None:
            lines.append(f"  opened {self.opened.tool.name}")
        return "\n".join(lines)
