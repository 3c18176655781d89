"""The generated fast path answers exactly as the full validator does, on every call it takes.

The fast path (``toolkit/_validation/_fastpath/``) is a per-tool function written as Python source; it takes
the plain valid calls and the invalid ones (its generated ``invalid``), and declines the rest, which the full
validator answers. So the property to hold is:
whenever it answers, its ``ToolResult`` is the full validator's (status, cleaned data with its key order,
errors, notices), over the differential oracle's generated schemas and instances, under the oracle's policy
and under the default policy of a read tool (clamping, case folding and null-as-absent in play). Also here:
the envelopes the validator builds without the dataclass constructor, and the date format's quick reading.

Internals: the generated fast path and its parts (``compiled``, ``_admit``, ``_fastpath``, ``_results``,
``_formats``), compared with the full validator.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from oracle_gen import NAMES, STRINGS, Case, _Schemas, _Values, cases

from toolkit import FieldError, Notice, Policy, Tool, ToolContract, ToolkitError, ToolResult
from toolkit._tool import build_tool
from toolkit._validation import compiled
from toolkit._validation._admit import admit, flat, plain_size
from toolkit._validation._compile import SCALAR_KEYWORDS, VALIDATION_KEYWORDS
from toolkit._validation._fastpath import FastPath
from toolkit._validation._fastpath._predicates import ARRAY_NODE_KEYWORDS, MEMO_SIZE, memory, remembered_source
from toolkit._validation._fastpath._root import ROOT_KEYWORDS
from toolkit._validation._formats import FORMAT_CHECKS
from toolkit._validation._results import ERROR_FIELDS, field_error, invalid_result, ok_result
from toolkit._validation._run import Run
from toolkit.examples import search_issues

SEED = 20260807
SAMPLE = 2400
POLICIES = {
    "oracle": Policy(null_optional="reject", clamp=False, unlisted_properties="refuse"),
    "default-read": Policy(enum_case="insensitive"),
}


def _tool(schema: dict[str, Any], policy: Policy) -> Tool | None:
    contract = ToolContract(name="t", description="d", args_schema=json.loads(json.dumps(schema)), source="schema")
    try:
        tool = build_tool(contract, policy=policy)
        compiled(tool)
    except ToolkitError:
        return None
    return tool


def _full(tool: Tool, args: Any) -> ToolResult:
    """The full validator's answer: the interpreter alone, the fast tier set aside."""
    return tool.validate(args, fast=False)


def _generated(tool: Tool) -> FastPath | None:
    """The tool's generated function: to see whether the fast tier answered a call or declined it."""
    return compiled(tool).fast


def _quick(tool: Tool, args: dict[str, Any]) -> ToolResult | None:
    """The generated function's answer (``None``: it declined, the interpreter answers)."""
    fast = _generated(tool)
    assert fast is not None
    return fast(args)


def _shape(result: ToolResult) -> str:
    """Everything a reader of the envelope sees, key order included."""
    return json.dumps(result.to_dict(), ensure_ascii=False)


