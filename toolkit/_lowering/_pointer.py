"""Local ``$ref`` resolution: JSON pointers into the schema being lowered, nothing else.

Only fragment references into the same document are read (``#``, ``#/$defs/Name``, ``#/definitions/Name``,
any JSON pointer such as ``#/properties/a/items``, percent-encoded or not). A reference to another
document is never fetched: it raises :class:`~toolkit.SchemaError` (slug ``remote_ref``), and a pointer to
nowhere or a plain-name anchor raises slug ``unresolved_ref``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote

from toolkit._exceptions import SchemaError
from toolkit._lowering._keywords import bad

__all__ = ["resolve"]


def resolve(root: Mapping[str, Any], ref: Any, path: str) -> tuple[str, Any]:
    """Find a local ``$ref`` target; returns its JSON pointer and the node."""
    where = path or "the root"
    if not isinstance(ref, str):
        raise bad(path, "$ref", f"is a {type(ref).__name__}; use a string like '#/$defs/Name'")
    if not ref.startswith("#"):
        raise SchemaError(
            f"$ref {ref!r} at {where} is not local; inline it or move it under $defs "
            "(lowering never fetches remote schemas)",
            slug="remote_ref",
        )
    pointer = unquote(ref[1:])
    if pointer and not pointer.startswith("/"):
        raise SchemaError(f"$ref {ref!r} at {where} is an anchor; use a JSON pointer", slug="unresolved_ref")
    node: Any = root
    for token in pointer.split("/")[1:]:
        key = token.replace("~1", "/").replace("~0", "~")
        if (node.__class__ is dict or isinstance(node, Mapping)) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            raise SchemaError(f"$ref {ref!r} at {where} points to nothing", slug="unresolved_ref")
    return pointer, node
