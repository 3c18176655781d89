"""Ugly fixtures: generated from schemas the generator never saw, with verdicts under each tool's policies."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import toolkit as tk
from toolkit import Policy, Tool, ToolContract, ToolkitError
from toolkit._fixtures import Fixture, fire, fixtures, load_fixtures
from toolkit._fixtures._report import verdict


def make_tool(schema: dict[str, Any], effect: str = "write", **policy: Any) -> Tool:
    contract = ToolContract(name="t", description="A test tool.", args_schema=schema, effect=effect)  # type: ignore[arg-type]
    return Tool(contract=contract, parameters=None, policy=Policy(**policy))


def obj(properties: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required or [], "additionalProperties": False,
            **extra}  # fmt: skip


LINE = obj({"sku": {"type": "string", "pattern": "^SKU-[0-9]{4}$"}, "qty": {"type": "integer", "minimum": 1}},
           ["sku", "qty"])  # fmt: skip
UNSEEN: dict[str, dict[str, Any]] = {
    "booking": obj(
        {
            "guest_email": {"type": "string", "format": "email"},
            "check_in": {"type": "string", "format": "date", "description": "Arrival day (YYYY-MM-DD)."},
            "nights": {"type": "integer", "minimum": 1, "maximum": 30, "default": 1},
            "room": {"type": "string", "enum": ["single", "double", "suite"]},
            "breakfast": {"type": "boolean", "default": False},
            "notes": {"type": "string", "maxLength": 200},
        },
        ["guest_email", "check_in", "room"],
    ),
    "shipment": obj(
        {
            "order_ref": {"type": "string", "pattern": "^ORD[0-9]{6}$"},
            "lines": {"type": "array", "items": LINE, "minItems": 1, "maxItems": 5},
            "weight_kg": {"type": "number", "exclusiveMinimum": 0, "maximum": 70},
            "deliver_at": {"type": "string", "format": "date-time"},
            "tracking": {"type": "string", "format": "uuid"},
            "address": obj({"street": {"type": "string", "minLength": 3}, "zip": {"type": "string"}}, ["street"]),
        },
        ["order_ref", "lines"],
    ),
    "report": obj(
        {
            "metric": {"$ref": "#/$defs/Metric"},
            "top": {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 50}, {"type": "null"}], "default": None},
            "step": {"type": "integer", "multipleOf": 5, "minimum": 5, "maximum": 60},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "maxItems": 3},
            "ratio": {"type": "number", "minimum": 0, "maximum": 1},
            "title": {"type": "string", "minLength": 2, "maxLength": 12},
            "priority": {"type": "integer", "enum": [1, 2, 3], "description": "1 is the most urgent."},
        },
        ["metric", "title"],
        **{"$defs": {"Metric": {"type": "string", "enum": ["Revenue", "Orders", "ActiveUsers"]}}},
    ),
}
POLICIES = [
    pytest.param("read", {}, id="read"),
    pytest.param("write", {}, id="write"),
    pytest.param("read", {"enum_case": "insensitive", "null_optional": "reject"}, id="read-lenient-enums"),
    pytest.param("write", {"clamp": True}, id="write-clamping"),
]


@pytest.mark.parametrize("name", list(UNSEEN))
@pytest.mark.parametrize(("effect", "policy"), POLICIES)
def test_every_fixture_gets_its_expected_verdict(name: str, effect: str, policy: dict[str, Any]) -> None:
    report = fire(make_tool(UNSEEN[name], effect, **policy))
    assert report.failures == (), report.summary()
    assert report.skipped == ()


REQUIRED_FAMILIES = {
    "numeric_as_string", "float_for_integer", "bool_as_string", "enum_wrong_case", "enum_unknown",
    "omitted_optional", "explicit_null", "omitted_required", "below_min", "at_min", "above_max", "at_max",
    "below_min_length", "at_min_length", "at_max_length", "above_max_length", "extra_property", "date_free_text",
    "empty_required_string", "overlong_string", "pattern_violation", "wrong_type_nested", "json_object_in_string",
    "array_item_wrong_type", "valid", "below_min_items", "at_max_items", "above_max_items", "duplicate_items",
    "at_exclusive_min", "bad_format", "invalid_json", "enum_declared_string",
}  # fmt: skip


def test_the_unseen_schemas_cover_every_family() -> None:
    found = {f.family for schema in UNSEEN.values() for f in fixtures(make_tool(schema))}
    assert found >= REQUIRED_FAMILIES, REQUIRED_FAMILIES - found


def test_the_same_schema_expects_differently_for_read_and_write_tools() -> None:
    read = {f.id: f.expected for f in fixtures(make_tool(UNSEEN["booking"], "read"))}
    write = {f.id: f.expected for f in fixtures(make_tool(UNSEEN["booking"], "write"))}
    assert (read["nights.above_max"], write["nights.above_max"]) == ("accept_with_notice", "reject")
    assert read["nights.at_max"] == write["nights.at_max"] == "accept"


def test_enum_case_policy_changes_the_expectation() -> None:
    strict = {f.id: f.expected for f in fixtures(make_tool(UNSEEN["booking"]))}
    lenient = {f.id: f.expected for f in fixtures(make_tool(UNSEEN["booking"], enum_case="insensitive"))}
    assert (strict["room.enum_wrong_case"], lenient["room.enum_wrong_case"]) == ("reject", "accept_with_notice")


def test_ids_are_stable_readable_and_unique() -> None:
    first = [f.id for f in fixtures(make_tool(UNSEEN["booking"]))]
    assert first == [f.id for f in fixtures(make_tool(UNSEEN["booking"]))]
    assert len(first) == len(set(first))
    assert {"valid.baseline", "nights.above_max", "check_in.date_free_text.next_tuesday"} <= set(first)
    assert {"args.extra_property", "args.invalid_json"} <= set(first)


def test_free_text_dates_are_the_ones_models_send() -> None:
    texts = {f.args["check_in"] for f in fixtures(make_tool(UNSEEN["booking"])) if f.family == "date_free_text"}
    assert texts == {"next Tuesday", "08/07/2026", "yesterday"}


def test_the_baseline_satisfies_patterns() -> None:
    (baseline,) = [f for f in fixtures(make_tool(UNSEEN["shipment"])) if f.id == "valid.baseline"]
    assert baseline.args["order_ref"].startswith("ORD")
    assert baseline.args["lines"][0]["sku"].startswith("SKU-")


def test_fixtures_that_need_an_impossible_value_are_skipped_and_said() -> None:
    tool = make_tool(obj({"code": {"type": "string", "pattern": "^a$", "minLength": 3}}, ["code"]))
    found = fixtures(tool)
    assert found.skipped
    assert "code" in found.skipped[0]
    assert {f.family for f in found} <= {"extra_property", "invalid_json", "not_an_object"}
    assert "skipped" in fire(tool).summary()


def test_a_wrong_expectation_shows_as_a_failure() -> None:
    tool = make_tool(UNSEEN["booking"])
    lie = Fixture("room.lie", "user", {"guest_email": "a@b.co", "check_in": "2026-08-07", "room": "ROOM"},
                  "accept", "claims a bad room is fine")  # fmt: skip
    report = fire(tool, [lie])
    assert [r.fixture.id for r in report.failures] == ["room.lie"]
    assert report.failures[0].actual == "reject"
    assert "FAIL room.lie" in report.summary()


def test_verdicts_map_statuses() -> None:
    assert verdict(tk.ToolResult("ok")) == "accept"
    assert verdict(tk.ToolResult("ok", notices=(tk.Notice("a", "defaulted"),))) == "accept_with_notice"
    assert verdict(tk.ToolResult("rejected")) == verdict(tk.ToolResult("invalid_arguments")) == "reject"
    assert verdict(tk.ToolResult("error")) == "error"


# -- user fixtures ------------------------------------------------------------------------------------
PROMOTED = [
    {"id": "log.room_caps", "args": {"guest_email": "a@b.co", "check_in": "2026-08-07", "room": "DOUBLE"},
     "expected": "reject", "why": "seen 4,000 times a day"},
    {"id": "log.nights_text", "args": '{"guest_email": "a@b.co", "check_in": "2026-08-07", "room": "suite", '
     '"nights": "two"}', "expected": "reject"},
]  # fmt: skip


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_user_fixtures_load_from_json_and_yaml(tmp_path: Path, suffix: str) -> None:
    import yaml

    path = tmp_path / f"promoted{suffix}"
    path.write_text(json.dumps(PROMOTED) if suffix == ".json" else yaml.safe_dump(PROMOTED), encoding="utf-8")
    loaded = load_fixtures(path)
    assert [(f.id, f.family, f.expected) for f in loaded] == [
        ("log.room_caps", "user", "reject"),
        ("log.nights_text", "user", "reject"),
    ]
    report = fire(make_tool(UNSEEN["booking"]), fixtures(make_tool(UNSEEN["booking"]), extra=path))
    assert report.passed
    assert {"log.room_caps", "log.nights_text"} <= {r.fixture.id for r in report.rows}


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"id": "x"}', "list"),
        ('[{"id": "x", "args": {}}]', "expected"),
        ('[{"id": "x", "args": {}, "expected": "maybe"}]', "maybe"),
        ("[{", "JSON"),
    ],
    ids=["not-a-list", "missing-expected", "bad-verdict", "bad-json"],
)
def test_bad_fixture_files_say_what_is_wrong(tmp_path: Path, text: str, why: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ToolkitError, match=why) as caught:
        load_fixtures(path)
    assert caught.value.slug == "bad_fixture_file"


def test_bad_yaml_is_a_fixture_file_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("- id: [unclosed\n", encoding="utf-8")
    with pytest.raises(ToolkitError) as caught:
        load_fixtures(path)
    assert caught.value.slug == "bad_fixture_file"


# -- the report ----------------------------------------------------------------------------------------
def test_the_report_has_a_frame_a_summary_and_a_display() -> None:
    report = fire(make_tool(UNSEEN["booking"], "read"))
    frame = report.to_frame()
    assert list(frame.columns)[:5] == ["id", "family", "expected", "actual", "passed"]
    assert len(frame) == len(report.rows)
    assert bool(frame["passed"].all())
    assert report.summary().splitlines()[0].startswith(f"t: {len(report.rows)} fixtures")
    bundle = report._repr_mimebundle_()
    assert bundle["text/plain"]
    assert json.loads(json.dumps(report.to_dict()))["tool"] == "t"


def test_orders_spec_tools_pass_their_battery(repo_root: Path) -> None:
    toolset = tk.from_openapi(repo_root / "specs" / "orders.yaml", "orders")
    for tool in toolset:
        report = fire(tool)
        assert report.passed, report.summary()
        assert len(report.rows) > 5


def test_example_function_tools_pass_their_battery() -> None:
    from toolkit import examples

    for fn, effect in ((examples.search_issues, "read"), (examples.transfer_funds, "write")):
        report = fire(tk.from_function(fn, namespace="ex", effect=effect))  # type: ignore[arg-type]
        assert report.passed, report.summary()


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.parametrize("spec", ["github-3.0.json", "openai-3.1.json", "asana.yaml", "twilio-api-v2010.json"])
def test_real_api_tools_agree_with_the_validator(corpus_dir: Path, spec: str) -> None:
    toolset = tk.from_openapi(corpus_dir / spec, "x", select="all")
    failures = [row for tool in toolset for row in fire(tool).failures]
    assert failures == []


@pytest.mark.parametrize("name", list(UNSEEN))
def test_every_rejection_names_the_mutated_field_with_a_problem_and_an_expected_phrase(name: str) -> None:
    report = fire(make_tool(UNSEEN[name]))
    params = set(UNSEEN[name]["properties"])
    for row in report.rows:
        if row.actual != "reject":
            continue
        assert row.result.errors, row.fixture.id
        for error in row.result.errors:
            assert error.problem, row.fixture.id
            assert error.expected, row.fixture.id
        field = row.fixture.field
        if row.fixture.id.split(".")[0] in params:
            assert field, row.fixture.id
        if field:
            fields = [e.field for e in row.result.errors]
            assert all(f == field or f.startswith((f"{field}.", f"{field}[")) for f in fields), (row.fixture.id, fields)
