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

A diff side is a declaration dict, a :class:`~toolkit.Tool` (its ``payload(dialect)``; a tool the dialect
refuses counts as absent) or a collection of either; :func:`collection_of` and :func:`declaration_of` read it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from toolkit._exceptions import SchemaError
from toolkit._lowering import dialect_named
from toolkit._schema import Refs

__all__ = ["MAX_INLINE", "collection_of", "declaration_of", "is_declaration", "many_of", "readable", "view"]

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


# -- sides -------------------------------------------------------------------------------------------------
def declaration_of(item: Any, dialect: str = "gemini") -> dict[str, Any] | None:
    """``item``'s declaration in ``dialect``, in the rules' shape (``None``: a tool the dialect refuses)."""
    if hasattr(item, "declaration") and callable(getattr(item, "payload", None)):
        body = item.payload(dialect).body
        return None if body is None else view(body, dialect)
    declaration = getattr(item, "declaration", None)
    if isinstance(declaration, Mapping):
        return view(declaration, dialect)
    if is_declaration(item, dialect):
        return view(item, dialect)
    raise TypeError(
        f"cannot diff a {type(item).__name__}: pass a declaration dict ({{'name': ..., 'description': ...}}), "
        "a Tool, or a collection of either"
    )


def is_declaration(item: Any, dialect: str) -> bool:
    return isinstance(item, Mapping) and isinstance(view(item, dialect).get("name"), str)


def collection_of(side: Any, dialect: str = "gemini") -> dict[str, dict[str, Any]] | None:
    """``{name: declaration}`` for a collection side (tools the dialect refuses left out), ``None`` for a
    single declaration or tool."""
    if hasattr(side, "declaration") or is_declaration(side, dialect):
        return None
    if isinstance(side, Mapping):
        found = {str(name): declaration_of(item, dialect) for name, item in side.items()}
        return {name: d for name, d in found.items() if d is not None}
    if isinstance(side, Iterable) and not isinstance(side, str | bytes):
        declarations = [d for d in (declaration_of(item, dialect) for item in side) if d is not None]
        return {d["name"]: d for d in declarations}
    raise TypeError(f"cannot diff a {type(side).__name__}: pass a declaration dict, a Tool, or a collection")


def many_of(side: Any, dialect: str) -> dict[str, dict[str, Any]]:
    many = collection_of(side, dialect)
    if many is not None:
        return many
    single = declaration_of(side, dialect)
    return {} if single is None else {single["name"]: single}
