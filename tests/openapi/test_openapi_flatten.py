"""Flattening an operation's inputs into one arguments object, with a binding back to the HTTP request."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from locations import TESTS

import toolkit as tk

BAD = TESTS / "bad_specs"


def _tool(operation: dict[str, Any], *, components: dict[str, Any] | None = None, version: str = "3.1.0") -> tk.Tool:
    spec = {
        "openapi": version,
        "info": {"title": "t", "version": "1"},
        "paths": {"/things/{id}": {"post": {"operationId": "op", "description": "Do it.", **operation}}},
        "components": components or {},
    }
    toolset = tk.from_openapi(spec, "t", select="all")
    assert not toolset.rejected, toolset.rejected
    return toolset["op"]


def _body(schema: dict[str, Any], *, required: bool = True) -> dict[str, Any]:
    return {"requestBody": {"required": required, "content": {"application/json": {"schema": schema}}}}


ID = {"name": "id", "in": "path", "schema": {"type": "string"}}


def test_orders_bindings_match_the_seed(repo_root: Path) -> None:
    toolset = tk.from_openapi(repo_root / "specs" / "orders.yaml", "orders")
    assert toolset["orders_get"].binding == {"orderId": "path", "expand": "query"}
    refund = toolset["orders_refund_create"]
    assert refund.binding == {
        "orderId": "path",
        "amount_minor": "body.amount_minor",
        "reason": "body.reason",
        "note": "body.note",
    }
    assert refund.contract.idempotency_key == "header.Idempotency-Key"  # the runtime's, never the model's


def test_path_parameters_are_always_required() -> None:
    tool = _tool({"parameters": [ID, {"name": "q", "in": "query", "schema": {"type": "string"}}]})
    assert tool.args_schema["required"] == ["id"]


def test_query_parameters_keep_their_own_required_flag() -> None:
    tool = _tool({"parameters": [ID, {"name": "q", "in": "query", "required": True, "schema": {"type": "string"}}]})
    assert tool.args_schema["required"] == ["id", "q"]


def test_renamed_arguments_bind_to_their_original_names_and_are_reported() -> None:
    tool = tk.from_openapi(BAD / "arguments.yaml", "bad", select="all")["getItem"]
    assert tool.binding == {
        "item_id": "path.item-id",
        "page_size": "query.page[size]",
        "x_request_id": "header.X-Request-ID",
    }
    renames = {(loss.path, loss.value) for loss in tool.losses if loss.keyword == "name"}
    assert renames == {
        ("/properties/item_id", "item-id"),
        ("/properties/page_size", "page[size]"),
        ("/properties/x_request_id", "X-Request-ID"),
    }


def test_credentials_and_cookies_never_reach_the_model() -> None:
    tool = tk.from_openapi(BAD / "arguments.yaml", "bad", select="all")["getItem"]
    text = str(tool.declaration).lower()
    for secret in ("authorization", "x-api-key", "x_api_key", "api_key", "session"):
        assert secret not in text
    assert any(loss.keyword == "parameter" and loss.value == "cookie.session" for loss in tool.losses)


def test_swagger2_api_key_in_query_is_removed_and_body_hoisted() -> None:
    tool = tk.from_openapi(BAD / "swagger2_forms.json", "bad", select="all")["json"]
    assert tool.binding == {"n": "body.n"}
    assert tool.args_schema["properties"]["n"] == {"type": ["integer", "null"]}
    assert tool.args_schema["required"] == ["n"]


def test_object_body_properties_are_hoisted() -> None:
    tool = _tool(
        {
            "parameters": [ID],
            **_body(
                {
                    "type": "object",
                    "required": ["a"],
                    "properties": {"a": {"type": "string"}, "b-c": {"type": "integer"}},
                }
            ),
        }
    )
    assert tool.binding == {"id": "path", "a": "body.a", "b_c": "body.b-c"}
    assert tool.args_schema["required"] == ["id", "a"]


def test_body_referenced_through_components_is_hoisted() -> None:
    components = {"schemas": {"New": {"type": "object", "properties": {"a": {"type": "string"}}}}}
    tool = _tool(_body({"$ref": "#/components/schemas/New"}), components=components)
    assert tool.binding == {"a": "body.a"}
    assert "$defs" not in tool.args_schema


def test_body_colliding_with_a_parameter_goes_under_body() -> None:
    tool = _tool({"parameters": [ID], **_body({"type": "object", "properties": {"id": {"type": "string"}}})})
    assert tool.binding == {"id": "path", "body": "body"}
    assert tool.args_schema["properties"]["body"]["properties"] == {"id": {"type": "string"}}
    assert tool.args_schema["required"] == ["id", "body"]


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "array", "items": {"type": "string"}},
        {"type": "string"},
        {"type": "object", "additionalProperties": {"type": "string"}},
        {"oneOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "string"}]},
        {"type": "object", "properties": {"a": {"type": "string"}}, "nullable": True},
    ],
    ids=["array", "string", "map", "one-of", "nullable-object"],
)
def test_non_plain_object_body_goes_under_body(schema: dict[str, Any]) -> None:
    tool = _tool(_body(schema), version="3.0.3")
    assert tool.binding == {"body": "body"}


def test_optional_body_with_required_properties_stays_whole() -> None:
    tool = _tool(_body({"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}}, required=False))
    assert tool.binding == {"body": "body"}
    assert "required" not in tool.args_schema


def test_optional_body_without_required_properties_is_hoisted() -> None:
    tool = _tool(_body({"type": "object", "properties": {"a": {"type": "string"}}}, required=False))
    assert tool.binding == {"a": "body.a"}


def test_operation_parameter_overrides_the_path_item_parameter() -> None:
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/x": {
                "parameters": [{"name": "q", "in": "query", "description": "path level", "schema": {"type": "string"}}],
                "get": {
                    "operationId": "op",
                    "description": "Do.",
                    "parameters": [
                        {"name": "q", "in": "query", "description": "operation level", "schema": {"type": "integer"}}
                    ],
                },
            }
        },
    }
    tool = tk.from_openapi(spec, "t", select="all")["op"]
    assert tool.args_schema["properties"]["q"] == {"type": "integer", "description": "operation level"}


def test_parameter_with_content_uses_its_media_schema() -> None:
    tool = _tool(
        {
            "parameters": [
                {"name": "filter", "in": "query", "content": {"application/json": {"schema": {"type": "object"}}}}
            ]
        }
    )
    assert tool.args_schema["properties"]["filter"] == {"type": "object"}


def test_tool_without_inputs_has_no_parameters() -> None:
    tool = _tool({})
    assert "parameters" not in tool.declaration
    assert tool.binding == {}


def test_declarations_are_accepted_by_google_genai(repo_root: Path) -> None:
    from google.genai import types

    for tool in tk.from_openapi(repo_root / "specs" / "orders.yaml", "orders", select="all"):
        types.FunctionDeclaration.model_validate(tool.declaration)


def test_hoisted_body_definition_stays_in_defs_when_a_parameter_needs_it() -> None:
    components = {"schemas": {"Thing": {"type": "object", "properties": {"a": {"type": "string"}}}}}
    parameter = {"name": "filter", "in": "query", "schema": {"$ref": "#/components/schemas/Thing"}}
    tool = _tool({"parameters": [parameter], **_body({"$ref": "#/components/schemas/Thing"})}, components=components)
    assert tool.binding == {"filter": "query", "a": "body.a"}
    assert tool.args_schema["$defs"] == {"Thing": components["schemas"]["Thing"]}


@pytest.mark.parametrize(
    ("key", "ref"),
    [("a b", "#/components/schemas/a%20b"), ("a/b", "#/components/schemas/a~1b"), ("a~b", "#/components/schemas/a~0b")],
    ids=["percent-encoded", "escaped-slash", "escaped-tilde"],
)
def test_escaped_and_percent_encoded_refs_resolve(key: str, ref: str) -> None:
    components = {"schemas": {key: {"type": "string", "maxLength": 3}}}
    tool = _tool({"parameters": [{"name": "q", "in": "query", "schema": {"$ref": ref}}]}, components=components)
    (schema,) = tool.args_schema["$defs"].values()
    assert schema == {"type": "string", "maxLength": 3}
    assert tool.validate({"q": "abcd"}).status == "invalid_arguments"
