"""Every catalogue function becomes a tool whose declaration, losses and lints match its golden file.

Golden files live in ``tests/golden/functions/<case id>.json`` as ``{"declaration", "losses", "lints"}``.
After an intended change, rewrite them with ``TOOLKIT_UPDATE_GOLDEN=1 .venv/bin/python -m pytest
tests/from_python/test_function_catalogue.py`` and review the diff. The structural tests below do not read golden files:
they hold for any function, whatever the golden copies say.
"""

from __future__ import annotations

import inspect
import json
import os
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from function_catalogue import CASES, Case
from google.genai import types as genai_types
from locations import TESTS

from toolkit import Tool, ToolContext, canonical_json, from_function

GOLDEN = TESTS / "golden" / "functions"
UPDATE = os.environ.get("TOOLKIT_UPDATE_GOLDEN") == "1"
SUBSET = frozenset(
    [
        "type",
        "format",
        "description",
        "nullable",
        "enum",
        "properties",
        "required",
        "items",
        "anyOf",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "pattern",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
        "default",
        "propertyOrdering",
    ]
)
KEPT_FORMATS = frozenset({"date", "date-time", "int32", "int64", "float", "double", "email", "byte", "password"})


@pytest.fixture(scope="module")
def tools() -> dict[str, Tool]:
    return {case.id: from_function(case.fn, **case.options) for case in CASES}


def by_id(case: Case) -> str:
    return case.id


def artefact(tool: Tool) -> dict[str, Any]:
    return {
        "declaration": tool.declaration,
        "losses": [loss.to_dict() for loss in tool.losses],
        "lints": [lint.to_dict() for lint in tool.lints],
    }


def test_catalogue_is_large_and_ids_are_unique() -> None:
    ids = [case.id for case in CASES]
    assert len(ids) >= 40
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize("case", CASES, ids=by_id)
def test_declaration_losses_and_lints_match_golden(case: Case, tools: dict[str, Tool]) -> None:
    path = GOLDEN / f"{case.id}.json"
    text = canonical_json(artefact(tools[case.id]))
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"no golden file {path}; create it with TOOLKIT_UPDATE_GOLDEN=1"
    assert path.read_text(encoding="utf-8") == text, f"{path} drifted; review, then TOOLKIT_UPDATE_GOLDEN=1"


def test_no_orphan_golden_files() -> None:
    expected = {f"{case.id}.json" for case in CASES}
    assert {p.name for p in GOLDEN.glob("*.json")} <= expected


@pytest.mark.parametrize("case", CASES, ids=by_id)
def test_genai_accepts_declaration(case: Case, tools: dict[str, Tool]) -> None:
    genai_types.FunctionDeclaration.model_validate(tools[case.id].declaration)


@pytest.mark.parametrize("case", CASES, ids=by_id)
def test_declaration_uses_real_parameter_names_in_order(case: Case, tools: dict[str, Tool]) -> None:
    signature = inspect.signature(case.fn, eval_str=True)
    names = [p.name for p in signature.parameters.values() if p.annotation is not ToolContext]
    params = tools[case.id].declaration.get("parameters") or {"properties": {}}
    assert list(params["properties"]) == names
    assert list(tools[case.id].args_schema["properties"]) == names


@pytest.mark.parametrize("case", CASES, ids=by_id)
def test_declaration_keeps_to_the_gemini_subset(case: Case, tools: dict[str, Tool]) -> None:
    declaration = tools[case.id].declaration
    assert set(declaration) <= {"name", "description", "parameters"}
    for pointer, node in nodes(declaration.get("parameters") or {}, ""):
        assert set(node) <= SUBSET, f"{pointer}: keys outside the subset: {set(node) - SUBSET}"
        assert "format" not in node or node["format"] in KEPT_FORMATS, pointer
        assert "type" in node or set(node) <= {"anyOf", "description"}, f"{pointer}: node without a type"
        assert set(node.get("required", ())) <= set(node.get("properties", {})), pointer
        assert all(isinstance(v, str) for v in node.get("enum", ())), pointer


@pytest.mark.parametrize("case", CASES, ids=by_id)
def test_parameters_keep_nullability_enums_formats_and_required(case: Case, tools: dict[str, Tool]) -> None:
    tool = tools[case.id]
    schema = tool.args_schema
    lowered = (tool.declaration.get("parameters") or {}).get("properties", {})
    assert set((tool.declaration.get("parameters") or {}).get("required", ())) == set(schema.get("required", ()))
    for name, prop in schema["properties"].items():
        full, declared = resolve(schema, prop), lowered[name]
        branches = [resolve(schema, b) for b in full.get("anyOf", [full])]
        if any(b.get("type") == "null" for b in branches):
            assert declared.get("nullable") is True, f"{name}: optional parameter not nullable"
        values = [v for b in branches for v in b.get("enum", ())]
        if values and "anyOf" not in declared:
            assert declared["enum"] == [str(v) for v in values], f"{name}: enum values changed"
        formats = {b.get("format") for b in branches} & {"date", "date-time"}
        if formats and "anyOf" not in declared:
            assert declared.get("format") in formats, f"{name}: date format lost"


@pytest.mark.parametrize("case", CASES, ids=by_id)
def test_every_loss_points_into_args_schema(case: Case, tools: dict[str, Tool]) -> None:
    tool = tools[case.id]
    schema = tool.args_schema
    for loss in tool.losses:
        node: Any = schema
        for part in loss.path.split("/")[1:]:
            key = part.replace("~1", "/").replace("~0", "~")
            node = node[int(key)] if isinstance(node, list) else node[key]
        assert isinstance(node, dict), loss


@pytest.mark.parametrize("case", CASES, ids=by_id)
def test_lints_point_at_existing_parameters(case: Case, tools: dict[str, Tool]) -> None:
    tool = tools[case.id]
    top = set(tool.args_schema["properties"])
    for lint in tool.lints:
        assert lint.path == "" or lint.path.split(".")[0] in top, lint


def resolve(root: Mapping[str, Any], node: Mapping[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        target = root["$defs"][node["$ref"].rsplit("/", 1)[1]]
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return dict(node)


def nodes(schema: Mapping[str, Any], pointer: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    yield pointer, schema
    for name, sub in (schema.get("properties") or {}).items():
        yield from nodes(sub, f"{pointer}/properties/{name}")
    if isinstance(schema.get("items"), Mapping):
        yield from nodes(schema["items"], f"{pointer}/items")
    for i, sub in enumerate(schema.get("anyOf") or ()):
        yield from nodes(sub, f"{pointer}/anyOf/{i}")


def test_golden_files_are_canonical_json() -> None:
    for path in GOLDEN.glob("*.json"):
        text = path.read_text(encoding="utf-8")
        assert canonical_json(json.loads(text)) == text, path
