"""Declaration view: the exact JSON the model receives, highlighted, with one copy button, and its size (bytes
of compact JSON, approximate tokens, and what its budget cut)."""

from __future__ import annotations

import ipywidgets as widgets

from toolkit._canonical import pretty
from toolkit._display._core import declaration_html, injected_html, size_note
from toolkit._display._markup import esc
from toolkit._tool import Tool
from toolkit.widgets._base import View, html_widget

__all__ = ["DeclarationView"]

# The script reads the text of the block beside it; no data is ever interpolated into JavaScript. Where the page
# has no clipboard access (plain http on another host), it selects the JSON instead, for Ctrl+C.
_CLIPBOARD_BUTTON = (
    "<button class='tk-copy jupyter-button' title='Copy the declaration to the clipboard' "
    "style='margin:0.2em 0;padding:0.1em 0.8em' "
    "onclick=\"const pre = this.parentElement.querySelector('pre');"
    " if (navigator.clipboard) { navigator.clipboard.writeText(pre.innerText); this.textContent = 'Copied'; }"
    " else { const range = document.createRange(); range.selectNodeContents(pre);"
    " getSelection().removeAllRanges(); getSelection().addRange(range);"
    " this.textContent = 'Selected: press Ctrl+C'; }\">"
    "Copy to clipboard</button>"
)


class DeclarationView(View):
    """The declaration as the model receives it, with a button that copies it."""

    def __init__(self, tool: Tool) -> None:
        self.tool = tool
        self.text = pretty(tool.declaration)
        size = f"<div class='tk-size'>{esc(size_note(tool))}</div>"
        self.code = html_widget(f"<div class='tk-declaration'>{_CLIPBOARD_BUTTON}{size}{declaration_html(tool)}</div>")
        filled = injected_html(tool)
        title = "<b>Parameters the runtime fills</b> (not in the declaration: the model never sends them)"
        extra = [html_widget(f"{title}{filled}")] if filled else []
        self.widget = widgets.VBox([self.code, *extra])

    def summary(self) -> str:
        count = len((self.tool.parameters or {}).get("properties", {}))
        text = f"Declaration of {self.tool.name}: {count} parameters, {size_note(self.tool)}"
        injected = ", ".join(i.name for i in self.tool.contract.injected)
        return text + (f"; filled by the runtime: {injected}" if injected else "")
