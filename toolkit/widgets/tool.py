"""Tool view: one tab per aspect of a tool — declaration, lints, losses, fixtures, envelope, playground, golden."""

from __future__ import annotations

import os
from typing import Any

import ipywidgets as widgets

from toolkit._display._markup import esc
from toolkit._fixtures import fire
from toolkit._tool import Tool
from toolkit.widgets._base import View
from toolkit.widgets.declaration import DeclarationView
from toolkit.widgets.envelope import EnvelopeInspector
from toolkit.widgets.fixtures import FixturesView
from toolkit.widgets.golden import GoldenView
from toolkit.widgets.lints import LintsView
from toolkit.widgets.losses import LossesView
from toolkit.widgets.playground import Playground

__all__ = ["ToolView"]


class ToolView(View):
    """Every view of one tool in tabs; the fixtures and the playground share one envelope inspector.

    ``report`` is the tool's fixture report (``tk.fire(tool)`` when omitted).
    """

    def __init__(self, tool: Tool, *, golden_dir: str | os.PathLike[str] | None = None, report: Any = None) -> None:

        self.tool = tool
        self.inspector = EnvelopeInspector()
        self.declaration = DeclarationView(tool)
        self.lints = LintsView(tool)
        self.losses = LossesView(tool)
        self.fixtures = FixturesView(report if report is not None else fire(tool), self.inspector, tool.name)
        self.playground = Playground(tool, self.inspector)
        self.golden = GoldenView(tool, golden_dir)
        failed = sum(1 for r in self.fixtures.rows if not r.passed)
        tabs = [
            ("Declaration", self.declaration),
            (f"Lints ({len(tool.lints)})", self.lints),
            (f"Losses ({len(tool.losses)})", self.losses),
            (f"Fixtures ({failed} failed)" if failed else f"Fixtures ({len(self.fixtures.rows)})", self.fixtures),
            ("Envelope", self.inspector),
            ("Playground", self.playground),
            ("Golden", self.golden),
        ]
        self.tabs = widgets.Tab(children=[view.widget for _, view in tabs], titles=[title for title, _ in tabs])
        note = f" · {esc(tool.unlisted_note)}" if tool.unlisted_note else ""
        self.widget = widgets.VBox([widgets.HTML(f"<b>{esc(tool.name)}</b> · {tool.effect}{note}"), self.tabs])

    def summary(self) -> str:
        views = (self.declaration, self.lints, self.losses, self.fixtures, self.playground, self.golden)
        head = f"Workbench view of {self.tool.name} ({self.tool.effect})"
        note = [f"  {self.tool.unlisted_note}"] if self.tool.unlisted_note else []
        return "\n".join([head, *note, *(f"  {v!r}" for v in views)])
