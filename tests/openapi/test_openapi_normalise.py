"""Schemas are normalised to JSON Schema 2020-12 before lowering, and nothing OpenAPI-only leaks.

Internals: ``_openapi._normalise`` (``normalise``, ``Walk``), the normaliser under test."""

from __future__ import annotations

from typing import Any

import pytest

import toolkit as tk
from toolkit._openapi._normalise import Walk, normalise


def _norm(schema: Any) -> Any:
    return normalise(schema, Walk(ref_hook=lambda ref: "#/$defs/X"), "")


def _body_tool(schema: dict[str, Any], version: str = "3.0.3") -> tk.Tool:
    spec = {
        "openapi": version,
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/x": {
                "post": {
                    "operationId": "send",
                    "description": "Send it.",
                    "requestBody": {"required": True, "content": {"application/json": {"schema": schema}}},
                }
            }
        },
    }
    return tk.from_openapi(spec, "t", select="all")["send"]


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "string", "nullable": True}, {"type": ["string", "null"]}),
        ({"type": "string", "enum": ["a"], "nullable": True}, {"type": ["string", "null"], "enum": ["a", None]}),
        ({"$ref": "#/components/schemas/A", "nullable": True}, {"anyOf": [{"$ref": "#/$defs/X"}, {"type": "null"}]}),
        ({"type": "integer", "minimum": 1, "exclusiveMinimum": True}, {"type": "integer", "exclusiveMinimum": 1}),
        ({"type": "integer", "exclusiveMaximum": True, "maximum": 9}, {"type": "integer", "exclusiveMaximum": 9}),
        ({"type": "integer", "maximum": 9, "exclusiveMaximum": False}, {"type": "integer", "maximum": 9}),
        ({"type": "integer", "exclusiveMinimum": 0}, {"type": "integer", "exclusiveMinimum": 0}),
        ({"type": ["string", "null"]}, {"type": ["string", "null"]}),
        ({"type": "string", "example": "x"}, {"type": "string", "examples": ["x"]}),
        ({"type": "array", "items": [{"type": "string"}]}, {"type": "array", "prefixItems": [{"type": "string"}]}),
        (
            {"type": "string", "xml": {"name": "a"}, "deprecated": True, "x-internal": 1, "externalDocs": {}},
            {"type": "string"},
        ),
    ],
    ids=[
        "nullable-type-array",
        "nullable-enum-gains-null",
        "nullable-ref-anyof",
        "exclusive-minimum-boolean",
        "exclusive-maximum-before-bound",
        "exclusive-false-keeps-bound",
        "exclusive-number-kept",
        "type-array-kept",
        "example-to-examples",
        "tuple-items-to-prefix-items",
        "openapi-only-keys-dropped",
    ],
)
def test_schema_normalises_to_2020_12(schema: dict[str, Any], expected: dict[str, Any]) -> None:
    assert _norm(schema) == expected


def test_discriminator_is_recorded_as_a_loss() -> None:
    walk = Walk(ref_hook=lambda ref: "#/$defs/X")
    out = normalise({"oneOf": [{"type": "object"}], "discriminator": {"propertyName": "kind"}}, walk, "/properties/a")
    assert "discriminator" not in out
    assert [(loss.path, loss.keyword) for loss in walk.losses] == [("/properties/a", "discriminator")]


def test_read_only_properties_are_dropped_and_leave_required() -> None:
    tool = _body_tool(
        {
            "type": "object",
            "required": ["id", "name", "secret"],
            "properties": {
                "id": {"type": "string", "readOnly": True},
                "name": {"type": "string"},
                "secret": {"type": "string", "writeOnly": True},
            },
        }
    )
    assert set(tool.args_schema["properties"]) == {"name", "secret"}
    assert tool.args_schema["required"] == ["name", "secret"]


def test_nested_read_only_properties_are_dropped_too() -> None:
    tool = _body_tool(
        {
            "type": "object",
            "properties": {
                "inner": {"type": "object", "properties": {"id": {"readOnly": True}, "v": {"type": "string"}}}
            },
        }
    )
    assert set(tool.args_schema["properties"]["inner"]["properties"]) == {"v"}


def test_example_xml_deprecated_and_extensions_never_reach_the_declaration() -> None:
    tool = _body_tool(
        {
            "type": "object",
            "properties": {
                "a": {"type": "string", "example": "x", "xml": {"name": "A"}, "deprecated": True, "x-secret": "s"}
            },
        }
    )
    text = str(tool.declaration)
    for key in ("example", "xml", "deprecated", "x-secret"):
        assert key not in text


def test_ref_siblings_are_ignored_in_3_0_but_kept_in_3_1() -> None:
    schema = {"$ref": "#/components/schemas/A", "description": "d", "maxLength": 3}
    walk_30 = Walk(ref_hook=lambda ref: "#/$defs/A", ref_siblings=False)
    walk_31 = Walk(ref_hook=lambda ref: "#/$defs/A", ref_siblings=True)
    assert normalise(schema, walk_30, "") == {"$ref": "#/$defs/A", "description": "d"}
    assert normalise(schema, walk_31, "") == {"$ref": "#/$defs/A", "description": "d", "maxLength": 3}


def test_document_is_not_modified() -> None:
    import copy

    schema = {
        "type": "object",
        "nullable": True,
        "properties": {"a": {"type": "integer", "minimum": 0, "exclusiveMinimum": True}},
    }
    before = copy.deepcopy(schema)
    _body_tool(schema)
    assert schema == before


def test_shared_schemas_become_defs_not_copies() -> None:
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/x": {
                "post": {
                    "operationId": "send",
                    "description": "Send.",
                    "requestBody": {
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "a": {"$ref": "#/components/schemas/M"},
                                        "b": {"$ref": "#/components/schemas/M"},
                                    },
                                }
                            }
                        }
                    },
                }
            }
        },
        "components": {"schemas": {"M": {"type": "string", "maxLength": 3}}},
    }
    schema = tk.from_openapi(spec, "t", select="all")["send"].args_schema
    assert schema["properties"]["a"] == schema["properties"]["b"] == {"$ref": "#/$defs/M"}
    assert schema["$defs"] == {"M": {"type": "string", "maxLength": 3}}


def test_read_only_parameter_schema_keeps_the_parameter_and_ref_properties_are_dropped() -> None:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/alerts/{number}": {
                "patch": {
                    "operationId": "update",
                    "description": "Update an alert.",
                    "parameters": [
                        {"name": "number", "in": "path", "required": True, "schema": {"$ref": "#/components/schemas/N"}}
                    ],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "id": {"$ref": "#/components/schemas/N"},
                                        "state": {"type": "string"},
                                    },
                                }
                            }
                        },
                    },
                }
            }
        },
        "components": {"schemas": {"N": {"type": "integer", "readOnly": True}}},
    }
    tool = tk.from_openapi(spec, "t", select="all")["update"]
    assert tool.binding == {"number": "path", "state": "body.state"}
    assert tool.declaration["parameters"]["required"] == ["number"]
    assert not any(loss.keyword == "readOnly" for loss in tool.losses)
