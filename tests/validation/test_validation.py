"""The strict boundary: structural errors, domain rejections, policies and the words of every error.

Internals: ``_validation.validate`` (compared with ``Tool.validate``), ``compiled`` (built once per tool) and
``domain_rules``, the declarative rules under test."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from toolkit import FieldError, Policy, SchemaError, Tool, ToolContract, ToolResult
from toolkit._validation import compiled, domain_rules, validate


def make_tool(schema: Mapping[str, Any], effect: str = "write", **policy: Any) -> Tool:
    contract = ToolContract(name="t", description="A test tool.", args_schema=schema, effect=effect)  # type: ignore[arg-type]
    return Tool(contract=contract, parameters=None, policy=Policy(**policy))


def obj(properties: Mapping[str, Any], required: Iterable[str] = (), **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": dict(properties), "required": list(required),
            "additionalProperties": False, **extra}  # fmt: skip


SEARCH = obj(
    {
        "query": {"type": "string", "minLength": 1, "description": "What to look for."},
        "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "default": 20,
            "description": "How many to return, between 1 and 100.",
        },
        "page": {"type": "integer", "minimum": 1},
        "status": {"type": "string", "enum": ["open", "closed"]},
        "since": {"type": "string", "format": "date"},
        "note": {"anyOf": [{"type": "string", "maxLength": 5}, {"type": "null"}], "default": None},
    },
    required=["query"],
)


def errors_of(result: ToolResult) -> dict[str, str]:
    return {e.field: e.code for e in result.errors}


# -- strict types ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("schema", "value"),
    [
        pytest.param({"type": "integer"}, "10", id="numeric-string-for-integer"),
        pytest.param({"type": "integer"}, 10.5, id="fraction-for-integer"),
        pytest.param({"type": "integer"}, True, id="true-for-integer"),
        pytest.param({"type": "number"}, False, id="false-for-number"),
        pytest.param({"type": "boolean"}, 1, id="one-for-boolean"),
        pytest.param({"type": "boolean"}, "true", id="string-for-boolean"),
        pytest.param({"type": "string"}, 5, id="number-for-string"),
        pytest.param({"type": "array", "items": {"type": "string"}}, "a,b", id="string-for-array"),
        pytest.param({"type": "object"}, '{"a": 1}', id="json-text-for-object"),
    ],
)
def test_lossy_or_coercing_values_are_wrong_type(schema: dict[str, Any], value: Any) -> None:
    result = make_tool(obj({"x": schema})).validate({"x": value})
    assert result.status == "invalid_arguments"
    assert errors_of(result) == {"x": "wrong_type"}


def test_integral_float_is_an_integer_and_is_cleaned_to_int() -> None:
    result = make_tool(obj({"n": {"type": "integer"}})).validate({"n": 10.0})
    assert result.ok
    assert result.data == {"n": 10}
    assert type(result.data["n"]) is int


def test_json_text_arguments_are_parsed() -> None:
    result = make_tool(SEARCH).validate('{"query": "bug", "limit": 5}')
    assert result.ok
    assert result.data["limit"] == 5


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('{"query": ', id="truncated"),
        pytest.param("{'a': 1}", id="single-quotes"),
        pytest.param('{"limit": NaN}', id="nan"),
        pytest.param(b"\xff", id="not-utf8"),
    ],
)
def test_bad_json_text_is_invalid_json_at_the_root(text: Any) -> None:
    result = make_tool(SEARCH).validate(text)
    assert result.status == "invalid_arguments"
    (error,) = result.errors
    assert (error.field, error.code) == ("", "invalid_json")
    assert error.problem
    assert error.expected


@pytest.mark.parametrize("args", [[1], "[]", 3, "text"], ids=["list", "json-list", "number", "bare-string"])
def test_arguments_that_are_not_an_object_are_rejected_at_the_root(args: Any) -> None:
    result = make_tool(SEARCH).validate(args)
    assert result.status == "invalid_arguments"
    assert result.errors[0].field == ""


def test_no_arguments_means_an_empty_object() -> None:
    assert make_tool(obj({"a": {"type": "string"}})).validate(None).ok


# -- unknown properties, nesting, paths ------------------------------------------------------------------
def test_unknown_properties_are_rejected_at_top_level_and_nested() -> None:
    item = obj({"sku": {"type": "string"}, "qty": {"type": "integer", "minimum": 1}}, required=["sku", "qty"])
    tool = make_tool(obj({"items": {"type": "array", "items": item}}))
    result = tool.validate({"items": [{"sku": "a", "qty": 1}, {"sku": "b", "qty": 1, "colour": "red"}], "x": 1})
    assert errors_of(result) == {"items[1].colour": "unknown_property", "x": "unknown_property"}


def test_error_paths_name_the_item_and_field() -> None:
    item = obj({"qty": {"type": "integer", "minimum": 1}}, required=["qty"])
    tool = make_tool(obj({"items": {"type": "array", "items": item}}))
    result = tool.validate({"items": [{"qty": 1}, {"qty": 2}, {"qty": 0}, {}]})
    assert errors_of(result) == {"items[2].qty": "out_of_range", "items[3].qty": "missing"}


def test_keys_that_are_not_names_are_quoted_in_paths() -> None:
    tool = make_tool(obj({"meta": {"type": "object", "additionalProperties": {"type": "integer"}}}))
    result = tool.validate({"meta": {"a.b": "x"}})
    assert result.errors[0].field == 'meta["a.b"]'


def test_all_errors_are_reported_in_one_pass() -> None:
    result = make_tool(SEARCH).validate({"limit": "10", "status": "OPEN", "since": "next Tuesday", "extra": 1})
    assert errors_of(result) == {
        "query": "missing",
        "limit": "wrong_type",
        "status": "not_in_enum",
        "since": "bad_format",
        "extra": "unknown_property",
    }


def test_every_error_has_field_problem_and_expected() -> None:
    result = make_tool(SEARCH).validate({"query": "", "limit": 0, "page": 0, "status": 3, "note": "too long"})
    assert len(result.errors) == 5
    for error in result.errors:
        assert all((error.field, error.code, error.problem, error.expected)), error


# -- formats -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("fmt", "good", "bad"),
    [
        ("date", "2026-08-07", "08/07/2026"),
        ("date", "2024-02-29", "2026-02-30"),
        ("date-time", "2026-08-07T14:02:00Z", "2026-08-07T14:02:00"),
        ("date-time", "2026-08-07T14:02:00.5+02:00", "2026-08-07 lunchtime"),
        ("time", "14:02:00", "2pm"),
        ("uuid", "123e4567-e89b-12d3-a456-426614174000", "123e4567e89b12d3a456426614174000"),
        ("email", "name@example.com", "name at example.com"),
        ("uri", "https://example.com/a?b=c", "example.com/no scheme"),
        ("ipv4", "192.0.2.1", "192.0.2.300"),
    ],
)
def test_formats_are_asserted(fmt: str, good: str, bad: str) -> None:
    tool = make_tool(obj({"v": {"type": "string", "format": fmt}}))
    assert tool.validate({"v": good}).ok
    result = tool.validate({"v": bad})
    assert errors_of(result) == {"v": "bad_format"}


def test_unknown_formats_are_annotations() -> None:
    assert make_tool(obj({"v": {"type": "string", "format": "unix-time"}})).validate({"v": "whenever"}).ok


def test_patterns_use_ascii_digits_like_ecma_regexes() -> None:
    tool = make_tool(obj({"code": {"type": "string", "pattern": r"^\d{3}$"}}))
    assert tool.validate({"code": "123"}).ok
    assert errors_of(tool.validate({"code": "١٢٣"})) == {"code": "pattern_mismatch"}


# -- expected phrases ----------------------------------------------------------------------------------
def test_expected_restates_the_description_when_it_states_the_constraint() -> None:
    result = make_tool(SEARCH).validate({"query": "q", "limit": 500})
    assert result.errors[0].expected == "between 1 and 100"


def test_expected_is_generated_when_the_description_is_silent() -> None:
    tool = make_tool(obj({"limit": {"type": "integer", "minimum": 1, "maximum": 100}}))
    assert tool.validate({"limit": 0}).errors[0].expected == "integer between 1 and 100"


@pytest.mark.parametrize(
    ("schema", "value", "expected"),
    [
        ({"type": "string", "enum": ["open", "closed"]}, "shut", "one of: open, closed"),
        ({"type": "string", "format": "date"}, "soon", "date as YYYY-MM-DD"),
        ({"type": "string", "format": "date", "description": "Start day (ISO 8601, YYYY-MM-DD)."}, "soon",
         "ISO 8601, YYYY-MM-DD"),
        ({"type": "string", "maxLength": 3, "description": "A code, at most 3 characters."}, "abcd",
         "at most 3 characters"),
        ({"type": "array", "maxItems": 2}, [1, 2, 3], "array with at most 2 items"),
        ({"type": "integer", "multipleOf": 5}, 7, "a multiple of 5"),
        ({"type": "integer", "enum": [1, 2]}, 3, 'one of: 1, 2 (or the strings "1", "2")'),
    ],
    ids=["enum", "format", "format-described", "length-described", "items", "multiple", "integer-enum"],
)  # fmt: skip
def test_expected_phrases(schema: dict[str, Any], value: Any, expected: str) -> None:
    assert make_tool(obj({"v": schema})).validate({"v": value}).errors[0].expected == expected


# -- policies --------------------------------------------------------------------------------------------
def test_absent_optional_gets_its_default_with_a_notice() -> None:
    result = make_tool(SEARCH).validate({"query": "q"})
    assert result.ok
    assert result.data == {"query": "q", "limit": 20, "note": None}
    assert [(n.field, n.action, n.to) for n in result.notices] == [("limit", "defaulted", 20)]


def test_null_for_optional_non_nullable_is_read_as_absent_with_a_notice() -> None:
    result = make_tool(SEARCH).validate({"query": "q", "limit": None, "page": None})
    assert result.ok
    assert result.data["limit"] == 20
    assert "page" not in result.data
    assert {(n.field, n.action) for n in result.notices} == {("limit", "defaulted"), ("page", "null_as_absent")}


def test_null_for_optional_is_refused_under_the_reject_policy() -> None:
    result = make_tool(SEARCH, null_optional="reject").validate({"query": "q", "page": None})
    assert errors_of(result) == {"page": "wrong_type"}


def test_null_is_accepted_where_the_schema_allows_it() -> None:
    result = make_tool(SEARCH).validate({"query": "q", "note": None})
    assert result.ok
    assert result.data["note"] is None
    assert [n for n in result.notices if n.field == "note"] == []


def test_null_for_a_required_field_is_wrong_type() -> None:
    assert errors_of(make_tool(SEARCH).validate({"query": None})) == {"query": "wrong_type"}


def test_enum_case_is_strict_by_default_and_normalised_when_insensitive() -> None:
    assert errors_of(make_tool(SEARCH).validate({"query": "q", "status": "OPEN"})) == {"status": "not_in_enum"}
    result = make_tool(SEARCH, enum_case="insensitive").validate({"query": "q", "status": "OPEN"})
    assert result.data["status"] == "open"
    (notice,) = [n for n in result.notices if n.field == "status"]
    assert (notice.action, notice.from_, notice.to) == ("normalised_case", "OPEN", "open")


@pytest.mark.parametrize(("value", "bound"), [(500, 100), (0, 1), (-7, 1)])
def test_read_tools_clamp_bounded_numbers_with_a_notice(value: int, bound: int) -> None:
    result = make_tool(SEARCH, effect="read").validate({"query": "q", "limit": value})
    assert result.ok
    assert result.data["limit"] == bound
    (notice,) = [n for n in result.notices if n.field == "limit"]
    assert (notice.action, notice.from_, notice.to) == ("clamped", value, bound)


def test_write_tools_reject_out_of_range_numbers() -> None:
    result = make_tool(SEARCH, effect="write").validate({"query": "q", "limit": 500})
    assert errors_of(result) == {"limit": "out_of_range"}
    assert result.errors[0].problem == "out of range: 500"


def test_clamp_policy_overrides_the_effect() -> None:
    assert not make_tool(SEARCH, effect="read", clamp=False).validate({"query": "q", "limit": 500}).ok
    assert make_tool(SEARCH, effect="write", clamp=True).validate({"query": "q", "limit": 500}).ok


def test_cleaned_arguments_are_a_new_dict() -> None:
    args = {"query": "q"}
    result = make_tool(SEARCH).validate(args)
    assert args == {"query": "q"}
    assert result.data is not args


# -- combinators and refs ------------------------------------------------------------------------------
def test_optional_anyof_reports_the_matching_branch_error() -> None:
    tool = make_tool(obj({"n": {"anyOf": [{"type": "integer", "maximum": 10}, {"type": "null"}]}}))
    assert errors_of(tool.validate({"n": 50})) == {"n": "out_of_range"}
    assert errors_of(tool.validate({"n": "x"})) == {"n": "wrong_type"}


def test_anyof_without_a_fitting_branch_is_no_branch_matched() -> None:
    branches = [obj({"a": {"type": "string"}}, ["a"]), obj({"b": {"type": "string"}}, ["b"])]
    tool = make_tool(obj({"v": {"anyOf": branches}}))
    assert errors_of(tool.validate({"v": {"c": 1}})) == {"v": "no_branch_matched"}


def test_oneof_matching_twice_is_ambiguous() -> None:
    tool = make_tool(obj({"v": {"oneOf": [{"type": "integer"}, {"type": "number"}]}}))
    assert errors_of(tool.validate({"v": 1})) == {"v": "ambiguous"}
    assert tool.validate({"v": 1.5}).ok


def test_refs_into_defs_are_followed() -> None:
    schema = obj({"s": {"$ref": "#/$defs/State"}}, **{"$defs": {"State": {"type": "string", "enum": ["a", "b"]}}})
    assert errors_of(make_tool(schema).validate({"s": "c"})) == {"s": "not_in_enum"}


KIDS = {"type": "array", "items": {"$ref": "#/$defs/node"}}
RECURSIVE = obj(
    {"tree": {"$ref": "#/$defs/node"}},
    **{
        "$defs": {"node": obj({"v": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}})}
    },
)


def test_recursive_schemas_validate_to_the_data_depth() -> None:
    tool = make_tool(RECURSIVE)
    tree = {"v": 1, "kids": [{"v": 2, "kids": [{"v": "three"}]}]}
    assert errors_of(tool.validate({"tree": tree})) == {"tree.kids[0].kids[0].v": "wrong_type"}


def test_data_deeper_than_the_cap_is_an_error_not_a_recursion_error() -> None:
    tree: dict[str, Any] = {"v": 1}
    for _ in range(5000):
        tree = {"kids": [tree]}
    result = make_tool(RECURSIVE).validate({"tree": tree})
    assert result.status == "invalid_arguments"
    assert result.errors[0].code == "too_deep"


def test_deeply_nested_json_text_is_invalid_json() -> None:
    result = make_tool(RECURSIVE).validate("[" * 100_000 + "]" * 100_000)
    assert result.status == "invalid_arguments"


def test_a_schema_that_refers_to_itself_without_reading_the_value_is_a_schema_error() -> None:
    schema = obj({"x": {"$ref": "#/$defs/loop"}}, **{"$defs": {"loop": {"$ref": "#/$defs/loop"}}})
    with pytest.raises(SchemaError) as caught:
        make_tool(schema).validate({"x": 1})
    assert caught.value.slug == "left_recursive_ref"


def test_remote_refs_are_a_schema_error_for_the_author() -> None:
    tool = make_tool(obj({"x": {"$ref": "https://example.com/schema.json"}}))
    with pytest.raises(SchemaError) as caught:
        tool.validate({"x": 1})
    assert caught.value.slug == "remote_ref"


def test_unique_items_use_json_equality() -> None:
    tool = make_tool(obj({"v": {"type": "array", "uniqueItems": True}}))
    assert tool.validate({"v": [1, True, "1"]}).ok
    assert errors_of(tool.validate({"v": [1, 1.0]})) == {"v": "duplicate_items"}


def test_enum_membership_does_not_confuse_true_and_one() -> None:
    tool = make_tool(obj({"v": {"enum": [1, 2]}}))
    assert errors_of(tool.validate({"v": True})) == {"v": "not_in_enum"}


def test_the_schema_is_compiled_once_per_tool() -> None:
    tool = make_tool(SEARCH)
    tool.validate({"query": "a"})
    validator = compiled(tool)
    tool.validate({"query": "b"})
    assert compiled(tool) is validator
    assert compiled(tool.with_policy(enum_case="insensitive")) is not validator


# -- domain checks -------------------------------------------------------------------------------------
def no_weekends(args: Mapping[str, Any]) -> Iterable[FieldError]:
    if args.get("since") == "2026-08-08":
        yield FieldError("since", "domain_rule", "2026-08-08 is a Saturday", "a weekday")


def test_domain_failures_are_rejected_not_invalid() -> None:
    tool = make_tool(SEARCH).with_domain(no_weekends)
    result = tool.validate({"query": "q", "since": "2026-08-08"})
    assert result.status == "rejected"
    assert result.errors == (FieldError("since", "domain_rule", "2026-08-08 is a Saturday", "a weekday"),)


def test_domain_checks_run_only_on_structurally_valid_arguments() -> None:
    seen: list[Mapping[str, Any]] = []

    def spy(args: Mapping[str, Any]) -> Iterable[FieldError]:
        seen.append(args)
        return ()

    tool = make_tool(SEARCH).with_domain(spy)
    assert tool.validate({"query": "q", "limit": "10"}).status == "invalid_arguments"
    assert seen == []
    assert tool.validate({"query": "q"}).ok
    assert seen == [{"query": "q", "limit": 20, "note": None}]


def test_declarative_domain_rules() -> None:
    rules = domain_rules(
        [
            {
                "field": "limit",
                "schema": {"maximum": 50},
                "problem": "more than 50 per page is not allowed",
                "expected": "at most 50 per page",
            }
        ]
    )
    tool = make_tool(SEARCH).with_domain(*rules)
    assert tool.validate({"query": "q", "limit": 40}).ok
    result = tool.validate({"query": "q", "limit": 60})
    assert result.status == "rejected"
    assert result.errors[0].to_dict() == {
        "field": "limit",
        "code": "domain_rule",
        "problem": "more than 50 per page is not allowed",
        "expected": "at most 50 per page",
    }


@pytest.mark.parametrize(
    "rule", [{"field": "a"}, {"field": "a", "schema": 3, "problem": "p", "expected": "e"}, "not a mapping"]
)
def test_malformed_domain_rules_are_refused(rule: Any) -> None:
    with pytest.raises(SchemaError) as caught:
        domain_rules([rule])
    assert caught.value.slug == "bad_domain_rule"


def test_a_crashing_domain_check_is_an_error_result() -> None:
    def broken(args: Mapping[str, Any]) -> Iterable[FieldError]:
        raise KeyError("boom")

    result = make_tool(SEARCH).with_domain(broken).validate({"query": "q"})
    assert result.status == "error"
    assert "KeyError" in result.message
    assert result.retryable is False


def test_validate_function_and_method_agree() -> None:
    tool = make_tool(SEARCH)
    args = {"query": "q", "limit": 3}
    assert validate(tool, args) == tool.validate(args)
    assert json.loads(tool.validate(args).to_json())["data"] == {"query": "q", "limit": 3, "note": None}


def test_openapi_overrides_domain_rules_reject_structurally_valid_calls(repo_root: Any) -> None:
    import toolkit as tk

    overrides = {
        "createRefund": {
            "domain": [
                {
                    "field": "amount_minor",
                    "schema": {"maximum": 50000},
                    "problem": "refunds over 500.00 need a human",
                    "expected": "at most 50000 minor units (500.00)",
                }
            ]
        }
    }
    refund = tk.from_openapi(repo_root / "specs" / "orders.yaml", "orders", overrides=overrides)["createRefund"]
    args = {"orderId": "ord_abcdefabcdef", "amount_minor": 60000, "reason": "damaged"}
    rejected = refund.validate(args)
    assert rejected.status == "rejected"
    assert rejected.errors[0].expected == "at most 50000 minor units (500.00)"
    assert refund.validate({**args, "amount_minor": 5000}).ok
    invalid = refund.validate({**args, "amount_minor": "60000"})
    assert invalid.status == "invalid_arguments"


def test_a_missing_referenced_field_is_described_by_its_target() -> None:
    schema = obj(
        {"s": {"$ref": "#/$defs/State"}}, ["s"], **{"$defs": {"State": {"type": "string", "enum": ["a", "b"]}}}
    )
    (error,) = make_tool(schema).validate({}).errors
    assert (error.field, error.code, error.expected) == ("s", "missing", "one of: a, b")


@pytest.mark.parametrize(
    ("value", "step", "ok"),
    [(1e308, 0.5, True), (10**400, 0.5, True), (10**400 + 1, 2, False), (0.3, 0.1, True), (0.35, 0.1, False)],
    ids=["huge-float", "huge-int", "huge-odd-int", "binary-fraction", "not-multiple"],
)
def test_multiple_of_is_exact_for_huge_numbers_and_tolerant_of_binary_fractions(
    value: float, step: float, ok: bool
) -> None:
    tool = make_tool(obj({"v": {"type": "number", "multipleOf": step}}))
    assert tool.validate({"v": value}).ok is ok


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string", "pattern": "^[a-z]+$"},
        {"type": "string", "format": "date"},
        {"type": "string", "format": "uuid"},
        {"type": "string", "format": "date-time"},
    ],
    ids=["pattern", "date", "uuid", "date-time"],
)
def test_a_trailing_newline_does_not_slip_past_an_end_anchor(schema: dict[str, Any]) -> None:
    good = {"pattern": "abc", "date": "2026-08-07", "uuid": "123e4567-e89b-12d3-a456-426614174000"}
    value = good.get(str(schema.get("format", "pattern")), "2026-08-07T14:02:00Z")
    tool = make_tool(obj({"v": schema}))
    assert tool.validate({"v": value}).ok
    assert not tool.validate({"v": value + "\n"}).ok


def test_a_dollar_inside_a_character_class_stays_literal() -> None:
    tool = make_tool(obj({"price": {"type": "string", "pattern": "^[$][0-9]+$"}}))
    assert tool.validate({"price": "$5"}).ok
    assert not tool.validate({"price": "$5\n"}).ok


def test_two_fields_sharing_a_ref_keep_their_own_descriptions() -> None:
    shared = {"$defs": {"Count": {"type": "integer", "minimum": 1, "maximum": 9}}}
    schema = obj(
        {
            "adults": {"$ref": "#/$defs/Count", "description": "Adults in the room, between 1 and 9."},
            "nights": {"$ref": "#/$defs/Count", "description": "Nights to stay, from 1 to 9."},
        },
        **shared,
    )
    result = make_tool(schema).validate({"adults": 0, "nights": 10})
    assert [(e.field, e.expected) for e in result.errors] == [("adults", "between 1 and 9"), ("nights", "from 1 to 9")]
