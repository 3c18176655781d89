"""Lowering JSON Schema 2020-12 to the gemini subset: golden before/after cases and the rules behind them.

Internals: the dialect table ``_lowering.DIALECTS``, the ``Walker`` and ``gemini.violations`` (the subset's own
rules), units of the lowering under test."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest
from locations import TESTS
from lowering_support import unaccounted

from toolkit import Lowered, SchemaError, lower
from toolkit import canonical_json as pretty
from toolkit._lowering import DIALECTS
from toolkit._lowering._walker import Walker
from toolkit._lowering.gemini import violations

GOLDEN = TESTS / "golden" / "lowering"
CASES = sorted(GOLDEN.glob("*.json"))


def _case(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _updating(config: pytest.Config) -> bool:
    return bool(config.getoption("--update-golden", default=False)) or os.environ.get("TOOLKIT_UPDATE_GOLDEN") == "1"


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_lowering_matches_golden_case(path: Path, request: pytest.FixtureRequest) -> None:
    case = _case(path)
    lowered = lower(case["input"])
    actual = pretty({"input": case["input"], "schema": lowered.schema, "losses": [x.to_dict() for x in lowered.losses]})
    if _updating(request.config):
        path.write_text(actual, encoding="utf-8")
        return
    assert actual == path.read_text(encoding="utf-8"), f"lowering changed; rerun with TOOLKIT_UPDATE_GOLDEN=1 ({path})"


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_golden_output_obeys_subset_and_vertex_rules(path: Path) -> None:
    assert violations(lower(_case(path)["input"]).schema) == []


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_every_input_keyword_is_carried_or_lost(path: Path) -> None:
    schema = _case(path)["input"]
    lowered = lower(schema)
    assert unaccounted(schema, lowered.schema, lowered.losses) == []


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_lowering_leaves_its_input_untouched(path: Path) -> None:
    schema = _case(path)["input"]
    before = copy.deepcopy(schema)
    lower(schema)
    assert schema == before


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_property_lowers_the_same_without_its_siblings(path: Path) -> None:
    """Every property that does not read the root it stands in (see the next test) lowers alone as in company."""
    schema = _case(path)["input"]
    whole = lower(schema).schema.get("properties", {})
    for name, sub in schema.get("properties", {}).items():
        if _reads_the_root(sub):
            continue
        alone = {key: value for key, value in schema.items() if key not in ("properties", "required")}
        alone["properties"] = {name: sub}
        if name in whole:
            assert lower(alone).schema["properties"][name] == whole[name], name


def _reads_the_root(node: Any) -> bool:
    """Whether a ``$ref`` under ``node`` points at the root itself or into its own properties."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and (ref == "#" or ref.startswith("#/properties")):
            return True
        return any(_reads_the_root(value) for value in node.values())
    return isinstance(node, list) and any(_reads_the_root(value) for value in node)


def test_a_reference_into_the_roots_properties_reads_its_siblings_by_design() -> None:
    """``#/properties/a`` means the sibling ``a`` of the root the reference stands in: without it, nothing."""
    together = {
        "type": "object",
        "properties": {"a": {"type": "integer", "maximum": 3}, "b": {"$ref": "#/properties/a"}},
    }
    lowered = lower(together).schema["properties"]
    assert lowered["b"] == lowered["a"] == {"type": "INTEGER", "maximum": 3}
    with pytest.raises(SchemaError) as raised:
        lower({"type": "object", "properties": {"b": {"$ref": "#/properties/a"}}})
    assert raised.value.slug == "unresolved_ref"


