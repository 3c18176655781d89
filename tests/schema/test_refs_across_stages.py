"""One reference means the same thing in every stage, and fails with the same slug in every stage.

The stages: lowering (``tk.lower``, every dialect), validation (``tool.validate``), the lints, the fixtures
(``tk.fixtures``) and the OpenAPI stage (``tk.from_openapi``, which refuses the operation with that slug).
A tool is built here from its contract alone (``Tool(contract, parameters=None)``) so that each stage meets
the schema on its own, as it would in a notebook that calls it directly. Valid references are checked
against ``jsonschema`` as the oracle for what validation accepts.

Internals: ``_lints.lint`` and ``build_tool``, two of the stages whose reading of one reference is compared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import jsonschema
import pytest

import toolkit as tk
from toolkit import Policy, Tool, ToolContract
from toolkit._lints import lint


def tool_of(schema: dict[str, Any]) -> Tool:
    contract = ToolContract(name="t", description="A tool with references.", args_schema=schema)
    return Tool(contract=contract, parameters=None, policy=Policy())


def schema_with(ref: Any, defs: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": {"x": {"$ref": ref, "description": "The x."}}, "$defs": defs}


def openapi_with(ref: Any, schemas: dict[str, Any]) -> dict[str, Any]:
    body = {"type": "object", "properties": {"x": {"$ref": ref, "description": "The x."}}}
    operation = {
        "operationId": "makeThing",
        "description": "Make a thing.",
        "requestBody": {"required": True, "content": {"application/json": {"schema": body}}},
        "responses": {"200": {"description": "Made."}},
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "Things", "version": "1"},
        "paths": {"/things": {"post": operation}},
        "components": {"schemas": schemas},
    }


# -- the same slug everywhere -----------------------------------------------------------------------------
def _lower(schema: dict[str, Any]) -> None:
    tk.lower(schema)


def _lower_json(schema: dict[str, Any]) -> None:
    for dialect in ("gemini_json", "openai", "anthropic", "mcp"):
        tk.lower(schema, dialect=dialect)


def _validate(schema: dict[str, Any]) -> None:
    tool_of(schema).validate({})  # refused whatever the arguments: every reference is read first


def _lints(schema: dict[str, Any]) -> None:
    lint(tool_of(schema))


def _fixtures(schema: dict[str, Any]) -> None:
    tk.fixtures(tool_of(schema))


def _build(schema: dict[str, Any]) -> None:
    from toolkit._tool import build_tool

    build_tool(tool_of(schema).contract)


STAGES: dict[str, Callable[[dict[str, Any]], None]] = {
    "lower": _lower,
    "lower-json-dialects": _lower_json,
    "validate": _validate,
    "lints": _lints,
    "fixtures": _fixtures,
    "build-tool": _build,
}


class Problem(NamedTuple):
    """A bad reference in a schema (with its ``$defs``) and in an OpenAPI document (with its component schemas)."""

    ref: Any
    defs: dict[str, Any]
    openapi_ref: Any
    schemas: dict[str, Any]
    slug: str


ONE = {"A": {"enum": [1]}}
LOOP = {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}
COMPONENT_LOOP = {"A": {"$ref": "#/components/schemas/B"}, "B": {"$ref": "#/components/schemas/A"}}
PROBLEMS = {
    "dangling": Problem("#/$defs/Missing", {}, "#/components/schemas/Missing", {}, "unresolved_ref"),
    "past-a-list": Problem("#/$defs/A/enum/3", ONE, "#/components/schemas/A/enum/3", ONE, "unresolved_ref"),
    "anchor-undeclared": Problem(
        "#thing", {"T": {"$anchor": "other"}}, "#thing", {"T": {"$anchor": "thing"}}, "unresolved_ref"
    ),
    "remote-url": Problem("https://example.com/s.json", {}, "https://example.com/s.json", {}, "remote_ref"),
    "remote-file": Problem("other.json#/$defs/A", {}, "other.yaml#/components/schemas/A", {}, "remote_ref"),
    "bad-tilde": Problem("#/$defs/a~2b", {"a~2b": {}}, "#/components/schemas/a~2b", {"a~2b": {}}, "bad_ref"),
    "bad-percent": Problem("#/$defs/%zz", {"%zz": {}}, "#/components/schemas/%zz", {"%zz": {}}, "bad_ref"),
    "not-a-string": Problem(7, {}, 7, {}, "bad_ref"),
    "ref-chain-loop": Problem("#/$defs/A", LOOP, "#/components/schemas/A", COMPONENT_LOOP, "left_recursive_ref"),
}


@pytest.mark.timeout(10)
@pytest.mark.parametrize("stage", list(STAGES))
@pytest.mark.parametrize("problem", list(PROBLEMS))
def test_a_bad_reference_gives_the_same_slug_in_every_stage(problem: str, stage: str) -> None:
    case = PROBLEMS[problem]
    with pytest.raises(tk.SchemaError) as caught:
        STAGES[stage](schema_with(case.ref, case.defs))
    assert caught.value.slug == case.slug


@pytest.mark.timeout(10)
@pytest.mark.parametrize("problem", list(PROBLEMS))
def test_a_bad_reference_refuses_the_openapi_operation_with_the_same_slug(problem: str) -> None:
    case = PROBLEMS[problem]
    toolset = tk.from_openapi(openapi_with(case.openapi_ref, case.schemas), "things", select="all")
    assert [(r.operation_id, r.slug) for r in toolset.rejected] == [("makeThing", case.slug)]


LEFT_RECURSIVE = {
    "self-anyOf": {"A": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "string"}]}},
    "through-not": {"A": {"not": {"$ref": "#/$defs/A"}}},
    "through-allOf-of-another": {"A": {"allOf": [{"$ref": "#/$defs/B"}]}, "B": {"oneOf": [{"$ref": "#/$defs/A"}]}},
    "behind-additionalProperties": {
        "A": {"additionalProperties": {"$ref": "#/$defs/B"}},
        "B": {"anyOf": [{"$ref": "#/$defs/B"}, {"type": "integer"}]},
    },
    "behind-the-depth-cut": {
        **{f"D{i}": {"type": "object", "properties": {"d": {"$ref": f"#/$defs/D{i + 1}"}}} for i in range(12)},
        "D12": {"anyOf": [{"$ref": "#/$defs/D12"}, {"type": "null"}]},
    },
}
"""Cycles that never read into the value; lowering walks past some of them (``not`` and
``additionalProperties`` are dropped, the depth limit cuts inlining) and must refuse them all the same."""


@pytest.mark.timeout(10)
@pytest.mark.parametrize("stage", ["lower", "lower-json-dialects", "validate", "fixtures", "build-tool"])
@pytest.mark.parametrize("defs", list(LEFT_RECURSIVE.values()), ids=list(LEFT_RECURSIVE))
def test_a_left_recursive_schema_is_refused_in_every_stage_that_reads_it_whole(defs: Any, stage: str) -> None:
    start = "#/$defs/D0" if "D0" in defs else "#/$defs/A"
    with pytest.raises(tk.SchemaError) as caught:
        STAGES[stage](schema_with(start, defs))
    assert caught.value.slug == "left_recursive_ref"


def test_a_left_recursive_component_refuses_the_openapi_operation() -> None:
    schemas = {"A": {"anyOf": [{"$ref": "#/components/schemas/A"}, {"type": "string"}]}}
    toolset = tk.from_openapi(openapi_with("#/components/schemas/A", schemas), "things", select="all")
    assert [(r.operation_id, r.slug) for r in toolset.rejected] == [("makeThing", "left_recursive_ref")]


# -- escaped names read the same everywhere ---------------------------------------------------------------
ESCAPED = {
    "percent-space": ("#/$defs/my%20thing", "my thing"),
    "tilde-one": ("#/$defs/a~1b", "a/b"),
    "tilde-zero": ("#/$defs/a~0b", "a~b"),
    "percent-encoded-tilde": ("#/$defs/a%7E1b", "a/b"),
    "percent-encoded-slash": ("#/$defs%2Fplain", "plain"),
    "non-ascii": ("#/$defs/caf%C3%A9", "café"),
}
BOUNDED = {"type": "integer", "minimum": 1, "maximum": 5, "description": "How many, from 1 to 5."}


@pytest.mark.parametrize(("ref", "key"), list(ESCAPED.values()), ids=list(ESCAPED))
def test_an_escaped_reference_lowers_validates_lints_and_fires(ref: str, key: str) -> None:
    schema = schema_with(ref, {key: BOUNDED})
    lowered = tk.lower(schema)
    assert lowered.schema["properties"]["x"]["type"] == "INTEGER"
    assert lowered.schema["properties"]["x"]["maximum"] == 5
    tool = tool_of(schema)
    oracle = jsonschema.Draft202012Validator(schema)
    for value in (3, 9, "3"):
        assert tool.validate({"x": value}).ok == oracle.is_valid({"x": value}), value
    assert [e.code for e in tool.validate({"x": 9}).errors] == ["out_of_range"]
    assert "untyped_value" not in [item.slug for item in lint(tool)]  # the lints read the target, not {}
    assert tk.fire(tool).failures == ()


def test_a_plain_name_anchor_lowers_validates_lints_and_fires() -> None:
    schema = schema_with("#count", {"C": {**BOUNDED, "$anchor": "count"}})
    assert tk.lower(schema).schema["properties"]["x"]["maximum"] == 5
    tool = tool_of(schema)
    assert tool.validate({"x": 3}).ok
    assert [e.code for e in tool.validate({"x": 9}).errors] == ["out_of_range"]
    assert tk.fire(tool).failures == ()


@pytest.mark.parametrize(("ref", "key"), list(ESCAPED.values()), ids=list(ESCAPED))
def test_an_escaped_reference_in_an_openapi_document_builds_a_tool_that_validates(ref: str, key: str) -> None:
    component = ref.replace("#/$defs", "#/components/schemas")
    toolset = tk.from_openapi(openapi_with(component, {key: BOUNDED}), "things", select="all")
    assert toolset.rejected == ()
    (tool,) = toolset.tools
    assert tool.validate({"x": 3}).ok
    assert [e.code for e in tool.validate({"x": 9}).errors] == ["out_of_range"]
