"""google-genai's own types accept every lowered schema: golden cases, generated schemas and real specs.

Internals: ``_lowering.gemini.violations``, the subset's rules checked beside google-genai's own types."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from google.genai import types
from hypothesis import HealthCheck, given, settings
from locations import TESTS
from lowering_support import schemas, unaccounted

from toolkit import SchemaError, lower
from toolkit._lowering.gemini import violations

GOLDEN = TESTS / "golden" / "lowering"
CASES = sorted(GOLDEN.glob("*.json"))


def assert_genai_accepts(schema: dict[str, Any]) -> None:
    """The schema is a valid genai ``Schema`` and the parameters of a valid ``FunctionDeclaration``."""
    types.Schema.model_validate(schema)
    types.FunctionDeclaration.model_validate({"name": "t", "description": "d", "parameters": schema})
    assert violations(schema) == []


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_golden_output_is_accepted_by_genai(path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    assert_genai_accepts(lower(case["input"]).schema)


def test_genai_round_trip_keeps_every_lowered_key() -> None:
    case = json.loads((GOLDEN / "pydantic_model_schema.json").read_text(encoding="utf-8"))
    schema = lower(case["input"]).schema
    dumped = types.Schema.model_validate(schema).model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert dumped == schema


@pytest.mark.slow
@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(schemas())
def test_arbitrary_schema_lowers_to_accepted_schema_or_raises_schema_error(schema: Any) -> None:
    try:
        lowered = lower(schema, max_depth=3)
    except SchemaError:
        return
    assert_genai_accepts(lowered.schema)
    assert unaccounted(schema, lowered.schema, lowered.losses) == []


def _component_schemas(spec_path: Path) -> tuple[dict[str, Any], list[str]]:
    text = spec_path.read_text(encoding="utf-8")
    spec = json.loads(text) if spec_path.suffix == ".json" else yaml.safe_load(text)
    if "components" in spec:
        names = sorted(spec["components"].get("schemas") or {})
        return spec, [f"#/components/schemas/{name}" for name in names]
    return spec, [f"#/definitions/{name}" for name in sorted(spec.get("definitions") or {})]


SMALL_SPECS = [
    "petstore-3.0.yaml",
    "tictactoe-3.1.yaml",
    "sendgrid-3.1.json",
    "twilio-api-v2010.json",
    "github-3.0.json",
]


@pytest.mark.corpus
@pytest.mark.parametrize("name", SMALL_SPECS)
def test_real_spec_schemas_lower_to_accepted_schemas(corpus_dir: Path, name: str) -> None:
    spec, refs = _component_schemas(corpus_dir / name)
    holder = {key: spec[key] for key in ("components", "definitions") if key in spec}
    for ref in refs:
        root = {"type": "object", "properties": {"x": {"$ref": ref.replace("~", "~0")}}, **holder}
        lowered = lower(root)
        assert_genai_accepts(lowered.schema)
        assert unaccounted(root, lowered.schema, lowered.losses) == [], ref


def test_gemini_json_dialect_output_is_accepted_as_parameters_json_schema() -> None:
    case = json.loads((GOLDEN / "pydantic_model_schema.json").read_text(encoding="utf-8"))
    lowered = lower(case["input"], dialect="gemini_json")
    declaration = {"name": "t", "description": "d", "parametersJsonSchema": lowered.schema}
    assert types.FunctionDeclaration.model_validate(declaration).parameters_json_schema == lowered.schema


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(schemas(max_leaves=8), schemas(max_leaves=8))
def test_a_property_lowers_the_same_whatever_its_siblings(first: Any, second: Any) -> None:
    if (
        not isinstance(first, dict)
        or not isinstance(second, dict)
        or '"#' in json.dumps([first, second]).replace('"#/$defs/', "")
    ):
        return  # references into the root itself make properties depend on it by design
    defs = {**first.pop("$defs"), **{f"{name}2": schema for name, schema in second.pop("$defs").items()}}
    both = {"type": "object", "properties": {"p": first, "q": second}, "$defs": defs}
    alone = {"type": "object", "properties": {"p": first}, "$defs": defs}
    try:
        together, single = lower(both, max_depth=3), lower(alone, max_depth=3)
    except SchemaError:
        return
    assert together.schema["properties"].get("p") == single.schema["properties"].get("p")


def _catalogue_schemas() -> list[tuple[str, dict[str, Any]]]:
    import function_catalogue

    import toolkit as tk

    found = []
    for case in function_catalogue.CASES:
        try:
            tool = tk.from_function(case.fn, **case.options)
        except tk.ToolkitError:
            continue
        found.append((case.id, tool.args_schema))
    return found


@pytest.mark.parametrize(
    ("name", "schema"), _catalogue_schemas(), ids=lambda value: value if isinstance(value, str) else ""
)
def test_pydantic_derived_schema_lowers_to_accepted_schema_with_every_keyword_accounted(
    name: str, schema: dict[str, Any]
) -> None:
    lowered = lower(schema)
    assert_genai_accepts(lowered.schema)
    assert unaccounted(schema, lowered.schema, lowered.losses) == []


def test_orders_spec_schemas_lower_with_every_keyword_accounted(repo_root: Path) -> None:
    import toolkit as tk

    toolset = tk.from_openapi(repo_root / "specs" / "orders.yaml", "orders", select="all")
    assert toolset.tools
    for tool in toolset.tools:
        lowered = lower(tool.args_schema)
        assert_genai_accepts(lowered.schema)
        assert unaccounted(tool.args_schema, lowered.schema, lowered.losses) == [], tool.name


@pytest.mark.corpus
@pytest.mark.parametrize("name", ["github-3.0.json", "stripe.json", "box.json"])
def test_every_operation_of_a_real_spec_lowers_to_an_accepted_declaration(corpus_dir: Path, name: str) -> None:
    import toolkit as tk

    for tool in tk.from_openapi(corpus_dir / name, "corpus", select="all").tools:
        lowered = lower(tool.args_schema)
        assert_genai_accepts(lowered.schema)
        assert unaccounted(tool.args_schema, lowered.schema, lowered.losses) == [], tool.name
