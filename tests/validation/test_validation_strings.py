"""Strings at the boundary: formats by their RFCs, patterns as ECMA-262, and a time bound on both.

Formats are held to jsonschema-rs (which follows the RFCs 2020-12 names), patterns to JavaScript's answers
(``regress``, an ECMA-262 engine, stands in for it here).

Internals: ``FORMAT_CHECKS`` (the formats under test) and ``build_tool`` for a tool from a hand-written JSON Schema.
"""

from __future__ import annotations

from typing import Any

import jsonschema_rs
import pytest
import regress

from toolkit import Policy, SchemaError, Tool, ToolContract, from_openapi
from toolkit import ToolContract as Contract
from toolkit._tool import build_tool
from toolkit._validation._formats import FORMAT_CHECKS


def make_tool(schema: dict[str, Any]) -> Tool:
    return Tool(contract=ToolContract(name="t", description="A test tool.", args_schema=schema), parameters=None)


def string_tool(**keywords: Any) -> Tool:
    return make_tool({"type": "object", "properties": {"s": {"type": "string", **keywords}}})


FORMAT_SAMPLES: dict[str, list[str]] = {
    "date-time": ["2026-08-07T14:02:00Z", "2026-08-07 14:02:00Z", "2026-08-07T22:59:60Z", "2016-12-31T23:59:60Z",
                  "2017-01-01T00:59:60+01:00", "2026-08-07t14:02:00z", "2026-08-07T14:02:00.5+02:00",
                  "2026-08-07T24:00:00Z", "2026-08-07T14:02:00+24:00", "2026-02-30T00:00:00Z", "2026-08-07T14:02Z",
                  "2026-08-07T14:02:00Z\n", "١٩٩٩-08-07T14:02:00Z"],
    "time": ["14:02:00Z", "23:59:60Z", "22:59:60Z", "00:59:60+01:00", "14:02:00.123-05:30", "24:00:00Z", "14:02"],
    "email": ["name@example.com", "a@[127.0.0.1]", "a@[IPv6:::1]", '"a b"@c.d', "a..b@c.d", ".a@b.c", "a.@b.c",
              "a@-b.c", "é@x.y", "a@[::1]", "a@[300.1.1.1]", "x" * 65 + "@a.b", "a@b", "a+b@c.d", "a@b.c\n"],
    "uri": ["https://example.com/path", "relative/path", "http://[::1]/", "a:b", "http://ex ample.com",
            "http://é.com", "urn:isbn:0451450523", "http://a/%zz", "http://[v1.x]/", "http://[fe80::1%25eth0]/"],
    "ipv6": ["2001:db8::1", "::1", "1::2::3", "fe80::1%eth0", "::ffff:1.2.3.4", "::ffff:01.2.3.4", "١::1"],
    "ipv4": ["192.0.2.1", "256.0.0.1", "01.2.3.4", "1.2.3", "١.2.3.4"],
    "duration": ["P3D", "PT2H", "P", "PT", "P1W", "P1Y2W", "PT1.5S", "P1DT", "P1Y2D", "P1Y2M3DT4H5M6S", "-P1D"],
    "date": ["2026-08-07", "2026-02-30", "20260807", "2026-8-7", "2024-02-29"],
}  # fmt: skip
DELIBERATE = {("time", "14:02"): False}
"""Where toolkit answers otherwise on purpose: a time without an offset is accepted (see ``_formats``), but
``14:02`` has no seconds, so it is refused either way (listed to say that jsonschema-rs agrees here too)."""


@pytest.mark.parametrize(
    ("fmt", "value"), [(fmt, value) for fmt, values in FORMAT_SAMPLES.items() for value in values], ids=repr
)
def test_format_agrees_with_jsonschema_rs(fmt: str, value: str) -> None:
    expected = jsonschema_rs.validator_for({"format": fmt}, validate_formats=True).is_valid(value)
    assert FORMAT_CHECKS[fmt](value) == DELIBERATE.get((fmt, value), expected)


def test_a_wall_clock_time_without_an_offset_is_accepted_on_purpose() -> None:
    assert FORMAT_CHECKS["time"]("14:02:00")
    assert not FORMAT_CHECKS["time"]("23:59:60")  # a leap second is only valid at 23:59:60 UTC: it needs the offset


