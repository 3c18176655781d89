"""The declaration budget: over it, a declaration is reduced in the documented order, each reduction a loss,
or the tool is refused; the validator still enforces the whole ``args_schema``.

Sizes are measured here independently (``json.dumps`` of ``tool.declaration``), declarations are checked by
google-genai's own ``FunctionDeclaration`` (the oracle) and by the subset rules, and every loss is looked up
in ``args_schema`` where it says it is.

Internals: the budget's own parts (``_lowering._budget``: reductions, the probe; ``_lowering._size``: sizes),
``Memo``, ``Refs``, ``summarise`` and ``build_tool``, tested as units.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field

import toolkit as tk
from toolkit import Policy, SchemaError, SpecError, Tool, ToolContract
from toolkit._lowering._budget import (
    DEFAULT_BUDGET,
    LARGE_ENUM,
    REDUCTIONS,
    Reduction,
)
from toolkit._lowering._size import declaration_bytes, json_bytes, tokens
from toolkit._lowering.gemini import violations
from toolkit._openapi import summarise
from toolkit._schema import Refs
from toolkit._tool import build_tool

LONG = "This sentence explains the field at some length so that it weighs on the declaration. "


def size_of(declaration: Mapping[str, Any]) -> int:
    return len(json.dumps(declaration, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def assert_sendable(tool: Tool) -> None:
    """google-genai accepts the declaration, and it keeps to the subset's rules."""
    from google.genai import types

    types.FunctionDeclaration.model_validate(tool.declaration)
    if "parameters" in tool.declaration:
        types.Schema.model_validate(tool.declaration["parameters"])
        assert violations(tool.declaration["parameters"]) == []


def node_at(schema: Mapping[str, Any], path: str) -> Any:
    return Refs(schema).lookup("#" + path)


def build(schema: Mapping[str, Any], budget: int | None = DEFAULT_BUDGET, policy: Policy | None = None) -> Tool:
    contract = ToolContract(name="t", description="Do the thing.", args_schema=schema)
    return build_tool(contract, budget=budget, policy=policy)


def recursive_tree() -> dict[str, Any]:
    """A recursive ``Node`` whose every level carries long descriptions: far over 8 KiB inlined 8 deep."""
    node = {
        "type": "object",
        "description": LONG,
        "properties": {
            "label": {"type": "string", "minLength": 2, "description": LONG},
            "left": {"$ref": "#/$defs/Node"},
            "right": {"$ref": "#/$defs/Node"},
        },
        "required": ["label"],
    }
    return {
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/Node", "description": "The tree."}},
        "required": ["root"],
        "$defs": {"Node": node},
    }


def nested_inline(width: int = 40) -> dict[str, Any]:
    """Inline objects two levels down, each field described at length: only descriptions can make it fit."""
    inner = {f"f{i}": {"type": "string", "description": LONG * 3} for i in range(width)}
    return {
        "type": "object",
        "properties": {"payload": {"type": "object", "description": "What to send.", "properties": inner}},
    }


# -- sizes and tokens ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [0, 1, 3, 4, 5, 8192, 8193])
def test_tokens_are_bytes_over_four_rounded_up(size: int) -> None:
    assert tokens(size) == math.ceil(size / 4)


def test_tool_and_toolset_report_the_declaration_size_and_tokens() -> None:
    def search(query: Annotated[str, Field(description="Words to look for; café accepted.")]) -> list[str]:
        """Search the catalogue."""
        return [query]

    tool = tk.from_function(search)
    assert tool.declaration_bytes == size_of(tool.declaration)
    assert tool.declaration_tokens == math.ceil(size_of(tool.declaration) / 4)
    assert tool.budget_fit is not None
    assert not tool.budget_fit.reduced
    toolset = tk.from_openapi(_spec(a={}, b={}), "s", select="all")
    assert toolset.declaration_bytes == sum(size_of(t.declaration) for t in toolset) > 0
    assert toolset.declaration_tokens == math.ceil(toolset.declaration_bytes / 4)


