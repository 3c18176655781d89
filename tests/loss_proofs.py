"""Proofs that the validator enforces what a tool's losses record: a value that breaks exactly that keyword.

A :class:`~toolkit.Loss` at pointer ``P`` with keyword ``K`` says the declaration dropped ``K`` from the node
``N`` of the tool's ``args_schema`` and the validator still enforces it. :func:`prove` checks that claim:

* the node is validated where it stands (the whole schema goes under ``$defs/__at``, a root property refers
  to ``#/$defs/__at`` + ``P``), once as it is and once with ``K`` made neutral (removed, or ``true`` for
  ``additionalProperties`` / ``unevaluated*``, which the closed-object policy would otherwise replace);
* candidate values come from a valid example of the neutral node, changed the way ``K`` constrains, and from
  a pool of plain JSON values; the **oracle** (``jsonschema`` 2020-12 with formats asserted and ECMA-262
  patterns, the schema closed as the tool's policy reads it: ``oracle_judges``) picks one it refuses with
  ``K`` and accepts without;
* the validator (with the tool's closed-object policy; its lenient policies, clamping, case folding and null
  read as absent, enforce a keyword another way, with a notice, and are off here) must refuse that value with
  ``K`` and accept it without: ``proved``. Otherwise ``disagrees``
  (the validator's verdict differs) or ``no_witness`` (no candidate separates the two).

Losses that constrain nothing are named, not proved: ``annotation`` (a 2020-12 annotation, a keyword 2020-12
does not define, a format no RFC names), ``vacuous`` (a keyword whose schema accepts everything, such as
``additionalProperties: true``: nothing can break it), ``not_a_keyword`` (a binding renamed, an empty form
body, a type the schema never had). A bound a Decimal parameter keeps out of the schema is ``proved`` through
the function's conversion, which refuses the value (``tool.call`` answers ``rejected``).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import quote

from oracle_judges import judge

from toolkit import Loss, Policy, Tool, fixtures
from toolkit._contract import ToolContract
from toolkit._fixtures._values import NO_VALUE, example
from toolkit._schema import SCHEMA_LIST, SCHEMA_MAP, SCHEMA_ONE, VALIDATOR_KEYWORDS, Refs
from toolkit._validation._enforce import check_enforceable
from toolkit._validation._formats import FORMAT_CHECKS, INTEGER_FORMATS

__all__ = ["NOT_KEYWORDS", "Proof", "losses_of", "prove"]

Kind = Literal["proved", "annotation", "vacuous", "not_a_keyword", "no_witness", "disagrees"]
ANNOTATIONS = frozenset(
    {"title", "description", "default", "examples", "example", "deprecated", "readOnly", "writeOnly", "$comment"}
    | {"contentEncoding", "contentMediaType", "contentSchema", "discriminator", "xml", "externalDocs", "$schema"}
    | {"$id", "$anchor", "$dynamicAnchor", "$vocabulary", "$defs", "definitions", "propertyOrdering"}
)
"""Keywords that never constrain a value (2020-12 annotations and OpenAPI's own)."""
NOT_KEYWORDS: Mapping[str, str] = {
    "name": "an argument renamed from its HTTP name (a header or a query key that is not a parameter name)",
    "requestBody": "a form body without fields, left out",
    "type": "a type the schema never gave, offered in the declaration as a union of types",
}
"""Losses that name no keyword of the schema, and what each records instead."""
NEUTRAL: Mapping[str, Any] = {"additionalProperties": True, "unevaluatedProperties": True, "unevaluatedItems": True}
_POOL: tuple[Any, ...] = (None, True, False, 0, 1, -1, 0.5, -2.5, 10**20, 1e300, "", "x", "zz", "2026-08-07", [],
                          [None], [1, 1], ["x", "x"], {}, {"zz_unlisted": 1})  # fmt: skip


@dataclass(frozen=True, slots=True)
class Proof:
    tool: str
    path: str
    keyword: str
    kind: Kind
    value: Any = None
    detail: str = ""


def losses_of(tool: Tool) -> Iterator[Loss]:
    yield from tool.losses


def _node(schema: Any, pointer: str) -> tuple[bool, Any]:
    node = schema
    for raw in pointer.split("/")[1:] if pointer else []:
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False, None
    return True, node


def _rebased(schema: Any) -> Any:
    """``schema`` with every local ``$ref`` pointing into ``$defs/__at`` (where the tool's schema now sits); only
    the keywords that hold schemas are walked, so a property named ``default`` is a schema like any other."""
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    for key in ("$ref", "$dynamicRef"):
        ref = schema.get(key)
        if isinstance(ref, str) and (ref == "#" or ref.startswith("#/")):
            out[key] = "#/$defs/__at" + ref[1:]
    for key in SCHEMA_ONE:
        if key in schema:
            out[key] = _rebased(schema[key])
    for key in SCHEMA_MAP:
        if isinstance(schema.get(key), dict):
            out[key] = {name: _rebased(sub) for name, sub in schema[key].items()}
    for key in SCHEMA_LIST:
        if isinstance(schema.get(key), list):
            out[key] = [_rebased(sub) for sub in schema[key]]
    return out


def _document(schema: Mapping[str, Any], pointer: str) -> dict[str, Any]:
    target = "#/$defs/__at" + quote(pointer, safe="/~!$&'()*+,;=:@")
    return {
        "type": "object",
        "properties": {"v": {"$ref": target}},
        "required": ["v"],
        "additionalProperties": False,
        "$defs": {"__at": _rebased(schema)},
    }


def _neutral(schema: Mapping[str, Any], pointer: str, keyword: str) -> dict[str, Any]:
    out = copy.deepcopy(dict(schema))
    _, parent = _node(out, pointer.rsplit("/", 1)[0]) if pointer else (True, None)
    if keyword in ("", "false"):  # a cut subtree, or the false schema: the node itself goes
        token = pointer.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
        if isinstance(parent, dict):
            parent[token] = True
        elif isinstance(parent, list):
            parent[int(token)] = True
        return out
    _, node = _node(out, pointer)
    if keyword in NEUTRAL:
        node[keyword] = NEUTRAL[keyword]
    else:
        node.pop(keyword, None)
    return out


def _kind(node: Any, keyword: str, resolve: Refs) -> Kind | None:
    if keyword == "false":
        return None if node is False else "not_a_keyword"
    if keyword == "":
        return None
    if not isinstance(node, Mapping) or keyword not in node:
        return "not_a_keyword"
    if keyword in ANNOTATIONS or (keyword not in VALIDATOR_KEYWORDS and keyword != "$ref"):
        return "annotation"
    if keyword == "format" and node[keyword] not in FORMAT_CHECKS and node[keyword] not in INTEGER_FORMATS:
        return "annotation"
    if keyword in _SCHEMA_VALUED and _accepts_everything(node[keyword], resolve):
        return "vacuous"
    if keyword == "$ref" and _accepts_everything(resolve.lookup(node["$ref"]), resolve):
        return "vacuous"  # a reference to a schema of annotations only
    if keyword == "uniqueItems" and node[keyword] is not True:
        return "vacuous"
    applies = _APPLIES_TO.get(keyword)
    kinds = node.get("type")
    named = {kinds} if isinstance(kinds, str) else set(kinds) if isinstance(kinds, list) else None
    if applies is not None and named is not None and not (applies & (named | ({"number"} & named and {"integer"}))):
        return "vacuous"  # e.g. required on an array: the type keeps every value the keyword reads out
    if keyword == "uniqueItems" and isinstance(node.get("maxItems"), int) and node["maxItems"] <= 1:
        return "vacuous"  # at most one item: never two equal ones
    if keyword == "enum" and named == {"boolean"} and {True, False} <= {v for v in node["enum"] if type(v) is bool}:
        return "vacuous"  # every boolean is listed
    step = node.get("multipleOf") if keyword == "multipleOf" else None
    if named == {"integer"} and isinstance(step, int | float) and step > 0 and (1 / step).is_integer():
        return "vacuous"  # every integer is a multiple of 1 (or of 1/k)
    return None


_OBJECT_ONLY = ("required", "properties", "additionalProperties", "patternProperties", "minProperties")
_OBJECT_ONLY += ("maxProperties", "dependentRequired", "dependentSchemas", "propertyNames", "unevaluatedProperties")
_ARRAY_ONLY = ("items", "prefixItems", "contains", "minItems", "maxItems", "uniqueItems", "unevaluatedItems")
_APPLIES_TO: Mapping[str, set[str]] = {
    **{key: {"object"} for key in _OBJECT_ONLY},
    **{key: {"array"} for key in _ARRAY_ONLY},
    **{key: {"string"} for key in ("minLength", "maxLength", "pattern", "format")},
    **{key: {"number", "integer"} for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")},
    "multipleOf": {"number", "integer"},
}


def _accepts_everything(schema: Any, resolve: Refs, depth: int = 0) -> bool:
    """``true``, ``{}``, or a schema of annotations only (behind its ``$ref``, and its ``allOf`` members, likewise)."""
    if schema is True:
        return True
    if not isinstance(schema, Mapping) or depth > 8:
        return False
    rest = [key for key in schema if key not in ANNOTATIONS]
    if rest == ["$ref"] and isinstance(schema["$ref"], str):
        return _accepts_everything(resolve.lookup(schema["$ref"]), resolve, depth + 1)
    if rest == ["allOf"] and isinstance(schema["allOf"], list):
        return all(_accepts_everything(member, resolve, depth + 1) for member in schema["allOf"])
    return not rest


_SCHEMA_VALUED = frozenset({"additionalProperties", "unevaluatedProperties", "unevaluatedItems", "items", "not"})
_SCHEMA_VALUED |= {"propertyNames", "contains", "then", "else"}


def _changes(base: Any, node: Mapping[str, Any], keyword: str, resolve: Refs) -> Iterator[Any]:
    """Values that break ``keyword`` of ``node`` and, where possible, nothing else: ``base`` changed its way."""
    value = node.get(keyword) if isinstance(node, Mapping) else None
    if isinstance(base, dict):
        for key in list(base):
            yield {k: v for k, v in base.items() if k != key}
        for extra in ("zz_unlisted", "", "x" * 80, "Zz-9!", "1"):
            for filler in (1, "x", None, {}, [], True):
                yield {**base, extra: filler}
        for name, needs in (node.get("dependentRequired") or {}).items() if isinstance(node, Mapping) else ():
            item = example(((node.get("properties") or {}).get(name, True)), resolve)
            yield {k: v for k, v in {**base, name: item}.items() if k not in needs}
    if isinstance(base, list):
        yield from ([], base + base, base[:1] * 3, [*base, None], [*base, "x"], base[1:], list(reversed(base)))
    if isinstance(base, str):
        yield from ("", base + "\n", base + "x" * 300, "!", " ", "~", "0", "a", "Z", base.upper(), base[:-1])
        yield f"not-a-{node.get('format', 'value')}" if isinstance(node, Mapping) else "x"
    if isinstance(value, int | float) and not isinstance(value, bool):
        for delta in (0, 1, -1, 0.5, -0.5, 1e-9):
            yield value + delta
        if keyword == "multipleOf":
            yield from (value / 2, value * 1.5, 1e-9, 7)
    if keyword in ("enum", "const"):
        yield from ("zz_not_listed", 123456789, {"zz": []})
    if keyword == "not" and isinstance(base, dict) and isinstance(value, Mapping):
        names = [n for n in value.get("required") or () if isinstance(n, str)]
        properties = node.get("properties") or {}
        filled = {n: example(properties.get(n, True), resolve) for n in names}
        yield {**base, **{n: v for n, v in filled.items() if v is not NO_VALUE}}


_WALL_CLOCK = re.compile(r"[0-9]{2}:[0-9]{2}:[0-9]{2}")


def _variants(base: Any) -> Iterator[Any]:
    """A valid example, and the same with every wall-clock time given an offset (``14:02:00`` -> ``14:02:00Z``):
    toolkit takes a time without one on purpose, the oracle (RFC 3339 ``full-time``) does not."""
    if base is NO_VALUE:
        return
    yield base
    zoned = _zoned(base)
    if zoned != base:
        yield zoned


def _zoned(value: Any) -> Any:
    if isinstance(value, str):
        return value + "Z" if _WALL_CLOCK.fullmatch(value) else value
    if isinstance(value, list):
        return [_zoned(v) for v in value]
    if isinstance(value, dict):
        return {k: _zoned(v) for k, v in value.items()}
    return value


def _declared_texts(node: Any) -> set[str]:
    members = list(node.get("enum") or []) + ([node["const"]] if "const" in node else [])
    return {json.dumps(m, sort_keys=True) for m in members if m is not None and not isinstance(m, str)}


def _candidates(schema: Mapping[str, Any], neutral: Mapping[str, Any], pointer: str, keyword: str) -> list[Any]:
    resolve = Refs(neutral)
    _, node = _node(neutral, pointer)
    _, original = _node(schema, pointer)
    found: list[Any] = []
    shown = original.get("examples") if isinstance(original, Mapping) else None
    bases = [*(shown if isinstance(shown, list) else ()), example(node, resolve)]  # the schema's own first
    for base in (variant for made in bases for variant in _variants(made)):
        found.append(base)
        found.extend(_changes(base, original if isinstance(original, Mapping) else {}, keyword, resolve))
    for key in ("oneOf", "anyOf", "allOf", "prefixItems"):
        branches = original.get(key) if isinstance(original, Mapping) else None
        for branch in branches if isinstance(branches, list) else ():
            item = example(branch, Refs(schema))
            if item is not NO_VALUE:
                found.extend([item, [item, item]] if key == "prefixItems" else [item])
    found.extend(_POOL)
    texts = _declared_texts(original) if isinstance(original, Mapping) else set()
    return [v for v in found if not (isinstance(v, str) and v in texts)]  # the declared strings: a known difference


def _accepts(tool: Tool, value: Any) -> bool:
    return tool.validate({"v": value}).ok


def _decimal_bound(tool: Tool, loss: Loss) -> Proof | None:
    """A bound the schema cannot hold (a Decimal's), kept by the function's conversion: it refuses past the bound."""
    bound, converter = loss.value, tool.converter
    if converter is None or not isinstance(bound, int | float) or "Decimal" not in loss.reason:
        return None
    name = loss.path.rsplit("/", 1)[-1]
    baseline = next((f.args for f in fixtures(tool) if f.id == "valid.baseline"), None)
    if not isinstance(baseline, dict):
        return None
    if loss.keyword == "decimalPlaces":  # one digit more than allowed, and exactly as many
        outside, inside = f"1.{'1' * (int(bound) + 1)}", f"1.{'1' * int(bound)}" if bound else "1"
    else:
        low = "minimum" in loss.keyword.lower()
        outside = str(bound - 1 if low else bound + 1)
        inside = str(bound + (1 if low else -1) if "exclusive" in loss.keyword else bound)
    kind: Kind = "proved" if _converts(tool, {**baseline, name: inside}) else "disagrees"
    if _converts(tool, {**baseline, name: outside}):
        kind = "disagrees"
    return Proof(tool.name, loss.path, loss.keyword, kind, outside, "through the conversion (tool.converter)")


def _converts(tool: Tool, args: dict[str, Any]) -> bool:
    """Whether ``args`` pass the validator and the function's own conversion (the function is not called)."""
    checked = tool.validate(args)
    if not checked.ok or tool.converter is None:
        return checked.ok
    try:
        tool.converter(dict(checked.data))
    except Exception:
        return False
    return True


def _holds(node: Any, keyword: str, value: Any) -> bool:
    if not isinstance(node, Mapping) or keyword not in node:
        return False
    held = node[keyword]
    return held == value or (isinstance(held, list) and value in held)


def _owner(schema: Mapping[str, Any], pointer: str, keyword: str, value: Any) -> str | None:
    """Where ``keyword`` (with ``value``) sits when lowering recorded it at a node that inlines it from elsewhere:
    the node, or one it reaches through ``$ref`` and union or ``allOf`` members (the first, breadth first)."""
    resolve = Refs(schema)
    todo: list[tuple[str, int]] = [(pointer, 0)]
    seen: set[str] = set()
    while todo:
        here, depth = todo.pop(0)
        found, node = _node(schema, here)
        if not found or here in seen or depth > 4:
            continue
        seen.add(here)
        if _holds(node, keyword, value):
            return here
        if not isinstance(node, Mapping):
            continue
        if isinstance(node.get("$ref"), str):
            todo.append((resolve.locate(node["$ref"])[0], depth + 1))
        for key in ("allOf", "anyOf", "oneOf"):
            todo.extend((f"{here}/{key}/{i}", depth + 1) for i in range(len(node.get(key) or [])))
    return None


def prove(tool: Tool, loss: Loss) -> Proof:
    """The proof (or the reason there is none to give) that ``tool``'s validator enforces ``loss``."""
    schema = tool.contract.args_schema
    if loss.keyword in ANNOTATIONS:
        return Proof(tool.name, loss.path, loss.keyword, "annotation")
    owner = _owner(schema, loss.path, loss.keyword, loss.value) if loss.keyword not in ("", "false") else None
    if owner is not None and owner != loss.path:
        loss = Loss(owner, loss.keyword, loss.value, loss.reason)  # prove it where the keyword is
    found, node = _node(schema, loss.path)
    kind = _kind(node, loss.keyword, Refs(schema)) if found else "not_a_keyword"
    if kind == "not_a_keyword":
        decimal = _decimal_bound(tool, loss)
        if decimal is not None:
            return decimal
    if kind is not None:
        return Proof(tool.name, loss.path, loss.keyword, kind)
    neutral = _neutral(schema, loss.path, loss.keyword)
    strict = _build(tool, _document(schema, loss.path))
    loose = _build(tool, _document(neutral, loss.path))
    closed = tool.policy.unlisted_properties == "refuse"
    with_k = judge(strict.contract.args_schema, closed=closed)
    without_k = judge(loose.contract.args_schema, closed=closed)
    for value in _candidates(schema, neutral, loss.path, loss.keyword):
        if with_k({"v": value}) != "invalid" or without_k({"v": value}) != "valid":
            continue
        if not _accepts(strict, value) and _accepts(loose, value):
            return Proof(tool.name, loss.path, loss.keyword, "proved", value)
        detail = f"validator: with {_accepts(strict, value)}, without {_accepts(loose, value)}"
        return Proof(tool.name, loss.path, loss.keyword, "disagrees", value, detail)
    return Proof(tool.name, loss.path, loss.keyword, "no_witness")


def _build(tool: Tool, document: dict[str, Any]) -> Tool:
    """The node's validator, with the tool's closed-object policy and without the lenient ones (clamping,
    case folding, null read as absent): those enforce a keyword another way, and say so in a notice. Built as
    ``build_tool`` builds it, less the lowering and the lints (this document is never declared)."""
    policy = Policy(null_optional="reject", clamp=False, unlisted_properties=tool.policy.unlisted_properties)
    check_enforceable(document)
    contract = ToolContract(name="proof", description="d", args_schema=document, source="schema")
    return Tool(contract=contract, parameters=None, policy=policy)
