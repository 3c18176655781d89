"""Envelope inspector: one envelope (result, batch, saga) readable at a glance, with the arguments that made it."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from toolkit._display._envelopes import envelope_html, envelope_text
from toolkit._display._markup import code_block, esc, json_text, one_line_json
from toolkit.widgets._base import View, html_widget

__all__ = ["EnvelopeInspector"]

_PLACEHOLDER = "<p class='tk-empty'>No envelope yet: pick a fixture, or validate arguments in the playground.</p>"
_NOTHING: Any = object()


class EnvelopeInspector(View):
    """Shows the last envelope it was given with :meth:`show`, where it came from, and the arguments sent.

    Every view that shows envelopes owns its inspector, so a cell's output never changes because a later cell
    drove another view.
    """

    def __init__(self, envelope: Any = None, source: str = "") -> None:
        self.envelope: Any = None
        self.source = ""
        self.arguments: Any = _NOTHING
        self.title = html_widget()
        self.sent = html_widget()
        self.body = html_widget(_PLACEHOLDER)
        self.widget = widgets.VBox([self.title, self.sent, self.body])
        if envelope is not None:
            self.show(envelope, source)

    def show(self, envelope: Any, source: str = "", arguments: Any = _NOTHING) -> None:
        """Display ``envelope`` (a ToolResult, BatchResult, SagaReport ...); ``source`` says where it came from,
        ``arguments`` (when given) are shown in full above it."""
        self.envelope, self.source, self.arguments = envelope, source, arguments
        self.title.value = f"<div class='tk-envelope-source'><b>Envelope</b> · {esc(source)}</div>" if source else ""
        shown = "" if arguments is _NOTHING else json_text(arguments)
        self.sent.value = (
            f"<div class='tk-arguments'><b>Arguments sent</b>{code_block(shown, highlighted=True)}</div>"
            if shown
            else ""
        )
        self.body.value = envelope_html(envelope)

    def summary(self) -> str:
        if self.envelope is None:
            return "Envelope inspector: nothing selected"
        where = f" ({self.source})" if self.source else ""
        sent = "" if self.arguments is _NOTHING else f"arguments: {_short(one_line_json(self.arguments))}\n"
        return f"Envelope inspector{where}:\n{sent}{envelope_text(self.envelope)}"


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
