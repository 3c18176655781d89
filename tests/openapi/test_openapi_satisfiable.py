"""Every tool can be called: a schema no value can satisfy is read in its one meaning with a recorded loss, or
its operation is refused ``unsatisfiable_schema`` naming the node and why; never built broken.

The two real shapes, in small fragments written for the test: Fivetran's ``{type: integer, enum: ["5", "15",
...]}`` (an integer enum of numeric strings: the integers are meant) and Plaid's ``{type: string, enum: [3,
null]}`` (a nullable string enum of ``"3"``). For each, the tool builds; its Gemini declaration and its
validator agree (every value the declaration offers passes); the documented meaning is callable; the loss is
recorded; ``tk.fire`` finds no fixture whose verdict differs from the expected one; and the baseline call passes
the JSON Schema 2020-12 oracle (``jsonschema``) on ``args_schema``.

Internals: ``toolkit._schema.REPAIRED`` (how a repair's loss reason begins) and ``toolkit._validation._expected``
(``describe``: the ``expected`` words of a schema a Python source may still hand over with a dead member).
"""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

import toolkit as tk
from toolkit._schema import REPAIRED
from toolkit._validation._expected import describe

FIVETRAN_MINUTES = ["5", "15", "30", "60", "120", "180", "360", "480", "720", "1440"]


def _document(schema: dict[str, Any], version: str = "3.0.3", where: str = "body") -> dict[str, Any]:
    """One operation whose argument ``value`` has ``schema`` (a body property, or a query parameter)."""
    operation: dict[str, Any] = {"operationId": "update", "description": "Update the connection's settings."}
    if where == "body":
        body = {"type": "object", "properties": {"value": schema}}
        operation["requestBody"] = {"content": {"application/json": {"schema": body}}}
    else:
        operation["parameters"] = [{"name": "value", "in": "query", "required": True, **_parameter(schema, version)}]
    head = {"swagger": "2.0"} if version == "2.0" else {"openapi": version}
    return {**head, "info": {"title": "t", "version": "1"}, "paths": {"/settings": {"patch": operation}}}


def _parameter(schema: dict[str, Any], version: str) -> dict[str, Any]:
    return dict(schema) if version == "2.0" else {"schema": schema}


def _tool(schema: dict[str, Any], version: str = "3.0.3", where: str = "body") -> tk.Tool:
    toolset = tk.from_openapi(_document(schema, version, where), "t", select="all")
    assert toolset.rejected == (), toolset.rejected
    return toolset["update"]


def _declared_values(tool: tk.Tool) -> list[Any]:
    """The values the Gemini declaration offers for ``value``: its enum members, and null when nullable."""
    node = tool.declaration["parameters"]["properties"]["value"]
    return [*node.get("enum", []), *([None] if node.get("nullable") else [])]


def _repairs(tool: tk.Tool) -> list[tk.Loss]:
    return [loss for loss in tool.losses if loss.reason.startswith(REPAIRED)]


def _oracle_accepts(tool: tk.Tool, args: dict[str, Any]) -> bool:
    return Draft202012Validator(tool.args_schema).is_valid(args)


def _fires_clean(tool: tk.Tool) -> None:
    report = tk.fire(tool)
    wrong = [
        (row.fixture.id, row.fixture.expected, row.actual) for row in report.rows if row.actual != row.fixture.expected
    ]
    assert wrong == []
    baseline = next(row.fixture.args for row in report.rows if row.fixture.id == "valid.baseline")
    assert _oracle_accepts(tool, baseline)


# -- Fivetran: an integer enum of numeric strings ----------------------------------------------------------
def test_integer_enum_of_numeric_strings_builds_as_an_integer_enum() -> None:
    tool = _tool({"type": "integer", "format": "int32", "enum": FIVETRAN_MINUTES})
    assert tool.args_schema["properties"]["value"]["enum"] == [int(m) for m in FIVETRAN_MINUTES]


def test_integer_enum_of_numeric_strings_takes_the_documented_integers() -> None:
    tool = _tool({"type": "integer", "enum": FIVETRAN_MINUTES})
    assert tool.validate({"value": 5}).status == "ok"
    assert _oracle_accepts(tool, {"value": 5})
    assert tool.validate({"value": 7}).errors[0].code == "not_in_enum"


def test_integer_enum_declaration_and_validator_agree() -> None:
    tool = _tool({"type": "integer", "enum": FIVETRAN_MINUTES})
    offered = _declared_values(tool)
    assert offered == FIVETRAN_MINUTES  # Gemini carries enums as strings; the validator reads them back
    for value in offered:
        result = tool.validate({"value": value})
        assert result.status == "ok", (value, result.errors)


def test_integer_enum_repair_is_a_recorded_loss() -> None:
    tool = _tool({"type": "integer", "enum": FIVETRAN_MINUTES})
    (loss,) = _repairs(tool)
    assert (loss.path, loss.keyword, loss.value) == ("/properties/value", "enum", FIVETRAN_MINUTES)
    assert "[5, 15, 30" in loss.reason


def test_integer_enum_of_numeric_strings_fires_clean() -> None:
    _fires_clean(_tool({"type": "integer", "enum": FIVETRAN_MINUTES}))


# -- Plaid: a string enum of [3, null] ---------------------------------------------------------------------
def test_string_enum_of_three_and_null_is_a_nullable_string_enum() -> None:
    tool = _tool({"type": "string", "enum": [3, None]})
    assert tool.args_schema["properties"]["value"] == {"type": ["string", "null"], "enum": ["3", None]}


