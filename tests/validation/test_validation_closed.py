"""Strict at every depth: invented keys are refused inside nested objects too, unless the schema or policy opens them.

``Policy.unlisted_properties`` (default ``"refuse"``) reads an object schema that lists ``properties`` and says
nothing of ``additionalProperties``/``unevaluatedProperties`` as closed, the way ``unevaluatedProperties:
false`` is read, so what ``allOf`` members, matching branches and ``$ref`` s list counts as listed. The oracle
for the meaning is ``jsonschema`` on the schema as the policy rewrites it (``oracle_gen.close_objects``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from oracle_gen import close_objects
from pydantic import BaseModel, ConfigDict
from typing_extensions import TypedDict

import toolkit as tk
from toolkit import Tool, ToolContract


class Address(BaseModel):
    street: str
    city: str


class OpenAddress(BaseModel):
    model_config = ConfigDict(extra="allow")
    street: str


@dataclasses.dataclass
class Line:
    sku: str
    qty: int


class Note(TypedDict):
    text: str


def ship(address: Address, lines: list[Line], note: Note, extra: OpenAddress) -> str:
    """Ship an order.

    Args:
        address: Where to.
        lines: What.
        note: A note for the courier.
        extra: Anything else the courier should know.
    """
    return "shipped"


GOOD = {
    "address": {"street": "1 Main St", "city": "Springfield"},
    "lines": [{"sku": "a", "qty": 1}],
    "note": {"text": "ring twice"},
    "extra": {"street": "x", "floor": 3},
}


@pytest.fixture(scope="module")
def tool() -> Tool:
    return tk.from_function(ship)


@pytest.mark.parametrize(
    ("where", "args"),
    [
        ("address.floor", {**GOOD, "address": {**GOOD["address"], "floor": 3}}),
        ("lines[0].colour", {**GOOD, "lines": [{"sku": "a", "qty": 1, "colour": "red"}]}),
        ("note.urgent", {**GOOD, "note": {"text": "x", "urgent": True}}),
    ],
    ids=["pydantic-model", "dataclass-in-a-list", "typed-dict"],
)
def test_an_invented_key_is_refused_at_every_depth(tool: Tool, where: str, args: dict[str, Any]) -> None:
    result = tool.validate(args)
    assert [(e.field, e.code) for e in result.errors] == [(where, "unknown_property")]


def test_a_model_that_allows_extra_keys_keeps_them(tool: Tool) -> None:
    result = tool.validate(GOOD)
    assert result.ok
    assert result.data["extra"] == {"street": "x", "floor": 3}


def test_the_policy_can_open_silent_objects_per_tool(tool: Tool) -> None:
    opened = tool.with_policy(unlisted_properties="allow")
    assert opened.validate({**GOOD, "address": {**GOOD["address"], "floor": 3}}).ok
    assert not opened.validate({**GOOD, "surprise": 1}).ok  # the arguments object says additionalProperties: false


def test_the_tool_summary_shows_the_choice(tool: Tool) -> None:
    assert tool.unlisted_note == "unlisted properties: refused at every depth (policy)"
    text = tool._repr_mimebundle_()["text/plain"]
    assert "unlisted properties: refused at every depth (policy)" in text
    assert "unlisted properties: refused at every depth (policy)" in tool._repr_mimebundle_()["text/html"]
    assert "allowed where the schema is silent" in tool.with_policy(unlisted_properties="allow").unlisted_note


def test_a_flat_tool_whose_objects_all_say_it_themselves_shows_no_policy_line() -> None:
    def count(n: int) -> int:
        """Count.

        Args:
            n: How many.
        """
        return n

    flat = tk.from_function(count)
    assert flat.unlisted_note is None
    assert "unlisted properties" not in flat._repr_mimebundle_()["text/plain"]


# -- composition: evaluated the way unevaluatedProperties: false is ------------------------------------------------
def schema_tool(properties: dict[str, Any], **policy: Any) -> Tool:
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    return Tool(contract=ToolContract(name="t", description="d", args_schema=schema), parameters=None,
                policy=tk.Policy(**policy))  # fmt: skip


KINDS = {
    "oneOf": [{"properties": {"kind": {"const": "x"}, "x": {}}}, {"properties": {"kind": {"const": "y"}, "y": {}}}]
}
COMPOSED: dict[str, tuple[Any, Any, bool]] = {
    "allOf-of-two-partial-objects": (
        {"allOf": [{"properties": {"a": {}}}, {"properties": {"b": {}}}]},
        {"a": 1, "b": 2},
        True,
    ),
    "allOf-of-two-partial-objects-and-an-invented-key": (
        {"allOf": [{"properties": {"a": {}}}, {"properties": {"b": {}}}]},
        {"a": 1, "b": 2, "c": 3},
        False,
    ),
    "ref-to-a-base-plus-own-properties": (
        {"allOf": [{"$ref": "#/$defs/Base"}], "properties": {"b": {}}},
        {"a": 1, "b": 2},
        True,
    ),
    "the-matching-branch-lists-the-key": (KINDS, {"kind": "y", "y": 1}, True),
    "a-key-only-the-failing-branch-lists": (KINDS, {"kind": "y", "x": 1}, False),
    "explicit-additional-properties-true-is-honoured": (
        {"properties": {"a": {}}, "additionalProperties": True},
        {"z": 1},
        True,
    ),
    "explicit-additional-properties-schema-is-honoured": (
        {"properties": {"a": {}}, "additionalProperties": {"type": "integer"}},
        {"z": "text"},
        False,
    ),
    "a-required-name-counts-as-listed": ({"properties": {"a": {}}, "required": ["id"]}, {"id": 1}, True),
    "an-object-without-properties-stays-open": ({"type": "object"}, {"anything": 1}, True),
    "pattern-properties-list-their-keys": (
        {"properties": {"a": {}}, "patternProperties": {"^x-": {}}},
        {"x-1": 1},
        True,
    ),
}  # fmt: skip


@pytest.mark.parametrize(("schema", "value", "valid"), list(COMPOSED.values()), ids=list(COMPOSED))
def test_composition_is_closed_as_unevaluated_properties_false_reads_it(schema: Any, value: Any, valid: bool) -> None:
    document = {"type": "object", "properties": {"v": schema}, "$defs": {"Base": {"properties": {"a": {}}}}}
    oracle = Draft202012Validator(close_objects(document)).is_valid({"v": value})
    assert oracle == valid
    tool = Tool(contract=ToolContract(name="t", description="d", args_schema=document), parameters=None)
    assert tool.validate({"v": value}).ok == valid


def test_an_openapi_body_that_says_nothing_of_extra_keys_refuses_them() -> None:
    body = {"type": "object", "properties": {"name": {"type": "string"}, "tags": {"type": "object",
            "properties": {"colour": {"type": "string"}}}}}  # fmt: skip
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {"/things": {"post": {"operationId": "makeThing", "description": "Make a thing.",
                  "requestBody": {"content": {"application/json": {"schema": body}}},
                  "responses": {"200": {"description": "ok"}}}}},
    }  # fmt: skip
    (thing,) = tk.from_openapi(spec, "things", select="all").tools
    assert thing.binding == {"name": "body.name", "tags": "body.tags"}  # the body's properties are hoisted
    result = thing.validate({"name": "a", "tags": {"colour": "red", "size": 3}})
    assert [(e.field, e.code) for e in result.errors] == [("tags.size", "unknown_property")]
    assert thing.unlisted_note == "unlisted properties: refused at every depth (policy)"
