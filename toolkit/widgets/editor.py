"""The paste box: type or paste a Python function or an OpenAPI fragment and watch the tool follow.

    box = wb.editor()                       # empty; or wb.editor(tool) to start from an existing tool's source
    box.set_text(source)                    # what typing does (debounced in a live kernel)
    box.draft                               # the last build: tools, fixture reports, problem, diff
    box.keep()                              # add the tools to the workbench (and write golden files)

Each edit is built by :func:`toolkit._paste.paste` (this module only schedules, draws and keeps): the
declaration, lints, losses, fixture summary and the classified diff against the previous version update as
the author types, and a mistake shows inline with its line. The previous version is the tool the box started
from, else the version last kept, else the first version that built. In a running kernel an edit is built
``delay`` seconds after the last keystroke (the asyncio loop's timer); without a running loop it is built at
once. ``latency`` is how long the last build and redraw took.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from toolkit import _golden
from toolkit._diff import diff_declarations
from toolkit._display._core import declaration_html, lints_html, losses_html
from toolkit._display._markup import badge, esc, section
from toolkit._display._paste import diff_html, draft_headline, draft_text, problem_html, tools_html
from toolkit._fixtures import FixtureReport
from toolkit._paste import Draft, Kind, Source, paste
from toolkit._tool import Tool
from toolkit.widgets._base import View, html_widget

if TYPE_CHECKING:
    from toolkit.widgets.workbench import Workbench

__all__ = ["PasteBox"]

_STYLE = (
    "<style>.tk-paste-text textarea{font-family:var(--jp-code-font-family,monospace);"
    "font-size:var(--jp-code-font-size,13px);line-height:1.35}</style>"
)
_KINDS: list[tuple[str, Kind | None]] = [("detect", None), ("Python", "python"), ("OpenAPI", "openapi")]


class PasteBox(View):
    """A text editor whose content is rebuilt into tools as it changes (see the module docstring)."""

    def __init__(
        self,
        workbench: Workbench | None = None,
        source: Source | None = None,
        *,
        baseline: Any = None,
        golden_dir: Any = None,
        delay: float = 0.3,
    ) -> None:
        self.workbench = workbench
        self.source = source or Source("", "python")
        self.baseline: Any = baseline
        self.golden_dir = golden_dir if golden_dir is not None else getattr(workbench, "golden_dir", None)
        self.delay = delay
        self.latency = 0.0
        self.builds = 0
        self.kept: tuple[Tool, ...] = ()
        self._fired: dict[str, FixtureReport] = {}
        self._blocks: dict[str, Any] = {}
        self._timer: asyncio.TimerHandle | None = None
        self.draft = Draft(self.source.kind)
        self._make_widgets()
        self.set_text(self.source.text)

    # -- widgets -------------------------------------------------------------------------------------
    def _make_widgets(self) -> None:
        self.kind = widgets.ToggleButtons(options=_KINDS, value=None, description="Source")
        self.kind.style.description_width = "initial"
        self.all_operations = widgets.Checkbox(
            value=False, description="all operations (not only x-agent-tool)", indent=False
        )
        self.text = widgets.Textarea(
            placeholder="Paste a Python function (with its imports) or an OpenAPI fragment (paths: ...)",
            rows=22,
            continuous_update=True,
            layout=widgets.Layout(width="100%"),
        )
        self.text.add_class("tk-paste-text")
        self.status = html_widget()
        self.problem = html_widget()
        self.diff = html_widget()
        self.summary_table = html_widget()
        self.picker = widgets.Dropdown(options=[], description="Tool", layout=widgets.Layout(width="auto"))
        self.declaration = html_widget()
        self.details = html_widget()
        self.keep_button = widgets.Button(description="Keep", button_style="success", icon="check")
        self.write_golden = widgets.Checkbox(
            value=False, indent=False, description="and write the golden file", disabled=self.golden_dir is None
        )
        self.message = html_widget()
        self.kind.observe(lambda _change: self.refresh(), names="value")
        self.all_operations.observe(lambda _change: self.refresh(), names="value")
        self.text.observe(lambda _change: self._schedule(), names="value")
        self.picker.observe(lambda _change: self._draw_tool(), names="value")
        self.keep_button.on_click(lambda _button: self.keep())
        left = widgets.VBox(
            [html_widget(_STYLE), widgets.HBox([self.kind, self.all_operations]), self.text, self.status],
            layout=widgets.Layout(width="48%"),
        )
        actions = widgets.HBox([self.keep_button, self.write_golden])
        right = widgets.VBox(
            [self.problem, self.diff, self.summary_table, self.picker, self.declaration, self.details],
            layout=widgets.Layout(width="52%"),
        )
        self.widget = widgets.VBox([widgets.HBox([left, right]), actions, self.message])

    # -- editing -------------------------------------------------------------------------------------
    def set_text(self, text: str) -> Draft:
        """Replace the text (as typing does) and build it now; the new draft."""
        builds = self.builds
        self.text.value = text
        return self.draft if self.builds > builds and self._timer is None else self.refresh()

    def _schedule(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None or self.delay <= 0:
            self.refresh()
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer = loop.call_later(self.delay, self.refresh)

    def refresh(self) -> Draft:
        """Build the current text and redraw; the new draft."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        started = time.perf_counter()
        self.draft = paste(
            self.text.value,
            self.kind.value,
            namespace=self.source.namespace,
            effect=self.source.effect,
            select="all" if self.all_operations.value else "extension",
            baseline=self.baseline,
            seed=self.source.seed,
            fired=self._fired,
            blocks=self._blocks,
        )
        if self.baseline is None and self.draft.ok:
            self.baseline = self.draft.tools  # the first version that builds is the previous version
            self.draft = replace(self.draft, diff=diff_declarations(self.draft.tools, self.draft.tools))
        self._draw()
        self.builds += 1
        self.latency = time.perf_counter() - started
        detected = "" if self.kind.value else " (detected)"
        self.status.value = (
            f"<span class='tk-status'>{esc(self.draft.kind)}{detected} · built in {self.latency * 1000:.0f} ms</span>"
        )
        return self.draft

    # -- drawing -------------------------------------------------------------------------------------
    def _draw(self) -> None:
        draft = self.draft
        self.problem.value = problem_html(draft.problem, self.text.value)
        ok = draft.problem is None
        self.diff.value = diff_html(draft.diff) if ok else ""
        head = f"<div class='tk-headline'><b>{esc(draft_headline(draft))}</b></div>"
        self.summary_table.value = head + (tools_html(draft) if ok else "")
        names = [t.name for t in draft.tools]
        chosen = self.picker.value if self.picker.value in names else (names[0] if names else None)
        self.picker.options = names
        self.picker.value = chosen
        self.picker.layout.display = None if len(names) > 1 else "none"
        self.keep_button.disabled = not draft.ok
        self._draw_tool()

    def _draw_tool(self) -> None:
        tool = next((t for t in self.draft.tools if t.name == self.picker.value), None)
        if tool is None:
            self.declaration.value = self.details.value = ""
            return
        self.declaration.value = section(f"Declaration of {tool.name}", declaration_html(tool))
        lints = section(f"Lints ({len(tool.lints)})", lints_html(tool.lints))
        self.details.value = lints + section(f"Losses ({len(tool.losses)})", losses_html(tool.losses))

    # -- keeping -------------------------------------------------------------------------------------
    def keep(self, write_golden: bool | None = None) -> tuple[Tool, ...]:
        """Add the draft's tools to the workbench (and write their golden files when asked, or when the box
        is ticked); they become the previous version the diff compares with. Nothing when the draft has a
        problem."""
        draft = self.draft
        if not draft.ok:
            self.message.value = f"<p>{badge('not kept', 'error')} fix the problem first.</p>"
            return ()
        if self.workbench is not None:
            self.workbench.keep(draft, self.text.value, namespace=self.source.namespace)
        written: tuple[str, ...] = ()
        golden = self.write_golden.value if write_golden is None else write_golden
        if golden and self.golden_dir is not None:
            written = _golden.update(list(draft.tools), self.golden_dir).written
        self.kept = self.baseline = draft.tools
        names = ", ".join(t.name for t in draft.tools)
        files = (
            f"; golden file written: {', '.join(written)}" if written else ("; golden file unchanged" if golden else "")
        )
        self.message.value = f"<p>{badge('kept', 'ok')} {esc(names)}{esc(files)}</p>"
        self.refresh()
        return draft.tools

    def summary(self) -> str:
        kept = f"\nkept: {', '.join(t.name for t in self.kept)}" if self.kept else ""
        return "Paste box · " + draft_text(self.draft) + kept
