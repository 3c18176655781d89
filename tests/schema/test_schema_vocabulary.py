"""One JSON Schema vocabulary (``toolkit._schema``): its tables against the 2020-12 meta-schemas, and no stage
with a table of its own.

The oracle is the meta-schemas the ``jsonschema`` project ships (``jsonschema_specifications``): a keyword whose
meta-schema value is ``{"$dynamicRef": "#meta"}`` holds one schema, a ``schemaArray`` a list of them, an object of
``{"$dynamicRef": "#meta"}`` a map. The legacy spellings are read from the same documents: the 2020-12 top-level
meta-schema still describes ``definitions`` and ``dependencies``, draft-07's ``additionalItems`` and array
``items``.

Internals: ``toolkit._schema``'s tables and the stages' keyword sets (``_lowering._keywords``,
``VALIDATION_KEYWORDS``), the vocabulary under test.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any

import pytest
from jsonschema_specifications import REGISTRY
from pydantic import Field

import toolkit as tk
from toolkit import _schema
from toolkit._lowering._keywords import KEYWORDS
from toolkit._validation._compile import VALIDATION_KEYWORDS

PACKAGE = Path(tk.__file__).resolve().parent
META = "https://json-schema.org/draft/2020-12/meta/"
VOCABULARIES = ("core", "applicator", "unevaluated", "validation", "meta-data", "format-annotation", "content")
ONE_SCHEMA = {"$dynamicRef": "#meta"}


def _meta(name: str) -> Mapping[str, Any]:
    properties: Mapping[str, Any] = REGISTRY.contents(META + name)["properties"]
    return properties


def _holders() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {"one": set(), "map": set(), "list": set()}
    for name in VOCABULARIES:
        for keyword, value in _meta(name).items():
            if value == ONE_SCHEMA:
                found["one"].add(keyword)
            elif isinstance(value, Mapping) and value.get("additionalProperties") == ONE_SCHEMA:
                found["map"].add(keyword)
            elif value == {"$ref": "#/$defs/schemaArray"}:
                found["list"].add(keyword)
    return found


def test_the_subschema_tables_are_the_2020_12_meta_schemas_with_definitions_as_a_legacy_defs() -> None:
    oracle = _holders()
    assert set(_schema.SCHEMA_ONE) == oracle["one"]
    assert set(_schema.SCHEMA_LIST) == oracle["list"]
    assert set(_schema.SCHEMA_MAP) == oracle["map"] | {_schema.LEGACY_DEFINITIONS}
    legacy = set(REGISTRY.contents("https://json-schema.org/draft/2020-12/schema")["properties"])
    assert {_schema.LEGACY_DEFINITIONS, _schema.LEGACY_DEPENDENCIES} <= legacy


def test_the_legacy_tables_are_draft_07s_spellings() -> None:
    draft7 = REGISTRY.contents("http://json-schema.org/draft-07/schema#")["properties"]
    assert all(draft7[key] == {"$ref": "#"} for key in _schema.LEGACY_ONE)
    assert {"$ref": "#/definitions/schemaArray"} in draft7[_schema.LEGACY_ITEMS]["anyOf"]
    assert draft7[_schema.LEGACY_DEFINITIONS]["additionalProperties"] == {"$ref": "#"}
    assert {"$ref": "#"} in draft7[_schema.LEGACY_DEPENDENCIES]["additionalProperties"]["anyOf"]
    replaced_2020 = set(REGISTRY.contents("https://json-schema.org/draft/2020-12/schema")["properties"])
    assert set(_schema.REPLACED) == replaced_2020 - {_schema.LEGACY_DEFINITIONS} | set(_schema.LEGACY_ONE)


def test_the_vocabulary_is_2020_12_with_draft_07s_and_openapis_spellings() -> None:
    keywords = {keyword for name in VOCABULARIES for keyword in _meta(name)}
    older = {_schema.LEGACY_DEFINITIONS, _schema.LEGACY_DEPENDENCIES, *_schema.LEGACY_ONE}
    assert keywords | older | _schema.OPENAPI == _schema.VOCABULARY
    assert _schema.VALIDATOR_KEYWORDS <= _schema.VOCABULARY
    assert set(_meta("meta-data")) | {"contentEncoding", "contentMediaType"} == _schema.ANNOTATIONS


def test_each_validator_keyword_constrains_one_kind_of_value() -> None:
    kinds = (_schema.FOR_ANY, _schema.FOR_OBJECTS, _schema.FOR_ARRAYS, _schema.FOR_STRINGS, _schema.FOR_NUMBERS)
    assert sum(len(kind) for kind in kinds) == len(_schema.VALIDATOR_KEYWORDS)


def test_the_validator_reads_exactly_the_vocabularys_validator_keywords() -> None:
    # the compiler's own table, until it imports this one: equal, so the switch changes nothing
    assert VALIDATION_KEYWORDS == _schema.VALIDATOR_KEYWORDS


def test_the_lowering_catalogue_gives_every_keyword_of_the_vocabulary_a_method() -> None:
    assert set(KEYWORDS) == _schema.VOCABULARY | {"propertyOrdering"}  # the Gemini subset's own keyword


def test_every_schema_holding_keyword_is_walked_and_definitions_are_not_applied() -> None:
    schema = {key: {"$anchor": f"a{i}"} for i, key in enumerate(_schema.SCHEMA_ONE)}
    schema |= {key: {"x": {"$anchor": f"m{i}"}} for i, key in enumerate(_schema.SCHEMA_MAP)}
    schema |= {key: [{"$anchor": f"l{i}"}] for i, key in enumerate(_schema.SCHEMA_LIST)}
    walked = [node for node in _schema.schemas_in(schema) if node is not schema]
    assert len(walked) == len(_schema.SCHEMA_ONE) + len(_schema.SCHEMA_MAP) + len(_schema.SCHEMA_LIST)
    assert len(_schema.Refs(schema).anchors()) == len(walked)
    assert {*_schema.DEFINITIONS, *_schema.ANNOTATION_SCHEMAS} == _schema.NOT_APPLIED


def test_reachable_follows_the_steps_it_is_given_once_each() -> None:
    shared: dict[str, Any] = {"type": "string"}
    schema = {"anyOf": [shared, shared, True], "not": {"type": "null"}}
    found = list(_schema.reachable(schema, lambda node: node.get("anyOf", ())))
    assert found == [schema, shared]


_EXTRA = {"contentSchema": {"type": "object", "title": "Inner"}, "definitions": {"D": {"title": "Old"}}}


def upload(blob: Annotated[str, Field(json_schema_extra=_EXTRA)]) -> None:
    """Upload a blob."""


def test_a_title_inside_every_subschema_position_is_a_generator_artefact() -> None:
    node = tk.from_function(upload).args_schema["properties"]["blob"]
    assert node["contentSchema"] == {"type": "object"}
    assert node["definitions"] == {"D": {}}


# -- no stage keeps a table of its own ---------------------------------------------------------------------
HOLDERS = frozenset(
    {*_schema.SCHEMA_ONE, *_schema.SCHEMA_MAP, *_schema.SCHEMA_LIST, *_schema.LEGACY_ONE, _schema.LEGACY_DEPENDENCIES}
)
"""Keywords that hold subschemas: a module-level table naming three of them is a keyword table."""

_DIALECT = "a dialect's own subset (what one provider accepts), stated once in that dialect"
_VALIDATOR = "the validator's own table, left to its rewrite (VALIDATION_KEYWORDS is proven equal above)"
ALLOWED: Mapping[tuple[str, str], str] = {
    # which keywords a provider's subset carries: a provider fact, not a JSON Schema one
    ("_lowering/gemini.py", "SUBSET_KEYS"): _DIALECT,
    ("_lowering/gemini_json.py", "SUPPORTED"): _DIALECT,
    ("_lowering/gemini_json.py", "_CONSTRAINTS"): _DIALECT + " (what it moves into the description)",
    ("_lowering/_keywords.py", "_HANDLED"): _DIALECT + " (the rest of VOCABULARY is derived)",
    ("_lowering/_keywords.py", "LATE"): "the order the Gemini walker reads a node's keywords in (own words first)",
    ("_lowering/_merge.py", "_MERGERS"): "how two Gemini drafts merge, keyword by keyword",
    ("_lowering/_strict.py", "_INFERRED"): "OpenAI strict mode's type inference from its kept keywords",
    ("_lowering/_walker.py", "_VALIDATED_ONE"): "dropped keywords whose subschema the walker reads for references",
    ("_diff/_rules.py", "_HANDLED"): "the Gemini declaration keywords a diff rule reads",
    ("_lints/_rules.py", "_SHAPE_KEYS"): "keywords that give a node a shape (a lint on untyped nodes)",
    ("_openapi/_body.py", "_OBJECT_KEYS"): "keywords that make an OpenAPI body an object to flatten",
    ("_validation/_compile.py", "_APART"): "the validator keywords its compiler reads apart from its groups (the"
    " groups are derived from VALIDATOR_KEYWORDS's tables with it)",
    ("_validation/_fastpath/_root.py", "ROOT_KEYWORDS"): _VALIDATOR,
}
"""Module-level tables naming subschema keywords that stay where they are, each with its reason."""


def _tables(source: str) -> Iterator[tuple[str, frozenset[str]]]:
    """Each name assigned at module or class level, with the subschema keywords its values name (three or more,
    over every assignment to it: a table grown in steps is one table)."""
    tree = ast.parse(source)
    bodies = [tree.body, *(node.body for node in tree.body if isinstance(node, ast.ClassDef))]
    named: dict[str, set[str]] = {}
    for statement in (statement for body in bodies for statement in body):
        if isinstance(statement, ast.Assign | ast.AnnAssign | ast.AugAssign) and statement.value is not None:
            target = statement.targets[0] if isinstance(statement, ast.Assign) else statement.target
            strings = {n.value for n in ast.walk(statement.value) if isinstance(n, ast.Constant)}
            named.setdefault(ast.unparse(target), set()).update(
                s for s in strings if isinstance(s, str) and s in HOLDERS
            )
    yield from ((name, frozenset(found)) for name, found in named.items() if len(found) >= 3)


def _stage_tables() -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        if not where.startswith("_schema/"):
            found |= {(where, name) for name, _ in _tables(path.read_text(encoding="utf-8"))}
    return found


def test_no_stage_defines_its_own_subschema_keyword_table() -> None:
    found = _stage_tables()
    assert sorted(found - ALLOWED.keys()) == [], "read the table from toolkit._schema (or derive it there)"
    assert sorted(ALLOWED.keys() - found) == [], "this table is gone: take it off the allow-list"


@pytest.mark.parametrize(
    ("source", "tables"),
    [
        pytest.param('_ONE = ("items", "not", "contains")', ["_ONE"], id="a-tuple"),
        pytest.param('class A:\n    M = frozenset({"properties", "$defs", "anyOf"})', ["M"], id="in-a-class"),
        pytest.param('X: set[str] = {"allOf"}\nX |= {"oneOf", "anyOf"}', ["X"], id="grown-in-steps"),
        pytest.param('T = {"items": 1, "then": 2, "else": 3}', ["T"], id="dict-keys"),
        pytest.param('T = ("items", "type", "minimum")', [], id="one-holder-is-no-table"),
        pytest.param('def f():\n    return ("anyOf", "oneOf", "allOf")', [], id="inside-a-function"),
    ],
)
def test_the_table_scan_finds_a_table_written_any_way(source: str, tables: list[str]) -> None:
    assert [name for name, _ in _tables(source)] == tables
