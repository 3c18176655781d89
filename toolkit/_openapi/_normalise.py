"""Normalise one OpenAPI schema (3.0, 3.1/3.2 or Swagger 2.0 flavour) to JSON Schema draft 2020-12.

A single-use walker: :func:`normalise` returns a **new** schema (the document is never modified) in which

* 3.0 ``nullable: true`` (and Swagger's ``x-nullable``) becomes a type array (``["string", "null"]``), a
  ``null`` enum member, or ``anyOf [..., {"type": "null"}]`` when there is no ``type`` to extend;
* boolean ``exclusiveMinimum``/``exclusiveMaximum`` become the 2020-12 numbers;
* ``example`` becomes ``examples: [example]`` (kept, in its 2020-12 spelling);
* tuple ``items: [...]`` becomes ``prefixItems``;
* ``discriminator`` is dropped and recorded as a :class:`~toolkit.Loss` (``oneOf``/``anyOf`` still hold);
* ``enum``/``const`` members the node's ``type`` rejects are read in their one meaning
  (:func:`toolkit._schema.repaired`: ``{type: integer, enum: ["5"]}`` is ``enum: [5]``), each change a loss;
  a node no value can satisfy and no reading repairs is left as written, and building the tool refuses it
  (``unsatisfiable_schema``);
* ``xml``, ``externalDocs``, ``deprecated``, ``$id``, ``$schema``, ``$comment`` and ``x-*`` keys go;
* ``readOnly`` properties go (these are request schemas) and leave ``required``, and so does the keyword
  itself (a read-only *parameter* is still an input); ``writeOnly`` stays;
* every local ``$ref`` is handed to a hook that returns its new ``#/$defs/...`` target;
* the subschemas at every position :mod:`toolkit._schema` names are normalised in turn; ``contentSchema`` (an
  annotation, never applied) and the keywords of other drafts (``additionalItems``, ``dependencies``) are
  copied as written, and the validator refuses the latter (``unsupported_keyword``).

Refs reached without passing through an object or array keyword ("unguarded") are reported, so a caller can
refuse ``$ref`` cycles that no instance could ever end (``A: {allOf: [{$ref: A}]}``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolkit._canonical import JSON_TYPES
from toolkit._contract import Loss
from toolkit._openapi._refusal import Refusal
from toolkit._schema import (
    DEFINITIONS,
    IN_PLACE_LIST,
    IN_PLACE_MAP,
    IN_PLACE_ONE,
    LEGACY_ITEMS,
    PARTS_LIST,
    PARTS_MAP,
    PARTS_ONE,
    escape,
    repaired,
)

__all__ = ["MAX_DEPTH", "Walk", "normalise"]

MAX_DEPTH = 64
"""How deep one schema may nest (without following ``$ref``) before the operation is refused."""

_DROPPED = frozenset(
    {
        "xml",
        "externalDocs",
        "deprecated",
        "$id",
        "$schema",
        "$comment",
        "nullable",
        "x-nullable",
        "$recursiveAnchor",
        "readOnly",
    }
)
_UNSUPPORTED = frozenset({"$dynamicRef", "$dynamicAnchor", "$recursiveRef"})
_GUARDED_MAP = (*PARTS_MAP, *DEFINITIONS)
"""Maps whose schemas apply to a part of the value, or to none (definitions are read through a ``$ref``)."""


@dataclass(slots=True)
class Walk:
    """The state of one normalisation: the ``$ref`` hook, collected losses and unguarded refs."""

    ref_hook: Callable[[str], str]
    ref_siblings: bool = True
    """3.1 keeps keywords beside ``$ref``; 3.0 and Swagger 2.0 ignore all but ``description``."""
    losses: list[Loss] = field(default_factory=list)
    refs: set[str] = field(default_factory=set)
    unguarded: set[str] = field(default_factory=set)
    read_only: Callable[[str], bool] = lambda ref: False
    """Whether the schema a ``$ref`` points at is ``readOnly`` (such a property is dropped like an inline one)."""
    recursive_ref: str | None = None
    """The ``$ref`` that ``$recursiveRef: "#"`` stands for (a component with ``$recursiveAnchor: true``)."""


def normalise(schema: Any, walk: Walk, pointer: str) -> Any:
    """Return the 2020-12 form of ``schema``; ``pointer`` is where it lands in ``args_schema`` (for losses)."""
    return _node(schema, walk, pointer, 0, guarded=False)


def _node(schema: Any, walk: Walk, pointer: str, depth: int, *, guarded: bool) -> Any:
    if isinstance(schema, bool):
        return schema
    if not isinstance(schema, dict):
        raise Refusal("unsupported_schema", f"a schema at {pointer or '/'} is a {type(schema).__name__}, not an object")
    if depth > MAX_DEPTH:
        raise Refusal("schema_too_deep", f"the schema at {pointer} nests deeper than {MAX_DEPTH} levels")
    if "$recursiveRef" in schema and schema["$recursiveRef"] == "#" and walk.recursive_ref:
        schema = {**{k: v for k, v in schema.items() if k != "$recursiveRef"}, "$ref": walk.recursive_ref}
    if "$ref" in schema:
        return _ref(schema, walk, pointer, depth, guarded=guarded)
    out: dict[str, Any] = {}
    for key, value in schema.items():
        _keyword(key, value, out, walk, pointer, depth, guarded)
    _drop_dangling_exclusive(out)
    if schema.get("nullable") is True or schema.get("x-nullable") is True:
        out = _nullable(out)
    if "enum" in out or "const" in out:
        out = _as_meant(out, walk, pointer)
    if "properties" in out:
        _drop_read_only(schema, out, walk)
    return out


def _ref(schema: Mapping[str, Any], walk: Walk, pointer: str, depth: int, *, guarded: bool) -> Any:
    ref = schema["$ref"]
    if not isinstance(ref, str):
        raise Refusal("bad_ref", f"the $ref at {pointer or '/'} is a {type(ref).__name__}, not a string")
    target = walk.ref_hook(ref)
    walk.refs.add(target)
    if not guarded:
        walk.unguarded.add(target)
    out: dict[str, Any] = {"$ref": target}
    for key, value in schema.items():
        if key == "$ref" or (not walk.ref_siblings and key != "description"):
            continue
        _keyword(key, value, out, walk, pointer, depth, guarded)
    if schema.get("nullable") is True or schema.get("x-nullable") is True:
        out = _nullable(out)
    return out


def _keyword(key: str, value: Any, out: dict[str, Any], walk: Walk, pointer: str, depth: int, guarded: bool) -> None:
    """Copy one keyword into ``out``, normalising subschemas and converting 3.0/2.0 spellings."""
    here = f"{pointer}/{escape(key)}"
    if key in _DROPPED or key.startswith("x-"):
        return
    if key in _UNSUPPORTED:
        raise Refusal("unsupported_schema", f"{key} at {pointer or '/'} is not supported")
    if key == "discriminator":
        walk.losses.append(Loss(pointer, key, value, "OpenAPI discriminator has no JSON Schema equivalent"))
    elif key == "type":
        out[key] = _type(value, pointer)
    elif key == "example":
        out.setdefault("examples", [value])
    elif key in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(value, bool):
        _boolean_exclusive(key, value, out)
    elif key in ("minimum", "maximum") and out.get(f"exclusive{key.title()}") is True:
        out[f"exclusive{key.title()}"] = value
    elif key == LEGACY_ITEMS and isinstance(value, list):
        out["prefixItems"] = [_node(s, walk, f"{here}/{i}", depth + 1, guarded=True) for i, s in enumerate(value)]
    elif key in PARTS_ONE:
        out[key] = _node(value, walk, here, depth + 1, guarded=True)
    elif key in _GUARDED_MAP or key in IN_PLACE_MAP:
        out[key] = _schema_map(key, value, walk, here, depth, guarded=key not in IN_PLACE_MAP and guarded)
    elif key in PARTS_LIST:
        out[key] = _schema_list(key, value, walk, here, depth, guarded=True)
    elif key in IN_PLACE_ONE:
        out[key] = _node(value, walk, here, depth + 1, guarded=guarded)
    elif key in IN_PLACE_LIST:
        out[key] = _schema_list(key, value, walk, here, depth, guarded=guarded)
    elif key == "required":
        out[key] = _required(value, pointer)
    else:
        out[key] = value


def _schema_map(key: str, value: Any, walk: Walk, pointer: str, depth: int, *, guarded: bool) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Refusal("unsupported_schema", f"{key} at {pointer} must be a mapping of schemas")
    guard = True if key in _GUARDED_MAP else guarded
    return {name: _node(s, walk, f"{pointer}/{escape(name)}", depth + 1, guarded=guard) for name, s in value.items()}


def _schema_list(key: str, value: Any, walk: Walk, pointer: str, depth: int, *, guarded: bool) -> list[Any]:
    if not isinstance(value, list):
        raise Refusal("unsupported_schema", f"{key} at {pointer} must be a list of schemas")
    return [_node(s, walk, f"{pointer}/{i}", depth + 1, guarded=guarded) for i, s in enumerate(value)]


def _type(value: Any, pointer: str) -> Any:
    names = value if isinstance(value, list) else [value]
    for name in names:
        if not isinstance(name, str):
            raise Refusal("unsupported_schema", f"type at {pointer or '/'} holds a {type(name).__name__}, not a name")
        if name == "file":
            raise Refusal("binary_body", f"the schema at {pointer or '/'} is a Swagger file upload")
        if name not in JSON_TYPES:
            raise Refusal("unsupported_schema", f"type {name!r} at {pointer or '/'} is not a JSON Schema type")
    return list(value) if isinstance(value, list) else value


def _required(value: Any, pointer: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise Refusal("unsupported_schema", f"required at {pointer or '/'} must be a list of property names")
    return list(dict.fromkeys(value))


def _boolean_exclusive(key: str, value: bool, out: dict[str, Any]) -> None:
    """3.0: ``exclusiveMinimum: true`` qualifies ``minimum``; 2020-12 puts the bound in the keyword itself."""
    bound = "minimum" if key == "exclusiveMinimum" else "maximum"
    if value and bound in out:
        out[key] = out.pop(bound)
    elif value:
        out[key] = True  # the bound comes later in the mapping; _keyword moves it here
    # false: the plain inclusive bound stays as it is


def _drop_dangling_exclusive(out: dict[str, Any]) -> None:
    for key in ("exclusiveMinimum", "exclusiveMaximum"):
        if out.get(key) is True:  # ``exclusiveMinimum: true`` with no bound to qualify
            del out[key]


def _nullable(out: dict[str, Any]) -> dict[str, Any]:
    kind = out.get("type")
    if isinstance(kind, str):
        out["type"] = [kind, "null"] if kind != "null" else kind
    elif isinstance(kind, list):
        out["type"] = kind if "null" in kind else [*kind, "null"]
    elif any(k in out for k in ("$ref", "allOf", "anyOf", "oneOf")):
        return {"anyOf": [out, {"type": "null"}]}
    if isinstance(out.get("enum"), list) and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
    return out


def _as_meant(out: dict[str, Any], walk: Walk, pointer: str) -> dict[str, Any]:
    """``out`` with the ``enum``/``const`` members its type rejects read as meant, each change a loss."""
    out, repairs = repaired(out)
    walk.losses.extend(Loss(pointer, r.keyword, r.value, r.reason) for r in repairs)
    return out


def _drop_read_only(source: Mapping[str, Any], out: dict[str, Any], walk: Walk) -> None:
    """Request schemas: readOnly properties cannot be sent, so they leave ``properties`` and ``required``."""
    raw = source.get("properties")
    if not isinstance(raw, dict):
        return
    gone = {name for name, s in raw.items() if isinstance(s, dict) and _is_read_only(s, walk)}
    if not gone:
        return
    out["properties"] = {k: v for k, v in out["properties"].items() if k not in gone}
    if "required" in out:
        out["required"] = [r for r in out["required"] if r not in gone]


def _is_read_only(schema: Mapping[str, Any], walk: Walk) -> bool:
    if schema.get("readOnly") is True:
        return True
    ref = schema.get("$ref")
    return isinstance(ref, str) and walk.read_only(ref)