def flat_cases(seed: int, count: int, per_schema: int = 8) -> Iterator[Case]:
    """Cases drawn as the oracle draws them (its pools, witnesses and near misses), from schemas in the shape
    the fast path takes: flat parameters, optional wrappers, arrays of scalars, defaults."""
    made = 0
    for n in range(count // per_schema):
        rng = random.Random(f"flat:{seed}:{n}")
        draw, values = _Schemas(rng), _Values(rng, [])
        properties = {name: _flat_node(rng, draw) for name in rng.sample(NAMES, rng.randint(1, 5))}
        for node in properties.values():
            if isinstance(node, dict) and rng.random() < 0.3:
                node["default"] = values.witness(node, 2, lambda ref: None)
        schema: dict[str, Any] = {"type": "object", "properties": properties}
        schema["required"] = rng.sample(list(properties), rng.randint(0, len(properties)))
        if rng.random() < 0.5:
            schema["additionalProperties"] = False
        witness = values.witness(schema, 3, lambda ref: None)
        for i in range(per_schema):
            instance = witness if i == 0 else values.mutate(witness) if i < per_schema - 1 else values.random()
            made += 1
            yield Case(seed=seed, schema=schema, instance=instance)


def _flat_node(rng: random.Random, draw: _Schemas) -> Any:
    roll = rng.random()
    if roll < 0.45:
        return draw.scalar()
    if roll < 0.6:
        return {"anyOf": [draw.scalar(), {"type": "null"}][:: rng.choice((1, -1))]}
    if roll < 0.7:
        return {"type": "string", "enum": rng.sample(STRINGS[:8], rng.randint(1, 4))}
    if roll < 0.9:
        out: dict[str, Any] = {"type": "array", "items": rng.choice((draw.scalar(), {"type": "string"}))}
        for key in ("minItems", "maxItems"):
            if rng.random() < 0.3:
                out[key] = rng.randint(0, 3)
        if rng.random() < 0.2:
            out["uniqueItems"] = True
        return out if rng.random() < 0.7 else {"anyOf": [out, {"type": "null"}]}
    return rng.choice(({}, True, {"description": "anything"}))


SOURCES = {"oracle": cases, "flat": flat_cases}


@pytest.mark.parametrize("source", list(SOURCES))
@pytest.mark.parametrize("policy", list(POLICIES))
def test_fast_path_agrees_with_the_full_validator_on_the_oracle_cases(policy: str, source: str) -> None:
    taken = with_fast_path = invalid = 0
    tools: dict[str, Tool | None] = {}
    for case in SOURCES[source](SEED, SAMPLE):
        key = json.dumps(case.schema, sort_keys=True)
        if key not in tools:
            tools[key] = _tool(case.schema, POLICIES[policy])
        tool = tools[key]
        if tool is None or _generated(tool) is None or type(case.instance) is not dict:
            continue
        with_fast_path += 1
        quick = _quick(tool, case.instance)
        if quick is None:
            continue
        taken += 1
        invalid += not quick.ok
        full = _full(tool, case.instance)
        assert quick == full, f"{key} with {case.instance!r}"
        assert _shape(quick) == _shape(full), f"{key} with {case.instance!r}"
    print(f"{source} {policy}: {with_fast_path} calls to tools with a fast path, {taken} taken, {invalid} invalid")
    assert with_fast_path > SAMPLE // (40 if source == "oracle" else 2)  # the generator writes fast paths
    assert taken > with_fast_path // 10  # and they answer a share of the calls
    assert invalid > taken // 10  # invalid ones among them


TYPICAL = [
    {"query": "login timeout", "limit": 10, "state": "open", "labels": ["bug", "p1"], "updated_since": "2026-08-07"},
    {"query": "x"},
    {"query": "x", "labels": None, "updated_since": None},
    {"query": "x", "state": "closed", "labels": []},
    {"query": "x", "limit": 100, "updated_since": "2024-02-29"},
]
DECLINED = [
    {"query": "x", "limit": 500},  # clamped, with a notice
    {"query": "x", "limit": 10.0},  # cleaned to 10
    {"query": "x", "limit": float("nan")},
    {"query": "x", "limit": 10**5000},
    {"query": "x", "labels": ["a" * 10_000_000]},
    {"query": "", "limit": float("nan")},  # admission speaks first
    {"query": "x", "state": "OPEN", "other": {"a": [1.5]}},  # beyond the flat payload admission reads in one loop
    {f"k{i}": i for i in range(60)},  # more than one envelope shows: a notice counts the rest
    {"query": 1, "x": 10**30},  # past 64 bits: admission reads it
    {"query": 1, "x": "a" * 3000},  # a long unlisted value: admission counts the payload's size
    {"query": 1, "x": [1, [2]]},
]
INVALID = [
    {"query": "x", "state": "OPEN"},  # unknown value
    {"query": "x", "updated_since": "2026-02-30"},  # not a day
    {"query": "x", "labels": ["bug", 1]},
    {"query": "x", "extra": 1},  # unknown property
    {"query": 1},
    {},
    {"extra": 1, "query": None, "limit": 10.0, "state": None, "labels": "bug"},  # errors in the data's order
    {"limit": 500, "updated_since": "2026-13-01", "labels": [1, "a", 2]},
    {f"k{i}": i for i in range(49)},  # with the missing query, as many errors as one envelope shows
]


class _Key(str):
    """A key that compares equal to a declared name but is not JSON text (admission refuses it)."""


def _search_tool() -> Tool:
    from toolkit import from_function

    return from_function(search_issues, namespace="issues", effect="read")


@pytest.mark.parametrize("args", TYPICAL, ids=lambda a: ",".join(a) or "empty")
def test_the_typical_call_takes_the_fast_path_with_the_full_answer(args: dict[str, Any]) -> None:
    tool = _search_tool()
    compiled(tool)
    quick = _quick(tool, args)
    assert quick is not None
    assert quick.ok
    assert _shape(quick) == _shape(_full(tool, args))
    assert quick.data is not args
    assert args.get("labels") is None or quick.data["labels"] is not args["labels"]


@pytest.mark.parametrize("args", [*DECLINED, {_Key("query"): "x"}], ids=range(len(DECLINED) + 1))
def test_the_fast_path_declines_what_the_full_validator_must_answer(args: dict[str, Any]) -> None:
    tool = _search_tool()
    compiled(tool)
    assert _quick(tool, args) is None
    assert _shape(tool.validate(args)) == _shape(_full(tool, args))


@pytest.mark.parametrize("args", INVALID, ids=range(len(INVALID)))
def test_the_fast_path_answers_an_invalid_call_with_the_full_envelope(args: dict[str, Any]) -> None:
    tool = _search_tool()
    compiled(tool)
    quick = _quick(tool, args)
    assert quick is not None
    assert quick.status == "invalid_arguments"
    assert quick == _full(tool, args)
    assert _shape(quick) == _shape(_full(tool, args))


def test_schema_text_never_enters_the_generated_source() -> None:
    name = "a'); import os; ('"
    schema = {"type": "object", "properties": {name: {"type": "string", "pattern": "^x'\"$", "description": "'''"}},
              "required": [name], "additionalProperties": False}  # fmt: skip
    tool = _tool(schema, Policy())
    assert tool is not None
    fast = _generated(tool)
    assert fast is not None
    assert "import os" not in fast.__doc__.replace(repr(name), "")
    assert fast({name: "x'\""}) == ok_result({name: "x'\""}, ())
    refused = fast({name: "y"})
    assert refused is not None
    assert refused.errors[0].code == "pattern_mismatch"
    assert refused == _full(tool, {name: "y"})


@pytest.mark.parametrize(
    ("node", "value", "taken", "ok"),
    [
        ({"type": "string", "enum": ["a", "b"], "const": "b"}, "a", True, False),
        ({"type": "string", "enum": ["a", "b"], "const": "b"}, "b", True, True),
        ({"type": "string", "enum": ["a", "bb"], "maxLength": 1}, "bb", True, False),
        ({"type": ["string", "null"], "enum": ["a"]}, None, False, True),  # null read as absent, with a notice
        ({"type": "integer", "exclusiveMinimum": 2.5, "multipleOf": 2.0}, 4, True, True),
        ({"type": "integer", "exclusiveMinimum": 2.5}, 2, True, False),
        ({"type": "integer", "format": "int32"}, 2**31, True, False),
        ({"type": "number", "maximum": 1e308}, float("inf"), False, False),  # admission speaks,
        ({"type": "string", "format": "int32"}, "x", True, True),
    ],
)
def test_fast_path_keywords_at_their_edges(node: dict[str, Any], value: Any, taken: bool, ok: bool) -> None:
    tool = _tool({"type": "object", "properties": {"v": node}}, Policy(clamp=False))
    assert tool is not None
    assert _generated(tool) is not None
    quick = _quick(tool, {"v": value})
    full = _full(tool, {"v": value})
    assert (quick is not None) == taken
    assert full.ok == ok
    assert quick is None or _shape(quick) == _shape(full)


def test_schemas_beyond_the_fast_subset_get_no_fast_path() -> None:
    nested = {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "integer"}}}}}
    step = {"type": "object", "properties": {"a": {"type": "number", "multipleOf": 0.1}}}
    for schema in (nested, step):
        tool = _tool(schema, Policy())
        assert tool is not None
        assert _generated(tool) is None


