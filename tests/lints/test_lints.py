"""The lint catalogue: each rule fires on its trap, at the parameter's path, and stays quiet otherwise.

Lints read only ``args_schema``, so these tests build tools straight from JSON Schemas (as an OpenAPI tool
would have them), without a Python function.

Internals: ``_lints.lint`` and ``CATALOGUE`` (the rules under test), and ``build_tool`` for a tool from a
hand-written JSON Schema.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import toolkit as tk
from toolkit import SchemaError, Tool, ToolContract
from toolkit._lints import CATALOGUE, lint


def tool_of(properties: dict[str, Any], *, name: str = "t", description: str = "Do the thing.", **extra: Any) -> Tool:
    schema = {"type": "object", "properties": properties, "additionalProperties": False, **extra}
    return Tool(contract=ToolContract(name=name, description=description, args_schema=schema), parameters=None)


def described(schema: dict[str, Any], text: str = "A clear, specific description of the slot.") -> dict[str, Any]:
    return {**schema, "description": text}


def found(tool: Tool) -> set[tuple[str, str]]:
    return {(item.slug, item.path) for item in lint(tool)}


def test_catalogue_codes_and_slugs_are_unique_and_well_formed() -> None:
    codes = [rule.code for rule in CATALOGUE]
    slugs = [rule.slug for rule in CATALOGUE]
    assert len(set(codes)) == len(codes)
    assert len(set(slugs)) == len(slugs)
    assert codes == sorted(codes)
    assert all(re.fullmatch(r"TK\d{3}", c) for c in codes)
    assert all(re.fullmatch(r"[a-z_]+", s) for s in slugs)
    assert all(rule.severity in ("error", "warning", "info") and rule.summary for rule in CATALOGUE)


def test_clean_tool_has_no_lints() -> None:
    tool = tool_of({"query": described({"type": "string"}), "limit": described({"type": "integer"})})
    assert lint(tool) == ()


def test_a_tool_built_alone_is_linted_when_its_lints_are_first_read_and_keeps_them() -> None:
    def pay(amount: float) -> str:
        """Pay."""
        return ""

    tool = tk.from_function(pay)
    assert tool._artefacts.lints is None  # not linted yet: what a first call never pays for
    first = tool.lints
    assert first == lint(tool)
    assert "money_as_float" in {item.slug for item in first}
    assert tool.lints is first


def test_a_copy_for_another_budget_finds_its_own_lints() -> None:
    def note(text: str) -> str:
        return text

    note.__doc__ = "Write a note. " * 700
    whole = tk.from_function(note)  # over the default budget, no reduction fits: built whole, with TK504
    assert "TK504" in {item.code for item in whole.lints}
    lifted = whole.with_policy(declaration_budget=whole.declaration_bytes)
    assert "TK504" not in {item.code for item in lifted.lints}
    assert lifted.lints == lint(lifted)


def test_every_finding_carries_message_and_fix() -> None:
    tool = tool_of({"amount": {"type": "number"}}, description="")
    findings = lint(tool)
    assert findings
    assert all(item.message and item.fix and item.code.startswith("TK") for item in findings)


@pytest.mark.parametrize(
    ("properties", "tool_options", "expected"),
    [
        pytest.param({}, {"description": "  "}, ("missing_tool_description", ""), id="missing-tool-description"),
        pytest.param({"q": {"type": "string"}}, {}, ("missing_parameter_description", "q"), id="missing-param-desc"),
        pytest.param(
            {"q": described({"type": "string"}, "Query.")}, {}, ("vague_parameter_description", "q"), id="too-short"
        ),
        pytest.param(
            {"user_id": described({"type": "string"}, "The user ID.")},
            {},
            ("vague_parameter_description", "user_id"),
            id="repeats-name",
        ),
        pytest.param({"payload": described({})}, {}, ("untyped_value", "payload"), id="any"),
        pytest.param(
            {"rows": described({"type": "array", "items": {}})}, {}, ("untyped_value", "rows"), id="list-of-any"
        ),
        pytest.param(
            {"meta": described({"type": "object", "additionalProperties": True})},
            {},
            ("untyped_map", "meta"),
            id="dict-str-any",
        ),
        pytest.param({"meta": described({"type": "object"})}, {}, ("untyped_map", "meta"), id="bare-object"),
        pytest.param(
            {"speed": described({"type": "string", "enum": ["NEXT_DAY", "GROUND"]})},
            {},
            ("enum_case", "speed"),
            id="screaming-snake",
        ),
        pytest.param(
            {"order": described({"type": "string", "enum": ["newestFirst", "oldest_first"]})},
            {},
            ("enum_case", "order"),
            id="snake-and-camel-mixed",
        ),
        pytest.param(
            {"since": described({"type": "string"})}, {}, ("date_as_string", "since"), id="date-name-plain-string"
        ),
        pytest.param(
            {"shipped_on": described({"type": ["string", "null"]})},
            {},
            ("date_as_string", "shipped_on"),
            id="date-suffix-nullable-3.1-style",
        ),
        pytest.param(
            {"total": described({"anyOf": [{"type": "number"}, {"type": "null"}]})},
            {},
            ("money_as_float", "total"),
            id="money-optional-float",
        ),
        pytest.param(
            {"refund_amount": described({"type": "number"})}, {}, ("money_as_float", "refund_amount"), id="money-suffix"
        ),
        pytest.param(
            {f"p{i}": described({"type": "integer"}) for i in range(9)},
            {},
            ("too_many_parameters", ""),
            id="nine-parameters",
        ),
        pytest.param({}, {"name": "bad name!"}, ("bad_tool_name", ""), id="bad-tool-name"),
    ],
)
def test_rule_fires_at_the_parameter(
    properties: dict[str, Any], tool_options: dict[str, Any], expected: tuple[str, str]
) -> None:
    assert expected in found(tool_of(properties, **tool_options))


@pytest.mark.parametrize(
    "prop",
    [
        pytest.param({"since": described({"type": "string", "format": "date"})}, id="date-with-format"),
        pytest.param({"created_at": described({"type": "string", "format": "date-time"})}, id="datetime"),
        pytest.param({"amount": described({"type": "string", "pattern": "^[0-9]+$"})}, id="decimal-string"),
        pytest.param({"amount_cents": described({"type": "integer"})}, id="minor-units"),
        pytest.param({"amount": described({"anyOf": [{"type": "number"}, {"type": "string"}]})}, id="number-or-str"),
        pytest.param({"state": described({"type": "string", "enum": ["open", "in_progress"]})}, id="snake-enum"),
        pytest.param({"sort": described({"type": "string", "enum": ["newestFirst", "oldest"]})}, id="camel-enum"),
        pytest.param({"level": described({"type": "integer", "enum": [1, 2]})}, id="int-enum"),
        pytest.param({"w": described({"type": "object", "additionalProperties": {"type": "integer"}})}, id="typed-map"),
        pytest.param(
            {"p": described({"type": "object", "properties": {"x": described({"type": "number"})}})}, id="obj"
        ),
        pytest.param({f"p{i}": described({"type": "integer"}) for i in range(8)}, id="eight-parameters"),
        pytest.param({"total_count": described({"type": "number"})}, id="not-money-name"),
    ],
)
def test_good_schemas_stay_quiet(prop: dict[str, Any]) -> None:
    assert lint(tool_of(prop)) == ()


def test_rules_follow_local_refs_into_defs() -> None:
    tool = tool_of(
        {"status": described({"$ref": "#/$defs/Status"}), "order": described({"$ref": "#/$defs/Order"})},
        **{
            "$defs": {
                "Status": {"type": "string", "enum": ["DRAFT_ONLY", "SENT"]},
                "Order": {"type": "object", "properties": {"due_date": described({"type": "string"})}},
            }
        },
    )
    assert {("enum_case", "status"), ("date_as_string", "order.due_date")} <= found(tool)


def object_chain(depth: int) -> dict[str, Any]:
    schema: dict[str, Any] = described({"type": "string"})
    for i in reversed(range(depth)):
        schema = described({"type": "object", "properties": {f"l{i}": schema}})
    return schema


def test_nesting_two_levels_is_fine_and_three_is_flagged_once() -> None:
    assert lint(tool_of({"root": object_chain(2)})) == ()
    for depth in (3, 5):
        deep = [item for item in lint(tool_of({"root": object_chain(depth)})) if item.slug == "deep_nesting"]
        assert [item.path for item in deep] == ["root.l0.l1"]


def test_nesting_through_arrays_counts_the_objects() -> None:
    item = described({"type": "object", "properties": {"child": object_chain(2)}})
    tool = tool_of({"rows": described({"type": "array", "items": item})})
    assert ("deep_nesting", "rows.child.l0") in found(tool)


def test_recursive_schema_terminates_and_is_flagged() -> None:
    tool = tool_of(
        {"root": described({"$ref": "#/$defs/Node"})},
        **{
            "$defs": {
                "Node": {
                    "type": "object",
                    "properties": {
                        "name": described({"type": "string"}),
                        "children": described({"type": "array", "items": {"$ref": "#/$defs/Node"}}),
                    },
                }
            }
        },
    )
    assert ("deep_nesting", "root.children.children") in found(tool)


def test_ref_cycle_without_properties_is_refused_as_everywhere_else() -> None:
    tool = tool_of({"loop": described({"$ref": "#/$defs/A"})}, **{"$defs": {"A": {"$ref": "#/$defs/A"}}})
    with pytest.raises(SchemaError) as caught:
        lint(tool)
    assert caught.value.slug == "left_recursive_ref"


def test_remote_ref_is_refused_not_followed() -> None:
    tool = tool_of({"x": described({"$ref": "https://example.com/schema.json"})})
    with pytest.raises(SchemaError) as caught:
        lint(tool)
    assert caught.value.slug == "remote_ref"


def test_every_member_of_a_union_of_references_is_read() -> None:
    """Each member below is a fresh merged node (its own description beside the ``$ref``); none may be
    mistaken for one already seen when a freed node's id is reused."""
    defs = {f"D{i}": {"type": "object", "properties": {f"field{i}": {"type": "string"}}} for i in range(8)}
    members = [{"$ref": f"#/$defs/D{i}", "description": f"shape {i}"} for i in range(8)]
    tool = tool_of({"choice": described({"anyOf": members})}, **{"$defs": defs})
    missing = {path for slug, path in found(tool) if slug == "missing_parameter_description"}
    assert missing == {f"choice.field{i}" for i in range(8)}


