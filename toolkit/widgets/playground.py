"""Playground: edit arguments (a JSON editor and a form generated from the schema), validate, see the envelope.

The JSON editor is the truth: the form writes into it, and Validate sends its text to ``tool.validate``,
exactly as a model's arguments would arrive. Nothing here validates or coerces on its own.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import ipywidgets as widgets

from toolkit._display._envelopes import envelope_html
from toolkit._refs import main_type
from toolkit._tool import Tool
from toolkit.widgets._base import View, html_widget
from toolkit.widgets.envelope import EnvelopeInspector

__all__ = ["Playground", "field_widget", "starting_arguments"]

_PLACEHOLDERS: dict[str, Any] = {"string": "", "integer": 0, "number": 0.0, "boolean": False, "array": [], "object": {}}
_STYLE = {"description_width": "initial"}


def _placeholder(schema: Mapping[str, Any]) -> Any:
    if "default" in schema:
        return schema["default"]
    if schema.get("enum"):
        return schema["enum"][0]
    if "minimum" in schema:
        return schema["minimum"]
    return _PLACEHOLDERS.get(main_type(schema) or "", "")


def starting_arguments(tool: Tool) -> dict[str, Any]:
    """Arguments to start editing from: every required parameter and every one with a default."""
    schema = tool.args_schema
    required = set(schema.get("required", ()))
    properties = schema.get("properties", {})
    return {name: _placeholder(prop) for name, prop in properties.items() if name in required or "default" in prop}


def field_widget(name: str, schema: Mapping[str, Any], value: Any) -> Any:
    """One form control for one parameter: Dropdown, Checkbox, IntText, FloatText or Text (JSON for the rest).

    ``value`` is where the control starts (``None`` for a parameter not in the starting arguments); a
    control only writes into the arguments once the author changes it.
    """
    tooltip = str(schema.get("description", ""))[:200]
    common: dict[str, Any] = {"description": name, "tooltip": tooltip, "style": _STYLE}
    kind = main_type(schema)
    if schema.get("enum"):
        options = [(str(v), v) for v in schema["enum"]]
        start = value if value in schema["enum"] else None
        return widgets.Dropdown(options=options, value=start, **common)
    if kind == "boolean":
        return widgets.Checkbox(value=bool(value), indent=False, **common)
    number = value if isinstance(value, int | float) and not isinstance(value, bool) else _placeholder(schema)
    if kind == "integer" and isinstance(number, int):
        return widgets.IntText(value=number, **common)
    if kind == "number" and isinstance(number, int | float):
        return widgets.FloatText(value=float(number), **common)
    if kind == "string":
        return widgets.Text(value=value if isinstance(value, str) else "", **common)
    return widgets.Text(value=json.dumps(value), placeholder="JSON", **common)


def _from_form(control: Any, schema: Mapping[str, Any]) -> Any:
    """The JSON value a form control holds (text that should be JSON is parsed when it parses)."""
    value = control.value
    if isinstance(control, widgets.Text) and main_type(schema) != "string" and not schema.get("enum"):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _to_form(control: Any, schema: Mapping[str, Any], value: Any) -> None:
    """Show ``value`` in ``control`` when the control can hold it; otherwise leave the control as it is.

    A value of the wrong type (``"10"`` for an integer) stays only in the JSON editor, which is what
    Validate sends: the form never repairs what the model would have sent.
    """
    numeric = isinstance(value, int | float) and not isinstance(value, bool)
    if isinstance(control, widgets.Dropdown):
        if any(value == option and type(value) is type(option) for _, option in control.options):
            control.value = value
    elif isinstance(control, widgets.Checkbox):
        if isinstance(value, bool):
            control.value = value
    elif isinstance(control, widgets.IntText):
        if isinstance(value, int) and not isinstance(value, bool):
            control.value = value
    elif isinstance(control, widgets.FloatText):
        if numeric:
            control.value = float(value)
    elif main_type(schema) == "string":
        if isinstance(value, str):
            control.value = value
    else:
        control.value = json.dumps(value)


class Playground(View):
    """Edit arguments, press Validate, read the envelope (also sent to the shared inspector).

    The form and the JSON editor follow each other: a form edit rewrites that key in the JSON, and JSON
    that parses updates the controls that can hold its values.
    """

    def __init__(self, tool: Tool, inspector: EnvelopeInspector | None = None) -> None:
        self.tool = tool
        self.inspector = inspector or EnvelopeInspector()
        self.result: Any = None
        start = starting_arguments(tool)
        self.editor = widgets.Textarea(
            value=json.dumps(start, indent=2, sort_keys=True),
            rows=max(6, len(start) + 3),
            layout=widgets.Layout(width="98%"),
        )
        properties = tool.args_schema.get("properties", {})
        self.fields = {name: field_widget(name, prop, start.get(name)) for name, prop in properties.items()}
        self._syncing = False
        for name, control in self.fields.items():
            control.observe(lambda change, name=name: self._form_changed(name), names="value")
        self.editor.observe(lambda change: self._editor_changed(), names="value")
        self.validate_button = widgets.Button(description="Validate", button_style="primary", icon="check")
        self.validate_button.on_click(lambda _button: self.validate())
        self.output = html_widget("<p class='tk-empty'>Press Validate to see the envelope the model would get.</p>")
        form = widgets.VBox(
            [html_widget("<b>Form</b> (follows the JSON)"), *self.fields.values()],
            layout=widgets.Layout(width="45%"),
        )
        editor = widgets.VBox([html_widget("<b>Arguments</b> as the model sends them"), self.editor])
        editor.layout.width = "55%"
        self.widget = widgets.VBox([widgets.HBox([form, editor]), self.validate_button, self.output])

    def _editor_arguments(self) -> dict[str, Any] | None:
        try:
            args = json.loads(self.editor.value)
        except ValueError:
            return None
        return args if isinstance(args, dict) else None

    def _form_changed(self, name: str) -> None:
        if self._syncing:
            return
        args = self._editor_arguments() or {}
        args[name] = _from_form(self.fields[name], self.tool.args_schema["properties"][name])
        self._syncing = True
        try:
            self.editor.value = json.dumps(args, indent=2, sort_keys=True)
        finally:
            self._syncing = False

    def _editor_changed(self) -> None:
        args = self._editor_arguments()
        if self._syncing or args is None:
            return
        properties = self.tool.args_schema.get("properties", {})
        self._syncing = True
        try:
            for name in args.keys() & self.fields.keys():
                _to_form(self.fields[name], properties[name], args[name])
        finally:
            self._syncing = False

    def set_arguments(self, args: Any) -> None:
        """Replace the editor's text with ``args`` (a dict, or JSON text kept as typed)."""
        self.editor.value = args if isinstance(args, str) else json.dumps(args, indent=2, sort_keys=True)

    def validate(self) -> Any:
        """Send the editor's text to ``tool.validate`` and show the envelope."""
        self.result = self.tool.validate(self.editor.value)
        self.output.value = envelope_html(self.result)
        self.inspector.show(self.result, "playground")
        return self.result

    def summary(self) -> str:
        state = "not validated yet" if self.result is None else f"last result {self.result.status}"
        return f"Playground for {self.tool.name}: {len(self.fields)} fields, {state}"