@pytest.mark.parametrize(
    "variant",
    [
        {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        {"type": ["integer", "null"]},
        {"type": "integer", "nullable": True},
        {"oneOf": [{"type": "null"}, {"type": "integer"}]},
        {"anyOf": [{"$ref": "#/$defs/Int"}, {"type": "null"}]},
    ],
    ids=["anyof-null", "type-list", "openapi-nullable", "oneof-null", "ref-or-null"],
)
def test_optional_forms_lower_to_one_nullable_schema(variant: dict[str, Any]) -> None:
    schema = {"type": "object", "properties": {"x": variant}, "$defs": {"Int": {"type": "integer"}}}
    lowered = lower(schema)
    assert lowered.schema["properties"]["x"] == {"type": "INTEGER", "nullable": True}
    assert lowered.losses == ()


def test_optional_without_default_stays_required() -> None:
    schema = {
        "type": "object",
        "properties": {"x": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
        "required": ["x"],
    }
    assert lower(schema).schema["required"] == ["x"]


def _node_schema(width: int) -> dict[str, Any]:
    children = {f"c{index}": {"$ref": "#/$defs/Node"} for index in range(width)}
    node = {"type": "object", "properties": {"value": {"type": "integer"}, **children}}
    return {"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}}, "$defs": {"Node": node}}


def _depth(schema: dict[str, Any]) -> int:
    below = [_depth(sub) for sub in schema.get("properties", {}).values()]
    if "items" in schema:
        below.append(_depth(schema["items"]))
    return 1 + max(below, default=0)


@pytest.mark.parametrize("max_depth", [0, 1, 3, 8, 12])
def test_recursive_schema_terminates_at_the_depth_limit_with_a_loss(max_depth: int) -> None:
    lowered = lower(_node_schema(1), max_depth=max_depth)
    assert _depth(lowered.schema) == max_depth + 2
    cut = [loss for loss in lowered.losses if loss.keyword == "$ref"]
    assert len(cut) == 1
    assert cut[0].path == ("/$defs/Node/properties/c0" if max_depth else "/properties/root")


def test_mutually_recursive_definitions_terminate() -> None:
    schema = {
        "$ref": "#/$defs/A",
        "$defs": {
            "A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
            "B": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}},
        },
    }
    lowered = lower(schema, max_depth=4)
    assert _depth(lowered.schema) == 5
    assert {loss.keyword for loss in lowered.losses} == {"$ref"}


def test_exponential_inlining_lowers_that_parameter_less_deeply_with_a_loss() -> None:
    schema = _node_schema(10)
    schema["properties"]["other"] = {"$ref": "#/$defs/Other"}
    schema["$defs"]["Other"] = {"type": "object", "properties": {"next": {"$ref": "#/$defs/Other"}}}
    lowered = lower(schema, max_depth=8)
    assert ("/properties/root", "$ref", 2) in [(loss.path, loss.keyword, loss.value) for loss in lowered.losses]
    assert _depth(lowered.schema["properties"]["root"]) == 3
    assert _depth(lowered.schema["properties"]["other"]) == 9


def test_a_parameter_too_large_even_without_references_is_refused() -> None:
    wide = {"type": "object", "properties": {f"p{index}": {"type": "string"} for index in range(10_001)}}
    with pytest.raises(SchemaError) as caught:
        lower({"type": "object", "properties": {"wide": wide}})
    assert caught.value.slug == "schema_too_large"


def test_nesting_beyond_the_limit_is_cut_not_a_recursion_error() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(5000):
        schema = {"type": "object", "properties": {"n": schema}}
    lowered = lower(schema)
    assert any("nesting deeper" in loss.reason for loss in lowered.losses)
    assert violations(lowered.schema) == []


def test_a_definition_reached_twice_reports_its_loss_once() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/Id"}, "b": {"$ref": "#/$defs/Id"}},
        "$defs": {"Id": {"type": "string", "format": "uuid"}},
    }
    assert [(loss.path, loss.keyword) for loss in lower(schema).losses] == [("/$defs/Id", "format")]


def test_read_only_property_leaves_required() -> None:
    schema = {"type": "object", "properties": {"id": {"type": "string", "readOnly": True}}, "required": ["id"]}
    lowered = lower(schema)
    assert "id" not in lowered.schema.get("properties", {})
    assert "required" not in lowered.schema
    assert [(loss.path, loss.keyword) for loss in lowered.losses] == [("/properties/id", "readOnly")]


