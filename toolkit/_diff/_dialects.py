"""Declarations of any dialect, read the way the diff rules read a ``gemini`` declaration.

The rules (:mod:`toolkit._diff._rules`) read ``{"name", "description", "parameters"}`` with a schema of
``type``/``nullable``/``properties``/``items``/``anyOf`` nodes. Another dialect's payload is brought to that
shape by its dialect (:meth:`toolkit._lowering.Dialect.view`: ``input_schema``, ``inputSchema``,
``parametersJsonSchema`` or OpenAI's ``function`` become ``parameters``), and its JSON Schema is made readable:

* every local ``$ref`` is inlined (its own keywords win over the target's), up to :data:`MAX_INLINE` references
  deep, so a change inside a definition is classified where it is used; a deeper (recursive) reference stays a
  ``$ref``, and a changed reference text is then a ``keyword_changed``;
* ``$defs``/``definitions`` go (they were inlined);
* an ``anyOf`` with a ``{"type": "null"}`` branch beside one other branch is that branch, ``nullable`` — the
  way the ``gemini`` dialect already says it, so "now accepts null" is ``nullable_added`` in every dialect.

Other fields of a payload (``strict``, ``annotations``, ``title``) are compared as declaration fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkit._exceptions import SchemaError
from toolkit._lowering import dialect_named
from toolkit._refs import Refs

__all__ = ["MAX_INLINE", "readable", "view"]

MAX_INLINE = 8
_NULL = {"type": "null"}


def view(declaration: Mapping[str, Any], dialect: str) -> dict[str, Any]:
    """``declaration`` (a ``dialect`` payload) in the shape the rules read."""
    out = dialect_named(dialect).view(declaration)
    if dialect != "gemini" and isinstance(out.get("parameters"), Mapping):
        out["parameters"] = readable(out["parameters"])
    return out


def readable(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON Schema with its local references inlined and its nulls read as ``nullable`` (see the module)."""
    refs = Refs(schema)
    result = _node(schema, refs, ())
    return result if isinstance(result, dict) else {}


def _node(schema: Any, refs: Refs, inlining: tuple[str, ...]) -> Any:
    if not isinstance(schema, Mapping):
        return schema
    node = {key: value for key, value in schema.items() if key not in ("$defs", "definitions")}
    ref = node.get("$ref")
    if isinstance(ref, str) and len(inlining) < MAX_INLINE and ref not in inlining:
        try:
            target = refs.lookup(ref)
        except SchemaError:
            target = None
        if isinstance(target, Mapping):
            inlined = _node(target, refs, (*inlining, ref))
            del node["$ref"]
            node = {**(inlined if isinstance(inlined, dict) else {}), **node}
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "properties" and isinstance(value, Mapping):
            out[key] = {name: _node(sub, refs, inlining) for name, sub in value.items()}
        elif key in ("items", "additionalProperties") and isinstance(value, Mapping):
            out[key] = _node(value, refs, inlining)
        elif key in ("anyOf", "oneOf", "allOf") and isinstance(value, list):
            out[key] = [_node(sub, refs, inlining) for sub in value]
        else:
            out[key] = value
    return _nullable(out)


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    branches = node.get("anyOf")
    if not isinstance(branches, list) or _NULL not in branches or len(branches) != 2:
        return node
    (other,) = [branch for branch in branches if branch != _NULL]
    if not isinstance(other, Mapping):
        return node
    rest = {key: value for key, value in node.items() if key != "anyOf"}
    return {**other, **rest, "nullable": True}
