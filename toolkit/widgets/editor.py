"""The paste box: type or paste a Python function or an OpenAPI fragment and watch the tool follow.

    box = wb.editor()                       # empty; or wb.editor(tool) to start from an existing tool's source
    box.set_text(source)                    # what typing does (debounced in a live kernel)
    box.draft                               # the last build: tools, fixture reports, refusals, problem, diff
    box.keep()                              # run the source in this kernel once, add its tools to the workbench

Each edit is built by a worker process (:mod:`toolkit._paste._worker`), never in the kernel: the pasted code's
side effects, loops, threads and exits stay there, and a build that runs too long is killed. The declaration,
lints, losses, fixture summary, refused operations, binding and two classified diffs (against the last edit,
and against the version the box started from or last kept) update as the author types, and a mistake shows
inline with its line. Keep builds the final text once in the kernel (:func:`toolkit._paste.paste`: the pasted
module is imported, as importing the author's file would) and says so. In a running kernel an edit is built
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
from toolkit._display._core import binding_html, declaration_html, filled_rows, lints_html, losses_html, refusals_html
from toolkit._display._markup import badge, esc, section
from toolkit._display._paste import diff_html, draft_headline, draft_text, problem_html, tools_html
from toolkit._paste import Draft, Kind, Source, paste
from toolkit._paste._worker import Previewer, seed_spec, shared_previewer
from toolkit._tool import Tool
from toolkit.widgets._base import View, html_widget
from toolkit.widgets._code import CodeEditor, problem_mark
from toolkit.widgets.binding import binding_rows

if TYPE_CHECKING:
    from toolkit.widgets.workbench import Workbench

__all__ = ["PasteBox"]

_STYLE = (
    "<style>.tk-paste-right{overflow-x:auto}"
    ".tk-paste .widget-html-content{line-height:1.4}"
    ".tk-paste-right .tk-table td{min-width:9ch}"
    ".tk-paste-right .tk-table td:last-child{min-width:24ch}"
    ".tk-paste-right pre.tk-code{white-space:pre;overflow-x:auto;word-break:normal}</style>"
)
"""Tables in the narrow right-hand pane scroll sideways rather than squeeze a column to a word per line; JSON
never wraps (it scrolls), so it breaks only where its own line ends are."""
_PREVIEW_NOTE = (
    "<div class='tk-note' style='font-size:0.85em;color:#57606a'>The preview runs your code in a separate, "
    "disposable process on every edit (stopped after {limit:g} s); this kernel runs it once, when you press "
    "Keep.</div>"
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
        previewer: Previewer | None = None,
    ) -> None:
        self.workbench = workbench
        self.source = source or Source("", "python")
        self.baseline: Any = baseline
        self.golden_dir = golden_dir if golden_dir is not None else getattr(workbench, "golden_dir", None)
        self.delay = delay
        self.latency = 0.0
        self.builds = 0
        self.kept: tuple[Tool, ...] = ()
        self.previewer = previewer or shared_previewer()
        self.edit_diff: Any = None
        """The classified diff against the last edit that built (``None`` before the second build)."""
        self._last: tuple[Tool, ...] = ()
        self._seed = seed_spec(self.source.seed)
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
        self.text = CodeEditor(
            placeholder="Paste a Python function (with its imports) or an OpenAPI fragment (paths: ...)",
            rows=22,
            layout=widgets.Layout(width="100%"),
        )
        self.status = html_widget()
        self.problem = html_widget()
        self.diff = html_widget()
        self.edit_diff_pane = html_widget()
        self.refusals = html_widget()
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
            [
                widgets.HBox([self.kind, self.all_operations]),
                self.text,
                self.status,
                html_widget(_PREVIEW_NOTE.format(limit=self.previewer.time_limit + self.previewer.grace)),
            ],
            layout=widgets.Layout(width="48%"),
        )
        actions = widgets.HBox([self.keep_button, self.write_golden])
        right = widgets.VBox(
            [
                self.problem,
                self.summary_table,
                self.refusals,
                self.edit_diff_pane,
                self.diff,
                self.picker,
                self.declaration,
                self.details,
            ],
            layout=widgets.Layout(width="52%"),
        )
        right.add_class("tk-paste-right")
        self.widget = widgets.VBox([html_widget(_STYLE), widgets.HBox([left, right]), actions, self.message])
        self.widget.add_class("tk-paste")

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
        self.draft = self.previewer.build(
            self.text.value,
            self.kind.value,
            namespace=self.source.namespace,
            effect=self.source.effect,
            select=self.select,
            seed=self._seed,
        )
        self._compare()
        self._draw()
        self.builds += 1
        self.latency = time.perf_counter() - started
        detected = "" if self.kind.value else " (detected)"
        self.status.value = (
            f"<span class='tk-status'>{esc(self.draft.kind)}{detected} · built in {self.latency * 1000:.0f} ms</span>"
        )
        return self.draft

    @property
    def select(self) -> str:
        return "all" if self.all_operations.value else "extension"

    def _compare(self) -> None:
        """Classify the draft against the last edit that built and against the kept (or starting) version."""
        tools = self.draft.tools
        if not self.draft.ok:
            return
        if self.baseline is None:
            self.baseline = tools  # the first version that builds is the previous version
        self.edit_diff = diff_declarations(self._last or tools, tools)
        self._last = tools
        self.draft = replace(self.draft, diff=diff_declarations(self.baseline, tools))

    # -- drawing -------------------------------------------------------------------------------------
    def _draw(self) -> None:
        draft = self.draft
        self.problem.value = problem_html(draft.problem, self.text.value)
        self.text.language = _language(draft.kind, self.text.value)
        problem = draft.problem
        marked = problem is not None and problem.line is not None
        self.text.diagnostics = [problem_mark(problem.line, problem.message)] if problem and marked else []
        ok = draft.problem is None
        self.diff.value = diff_html(draft.diff, _since(self)) if ok else ""
        edit = ok and self.edit_diff is not None
        self.edit_diff_pane.value = diff_html(self.edit_diff, "the last edit") if edit else ""
        self.refusals.value = refusals_html(draft.rejected)
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
        losses = section(f"Losses ({len(tool.losses)})", losses_html(tool.losses))
        self.details.value = lints + losses + _binding(tool)

    # -- keeping -------------------------------------------------------------------------------------
    def keep(self, write_golden: bool | None = None) -> tuple[Tool, ...]:
        """Build the text once in this kernel (pasted Python is imported here, as importing the author's file
        would) and add its tools to the workbench (writing their golden files when asked, or when the box is
        ticked); they become the version the diff since the last Keep compares with. Nothing when the preview
        has a problem, or when the build in the kernel has one (shown)."""
        if not self.draft.ok:
            self.message.value = f"<p>{badge('not kept', 'error')} fix the problem first.</p>"
            return ()
        draft = paste(
            self.text.value,
            self.draft.kind,
            namespace=self.source.namespace,
            effect=self.source.effect,
            select=self.select,
            seed=self.source.seed,
        )
        if not draft.ok:
            self.message.value = f"<p>{badge('not kept', 'error')}</p>" + problem_html(draft.problem, self.text.value)
            return ()
        if self.workbench is not None:
            self.workbench.keep(draft, self.text.value, namespace=self.source.namespace)
        written: tuple[str, ...] = ()
        golden = self.write_golden.value if write_golden is None else write_golden
        if golden and self.golden_dir is not None:
            written = _golden.update(list(draft.tools), self.golden_dir).written
        self.kept = self.baseline = draft.tools
        names = ", ".join(t.name for t in draft.tools)
        ran = "; its source ran once in this kernel" if draft.kind == "python" else ""
        files = (
            f"; golden file written: {', '.join(written)}" if written else ("; golden file unchanged" if golden else "")
        )
        self.message.value = f"<p>{badge('kept', 'ok')} {esc(names)}{esc(ran)}{esc(files)}</p>"
        self.refresh()
        return draft.tools

    def variants(self) -> dict[str, tuple[Tool, ...]]:
        """The previous version (the last Keep, or what the box started from) and the draft, for a selection
        eval of this edit: ``wb.eval(cases, box.variants(), "openai")``. Only the draft when there is no previous
        version; nothing when the draft does not build."""
        found: dict[str, tuple[Tool, ...]] = {}
        if self.baseline:
            found["previous"] = tuple(self.baseline)
        if self.draft.ok and self.draft.tools:
            found["draft"] = tuple(self.draft.tools)
        return found

    def summary(self) -> str:
        kept = f"\nkept: {', '.join(t.name for t in self.kept)}" if self.kept else ""
        return "Paste box · " + draft_text(self.draft) + kept


def _since(box: PasteBox) -> str:
    if box.kept:
        return "the last Keep"
    return "the version the box started from" if box.source.text else "the first version that built"


def _binding(tool: Tool) -> str:
    """Where the arguments go and what is filled at run time (OpenAPI tools; nothing for a function)."""
    if tool.contract.source != "openapi":
        return ""
    where = f"{(tool.method or '').upper()} {tool.path}"
    return section("Binding", binding_html(where, binding_rows(tool), filled_rows(tool)))


def _language(kind: str, text: str) -> str:
    """The editor's highlighting: Python, or an OpenAPI fragment's JSON or YAML."""
    if kind == "python":
        return "python"
    return "json" if text.lstrip().startswith(("{", "[")) else "yaml"
