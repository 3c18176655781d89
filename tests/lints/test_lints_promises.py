"""Lints that read the words: a description that promises a constraint the schema does not enforce (TK801–TK805).

Each positive case is a real-world phrasing with a value the words rule out. The test proves three things with
the real validator: the original schema accepts that value (the trap), the lint names the keywords to add, and
the schema with those keywords added rejects the value, accepts a good one, and no longer draws the lint.

Internals: ``_lints.lint`` and ``CATALOGUE`` (the rules under test), and ``build_tool`` for a tool from a
hand-written JSON Schema.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from toolkit import Tool, ToolContract
from toolkit._lints import CATALOGUE, lint
from toolkit._tool import build_tool

KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems")
KEYWORDS += ("maxItems", "format", "pattern")
_FIX = re.compile(rf"({'|'.join(KEYWORDS)}): (.*?)(?=, (?:{'|'.join(KEYWORDS)}): |$)")
PROMISE_CODES = ("TK801", "TK802", "TK803", "TK804", "TK805")


def tool_with(field: dict[str, Any], name: str = "value") -> Tool:
    schema = {"type": "object", "properties": {name: field}, "required": [name], "additionalProperties": False}
    return build_tool(ToolContract(name="t", description="Do the thing.", args_schema=schema))


def keywords_of(fix: str) -> dict[str, Any]:
    """The keywords a promise lint's fix names, read back from ``add to the schema: k: v, k: v``."""
    prefix = "add to the schema: "
    assert fix.startswith(prefix), fix
    found: dict[str, Any] = {}
    for key, text in _FIX.findall(fix[len(prefix) :]):
        found[key] = text if key in ("format", "pattern") else (float(text) if "." in text else int(text))
    return found


def promise_lints(tool: Tool) -> list[tuple[str, str]]:
    return [(item.code, item.fix) for item in lint(tool) if item.code in PROMISE_CODES]


