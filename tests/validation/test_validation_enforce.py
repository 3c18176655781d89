"""A schema the validator could not enforce refuses the tool when it is built, with a slug, never on a call.

Internals: ``build_tool``, for a tool from a hand-written JSON Schema, which no public constructor takes."""

from __future__ import annotations

from typing import Any

import pytest

import toolkit as tk
from toolkit import SchemaError, ToolContract
from toolkit._tool import build_tool


def build(schema: dict[str, Any]) -> tk.Tool:
    return build_tool(ToolContract(name="t", description="d", args_schema=schema, source="schema"))


def with_property(node: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"x": node}, "additionalProperties": False}


REFUSED: dict[str, tuple[Any, str]] = {
    "draft-07-dependencies": ({"dependencies": {"a": ["b"]}}, "unsupported_keyword"),
    "2019-09-additional-items": ({"prefixItems": [{}], "additionalItems": False}, "unsupported_keyword"),
    "recursive-ref": ({"$recursiveRef": "#"}, "unsupported_keyword"),
    "items-as-a-list": ({"items": [{"type": "string"}]}, "bad_keyword"),
    "boolean-exclusive-minimum": ({"type": "number", "minimum": 0, "exclusiveMinimum": True}, "bad_keyword"),
    "multiple-of-zero": ({"multipleOf": 0}, "bad_keyword"),
    "nan-bound": ({"maximum": float("nan")}, "bad_keyword"),
    "negative-max-contains": ({"contains": {}, "maxContains": -1}, "bad_keyword"),
    "required-not-a-list": ({"required": "a"}, "bad_keyword"),
    "enum-with-nan": ({"enum": [1, float("nan")]}, "bad_keyword"),
    "dependent-required-not-names": ({"dependentRequired": {"a": "b"}}, "bad_keyword"),
    "unevaluated-properties-not-a-schema": ({"unevaluatedProperties": "no"}, "bad_keyword"),
    "empty-any-of": ({"anyOf": []}, "bad_keyword"),
    "unknown-type": ({"type": "str"}, "bad_keyword"),
    "unreadable-pattern": ({"type": "string", "pattern": "(?<n>x"}, "bad_pattern"),
    "dynamic-ref-to-nowhere": ({"$dynamicRef": "#nothing"}, "unresolved_ref"),
}


@pytest.mark.parametrize(("node", "slug"), list(REFUSED.values()), ids=list(REFUSED))
def test_a_schema_the_validator_cannot_enforce_is_refused_when_built(node: Any, slug: str) -> None:
    with pytest.raises(SchemaError) as caught:
        build(with_property(node))
    assert caught.value.slug == slug
    assert "/properties/x" in caught.value.message or slug in ("bad_pattern", "unresolved_ref")


def test_an_unused_definition_is_not_read() -> None:
    schema = with_property({"type": "string"}) | {"$defs": {"unused": {"pattern": "(", "dependencies": {}}}}
    assert build(schema).validate({"x": "a"}).ok


def test_annotations_and_unknown_keywords_are_not_refused() -> None:
    node = {"type": "string", "examples": ["a"], "x-vendor": {"pattern": "("}, "contentMediaType": "text/plain"}
    assert build(with_property(node)).validate({"x": "a"}).ok


def test_a_refused_schema_refuses_the_openapi_operation_with_the_same_slug() -> None:
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/a": {"post": {"operationId": "keepsOld", "description": "Old keyword.",
                            "requestBody": {"content": {"application/json": {"schema": {
                                "type": "object", "properties": {"a": {}}, "dependencies": {"a": ["b"]}}}}},
                            "responses": {"200": {"description": "ok"}}}},
            "/b": {"get": {"operationId": "fine", "description": "Fine.", "responses": {"200": {"description": "ok"}}}},
        },
    }  # fmt: skip
    toolset = tk.from_openapi(spec, "t", select="all")
    assert [(r.operation_id, r.slug) for r in toolset.rejected] == [("keepsOld", "unsupported_keyword")]
    assert [t.operation_id for t in toolset.tools] == ["fine"]
