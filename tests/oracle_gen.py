"""Seeded (schema, instance) pairs in the tool subset of JSON Schema 2020-12, and toolkit's verdict on them.

:func:`cases` draws the pairs: a root object schema with properties, nodes drawn from every keyword the tool
subset uses, and per schema a few instances -- a best-effort valid witness, near misses made by mutating it,
and random values (``1`` vs ``1.0``, ``-0.0``, huge integers, NaN, unicode strings). Deterministic per seed.

:func:`toolkit_outcome` is the one place that reaches the validator (build a tool from the schema, call
``validate``), with the policies that keep it a plain validator: an explicit ``null`` is a value
(``null_optional="reject"``) and numbers are never clamped. The oracle it is held to is in ``oracle_judges``.
"""

from __future__ import annotations

import copy
import json
import math
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import quote

from referencing import Registry
from referencing.jsonschema import DRAFT202012

from toolkit._contract import Policy, ToolContract
from toolkit._exceptions import ToolkitError
from toolkit._tool import build_tool

Verdict = Literal["valid", "invalid", "refused", "undecided"]

CLOSE_OBJECTS = True
"""When true (toolkit's default policy, ``Policy.unlisted_properties="refuse"``), the oracle reads the schema
through :func:`close_objects`; when false, toolkit runs with ``unlisted_properties="allow"`` and the oracle
reads the schema as written."""
WRITTEN = False
"""When true (with :data:`CLOSE_OBJECTS`), the oracle reads the ``args_schema`` toolkit's tool states, its
closure written in, instead of :func:`close_objects`: any 2020-12 validator given it must agree."""


# -- toolkit ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Outcome:
    """toolkit's answer: its verdict, the slug when it refused the schema, and the notice actions it gave."""

    verdict: Verdict
    slug: str | None = None
    notices: tuple[str, ...] = ()


_MEMO: dict[tuple[str, str, bool, bool], Any] = {}


def memo(kind: str, schema: Any, make: Any, forget: bool = False) -> Any:
    """One tool, validator or reference check per schema text: several instances meet each schema."""
    key = (kind, json.dumps(schema, sort_keys=True, default=repr), CLOSE_OBJECTS, WRITTEN)
    if forget:
        return _MEMO.pop(key, None)
    if key not in _MEMO:
        if len(_MEMO) > 2048:
            _MEMO.clear()
        _MEMO[key] = make()
    return _MEMO[key]


def _tool(schema: Mapping[str, Any]) -> Any:
    def tool() -> Any:
        contract = ToolContract(name="t", description="d", args_schema=copy.deepcopy(schema), source="schema")
        try:
            unlisted = "refuse" if CLOSE_OBJECTS else "allow"
            return build_tool(
                contract, policy=Policy(null_optional="reject", clamp=False, unlisted_properties=unlisted)
            )
        except ToolkitError as exc:
            return exc

    return memo("toolkit", schema, tool)


def oracle_schema(schema: Any) -> Any:
    """What the oracle reads: ``schema`` as written, closed by :func:`close_objects`, or (:data:`WRITTEN`) the
    ``args_schema`` of toolkit's tool (``schema`` itself when toolkit refused it)."""
    if not CLOSE_OBJECTS:
        return schema
    if not WRITTEN:
        return close_objects(schema)
    built = _tool(schema) if isinstance(schema, dict) else None
    return schema if built is None or isinstance(built, ToolkitError) else built.args_schema


def toolkit_outcome(schema: Mapping[str, Any], instance: Any) -> Outcome:
    """The validator's verdict on ``instance``: the one call site of the validator in the oracle machinery."""
    try:
        built = _tool(schema)
        if isinstance(built, ToolkitError):
            raise built
        result = built.validate(instance)
    except ToolkitError as exc:
        # a fresh tool next time: a tool that once refused its schema accepts on the next call (see the
        # test of that in test_validation_oracle.py), and each verdict here must be the first call's
        memo("toolkit", schema, None, forget=True)
        return Outcome("refused", slug=exc.slug)
    envelope = result.to_dict()
    actions = tuple(sorted({notice["action"] for notice in envelope.get("notices") or ()}))
    return Outcome("valid" if result.status == "ok" else "invalid", notices=actions)


