"""Form controls for the playground, one per :class:`~toolkit._form.FormField` kind, nested for objects and lists.

A control shows a JSON value and gives one back (``get``); ``set`` shows a value when the control can hold it
and leaves it alone otherwise (a ``"10"`` for an integer stays in the JSON editor, which is what Validate
sends: the form never repairs what the model would have sent). An optional field has a check box that says
whether it is sent; editing the field ticks it. Every change calls ``changed`` once; the playground owns the
JSON. Which control a field gets is the form model's decision (:mod:`toolkit._form`), not this module's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

import ipywidgets as widgets

from toolkit._display._markup import esc
from toolkit._form import FormField

__all__ = ["Control", "control_for", "label_of"]

Changed = Callable[[], None]
_STYLE = {"description_width": "initial"}


def label_of(field: FormField) -> str:
    """The field's name, with ``*`` when the enclosing object requires it."""
    return f"{field.name or 'item'}{' *' if field.required else ''}"


def _iso(value: Any) -> str:
    if isinstance(value, datetime):
        text = value.astimezone(UTC).isoformat() if value.tzinfo else value.isoformat()
        return text.replace("+00:00", "Z")
    return value.isoformat() if isinstance(value, date) else str(value)


def _parse_date(value: Any, with_time: bool) -> date | datetime | None:
    if not isinstance(value, str):
        return None
    try:
        if with_time:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
            return parsed if parsed.tzinfo else None
        return date.fromisoformat(value) if len(value) == 10 else None
    except ValueError:
        return None


class Control:
    """One field's editor: ``widget`` is drawn, ``get()`` is its JSON value, ``set(value)`` shows a value."""

    widget: Any

    def __init__(self, field: FormField, changed: Changed) -> None:
        self.field = field
        self.changed = changed
        self.quiet = False

    def get(self) -> Any:
        raise NotImplementedError

    def set(self, value: Any) -> None:
        raise NotImplementedError

    def _notify(self, _change: Any = None) -> None:
        if not self.quiet:
            self.changed()


class Scalar(Control):
    """Text, integer, number, check box, dropdown, date or date-time picker, or JSON text."""

    def __init__(self, field: FormField, value: Any, changed: Changed) -> None:
        super().__init__(field, changed)
        common: dict[str, Any] = {"description": label_of(field), "style": _STYLE, "tooltip": field.description[:300]}
        self.widget = self._make(field, common)
        self.quiet = True
        self.set(value)
        self.quiet = False
        self.widget.observe(self._notify, names="value")

    @staticmethod
    def _make(field: FormField, common: dict[str, Any]) -> Any:
        kind = field.kind
        if kind == "choice":
            options = [(v if isinstance(v, str) else json.dumps(v), v) for v in field.choices]
            return widgets.Dropdown(options=options, value=None, **common)
        if kind == "boolean":
            return widgets.Checkbox(value=False, indent=False, **common)
        if kind == "integer":
            return widgets.IntText(value=0, **common)
        if kind == "number":
            return widgets.FloatText(value=0.0, **common)
        if kind == "date":
            return widgets.DatePicker(value=None, **common)
        if kind == "datetime":
            return widgets.DatetimePicker(value=None, **common)
        if kind == "json":
            return widgets.Text(value="", placeholder="JSON", **common)
        return widgets.Text(value="", **common)

    def get(self) -> Any:
        value = self.widget.value
        if self.field.kind in ("date", "datetime"):
            return None if value is None else _iso(value)
        if self.field.kind == "json":
            try:
                return json.loads(value)
            except ValueError:
                return value
        return value

    def set(self, value: Any) -> None:
        kind, control = self.field.kind, self.widget
        if kind == "choice":  # a value the enum does not have shows as no choice at all
            member = any(value == option and type(value) is type(option) for _, option in control.options)
            control.value = value if member else None
        elif kind == "boolean":
            if isinstance(value, bool):
                control.value = value
        elif kind == "integer":
            if isinstance(value, int) and not isinstance(value, bool):
                control.value = value
        elif kind == "number":
            if isinstance(value, int | float) and not isinstance(value, bool):
                control.value = float(value)
        elif kind in ("date", "datetime"):
            parsed = _parse_date(value, kind == "datetime")
            if parsed is not None:
                control.value = parsed
        elif kind == "json":
            if value is not None:
                control.value = json.dumps(value)
        elif isinstance(value, str):
            control.value = value


