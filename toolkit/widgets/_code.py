"""A code editor for the notebook: CodeMirror 6 in an anywidget, bundled (nothing is loaded from a CDN).

    editor = CodeEditor(value=source, language="python")    # or "yaml", "json"
    editor.value                                            # the text, sent by the browser after each pause
    editor.diagnostics = [problem_mark(3, "invalid syntax")]  # a mark in the gutter at line 3, its message on hover

Line numbers, highlighting, Tab and Shift-Tab indent (four spaces), undo and redo, bracket matching; lines do
not wrap. The front end is ``static/editor.js``, built from ``editor_src/`` (``editor_src/build.sh``, from
its ``package-lock.json``); the browser sends the text ``debounce`` milliseconds after the last keystroke.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

__all__ = ["BUNDLE", "CodeEditor", "problem_mark"]

BUNDLE = Path(__file__).parent / "static" / "editor.js"
"""The built front end (a minified ES module)."""


def problem_mark(line: int | None, message: str, severity: str = "error") -> dict[str, Any]:
    """One gutter mark: ``line`` (1-based; ``None`` marks the first line), its message and severity."""
    return {"line": line or 1, "message": message, "severity": severity}


class CodeEditor(anywidget.AnyWidget):
    """CodeMirror 6 with line numbers, highlighting for ``language``, Tab indent and a lint gutter."""

    _esm = BUNDLE
    value = traitlets.Unicode("").tag(sync=True)
    language = traitlets.Enum(["python", "yaml", "json"], default_value="python").tag(sync=True)
    diagnostics = traitlets.List(traitlets.Dict()).tag(sync=True)
    placeholder = traitlets.Unicode("").tag(sync=True)
    rows = traitlets.Int(22).tag(sync=True)
    debounce = traitlets.Int(150).tag(sync=True)

    def __repr__(self) -> str:
        lines = self.value.count("\n") + 1 if self.value else 0
        return f"<CodeEditor {self.language}: {lines} lines, {len(self.diagnostics)} marks>"
