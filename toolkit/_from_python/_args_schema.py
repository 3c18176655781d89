"""Turn a pydantic arguments model into a clean JSON Schema 2020-12 ``args_schema``.

pydantic does the type work; this module shapes the result for tools:

* ``title`` keywords and other generator artefacts are removed (they are noise for the model and leak
  Python class names); ``$defs`` stay for models, enums and recursion.
* :class:`~decimal.Decimal` travels as a decimal *string* (``"19.99"``), never a float. Bounds on it cannot
  be written in JSON Schema for strings, so they are reported as losses and enforced on conversion.
* Models, dataclasses and ``TypedDict`` classes take their description from the class docstring without its
  ``Attributes`` section, and each field without a description takes it from that section.
* Warnings pydantic raises while generating (for example a default it cannot serialise) become losses
  instead of warnings.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue, PydanticJsonSchemaWarning
from pydantic_core import core_schema

from toolkit._contract import CONVERTED, DECIMAL_BOUNDS, Loss
from toolkit._from_python._docstrings import parse_docstring
from toolkit._schema import SCHEMA_LIST, SCHEMA_MAP, SCHEMA_ONE, escape

__all__ = ["DECIMAL_PATTERN", "args_schema_of"]

DECIMAL_PATTERN = r"^-?(0|[1-9][0-9]*)(\.[0-9]+)?$"
"""A plain decimal number written as a string: no exponent, no leading zeros, no thousands separators."""

_DECIMAL_MARK = "x-toolkit-decimal-bounds"
_ARTEFACTS = ("title",)


class _ToolSchemaGenerator(GenerateJsonSchema):
    """pydantic's generator with the tool conventions above (one small override per node kind)."""

    def decimal_schema(self, schema: core_schema.DecimalSchema) -> JsonSchemaValue:
        out: dict[str, Any] = {"type": "string", "pattern": DECIMAL_PATTERN}
        bounds = {DECIMAL_BOUNDS[k]: _jsonable(schema[k]) for k in DECIMAL_BOUNDS if schema.get(k) is not None}  # type: ignore[literal-required]
        if bounds:
            out[_DECIMAL_MARK] = bounds
        return out

    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        return _with_class_docs(super().model_schema(schema), schema.get("cls"))

    def dataclass_schema(self, schema: core_schema.DataclassSchema) -> JsonSchemaValue:
        return _with_class_docs(super().dataclass_schema(schema), schema.get("cls"))

    def typed_dict_schema(self, schema: core_schema.TypedDictSchema) -> JsonSchemaValue:
        return _with_class_docs(super().typed_dict_schema(schema), schema.get("cls"))


def _jsonable(value: Any) -> Any:
    return value if isinstance(value, int) else str(value)


def _with_class_docs(json_schema: JsonSchemaValue, cls: Any) -> JsonSchemaValue:
    """Replace pydantic's raw-docstring description and fill field descriptions from ``Attributes``."""
    if cls is None or "properties" not in json_schema:
        return json_schema
    doc = parse_docstring(cls)
    json_schema.pop("description", None)
    if doc.description:
        json_schema["description"] = doc.description
    for name, prop in json_schema["properties"].items():
        if isinstance(prop, dict) and "description" not in prop and name in doc.params:
            prop["description"] = doc.params[name]
    return json_schema


def args_schema_of(model: type[BaseModel]) -> tuple[dict[str, Any], tuple[Loss, ...]]:
    """The cleaned ``args_schema`` of an arguments model, and the losses found while deriving it."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PydanticJsonSchemaWarning)
        raw = model.model_json_schema(schema_generator=_ToolSchemaGenerator)
    losses = [Loss("", "default", None, str(w.message)) for w in caught if issubclass(w.category, UserWarning)]
    schema = _clean(raw, "", losses)
    schema.pop("description", None)  # the tool description comes from the function, not the model
    schema["type"] = "object"
    schema.setdefault("properties", {})
    schema["additionalProperties"] = False
    return schema, tuple(losses)


def _clean(node: Any, pointer: str, losses: list[Loss]) -> Any:
    """Copy a schema node without artefacts, turning decimal markers into losses (recursive, finite tree).

    Every position a 2020-12 schema holds a subschema at is entered (pydantic writes 2020-12), so a ``title``
    is an artefact wherever it stands, ``contentSchema`` and ``definitions`` from ``json_schema_extra`` included.
    """
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _ARTEFACTS and isinstance(value, str):
            continue
        if key == _DECIMAL_MARK:
            losses.extend(_decimal_losses(pointer, value))
        elif key in SCHEMA_MAP and isinstance(value, dict):
            out[key] = {k: _clean(v, f"{pointer}/{key}/{escape(k)}", losses) for k, v in value.items()}
        elif key in SCHEMA_ONE:
            out[key] = _clean(value, f"{pointer}/{key}", losses)
        elif key in SCHEMA_LIST and isinstance(value, list):
            out[key] = [_clean(v, f"{pointer}/{key}/{i}", losses) for i, v in enumerate(value)]
        else:
            out[key] = value
    return out


def _decimal_losses(pointer: str, bounds: dict[str, Any]) -> Iterator[Loss]:
    for keyword, value in bounds.items():
        yield Loss(pointer, keyword, value, CONVERTED)
