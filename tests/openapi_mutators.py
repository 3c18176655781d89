"""The tree mutators behind :mod:`openapi_mutations`: each takes a parsed document and a seeded
``random.Random`` and returns the mutated document, changed in place where it can be (its root may be new).
Those marked *dict only* leave values that no JSON or YAML text can carry (object cycles, non-string keys,
bytes, huge Python ints), so their case is a dict. The text mutators are in :mod:`openapi_text_mutators`.
"""

from __future__ import annotations

import decimal
import gc
import math
import random
import types
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

Tree = Any
TreeMutator = Callable[[Tree, random.Random], Tree]

DEEP = 100_000
HUGE_DIGITS = 5_000
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


# -- where to mutate ---------------------------------------------------------------------------------------
def slots(tree: Tree, limit: int = 5_000) -> list[tuple[Any, Any]]:
    """(container, key or index) of the values under ``tree`` (the first ``limit``, breadth first)."""
    found: list[tuple[Any, Any]] = []
    seen: set[int] = set()
    queue = deque([tree] if isinstance(tree, (dict, list)) else [])
    while queue and len(found) < limit:
        node = queue.popleft()
        if id(node) in seen:
            continue
        seen.add(id(node))
        items = list(node.items()) if isinstance(node, dict) else list(enumerate(node))
        for key, value in items:
            found.append((node, key))
            if isinstance(value, (dict, list)):
                queue.append(value)
    return found


def _containers(tree: Tree, rng: random.Random, want: Callable[[Any], bool] = lambda n: True) -> list[Any]:
    picked = [c[k] for c, k in slots(tree) if isinstance(c[k], (dict, list)) and want(c[k])]
    if isinstance(tree, (dict, list)) and want(tree):
        picked.append(tree)
    return picked


def _pick_dict(tree: Tree, rng: random.Random, key: str | None = None) -> dict[Any, Any] | None:
    dicts = _containers(tree, rng, lambda n: isinstance(n, dict) and (key is None or key in n))
    return rng.choice(dicts) if dicts else None


def _schemas(tree: Tree) -> list[dict[Any, Any]]:
    """Dicts that look like schemas (a ``type``, ``properties``, ``items`` or ``$ref``)."""
    keys = ("type", "properties", "items", "$ref", "enum", "allOf", "anyOf", "oneOf")
    return [c[k] for c, k in slots(tree) if isinstance(c[k], dict) and any(x in c[k] for x in keys)]


def _operations(tree: Tree) -> list[dict[Any, Any]]:
    paths = tree.get("paths") if isinstance(tree, dict) else None
    found = []
    for item in paths.values() if isinstance(paths, dict) else ():
        if isinstance(item, dict):
            found.extend(op for m, op in item.items() if m in HTTP_METHODS and isinstance(op, dict))
    return found


def opt_in(tree: Tree, rng: random.Random) -> None:
    """Mark about half the operations with ``x-agent-tool`` (sometimes with a hostile shape)."""
    for op in _operations(tree):
        if rng.random() < 0.5:
            op["x-agent-tool"] = rng.choice([True, True, {"confirm": False}, {"name": "x" * 200}, {"name": 3},
                                             {"description": ["d"]}, "yes", 1, [], {"policy": {}}])  # fmt: skip


# -- values ------------------------------------------------------------------------------------------------
class _Raising:
    """An object whose repr, str, eq and hash all raise."""

    def __repr__(self) -> str:
        raise RuntimeError("repr raised")

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq raised")

    def __hash__(self) -> int:
        raise RuntimeError("hash raised")


class _Text(str):
    pass


class _Map(dict):  # type: ignore[type-arg]
    pass


def json_value(rng: random.Random) -> Any:
    return rng.choice(["", " ", "\x00", "\u2028", "x" * 10_000, "ü€𝄞", "#/x", "{", -1, 0, 1, 2**63, -(2**64), 1e308,
                       -0.0, 1.5, True, False, None, [], {}, [None], {"": None}, [[[]]], {"a": {"b": {}}},
                       {"type": "string"}, ["string", "null"]])  # fmt: skip


