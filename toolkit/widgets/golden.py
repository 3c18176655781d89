"""Golden view: the tool's declaration against its golden file, each change classified, and Accept.

Checking and writing are :mod:`toolkit._golden`'s job (``check`` and ``update``); this view only shows the
report for one tool and calls ``update`` when the author accepts the change. Opened without a folder, it works
in a temporary one (said on the tab, deleted with the view) until the author names a real folder in its box.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import weakref
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
    """One tool against ``directory/<name>.json``; ``directory=None`` works in a temporary folder until
    :meth:`use` (or the folder box) names a real one."""

    def __init__(self, tool: Tool, directory: str | os.PathLike[str] | None) -> None:
        self.tool = tool
        self.temporary = directory is None
        if directory is None:
            directory = tempfile.mkdtemp(prefix="toolkit-golden-")
            weakref.finalize(self, shutil.rmtree, directory, ignore_errors=True)
        self.directory = Path(directory)
        self.state = "missing"
        self.detail: Any = None
        self.body = html_widget()
        self.folder = widgets.Text(
            placeholder="golden", description="Golden folder", layout=widgets.Layout(width="60%")
        )
        self.folder.style.description_width = "initial"
        self.use_button = widgets.Button(description="Use this folder", icon="folder-open")
        self.use_button.on_click(lambda _button: self.use(self.folder.value))
        self.accept_button = widgets.Button(
            description="Accept",
            button_style="warning",
            icon="save",
            tooltip="Write this declaration to the golden file",
        )
        self.accept_button.on_click(lambda _button: self.accept())
        chooser = widgets.HBox([self.folder, self.use_button])
        chooser.layout.display = None if self.temporary else "none"
        self.widget = widgets.VBox([self.body, self.accept_button, chooser])
        self.refresh()

    def _file(self) -> str:
        return str(self.directory / f"{self.tool.name}.json")

    def use(self, directory: str | os.PathLike[str]) -> None:
        """Compare with (and Accept into) ``directory`` from now on; it is created on the first Accept."""
        if not str(directory).strip():
            return
        self.directory, self.temporary = Path(directory), False
        self.refresh()

    def refresh(self) -> None:
        """Re-check the golden file and redraw."""
        report = _golden.check([self.tool], self.directory)
        stale = next((s for s in report.stale if s.name == self.tool.name), None)
        if self.tool.name in report.missing:
            self.state, self.detail = "missing", None
        elif stale is not None:
            self.state, self.detail = "stale", stale
        else:
            self.state, self.detail = "matches", None
        note = (
            f"<p>{badge('temporary folder', 'warning')} No <code>golden_dir</code> was given, so golden files go "
            "to a temporary folder, deleted with this view. Name a real folder below to keep them.</p>"
            if self.temporary
            else ""
        )
        self.body.value = note + self._html()
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
        _golden.update([self.tool], self.directory)
        self.refresh()

    def summary(self) -> str:
        if self.state == "stale" and self.detail.diff is not None:
            diff = self.detail.diff
            kinds = ", ".join(f"{c.kind} {c.rule} at {c.path or '(tool)'}" for c in diff.changes)
            return f"Golden {self._file()}: stale, verdict {diff.verdict}" + (f" ({kinds})" if kinds else "")
        if self.temporary:
            return f"Golden for {self.tool.name}: {self.state} (a temporary folder: no golden_dir given)"
        return f"Golden {self._file()}: {self.state}"
