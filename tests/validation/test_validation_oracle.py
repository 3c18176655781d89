"""toolkit's validator against an independent JSON Schema 2020-12 oracle, on seeded generated cases.

Every disagreement in the sample is minimised and must be a DELIBERATE difference or an OPEN one (both
lists live in ``tests/oracle_classes.py``; OPEN is empty today); each OPEN class must still reproduce in its
own minimal example, and its xfail twin flips to a failure the day a fix lands, so the list shrinks as the
validator is fixed. The oracle reads each schema closed as ``Policy.unlisted_properties="refuse"`` means it
(``oracle_gen.close_objects``), toolkit's default.
``benchmarks/oracle_sweep.py`` runs the same sweep over 60,000 cases.

Internals: ``build_tool``, for tools from the oracle's generated JSON Schemas, which no public constructor takes.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from jsonschema import Draft202012Validator, _keywords
from oracle_classes import DELIBERATE, OPEN, Known, Sweep, classify, kind_of, reproduces, sweep
from oracle_gen import cases, close_objects, dumps, toolkit_outcome
from oracle_judges import jsonschema_verdict, oracle
from oracle_minimise import disagreement, keywords_of, minimise

SEED = 20260807
SAMPLE = 2400


@pytest.fixture(scope="module")
def sample() -> Sweep:
    return sweep(SEED, SAMPLE)


def _shown(found: Any) -> str:
    return (
        f"{dumps(found.schema)} with {found.instance!r}: toolkit {found.toolkit.verdict}, oracle {found.oracle.verdict}"
    )


# -- the sweep -------------------------------------------------------------------------------------
def test_every_disagreement_in_the_sample_is_deliberate_or_open(sample: Sweep) -> None:
    unknown = {name: sample.examples[name] for name in sample.counts if kind_of(name) == "unclassified"}
    report = [f"{name} ({sample.counts[name]}x), e.g. {_shown(found[0])}" for name, found in unknown.items()]
    assert not unknown, "disagreements in neither list (fix the validator, or add them):\n" + "\n".join(report)


def test_the_sample_has_valid_and_invalid_cases_the_oracle_can_judge(sample: Sweep) -> None:
    judged = sample.cases - sample.undecided
    assert sample.cases == SAMPLE
    assert judged > 0.95 * SAMPLE
    assert 0.1 < sample.valid / judged < 0.9  # witnesses pass, near misses fail: the generator is not degenerate
    assert sample.agreed > 0.8 * judged


# -- the two lists ---------------------------------------------------------------------------------
def _ids(entry: Known) -> str:
    return entry.name


def test_every_open_class_still_reproduces_in_its_minimal_example() -> None:
    """OPEN is the to-do list of known disagreements (empty when the validator agrees on every class): an entry
    whose example no longer disagrees must leave it, so the list never hides a fixed or changed class."""
    stale = [entry.name for entry in OPEN if not reproduces(entry)]
    assert stale == [], f"fixed or changed: remove {stale} from OPEN in tests/oracle_classes.py"


@pytest.mark.parametrize("entry", DELIBERATE, ids=_ids)
def test_deliberate_difference_shows_in_its_example(entry: Known) -> None:
    found = disagreement(entry.schema, entry.instance)
    assert found is not None, f"{entry.name}: toolkit now agrees with the oracle; remove it from DELIBERATE"
    assert classify(found) == entry.name


def test_every_known_class_has_its_own_name() -> None:
    names = [entry.name for entry in DELIBERATE + OPEN]
    assert len(names) == len(set(names))
    assert all(entry.kind == "deliberate" for entry in DELIBERATE)
    assert all(entry.kind == "open" for entry in OPEN)


# -- the minimiser and classifier ------------------------------------------------------------------
def test_minimise_cuts_a_buried_disagreement_down_to_its_cause() -> None:
    schema = {
        "type": "object",
        "properties": {
            "q": {"type": "string", "minLength": 1, "pattern": "^[a-z]+$"},
            "n": {"anyOf": [{"type": "integer", "maximum": 9}, {"type": "null"}]},
            "pick": {"allOf": [{"enum": [2, 3]}], "description": "two or three"},
        },
        "required": ["q", "pick"],
        "additionalProperties": False,
    }
    found = disagreement(schema, {"q": "abc", "n": 4, "pick": "2"})
    assert found is not None
    small = minimise(found)
    assert small.schema == {"properties": {"pick": {"enum": [2]}}}
    assert small.instance == {"pick": "2"}
    assert classify(small) == "declared-enum-strings"


def test_an_unknown_disagreement_is_named_by_the_keywords_left() -> None:
    found = disagreement({"properties": {"a": {"enum": [2]}}}, {"a": "2"})
    assert found is not None
    bare = type(found)(found.schema, found.instance, type(found.toolkit)("valid"), found.oracle, found.rs)
    assert classify(bare) == "unclassified: toolkit accepts; enum"


def test_keywords_are_read_from_every_subschema_but_not_from_values() -> None:
    schema = {"properties": {"a": {"not": {"const": {"pattern": 1}}}}, "$defs": {"d": {"items": {"format": "x"}}}}
    assert keywords_of(schema) == {"properties", "not", "const", "$defs", "items", "format"}


# -- the oracle ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("pattern", "text", "stock"),
    [("^abc$", "abc\n", "valid"), (r"^\d$", "٣", "valid"), (r"^\w$", "é", "valid"), ("^.$", "\u2028", "valid")],
)
def test_the_oracle_reads_patterns_as_ecma_262_where_stock_jsonschema_uses_python(
    pattern: str, text: str, stock: str
) -> None:
    assert ("valid" if Draft202012Validator({"pattern": pattern}).is_valid(text) else "invalid") == stock
    assert jsonschema_verdict({"pattern": pattern}, text) == "invalid"
    assert _keywords.re is re  # the ECMA engine stands in only while the oracle judges


def test_the_oracle_reads_patterns_python_cannot_compile() -> None:
    assert jsonschema_verdict({"pattern": r"^\p{L}+$"}, "été") == "valid"
    assert jsonschema_verdict({"pattern": r"^\p{L}+$"}, "123") == "invalid"
    assert jsonschema_verdict({"pattern": "^[^]$"}, "\n") == "valid"


def test_the_oracle_calls_values_that_are_not_json_invalid() -> None:
    assert oracle({"type": "object"}, {"a": float("nan")}).verdict == "invalid"
    assert oracle({"type": "object"}, {"a": [float("-inf")]}).by == "json"


def test_the_oracle_has_no_answer_for_a_reference_to_nowhere() -> None:
    assert oracle({"properties": {"a": {"$ref": "#/$defs/gone"}}}, {}).verdict == "undecided"
    assert oracle({"properties": {"a": {"$ref": "#/$defs/a%20b"}}, "$defs": {"a b": {}}}, {}).verdict == "valid"


def test_the_oracle_judges_email_by_rfc_5321() -> None:
    schema = {"format": "email"}
    assert [jsonschema_verdict(schema, v) for v in ("a..b@c.d", "a@[127.0.0.1]", "name@example.com")] == [
        "invalid",
        "valid",
        "valid",
    ]


def test_the_oracle_asks_jsonschema_rs_when_jsonschema_raises() -> None:
    judged = oracle({"properties": {"a": {"multipleOf": 0.5}}}, {"a": 10**400})
    assert (judged.verdict, judged.by) == ("valid", "rs")
    assert toolkit_outcome({"properties": {"a": {"multipleOf": 0.5}}}, {"a": 10**400}).verdict == "valid"


def test_closing_objects_says_unevaluated_properties_false_where_an_instance_is_entered() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"properties": {"b": {}}}, "c": {"items": {"$ref": "#/$defs/d"}}, "e": {"type": "string"}},
        "$defs": {"d": {"allOf": [{"properties": {"x": {}}}, {"required": ["y"]}]}, "open": {"properties": {}}},
        "enum": [{"properties": {}}],
    }
    closed = close_objects(schema)
    assert closed["unevaluatedProperties"] is False
    assert closed["properties"]["a"]["unevaluatedProperties"] is False
    assert closed["properties"]["c"]["items"] == {"$ref": "#/$defs/d", "unevaluatedProperties": False}
    assert "unevaluatedProperties" not in closed["properties"]["e"]  # lists no properties: left open
    assert "unevaluatedProperties" not in closed["$defs"]["d"]  # applied in place, not where a value is entered
    assert closed["$defs"]["d"]["allOf"][1]["properties"] == {"y": True}  # a required name counts as listed
    assert closed["enum"] == [{"properties": {}}]  # a value, not a schema
    assert "unevaluatedProperties" not in schema  # a copy


def test_closing_objects_honours_what_a_schema_says_of_unlisted_keys() -> None:
    schema = {
        "properties": {"a": {}},
        "additionalProperties": True,
        "$defs": {"p": {"properties": {"b": {}}, "required": ["z"], "unevaluatedProperties": {"type": "integer"}}},
    }
    closed = close_objects(schema)
    assert closed == schema


# -- the generator ---------------------------------------------------------------------------------
def test_the_generator_is_deterministic_per_seed() -> None:
    first = [(dumps(c.schema), repr(c.instance)) for c in cases(11, 64)]
    assert first == [(dumps(c.schema), repr(c.instance)) for c in cases(11, 64)]
    assert first != [(dumps(c.schema), repr(c.instance)) for c in cases(12, 64)]
    assert len(first) == 64


def test_generated_schemas_are_object_roots_that_reach_the_whole_tool_subset() -> None:
    drawn = list(cases(5, 4000))
    assert all(c.schema["type"] == "object" and c.schema["properties"] for c in drawn)
    assert all(isinstance(c.instance, dict) for c in drawn)
    seen = frozenset().union(*(keywords_of(c.schema) for c in drawn[::8]))
    wanted = {"type", "enum", "const", "properties", "required", "additionalProperties", "patternProperties"}
    wanted |= {"propertyNames", "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "items"}
    wanted |= {"prefixItems", "contains", "minContains", "maxContains", "minItems", "maxItems", "uniqueItems"}
    wanted |= {"unevaluatedProperties", "unevaluatedItems", "minLength", "maxLength", "pattern", "format"}
    wanted |= {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "anyOf", "oneOf"}
    wanted |= {"allOf", "not", "if", "then", "else", "$ref", "$defs", "$dynamicRef", "$dynamicAnchor", "default"}
    assert wanted <= seen, sorted(wanted - seen)


# -- found by the oracle, outside the (schema, instance) lists --------------------------------------
def test_a_schema_refused_when_built_stays_refused_on_every_call() -> None:
    from toolkit import Policy, SchemaError, Tool, ToolContract
    from toolkit._tool import build_tool

    schema = {"type": "object", "properties": {"a": {"pattern": "(?<n>x"}}}
    contract = ToolContract(name="t", description="d", args_schema=schema, source="schema")
    with pytest.raises(SchemaError) as caught:
        build_tool(contract, policy=Policy())
    assert caught.value.slug == "bad_pattern"
    unbuilt = Tool(contract=contract, parameters=None)  # made by hand, past build_tool's check
    for _ in range(3):
        with pytest.raises(SchemaError) as again:
            unbuilt.validate({"a": "x"})
        assert again.value.slug == "bad_pattern"


def test_a_reference_cell_that_failed_to_compile_never_accepts_later() -> None:
    from toolkit import SchemaError, Tool, ToolContract

    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/D"}, "b": {"$ref": "#/$defs/D"}},
        "$defs": {"D": {"properties": {"x": {"pattern": "["}}}},
    }
    tool = Tool(contract=ToolContract(name="t", description="d", args_schema=schema), parameters=None)
    for args in ({"a": {"x": "y"}}, {"b": {"x": "y"}}, {"a": {"x": "y"}}):
        with pytest.raises(SchemaError):
            tool.validate(args)