def test_a_bound_json_cannot_hold_is_measured_not_raised() -> None:
    tool = build({"type": "object", "properties": {"n": {"type": "number", "default": float("inf")}}})
    assert tool.declaration_bytes == len(json.dumps(tool.declaration, separators=(",", ":")).encode())


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(_JSON_VALUES)
def test_the_fast_size_is_the_standard_encoders(value: Any) -> None:
    """The size is ``json.dumps``'s (compact, UTF-8, keys in order), whichever encoder wrote it: floats Python
    spells otherwise, integers beyond 64 bits, surrogates and all."""
    try:
        expected = len(json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str).encode("utf-8"))
    except UnicodeEncodeError:
        with pytest.raises(UnicodeEncodeError):
            declaration_bytes({"value": value})
        return
    assert declaration_bytes({"value": value}) == expected + len('{"value":}')
    assert json_bytes(value) == expected


@pytest.mark.parametrize(
    "value",
    [1.5e-5, [2, 1e16], -1e-300, float("nan"), [float("-inf")], 2**64, -(2**63) - 1, {1: "a"}, "1e5 and 0.00001,null"],
)
def test_values_orjson_writes_otherwise_are_measured_as_json_writes_them(value: Any) -> None:
    expected = len(json.dumps({"v": value}, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
    assert declaration_bytes({"v": value}) == expected
    assert json_bytes(value) == len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def test_a_declaration_within_its_budget_is_left_as_lowered() -> None:
    schema = recursive_tree()
    unbounded = build(schema, budget=None)
    roomy = build(schema, budget=unbounded.declaration_bytes)
    assert roomy.declaration == unbounded.declaration
    assert roomy.losses == unbounded.losses
    assert roomy.budget_fit is not None
    assert roomy.budget_fit.reductions == ()


def test_the_reductions_start_from_the_declarations_own_lowering() -> None:
    """The budget lowers again with a walker that remembers where each node came from; at the full depth it
    gives exactly what ``lower`` gives, so a reduction never changes what it does not reduce."""
    from toolkit import lower
    from toolkit._lowering import DEFAULT_MAX_DEPTH
    from toolkit._lowering._reductions import _probe

    for schema in (recursive_tree(), nested_inline()):
        probe = _probe(schema, DEFAULT_MAX_DEPTH)
        lowered = lower(schema)
        assert probe.schema == lowered.schema
        assert probe.losses == lowered.losses


def test_shared_budget_lowerings_and_sizes_equal_fresh_ones() -> None:
    """Lowerings for the budget shared through a memo (a parameter lowered once per depth, each argument's node
    measured once) give what fresh ones give: the same schema, losses, origins of every node, and size."""
    from toolkit._lowering import Memo
    from toolkit._lowering._reductions import _probe
    from toolkit._lowering._size import declaration_bytes, declaration_size

    tree, nested = recursive_tree(), nested_inline()
    schema = {
        "type": "object",
        "properties": {"tree": tree["properties"]["root"], "payload": nested["properties"]["payload"], "café": {}},
        "$defs": tree["$defs"],
    }
    contract = ToolContract(name="grow", description="Grow a tree.", args_schema=schema)
    memo = Memo()
    for depth in (0, 1, 3, 0, 1, 3):
        fresh, shared = _probe(schema, depth), _probe(schema, depth, memo)
        assert shared.schema == fresh.schema
        assert shared.losses == fresh.losses
        assert _origins(shared) == _origins(fresh)
        whole = declaration_bytes({"name": "grow", "description": "Grow a tree.", "parameters": fresh.schema})
        assert (
            declaration_size(contract, shared.schema, memo.sizes) == whole == declaration_size(contract, fresh.schema)
        )
    assert memo.sizes


def _origins(probe: Any) -> list[str]:
    out: list[str] = []

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            out.append(probe.origins.get(id(node), "?"))
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(probe.schema)
    return out


# -- the reductions, in order ---------------------------------------------------------------------------------
def test_inlining_depth_is_reduced_first_and_each_cut_reference_is_a_loss() -> None:
    schema = recursive_tree()
    unbounded = build(schema, budget=None)
    assert size_of(unbounded.declaration) > DEFAULT_BUDGET
    tool = build(schema)
    fit = tool.budget_fit
    assert fit is not None
    assert fit.reductions == ("depth",)
    assert size_of(tool.declaration) == fit.after <= DEFAULT_BUDGET < fit.before == size_of(unbounded.declaration)
    assert fit.depth is not None
    assert 0 < fit.depth < 8
    cuts = [loss for loss in tool.losses if loss.keyword == "$ref" and "declaration budget" in loss.reason]
    assert cuts
    assert all(node_at(schema, loss.path)["$ref"] == loss.value for loss in cuts)
    root = tool.declaration["parameters"]["properties"]["root"]
    assert root["description"] == "The tree."
    assert "label" in root["properties"]
    assert_sendable(tool)


def test_the_validator_still_enforces_what_the_reduced_declaration_no_longer_shows() -> None:
    tool = build(recursive_tree())
    assert tool.budget_fit is not None
    assert tool.budget_fit.depth is not None
    deep: dict[str, Any] = {"label": "ok"}
    for _ in range(10):
        deep = {"label": "ok", "left": deep}
    assert tool.validate({"root": deep}).status == "ok"
    leaf = deep
    for _ in range(10):
        leaf = leaf["left"]
    leaf["label"] = "x"  # breaks minLength ten references down, far below what the model sees
    result = tool.validate({"root": deep})
    assert result.status == "invalid_arguments"
    assert [error.code for error in result.errors] == ["too_short"]


def test_descriptions_below_the_arguments_go_when_depth_cannot_help() -> None:
    schema = nested_inline()
    tool = build(schema)
    fit = tool.budget_fit
    assert fit is not None
    assert fit.reductions == ("descriptions",)
    assert fit.depth is None
    payload = tool.declaration["parameters"]["properties"]["payload"]
    assert payload["description"] == "What to send."  # an argument keeps its own
    assert all("description" not in field for field in payload["properties"].values())
    dropped = [loss for loss in tool.losses if loss.keyword == "description"]
    assert len(dropped) == 40
    for loss in dropped:
        assert node_at(schema, loss.path)["description"] == loss.value
    assert_sendable(tool)


def test_a_large_enum_becomes_a_described_string_and_is_still_enforced() -> None:
    values = [f"zone-{i:04d}" for i in range(1500)]
    schema = {"type": "object", "properties": {"zone": {"type": "string", "enum": values, "description": "Where."}}}
    tool = build(schema)
    fit = tool.budget_fit
    assert fit is not None
    assert fit.reductions == ("enums",)
    zone = tool.declaration["parameters"]["properties"]["zone"]
    assert zone == {
        "type": "STRING",
        "description": 'Where. (one of 1500 values, such as "zone-0000", "zone-0001", "zone-0002")',
    }
    [loss] = [loss for loss in tool.losses if loss.keyword == "enum"]
    assert loss.path == "/properties/zone"
    assert loss.value == values
    assert tool.validate({"zone": "zone-1499"}).status == "ok"
    assert tool.validate({"zone": "zone-9999"}).errors[0].code == "not_in_enum"
    assert_sendable(tool)


def test_small_enums_are_never_shortened() -> None:
    values = [f"v{i}" for i in range(LARGE_ENUM)]
    props = {f"a{i}": {"type": "string", "enum": values, "description": LONG * 2} for i in range(20)}
    tool = build({"type": "object", "properties": props})
    assert all(p["enum"] == values for p in tool.declaration["parameters"]["properties"].values())


def test_argument_descriptions_are_cut_to_their_first_sentence_last() -> None:
    props = {f"a{i}": {"type": "integer", "description": "Count of things. " + LONG * 3} for i in range(30)}
    schema = {"type": "object", "properties": props}
    tool = build(schema)
    fit = tool.budget_fit
    assert fit is not None
    assert fit.reductions == ("first_sentences",)
    assert {p["description"] for p in tool.declaration["parameters"]["properties"].values()} == {"Count of things."}
    cut = [loss for loss in tool.losses if loss.keyword == "description"]
    assert len(cut) == 30
    assert all(node_at(schema, loss.path)["description"] == loss.value for loss in cut)
    assert_sendable(tool)


def deep_inline(levels: int = 5, width: int = 6) -> dict[str, Any]:
    """Objects written out inline ``levels`` deep, ``width`` fields each: nothing but nesting can make it fit."""
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        node = {"type": "object", "properties": {f"field_{i}": node for i in range(width)}, "required": ["field_0"]}
    return {"type": "object", "properties": {"config": node}, "required": ["config"]}


def test_inline_objects_are_cut_below_the_deepest_level_that_fits_last_of_all() -> None:
    schema = deep_inline()
    tool = build(schema, budget=4000)
    fit = tool.budget_fit
    assert fit is not None
    assert fit.reductions == ("nesting",)
    cut = [loss for loss in tool.losses if loss.keyword == ""]
    assert cut
    levels = {loss.path.count("/properties/") for loss in cut}
    assert len(levels) == 1  # one level, the deepest that fits
    assert build(schema, budget=4000).declaration == tool.declaration
    for loss in cut:
        node = node_at(schema, loss.path)
        assert node["type"] == "object"
        assert "properties" in node
        shown = tool.declaration["parameters"]
        for name in loss.path.split("/properties/")[1:]:
            shown = shown["properties"][name]
        assert shown == {"type": "OBJECT"}
    config: dict[str, Any] = {"field_0": 5}
    for _ in range(4):
        config = {"field_0": config}
    result = tool.validate({"config": config})
    assert result.status == "invalid_arguments"  # the innermost field is a string, five objects down: enforced
    assert [error.code for error in result.errors] == ["wrong_type"]
    config["field_0"]["field_0"]["field_0"]["field_0"]["field_0"] = "x"
    assert tool.validate({"config": config}).status == "ok"
    assert_sendable(tool)


def test_the_order_of_reductions_is_the_documented_one() -> None:
    assert list(REDUCTIONS) == ["depth", "descriptions", "enums", "first_sentences", "nesting"]
    assert set(REDUCTIONS) == set(Reduction.__args__)


@pytest.mark.parametrize("budget", [120, 300, 1200, 2000, 4000, 8192, 20_000])
def test_every_budget_is_met_or_refused(budget: int) -> None:
    schema = recursive_tree()
    schema["properties"]["other"] = nested_inline()["properties"]["payload"]
    unbounded = build(schema, budget=None)
    if budget < 200:  # the tool's name and description and the arguments' names alone are more than that
        with pytest.raises(SchemaError) as caught:
            build(schema, budget=budget)
        assert caught.value.slug == "declaration_over_budget"
        return
    tool = build(schema, budget=budget)
    assert size_of(tool.declaration) <= budget < unbounded.declaration_bytes
    assert_sendable(tool)


# -- over budget with every reduction: built under the default budget, refused under a set one ----------------
def test_a_tool_no_reduction_fits_is_built_whole_with_an_error_lint_under_the_default_budget() -> None:
    def note(text: str) -> str:
        """Write a note.

        Args:
            text: What the note says, in a few sentences. Markdown is kept as written.
        """
        return text

    note.__doc__ = "Write a note. " * 700 + note.__doc__.split("\n", 1)[1]  # the author's: never reduced
    tool = tk.from_function(note)
    whole = tk.from_function(note, budget=None)
    assert tool.declaration == whole.declaration  # no reduction taken: none would have brought it under
    assert tool.losses == whole.losses
    fit = tool.budget_fit
    assert fit is not None
    assert fit.over
    assert not fit.reduced
    assert (fit.budget, fit.before, fit.after) == (DEFAULT_BUDGET, size_of(tool.declaration), size_of(tool.declaration))
    [over] = [item for item in tool.lints if item.code == "TK504"]
    assert (over.slug, over.severity, over.path) == ("declaration_over_budget", "error", "")
    assert f"{size_of(tool.declaration):,} bytes" in over.message
    assert f"{DEFAULT_BUDGET:,} bytes" in over.message
    assert f"its own description is {size_of(tool.description):,} bytes" in over.message
    assert "budget=" in over.fix
    assert "split" in over.fix
    assert "TK503" not in {item.code for item in tool.lints}  # TK504 says more of the same size
    assert whole.budget_fit is None or not whole.budget_fit.over
    assert "TK504" not in {item.code for item in whole.lints}
    assert tool.validate({"text": "hello"}).status == "ok"
    shown = f"{fit.after:,} bytes, ~{tokens(fit.after):,} tokens (over the default 8,192-byte budget with every "
    assert shown in tool._repr_mimebundle_()["text/plain"]


def test_a_set_budget_refuses_a_tool_no_reduction_fits_with_a_slug() -> None:
    def note(text: str) -> str:
        return text

    note.__doc__ = "Write a note. " * 700
    for how in ({"budget": DEFAULT_BUDGET}, {"policy": Policy(declaration_budget=DEFAULT_BUDGET)}):
        with pytest.raises(SchemaError) as caught:
            tk.from_function(note, **how)  # type: ignore[arg-type]
        assert caught.value.slug == "declaration_over_budget"
        assert "budget" in caught.value.message
    with pytest.raises(SchemaError) as caught:
        tk.from_function(note).with_policy(declaration_budget=DEFAULT_BUDGET)
    assert caught.value.slug == "declaration_over_budget"


def test_an_operation_no_reduction_fits_is_built_by_default_and_refused_under_a_set_budget() -> None:
    spec = _spec(big={"description": "Fetch it. " * 900}, small={})
    toolset = tk.from_openapi(spec, "s", select="all")
    assert toolset.names == ("s_big", "s_small")
    assert toolset.rejected == ()
    assert [item.code for item in toolset["s_big"].lints if item.severity == "error"] == ["TK504"]
    assert "TK504" not in {item.code for item in toolset["s_small"].lints}
    declarations = summarise(toolset)["declarations"]
    assert (declarations["over"], declarations["reduced"]) == (1, 0)
    assert declarations["tools"]["s_big"]["reductions"] == []
    assert [name for name, row in declarations["tools"].items() if row["over"]] == ["s_big"]
    refusing = tk.from_openapi(spec, "s", select="all", budget=DEFAULT_BUDGET)
    overridden = tk.from_openapi(spec, "s", overrides={"big": {"policy": {"declaration_budget": 8192}}, "small": True})
    for built in (refusing, overridden):
        assert built.names == ("s_small",)
        [refusal] = built.rejected
        assert (refusal.operation_id, refusal.slug) == ("big", "declaration_over_budget")


@pytest.mark.parametrize("bad", ["8k", "Default", b"default"])
def test_only_the_word_default_stands_for_the_default_budget(bad: Any) -> None:
    assert tk.from_openapi(_spec(a={}), "s", select="all", budget="default").names == ("s_a",)
    with pytest.raises(SchemaError) as caught:
        tk.from_openapi(_spec(a={}), "s", select="all", budget=bad)
    assert caught.value.slug == "bad_budget"


# -- how an author sets it ---------------------------------------------------------------------------------------
def test_from_openapi_budget_none_lifts_it_and_overrides_set_one_per_operation() -> None:
    node = json.loads(json.dumps(recursive_tree()["$defs"]["Node"]).replace("#/$defs/", "#/components/schemas/"))
    body = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}}
    spec = _spec(a={"method": "post", "requestBody": body}, b={"method": "post", "requestBody": body})
    spec["components"] = {"schemas": {"Node": node}}
    lifted = tk.from_openapi(spec, "s", select="all", budget=None)
    assert all(t.budget_fit is not None and not t.budget_fit.reduced for t in lifted)
    assert min(t.declaration_bytes for t in lifted) > DEFAULT_BUDGET
    overrides = {"a": {"policy": {"declaration_budget": 3000}}, "b": True}
    toolset = tk.from_openapi(spec, "s", overrides=overrides, budget=6000)
    assert toolset["a"].declaration_bytes <= 3000 < toolset["b"].declaration_bytes <= 6000
    assert toolset["a"].policy.declaration_budget == 3000


