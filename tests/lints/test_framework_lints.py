"""The lints that compare a framework's own schema with toolkit's: each fires on its disagreement, at the
field's path, stays quiet when both agree, and never raises on a framework schema it cannot read.

Internals: ``_lints.lint`` and ``CATALOGUE`` (the rules under test) and ``_contract.FrameworkSource``, a framework's
own schema as the lints read it."""

from __future__ import annotations

from typing import Any

import pytest

from toolkit import Injected, Tool, ToolContract
from toolkit._contract import FrameworkSource
from toolkit._lints import CATALOGUE, lint

OURS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "description": "Words to look for in titles."},
        "budget": {"type": "string", "pattern": "^[0-9]+$", "description": "Most to spend, a decimal string."},
        "window": {"$ref": "#/$defs/Window", "description": "Only issues inside this window."},
        "limit": {"type": "integer", "default": 10, "description": "Largest number of issues to return."},
    },
    "required": ["query", "budget", "window"],
    "additionalProperties": False,
    "$defs": {
        "Window": {
            "type": "object",
            "properties": {
                "start": {"type": "string", "format": "date", "description": "First day of the window."},
                "end": {"type": "string", "format": "date", "description": "Last day of the window."},
            },
            "required": ["start"],
        }
    },
}


def agreeing() -> dict[str, Any]:
    """The same schema as a framework writes it: titles, inlined models, a nullable end."""
    window = {
        "title": "Window",
        "type": "object",
        "description": "Only issues inside this window.",
        "properties": {
            "start": {"title": "Start", "type": "string", "description": "First day of the window."},
            "end": {"anyOf": [{"type": "string"}, {"type": "string"}], "description": "Last day of the window."},
        },
    }
    return {
        "title": "search",
        "type": "object",
        "properties": {
            "query": {"title": "Query", "type": "string", "description": "Words to look for in titles."},
            "budget": {"type": "string", "description": "Most to spend, a decimal string."},
            "window": window,
            "limit": {"type": "integer", "default": 10, "description": "Largest number of issues to return."},
        },
        "required": ["query", "budget", "window"],
    }


def tool_with(framework_schema: Any, *, refusal: str = "", injected: tuple[Injected, ...] = ()) -> Tool:
    source = FrameworkSource("langchain", "langchain_core.tools.structured.StructuredTool", framework_schema, refusal)
    contract = ToolContract(
        name="search", description="Search issues.", args_schema=OURS, framework=source, injected=injected
    )
    return Tool(contract=contract, parameters=None)


def framework_findings(tool: Tool) -> set[tuple[str, str]]:
    return {(item.slug, item.path) for item in lint(tool) if item.code.startswith("TK7")}


def test_the_rules_are_in_the_catalogue_with_their_own_codes() -> None:
    slugs = {rule.code: rule.slug for rule in CATALOGUE if rule.code.startswith("TK7")}
    assert slugs == {
        "TK701": "framework_refused",
        "TK702": "framework_parameters",
        "TK703": "framework_required",
        "TK704": "framework_types",
        "TK705": "framework_description",
    }


def test_schemas_that_agree_give_no_finding() -> None:
    assert framework_findings(tool_with(agreeing())) == set()


def test_a_tool_without_a_framework_gives_no_finding() -> None:
    contract = ToolContract(name="search", description="Search issues.", args_schema=OURS)
    assert framework_findings(Tool(contract=contract, parameters=None)) == set()


def test_a_refusal_is_a_finding_for_the_tool() -> None:
    tool = tool_with(None, refusal="ValueError: Enum | None is not supported")
    (finding,) = [item for item in lint(tool) if item.slug == "framework_refused"]
    assert finding.path == ""
    assert "Enum | None is not supported" in finding.message


def test_a_shown_context_and_a_missing_field_are_parameter_findings() -> None:
    theirs = agreeing()
    theirs["properties"]["run_manager"] = {"type": "object"}
    del theirs["properties"]["window"]["properties"]["end"]
    injected = (Injected("run_manager", "langchain", "(the name run_manager)", "LangChain fills it"),)
    tool = tool_with(theirs, injected=injected)
    assert framework_findings(tool) == {("framework_parameters", "run_manager"), ("framework_parameters", "window.end")}
    messages = {item.path: item.message for item in lint(tool) if item.slug == "framework_parameters"}
    assert "injected (LangChain fills it)" in messages["run_manager"]


def test_fields_the_framework_lost_inside_a_model_are_each_reported() -> None:
    theirs = agreeing()
    emptied = {"type": "object", "properties": {}, "description": "Only issues inside this window."}
    theirs["properties"]["window"] = emptied
    assert framework_findings(tool_with(theirs)) == {
        ("framework_parameters", "window.start"),
        ("framework_parameters", "window.end"),
    }


def test_required_mismatches_are_reported_per_top_level_parameter() -> None:
    theirs = agreeing()
    theirs["required"] = ["query", "window", "limit"]  # strict mode: limit required; budget left optional
    assert framework_findings(tool_with(theirs)) == {("framework_required", "limit"), ("framework_required", "budget")}


@pytest.mark.parametrize(
    ("budget", "finding"),
    [
        pytest.param({"anyOf": [{"type": "number"}, {"type": "string"}]}, True, id="number-or-string"),
        pytest.param({"type": "number"}, True, id="number"),
        pytest.param({"type": "string", "format": "decimal"}, False, id="string"),
        pytest.param({"description": "untyped"}, False, id="untyped-not-compared"),
    ],
)
def test_type_mismatches_are_reported(budget: dict[str, Any], finding: bool) -> None:
    theirs = agreeing()
    theirs["properties"]["budget"] = {**budget, "description": "Most to spend, a decimal string."}
    found = framework_findings(tool_with(theirs))
    assert (("framework_types", "budget") in found) is finding
    if finding:
        (item,) = [item for item in lint(tool_with(theirs)) if item.slug == "framework_types"]
        assert "toolkit's lets it be string" in item.message


def test_integer_and_number_are_compared_as_json_schema_means_them() -> None:
    theirs = agreeing()
    theirs["properties"]["limit"] = {"type": "number", "description": "Largest number of issues to return."}
    assert ("framework_types", "limit") in framework_findings(tool_with(theirs))
    theirs["properties"]["limit"] = {"type": ["integer"], "description": "Largest number of issues to return."}
    assert ("framework_types", "limit") not in framework_findings(tool_with(theirs))


def test_missing_and_different_descriptions_are_reported_as_info() -> None:
    theirs = agreeing()
    del theirs["properties"]["query"]["description"]
    theirs["properties"]["window"]["properties"]["start"]["description"] = "Start day."
    findings = [item for item in lint(tool_with(theirs)) if item.slug == "framework_description"]
    assert {(item.path, item.severity) for item in findings} == {("query", "info"), ("window.start", "info")}
    by_path = {item.path: item.message for item in findings}
    assert "the model gets none" in by_path["query"]
    assert "'Start day.'" in by_path["window.start"]


@pytest.mark.parametrize(
    "theirs",
    [
        pytest.param({"type": "object", "properties": {"query": {"$ref": "https://example.com/q"}}}, id="remote-ref"),
        pytest.param({"type": "object", "properties": {"query": {"$ref": "#/nowhere"}}}, id="dangling-ref"),
        pytest.param({"type": "object", "properties": "query"}, id="properties-not-a-map"),
        pytest.param(["not", "a", "schema"], id="not-a-mapping"),
    ],
)
def test_an_unreadable_framework_schema_never_raises(theirs: Any) -> None:
    findings = framework_findings(tool_with(theirs))
    assert ("framework_refused", "") not in findings