_ENTRY_ONE = ("additionalProperties", "items", "contains", "unevaluatedProperties", "unevaluatedItems")
_ENTRY_MAP = ("properties", "patternProperties")
_SCHEMA_ONE = (*_ENTRY_ONE, "not", "if", "then", "else", "propertyNames")
_SCHEMA_MAP = (*_ENTRY_MAP, "$defs", "dependentSchemas")
_SCHEMA_LIST = ("allOf", "anyOf", "oneOf", "prefixItems")


def _children(node: dict[str, Any]) -> Iterator[tuple[Any, bool]]:
    """Each subschema of ``node``, and whether it is where a new instance (a property, an item) is entered."""
    for key in _SCHEMA_ONE:
        if key in node:
            yield node[key], key in _ENTRY_ONE
    for key in _SCHEMA_MAP:
        if isinstance(node.get(key), dict):
            yield from ((sub, key in _ENTRY_MAP) for sub in node[key].values())
    for key in _SCHEMA_LIST:
        if isinstance(node.get(key), list):
            yield from ((sub, key == "prefixItems") for sub in node[key])


def _silent(node: Any) -> bool:
    return (
        isinstance(node, dict)
        and "properties" in node
        and not {"additionalProperties", "unevaluatedProperties"} & set(node)
    )


def _in_place(node: Any, lookup: Any) -> Iterator[Any]:
    """``node`` and what applies to the same instance beside it: $ref targets, allOf/anyOf/oneOf, then/else,
    dependentSchemas (what 2020-12 counts for unevaluatedProperties, minus if and not)."""
    todo, seen = [node], set()
    while todo:
        here = todo.pop()
        if not isinstance(here, dict) or id(here) in seen:
            continue
        seen.add(id(here))
        yield here
        todo.extend(lookup(here[k]) for k in ("$ref", "$dynamicRef") if isinstance(here.get(k), str))
        for key in ("allOf", "anyOf", "oneOf"):
            todo.extend(here.get(key) or ())
        if "then" in here or "else" in here:
            todo.extend(here[k] for k in ("then", "else") if k in here)
        todo.extend((here.get("dependentSchemas") or {}).values())


def close_objects(schema: Any) -> Any:
    """A copy of ``schema`` that says what ``Policy.unlisted_properties="refuse"`` means, in plain 2020-12.

    Where an instance is entered (the root, a property's value, an item ...), if that schema or anything
    applied to the same value in place lists ``properties`` and says nothing of ``additionalProperties`` or
    ``unevaluatedProperties``, it gets ``unevaluatedProperties: false``; and every schema that says nothing
    of those two lists its ``required`` names in ``properties`` (as ``true``). Decided on the schema as
    written, then applied. Where ``allOf`` siblings each declare one property, each closes on its own here
    (the generator draws no such pair): :data:`WRITTEN` holds the oracle to toolkit's own written form.
    """
    out = copy.deepcopy(schema)
    if not isinstance(out, dict):
        return out
    try:
        resolver = Registry().with_resource("urn:close", DRAFT202012.create_resource(out)).resolver("urn:close")
    except Exception:
        return out

    def lookup(ref: str) -> Any:
        try:
            return resolver.lookup(ref).contents
        except Exception:
            return None

    entries: list[dict[str, Any]] = []
    nodes: list[dict[str, Any]] = []
    todo: list[tuple[Any, bool]] = [(out, True)]
    seen: set[int] = set()
    while todo:
        node, entry = todo.pop()
        if not isinstance(node, dict) or id(node) in seen:
            continue
        seen.add(id(node))
        nodes.append(node)
        if entry and "unevaluatedProperties" not in node and any(_silent(n) for n in _in_place(node, lookup)):
            entries.append(node)
        todo.extend(_children(node))
    listed = [
        n
        for n in nodes
        if isinstance(n.get("required"), list) and not {"additionalProperties", "unevaluatedProperties"} & set(n)
    ]
    for node in entries:
        node["unevaluatedProperties"] = False
    for node in listed:
        properties = node.setdefault("properties", {})
        if isinstance(properties, dict):
            for name in node["required"]:
                if isinstance(name, str):
                    properties.setdefault(name, True)
    return out