def test_with_policy_lowers_again_for_a_new_budget() -> None:
    tool = build(recursive_tree())
    tighter = tool.with_policy(declaration_budget=2000)
    assert tighter.declaration_bytes <= 2000 < tool.declaration_bytes
    assert tighter.budget_fit is not None
    assert tighter.budget_fit.budget == 2000
    assert tool.with_policy(enum_case="insensitive").declaration == tool.declaration


@pytest.mark.parametrize("bad", [0, -1, 2.5, "8k", True])
def test_a_budget_that_is_not_a_positive_integer_is_refused(bad: Any) -> None:
    with pytest.raises(SchemaError) as caught:
        tk.from_openapi(_spec(a={}), "s", select="all", budget=bad)
    assert caught.value.slug == "bad_budget"
    with pytest.raises(SchemaError) as caught:
        build(recursive_tree(), policy=Policy(declaration_budget=bad))
    assert caught.value.slug == "bad_budget"
    with pytest.raises(SpecError) as spec_error:
        tk.from_openapi(_spec(a={}), "s", overrides={"a": {"policy": {"declaration_budget": bad}}})
    assert spec_error.value.slug == "bad_overrides"


def test_a_toolset_budget_refuses_the_largest_tools_first() -> None:
    spec = _spec(**{f"op{i}": {"description": f"Do it. {'More. ' * (10 * i)}"} for i in range(1, 6)})
    whole = tk.from_openapi(spec, "s", select="all")
    sizes = {t.name: t.declaration_bytes for t in whole}
    budget = whole.declaration_bytes - sizes["s_op5"] // 2
    toolset = tk.from_openapi(spec, "s", select="all", toolset_budget=budget)
    assert toolset.names == ("s_op1", "s_op2", "s_op3", "s_op4")
    assert [(r.operation_id, r.slug) for r in toolset.rejected] == [("op5", "over_toolset_budget")]
    assert toolset.declaration_bytes <= budget
    assert summarise(toolset)["declarations"]["toolset_budget"] == budget


