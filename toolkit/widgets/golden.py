"""Golden view: the tool's declaration against its golden file, each change classified, and Accept.

Checking and writing are :mod:`toolkit._golden`'s job (``check`` and ``update``); this view only shows the
report for one tool and calls ``update`` when the author accepts the change.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from toolkit import _golden
from toolkit._display._markup import badge, esc
from toolkit._display._reports import changes_html
from toolkit._tool import Tool
from toolkit.widgets._base import View, html_widget

__all__ = ["GoldenView"]


class GoldenView(View):
    """One tool against ``directory/<name>.json``; ``directory=None`` shows how to set one."""

    def __init__(self, tool: Tool, directory: str | os.PathLike[str] | None) -> None:
        self.tool = tool
        self.directory = None if directory is None else Path(directory)
        self.state = "no golden folder"
        self.detail: Any = None
        self.body = html_widget()
        self.accept_button = widgets.Button(
            description="Accept",
            button_style="warning",
            icon="save",
            tooltip="Write this declaration to the golden file",
        )
        self.accept_button.on_click(lambda _button: self.accept())
        self.widget = widgets.VBox([self.body, self.accept_button])
        self.refresh()

    def _file(self) -> str:
        return str(self.directory / f"{self.tool.name}.json") if self.directory is not None else ""

    def refresh(self) -> None:
        """Re-check the golden file and redraw."""
        if self.directory is None:
            self.state, self.detail = "no golden folder", None
            self.body.value = (
                "<p class='tk-empty'>No golden folder: open the view with <code>golden_dir=...</code>.</p>"
            )
            self.accept_button.disabled = True
            return

        report = _golden.check([self.tool], self.directory)
        stale = next((s for s in report.stale if s.name == self.tool.name), None)
        if self.tool.name in report.missing:
            self.state, self.detail = "missing", None
        elif stale is not None:
            self.state, self.detail = "stale", stale
        else:
            self.state, self.detail = "matches", None
        self.body.value = self._html()
        self.accept_button.disabled = self.state == "matches"

    def _html(self) -> str:
        where = f"<code>{esc(self._file())}</code>"
        if self.state == "matches":
            return f"<p>{badge('matches', 'ok')} The declaration matches {where}.</p>"
        if self.state == "missing":
            return f"<p>{badge('missing', 'warning')} No golden file yet at {where}: Accept writes it.</p>"
        diff = self.detail.diff
        if diff is None:
            return f"<p>{badge('stale', 'error')} {where} is unreadable: {esc(self.detail.reason)}</p>"
        head = f"<p>{badge(diff.verdict)} {where} differs from the declaration (golden → now).</p>"
        note = f"<p>{esc(self.detail.reason)}</p>" if self.detail.reason else ""
        return head + note + changes_html(list(diff.changes))

    def accept(self) -> None:
        """Write the current declaration to the golden file (atomically), then re-check."""
        if self.directory is None:
            return

        _golden.update([self.tool], self.directory)
        self.refresh()

    def summary(self) -> str:
        if self.state == "stale" and self.detail.diff is not None:
            diff = self.detail.diff
            kinds = ", ".join(f"{c.kind} {c.rule} at {c.path or '(tool)'}" for c in diff.changes)
            return f"Golden {self._file()}: stale, verdict {diff.verdict}" + (f" ({kinds})" if kinds else "")
        if self.directory is None:
            return f"Golden for {self.tool.name}: no golden folder"
        return f"Golden {self._file()}: {self.state}"