# -- envelopes built without the dataclass constructor ---------------------------------------------
def test_the_fields_filled_directly_are_the_envelopes_fields() -> None:
    assert tuple(f.name for f in dataclasses.fields(FieldError)) == ERROR_FIELDS


def test_envelopes_built_directly_equal_the_dataclass_ones() -> None:
    notice = Notice("limit", "defaulted", "absent; default used", to=20)
    error = field_error("limit", "out_of_range", "out of range: 500", "between 1 and 100")
    assert type(error) is FieldError
    assert error == FieldError("limit", "out_of_range", "out of range: 500", "between 1 and 100")
    ok = ok_result({"a": 1}, (notice,))
    assert type(ok) is ToolResult
    assert ok == ToolResult("ok", data={"a": 1}, notices=(notice,))
    bad = invalid_result((error,))
    assert bad == ToolResult("invalid_arguments", errors=(error,))
    assert bad.to_json() == ToolResult("invalid_arguments", errors=(error,)).to_json()
    with pytest.raises(dataclasses.FrozenInstanceError):
        ok.status = "error"  # type: ignore[misc]
    assert dataclasses.replace(ok, data=None) == ToolResult("ok", notices=(notice,))


# -- the date format -------------------------------------------------------------------------------
_SHAPE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", re.ASCII)