def test_lints_are_deterministic_and_ordered_by_catalogue() -> None:
    tool = tool_of({"amount": {"type": "number"}, "due_date": {"type": "string"}}, description="")
    first, second = lint(tool), lint(tool)
    assert first == second
    order = [rule.code for rule in CATALOGUE]
    assert [order.index(item.code) for item in first] == sorted(order.index(item.code) for item in first)


def test_field_shared_by_union_members_is_reported_once() -> None:
    cat = {"type": "object", "properties": {"kind": {"type": "string"}}}
    dog = {"type": "object", "properties": {"kind": {"type": "string"}}}
    tool = tool_of({"pet": described({"anyOf": [cat, dog]})})
    assert [(item.slug, item.path) for item in lint(tool)] == [("missing_parameter_description", "pet.kind")]


@pytest.mark.corpus
@pytest.mark.parametrize("spec", ["petstore-expanded-3.0.yaml", "tictactoe-3.1.yaml", "asana.yaml", "openai-3.1.json"])
def test_lints_on_real_openapi_tools_point_at_their_parameters(corpus_dir: Path, spec: str) -> None:
    from toolkit import from_openapi

    toolset = from_openapi(corpus_dir / spec, namespace="corpus", select="all")
    assert toolset.tools
    for tool in toolset.tools:
        top = set(tool.args_schema.get("properties", {}))
        findings = lint(tool)
        assert findings == tool.lints
        for item in findings:
            assert item.path == "" or item.path.split(".")[0] in top, (tool.name, item)