def python_value(rng: random.Random) -> Any:
    """Values a dict source may hold that no JSON text can."""
    return rng.choice([(1, 2), {1, 2}, frozenset({"a"}), b"bytes", bytearray(b"x"), 10**HUGE_DIGITS,
                       -(10**HUGE_DIGITS), 2**70000, math.nan, math.inf, -math.inf, decimal.Decimal("1.5"),
                       complex(1, 2), object(), _Raising(), _Text("sub"), _Map(a=1), range(3),
                       types.MappingProxyType({"a": 1}), Path("/tmp"), ...])  # fmt: skip


def nested(rng: random.Random, depth: int = DEEP) -> Any:
    node: Any = {}
    shape = rng.choice(("dict", "list", "both"))
    paused = gc.isenabled()
    gc.disable()  # 10^5 fresh containers would set off a dozen full collections
    try:
        for i in range(depth):
            node = [node] if shape == "list" or (shape == "both" and i % 2) else {"a": node}
    finally:
        if paused:
            gc.enable()
    return node


# -- tree mutators -----------------------------------------------------------------------------------------
def _set_random(tree: Tree, rng: random.Random, value: Callable[[], Any]) -> Tree:
    found = slots(tree)
    if not found:
        return value()
    container, key = rng.choice(found)
    container[key] = value()
    return tree


def delete_key(tree: Tree, rng: random.Random) -> Tree:
    node = _pick_dict(tree, rng)
    if node:
        del node[rng.choice(list(node))]
    return tree


def duplicate_key(tree: Tree, rng: random.Random) -> Tree:
    """Copy a value under a sibling's key (or a second parameter into a list): a clash of names."""
    node = _pick_dict(tree, rng)
    if node and len(node) > 1:
        a, b = rng.sample(list(node), 2)
        node[b] = node[a]
    lists = [n for n in _containers(tree, rng) if isinstance(n, list) and n]
    if lists:
        target = rng.choice(lists)
        target.append(rng.choice(target))
    return tree


def retype_value(tree: Tree, rng: random.Random) -> Tree:
    return _set_random(tree, rng, lambda: json_value(rng))


def python_values(tree: Tree, rng: random.Random) -> Tree:
    return _set_random(tree, rng, lambda: python_value(rng))


def swap_values(tree: Tree, rng: random.Random) -> Tree:
    found = slots(tree)
    if len(found) > 1:
        (c1, k1), (c2, k2) = rng.sample(found, 2)
        c1[k1], c2[k2] = c2[k2], c1[k1]
    return tree


def shared_bomb(tree: Tree, rng: random.Random) -> Tree:
    """A "billion laughs" made of Python objects: one list shared ten times at each of 30 levels."""
    node: Any = ["laugh"] * 10
    for _ in range(30):
        node = [node] * 10
    return _set_random(tree, rng, lambda: node)


def odd_arguments(rng: random.Random) -> dict[str, Any]:
    """Other arguments of ``from_openapi`` given the wrong type or value."""
    return rng.choice([{"namespace": 3}, {"namespace": "1bad"}, {"namespace": _Raising()}, {"namespace": None},
                       {"select": {}},
                       {"select": _Raising()}, {"select": None}, {"include_deprecated": True},
                       {"namespace": "x" * 300}, {"namespace": ""}])  # fmt: skip


def share_values(tree: Tree, rng: random.Random) -> Tree:
    """One node placed in a second spot (a DAG: YAML text carries it as an anchor and aliases)."""
    found = slots(tree)
    if len(found) > 1:
        (c1, k1), (c2, k2) = rng.sample(found, 2)
        c1[k1] = c2[k2]
    return tree


