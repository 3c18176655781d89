"""Request bodies that carry no fields are left out with a loss; bodies that carry fields keep their rules
(JSON and form-urlencoded bodies are hoisted or kept under ``body``; a form whose schema is no object, and
multipart and binary bodies, are refused with their slug)."""

from __future__ import annotations

from typing import Any

import pytest

import toolkit as tk

FORM = "application/x-www-form-urlencoded"
EMPTY_CLOSED = {"type": "object", "properties": {}, "additionalProperties": False}
EMPTY_OPEN = {"type": "object", "properties": {}}


def _stripe_like() -> dict[str, Any]:
    """A pasted fragment shaped like Stripe's description: every operation, GETs included, has a form body."""
    limit = {"name": "limit", "in": "query", "required": False, "schema": {"type": "integer", "maximum": 100}}
    return {
        "paths": {
            "/v1/customers": {
                "get": {
                    "operationId": "GetCustomers",
                    "description": "List customers.",
                    "parameters": [limit],
                    "requestBody": {"content": {FORM: {"schema": EMPTY_CLOSED}}, "required": False},
                },
                "post": {
                    "operationId": "PostCustomers",
                    "description": "Create a customer.",
                    "requestBody": {
                        "content": {FORM: {"schema": {"type": "object", "properties": {"email": {"type": "string"}}}}},
                        "required": False,
                    },
                },
            },
            "/v1/customers/{customer}": {
                "delete": {
                    "operationId": "DeleteCustomersCustomer",
                    "description": "Delete a customer.",
                    "parameters": [{"name": "customer", "in": "path", "required": True, "schema": {"type": "string"}}],
                    "requestBody": {"content": {FORM: {"schema": EMPTY_OPEN}}, "required": False},
                }
            },
        }
    }


def _one(method: str, content: dict[str, Any], **extra: Any) -> tk.Toolset:
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {"/x": {method: {"operationId": "op", "description": "Do it.", "requestBody": {"content": content}}}},
        **extra,
    }
    return tk.from_openapi(spec, "t", select="all")


def test_stripe_like_get_with_empty_form_body_becomes_a_tool() -> None:
    toolset = tk.from_openapi(_stripe_like(), "stripe", select="all")
    tool = toolset["GetCustomers"]
    assert tool.binding == {"limit": "query"}
    assert tool.args_schema["properties"] == {"limit": {"type": "integer", "maximum": 100}}
    (loss,) = [loss for loss in tool.losses if loss.keyword == "requestBody"]
    assert (loss.path, loss.value) == ("", FORM)
    assert loss.reason.startswith("empty form body ignored")
    assert tool.validate({"limit": 3}).status == "ok"
    assert tool.validate({"limit": 3, "email": "a@b.c"}).status == "invalid_arguments"


def test_stripe_like_post_with_form_fields_becomes_a_form_tool() -> None:
    toolset = tk.from_openapi(_stripe_like(), "stripe", select="all")
    assert toolset.rejected == ()
    tool = toolset["PostCustomers"]
    assert tool.binding == {"email": "body.email"}
    assert tool.contract.form == {}


def test_delete_with_open_empty_form_body_becomes_a_tool() -> None:
    tool = tk.from_openapi(_stripe_like(), "stripe", select="all")["DeleteCustomersCustomer"]
    assert tool.binding == {"customer": "path"}
    assert [loss.keyword for loss in tool.contract.source_losses] == ["requestBody"]


@pytest.mark.parametrize("media", [FORM, "multipart/form-data", "application/json", "application/octet-stream"])
def test_closed_empty_body_is_ignored_whatever_the_media_type(media: str) -> None:
    toolset = _one("post", {media: {"schema": EMPTY_CLOSED}})
    assert toolset.rejected == ()
    tool = toolset["op"]
    assert tool.binding == {}
    assert [(loss.keyword, loss.value) for loss in tool.contract.source_losses] == [("requestBody", media)]