class Group(Control):
    """An object: one row per field (optional ones with a "send it" box), inside a titled, indented box."""

    def __init__(self, field: FormField, value: Any, changed: Changed, *, titled: bool = True) -> None:
        super().__init__(field, changed)
        start = value if isinstance(value, dict) else {}
        self.children: dict[str, Control] = {}
        self.sent: dict[str, Any] = {}
        self.last = ""
        """The field whose change was reported last (the playground rewrites only that key)."""
        rows = []
        for child in field.fields:
            initial = start.get(child.name, child.start)
            control = control_for(child, initial, self._reporter(child.name))
            self.children[child.name] = control
            if child.required:
                rows.append(control.widget)
                continue
            box = widgets.Checkbox(
                value=child.name in start, indent=False, tooltip=f"send {child.name}", layout={"width": "2em"}
            )
            box.observe(lambda _change, name=child.name: self._report(name), names="value")
            self.sent[child.name] = box
            rows.append(widgets.HBox([box, control.widget]))
        head = [widgets.HTML(f"<b>{esc(label_of(field))}</b>")] if titled else []
        layout = {"border_left": "2px solid #d0d7de", "padding": "0 0 0 0.6em"} if titled else {}
        self.widget = widgets.VBox(head + rows, layout=layout)

    def _reporter(self, name: str) -> Changed:
        return lambda: self._child_changed(name)

    def _child_changed(self, name: str) -> None:
        box = self.sent.get(name)
        if box is not None and not box.value:
            self.quiet, box.value = True, True
            self.quiet = False
        self._report(name)

    def _report(self, name: str) -> None:
        self.last = name
        self._notify()

    def included(self, name: str) -> bool:
        box = self.sent.get(name)
        return box is None or bool(box.value)

    def get(self) -> Any:
        return {name: control.get() for name, control in self.children.items() if self.included(name)}

    def set(self, value: Any) -> None:
        if not isinstance(value, dict):
            return
        for name, control in self.children.items():
            box = self.sent.get(name)
            if box is not None:
                box.value = name in value
            if name in value:
                control.set(value[name])


class Items(Control):
    """A list: one sub-form per item with a remove button, and an add button."""

    def __init__(self, field: FormField, value: Any, changed: Changed) -> None:
        super().__init__(field, changed)
        assert field.item is not None
        self.items: list[Control] = []
        self.list = widgets.VBox([])
        self.add_button = widgets.Button(description=f"add {field.item.kind} item", icon="plus")
        self.add_button.on_click(lambda _button: self._add())
        title = widgets.HTML(f"<b>{esc(label_of(field))}</b> (list)")
        layout = {"border_left": "2px solid #d0d7de", "padding": "0 0 0 0.6em"}
        self.widget = widgets.VBox([title, self.list, self.add_button], layout=layout)
        self._fill(value if isinstance(value, list) else [])

    def _fill(self, values: list[Any]) -> None:
        item = self.field.item
        assert item is not None
        self.items = [control_for(item, v, self._notify) for v in values]
        self._draw()

    def _draw(self) -> None:
        rows = []
        for index, control in enumerate(self.items):
            remove = widgets.Button(icon="trash", tooltip="remove this item", layout={"width": "3em"})
            remove.on_click(lambda _button, index=index: self._remove(index))
            rows.append(widgets.HBox([control.widget, remove]))
        self.list.children = tuple(rows)

    def _add(self) -> None:
        item = self.field.item
        assert item is not None
        self.items.append(control_for(item, item.start, self._notify))
        self._draw()
        self._notify()

    def _remove(self, index: int) -> None:
        del self.items[index]
        self._draw()
        self._notify()

    def get(self) -> Any:
        return [control.get() for control in self.items]

    def set(self, value: Any) -> None:
        if not isinstance(value, list):
            return
        if len(value) != len(self.items):
            self._fill(value)
            return
        for control, item in zip(self.items, value, strict=True):
            control.set(item)


def control_for(field: FormField, value: Any, changed: Changed) -> Control:
    """The control for ``field``, showing ``value``."""
    if field.kind == "object":
        return Group(field, value, changed)
    if field.kind == "array":
        return Items(field, value, changed)
    return Scalar(field, value, changed)