# -- declaration size ------------------------------------------------------------------------------------
def sized_tool(kib: float) -> Tool:
    """A real (lowered) tool whose declaration is about ``kib`` KiB of JSON, grown by one long description
    (built without a declaration budget, which would cut it: the lint speaks to authors who lift it)."""
    from toolkit._tool import build_tool

    text = "Describe the slot precisely. " * int(kib * 1024 / 29)
    schema = {"type": "object", "properties": {"note": {"type": "string", "description": text}}}
    return build_tool(ToolContract(name="big", description="Do the thing.", args_schema=schema), budget=None)


@pytest.mark.parametrize(
    ("kib", "severity"),
    [
        pytest.param(7, None, id="7-KiB-quiet"),
        pytest.param(9, "warning", id="9-KiB-warning"),
        pytest.param(63, "warning", id="63-KiB-warning"),
        pytest.param(66, "error", id="66-KiB-error"),
    ],
)
def test_large_declarations_warn_and_huge_ones_are_errors(kib: float, severity: str | None) -> None:
    tool = sized_tool(kib)
    size = len(json.dumps(tool.declaration, separators=(",", ":"), ensure_ascii=False).encode())
    assert abs(size - kib * 1024) < 512  # the fixture builds what it says
    hits = [item for item in tool.lints if item.slug == "declaration_too_large"]
    if severity is None:
        assert hits == []
        return
    (item,) = hits
    assert (item.code, item.severity, item.path) == ("TK503", severity, "")
    assert f"~{size // 4:,} tokens" in item.message
    assert "split" in item.fix
    assert "overrides" in item.fix


