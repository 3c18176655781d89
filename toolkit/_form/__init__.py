"""A tool's ``args_schema`` → a form model: the fields an author edits, and valid arguments to start from.

    form = form_of(tool.args_schema)          # FormField(kind="object", fields=(...))
    starting_arguments(tool.args_schema)      # {"query": "example", "limit": 20, ...}: the validator accepts it

Each field has a ``kind`` that says which control shows it: ``text``, ``integer``, ``number``, ``boolean``,
``choice`` (every ``enum`` or ``const``, whatever the Python spelled: ``Enum``, ``Literal``), ``date``,
``datetime``, ``object`` (its ``fields``), ``array`` (its ``item``) or ``json`` (anything else: an untyped map,
a union of several types, a schema nested deeper than :data:`MAX_DEPTH`). References are followed with the one
``$ref`` reader, and an ``anyOf [X, null]`` wrapper makes a ``nullable`` X.

Starting values come, in order, from the schema's ``default``, its ``examples`` / ``example`` (when the
validator accepts them), and the fixtures' valid-value generator (:func:`toolkit._fixtures._values.example`),
so a form opens on arguments the tool accepts: required fields filled, optional ones only when they have a
default. The form model only reads: sending, validating and syncing are the caller's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from toolkit._fixtures._values import NO_VALUE, example
from toolkit._schema import Refs, Resolve, main_type
from toolkit._validation._combinators import NO_DEFAULT, core, default_of
from toolkit._validation._formats import check_format

__all__ = ["MAX_DEPTH", "FieldKind", "FormField", "form_of", "starting_arguments"]

FieldKind = Literal["text", "integer", "number", "boolean", "choice", "date", "datetime", "object", "array", "json"]

MAX_DEPTH = 6
"""Objects and arrays nested deeper than this are edited as JSON text (a recursive schema never ends)."""

_SCALARS: dict[str, FieldKind] = {"integer": "integer", "number": "number", "boolean": "boolean", "string": "text"}
_FORMATS: dict[str, FieldKind] = {"date": "date", "date-time": "datetime"}


@dataclass(frozen=True, slots=True)
class FormField:
    """One field of a form: its ``name`` (``""`` for the root and for an array's item), the ``kind`` of
    control, whether the enclosing object ``required`` it, whether it takes ``null``, its ``description``, the
    ``choices`` of a ``choice``, the ``fields`` of an ``object``, the ``item`` of an ``array``, the schema node
    it reads (behind references and the null wrapper) and the value it starts from (``start``; ``None`` when
    no valid value could be made, ``has_start`` says which).
    """

    name: str
    kind: FieldKind
    required: bool = False
    nullable: bool = False
    description: str = ""
    choices: tuple[Any, ...] = ()
    fields: tuple[FormField, ...] = ()
    item: FormField | None = None
    schema: Mapping[str, Any] = field(default_factory=dict)
    start: Any = None
    has_start: bool = False
    has_default: bool = False
    min_items: int = 0
    max_items: int | None = None

    def field(self, name: str) -> FormField:
        """The sub-field called ``name`` of an object field."""
        for child in self.fields:
            if child.name == name:
                return child
        raise KeyError(f"no field {name!r}; fields: {', '.join(f.name for f in self.fields)}")

    def count(self) -> int:
        """How many fields this one holds, itself excluded, counted through objects (an array's item once)."""
        inner = [*self.fields, *([self.item] if self.item is not None else [])]
        return sum(1 + child.count() for child in inner)


def _kind(node: Mapping[str, Any], resolve: Resolve, depth: int) -> FieldKind:
    if "const" in node or isinstance(node.get("enum"), list):
        return "choice"
    if node.get("anyOf") or node.get("oneOf") or node.get("allOf") or node.get("not"):
        return "json"
    kind = main_type(node, resolve, branches=False)
    if isinstance(node.get("type"), list) and len(node["type"]) > 1:
        return "json"
    if kind == "string" and node.get("format") in _FORMATS:
        return _FORMATS[node["format"]]
    if kind in _SCALARS:
        return _SCALARS[kind]
    if kind == "object" and isinstance(node.get("properties"), Mapping) and node["properties"] and depth < MAX_DEPTH:
        return "object"
    if kind == "array" and isinstance(node.get("items"), Mapping) and "prefixItems" not in node and depth < MAX_DEPTH:
        return "array"
    return "json"


def _accepted(value: Any, node: Mapping[str, Any], resolve: Resolve) -> bool:
    """Whether a documented value (an example) is one the field would take: the right main type, a member of
    the enum, a well-formed date. The validator has the last word when the arguments are sent."""
    if isinstance(node.get("enum"), list) and value not in node["enum"]:
        return False
    fmt = node.get("format")
    if isinstance(value, str) and isinstance(fmt, str) and not check_format(fmt, value):
        return False
    expected = main_type(node, resolve)
    actual = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}.get(
        type(value)
    )
    return expected is None or actual == expected or (expected == "number" and actual == "integer")


def _documented(raw: Any, node: Mapping[str, Any], resolve: Resolve) -> Any:
    for source in (raw, node):
        if not isinstance(source, Mapping):
            continue
        values = source.get("examples")
        candidates = list(values) if isinstance(values, list) else []
        if "example" in source:
            candidates.append(source["example"])
        for value in candidates:
            if value is not None and _accepted(value, node, resolve):
                return value
    return NO_VALUE


def _start(raw: Any, node: Mapping[str, Any], resolve: Resolve) -> tuple[Any, bool]:
    default = default_of(raw, resolve)
    if default is not NO_DEFAULT and default is not None:
        return default, True
    documented = _documented(raw, node, resolve)
    if documented is not NO_VALUE:
        return documented, False
    made = example(node, resolve)
    return (None, False) if made is NO_VALUE else (made, False)


def _field(name: str, raw: Any, required: bool, resolve: Resolve, depth: int) -> FormField:
    node, nullable = core(raw, resolve)
    node = node if isinstance(node, Mapping) else {}
    kind = _kind(node, resolve, depth)
    start, from_default = _start(raw, node, resolve)
    description = raw.get("description") if isinstance(raw, Mapping) else None
    common: dict[str, Any] = {
        "required": required,
        "nullable": nullable or (isinstance(node.get("enum"), list) and None in node["enum"]),
        "description": str(description or node.get("description") or ""),
        "schema": node,
        "start": start,
        "has_start": start is not None,
        "has_default": from_default,
    }
    if kind == "choice":
        members = node["enum"] if "enum" in node else [node["const"]]
        return FormField(name, kind, choices=tuple(v for v in members if v is not None), **common)
    if kind == "object":
        needed = set(node.get("required") or ())
        children = tuple(
            _field(key, value, key in needed, resolve, depth + 1)
            for key, value in node["properties"].items()
            if not (isinstance(value, Mapping) and value.get("readOnly") is True)
        )
        if not from_default and all(c.has_start for c in children if c.required):
            common |= {"start": _object_start(children), "has_start": True}
        return FormField(name, kind, fields=children, **common)
    if kind == "array":
        item = _field("", node["items"], True, resolve, depth + 1)
        low: int = node["minItems"] if isinstance(node.get("minItems"), int) else 0
        high: int | None = node["maxItems"] if isinstance(node.get("maxItems"), int) else None
        if not from_default and item.has_start and not node.get("uniqueItems"):
            common |= {"start": [item.start] * max(low, 1 if required else 0), "has_start": True}
        return FormField(name, kind, item=item, min_items=low, max_items=high, **common)
    return FormField(name, kind, **common)


def _object_start(fields: tuple[FormField, ...]) -> dict[str, Any]:
    """An object's start built from its fields: the required ones and those with a default."""
    return {f.name: f.start for f in fields if (f.required or f.has_default) and f.has_start}


def form_of(args_schema: Mapping[str, Any]) -> FormField:
    """The form of a tool's arguments: an ``object`` field whose ``fields`` are the parameters, in order."""
    resolve = Refs(args_schema)
    root = _field("", args_schema, True, resolve, 0)
    if root.kind != "object":  # a tool without parameters, or a root the form cannot split into fields
        return FormField("", "object", required=True, schema=root.schema, start={}, has_start=True)
    return root


def starting_arguments(args_schema: Mapping[str, Any]) -> dict[str, Any]:
    """Arguments to start editing from: every required parameter (its default, example, or a made valid
    value) and every optional one with a non-null default."""
    return _object_start(form_of(args_schema).fields)