_REFS = ["#/components/schemas/Nope", "https://example.com/x.json#/A", "other.yaml#/B", "./x.json", "#/a~2b",
         "#/%zz", "#/tags/%zz", "#/info/title/x%20", "#/paths/①", "#/tags/①", "#/tags/²", "#/tags/" + "9" * 5000,
         "#/", "#", "", "#anchor", "#/components/schemas/", "#/paths/~1x~", "#/paths/%2", "#/%FF%FE", "#/\ud800",
         "#/components/schemas/a%00b", "#/info", "#/paths", "#/definitions/" + "x" * 10_000,
         1, [], {}, None, {"$ref": "#"}]  # fmt: skip


def inject_ref(tree: Tree, rng: random.Random) -> Tree:
    """A ``$ref`` at a schema, parameter, body or path item: dangling, remote, cyclic or malformed."""
    targets = _schemas(tree) or _containers(tree, rng, lambda n: isinstance(n, dict))
    if not targets:
        return tree
    node = rng.choice(targets)
    if rng.random() < 0.3:
        pointers = [p for p in _pointers(tree) if p]
        node["$ref"] = rng.choice(pointers) if pointers else "#"  # often an ancestor: a cycle
    else:
        node["$ref"] = rng.choice(_REFS)
    return tree


def _pointers(tree: Tree, limit: int = 2000) -> list[str]:
    out: list[str] = []
    stack: list[tuple[Any, str]] = [(tree, "#")]
    while stack and len(out) < limit:
        node, here = stack.pop()
        out.append(here)
        if isinstance(node, dict):
            stack.extend(
                (v, f"{here}/{k.replace('~', '~0').replace('/', '~1')}") for k, v in node.items() if isinstance(k, str)
            )
    return out


def cycle(tree: Tree, rng: random.Random) -> Tree:
    """A Python object cycle: a container holds one of its ancestors (or itself)."""
    if not isinstance(tree, (dict, list)):
        return tree
    chains: list[list[Any]] = [[tree]]
    node = tree
    for _ in range(rng.randint(1, 12)):
        children = [v for v in (node.values() if isinstance(node, dict) else node) if isinstance(v, (dict, list))]
        if not children:
            break
        node = rng.choice(children)
        chains[0].append(node)
    chain = chains[0]
    holder, ancestor = chain[-1], rng.choice(chain)
    if isinstance(holder, dict):
        holder[rng.choice(["self", "items", "schema", "$ref", "properties"])] = ancestor
    elif isinstance(holder, list):
        holder.append(ancestor)
    return tree


def deep(tree: Tree, rng: random.Random) -> Tree:
    return _set_random(tree, rng, lambda: nested(rng))


def bad_keys(tree: Tree, rng: random.Random) -> Tree:
    """Integer, tuple, None, float and other non-string keys beside (or instead of) string ones."""
    node = _pick_dict(tree, rng)
    if node is not None:
        node[rng.choice([200, 1, -1, 10**HUGE_DIGITS, (1, "a"), None, 1.5, math.nan, True, frozenset(), b"k"])] = (
            json_value(rng)
        )
    return tree


def huge_int(tree: Tree, rng: random.Random) -> Tree:
    return _set_random(tree, rng, lambda: rng.choice([10**HUGE_DIGITS, -(10**HUGE_DIGITS) + 1, 2 ** (2**16)]))


def non_finite(tree: Tree, rng: random.Random) -> Tree:
    """NaN and infinities (JSON text from ``json.dumps`` spells them ``NaN``/``Infinity``)."""
    return _set_random(tree, rng, lambda: rng.choice([math.nan, math.inf, -math.inf]))


def bytes_value(tree: Tree, rng: random.Random) -> Tree:
    return _set_random(tree, rng, lambda: rng.choice([b"", b"\xff\xfe", b"string", bytearray(b"x")]))