# -- patterns --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        (r"^\p{L}+$", "été"),
        (r"^\p{L}+$", "123"),
        (r"^\S+$", "a\u00a0b"),
        (r"^\s$", "\u3000"),
        (r"^\s$", "\ufeff"),
        (r"^.$", "\u2028"),
        (r"^.$", "😀"),
        (r"^[a-z]+$", "abc\n"),
        (r"^\d{3}$", "١٢٣"),
        (r"^\w+$", "é"),
        (r"^(?<n>x)+$", "xx"),
        (r"^a\cJb$", "a\nb"),
        (r"^[^]$", "\n"),
    ],
)
def test_a_pattern_answers_as_javascript_does(pattern: str, text: str) -> None:
    expected = regress.Regex(pattern, "u").find(text) is not None
    result = string_tool(pattern=pattern).validate({"s": text})
    assert result.ok == expected
    if not expected:
        assert [e.code for e in result.errors] == ["pattern_mismatch"]


def test_pattern_properties_are_ecma_262_too() -> None:
    tool = make_tool({"patternProperties": {r"^\p{Lu}": {"type": "integer"}}})
    assert [(e.field, e.code) for e in tool.validate({"Ab": "x", "ab": "x"}).errors] == [("Ab", "wrong_type")]


@pytest.mark.parametrize("where", ["pattern", "patternProperties", "propertyNames", "nested-ref"])
def test_a_pattern_the_engine_cannot_compile_refuses_the_tool_when_it_is_built(where: str) -> None:
    bad = "(?<n>x"
    schema: dict[str, Any] = {
        "pattern": {"type": "object", "properties": {"s": {"pattern": bad}}},
        "patternProperties": {"type": "object", "patternProperties": {bad: {}}},
        "propertyNames": {"type": "object", "propertyNames": {"pattern": bad}},
        "nested-ref": {"type": "object", "properties": {"s": {"$ref": "#/$defs/S"}}, "$defs": {"S": {"pattern": bad}}},
    }[where]
    with pytest.raises(SchemaError) as caught:
        build_tool(Contract(name="t", description="d", args_schema=schema, source="schema"))
    assert caught.value.slug == "bad_pattern"
    assert bad in caught.value.message


def test_an_openapi_operation_with_an_unreadable_pattern_is_refused_with_bad_pattern() -> None:
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/things": {
                "get": {
                    "operationId": "listThings",
                    "description": "List things.",
                    "parameters": [{"name": "q", "in": "query", "schema": {"type": "string", "pattern": "[a-"}}],
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
    }
    toolset = from_openapi(spec, "things", select="all")
    assert [(r.operation_id, r.slug) for r in toolset.rejected] == [("listThings", "bad_pattern")]


CATASTROPHIC = r"^(a|a)*\1$"
"""Backtracks exponentially, and has a backreference, so no linear-time twin can answer it."""


def test_a_pattern_that_backtracks_without_end_is_pattern_too_slow_with_a_clear_expectation() -> None:
    result = string_tool(pattern=CATASTROPHIC).validate({"s": "a" * 40 + "b"})
    (error,) = result.errors
    assert (error.field, error.code, error.expected) == ("s", "pattern_too_slow", "a shorter value")


def test_after_the_search_budget_is_spent_further_strings_are_too_slow_without_a_search() -> None:
    tool = make_tool({"type": "object", "additionalProperties": {"type": "string", "pattern": CATASTROPHIC}})
    result = tool.validate({f"k{i}": "a" * 40 + "b" for i in range(8)})
    assert {e.code for e in result.errors} == {"pattern_too_slow"}
    assert len(result.errors) == 8


def test_the_fast_path_never_hides_a_slow_pattern() -> None:
    tool = make_tool({"type": "object", "properties": {"s": {"type": "string", "pattern": CATASTROPHIC}}})
    assert [e.code for e in tool.validate({"s": "a" * 40 + "b"}).errors] == ["pattern_too_slow"]
    assert tool.validate({"s": "aa"}).ok


def test_the_policy_does_not_change_what_a_pattern_means() -> None:
    tool = make_tool({"type": "object", "properties": {"s": {"pattern": "^x"}}})
    loose = tool.with_policy(unlisted_properties="allow", enum_case="insensitive")
    assert isinstance(loose.policy, Policy)
    assert [r.ok for r in (tool.validate({"s": "xy"}), loose.validate({"s": "yx"}))] == [True, False]