# (field schema, code, keywords the fix names, a value the words rule out, a value they allow)
POSITIVE = [
    # TK801 length_unenforced
    pytest.param(
        {"type": "string", "description": "Display name shown on the invoice, at most 80 characters."},
        "TK801",
        {"maxLength": 80},
        "x" * 81,
        "Acme Ltd",
        id="length-at-most",
    ),
    pytest.param(
        {"type": "string", "description": "Order note for the courier (max 500 chars)."},
        "TK801",
        {"maxLength": 500},
        "n" * 501,
        "Ring twice",
        id="length-max-chars-in-parentheses",
    ),
    pytest.param(
        {"type": "string", "description": "The username. Must be between 3 and 30 characters long."},
        "TK801",
        {"minLength": 3, "maxLength": 30},
        "ab",
        "ada",
        id="length-between",
    ),
    pytest.param(
        {"type": "string", "description": "Short code, 2-8 characters, uppercase letters only."},
        "TK801",
        {"minLength": 2, "maxLength": 8},
        "ABCDEFGHI",
        "AB",
        id="length-dash-range",
    ),
    pytest.param(
        {"type": "string", "description": "The subject line.\n\nMaximum length: 78 characters."},
        "TK801",
        {"maxLength": 78},
        "s" * 79,
        "Hello",
        id="length-label",
    ),
    pytest.param(
        {"type": "string", "description": "A 3-character ISO 4217 currency code such as EUR."},
        "TK801",
        {"minLength": 3, "maxLength": 3},
        "EURO",
        "EUR",
        id="length-exact-n-character-noun",
    ),
    pytest.param(
        {"type": "string", "description": "New password; at least 12 characters."},
        "TK801",
        {"minLength": 12},
        "short",
        "correct horse battery",
        id="length-at-least",
    ),
    pytest.param(
        {"type": "string", "description": "It must not be longer than 64 characters."},
        "TK801",
        {"maxLength": 64},
        "y" * 65,
        "fine",
        id="length-negated-longer-than",
    ),
    pytest.param(
        {"type": "string", "description": "A DNS label of 63 characters or less."},
        "TK801",
        {"maxLength": 63},
        "d" * 64,
        "web",
        id="length-n-characters-or-less",
    ),
    pytest.param(
        {"type": "string", "description": "Post text. Enter at most 280 characters."},
        "TK801",
        {"maxLength": 280},
        "t" * 281,
        "hi",
        id="length-led-by-a-verb",
    ),
    # TK802 range_unenforced
    pytest.param(
        {"type": "integer", "description": "Page size, between 1 and 100."},
        "TK802",
        {"minimum": 1, "maximum": 100},
        0,
        50,
        id="range-between",
    ),
    pytest.param(
        {"type": "integer", "description": "How many times to retry (max 5)."},
        "TK802",
        {"maximum": 5},
        6,
        5,
        id="range-max-in-parentheses",
    ),
    pytest.param(
        {"type": "number", "description": "Opacity of the overlay, from 0 to 1."},
        "TK802",
        {"minimum": 0, "maximum": 1},
        1.5,
        0.5,
        id="range-from-to",
    ),
    pytest.param(
        {"type": "integer", "description": "The page number; must be a positive integer."},
        "TK802",
        {"minimum": 1},
        0,
        1,
        id="range-positive-integer-is-exactly-minimum-1",
    ),
    pytest.param(
        {"type": "number", "description": "Timeout in seconds; it must be greater than 0."},
        "TK802",
        {"exclusiveMinimum": 0},
        0,
        0.5,
        id="range-greater-than-number",
    ),
    pytest.param(
        {"type": "integer", "description": "Target temperature in degrees Celsius, -20 to 50."},
        "TK802",
        {"minimum": -20, "maximum": 50},
        60,
        -5,
        id="range-negative-bare",
    ),
    pytest.param(
        {"type": "integer", "description": "Zoom level. Minimum: 1, maximum: 20."},
        "TK802",
        {"minimum": 1, "maximum": 20},
        21,
        3,
        id="range-labels",
    ),
    pytest.param(
        {"type": "integer", "description": "Seats to reserve, a non-negative integer."},
        "TK802",
        {"minimum": 0},
        -1,
        0,
        id="range-non-negative",
    ),
    pytest.param(
        {"type": "integer", "description": "Quantity to order, at least 1 and at most 99."},
        "TK802",
        {"minimum": 1, "maximum": 99},
        100,
        2,
        id="range-at-least-and-at-most",
    ),
    pytest.param(
        {"type": "number", "description": "Parcel weight in kilograms; strictly between 0 and 1000."},
        "TK802",
        {"exclusiveMinimum": 0, "exclusiveMaximum": 1000},
        1000,
        2.5,
        id="range-strictly-between",
    ),
    pytest.param(
        {"type": "integer", "description": "Share of traffic to route to the canary, 0-100%."},
        "TK802",
        {"minimum": 0, "maximum": 100},
        101,
        10,
        id="range-percent",
    ),
    pytest.param(
        {"type": "integer", "exclusiveMinimum": 0, "description": "Results per page, 1 to 50."},
        "TK802",
        {"maximum": 50},
        51,
        50,
        id="range-half-enforced-names-only-the-missing-bound",
    ),
    # TK803 count_unenforced
    pytest.param(
        {"type": "array", "items": {"type": "string"}, "description": "Tags to attach; up to 10 tags."},
        "TK803",
        {"maxItems": 10},
        ["t"] * 11,
        ["a", "b"],
        id="count-up-to",
    ),
    pytest.param(
        {"type": "array", "items": {"type": "string"}, "description": "Recipients. At most 50 addresses are allowed."},
        "TK803",
        {"maxItems": 50},
        ["a@b.co"] * 51,
        ["a@b.co"],
        id="count-at-most-sentence",
    ),
    pytest.param(
        {"type": "array", "items": {"type": "integer"}, "description": "IDs of the orders to cancel (max 25)."},
        "TK803",
        {"maxItems": 25},
        list(range(26)),
        [1, 2],
        id="count-max-in-parentheses",
    ),
    pytest.param(
        {"type": "array", "items": {"type": "string"}, "description": "Poll answers. Provide at least 2 options."},
        "TK803",
        {"minItems": 2},
        ["yes"],
        ["yes", "no"],
        id="count-led-by-a-verb",
    ),
    pytest.param(
        {"type": "array", "items": {"type": "string"}, "description": "Between 1 and 5 image URLs to compare."},
        "TK803",
        {"minItems": 1, "maxItems": 5},
        [],
        ["u"],
        id="count-between",
    ),
    # TK804 format_unenforced
    pytest.param(
        {"type": "string", "description": "When the invoice is due, in YYYY-MM-DD format."},
        "TK804",
        {"format": "date"},
        "tomorrow",
        "2026-08-07",
        id="format-yyyy-mm-dd",
    ),
    pytest.param(
        {"type": "string", "description": "When the report window starts, as an ISO 8601 timestamp."},
        "TK804",
        {"format": "date-time"},
        "08/07/2026",
        "2026-08-07T09:00:00Z",
        id="format-iso-8601-timestamp",
    ),
    pytest.param(
        {"type": "string", "description": "Start of the slot (RFC 3339), e.g. 2026-05-01T09:00:00Z."},
        "TK804",
        {"format": "date-time"},
        "9am",
        "2026-05-01T09:00:00Z",
        id="format-rfc-3339",
    ),
    pytest.param(
        {"type": "string", "description": "Birth date as an ISO 8601 date."},
        "TK804",
        {"format": "date"},
        "1990/01/31",
        "1990-01-31",
        id="format-iso-8601-date",
    ),
    pytest.param(
        {"type": "string", "description": "Opening time on the 24-hour clock, HH:MM."},
        "TK804",
        {"pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"},
        "25:00",
        "09:30",
        id="format-local-time-as-pattern",
    ),
    pytest.param(
        {"type": "string", "description": "Only events after this moment: `YYYY-MM-DDTHH:MM:SSZ`."},
        "TK804",
        {"format": "date-time"},
        "yesterday",
        "2026-08-07T14:02:00Z",
        id="format-date-time-token",
    ),
    # TK805 pattern_unenforced
    pytest.param(
        {"type": "string", "description": "Customer id: starts with cus_ followed by 14 alphanumeric characters."},
        "TK805",
        {"pattern": "^cus_[A-Za-z0-9]{14}$"},
        "123",
        "cus_ABCdef1234567x",
        id="pattern-id-shape",
    ),
    pytest.param(
        {"type": "string", "description": 'The order, "ord_" followed by 12 lowercase letters or digits.'},
        "TK805",
        {"pattern": "^ord_[a-z0-9]{12}$"},
        "ord_ABC",
        "ord_a1b2c3d4e5f6",
        id="pattern-quoted-prefix",
    ),
    pytest.param(
        {"type": "string", "description": "Invoice number, such as INV-0042; must start with `INV-`."},
        "TK805",
        {"pattern": "^INV-"},
        "0042",
        "INV-0042",
        id="pattern-prefix-only",
    ),
    pytest.param(
        {"type": "string", "description": "Where we post events. Must begin with https://."},
        "TK805",
        {"pattern": "^https://"},
        "http://x.example",
        "https://x.example",
        id="pattern-url-scheme",
    ),
    pytest.param(
        {"type": "string", "description": "The colour must start with '#' followed by 6 hex digits."},
        "TK805",
        {"pattern": "^#[0-9a-fA-F]{6}$"},
        "red",
        "#a0B1c2",
        id="pattern-hex-colour",
    ),
    pytest.param(
        {"type": "string", "description": "Must be prefixed with `PRJ-` followed by 1-6 digits."},
        "TK805",
        {"pattern": "^PRJ-[0-9]{1,6}$"},
        "PRJ-",
        "PRJ-42",
        id="pattern-counted-range",
    ),
    pytest.param(
        {"type": "string", "description": 'Link target. Must start with "http://" or "https://".'},
        "TK805",
        {"pattern": "^(?:http://|https://)"},
        "ftp://x",
        "http://x",
        id="pattern-either-prefix",
    ),
]