def odd_type(tree: Tree, rng: random.Random) -> Tree:
    values = [[{"type": "string"}], [{}], 3, 3.5, None, [], ["string", 1], [["x"]], {"a": 1}, True, "file",
              "STRING", ["string", "string"], ["file"], "", ["null"], {"$ref": "#"}]  # fmt: skip
    schemas = _schemas(tree)
    for node in rng.sample(schemas, min(3, len(schemas))) or [_pick_dict(tree, rng) or {}]:
        node["type"] = rng.choice(values)
    return tree


def odd_in(tree: Tree, rng: random.Random) -> Tree:
    node = _pick_dict(tree, rng, "in") or _pick_dict(tree, rng, "name")
    if node is not None:
        node["in"] = rng.choice([{"x": 1}, ["query"], 3, None, "body", "formData", "cookie", "", "QUERY", True])
    return tree


def odd_style(tree: Tree, rng: random.Random) -> Tree:
    node = _pick_dict(tree, rng, "in") or _pick_dict(tree, rng)
    if node is not None:
        node["style"] = rng.choice([["form"], 3, {}, "deepObject", "matrix", None, "x" * 1000])
        node["explode"] = rng.choice(["yes", {}, [], None, 2, True])
        node[rng.choice(["allowReserved", "allowEmptyValue", "required", "deprecated"])] = json_value(rng)
    return tree


def giant_description(tree: Tree, rng: random.Random) -> Tree:
    text = rng.choice(["x", "ü", "\x00", "\u2028", "\ud800", "{{", "<script>", "'''\"\"\"\\"])
    node = _pick_dict(tree, rng, "description") or _pick_dict(tree, rng) or {}
    node["description"] = text * rng.choice([10**5, 10**6, 2 * 10**6])
    return tree


def odd_keyword(tree: Tree, rng: random.Random) -> Tree:
    """A schema keyword with a value of the wrong shape (enum as a map, required as a string, ...)."""
    keys = ["enum", "const", "required", "properties", "items", "allOf", "anyOf", "oneOf", "not", "default",
            "minimum", "maximum", "exclusiveMinimum", "pattern", "format", "additionalProperties", "nullable",
            "discriminator", "prefixItems", "readOnly", "examples", "example", "multipleOf", "maxLength",
            "$recursiveRef", "$dynamicRef", "$defs", "dependentSchemas", "if", "then", "contains"]  # fmt: skip
    schemas = _schemas(tree)
    if schemas:
        node = rng.choice(schemas)
        node[rng.choice(keys)] = rng.choice(
            [json_value(rng), [json_value(rng), json_value(rng)], {"x": json_value(rng)}]
        )
    return tree


def odd_operation(tree: Tree, rng: random.Random) -> Tree:
    """Garbage in an operation's own keys: operationId, parameters, requestBody, responses, content."""
    ops = _operations(tree)
    if not ops:
        return retype_value(tree, rng)
    op = rng.choice(ops)
    key = rng.choice(["operationId", "parameters", "requestBody", "responses", "description", "summary",
                      "deprecated", "consumes", "x-agent-tool"])  # fmt: skip
    op[key] = rng.choice([json_value(rng), [json_value(rng)], {"content": {json_value(rng).__class__.__name__: {}}},
                          {"content": {"multipart/form-data": {"schema": {"type": "object"}}}},
                          {"200": None, "x": []}, "x" * 300, "_" * 129, "a/b c"])  # fmt: skip
    return tree


def odd_top(tree: Tree, rng: random.Random) -> Tree:
    """The version field, ``paths``, ``components`` or the root itself replaced."""
    if rng.random() < 0.15:
        return rng.choice([[], "openapi", None, 3, [tree], {"paths": tree}])
    if isinstance(tree, dict):
        key = rng.choice(["openapi", "swagger", "paths", "components", "info", "definitions", "consumes"])
        tree[key] = rng.choice([json_value(rng), "3.0", 3.0, 3, "2.0", "4.0", "3.1.0", {"a": 1}, ["3.1"]])
    return tree


