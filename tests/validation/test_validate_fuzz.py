"""Fuzzing the boundary: whatever JSON the model sends, ``validate`` returns a ToolResult and never raises.

Internals: the compiled validator and the fast predicates (``compile_schema``, ``Run``, ``fast_predicate``...),
fuzzed against each other."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolkit import Policy, SchemaError, Tool, ToolContract, ToolResult

JSON_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
KEYS = st.sampled_from(["query", "limit", "status", "since", "items", "tree", "note", "x", ""]) | st.text(max_size=6)
ARGS = st.dictionaries(KEYS, JSON_VALUES, max_size=6)

NODE = {
    "type": "object",
    "properties": {"v": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
    "additionalProperties": False,
}
SCHEMAS: dict[str, dict[str, Any]] = {
    "search": {
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1, "pattern": "^[a-z ]+$"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
            "status": {"type": "string", "enum": ["open", "closed"]},
            "since": {"type": "string", "format": "date-time"},
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        },
        "required": ["query"],
        "additionalProperties": False,
    },
    "nested": {
        "type": "object",
        "properties": {
            "items": {
                "type": "array",
                "uniqueItems": True,
                "maxItems": 3,
                "items": {"oneOf": [{"type": "number", "multipleOf": 0.5}, {"type": "object", "required": ["x"]}]},
            },
            "tree": {"$ref": "#/$defs/node"},
        },
        "additionalProperties": {"not": {"type": "string"}},
        "$defs": {"node": NODE},
    },
    "open": {"type": "object", "patternProperties": {"^x": {"type": "boolean"}}, "minProperties": 1},
}
TOOLS = [
    Tool(
        contract=ToolContract(name=name, description="fuzz", args_schema=schema, effect=effect),
        parameters=None,
        policy=Policy(enum_case=case),
    )
    for name, schema in SCHEMAS.items()
    for effect, case in (("read", "insensitive"), ("write", "strict"))
]
FUZZ = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check(result: Any) -> None:
    assert isinstance(result, ToolResult)
    json.dumps(result.to_dict())
    for error in result.errors:
        assert error.code
        assert error.problem


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: f"{t.name}-{t.effect}")
@FUZZ
@given(args=ARGS)
def test_arbitrary_argument_dicts_never_raise(tool: Tool, args: dict[str, Any]) -> None:
    check(tool.validate(args))


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: f"{t.name}-{t.effect}")
@FUZZ
@given(value=JSON_VALUES)
def test_arbitrary_json_values_and_text_never_raise(tool: Tool, value: Any) -> None:
    check(tool.validate(value))
    check(tool.validate(json.dumps(value)))


@FUZZ
@given(text=st.text(max_size=40))
def test_arbitrary_text_never_raises(text: str) -> None:
    check(TOOLS[0].validate(text))


SIMPLE_SCHEMAS = [
    {"type": "integer", "minimum": 1, "maximum": 100},
    {"type": "number", "exclusiveMinimum": 0, "maximum": 1.5},
    {"type": "string", "minLength": 1, "maxLength": 5},
    {"type": "string", "enum": ["open", "closed"]},
    {"type": "string", "format": "date"},
    {"type": "string", "pattern": "^[a-z]+$"},
    {"type": "boolean"},
    {"type": "array", "items": {"type": "integer", "maximum": 100}, "maxItems": 2},
]
FAST_VALUES = (
    JSON_SCALARS
    | st.sampled_from(["open", "OPEN", "2026-08-07", "abc", "", 10.0, 100, 101, 0, 1.5])
    | st.lists(st.integers(0, 120) | st.sampled_from([1.0, True, "1"]), max_size=3)
)


@pytest.mark.parametrize("schema", SIMPLE_SCHEMAS, ids=lambda s: "-".join(str(v) for v in s.values()))
@FUZZ
@given(value=FAST_VALUES)
def test_the_fast_path_accepts_exactly_what_the_full_check_passes_unchanged(schema: dict[str, Any], value: Any) -> None:
    from toolkit._validation._checks import Run
    from toolkit._validation._compile import Options, compile_schema
    from toolkit._validation._fastpath import fast_array_predicate, fast_predicate

    predicate = fast_predicate(schema) or fast_array_predicate(schema)
    assert predicate is not None
    for options in (Options(), Options(clamp=True, enum_insensitive=True)):
        run = Run()
        cleaned = compile_schema(schema, options)(value, None, run)
        same = json.dumps(cleaned) == json.dumps(value)  # 10.0 -> 10 is a change, though 10.0 == 10
        unchanged = not run.errors and not run.notices and same
        assert predicate(value) == unchanged


# -- fixtures on schemas nobody wrote ---------------------------------------------------------------------
BOUND = st.integers(-5, 50)
SCALAR_SCHEMAS = (
    st.fixed_dictionaries(
        {"type": st.just("integer")},
        optional={"minimum": BOUND, "maximum": BOUND, "exclusiveMinimum": BOUND, "multipleOf": st.sampled_from([1, 5]),
                  "default": BOUND, "format": st.just("int32")},
    )
    | st.fixed_dictionaries(
        {"type": st.just("number")},
        optional={"minimum": st.floats(-5, 5), "maximum": st.floats(0, 50), "exclusiveMaximum": BOUND},
    )
    | st.fixed_dictionaries(
        {"type": st.just("string")},
        optional={"minLength": st.integers(0, 5), "maxLength": st.integers(0, 12),
                  "format": st.sampled_from(["date", "date-time", "uuid", "email", "uri", "binary"]),
                  "pattern": st.sampled_from(["^[a-z]+$", "^ord_[0-9]{4}$", r"^\d{3}-\d{2}$", "[A-Z]", "^(a|b)c*$"]),
                  "default": st.sampled_from(["x", "", "abc"])},
    )
    | st.fixed_dictionaries(
        {"type": st.just("string"),
         "enum": st.lists(st.sampled_from(["open", "Closed", "OPEN", "a_b"]), min_size=1, max_size=3, unique=True)}
    )
    | st.fixed_dictionaries({"type": st.just("boolean")}, optional={"default": st.booleans()})
    | st.just({})
)  # fmt: skip
NAMES = st.sampled_from(["a", "b", "c"])


def _nested(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    objects = st.builds(
        lambda props, req, closed: {"type": "object", "properties": props, "required": sorted(set(props) & req),
                                    **({"additionalProperties": False} if closed else {})},
        st.dictionaries(NAMES, children, max_size=3), st.sets(NAMES), st.booleans(),
    )  # fmt: skip
    arrays = st.builds(
        lambda items, low, high, unique: {"type": "array", "items": items,
                                          **({"minItems": low} if low is not None else {}),
                                          **({"maxItems": high} if high is not None else {}),
                                          **({"uniqueItems": True} if unique else {})},
        children, st.none() | st.integers(0, 3), st.none() | st.integers(0, 4), st.booleans(),
    )  # fmt: skip
    return objects | arrays | st.builds(lambda s: {"anyOf": [s, {"type": "null"}]}, children)


ARG_SCHEMAS = st.builds(
    lambda props, req: {"type": "object", "properties": props, "required": sorted(set(props) & req),
                        "additionalProperties": False},
    st.dictionaries(st.sampled_from(["p", "q", "r", "limit"]), st.recursive(SCALAR_SCHEMAS, _nested, max_leaves=6),
                    min_size=1, max_size=4),
    st.sets(st.sampled_from(["p", "q", "r"])),
)  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    schema=ARG_SCHEMAS,
    effect=st.sampled_from(["read", "write"]),
    enum_case=st.sampled_from(["strict", "insensitive"]),
    null_optional=st.sampled_from(["absent", "reject"]),
)
def test_generated_fixtures_agree_with_the_validator_on_random_schemas(
    schema: dict[str, Any], effect: str, enum_case: str, null_optional: str
) -> None:
    from toolkit import fire

    tool = Tool(
        contract=ToolContract(name="t", description="fuzz", args_schema=schema, effect=effect),  # type: ignore[arg-type]
        parameters=None,
        policy=Policy(enum_case=enum_case, null_optional=null_optional),  # type: ignore[arg-type]
    )
    report = fire(tool)
    assert report.failures == (), report.summary()


DEF_NAMES = ["A", "B", "C", "D"]
REFS = st.sampled_from(DEF_NAMES).map(lambda name: {"$ref": f"#/$defs/{name}"})
LEAVES = st.sampled_from([{"type": "string"}, {"type": "integer"}, {"type": "null"}, {"minLength": 2}])
DEFINITIONS = st.one_of(
    st.tuples(st.sampled_from(["anyOf", "oneOf", "allOf"]), st.lists(REFS | LEAVES, min_size=1, max_size=12)).map(
        lambda pair: {pair[0]: pair[1]}
    ),
    REFS.map(lambda ref: {"not": ref}),
    REFS.map(lambda ref: {"type": "object", "properties": {"p": ref}}),
    REFS.map(lambda ref: {"type": "array", "items": ref}),
    LEAVES,
)


def _left_recursive(defs: dict[str, Any], start: str) -> bool:
    """The oracle: from ``start`` (following every reference), can a definition reach itself in place?"""

    def refs(node: Any, in_place: bool) -> list[tuple[str, bool]]:
        found = []
        for key in ("anyOf", "oneOf", "allOf"):
            found += [(b["$ref"].rsplit("/", 1)[1], in_place) for b in node.get(key, []) if "$ref" in b]
        if "not" in node:
            found.append((node["not"]["$ref"].rsplit("/", 1)[1], in_place))
        for sub in [*node.get("properties", {}).values(), node.get("items", {})]:
            found += [(sub["$ref"].rsplit("/", 1)[1], False)] if "$ref" in sub else []
        return found

    reachable = {start}
    todo = [start]
    while todo:
        for name, _ in refs(defs[todo.pop()], True):
            if name not in reachable:
                reachable.add(name)
                todo.append(name)
    for origin in reachable:
        seen, todo = set(), [origin]
        while todo:
            for name, in_place in refs(defs[todo.pop()], True):
                if in_place and name == origin:
                    return True
                if in_place and name not in seen:
                    seen.add(name)
                    todo.append(name)
    return False


@pytest.mark.timeout(60)
@FUZZ
@given(defs=st.fixed_dictionaries(dict.fromkeys(DEF_NAMES, DEFINITIONS)), value=JSON_VALUES)
def test_random_reference_graphs_are_refused_exactly_when_left_recursive(defs: dict[str, Any], value: Any) -> None:
    schema = {"type": "object", "properties": {"x": {"$ref": "#/$defs/A"}}, "$defs": defs}
    tool = Tool(contract=ToolContract(name="graph", description="Random graph.", args_schema=schema),
                parameters=None, policy=Policy())  # fmt: skip
    if _left_recursive(defs, "A"):
        with pytest.raises(SchemaError) as caught:
            tool.validate({"x": value})
        assert caught.value.slug == "left_recursive_ref"
    else:
        check(tool.validate({"x": value}))
