"""Lints that read the words against the schema: a constraint both state differently (TK806–TK808, TK810), and
what a number sent as a decimal string or with decimal places promises (TK802, TK809).

The four cases the issue tracker reported are here as function tools, built as an author builds them: the page
size capped at 50 under words that still say 1 to 100 (notebook 07), ``Field(max_length=10)`` described as at
most 80 characters, a ``Decimal`` amount described as positive with two decimal places (notebook 01), and a list
of values the enum does not hold. Each test proves the trap with the real validator, that the lint names both
sides, and that either way out of its fix makes the lint go.

Internals: ``CATALOGUE`` (the rules' codes and severities) and ``build_tool`` for a tool from a hand-written JSON
Schema.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Literal

import pytest
from pydantic import Field

import toolkit as tk
from toolkit import Tool, ToolContract
from toolkit._lints import CATALOGUE
from toolkit._tool import build_tool

CONTRADICTIONS = ("TK806", "TK807", "TK808", "TK810")


def tool_with(field: dict[str, Any], name: str = "value") -> Tool:
    schema = {"type": "object", "properties": {name: field}, "required": [name], "additionalProperties": False}
    return build_tool(ToolContract(name="t", description="Do the thing.", args_schema=schema))


def found(tool: Tool, code: str) -> list[tk.Lint]:
    return [item for item in tool.lints if item.code == code]


def search_issues(limit: Annotated[int, Field(ge=1, le=50)] = 20) -> list[str]:
    """Search the tracker's issues by text, newest first.

    Args:
        limit: Maximum number of issues to return, an integer between 1 and 100.
    """
    return []


def test_a_page_size_capped_below_what_the_words_say_is_an_error_naming_both() -> None:
    tool = tk.from_function(search_issues, namespace="issues", effect="read")
    clamped = tool.validate({"limit": 80})  # what the words allow: a read tool clamps it to the schema's bound
    assert clamped.data == {"limit": 50}
    assert [notice.action for notice in clamped.notices] == ["clamped"]
    (item,) = found(tool, "TK806")
    assert (item.slug, item.severity, item.path) == ("range_contradicted", "error", "limit")
    assert "'between 1 and 100'" in item.message
    assert "maximum: 50" in item.message
    assert item.fix == "set maximum: 100 or change the description to 'between 1 and 50'"


@pytest.mark.parametrize(
    "field",
    [
        pytest.param({"type": "integer", "minimum": 1, "maximum": 100}, id="set-maximum-100"),
        pytest.param({"type": "integer", "minimum": 1, "maximum": 50}, id="change-the-words"),
    ],
)
def test_either_way_out_of_the_range_fix_clears_the_lint(field: dict[str, Any]) -> None:
    words = "between 1 and 100" if field["maximum"] == 100 else "between 1 and 50"
    tool = tool_with({**field, "description": f"Page size, an integer {words}."})
    assert [item.code for item in tool.lints if item.code in (*CONTRADICTIONS, "TK802")] == []


def rename(name: Annotated[str, Field(max_length=10)]) -> None:
    """Rename the invoice's customer as it is printed.

    Args:
        name: Display name printed on the invoice, at most 80 characters.
    """


def test_a_length_the_schema_caps_below_the_words_is_an_error_naming_both() -> None:
    tool = tk.from_function(rename, namespace="billing")
    assert tool.validate({"name": "x" * 40}).status == "invalid_arguments"
    (item,) = found(tool, "TK807")
    assert (item.slug, item.severity) == ("length_contradicted", "error")
    assert "'at most 80 characters'" in item.message
    assert "maxLength: 10" in item.message
    assert item.fix == "set maxLength: 80 or change the description to 'at most 10 characters'"
    assert (
        found(tool_with({"type": "string", "maxLength": 80, "description": "Name, at most 80 characters."}), "TK807")
        == []
    )


def create_invoice(amount: Decimal) -> str:
    """Create an invoice for one customer.

    Args:
        amount: Amount due, a positive decimal in euros with at most two decimal places, e.g. "19.99".
    """
    return str(amount)


def create_checked_invoice(amount: Annotated[Decimal, Field(gt=0, decimal_places=2)]) -> str:
    """Create an invoice for one customer.

    Args:
        amount: Amount due, a positive decimal in euros with at most two decimal places, e.g. "19.99".
    """
    return str(amount)


def test_a_decimal_described_positive_with_two_places_is_held_to_neither() -> None:
    tool = tk.from_function(create_invoice, namespace="billing")
    assert tool.validate({"amount": "-5.123"}).status == "ok"  # the trap
    assert tool.call({"amount": "-5.123"}).status == "ok"
    sign, places = found(tool, "TK802"), found(tool, "TK809")
    assert [item.slug for item in sign + places] == ["range_unenforced", "precision_unenforced"]
    assert "'positive decimal'" in sign[0].message
    assert "'at most two decimal places'" in places[0].message
    pattern = r"^(?!0(\.0+)?$)(0|[1-9][0-9]*)(\.[0-9]{1,2})?$"
    for item in sign + places:  # one fix for both promises, naming the keyword, its value and the Python way
        assert item.fix.startswith(f"add to the schema: pattern: {pattern} ")
        assert "Field(gt=0, decimal_places=2)" in item.fix


def test_the_pattern_the_decimal_lint_names_makes_the_validator_refuse_what_the_words_rule_out() -> None:
    pattern = found(tk.from_function(create_invoice), "TK809")[0].fix.split()[5]
    words = "Amount due, a positive decimal in euros with at most two decimal places."
    fixed = tool_with({"type": "string", "pattern": pattern, "description": words}, name="amount")
    for bad in ("-5.123", "-5", "0", "0.00", "5.123"):
        assert fixed.validate({"amount": bad}).status == "invalid_arguments", bad
    for good in ("19.99", "0.01", "7"):
        assert fixed.validate({"amount": good}).status == "ok", good
    assert [item.code for item in fixed.lints if item.code in ("TK802", "TK809")] == []


def test_a_decimal_bounded_on_conversion_keeps_its_promise_and_draws_no_lint() -> None:
    tool = tk.from_function(create_checked_invoice, namespace="billing")
    assert [item.code for item in tool.lints] == []
    refused = tool.call({"amount": "-5.123"})
    assert refused.status != "ok"
    assert [error.field for error in refused.errors] == ["amount"]
    assert tool.call({"amount": "19.99"}).data == "19.99"


def test_decimal_places_on_a_number_name_multiple_of() -> None:
    field = {"type": "number", "description": "Unit price in euros, with at most two decimal places."}
    tool = tool_with(field)
    assert tool.validate({"value": 1.234}).status == "ok"
    (item,) = found(tool, "TK809")
    assert item.fix == "add to the schema: multipleOf: 0.01"
    after = tool_with({**field, "multipleOf": 0.01})
    assert after.validate({"value": 1.234}).status == "invalid_arguments"
    assert after.validate({"value": 1.23}).status == "ok"
    assert found(after, "TK809") == []
    cents = tool_with({"type": "number", "description": "The refund, in cents."})
    assert [item.fix for item in found(cents, "TK809")] == ["add to the schema: multipleOf: 1"]
    assert found(tool_with({"type": "integer", "description": "The refund, in cents."}), "TK809") == []


def sort_issues(order: Literal["asc", "desc"]) -> None:
    """Sort the listed issues.

    Args:
        order: Sort order, one of `asc`, `desc` or `random`.
    """


def test_a_listed_value_the_enum_refuses_is_an_error_naming_it() -> None:
    tool = tk.from_function(sort_issues)
    assert tool.validate({"order": "random"}).status == "invalid_arguments"
    (item,) = found(tool, "TK810")
    assert (item.slug, item.severity) == ("enum_contradicted", "error")
    assert "'one of `asc`, `desc` or `random`'" in item.message
    assert "refuses 'random'" in item.message
    assert item.fix == "set enum: ['asc', 'desc', 'random'] or change the description to list 'asc', 'desc'"


@pytest.mark.parametrize(
    ("field", "severity", "fix"),
    [
        pytest.param(
            {"enum": ["open", "closed", "all"], "description": "State of the issue. Either `open` or `closed`."},
            "warning",
            "list 'all' in the description too, or set enum: ['open', 'closed']",
            id="a-complete-list-leaves-out-an-enum-value",
        ),
        pytest.param(
            {
                "enum": ["landline", "mobile"],
                "description": "Type of phone number. Possible values: **Landline**, **Mobile**.",
            },
            "error",
            "write 'landline', 'mobile' in the description, as enum has them, or set Policy(enum_case='insensitive')",
            id="the-words-spell-the-values-in-another-case",
        ),
    ],
)
def test_a_list_that_differs_from_the_enum_says_how(field: dict[str, Any], severity: str, fix: str) -> None:
    (item,) = found(tool_with({"type": "string", **field}), "TK810")
    assert (item.severity, item.fix) == (severity, fix)


@pytest.mark.parametrize(
    "field",
    [
        pytest.param(
            {"type": "string", "enum": ["open", "closed"], "description": "Either `open` or `closed`."}, id="same"
        ),
        pytest.param(
            {
                "type": "string",
                "enum": ["now"],
                "description": "If set, one of `subscription_items` or `subscription` is required.",
            },
            id="a-list-of-other-fields-in-a-case",
        ),
        pytest.param(
            {
                "type": "string",
                "enum": ["active", "suspended", "closed"],
                "description": "Usually `active`, but can be `suspended` or `closed`.",
            },
            id="can-be-lists-some",
        ),
        pytest.param(
            {
                "type": "string",
                "enum": ["a", "a-matcher", "b"],
                "description": "Must be one of `a`, `b`, or their `-matcher` variants.",
            },
            id="the-list-goes-on-in-words",
        ),
        pytest.param(
            {
                "type": "integer",
                "minimum": 1,
                "maximum": 1000,
                "description": "Messages returned; greater than 0 and less than or equal to 1000.",
            },
            id="greater-than-0-is-minimum-1-on-whole-numbers",
        ),
        pytest.param(
            {"type": "integer", "exclusiveMinimum": 0, "description": "A positive integer."},
            id="positive-is-exclusive-0",
        ),
        pytest.param(
            {
                "type": "array",
                "maxItems": 2048,
                "items": {"type": "string"},
                "description": "Texts to embed; a maximum of 300,000 tokens in all.",
            },
            id="a-count-of-something-else",
        ),
        pytest.param(
            {"type": "number", "description": "Unit price; the API rounds it to two decimal places."}, id="rounding"
        ),
    ],
)
def test_words_and_schema_that_agree_or_speak_of_something_else_stay_quiet(field: dict[str, Any]) -> None:
    assert [item.code for item in tool_with(field).lints if item.code in (*CONTRADICTIONS, "TK809")] == []


def test_a_positive_integer_over_minimum_0_is_a_contradiction() -> None:
    (item,) = found(
        tool_with({"type": "integer", "minimum": 0, "description": "A positive integer in cents."}), "TK806"
    )
    assert item.fix == "set minimum: 1 or change the description to 'at least 0'"


def test_an_item_count_the_schema_states_otherwise_is_an_error() -> None:
    field = {
        "type": "array",
        "maxItems": 20,
        "items": {"type": "object"},
        "description": "There can be a maximum of 128 tools.",
    }
    (item,) = found(tool_with(field, name="tools"), "TK808")
    assert item.fix == "set maxItems: 128 or change the description to 'at most 20 items'"


def test_the_contradiction_rules_are_in_the_catalogue_in_code_order() -> None:
    rules = {rule.code: rule for rule in CATALOGUE}
    assert [rules[code].slug for code in ("TK806", "TK807", "TK808", "TK809", "TK810")] == [
        "range_contradicted",
        "length_contradicted",
        "count_contradicted",
        "precision_unenforced",
        "enum_contradicted",
    ]
    assert [rules[code].severity for code in CONTRADICTIONS] == ["error"] * 4
    assert [rule.code for rule in CATALOGUE] == sorted(rule.code for rule in CATALOGUE)


def test_a_decimal_written_as_number_or_string_is_held_on_both_branches() -> None:
    """pydantic writes a ``Decimal`` as ``anyOf: [number, string]``: a bound on the number leaves the string open."""
    bounded = {"anyOf": [{"type": "number", "exclusiveMinimum": 0}, {"type": "string"}]}
    tool = tool_with({**bounded, "description": "Amount to refund, a positive decimal."})
    assert tool.validate({"value": "-5"}).status == "ok"  # the trap: the string branch takes any text
    (item,) = found(tool, "TK802")
    pattern = r"^(?!0(\.0+)?$)(0|[1-9][0-9]*)(\.[0-9]+)?$"
    assert item.fix.startswith(f"add to the schema: pattern: {pattern} ")
    held = {"anyOf": [{"type": "number", "exclusiveMinimum": 0}, {"type": "string", "pattern": pattern}]}
    after = tool_with({**held, "description": "Amount to refund, a positive decimal."})
    assert after.validate({"value": "-5"}).status == "invalid_arguments"
    assert found(after, "TK802") == []