@pytest.mark.parametrize("value", ["3", None])
def test_string_enum_of_three_and_null_takes_the_string_and_null(value: Any) -> None:
    tool = _tool({"type": "string", "enum": [3, None]})
    assert tool.validate({"value": value}).status == "ok"
    assert _oracle_accepts(tool, {"value": value})


def test_string_enum_declaration_and_validator_agree() -> None:
    tool = _tool({"type": "string", "enum": [3, None]})
    offered = _declared_values(tool)
    assert offered == ["3", None]
    assert all(tool.validate({"value": value}).status == "ok" for value in offered)


def test_string_enum_repair_records_both_changes() -> None:
    tool = _tool({"type": "string", "enum": [3, None]})
    assert [(loss.keyword, loss.value) for loss in _repairs(tool)] == [("enum", [3, None]), ("type", "string")]


def test_expected_never_offers_what_the_validator_refuses() -> None:
    """The envelope told the model to send the string "3", which it had sent and saw refused."""
    tool = _tool({"type": "string", "enum": [3, None]})
    for sent in (3, "5", 3.0, True):
        (error,) = tool.validate({"value": sent}).errors
        assert error.expected == 'one of: "3", null'
    assert tool.validate({"value": "3"}).status == "ok"  # what the phrase offers passes


def test_string_enum_of_three_and_null_fires_clean() -> None:
    _fires_clean(_tool({"type": "string", "enum": [3, None]}))


# -- the same reading in every flavour and place -----------------------------------------------------------
NULLABLE_INTEGER = {"type": ["integer", "null"]}
NULLABLE_STRING = {"type": ["string", "null"]}


@pytest.mark.parametrize(
    ("version", "where", "schema", "meant"),
    [
        pytest.param("3.0.3", "query", {"type": "integer", "enum": ["5", "15"]}, {"type": "integer", "enum": [5, 15]},
                     id="3.0-query"),
        pytest.param("3.1.0", "body", {**NULLABLE_INTEGER, "enum": ["5", None]},
                     {**NULLABLE_INTEGER, "enum": [5, None]}, id="3.1-type-list"),
        pytest.param("2.0", "query", {"type": "integer", "enum": ["5", "15"]}, {"type": "integer", "enum": [5, 15]},
                     id="swagger-2.0"),
        pytest.param("3.0.3", "body", {"type": "string", "nullable": True, "enum": [3, None]},
                     {**NULLABLE_STRING, "enum": ["3", None]}, id="3.0-nullable"),
        pytest.param("3.0.3", "body", {"type": "number", "const": "1.5"}, {"type": "number", "const": 1.5}, id="const"),
        pytest.param("3.0.3", "body", {"type": "boolean", "enum": ["true"]}, {"type": "boolean", "enum": [True]},
                     id="boolean"),
        pytest.param("3.0.3", "body", {"type": "string", "enum": ["a", 2, 2.5]},
                     {"type": "string", "enum": ["a", "2", "2.5"]}, id="partly-dead"),
        pytest.param("3.0.3", "body", {"type": "integer", "enum": [1, "two", "3"]}, {"type": "integer", "enum": [1, 3]},
                     id="no-reading-dropped"),
    ],
)  # fmt: skip
def test_members_the_type_rejects_are_read_as_meant(version: str, where: str, schema: Any, meant: Any) -> None:
    tool = _tool(schema, version, where)
    node = {k: v for k, v in tool.args_schema["properties"]["value"].items() if k != "description"}
    assert node == meant
    assert _repairs(tool)
    _fires_clean(tool)


def test_a_schema_that_needs_no_reading_records_no_loss() -> None:
    tool = _tool({"type": "integer", "enum": [5, 15]})
    assert _repairs(tool) == []


# -- refused: no one reading -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("schema", "why"),
    [
        ({"type": "integer", "enum": ["five", "ten"]}, 'its type "integer" accepts no member of its enum'),
        ({"type": "integer", "minimum": 10, "maximum": 5}, "its bounds leave no number (from 10 to 5)"),
        ({"type": "string", "minLength": 3, "maxLength": 2}, "minLength 3 is above maxLength 2"),
        ({"type": "array", "minItems": 2, "maxItems": 1}, "minItems 2 is above maxItems 1"),
        ({"type": "object", "required": ["a"], "properties": {"a": False}}, "property 'a' has the schema false"),
    ],
    ids=["enum-no-reading", "bounds", "lengths", "items", "required-false"],
)  # fmt: skip
def test_unrepairable_schema_is_refused_naming_the_node_and_why(schema: Any, why: str) -> None:
    toolset = tk.from_openapi(_document(schema), "t", select="all")
    (rejection,) = toolset.rejected
    assert rejection.slug == "unsatisfiable_schema"
    assert "/properties/value" in rejection.message
    assert why in rejection.message


def test_a_contradiction_under_not_is_a_condition() -> None:
    tool = _tool({"type": "integer", "not": {"type": "integer", "minimum": 10, "maximum": 5}})
    assert tool.validate({"value": 3}).status == "ok"


def test_expected_words_leave_out_members_the_type_rejects() -> None:
    assert describe({"type": "string", "enum": ["a", 3]}) == "one of: a"
    assert describe({"type": "integer", "const": "5"}) == "nothing: the schema lists no allowed values"