def test_the_summary_reports_each_tool_and_the_total() -> None:
    spec = _spec(a={}, b={"parameters": [{"name": "q", "in": "query", "schema": {"type": "string"}}]})
    toolset = tk.from_openapi(spec, "s", select="all")
    declarations = summarise(toolset)["declarations"]
    assert declarations["bytes"] == toolset.declaration_bytes
    assert declarations["tokens"] == tokens(toolset.declaration_bytes)
    assert declarations["tools"]["s_b"]["bytes"] == size_of(toolset["s_b"].declaration)
    assert declarations["cut"] == 0
    assert declarations["reduced"] == 0


# -- where an author sees it -------------------------------------------------------------------------------------
def _big_spec() -> dict[str, Any]:
    node = json.loads(json.dumps(recursive_tree()["$defs"]["Node"]).replace("#/$defs/", "#/components/schemas/"))
    body = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}}
    spec = _spec(grow={"method": "post", "requestBody": body}, small={})
    spec["components"] = {"schemas": {"Node": node}}
    return spec


def test_the_tool_and_toolset_displays_show_size_tokens_and_what_was_cut() -> None:
    toolset = tk.from_openapi(_big_spec(), "api", select="all")
    grown = toolset["api_grow"]
    fit = grown.budget_fit
    assert fit is not None
    cut = f"(cut from {fit.before:,} to fit the 8,192-byte budget: depth)"
    note = f"{fit.after:,} bytes, ~{tokens(fit.after):,} tokens {cut}"
    bundle = grown._repr_mimebundle_()
    assert f"declaration ({note}):" in bundle["text/plain"]
    assert "Declaration (" in bundle["text/html"]
    text = toolset._repr_mimebundle_()["text/plain"]
    assert f"{toolset.declaration_bytes:,} bytes of declarations, ~{toolset.declaration_tokens:,} tokens" in text
    assert f"{grown.declaration_bytes:,}*" in text
    assert "* reduced to fit its budget" in text