def test_declaration_size_counts_utf8_bytes() -> None:
    from toolkit._tool import build_tool

    text = "é" * 4500  # 4,500 characters, 9,000 bytes
    schema = {"type": "object", "properties": {"note": {"type": "string", "description": text}}}
    tool = build_tool(ToolContract(name="accents", description="Do the thing.", args_schema=schema), budget=None)
    assert [item.severity for item in tool.lints if item.code == "TK503"] == ["warning"]


# -- money found by its words --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "text", "word"),
    [
        pytest.param("budget", "Monthly budget for the campaign, in euros.", "euros", id="euros"),
        pytest.param("subtotal", "Subtotal in USD before tax and shipping.", "USD", id="iso-code"),
        pytest.param("unit", "Price per unit, for example 4.99.", "Price", id="price"),
        pytest.param("deposit", "Deposit (£) taken when the table is booked.", "£", id="pound-sign"),
        pytest.param("tip", "Tip left for the driver, e.g. $5.", "$5", id="dollar-before-digits"),
        pytest.param("limit", "Spending limit of the card in the account's currency.", "currency", id="currency"),
    ],
)
def test_money_typed_float_is_found_by_its_description(name: str, text: str, word: str) -> None:
    (item,) = [item for item in lint(tool_of({name: described({"type": "number"}, text)})) if item.code == "TK402"]
    assert item.path == name
    assert f"its description says {word!r}" in item.message
    assert "Decimal" in item.fix


@pytest.mark.parametrize(
    ("name", "schema"),
    [
        pytest.param("discount", described({"type": "number"}, "Discount as a percentage of the price."), id="percent"),
        pytest.param("fx", described({"type": "number"}, "USD to EUR exchange rate at booking time."), id="rate"),
        pytest.param("match", described({"type": "number"}, "Relevance score of the price match."), id="score"),
        pytest.param("total_cents", described({"type": "integer"}, "Total in cents (USD)."), id="integer-minor-units"),
        pytest.param("cost", described({"type": "string"}, "Cost in EUR as a decimal string."), id="decimal-string"),
        pytest.param("ref", described({"type": "number"}, "Follows the $ref pointer to its target."), id="dollar-sign"),
        pytest.param("weight", described({"type": "number"}, "Weight of the parcel in pounds."), id="pounds-weight"),
        pytest.param("depth", described({"type": "number"}, "How deep the PHP stack may grow."), id="not-a-code"),
    ],
)
def test_words_near_money_that_are_not_money_stay_quiet(name: str, schema: dict[str, Any]) -> None:
    assert [item for item in lint(tool_of({name: schema})) if item.code == "TK402"] == []
