"""Tool view: one tab per aspect of a tool — declaration, lints, losses, fixtures, playground, binding (OpenAPI
tools), wire and golden."""

from __future__ import annotations

import os
from typing import Any

import ipywidgets as widgets

from toolkit._display._markup import esc
from toolkit._fixtures import fire
from toolkit._tool import Tool
from toolkit.widgets._base import View
from toolkit.widgets.binding import BindingView
from toolkit.widgets.declaration import DeclarationView
from toolkit.widgets.fixtures import FixturesView
from toolkit.widgets.golden import GoldenView
from toolkit.widgets.lints import LintsView
from toolkit.widgets.losses import LossesView
from toolkit.widgets.playground import Playground
from toolkit.widgets.wire import WireView

__all__ = ["ToolView"]


class ToolView(View):
    """Every view of one tool in tabs. Each view owns its state (the fixtures and the playground each have their
    own envelope inspector), so one view's output never changes because another was used.

    ``report`` is the tool's fixture report (``tk.fire(tool)`` when omitted).
    """

    def __init__(self, tool: Tool, *, golden_dir: str | os.PathLike[str] | None = None, report: Any = None) -> None:
        self.tool = tool
        self.declaration = DeclarationView(tool)
        self.lints = LintsView(tool)
        self.losses = LossesView(tool)
        self.fixtures = FixturesView(report if report is not None else fire(tool), name=tool.name)
        self.playground = Playground(tool)
        self.binding = BindingView(tool) if tool.contract.source == "openapi" else None
        self.wire = WireView(tool)
        self.golden = GoldenView(tool, golden_dir)
        failed = sum(1 for r in self.fixtures.rows if not r.passed)
        tabs: list[tuple[str, View]] = [
            ("Declaration", self.declaration),
            (f"Lints ({len(tool.lints)})", self.lints),
            (f"Losses ({len(tool.losses)})", self.losses),
            (f"Fixtures ({failed} failed)" if failed else f"Fixtures ({len(self.fixtures.rows)})", self.fixtures),
            ("Playground", self.playground),
            *([("Binding", self.binding)] if self.binding is not None else []),
            ("Wire", self.wire),
            ("Golden", self.golden),
        ]
        self.tabs = widgets.Tab(children=[view.widget for _, view in tabs], titles=[title for title, _ in tabs])
        note = f" · {esc(tool.unlisted_note)}" if tool.unlisted_note else ""
        self.widget = widgets.VBox([widgets.HTML(f"<b>{esc(tool.name)}</b> · {tool.effect}{note}"), self.tabs])

    @property
    def views(self) -> tuple[View, ...]:
        found = (self.declaration, self.lints, self.losses, self.fixtures, self.playground, self.binding, self.wire)
        return tuple(v for v in (*found, self.golden) if v is not None)

    def summary(self) -> str:
        head = f"Workbench view of {self.tool.name} ({self.tool.effect})"
        note = [f"  {self.tool.unlisted_note}"] if self.tool.unlisted_note else []
        return "\n".join([head, *note, *(f"  {repr(v).splitlines()[0]}" for v in self.views)])