# -- pools -----------------------------------------------------------------------------------------
PATTERNS: dict[str, tuple[str, ...]] = {
    r"^[a-z]+$": ("abc", "abc\n", "Abc", ""),
    r"^\d{3}$": ("123", "١٢٣", "12", "123\n"),
    r"^\S+$": ("ab", "a b", "a\u00a0b", "a\ufeffb"),
    r"^\s$": (" ", "\u3000", "\u00a0", "\ufeff", "x"),
    r"^.$": ("a", "\n", "\u2028", "\r", "😀"),
    r"^\w+$": ("abc_1", "é", "a-b"),
    r"^\p{L}+$": ("été", "abc", "123"),
    r"^(?<n>x)+$": ("xx", "y"),
    r"^a\cJb$": ("a\nb", "ab", "acJb"),
    r"^[^]$": ("\n", "a", "ab"),
    r"^[A-Z]{2}-\d+$": ("AB-12", "ab-12", "AB-١"),
    r"colou?r": ("color", "colour", "colr"),
    r"^$": ("", "\n"),
    r"^x": ("xa", "ax"),
    r"b$": ("ab", "ab\n", "ba"),
}
KEY_PATTERNS = (r"^x", r"b$", r"^\p{L}+$", r"^\d+$", r"^.$")
FORMATS: dict[str, tuple[str, ...]] = {
    "date": ("2026-08-07", "2026-02-30", "20260807", "2026-8-7", "2024-02-29"),
    "date-time": ("2026-08-07T14:02:00Z", "2026-08-07 14:02:00Z", "2026-08-07T22:59:60Z", "2016-12-31T23:59:60Z",
                  "2026-08-07T14:02:00", "2026-08-07t14:02:00z", "2026-08-07T14:02:00.5+02:00", "2026-08-07T24:00:00Z"),
    "time": ("14:02:00Z", "14:02:00", "23:59:60Z", "14:02:00+02:00", "14:02", "14:02:00.123-05:30"),
    "email": ("name@example.com", "a@[127.0.0.1]", "a..b@c.d", ".a@b.c", "a@b", '"a b"@c.d', "a@-b.c", "é@x.y"),
    "uuid": ("123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000",
             "123e4567e89b12d3a456426614174000", "{123e4567-e89b-12d3-a456-426614174000}"),
    "uri": ("https://example.com/path", "relative/path", "http://[::1]/", "a:b", "http://ex ample.com",
            "http://é.com", "urn:isbn:0451450523"),
    "ipv4": ("192.0.2.1", "256.0.0.1", "01.2.3.4", "1.2.3", "١.2.3.4"),
    "ipv6": ("2001:db8::1", "::1", "1::2::3", "fe80::1%eth0", "::ffff:1.2.3.4"),
    "hostname": ("api.example.com", "-a.com", "a_b.com", "a" * 64 + ".com", "xn--bcher-kva.example", "é.com"),
    "duration": ("P3D", "PT2H", "P", "PT", "P1W", "P1Y2W", "PT1.5S", "P1DT"),
    "int32": (),
}  # fmt: skip
STEPS = (0.1, 0.01, 1e-10, 0.5, 3, 2.5, 10**20, 2**53 + 1)
STRINGS = ("", "a", "ab", "abc", "xa", "1", "2", "1.0", "true", "null", "é", "a\u00a0b", "\u3000", "\u2028",
           "١٢٣", "😀", "e\u0301", "abc\n", " x ")  # fmt: skip
NUMBERS = (0, 1, 1.0, -1, 2, 2.0, 0.5, -0.0, 0.3, 1e-10, 3, 10**20, 2**53 + 1, 2**64, 1e308, 10**400)
EXOTIC = (float("nan"), float("inf"), float("-inf"))
NAMES = ("a", "b", "xa", "xb", "c d", "ñ")
DEF_NAMES = ("Item", "Thing", "Other", "x~y", "p/q", "a b", "100%", "ünï")