@pytest.mark.parametrize(("field", "code", "keywords", "bad", "good"), POSITIVE)
def test_promise_lint_names_the_keywords_the_schema_lacks(
    field: dict[str, Any], code: str, keywords: dict[str, Any], bad: Any, good: Any
) -> None:
    tool = tool_with(field)
    findings = [(c, fix) for c, fix in promise_lints(tool) if c == code]
    assert len(findings) == 1, promise_lints(tool)
    assert keywords_of(findings[0][1]) == keywords
    item = next(item for item in lint(tool) if item.code == code)
    assert (item.path, item.severity) == ("value", "warning")
    assert "promises" in item.message


@pytest.mark.parametrize(("field", "code", "keywords", "bad", "good"), POSITIVE)
def test_the_fix_makes_the_validator_keep_the_promise(
    field: dict[str, Any], code: str, keywords: dict[str, Any], bad: Any, good: Any
) -> None:
    before = tool_with(field)
    assert before.validate({"value": bad}).status == "ok"  # the trap: the words rule it out, nothing checks it
    fix = next(fix for c, fix in promise_lints(before) if c == code)
    after = tool_with({**field, **keywords_of(fix)})
    assert after.validate({"value": bad}).status == "invalid_arguments"
    assert after.validate({"value": good}).status == "ok"
    assert [c for c, _ in promise_lints(after) if c == code] == []


