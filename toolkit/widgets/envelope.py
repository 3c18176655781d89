"""Envelope inspector: one envelope (result, batch, saga) readable at a glance."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from toolkit._display._envelopes import envelope_html, envelope_text
from toolkit._display._markup import esc
from toolkit.widgets._base import View, html_widget

__all__ = ["EnvelopeInspector"]

_PLACEHOLDER = "<p class='tk-empty'>No envelope yet: pick a fixture, or validate arguments in the playground.</p>"


class EnvelopeInspector(View):
    """Shows the last envelope it was given with :meth:`show`, and where it came from."""

    def __init__(self, envelope: Any = None, source: str = "") -> None:
        self.envelope: Any = None
        self.source = ""
        self.title = html_widget()
        self.body = html_widget(_PLACEHOLDER)
        self.widget = widgets.VBox([self.title, self.body])
        if envelope is not None:
            self.show(envelope, source)

    def show(self, envelope: Any, source: str = "") -> None:
        """Display ``envelope`` (a ToolResult, BatchResult, SagaReport ...); ``source`` says where it came from."""
        self.envelope, self.source = envelope, source
        self.title.value = f"<div class='tk-envelope-source'><b>Envelope</b> · {esc(source)}</div>" if source else ""
        self.body.value = envelope_html(envelope)

    def summary(self) -> str:
        if self.envelope is None:
            return "Envelope inspector: nothing selected"
        where = f" ({self.source})" if self.source else ""
        return f"Envelope inspector{where}:\n{envelope_text(self.envelope)}"
