"""Playground: edit arguments (a JSON editor and a form generated from the schema), validate, see the envelope.

The JSON editor is the truth: Validate sends its text to ``tool.validate``, exactly as a model's arguments
would arrive. The form is the form model of the tool's arguments (:mod:`toolkit._form`): a dropdown for every
enum, date and date-time pickers, a sub-form for each nested object and list, required fields marked with
``*``, optional ones sent only when ticked. It starts from arguments the tool accepts, and the two follow each
other: a form edit rewrites that argument in the JSON, and JSON that parses updates the controls that can hold
its values. Nothing here validates or coerces on its own.
"""

from __future__ import annotations

import json
from typing import Any

import ipywidgets as widgets

from toolkit._display._envelopes import envelope_html
from toolkit._form import form_of, starting_arguments
from toolkit._tool import Tool
from toolkit.widgets._base import View, html_widget
from toolkit.widgets._code import CodeEditor, problem_mark
from toolkit.widgets._controls import Group
from toolkit.widgets.envelope import EnvelopeInspector

__all__ = ["Playground"]


class Playground(View):
    """Edit arguments, press Validate, read the envelope (also sent to this view's inspector)."""

    def __init__(self, tool: Tool, inspector: EnvelopeInspector | None = None) -> None:
        self.tool = tool
        self.inspector = inspector or EnvelopeInspector()
        self.result: Any = None
        self.form = form_of(tool.args_schema)
        start = starting_arguments(tool.args_schema)
        self.editor = CodeEditor(
            value=json.dumps(start, indent=2, sort_keys=True),
            language="json",
            rows=max(6, min(24, json.dumps(start, indent=2).count("\n") + 2)),
            layout=widgets.Layout(width="98%"),
        )
        self._syncing = False
        self.root = Group(self.form, start, self._form_changed, titled=False)
        self.editor.observe(lambda change: self._editor_changed(), names="value")
        self.validate_button = widgets.Button(description="Validate", button_style="primary", icon="check")
        self.validate_button.on_click(lambda _button: self.validate())
        self.output = html_widget("<p class='tk-empty'>Press Validate to see the envelope the model would get.</p>")
        required = sum(1 for f in self.form.fields if f.required)
        legend = f"<b>Form</b> (follows the JSON; * required: {required} of {len(self.form.fields)})"
        form = widgets.VBox([html_widget(legend), self.root.widget], layout=widgets.Layout(width="50%"))
        editor = widgets.VBox([html_widget("<b>Arguments</b> as the model sends them"), self.editor])
        editor.layout.width = "50%"
        self.widget = widgets.VBox([widgets.HBox([form, editor]), self.validate_button, self.output])

    @property
    def fields(self) -> dict[str, Any]:
        """The top-level controls' widgets by parameter name (a sub-form's box for an object or a list)."""
        return {name: control.widget for name, control in self.root.children.items()}

    def _editor_arguments(self) -> dict[str, Any] | None:
        try:
            args = json.loads(self.editor.value)
        except json.JSONDecodeError as error:
            self.editor.diagnostics = [problem_mark(error.lineno, f"not JSON: {error.msg}")]
            return None
        self.editor.diagnostics = []
        return args if isinstance(args, dict) else None

    def _form_changed(self) -> None:
        if self._syncing:
            return
        name = self.root.last
        args = self._editor_arguments() or {}
        if self.root.included(name):
            args[name] = self.root.children[name].get()
        else:
            args.pop(name, None)
        self._syncing = True
        try:
            self.editor.value = json.dumps(args, indent=2, sort_keys=True)
        finally:
            self._syncing = False

    def _editor_changed(self) -> None:
        args = self._editor_arguments()
        if self._syncing or args is None:
            return
        self._syncing = True
        try:
            self.root.set(args)
        finally:
            self._syncing = False

    def arguments(self) -> Any:
        """What Validate sends: the editor's JSON (its text when it does not parse)."""
        try:
            return json.loads(self.editor.value)
        except ValueError:
            return self.editor.value

    def set_arguments(self, args: Any) -> None:
        """Replace the editor's text with ``args`` (a dict, or JSON text kept as typed)."""
        self.editor.value = args if isinstance(args, str) else json.dumps(args, indent=2, sort_keys=True)

    def validate(self) -> Any:
        """Send the editor's text to ``tool.validate`` and show the envelope."""
        self.result = self.tool.validate(self.editor.value)
        self.output.value = envelope_html(self.result)
        self.inspector.show(self.result, "playground", self.arguments())
        return self.result

    def summary(self) -> str:
        state = "not validated yet" if self.result is None else f"last result {self.result.status}"
        required = sum(1 for f in self.form.fields if f.required)
        return f"Playground for {self.tool.name}: {len(self.form.fields)} fields ({required} required), {state}"