def pointer(name: str) -> str:
    """The ``$ref`` to ``#/$defs/<name>``: the token ``~``/``/``-escaped, then percent-encoded for a fragment."""
    token = name.replace("~", "~0").replace("/", "~1")
    return "#/$defs/" + quote(token, safe="~!$&'()*+,;=:@")


@dataclass(frozen=True, slots=True)
class Case:
    seed: int
    schema: dict[str, Any]
    instance: Any


# -- schemas ---------------------------------------------------------------------------------------
class _Schemas:
    """Draws one root schema: nodes from every keyword family, bounded depth and width."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.refs: list[str] = []  # refs a node may use (only to finished definitions: no left recursion)
        self.anchors: list[str] = []

    def root(self) -> dict[str, Any]:
        rng = self.rng
        defs: dict[str, Any] = {}
        for name in rng.sample(DEF_NAMES, rng.choice((0, 0, 1, 2))):
            defs[name] = self.node(1)
            self.refs.append(pointer(name))
        if rng.random() < 0.15:  # recursion through a property: fine, each step reads a smaller value
            defs["node"] = {
                "type": "object",
                "properties": {"v": {"type": "integer"}, "next": {"$ref": "#/$defs/node"}},
            }
            self.refs.append("#/$defs/node")
        if rng.random() < 0.1:
            defs["Dyn"] = {"$dynamicAnchor": "dyn", **self.scalar()}
            self.anchors.append("dyn")
        if rng.random() < 0.05:
            defs["Anc"] = {"$anchor": "anc", **self.scalar()}
            self.refs.append("#anc")
        schema = self.object(2, at_root=True)
        if defs:
            schema["$defs"] = defs
        return schema

    def node(self, depth: int) -> Any:
        rng = self.rng
        kinds = ["scalar"] * 8 + ["enum", "const", "types", "empty"]
        if depth > 0:
            kinds += ["array"] * 2 + ["object"] * 2 + ["anyOf", "oneOf", "allOf", "not", "if"]
        if self.refs:
            kinds += ["ref"] * 2
        if self.anchors:
            kinds.append("dynamic")
        kind = rng.choice(kinds)
        node: Any = getattr(self, kind)(depth - 1) if kind in ("array", "object") else self.simple(kind, depth - 1)
        if isinstance(node, dict) and rng.random() < 0.12:
            node["default"] = _Values(rng, self.refs).witness(node, 2, self.lookup)
        return node

    def lookup(self, ref: str) -> Any:
        return None  # witnesses for defaults do not follow references

    def simple(self, kind: str, depth: int) -> Any:
        rng = self.rng
        if kind == "scalar":
            return self.scalar()
        if kind == "empty":
            return rng.choice(({}, True, {"description": "anything"}))
        if kind == "enum":
            return {"enum": rng.sample([*STRINGS[:6], *NUMBERS[:8], None, True, [1], {"a": 1}], rng.randint(1, 4))}
        if kind == "const":
            return {"const": rng.choice([*STRINGS[:5], *NUMBERS[:7], None, False, [1, 2], {"a": 1}])}
        if kind == "types":
            return {"type": rng.sample(["string", "integer", "number", "null", "boolean", "array", "object"], 2)}
        if kind == "ref":
            ref = {"$ref": rng.choice(self.refs)}
            return ref if rng.random() < 0.8 else {**ref, **self.scalar()}
        if kind == "dynamic":
            return {"$dynamicRef": rng.choice(("#dyn", "#/$defs/Dyn"))}
        if kind in ("anyOf", "oneOf", "allOf"):
            return {kind: [self.node(depth) for _ in range(rng.randint(1, 3))]}
        if kind == "not":
            return {"not": self.node(depth)}
        out = {"if": self.node(depth), "then": self.node(depth)}
        if rng.random() < 0.6:
            out["else"] = self.node(depth)
        return out

    def scalar(self) -> dict[str, Any]:
        rng = self.rng
        kind = rng.choice(("string", "string", "integer", "number", "boolean", "null"))
        out: dict[str, Any] = {"type": kind} if rng.random() < 0.9 else {}
        if kind == "string":
            if rng.random() < 0.3:
                out["minLength" if rng.random() < 0.5 else "maxLength"] = rng.randint(0, 3)
            if rng.random() < 0.3:
                out["pattern"] = rng.choice(list(PATTERNS))
            elif rng.random() < 0.35:
                out["format"] = rng.choice([f for f in FORMATS if f != "int32"])
        elif kind in ("integer", "number"):
            for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
                if rng.random() < 0.15:
                    out[key] = rng.choice((0, 1, 2.5, -1, 100, 10**20))
            if rng.random() < 0.35:
                out["multipleOf"] = rng.choice(STEPS)
            if kind == "integer" and rng.random() < 0.05:
                out["format"] = "int32"
        if kind != "null" and rng.random() < 0.03:
            out["nullable"] = True  # OpenAPI 3.0's spelling, honoured on purpose
        return out

    def array(self, depth: int) -> dict[str, Any]:
        rng = self.rng
        out: dict[str, Any] = {"type": "array"} if rng.random() < 0.85 else {}
        if rng.random() < 0.3:
            out["prefixItems"] = [self.node(depth) for _ in range(rng.randint(1, 2))]
        if rng.random() < 0.7:
            out["items"] = self.node(depth) if rng.random() < 0.9 else False
        if rng.random() < 0.2:
            out["contains"] = self.node(depth)
            if rng.random() < 0.5:
                out["minContains" if rng.random() < 0.5 else "maxContains"] = rng.randint(0, 2)
        for key in ("minItems", "maxItems"):
            if rng.random() < 0.2:
                out[key] = rng.randint(0, 3)
        if rng.random() < 0.2:
            out["uniqueItems"] = True
        if rng.random() < 0.1:
            out["allOf"] = [{"prefixItems": [self.node(depth)]}]
            out["unevaluatedItems"] = False if rng.random() < 0.7 else self.scalar()
        return out

    def object(self, depth: int, at_root: bool = False) -> dict[str, Any]:
        rng = self.rng
        names = rng.sample(NAMES, rng.randint(2, 4) if at_root else rng.randint(1, 3))
        out: dict[str, Any] = {"type": "object"} if at_root or rng.random() < 0.85 else {}
        out["properties"] = {name: self.node(depth) for name in names}
        if rng.random() < 0.6:
            out["required"] = rng.sample(names, rng.randint(1, len(names))) + (["zz"] if rng.random() < 0.05 else [])
            for name in out["required"]:
                if name in out["properties"] and rng.random() < 0.03 and isinstance(out["properties"][name], dict):
                    out["properties"][name]["readOnly"] = True  # never required in a request, on purpose
        roll = rng.random()
        if roll < 0.35:
            out["additionalProperties"] = False
        elif roll < 0.45:
            out["additionalProperties"] = self.scalar()
        if rng.random() < 0.15:
            out["patternProperties"] = {rng.choice(KEY_PATTERNS): self.scalar()}
        if rng.random() < 0.1:
            out["propertyNames"] = rng.choice(
                ({"maxLength": 1}, {"pattern": rng.choice(KEY_PATTERNS)}, {"enum": names}, {"not": {"const": "b"}})
            )
        for key in ("minProperties", "maxProperties"):
            if rng.random() < 0.1:
                out[key] = rng.randint(0, 3)
        if rng.random() < 0.1:
            out["dependentRequired"] = {rng.choice(names): [rng.choice([*names, "zz"])]}
        if rng.random() < 0.1:
            out["dependentSchemas"] = {rng.choice(names): rng.choice(
                ({"required": [rng.choice(names)]}, {"properties": {rng.choice(names): self.scalar()}},
                 {"maxProperties": 1}))}  # fmt: skip
        if rng.random() < 0.1:
            out["allOf"] = [{"properties": {rng.choice(NAMES): self.node(0)}}]
            out["unevaluatedProperties"] = False if rng.random() < 0.7 else self.scalar()
        return out


# -- instances -------------------------------------------------------------------------------------
class _Values:
    """Best-effort valid witnesses, near misses made by mutating them, and random JSON-ish values."""

    def __init__(self, rng: random.Random, refs: list[str]) -> None:
        self.rng = rng
        self.refs = refs

    def random(self, depth: int = 2) -> Any:
        rng = self.rng
        roll = rng.random()
        if roll < 0.35:
            return rng.choice(STRINGS)
        if roll < 0.7:
            return rng.choice(NUMBERS) if rng.random() < 0.97 else rng.choice(EXOTIC)
        if roll < 0.8 or depth <= 0:
            return rng.choice((None, True, False))
        if roll < 0.9:
            return [self.random(depth - 1) for _ in range(rng.randint(0, 3))]
        return {rng.choice(NAMES): self.random(depth - 1) for _ in range(rng.randint(0, 3))}

    def witness(self, schema: Any, depth: int, lookup: Any) -> Any:
        rng = self.rng
        if not isinstance(schema, dict) or depth < 0:
            return self.random(1)
        if "$ref" in schema:
            target = lookup(schema["$ref"])
            if target is not None:
                return self.witness(target, depth - 1, lookup)
        if "const" in schema:
            return copy.deepcopy(schema["const"])
        if "enum" in schema:
            return copy.deepcopy(rng.choice(schema["enum"]))
        for key in ("anyOf", "oneOf", "allOf"):
            if key in schema:
                return self.witness(rng.choice(schema[key]), depth - 1, lookup)
        kind = schema.get("type")
        kind = rng.choice(kind) if isinstance(kind, list) else kind or _implied_type(schema)
        if kind in ("string", "integer", "number"):
            return self.scalar(kind, schema)
        if kind == "array":
            return self.array(schema, depth, lookup)
        if kind == "object":
            return self.object(schema, depth, lookup)
        return {"boolean": rng.random() < 0.5, "null": None}.get(kind or "", self.random(1))

    def scalar(self, kind: str, schema: Mapping[str, Any]) -> Any:
        rng = self.rng
        if kind == "string":
            if schema.get("pattern") in PATTERNS and rng.random() < 0.8:
                return rng.choice(PATTERNS[schema["pattern"]])
            if FORMATS.get(schema.get("format", "")) and rng.random() < 0.8:
                return rng.choice(FORMATS[schema["format"]])
            return rng.choice(STRINGS[: 4 + schema.get("maxLength", 15)])
        step = schema.get("multipleOf")
        if step is not None and rng.random() < 0.7:
            k = rng.choice((0, 1, 2, 3, 7, 10, 2**60))
            return k * step if rng.random() < 0.7 else float(k) * step
        low = next((schema[k] for k in ("minimum", "exclusiveMinimum") if k in schema), None)
        if low is not None and rng.random() < 0.5:
            return low + rng.choice((0, 1, 0.5))
        return rng.choice(NUMBERS[:6] if kind == "integer" else NUMBERS[:10])

    def array(self, schema: Mapping[str, Any], depth: int, lookup: Any) -> list[Any]:
        rng = self.rng
        out = [self.witness(s, depth - 1, lookup) for s in schema.get("prefixItems", ())]
        for _ in range(rng.randint(0, 2)):
            out.append(self.witness(schema.get("items", {}), depth - 1, lookup))
        if "contains" in schema and rng.random() < 0.7:
            out.append(self.witness(schema["contains"], depth - 1, lookup))
        return out

    def object(self, schema: Mapping[str, Any], depth: int, lookup: Any) -> dict[str, Any]:
        rng = self.rng
        properties = schema.get("properties", {})
        names = [n for n in properties if n in schema.get("required", ()) or rng.random() < 0.6]
        out = {name: self.witness(properties[name], depth - 1, lookup) for name in names}
        if "patternProperties" in schema and rng.random() < 0.4:
            out[rng.choice(("xq", "ab", "é", "12", "z"))] = self.random(0)
        return out

    def mutate(self, value: Any) -> Any:
        """A near miss: one change at one randomly chosen place in ``value``."""
        rng = self.rng
        if isinstance(value, dict) and value and rng.random() < 0.6:
            key = rng.choice(list(value))
            return {**value, key: self.mutate(value[key])}
        if isinstance(value, list) and value and rng.random() < 0.6:
            i = rng.randrange(len(value))
            return [*value[:i], self.mutate(value[i]), *value[i + 1 :]]
        return self.change(value)

    def change(self, value: Any) -> Any:
        rng = self.rng
        if isinstance(value, dict):
            options = [{**value, rng.choice(("zz", "xq", "b", "a")): self.random(1)}]
            options += [{k: v for k, v in value.items() if k != drop} for drop in value]
            options += [{**value, k: None} for k in value]
            return rng.choice(options)
        if isinstance(value, list):
            return rng.choice(([*value, *value[:1]], value[1:], [*value, self.random(1)], value[::-1]))
        if isinstance(value, bool) or value is None:
            return rng.choice((not value, 0, "true", None if value is not None else False))
        if isinstance(value, int | float):
            if isinstance(value, float) and not math.isfinite(value):
                return 0
            half = value // 2 if isinstance(value, int) else value * 0.5
            as_float = float(value) if abs(value) < 1e300 else 1e308
            changes = (value + 1, value - 1, half, as_float, -0.0, str(value), True, 10**400)
            return rng.choice(changes) if rng.random() < 0.97 else rng.choice(EXOTIC)
        if isinstance(value, str):
            return rng.choice((value + "\n", value + "x", value[:-1], rng.choice(STRINGS), 1, value.upper()))
        return self.random(1)


def _implied_type(schema: Mapping[str, Any]) -> str | None:
    for kind, keys in (
        ("object", ("properties", "required", "patternProperties", "additionalProperties")),
        ("array", ("items", "prefixItems", "contains", "minItems", "uniqueItems")),
        ("string", ("pattern", "format", "minLength", "maxLength")),
        ("number", ("minimum", "maximum", "multipleOf", "exclusiveMinimum", "exclusiveMaximum")),
    ):
        if any(k in schema for k in keys):
            return kind
    return None


def _resolver(schema: Mapping[str, Any]) -> Any:
    defs = schema.get("$defs", {})
    by_ref = {pointer(name): sub for name, sub in defs.items()} | {"#/$defs/node": defs.get("node")}
    by_ref |= {"#anc": defs.get("Anc"), "#dyn": defs.get("Dyn"), "#/$defs/Dyn": defs.get("Dyn")}
    return by_ref.get


def cases(seed: int, count: int, per_schema: int = 8) -> Iterator[Case]:
    """``count`` cases from ``seed``: ``per_schema`` instances for each schema drawn (the same every run)."""
    made = 0
    for n in range(math.ceil(count / per_schema)):
        rng = random.Random(f"{seed}:{n}")
        draw = _Schemas(rng)
        schema = draw.root()
        values = _Values(rng, draw.refs)
        lookup = _resolver(schema)
        witness = values.witness(schema, 4, lookup)
        for i in range(min(per_schema, count - made)):
            if i == 0:
                instance = witness
            elif i < per_schema - 2:
                instance = values.mutate(witness if rng.random() < 0.7 else values.witness(schema, 4, lookup))
            else:
                instance = {name: values.random() for name in rng.sample(NAMES, rng.randint(0, 3))}
            made += 1
            yield Case(seed=seed * 1_000_000 + n, schema=schema, instance=instance)


def dumps(value: Any) -> str:
    """Compact JSON for reports (``NaN`` and huge integers shown as Python writes them)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


__all__ = [
    "CLOSE_OBJECTS",
    "WRITTEN",
    "Case",
    "Outcome",
    "Verdict",
    "cases",
    "close_objects",
    "dumps",
    "memo",
    "oracle_schema",
    "pointer",
]
__all__ += ["toolkit_outcome"]
