"""Declaration view: the exact JSON the model receives, highlighted, with copy buttons, and its size (bytes of
compact JSON, approximate tokens, and what its budget cut)."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from toolkit._canonical import pretty
from toolkit._display._core import declaration_html, injected_html, size_note
from toolkit._display._markup import esc
from toolkit._tool import Tool
from toolkit.widgets._base import View, html_widget

__all__ = ["DeclarationView"]

# The script reads the text of the block beside it; no data is ever interpolated into JavaScript.
_CLIPBOARD_BUTTON = (
    "<button class='tk-copy' title='Copy the declaration to the clipboard' "
    "onclick=\"navigator.clipboard.writeText(this.parentElement.querySelector('pre').innerText)\">"
    "Copy to clipboard</button>"
)


class DeclarationView(View):
    """The declaration as the model receives it; ``Show plain JSON`` opens a text box to copy from."""

    def __init__(self, tool: Tool) -> None:
        self.tool = tool
        self.text = pretty(tool.declaration)
        size = f"<div class='tk-size'>{esc(size_note(tool))}</div>"
        self.code = html_widget(f"<div class='tk-declaration'>{_CLIPBOARD_BUTTON}{size}{declaration_html(tool)}</div>")
        self.plain = widgets.Textarea(
            value=self.text,
            rows=min(30, self.text.count("\n") + 1),
            layout=widgets.Layout(width="100%", display="none"),
        )
        self.copy_button = widgets.Button(description="Show plain JSON", icon="copy", tooltip="Select all, then copy")
        self.copy_button.on_click(self._toggle_plain)
        filled = injected_html(tool)
        title = "<b>Parameters the runtime fills</b> (not in the declaration: the model never sends them)"
        extra = [html_widget(f"{title}{filled}")] if filled else []
        self.widget = widgets.VBox([self.copy_button, self.plain, self.code, *extra])

    def _toggle_plain(self, _button: Any = None) -> None:
        hidden = self.plain.layout.display == "none"
        self.plain.layout.display = None if hidden else "none"
        self.copy_button.description = "Hide plain JSON" if hidden else "Show plain JSON"

    def summary(self) -> str:
        count = len((self.tool.parameters or {}).get("properties", {}))
        text = f"Declaration of {self.tool.name}: {count} parameters, {size_note(self.tool)}"
        injected = ", ".join(i.name for i in self.tool.contract.injected)
        return text + (f"; filled by the runtime: {injected}" if injected else "")
