"""Work shared between the tools of one document gives exactly what a fresh, unshared run gives.

The oracle is the unshared path itself: every tool of a real spec is lowered again from its ``args_schema``
with no memo and compared (schema and losses, in order), and hand-made schemas check the edges (read-only
properties, losses two parameters share, a reference that changed, the whole-lowering work budget).

Internals: ``DocumentBuild``, ``Memo``, ``lint`` and ``build_tool``, the shared work this module compares with a
fresh, unshared run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from locations import CORPUS

import toolkit as tk
from toolkit import SchemaError, ToolContract, lower
from toolkit._lints import lint
from toolkit._lowering import Memo
from toolkit._tool import DocumentBuild, build_tool

pytestmark = pytest.mark.corpus
SHARED_SPECS = ["kubernetes-swagger2.json", "openai-3.1.json", "twilio-api-v2010.json"]


def _spec(name: str) -> Path:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"the shared corpus is absent ({path})")
    return path


@pytest.fixture(scope="module", params=SHARED_SPECS)
def toolset(request: pytest.FixtureRequest) -> tk.Toolset:
    return tk.from_openapi(str(_spec(request.param)), "corpus", select="all")


def test_shared_lowering_is_the_fresh_lowering(toolset: tk.Toolset) -> None:
    assert len(toolset) > 50
    memo = Memo()
    for tool in toolset:
        shared, fresh = lower(tool.contract.args_schema, memo=memo), lower(tool.contract.args_schema)
        assert shared.schema == fresh.schema, tool.name
        assert shared.losses == fresh.losses, tool.name
    assert memo.parameters


def test_tools_are_the_tools_built_alone(toolset: tk.Toolset) -> None:
    """The whole unshared path (lowering, budget, lints) gives every tool exactly as the shared one did."""
    for tool in toolset:
        alone = build_tool(tool.contract, policy=tool.policy)
        assert alone.parameters == tool.parameters, tool.name
        assert alone.lowering_losses == tool.lowering_losses, tool.name
        assert alone.lints == tool.lints, tool.name
        assert alone.budget_fit == tool.budget_fit, tool.name


def test_shared_lints_are_the_fresh_lints(toolset: tk.Toolset) -> None:
    assert sum(len(tool.lints) for tool in toolset) > 10
    for tool in toolset:
        assert tool.lints == lint(tool), tool.name
        compact = json.dumps(tool.declaration, separators=(",", ":"), ensure_ascii=False).encode()
        assert tool.declaration_bytes == len(compact), tool.name  # the size TK503 reads


def test_tools_of_one_document_share_lowered_parameters() -> None:
    toolset = tk.from_openapi(str(_spec("kubernetes-swagger2.json")), "corpus", select="all", budget=None)
    nodes: dict[str, list[int]] = {}
    for tool in toolset:
        for name, node in (tool.parameters or {}).get("properties", {}).items():
            nodes.setdefault(name, []).append(id(node))
    pretty = nodes["pretty"]
    assert len(pretty) > 100
    assert len(set(pretty)) < len(pretty) / 10


def _root(properties: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "additionalProperties": False, "$defs": defs}


def test_memo_keeps_losses_in_order_and_once() -> None:
    defs = {
        "Pet": {"type": "object", "properties": {"id": {"type": "integer", "readOnly": True}, "n": {"const": 3}}},
        "Tag": {"type": "string", "examples": ["a"], "minLength": 1},
    }
    pet, tag, ro = {"$ref": "#/$defs/Pet"}, {"$ref": "#/$defs/Tag"}, {"type": "string", "readOnly": True}
    schemas = [
        _root({"tag": tag, "pet": pet, "ro": ro}, defs),
        _root({"pet": pet, "again": pet, "tag": tag}, defs),
        _root({"ro": ro, "tag": tag, "other": {"type": "integer", "exclusiveMinimum": 0}}, defs),
        _root({"tag": tag, "pet": pet, "ro": ro}, defs),
    ]
    memo = Memo()
    for schema in schemas:
        shared, fresh = lower(schema, memo=memo), lower(schema)
        assert shared.schema == fresh.schema
        assert shared.losses == fresh.losses
        assert len({(x.path, x.keyword, x.reason) for x in shared.losses}) == len(shared.losses)
    assert len(memo.parameters) == 5  # tag, pet, ro, again, other: each lowered once


def test_memo_is_not_reused_when_a_reference_means_another_schema() -> None:
    memo, prop = Memo(), {"$ref": "#/$defs/A"}
    first = lower(_root({"a": prop}, {"A": {"type": "string"}}), memo=memo)
    second = lower(_root({"a": prop}, {"A": {"type": "integer", "minimum": 2}}), memo=memo)
    assert first.schema["properties"]["a"] == {"type": "STRING"}
    assert second.schema["properties"]["a"] == {"type": "INTEGER", "minimum": 2}


def test_memo_counts_the_work_of_reused_parameters() -> None:
    wide = {"type": "object", "properties": {f"f{i}": {"type": "string"} for i in range(9000)}}
    props = {f"p{i}": wide for i in range(6)}
    memo = Memo()
    assert lower(_root(dict(list(props.items())[:3]), {}), memo=memo).schema["properties"]
    with pytest.raises(SchemaError) as fresh:
        lower(_root(props, {}))
    with pytest.raises(SchemaError) as shared:
        lower(_root(props, {}), memo=memo)
    assert shared.value.slug == fresh.value.slug == "schema_too_large"
    assert str(shared.value) == str(fresh.value)


def test_a_root_that_merges_is_lowered_without_the_memo() -> None:
    memo = Memo()
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "allOf": [{"properties": {"a": {}}}]}
    assert lower(schema, memo=memo) == lower(schema)
    assert not memo.parameters


def _tool(properties: dict[str, Any], defs: dict[str, Any], document: DocumentBuild) -> tk.Tool:
    contract = ToolContract(name="t", description="Find things by their dates.", args_schema=_root(properties, defs))
    return build_tool(contract, document=document)


def test_lint_memo_follows_what_references_mean() -> None:
    document, prop = DocumentBuild(), {"$ref": "#/$defs/When"}
    plain = {"When": {"type": "string", "description": "Created since this date (YYYY-MM-DD)."}}
    typed = {"When": {"type": "string", "format": "date", "description": "Created since this date (YYYY-MM-DD)."}}
    first = _tool({"created_since": prop, "limit": {"type": "integer"}}, plain, document)
    second = _tool({"created_since": prop, "limit": {"type": "integer"}}, typed, document)
    assert {x.code for x in first.lints} >= {"TK804", "TK102"}
    assert "TK804" not in {x.code for x in second.lints}
    assert first.lints == lint(first)
    assert second.lints == lint(second)
    again = _tool({"limit": {"type": "integer"}, "created_since": prop}, plain, document)
    assert again.lints == lint(again)
    assert [x.path for x in again.lints if x.code == "TK102"] == ["limit"]


def test_operations_sharing_definitions_get_their_own_defs() -> None:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            f"/p{i}": {
                "post": {
                    "operationId": f"op{i}",
                    "description": "Create a pet.",
                    "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 9}}],
                    "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
                }
            }
            for i in range(3)
        },
        "components": {
            "schemas": {
                "Pet": {"type": "object", "properties": {"tag": {"$ref": "#/components/schemas/Tag"}}},
                "Tag": {"type": "string", "example": "x"},
            }
        },
    }
    tools = list(tk.from_openapi(spec, "pets", select="all"))
    assert len(tools) == 3
    defs = [tool.contract.args_schema["$defs"] for tool in tools]
    assert defs[0] == defs[1] == defs[2]
    assert defs[0] is not defs[1]
    assert tools[0].losses == tools[1].losses == tools[2].losses
    assert tools[0].contract.args_schema["properties"]["limit"] is tools[2].contract.args_schema["properties"]["limit"]


def _same_arguments_spec(descriptions: list[str]) -> dict[str, Any]:
    """Operations that take exactly the same arguments (one shared body and query parameter), told apart only by
    their names and descriptions; the body inlines to about 5 KiB."""
    words = {f"field{i}": {"type": "string", "description": f"Field number {i} of the record, " + "x" * 80}
             for i in range(40)}  # fmt: skip
    wrapper = {
        "type": "object",
        "properties": {"record": {"$ref": "#/components/schemas/Record"}, "note": {"type": "string"}},
    }
    body = {"content": {"application/json": {"schema": wrapper}}}
    query = {"name": "dry_run", "in": "query", "schema": {"type": "boolean"}, "description": "Validate only."}
    paths = {
        f"/r{i}": {"post": {"operationId": f"op{i}", "description": text, "parameters": [query], "requestBody": body}}
        for i, text in enumerate(descriptions)
    }
    return {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": paths,
        "components": {"schemas": {"Record": {"type": "object", "properties": words}}},
    }


def test_tools_with_the_same_arguments_fit_their_own_budget() -> None:
    """Tools whose arguments are the same share the lowering and the budget's reductions, but each fits its own
    name and description: a long description tips one over the budget, and only that one is reduced."""
    spec = _same_arguments_spec(["Create a record.", "Create a record. " + "Long words. " * 300, "Make a record."])
    toolset = tk.from_openapi(spec, "same", select="all")
    assert not toolset.rejected, toolset.rejected
    short, long_, other = toolset.tools
    assert short.parameters == other.parameters
    assert short.budget_fit is not None
    assert other.budget_fit is not None
    assert long_.budget_fit is not None
    assert not short.budget_fit.reduced
    assert not other.budget_fit.reduced
    assert long_.budget_fit.reductions == ("depth",)  # the record is sent as a bare OBJECT
    assert long_.declaration_bytes <= 8 * 1024 < long_.budget_fit.before
    for tool in toolset:
        alone = build_tool(tool.contract, policy=tool.policy)
        assert (alone.parameters, alone.lowering_losses, alone.budget_fit, alone.lints) == (
            tool.parameters,
            tool.lowering_losses,
            tool.budget_fit,
            tool.lints,
        ), tool.name


def test_a_root_is_shared_only_while_its_definitions_are_the_same_objects() -> None:
    memo = Memo()
    first = {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}}
    same = {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": dict(first["$defs"])}
    other = {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "integer"}}}
    root = memo.root(first)
    assert root is not None
    assert memo.root(same) is root
    assert memo.root(other) is not root
    assert memo.root({"type": "object", "properties": {"a": {"default": float("nan")}}}) is not None
    assert memo.root({"type": "object", "$defs": []}) is None


def test_a_root_the_validator_cannot_enforce_is_refused_for_every_tool_of_the_document() -> None:
    """Lowering reads the root (``dependencies`` is a loss there), the validator refuses it: the second tool of
    the same root is refused too, although its lowering is already in the document's memo."""
    schema = {"type": "object", "properties": {"a": {"type": "object", "dependencies": {"x": ["y"]}}}}
    document = DocumentBuild()
    for name in ("first", "second"):
        contract = ToolContract(name=name, description="Do a thing.", args_schema=json.loads(json.dumps(schema)))
        with pytest.raises(SchemaError) as caught:
            build_tool(contract, document=document)
        assert caught.value.slug == "unsupported_keyword"
    assert tk.lower(schema).losses  # lowering alone takes it