TREE_MUTATORS: list[tuple[str, TreeMutator, bool]] = [
    *[("delete_key", delete_key, False)] * 2,
    *[("duplicate_key", duplicate_key, False)] * 2,
    *[("retype_value", retype_value, False)] * 2,
    *[("swap_values", swap_values, False)] * 2,
    *[("share_values", share_values, False)] * 2,
    *[("inject_ref", inject_ref, False)] * 4,
    *[("odd_type", odd_type, False)] * 3,
    *[("odd_in", odd_in, False)] * 3,
    *[("odd_style", odd_style, False)] * 3,
    *[("odd_keyword", odd_keyword, False)] * 4,
    *[("odd_operation", odd_operation, False)] * 3,
    ("odd_top", odd_top, False),
    ("giant_description", giant_description, False),
    *[("non_finite", non_finite, False)] * 2,
    ("deep", deep, False),
    ("cycle", cycle, True),
    *[("bad_keys", bad_keys, True)] * 2,
    ("huge_int", huge_int, True),
    ("bytes_value", bytes_value, True),
    ("python_values", python_values, True),
    ("shared_bomb", shared_bomb, True),
]
"""(name, mutator, dict only), each listed as often as it is drawn: the mutations that refuse the whole
document (cycles, huge integers, bytes) less often than those that reach the operations."""


# -- other sources -----------------------------------------------------------------------------------------
def odd_source(rng: random.Random) -> tuple[str, Any]:
    """A source that is neither a document nor a readable file."""
    return "odd", rng.choice([None, 3, 3.5, [], [{"openapi": "3.1.0"}], {1, 2}, bytearray(b"{}"), memoryview(b"{}"),
                              "", " ", "missing.yaml", "a" * 300 + ".json", "/", "/tmp", Path("/tmp"),
                              Path("/nonexistent/x.yaml"), "x\x00.json", "\ud800.yaml", "{", "[1, 2]", "null",
                              b"", b"\x00", "\ufeff", "openapi: 3.1.0\npaths: 3", Path("/dev/null"), _Raising(),
                              types.MappingProxyType({"openapi": "3.1.0", "paths": {}}), _Map(openapi="3.1.0"),
                              "/proc/self/status.json", "~/x.yaml"])  # fmt: skip


def odd_overrides(tree: Tree, rng: random.Random) -> Any:
    """Overrides (a side file) naming the document's operations with hostile options, or no mapping at all."""
    ids = [op.get("operationId") for op in _operations(tree) if isinstance(op.get("operationId"), str)]
    if ids and rng.random() < 0.6:
        options = rng.choice([True, None, {"description": "d" * 10**5}, {"name": "n" * 200}, {"confirm": "no"},
                              {"policy": {"clamp": []}}, {"policy": {"enum_case": "insensitive"}}, {"domain": [1]},
                              {"domain": [{"field": "x", "schema": {"type": [{}]}, "problem": "p", "expected": "e"}]},
                              {"domain": [{"field": 3, "schema": True, "problem": None, "expected": []}]},
                              {"domain": [{"field": "x", "schema": {"minimum": 10**HUGE_DIGITS}}]},
                              {"domain": [{"field": "x", "schema": {"pattern": "(a+)+$"}, "problem": "p",
                                           "expected": "e"}]},
                              {"domain": [{"k": _Raising()}]}, {"domain": [nested(rng, 2000)]},
                              {"policy": _Raising()}, {"name": None}])  # fmt: skip
        return {rng.choice(ids): options}
    return rng.choice([{"x": {"policy": {"clamp": "x"}}}, {10**HUGE_DIGITS: True}, {(1, 2): True}, {None: {}},
                       {"x": {"name": 3}}, {"x": {"domain": {}}}, {"x": {"domain": [1, {"x": []}]}}, [1], 3, "- a",
                       "{", "missing.yaml", "a" * 300 + ".yaml", b"x: 1", {"x": _Raising()}, {"x": {"unknown": 1}},
                       "x: !!python/object:os.system {}", {"x": {"policy": []}}, {"x": True}])  # fmt: skip