NEGATIVE = [
    # the schema already enforces the promise (or more)
    pytest.param(
        {"type": "string", "maxLength": 80, "description": "Name, at most 80 characters."}, id="max-length-set"
    ),
    pytest.param({"type": "string", "maxLength": 40, "description": "Name, at most 80 characters."}, id="tighter"),
    pytest.param(
        {"type": "integer", "minimum": 1, "maximum": 100, "description": "Between 1 and 100."}, id="range-set"
    ),
    pytest.param(
        {"type": "integer", "exclusiveMinimum": 0, "description": "A positive integer."}, id="gt-0-is-positive"
    ),
    pytest.param({"type": "integer", "enum": [1, 2, 3], "description": "A level between 1 and 3."}, id="enum-fixes-it"),
    pytest.param({"type": "string", "format": "date", "description": "Day, YYYY-MM-DD."}, id="format-set"),
    pytest.param(
        {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$", "description": "Day, YYYY-MM-DD."}, id="pattern-set"
    ),
    pytest.param(
        {"type": "string", "pattern": "^cus_", "description": "Must start with `cus_` followed by 14 digits."},
        id="any-pattern-is-trusted",
    ),
    pytest.param(
        {"type": "array", "maxItems": 5, "items": {"type": "string"}, "description": "Up to 10 tags."}, id="max-items"
    ),
    # words that promise nothing about this field
    pytest.param({"type": "integer", "description": "The number of nodes running at least 1 pod."}, id="other-subject"),
    pytest.param(
        {"type": "integer", "description": "Skew. In this case the global minimum is 1."}, id="global-minimum"
    ),
    pytest.param(
        {"type": "integer", "description": "Lendable share. The value can be more than 100."}, id="permission"
    ),
    pytest.param({"type": "integer", "description": "A positive or negative offset in minutes."}, id="either-sign"),
    pytest.param(
        {"type": "number", "description": "Penalty. Positive values repeat less often."}, id="positive-values"
    ),
    pytest.param(
        {"type": "integer", "description": "Setting to 1 means parallelism is limited to 1."}, id="limited-to"
    ),
    pytest.param({"type": "integer", "description": "Results from 2020 to 2024 are archived."}, id="from-without-lead"),
    pytest.param({"type": "number", "description": "Use version 2.0 or later of the format."}, id="version-number"),
    # conditional or ambiguous promises
    pytest.param({"type": "integer", "description": "If the list is empty, at most 10 defaults are used."}, id="if"),
    pytest.param(
        {
            "type": "integer",
            "description": "Mode bits: an octal value between 0000 and 0777 or a decimal value between 0 and 511.",
        },
        id="two-ranges",
    ),
    pytest.param(
        {"type": "integer", "description": "Buckets. For daily buckets max: 31. For hourly buckets max: 168."},
        id="two-maxima-for-cases",
    ),
    pytest.param(
        {
            "type": "string",
            "description": "The prompt: 32000 characters for gpt-image-1, 1000 characters for dall-e-2.",
        },
        id="length-per-model",
    ),
    pytest.param(
        {"type": "string", "description": "Maximum length: 140 characters. Longer text is truncated."}, id="truncated"
    ),
    pytest.param(
        {
            "type": "array",
            "items": {"type": "string"},
            "description": "For stores made before 2025, a maximum of 10,000 files.",
        },
        id="for-a-case",
    ),
    pytest.param({"type": "string", "description": "A date: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ."}, id="two-formats"),
    pytest.param({"type": "string", "description": "Local time, YYYY-MM-DD HH:MM:SS."}, id="date-time-with-a-space"),
    pytest.param({"type": "string", "description": "Must not contain or start with '..'."}, id="negated-prefix"),
    pytest.param(
        {"type": "string", "description": "Names beginning with `kubernetes.io` are reserved."}, id="participle"
    ),
    pytest.param({"type": "string", "description": "Team id; starts with `T` in case of an org token."}, id="in-case"),
    pytest.param(
        {"type": "string", "description": "Filter users whose name starts with the search term."}, id="no-literal"
    ),
    # a promise about another measure than the field's type
    pytest.param({"type": "string", "description": "Returns at most 100 items per page."}, id="items-on-a-string"),
    pytest.param({"type": "integer", "description": "A name of at most 64 characters."}, id="characters-on-an-integer"),
    pytest.param(
        {"type": "object", "additionalProperties": {"type": "string"}, "description": "Keys of at most 64 characters."},
        id="characters-on-an-object",
    ),
]


@pytest.mark.parametrize("field", NEGATIVE)
def test_words_that_promise_nothing_enforceable_stay_quiet(field: dict[str, Any]) -> None:
    assert promise_lints(tool_with(field)) == []


def test_every_promise_rule_is_in_the_catalogue_as_a_warning() -> None:
    rules = {rule.code: rule for rule in CATALOGUE if rule.code in PROMISE_CODES}
    assert set(rules) == set(PROMISE_CODES)
    assert all(rule.severity == "warning" and rule.slug.endswith("_unenforced") for rule in rules.values())


def test_a_date_named_field_gets_the_precise_format_lint_instead_of_the_name_lint() -> None:
    described = tool_with({"type": "string", "description": "Due date of the invoice, YYYY-MM-DD."}, name="due_date")
    codes = [item.code for item in lint(described)]
    assert "TK804" in codes
    assert "TK401" not in codes
    vague = tool_with({"type": "string", "description": "Due date of the invoice."}, name="due_date")
    assert "TK401" in [item.code for item in lint(vague)]


def test_a_promise_on_one_branch_of_a_union_is_checked_on_that_branch() -> None:
    field = {
        "anyOf": [{"type": "integer"}, {"type": "string", "enum": ["inf"]}],
        "description": "Provide an integer between 1 and 4096, or `inf` for no limit.",
    }
    assert promise_lints(tool_with(field)) == [("TK802", "add to the schema: minimum: 1, maximum: 4096")]


def test_a_schema_bound_at_another_value_is_a_contradiction_not_a_missing_promise() -> None:
    tool = tool_with({"type": "string", "maxLength": 100, "description": "Label, at most 80 characters."})
    assert [item.code for item in lint(tool) if item.code in PROMISE_CODES] == []
    (item,) = [item for item in lint(tool) if item.code == "TK807"]
    assert item.fix == "set maxLength: 80 or change the description to 'at most 100 characters'"
    assert "the schema says maxLength: 100" in item.message
    assert "'at most 80 characters'" in item.message


def test_promises_are_read_in_nested_fields_at_their_path() -> None:
    address = {
        "type": "object",
        "description": "Where to ship the parcel.",
        "properties": {"postcode": {"type": "string", "description": "Postal code, at most 10 characters."}},
    }
    assert [(item.code, item.path) for item in lint(tool_with(address, name="address"))] == [
        ("TK801", "address.postcode")
    ]


@pytest.mark.corpus
@pytest.mark.parametrize(
    "spec", ["adyen-balanceplatform-v2-3.1.json", "box.json", "github-3.0.json", "sendgrid-3.1.json", "stripe.json"]
)
def test_promise_fixes_on_real_specs_are_schema_the_validator_compiles(corpus_dir: Path, spec: str) -> None:
    from toolkit import from_openapi

    toolset = from_openapi(corpus_dir / spec, namespace="corpus", select="all")
    fixes = [item.fix for tool in toolset.tools for item in tool.lints if item.code in PROMISE_CODES]
    assert fixes, f"no promise lint on {spec}"
    for fix in fixes:
        keywords = keywords_of(fix)
        assert keywords, fix
        if "pattern" in keywords:  # the pattern we suggest is one the validator's ECMA-262 engine accepts
            tool = tool_with({"type": "string", "pattern": keywords["pattern"]})
            assert tool.validate({"value": "x"}).status in ("ok", "invalid_arguments")
