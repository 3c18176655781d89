"""Every JSON Schema 2020-12 applicator and assertion a tool schema can carry, as the spec reads it.

Each case is checked against ``jsonschema`` (Draft 2020-12, the independent implementation) as well as
against the envelope toolkit gives; where toolkit differs on purpose the test says so.

Internals: ``_validation.MAX_ARGUMENT_SIZE``, the size limit a test aims at.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from toolkit import Policy, Tool, ToolContract, ToolResult


def make_tool(schema: Mapping[str, Any], **policy: Any) -> Tool:
    contract = ToolContract(name="t", description="A test tool.", args_schema=schema)
    return Tool(contract=contract, parameters=None, policy=Policy(**policy))


def prop(schema: Any, **root: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"a": schema}, **root}


def codes(result: ToolResult) -> dict[str, str]:
    return {e.field: e.code for e in result.errors}


CASES: dict[str, tuple[dict[str, Any], Any, bool]] = {
    "unevaluated-properties-after-allOf": (
        prop({}, allOf=[{"properties": {"b": {}}}], unevaluatedProperties=False),
        {"a": 1, "b": 2, "c": 3},
        False,
    ),
    "unevaluated-properties-sees-allOf": (
        prop({}, allOf=[{"properties": {"b": {}}}], unevaluatedProperties=False),
        {"a": 1, "b": 2},
        True,
    ),
    "unevaluated-properties-sees-the-matching-anyOf-branch-only": (
        {
            "anyOf": [{"properties": {"x": {"type": "string"}}, "required": ["x"]}, {"properties": {"y": {}}}],
            "unevaluatedProperties": False,
        },
        {"x": 1, "y": 1},
        False,
    ),
    "unevaluated-properties-sees-a-passing-if": (
        {"if": {"properties": {"k": {"const": 1}}}, "then": {"properties": {"v": {}}}, "unevaluatedProperties": False},
        {"k": 1, "v": 2},
        True,
    ),
    "unevaluated-properties-with-a-schema": (
        prop({}, unevaluatedProperties={"type": "integer"}),
        {"a": "s", "z": "text"},
        False,
    ),
    "unevaluated-items-after-prefixItems": (
        prop({"prefixItems": [{}], "unevaluatedItems": False}),
        {"a": [1, 2]},
        False,
    ),
    "unevaluated-items-sees-contains": (
        prop({"prefixItems": [{}], "contains": {"type": "string"}, "unevaluatedItems": False}),
        {"a": [1, "x"]},
        True,
    ),
    "property-names": (prop({}, propertyNames={"maxLength": 1}), {"a": 1, "bb": 2}, False),
    "dependent-schemas": (prop({}, dependentSchemas={"a": {"required": ["b"]}}), {"a": 1}, False),
    "dependent-schemas-absent-key": (prop({}, dependentSchemas={"a": {"required": ["b"]}}), {"c": 1}, True),
    "dependent-required": (prop({}, dependentRequired={"a": ["b"]}), {"a": 1}, False),
    "dynamic-ref-within-the-document": (
        {**prop({"$dynamicRef": "#T"}), "$defs": {"T": {"$dynamicAnchor": "T", "type": "string"}}},
        {"a": 1},
        False,
    ),
    "anchor-ref": ({**prop({"$ref": "#t"}), "$defs": {"T": {"$anchor": "t", "type": "string"}}}, {"a": 1}, False),
    "pattern-properties-apply-to-declared-properties": (
        {"properties": {"xa": {}}, "patternProperties": {"^x": {"type": "integer"}}},
        {"xa": "s"},
        False,
    ),
    "additional-properties-skip-pattern-matches": (
        {"properties": {"a": {}}, "patternProperties": {"^x": {}}, "additionalProperties": False},
        {"a": 1, "xy": 2},
        True,
    ),
    "contains-with-max-contains": (prop({"contains": {"type": "string"}, "maxContains": 1}), {"a": ["x", "y"]}, False),
    "contains-with-min-contains-zero": (prop({"contains": {"type": "string"}, "minContains": 0}), {"a": [1]}, True),
    "one-of-two-matches": (prop({"oneOf": [{"type": "integer"}, {"minimum": 0}]}), {"a": 1}, False),
    "not": (prop({"not": {"type": "string"}}), {"a": "s"}, False),
    "if-else": (prop({"if": {"type": "string"}, "then": {"minLength": 2}, "else": {"minimum": 5}}), {"a": 3}, False),
    "const-json-equality": (prop({"const": {"b": 1}}), {"a": {"b": 1.0}}, True),
    "enum-json-equality": (prop({"enum": [[1, 2]]}), {"a": [1.0, 2]}, True),
    "enum-true-is-not-one": (prop({"enum": [1]}), {"a": True}, False),
    "unique-items-json-equality": (prop({"uniqueItems": True}), {"a": [[1], [1.0]]}, False),
    "unique-items-true-is-not-one": (prop({"uniqueItems": True}), {"a": [1, True]}, True),
    "defaults-are-not-seen-by-max-properties": (prop({"default": 1}, maxProperties=0), {}, True),
    "defaults-are-not-seen-by-dependent-required": (
        {"properties": {"a": {"default": 1}, "b": {}}, "dependentRequired": {"a": ["b"]}},
        {},
        True,
    ),
    "defaults-are-not-seen-by-if": (
        {"properties": {"a": {"default": 1}}, "if": {"required": ["a"]}, "then": {"required": ["zz"]}},
        {},
        True,
    ),
}


@pytest.mark.parametrize(("schema", "instance", "valid"), list(CASES.values()), ids=list(CASES))
def test_keyword_means_what_2020_12_says(schema: dict[str, Any], instance: Any, valid: bool) -> None:
    assert Draft202012Validator(schema).is_valid(instance) == valid  # the case itself is right
    assert make_tool(schema, unlisted_properties="allow").validate(instance).ok == valid


# -- the words of the new errors ------------------------------------------------------------------------------
def test_a_property_name_breaking_property_names_is_named_with_the_rule() -> None:
    result = make_tool(prop({}, propertyNames={"maxLength": 1}, additionalProperties=True)).validate({"a": 1, "bb": 2})
    (error,) = result.errors
    assert (error.field, error.code) == ("bb", "bad_property_name")
    assert "too long" in error.problem


def test_an_unevaluated_property_is_an_unknown_property_at_its_path() -> None:
    schema = prop({"type": "object", "allOf": [{"properties": {"x": {}}}], "unevaluatedProperties": False})
    assert codes(make_tool(schema).validate({"a": {"x": 1, "y": 2}})) == {"a.y": "unknown_property"}


def test_defaults_fill_in_after_validation_with_their_notices() -> None:
    schema = {"properties": {"a": {"default": 1}, "b": {"default": None}}, "maxProperties": 0}
    result = make_tool(schema).validate({})
    assert result.ok
    assert result.data == {"a": 1, "b": None}
    assert [(n.field, n.action, n.to) for n in result.notices] == [("a", "defaulted", 1)]


def test_a_default_inside_the_chosen_branch_only_is_applied() -> None:
    schema = prop(
        {"anyOf": [{"properties": {"x": {"const": 1}, "d": {"default": "first"}}, "required": ["x"]},
                   {"properties": {"y": {}, "d": {"default": "second"}}}]}
    )  # fmt: skip
    assert make_tool(schema).validate({"a": {"y": 1}}).data == {"a": {"y": 1, "d": "second"}}
    assert make_tool(schema).validate({"a": {"x": 1}}).data == {"a": {"x": 1, "d": "first"}}


def test_a_default_json_cannot_hold_is_left_to_the_function() -> None:
    tool = make_tool({"properties": {"a": {"type": "number", "default": float("inf")}}})
    result = tool.validate({})
    assert (result.ok, result.data, result.notices) == (True, {}, ())


# -- multipleOf, exactly ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("value", "step", "multiple"),
    [
        (0.3, 0.1, True),
        (0.07, 0.01, True),
        (19.99, 0.01, True),
        (10**400, 0.5, True),
        (7, 7, True),
        (2**53 + 2, 2, True),
        (1e-10, 1, False),
        (1e308, 3, False),
        (2.0, 1e20, False),
        (0.1 + 0.2, 0.1, False),  # 0.30000000000000004, as JSON writes it
        (10**400 + 1, 2, False),
        (1.5, 0.5, True),
        (-4.5, 1.5, True),
    ],
)
def test_multiple_of_is_exact_on_the_numbers_as_json_writes_them(value: float, step: float, multiple: bool) -> None:
    assert make_tool(prop({"multipleOf": step})).validate({"a": value}).ok == multiple


# -- non-finite numbers, huge integers, limits --------------------------------------------------------------------
@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")], ids=["nan", "inf", "minus-inf"])
def test_non_finite_numbers_are_refused_even_where_anything_goes(value: float) -> None:
    result = make_tool(prop({})).validate({"a": [value]})
    assert codes(result) == {"a[0]": "not_finite"}


def test_json_text_past_the_float_range_is_not_finite_not_infinity() -> None:
    result = make_tool(prop({"type": "number"})).validate('{"a": 1e400}')
    assert codes(result) == {"a": "not_finite"}
    assert "Infinity" not in result.to_json().replace('"Infinity is not', "")


def test_integers_past_4300_digits_are_refused_without_writing_their_digits() -> None:
    for args in ({"a": 10**5000}, '{"a": ' + "9" * 5000 + "}"):
        result = make_tool(prop({})).validate(args)
        assert codes(result) == {"a": "out_of_range"}
        assert result.errors[0].problem.startswith("an integer of about 5,00")
    assert make_tool(prop({"type": "integer"})).validate({"a": 10**4000}).ok


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        pytest.param({1: "x"}, "an object key must be a string", id="int-key"),
        pytest.param({1, 2}, "a Python set is not a JSON value", id="set"),
        pytest.param((1, 2), "a Python tuple is not a JSON value", id="tuple"),
        pytest.param(b"x", "a Python bytes is not a JSON value", id="bytes"),
    ],
)
def test_python_values_json_cannot_hold_are_invalid_json(value: Any, problem: str) -> None:
    result = make_tool(prop({})).validate({"a": value})
    assert [(e.field, e.code) for e in result.errors] == [("a", "invalid_json")]
    assert problem in result.errors[0].problem


def test_a_value_that_contains_itself_is_invalid_json_not_a_hang() -> None:
    cycle: dict[str, Any] = {}
    cycle["self"] = cycle
    result = make_tool(prop({})).validate({"a": cycle})
    assert codes(result) == {"a.self": "invalid_json"}


def test_data_deeper_than_the_limit_is_too_deep_even_under_an_empty_schema() -> None:
    deep: Any = 1
    for _ in range(100_000):
        deep = [deep]
    result = make_tool(prop({})).validate({"a": deep})
    assert [e.code for e in result.errors] == ["too_deep"]


def test_arguments_past_the_size_limit_are_too_large() -> None:
    from toolkit._validation import MAX_ARGUMENT_SIZE

    text = '{"a": "' + "x" * MAX_ARGUMENT_SIZE + '"}'
    for args in (text, text.encode(), {"a": "x" * MAX_ARGUMENT_SIZE}):
        result = make_tool(prop({})).validate(args)
        assert [(e.field, e.code) for e in result.errors] == [("", "too_large")]


def test_at_most_fifty_field_errors_and_a_notice_counting_the_rest() -> None:
    result = make_tool({"properties": {}, "additionalProperties": False}).validate({f"k{i}": i for i in range(300)})
    assert len(result.errors) == 50
    (notice,) = result.notices
    assert (notice.action, notice.to) == ("errors_truncated", 250)
