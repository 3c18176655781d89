"""OpenAI strict mode: an ``args_schema`` rewritten to the strict rules, or the nodes that prevent it.

The rules, from https://developers.openai.com/api/docs/guides/function-calling#strict-mode and
https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas:

* "additionalProperties must be set to false for each object in the parameters. All fields in properties
  must be marked as required. You can denote optional fields by adding null as a type option." An optional
  property becomes required and accepts ``null``; toolkit's validator reads that ``null`` as "omitted"
  (``Policy.null_optional="absent"``, the default), so the default still applies. An object that did not say
  ``additionalProperties: false`` is closed, with a loss.
* Supported keywords: ``type properties required additionalProperties items anyOf enum const description
  title $ref $defs definitions``; strings ``pattern format`` (formats ``date-time time date duration email
  hostname ipv4 ipv6 uuid``); numbers ``multipleOf maximum exclusiveMaximum minimum exclusiveMinimum``;
  arrays ``minItems maxItems``. Everything else is dropped with a loss (the validator still enforces it);
  ``oneOf`` and an ``allOf`` of one subschema are sent as ``anyOf``; positional ``prefixItems`` as one
  ``anyOf`` for every item.
* A ``$ref`` stands alone: other keywords beside it move the reference into ``anyOf: [{"$ref": ...}]``.
* "A schema may have up to 5000 object properties total, with up to 10 levels of nesting"; "up to 1000 enum
  values across all enum properties"; one string enum of more than 250 values may hold at most 15,000
  characters; names of properties and definitions, enum and const values at most 120,000 characters in all.

What strict mode cannot say blocks it (the tool is then sent with ``strict: false`` and its plain schema, and
each blocking node is a loss): a value of any JSON type (no type at all), an open map (``additionalProperties``
as a schema, ``patternProperties``, or an object without declared properties), a ``allOf`` of several
subschemas, several combinators on one node, ``$dynamicRef``, the ``false`` schema, the limits above, and a
tool whose policy refuses ``null`` for an optional field (``null_optional="reject"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkit._contract import Loss
from toolkit._exceptions import SchemaError
from toolkit._lowering._keywords import bad
from toolkit._schema import DEFINITIONS, SCHEMA_LIST, Refs, escape

__all__ = ["FORMATS", "KEPT", "LIMITS", "Strict", "strictify"]

FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"})
KEPT = frozenset(
    {
        "type",
        "enum",
        "const",
        "description",
        "title",
        "pattern",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "minItems",
        "maxItems",
        "required",
    }
)
LIMITS = {"properties": 5000, "nesting": 10, "enum_values": 1000, "characters": 120_000}
_SILENT = frozenset({"$schema", "$id", "$anchor", "$dynamicAnchor", "$vocabulary"})
_INFERRED = (
    (("properties", "required", "additionalProperties"), "object"),
    (("items", "prefixItems", "minItems", "maxItems"), "array"),
    (("pattern", "format", "minLength", "maxLength"), "string"),
    (("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"), "number"),
)
_LISTS = frozenset(SCHEMA_LIST)
_MAPS = frozenset({"properties", *DEFINITIONS})  # patternProperties is read by close()
_DROPPED = "not in OpenAI's strict subset: dropped (the validator still enforces it)"
_NULL = {"type": "null"}


class Strict:
    """One rewrite: ``losses`` (what strict mode drops or changes) and ``blockers`` (what prevents it)."""

    def __init__(self, *, null_is_absent: bool) -> None:
        self.null_is_absent = null_is_absent
        self.losses: list[Loss] = []
        self.blockers: list[Loss] = []

    def lose(self, path: str, keyword: str, value: Any, reason: str) -> None:
        self.losses.append(Loss(path, keyword, value, reason))

    def block(self, path: str, keyword: str, value: Any, reason: str) -> None:
        self.blockers.append(Loss(path, keyword, value, f"strict mode is off: {reason}"))

    # -- one node ------------------------------------------------------------------------------------------
    def node(self, schema: Any, path: str) -> Any:
        if schema is True or schema == {}:
            self.block(path, "type", None, "a value of any JSON type has no strict form; give it a type")
            return {}
        if not isinstance(schema, dict):
            self.block(path, "false", schema, "the false schema (accepts nothing) has no strict form")
            return schema
        out: dict[str, Any] = {}
        for key, value in schema.items():
            self.keyword(key, value, schema, path, out)
        if "$ref" in out and len(out) > 1:
            ref = {"$ref": out.pop("$ref")}
            self.combine(out, [ref], path, "$ref")
        if not {"type", "anyOf", "$ref", "enum", "const"} & out.keys():
            self.infer_type(schema, path, out)
        kind = out.get("type")
        kinds: list[Any] = kind if isinstance(kind, list) else [kind]
        if "object" in kinds or (kind is None and "properties" in out):
            self.close(schema, path, out)
        elif kind is not None and {"properties", "required"} & out.keys():
            for key in ("properties", "required"):
                if key in out:
                    self.lose(path, key, schema[key], f"{key} applies to objects only, and this node is {kind!r}")
                    del out[key]
        if "array" in kinds and "items" not in out:
            self.block(path, "items", None, "an array without an item schema has no strict form")
        return out

    def keyword(self, key: str, value: Any, schema: Mapping[str, Any], path: str, out: dict[str, Any]) -> None:
        where = f"{path}/{escape(key)}"
        if key in _LISTS and (not isinstance(value, list) or not value):
            raise bad(path, key, f"is {value!r}; use a non-empty list of schemas")
        if key in _MAPS and not isinstance(value, Mapping):
            raise bad(path, key, f"is a {type(value).__name__}; use an object of schemas")
        if key in _MAPS:
            out[key] = {name: self.node(sub, f"{where}/{escape(name)}") for name, sub in value.items()}
        elif key == "items" and not isinstance(value, list):
            out[key] = self.node(value, where)
        elif key in ("prefixItems", "items"):
            self.positional(key, value, schema, path, out)
        elif key == "anyOf":
            self.combine(out, [self.node(sub, f"{where}/{i}") for i, sub in enumerate(value)], path, key)
        elif key == "oneOf":
            branches = [self.node(sub, f"{where}/{i}") for i, sub in enumerate(value)]
            if sum(1 for branch in branches if branch != _NULL) > 1:
                self.lose(path, key, value, "sent as anyOf: the model is not told that exactly one branch may match")
            self.combine(out, branches, path, key)
        elif key == "allOf" and len(value) == 1:
            self.combine(out, [self.node(value[0], f"{where}/0")], path, key)
        elif key == "allOf":
            self.block(path, key, value, "allOf of several subschemas is not supported")
        elif key == "$ref":
            out[key] = value
        elif key == "format":
            if value in FORMATS:
                out[key] = value
            else:
                self.lose(path, key, value, f"format {value!r} is not one strict mode supports: dropped")
        elif key in KEPT:
            out[key] = value
        elif key in ("additionalProperties", "unevaluatedProperties", "patternProperties"):
            return  # read by close()
        elif key == "$dynamicRef":
            self.block(path, key, value, "dynamic references are not supported")
        elif key in _SILENT or key.startswith("x-"):
            return
        else:
            self.lose(path, key, value, _DROPPED)

    def combine(self, out: dict[str, Any], branches: list[Any], path: str, key: str) -> None:
        if "anyOf" in out:
            self.block(path, key, branches, "several combinators (anyOf, oneOf, allOf, $ref) on one node")
            return
        out["anyOf"] = branches

    def positional(self, key: str, value: Any, schema: Mapping[str, Any], path: str, out: dict[str, Any]) -> None:
        rest = schema.get("items") if key == "prefixItems" else schema.get("additionalItems")
        if isinstance(rest, Mapping) or rest is True:
            if key == "prefixItems":
                self.lose(path, key, value, "positional item schemas are not sent; every item is sent as items")
            return
        where = f"{path}/{escape(key)}"
        branches = [self.node(sub, f"{where}/{i}") for i, sub in enumerate(value)]
        self.lose(path, key, value, "positional item schemas are sent as one anyOf for every item")
        out["items"] = branches[0] if len(branches) == 1 else {"anyOf": branches}

    def infer_type(self, schema: Mapping[str, Any], path: str, out: dict[str, Any]) -> None:
        for keywords, kind in _INFERRED:
            found = [key for key in keywords if key in schema]
            if found:
                out["type"] = kind
                self.lose(path, "type", None, f"no type given: sent as {kind}, inferred from {found[0]}")
                return
        self.block(path, "type", None, "a value of any JSON type has no strict form; give it a type")

    def close(self, schema: Mapping[str, Any], path: str, out: dict[str, Any]) -> None:
        """Every object closed, every property required; optional ones accept null."""
        properties: dict[str, Any] = out.setdefault("properties", {})
        extra = schema.get("additionalProperties", True)
        if schema.get("unevaluatedProperties") is False:
            extra = False
        if "patternProperties" in schema:
            self.block(path, "patternProperties", schema["patternProperties"], "strict objects are closed")
        if isinstance(extra, Mapping) and extra:
            self.block(path, "additionalProperties", extra, "an open map (keys of any name) cannot be closed")
        elif extra is not False and not properties:
            self.block(path, "additionalProperties", extra, "an object without declared properties accepts any keys")
        elif extra is not False:
            reason = "closed for strict mode: the model cannot send keys beyond the declared ones"
            self.lose(path, "additionalProperties", schema.get("additionalProperties"), reason)
        out["additionalProperties"] = False
        required = [name for name in out.get("required", ()) if isinstance(name, str)]
        for name in required:
            if name not in properties:
                self.lose(path, "required", name, "required names a property the schema does not declare")
        originals = schema.get("properties") or {}
        for name, sub in properties.items():
            if name not in required:
                default = originals[name].get("default") if isinstance(originals.get(name), Mapping) else None
                properties[name] = self.optional(sub, f"{path}/properties/{escape(name)}", default)
        out["required"] = list(properties)

    def optional(self, sub: Any, path: str, default: Any) -> Any:
        """An optional property, sent as required: null stands for "omitted"."""
        if accepts_null(sub):
            if default is None:
                reason = "optional, sent as required: the model sends null (what omitting it means) to leave it out"
            else:
                reason = f"optional, sent as required: null is a value here, so the model cannot ask for {default!r}"
            self.lose(path, "required", False, reason)
            return sub
        if not self.null_is_absent:
            reason = "the tool refuses null for optional fields (null_optional='reject'), and strict mode needs it"
            self.block(path, "required", False, reason)
            return sub
        self.lose(path, "required", False, "optional, sent as required and nullable: null reads as omitted")
        return with_null(sub)


def accepts_null(node: Any) -> bool:
    """Whether a (strict) node already lets ``null`` through."""
    if not isinstance(node, Mapping):
        return node is True
    kind = node.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    if ("const" in node and node["const"] is None) or None in (node.get("enum") or ()):
        return True
    return any(accepts_null(branch) for branch in node.get("anyOf", ()))


def with_null(node: dict[str, Any]) -> dict[str, Any]:
    """``node`` widened by ``null``: a type list where the node is a plain typed one, else an ``anyOf``."""
    if not isinstance(node, dict):
        return node  # the false schema: strict mode is already off
    kind = node.get("type")
    plain = not {"anyOf", "$ref", "const"} & node.keys()
    if plain and isinstance(kind, str | list):
        out = dict(node)
        out["type"] = [kind, "null"] if isinstance(kind, str) else [*kind, "null"]
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
        return out
    if "anyOf" in node and len(node) <= 2 and node.keys() <= {"anyOf", "description"}:
        return {**node, "anyOf": [*node["anyOf"], dict(_NULL)]}
    inner = {key: value for key, value in node.items() if key not in ("description", "title")}
    out = {key: node[key] for key in ("title", "description") if key in node}
    out["anyOf"] = [inner, dict(_NULL)]
    return out


def strictify(schema: dict[str, Any], *, null_is_absent: bool = True) -> tuple[dict[str, Any], list[Loss], list[Loss]]:
    """``schema`` (a JSON copy) in strict form, the losses, and the blockers (empty: strict mode is possible)."""
    rewrite = Strict(null_is_absent=null_is_absent)
    result = rewrite.node(schema, "")
    if rewrite.blockers:
        return result, rewrite.losses, rewrite.blockers
    rewrite.blockers += _limits(result)
    return result, rewrite.losses, rewrite.blockers


# -- limits ----------------------------------------------------------------------------------------------------
class _Count:
    def __init__(self, root: dict[str, Any]) -> None:
        self.refs = Refs(root)
        self.properties = 0
        self.enum_values = 0
        self.characters = 0
        self.big_enums: list[str] = []
        self.depths: dict[str, int] = {}

    def walk(self, node: Any, path: str) -> None:
        if not isinstance(node, Mapping):
            return
        for key in ("$defs", "definitions"):
            for name, sub in (node.get(key) or {}).items():
                self.characters += len(name)
                self.walk(sub, f"{path}/{key}/{escape(name)}")
        for name, sub in (node.get("properties") or {}).items():
            self.properties += 1
            self.characters += len(name)
            self.walk(sub, f"{path}/properties/{escape(name)}")
        enum = node.get("enum")
        if isinstance(enum, list):
            self.enum_values += len(enum)
            texts = [value for value in enum if isinstance(value, str)]
            self.characters += sum(map(len, texts))
            if len(enum) > 250 and sum(map(len, texts)) > 15_000:
                self.big_enums.append(path)
        if isinstance(node.get("const"), str):
            self.characters += len(node["const"])
        if "items" in node:
            self.walk(node["items"], f"{path}/items")
        for index, branch in enumerate(node.get("anyOf", ())):
            self.walk(branch, f"{path}/anyOf/{index}")

    def nesting(self, node: Any, inlining: tuple[str, ...] = ()) -> int:
        """Levels of objects on the deepest path (references followed, a reference being inlined not again)."""
        if not isinstance(node, Mapping):
            return 0
        deepest = 0
        ref = node.get("$ref")
        if isinstance(ref, str) and ref not in inlining:
            if ref not in self.depths:  # remembered once: a shared definition is not walked again per use
                try:
                    target = self.refs.lookup(ref)
                except SchemaError:
                    target = None
                self.depths[ref] = self.nesting(target, (*inlining, ref))
            deepest = self.depths[ref]
        children = [*(node.get("properties") or {}).values(), *node.get("anyOf", ())]
        if "items" in node:
            children.append(node["items"])
        below = max((self.nesting(child, inlining) for child in children), default=0)
        own = 1 if "properties" in node else 0
        return max(deepest, own + below)


def _limits(schema: dict[str, Any]) -> list[Loss]:
    count = _Count(schema)
    count.walk(schema, "")
    found: list[Loss] = []

    def over(keyword: str, value: int, limit: int, what: str) -> None:
        if value > limit:
            found.append(Loss("", keyword, value, f"strict mode is off: {value} {what} (the limit is {limit})"))

    over("properties", count.properties, LIMITS["properties"], "object properties in all")
    over("properties", count.nesting(schema), LIMITS["nesting"], "levels of nested objects")
    over("enum", count.enum_values, LIMITS["enum_values"], "enum values in all")
    over("enum", count.characters, LIMITS["characters"], "characters of names, enum and const values")
    for path in count.big_enums:
        reason = "strict mode is off: a string enum of more than 250 values holds over 15,000 characters"
        found.append(Loss(path, "enum", None, reason))
    return found