# -- the Kubernetes spec: every declaration within a set budget, or refused ---------------------------------------
@pytest.mark.slow
@pytest.mark.corpus
@pytest.mark.timeout(120)
def test_every_kubernetes_declaration_is_within_a_set_budget_or_refused(corpus_dir: Path) -> None:
    toolset = tk.from_openapi(corpus_dir / "kubernetes-swagger2.json", "k8s", select="all", budget=DEFAULT_BUDGET)
    whole = tk.from_openapi(corpus_dir / "kubernetes-swagger2.json", "k8s", select="all", budget=None)
    unbounded = {t.name: t for t in whole}
    over = {name for name, t in unbounded.items() if size_of(t.declaration) > DEFAULT_BUDGET}
    assert len(over) > 100  # the spec is the test: hundreds of its tools are over 8 KiB as lowered
    refused = {r.operation_id for r in toolset.rejected if r.slug == "declaration_over_budget"}
    for tool in toolset:
        assert size_of(tool.declaration) <= DEFAULT_BUDGET, tool.name
        fit = tool.budget_fit
        assert fit is not None
        assert fit.before == size_of(unbounded[tool.name].declaration)
        assert fit.reduced == (tool.name in over)
        if fit.reduced:
            assert len(tool.losses) > len(unbounded[tool.name].losses) or fit.depth is not None
            assert_sendable(tool)
    assert {unbounded[name].operation_id for name in over} <= {t.operation_id for t in toolset} | refused
    summary = summarise(toolset)["declarations"]
    assert summary["reduced"] == len(over & set(toolset.names))
    assert summary["cut"] == summary["before"] - summary["bytes"] > 0


def _spec(**operations: dict[str, Any]) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for op_id, extra in operations.items():
        extra = dict(extra)
        method = extra.pop("method", "get")
        paths[f"/{op_id}"] = {method: {"operationId": op_id, "description": f"Do {op_id}.", **extra}}
    return {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": paths}