def _written_out(value: str) -> bool:
    if _SHAPE.fullmatch(value) is None:
        return False
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return False
    return True


DATES = ["2026-08-07", "2024-02-29", "2026-02-29", "0000-01-01", "0001-01-01", "9999-12-31", "2026-13-01",
         "2026-00-10", "2026-01-32", "20260807", "2026-W32-5", "2026W325", "+026-08-07", " 026-08-07",
         "2_26-08-07", "2026-0８-07", "２０２６-08-07", "2026-08-07\n", "2026-08-7 ", "2026-8-07", "2026/08/07",
         "2026-08-0\ud800", "", "2026-08-07T00:00:00", "-026-08-07", "2026-08--7", "2026-+8-07"]  # fmt: skip


@pytest.mark.parametrize("value", DATES)
def test_the_date_format_reads_exactly_the_written_shape(value: str) -> None:
    assert FORMAT_CHECKS["date"](value) == _written_out(value)


# -- the optional wrapper read without probes ------------------------------------------------------
@pytest.mark.parametrize("source", list(SOURCES))
def test_optional_wrappers_answer_as_the_general_union_does(source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``anyOf``/``oneOf`` ``[X, {type: null}]`` has its own check (no probes); every envelope is the one the
    general ``branch_check`` gives, which the compiler uses when told no branch is null-only."""
    import toolkit._validation._compile as compile_module

    schemas: dict[str, list[Any]] = {}
    for case in SOURCES[source](SEED, SAMPLE):
        text = json.dumps(case.schema, sort_keys=True)
        if '"type": "null"' in text and ("anyOf" in text or "oneOf" in text):
            schemas.setdefault(text, []).append(case.instance)
    compared = 0
    for text, instances in schemas.items():
        for policy in POLICIES.values():
            special = _tool(json.loads(text), policy)
            with monkeypatch.context() as patch:  # properties compile on first use: call inside the context too
                patch.setattr(compile_module, "_null_only", lambda schema: False)
                general = _tool(json.loads(text), policy)
                expected = [_shape(_full(general, instance)) for instance in instances] if general else []
            if special is None or general is None:
                continue
            for instance, shape in zip(instances, expected, strict=True):
                assert _shape(_full(special, instance)) == shape, f"{text} {instance!r}"
                compared += 1
    assert compared > 200


OPTIONAL = {
    "enum-of-a-float": ({"oneOf": [{"enum": [1.0]}, {"type": "null"}]}, [1, 1.0, "1.0", None, "x", True]),
    "typed-enum": ({"anyOf": [{"type": "number", "enum": [1.0]}, {"type": "null"}]}, [1, "1.0", "x", None, 2]),
    "ref": ({"anyOf": [{"$ref": "#/$defs/D"}, {"type": "null"}]}, ["2026-08-07", "x", 3, None, [1]]),
    "nullable-branch": ({"oneOf": [{"type": "string", "nullable": True}, {"type": "null"}]}, [None, "a", 1]),
    "null-first": ({"anyOf": [{"type": "null"}, {"type": "integer", "maximum": 3}]}, [None, 2, 2.0, 4, "2"]),
}


@pytest.mark.parametrize("name", list(OPTIONAL))
def test_optional_wrappers_answer_as_the_general_union_does_at_the_edges(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import toolkit._validation._compile as compile_module

    node, values = OPTIONAL[name]
    schema = {"type": "object", "properties": {"v": node}, "$defs": {"D": {"type": "string", "format": "date"}}}
    special = _tool(schema, POLICIES["oracle"])
    with monkeypatch.context() as patch:
        patch.setattr(compile_module, "_null_only", lambda schema: False)
        general = _tool(schema, POLICIES["oracle"])
        assert general is not None
        expected = [_shape(_full(general, {"v": value})) for value in values]
    assert special is not None
    assert [_shape(_full(special, {"v": value})) for value in values] == expected


def test_defaults_fill_absent_properties_beside_unlisted_keys() -> None:
    """As many unlisted keys as absent declared ones: the defaults are still filled in (an open object)."""
    schema = {"type": "object", "properties": {"a": {"type": "integer", "default": 1}, "b": {}}}
    tool = _tool(schema, Policy(unlisted_properties="allow"))
    assert tool is not None
    result = tool.validate({"x": 1, "y": 2})
    assert result.data == {"x": 1, "y": 2, "a": 1}
    assert [notice.action for notice in result.notices] == ["defaulted"]


# -- the invalid path's reading of admission, and remembered string tests ---------------------------
PLAIN = ["", "a" * 100, 0, -(2**64) + 1, 2**64 - 1, 1.5, -0.0, True, None, [], ["a", 1, None, False], [2**63]]
NOT_PLAIN = [2**64, float("nan"), float("inf"), [1.5], [[1]], {"a": 1}, (1,), {1}, b"x", [b"x"]]


@pytest.mark.parametrize(("value", "plain"), [(v, True) for v in PLAIN] + [(v, False) for v in NOT_PLAIN], ids=repr)
def test_plain_size_takes_only_what_admission_takes_without_a_word(value: Any, plain: bool) -> None:
    size = plain_size(value)
    assert (size >= 0) == plain == flat({"k": value})
    if plain:
        run = Run()
        admit({"k": value}, run)
        assert run.errors == []


def test_a_remembered_format_answers_as_the_format_and_keeps_a_bounded_memory() -> None:
    date = FORMAT_CHECKS["date"]
    seen = memory(date)
    assert memory(date) is seen  # a format's memory is shared
    source = remembered_source("test", "seen", "v")
    answer = eval(f"lambda v: {source}", {"test": date, "seen": seen})  # the expression generated code uses
    for _ in range(2):
        assert [answer(value) for value in DATES] == [date(value) for value in DATES]
    assert {value for value in DATES if date(value)} <= seen
    digits: set[str] = set()
    counted = eval(f"lambda v: {source}", {"test": str.isdigit, "seen": digits})
    for i in range(MEMO_SIZE + 10):
        assert counted(str(i))
    assert len(digits) == MEMO_SIZE
    assert counted("7" * 100)
    assert "7" * 100 not in digits  # too long to keep
    assert not counted("xxx")
    assert "xxx" not in digits


def test_domain_checks_never_see_an_invalid_call_the_fast_tier_answered() -> None:
    seen: list[Any] = []
    tool = _search_tool().with_domain(lambda args: seen.append(args) or ())
    assert tool.validate({"query": "x"}).ok
    for fast in (True, False):
        assert tool.validate({"query": 1}, fast=fast).status == "invalid_arguments"
    assert seen == [{"query": "x", "limit": 20, "state": "open", "labels": None, "updated_since": None}]


@pytest.mark.parametrize("policy", list(POLICIES))
def test_every_answer_with_the_fast_tier_is_the_interpreters_alone(policy: str) -> None:
    """The generated root function and the shortcuts object checks take at any depth, against the interpreter
    without either, on every oracle case (nested objects included)."""
    tools: dict[str, Tool | None] = {}
    compared = 0
    for case in cases(SEED, SAMPLE):
        key = json.dumps(case.schema, sort_keys=True)
        if key not in tools:
            tools[key] = _tool(case.schema, POLICIES[policy])
        tool = tools[key]
        if tool is None:
            continue
        assert _shape(tool.validate(case.instance)) == _shape(_full(tool, case.instance)), f"{key} {case.instance!r}"
        compared += 1
    assert compared > SAMPLE // 2


def test_the_fast_tier_reads_only_keywords_of_the_validators_one_table() -> None:
    assert SCALAR_KEYWORDS | ARRAY_NODE_KEYWORDS | ROOT_KEYWORDS <= VALIDATION_KEYWORDS
