"""The subschema walker: every subschema directly under a node, with its JSON pointer, and walks built on it.

:func:`subschemas` reads the positions of :data:`~toolkit._schema._keywords.SCHEMA_ONE`, ``SCHEMA_MAP`` and
``SCHEMA_LIST`` in that order. :func:`schemas_in` walks a whole document with it (each node once, ``$defs``
included, references not followed) and :func:`reachable` is that walk over any edges (a closure through
references and in-place keywords, say); :func:`has_silent_objects` is one question asked along the walk.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Final

from toolkit._schema._keywords import SCHEMA_LIST, SCHEMA_MAP, SCHEMA_ONE

__all__ = [
    "Edge",
    "escape",
    "has_silent_objects",
    "reachable",
    "schemas_in",
    "silent_on_unlisted",
    "subschemas",
    "unescape",
]

Edge = tuple[Any, str]
"""A subschema and its JSON pointer."""

_SPAN = 100
_HOLDERS: Final = {
    key: kind * _SPAN + rank
    for kind, keys in enumerate((SCHEMA_ONE, SCHEMA_MAP, SCHEMA_LIST))
    for rank, key in enumerate(keys)
}
"""Each keyword that holds subschemas → its kind (one, map, list) × ``_SPAN`` + its place in its kind's list."""


def escape(token: str) -> str:
    """One JSON pointer reference token (RFC 6901): ``~`` as ``~0``, then ``/`` as ``~1``."""
    return token.replace("~", "~0").replace("/", "~1") if "~" in token or "/" in token else token


def unescape(token: str) -> str:
    """The text of one JSON pointer reference token: ``~1`` as ``/``, then ``~0`` as ``~`` (the inverse of
    :func:`escape`)."""
    return token.replace("~1", "/").replace("~0", "~") if "~" in token else token


def subschemas(schema: Mapping[str, Any], at: str = "", skip: frozenset[str] = frozenset()) -> Iterator[Edge]:
    """Every subschema directly under ``schema`` (by the 2020-12 keywords that hold schemas), with its pointer;
    by keyword in the order of :data:`SCHEMA_ONE`, :data:`SCHEMA_MAP` and :data:`SCHEMA_LIST`, less the
    keywords in ``skip``."""
    found = [key for key in schema if key in _HOLDERS and key not in skip]  # a node has a few keys: read those
    if len(found) > 1:
        found.sort(key=_HOLDERS.__getitem__)
    for key in found:
        value = schema[key]
        kind = _HOLDERS[key] // _SPAN
        if kind == 0:
            yield value, f"{at}/{key}"
        elif kind == 1:
            if value.__class__ is dict or (value is not None and isinstance(value, Mapping)):
                yield from ((sub, f"{at}/{key}/{escape(str(name))}") for name, sub in value.items())
        elif isinstance(value, list):
            yield from ((sub, f"{at}/{key}/{i}") for i, sub in enumerate(value))


def reachable(schema: Any, step: Callable[[Mapping[str, Any]], Iterable[Any]]) -> Iterator[Mapping[str, Any]]:
    """``schema`` and every schema object ``step`` leads to from it, each once (by identity), depth first with
    the last of a node's steps first; what is not a schema object (``true``, ``false``) is passed over."""
    todo, seen = [schema], set()
    while todo:
        node = todo.pop()
        if not isinstance(node, Mapping) or id(node) in seen:
            continue
        seen.add(id(node))
        yield node
        todo.extend(step(node))


def _children(node: Mapping[str, Any]) -> Iterator[Any]:
    return (sub for sub, _ in subschemas(node))


def schemas_in(schema: Any) -> Iterator[Mapping[str, Any]]:
    """Every schema object in the document under ``schema`` (itself, ``$defs`` included), each once. References
    are not followed: what they name is in the document too."""
    return reachable(schema, _children)


def silent_on_unlisted(node: Any) -> bool:
    """A schema that lists ``properties`` and says nothing of ``additionalProperties`` or
    ``unevaluatedProperties``: an object whose unlisted keys ``Policy.unlisted_properties`` decides."""
    return (
        isinstance(node, Mapping)
        and "properties" in node
        and "additionalProperties" not in node
        and "unevaluatedProperties" not in node
    )


def has_silent_objects(schema: Any) -> bool:
    """Whether any schema in the document (``$defs`` included) is :func:`silent_on_unlisted`."""
    return any(silent_on_unlisted(node) for node in schemas_in(schema))