BAD_INPUTS = [
    ("root-list", [], "bad_schema"),
    ("root-string", "object", "bad_schema"),
    ("property-node-list", {"type": "object", "properties": {"a": [1]}}, "bad_schema"),
    ("property-node-number", {"type": "object", "properties": {"a": 3}}, "bad_schema"),
    ("ref-to-nowhere", {"$ref": "#/$defs/Missing"}, "unresolved_ref"),
    ("ref-past-a-list", {"allOf": [{}], "properties": {"a": {"$ref": "#/allOf/7"}}}, "unresolved_ref"),
    ("ref-to-anchor", {"$ref": "#node"}, "unresolved_ref"),
    ("ref-remote-url", {"$ref": "https://example.com/schema.json"}, "remote_ref"),
    ("ref-relative-file", {"$ref": "other.json#/$defs/A"}, "remote_ref"),
    ("ref-not-a-string", {"$ref": 7}, "bad_ref"),
    ("type-unknown", {"type": "str"}, "bad_keyword"),
    ("type-empty-list", {"type": []}, "bad_keyword"),
    ("type-unhashable", {"type": [{}]}, "bad_keyword"),
    ("min-length-string", {"type": "string", "minLength": "3"}, "bad_keyword"),
    ("min-length-negative", {"type": "string", "minLength": -1}, "bad_keyword"),
    ("maximum-nan", {"type": "number", "maximum": float("nan")}, "bad_keyword"),
    ("minimum-bool", {"type": "number", "minimum": True}, "bad_keyword"),
    ("properties-list", {"type": "object", "properties": ["a"]}, "bad_keyword"),
    ("required-string", {"type": "object", "required": "a"}, "bad_keyword"),
    ("enum-dict", {"enum": {"a": 1}}, "bad_keyword"),
    ("allof-empty", {"allOf": []}, "bad_keyword"),
    ("anyof-dict", {"anyOf": {"type": "string"}}, "bad_keyword"),
    ("description-number", {"description": 3}, "bad_keyword"),
    ("nullable-string", {"nullable": "yes"}, "bad_keyword"),
]


@pytest.mark.parametrize(("schema", "slug"), [case[1:] for case in BAD_INPUTS], ids=[case[0] for case in BAD_INPUTS])
def test_hostile_input_raises_schema_error_with_slug(schema: Any, slug: str) -> None:
    with pytest.raises(SchemaError) as caught:
        lower(schema)
    assert caught.value.slug == slug


def test_unknown_dialect_names_the_known_ones() -> None:
    with pytest.raises(SchemaError, match="gemini_json") as caught:
        lower({"type": "object"}, dialect="json_schema")
    assert caught.value.slug == "unknown_dialect"


def test_negative_depth_limit_is_refused() -> None:
    with pytest.raises(SchemaError) as caught:
        lower({"type": "object"}, max_depth=-1)
    assert caught.value.slug == "bad_max_depth"


def test_walker_without_a_keyword_method_fails_when_defined() -> None:
    namespace: dict[str, Any] = {"kw_pattern": None}
    with pytest.raises(TypeError, match="kw_pattern"):
        type("Broken", (Walker,), namespace)


def test_dialect_registry_lists_one_dialect_per_provider_payload() -> None:
    assert list(DIALECTS) == ["gemini", "gemini_json", "openai", "openai_responses", "anthropic", "mcp"]


def test_anthropic_dialect_passes_schema_through() -> None:
    schema = {"type": "object", "properties": {"a": {"oneOf": [{"$ref": "#/$defs/X"}]}}, "$defs": {"X": {"const": 1}}}
    assert lower(schema, dialect="anthropic") == Lowered(schema, ())


def test_json_dialects_report_what_json_cannot_carry() -> None:
    schema = {"type": "object", "properties": {"a": {"maximum": float("inf"), "enum": (1, 2)}}, 3: {}}
    lowered = lower(schema, dialect="mcp")
    assert lowered.schema == {"type": "object", "properties": {"a": {"enum": [1, 2]}}, "3": {}}
    assert [(loss.path, loss.keyword) for loss in lowered.losses] == [("/properties/a/maximum", "maximum"), ("", "3")]


def test_lowered_output_shares_no_containers_with_the_input() -> None:
    schema = {
        "type": "object",
        "properties": {"tags": {"type": "array", "items": {"type": "string"}, "default": ["a"]}},
    }
    lowered = lower(schema)
    lowered.schema["properties"]["tags"]["default"].append("b")
    assert schema["properties"]["tags"]["default"] == ["a"]


def test_lowered_shows_schema_and_losses_in_a_notebook() -> None:
    bundle = lower({"type": "object", "properties": {"id": {"type": "string", "format": "uuid"}}})._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert "uuid" in bundle["text/plain"]


def test_a_self_containing_default_raises_schema_error() -> None:
    default: list[Any] = []
    default.append(default)
    with pytest.raises(SchemaError) as caught:
        lower({"type": "object", "properties": {"a": {"type": "array", "default": default}}})
    assert caught.value.slug == "schema_too_deep"


def test_a_schema_that_contains_itself_is_cut_by_nesting() -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {}}
    schema["properties"]["self"] = schema
    lowered = lower(schema)
    assert violations(lowered.schema) == []
    assert any("nesting deeper" in loss.reason for loss in lowered.losses)