def test_empty_body_behind_a_reference_is_ignored() -> None:
    components = {"components": {"schemas": {"Empty": {"type": "object", "additionalProperties": False}}}}
    toolset = _one("post", {FORM: {"schema": {"$ref": "#/components/schemas/Empty"}}}, **components)
    assert toolset.names == ("t_op",)


def test_reference_with_sibling_properties_is_not_empty() -> None:
    components = {"components": {"schemas": {"Empty": {"type": "object", "additionalProperties": False}}}}
    schema = {"$ref": "#/components/schemas/Empty", "properties": {"a": {"type": "string"}}}
    toolset = _one("post", {"multipart/form-data": {"schema": schema}}, **components)
    assert [r.slug for r in toolset.rejected] == ["multipart_body"]


def test_open_empty_multipart_body_on_a_write_method_is_refused() -> None:
    toolset = _one("put", {"multipart/form-data": {"schema": EMPTY_OPEN}})
    assert [r.slug for r in toolset.rejected] == ["multipart_body"]


@pytest.mark.parametrize("method", ["post", "patch"])
def test_open_empty_form_body_on_a_write_method_is_a_free_form_body(method: str) -> None:
    tool = _one(method, {FORM: {"schema": EMPTY_OPEN}})["op"]
    assert tool.binding == {"body": "body"}
    assert tool.contract.form == {}


@pytest.mark.parametrize("method", ["get", "head", "delete"])
def test_open_empty_body_on_a_method_without_body_semantics_is_ignored(method: str) -> None:
    toolset = _one(method, {"application/json": {"schema": EMPTY_OPEN}})
    assert toolset["op"].binding == {}


def test_open_empty_json_body_on_post_stays_a_free_form_body() -> None:
    tool = _one("post", {"application/json": {"schema": {"type": "object"}}})["op"]
    assert tool.binding == {"body": "body"}


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "additionalProperties": {"type": "string"}},
        {"type": "object", "required": ["a"], "additionalProperties": False},
        {"type": "object", "patternProperties": {"^a": {"type": "string"}}, "additionalProperties": False},
        {"allOf": [{"type": "object", "additionalProperties": False}]},
    ],
    ids=["map", "required-name", "pattern-properties", "all-of"],
)
def test_form_body_that_may_carry_fields_is_a_body_argument(schema: dict[str, Any]) -> None:
    tool = _one("get", {FORM: {"schema": schema}, "multipart/form-data": {"schema": schema}})["op"]
    assert tool.binding == {"body": "body"}
    assert tool.contract.form == {}


@pytest.mark.parametrize(
    "schema",
    [{"type": "string"}, {"type": "array", "items": {"type": "string"}}, {"oneOf": [{"type": "object"}]}, {}],
    ids=["string", "array", "one-of", "no-schema"],
)
def test_form_body_that_is_not_an_object_is_refused(schema: dict[str, Any]) -> None:
    toolset = _one("post", {FORM: {"schema": schema}})
    assert [r.slug for r in toolset.rejected] == ["form_body"]


def test_dangling_reference_in_a_form_body_is_refused_as_a_reference() -> None:
    toolset = _one("post", {FORM: {"schema": {"$ref": "#/components/schemas/Missing"}}})
    assert [r.slug for r in toolset.rejected] == ["unresolved_ref"]


# -- descriptions from the path item ----------------------------------------------------------------------
def _described(operation: dict[str, Any], **path_item: Any) -> tk.Toolset:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {"/x": {**path_item, "get": {"operationId": "op", **operation}}},
    }
    return tk.from_openapi(spec, "t", select="all")


def test_path_item_description_describes_an_operation_without_one() -> None:
    toolset = _described({"description": "", "summary": ""}, description="An address resource.")
    assert toolset["op"].description == "An address resource."


def test_operation_summary_wins_over_the_path_item_description() -> None:
    toolset = _described({"summary": "Fetch one."}, description="An address resource.", summary="Addresses")
    assert toolset["op"].description == "Fetch one."


def test_no_description_on_operation_or_path_item_is_refused() -> None:
    toolset = _described({"description": " "}, summary="")
    assert [r.slug for r in toolset.rejected] == ["missing_description"]
