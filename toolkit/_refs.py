"""Reading a JSON Schema document: the one ``$ref`` reader, and the JSON types a schema node accepts.

Every stage reads references here (lowering, validation, lints, fixtures and the OpenAPI stage, which reads
a whole OpenAPI document with it), so a reference means the same thing everywhere and fails with the same
:class:`~toolkit.SchemaError` slug everywhere.

What a ``$ref`` may be (the whole document is one resource; ``$id`` inside it changes nothing here):

* ``#`` -- the document's root;
* ``#`` + a JSON pointer (RFC 6901) written as a URI fragment (RFC 3986): the fragment is percent-decoded
  first (``%20`` is a space, ``%25`` a percent sign, ``%2F`` a slash that separates tokens like any other),
  then split on ``/``, then ``~1`` becomes ``/`` and ``~0`` becomes ``~`` in each token. ``#/$defs/...``,
  ``#/definitions/...``, ``#/components/schemas/...`` and any other pointer into the document
  (``#/properties/a/items/0``) are all just pointers. A list index is ``0`` or a number without leading zeros.
* ``#`` + a plain name (``#node``) -- the schema that declares ``"$anchor": "node"`` or
  ``"$dynamicAnchor": "node"``. Anchors are found by walking the keywords that hold schemas (``properties``,
  ``$defs``, ``items``, ``allOf`` ...), never inside values (``enum``, ``const``, ``default``, ``examples``),
  and not inside a subschema with an ``$id`` of its own (another resource, with anchors of its own). A name
  declared twice is ``bad_ref``. The whole document is one resource, so ``$dynamicRef`` resolves exactly as
  ``$ref`` does (its dynamic scope holds one resource): :func:`check_references` reads both.

The slugs, one per way a reference can fail:

* ``bad_ref`` -- malformed: not a string, empty, ``~`` not followed by ``0`` or ``1`` (``#/a~2b``), ``%`` not
  followed by two hex digits, percent-escapes that are not UTF-8, a fragment that is neither a pointer nor
  an anchor name;
* ``remote_ref`` -- another document (``other.json#/X``, ``https://...``, ``urn:...``): never fetched;
* ``unresolved_ref`` -- a pointer to nothing, or a plain-name anchor (``#node``) that no ``$anchor`` or
  ``$dynamicAnchor`` of the document declares;
* ``left_recursive_ref`` -- a reference cycle that never reads into the value (``A: {anyOf: [{$ref: A},
  ...]}``, or a ``$ref`` chain back to itself): the schema applies itself to the very value it is checking,
  so it has no meaning (2020-12 calls it invalid). Recursion through ``properties``, ``items`` and the like
  is fine: each step reads a smaller part of the value.

:class:`Refs` reads one document and remembers each reference it has read; :func:`follow` walks a chain of
references; :func:`check_references` reads every reference reachable from a schema and refuses left
recursion; :func:`schema_types` and :func:`main_type` answer "which JSON type is this node".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any, Final, Literal, NamedTuple, TypeGuard
from urllib.parse import unquote

from toolkit._canonical import JSON_TYPES, json_type
from toolkit._exceptions import SchemaError

__all__ = [
    "BAD_REF",
    "LEFT_RECURSIVE_REF",
    "REF_SLUGS",
    "REMOTE_REF",
    "SCHEMA_LIST",
    "SCHEMA_MAP",
    "SCHEMA_ONE",
    "UNRESOLVED_REF",
    "RefSlug",
    "Refs",
    "Resolve",
    "TypeSet",
    "check_references",
    "defs_name",
    "follow",
    "has_silent_objects",
    "is_ref_slug",
    "main_type",
    "schema_types",
    "silent_on_unlisted",
    "subschemas",
    "tokens",
]

RefSlug = Literal["bad_ref", "remote_ref", "unresolved_ref", "left_recursive_ref"]
BAD_REF: Final = "bad_ref"
REMOTE_REF: Final = "remote_ref"
UNRESOLVED_REF: Final = "unresolved_ref"
LEFT_RECURSIVE_REF: Final = "left_recursive_ref"
REF_SLUGS: Mapping[str, str] = {
    BAD_REF: "a $ref is malformed (not a string, a bad ~ or % escape, not a JSON pointer)",
    REMOTE_REF: "a $ref points at another file or URL (never fetched)",
    UNRESOLVED_REF: "a local $ref points nowhere (or is a plain-name anchor, which is not read)",
    LEFT_RECURSIVE_REF: "a $ref cycle that never reads into the value (no object or array in between)",
}
"""Every slug a reference can fail with, and what it means."""


def is_ref_slug(slug: str) -> TypeGuard[RefSlug]:
    """Whether ``slug`` is one a reference fails with (so another stage can pass it on as its own)."""
    return slug in REF_SLUGS


Resolve = Callable[[str], Any]
"""Anything that turns a ``$ref`` string into the node it names (a :class:`Refs` is one)."""

TypeSet = frozenset[str] | None
"""The JSON types a schema accepts; ``None`` means it does not constrain the type."""

_NAMED = {name: frozenset({name, "integer"} if name == "number" else {name}) for name in JSON_TYPES}
_NARROWING = frozenset({"enum", "const", "$ref", "anyOf", "oneOf", "allOf"})
"""Keywords besides ``type`` that :func:`schema_types` reads."""
_ANCHOR = re.compile(r"[A-Za-z_][-A-Za-z0-9._]*")
_BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_BAD_TILDE = re.compile(r"~(?![01])")
_INDEX = re.compile(r"0|[1-9][0-9]{0,17}")  # an index no list can reach is not read as a number


class _Parsed(NamedTuple):
    pointer: str
    tokens: tuple[str, ...]
    slug: RefSlug | None = None
    problem: str = ""
    anchor: str | None = None


_REMOTE = "points at another document, which is never fetched; inline it or copy it in"
_ANCHOR_HERE = "is a plain-name anchor, which is not read here; use a JSON pointer such as '#/$defs/Name'"
_NOT_POINTER = "is neither a JSON pointer (starting '#/') nor an anchor name"
_BAD_PERCENT_TEXT = "has a '%' that is not followed by two hex digits; write a percent sign as %25"
_BAD_TILDE_TEXT = "has a '~' that is not '~0' (a tilde) or '~1' (a slash) in a JSON pointer"


@lru_cache(maxsize=8192)
def _parse(ref: str) -> _Parsed:
    """Decode one ``$ref`` string, once: its JSON pointer and tokens, or the slug and words of its problem."""
    if not ref.startswith("#"):
        if not ref:
            return _Parsed("", (), BAD_REF, "is empty; use '#' for the root or '#/$defs/Name'")
        return _Parsed("", (), REMOTE_REF, _REMOTE)
    fragment = ref[1:]
    if "%" in fragment:
        if _BAD_PERCENT.search(fragment):
            return _Parsed("", (), BAD_REF, _BAD_PERCENT_TEXT)
        try:
            fragment = unquote(fragment, errors="strict")
        except UnicodeDecodeError:
            return _Parsed("", (), BAD_REF, "has percent-escapes that are not UTF-8")
    if not fragment:
        return _Parsed("", ())
    if not fragment.startswith("/"):
        if _ANCHOR.fullmatch(fragment):
            return _Parsed("", (), anchor=fragment)
        return _Parsed("", (), BAD_REF, _NOT_POINTER)
    if _BAD_TILDE.search(fragment):
        return _Parsed("", (), BAD_REF, _BAD_TILDE_TEXT)
    tokens = tuple(t.replace("~1", "/").replace("~0", "~") if "~" in t else t for t in fragment[1:].split("/"))
    return _Parsed(fragment, tokens)


def _refused(ref: Any, where: str | None, slug: RefSlug, problem: str) -> SchemaError:
    at = "" if where is None else f" at {where or 'the root'}"
    return SchemaError(f"$ref {ref!r}{at} {problem}", slug=slug)


def _read(ref: Any, where: str | None) -> _Parsed:
    if ref.__class__ is not str:
        raise _refused(ref, where, BAD_REF, f"is a {type(ref).__name__}; use a string like '#/$defs/Name'")
    parsed = _parse(ref)
    if parsed.slug:
        raise _refused(ref, where, parsed.slug, parsed.problem)
    return parsed


def _locate(
    root: Any, ref: Any, where: str | None, anchors: Callable[[], Mapping[str, tuple[str, Any]]]
) -> tuple[str, Any]:
    parsed = _read(ref, where)
    if parsed.anchor is not None:
        found = anchors().get(parsed.anchor)
        if found is None:
            raise _refused(ref, where, UNRESOLVED_REF, f"names no $anchor or $dynamicAnchor of the document "
                           f"(none is called {parsed.anchor!r}); declare it, or use a JSON pointer such as "
                           "'#/$defs/Name'")  # fmt: skip
        return found
    node = root
    for depth, token in enumerate(parsed.tokens):
        if node.__class__ is dict or isinstance(node, Mapping):
            if token in node:
                node = node[token]
                continue
        elif isinstance(node, list) and _INDEX.fullmatch(token) and int(token) < len(node):
            node = node[int(token)]
            continue
        reached = "/".join(parsed.pointer.split("/")[: depth + 1]) or "the root"
        raise _refused(ref, where, UNRESOLVED_REF, f"points to nothing: {reached} has no {token!r}")
    return parsed.pointer, node


def tokens(ref: Any) -> tuple[str, ...]:
    """The decoded reference tokens of a local ``$ref`` (``"#/$defs/a~1b%20c"`` -> ``("$defs", "a/b c")``).

    Raises :class:`~toolkit.SchemaError` with the reader's slug for a reference that is not a local pointer
    (a plain-name anchor is ``unresolved_ref``: it names no place by itself).
    """
    parsed = _read(ref, None)
    if parsed.anchor is not None:
        raise _refused(ref, None, UNRESOLVED_REF, _ANCHOR_HERE)
    return parsed.tokens


def defs_name(ref: str) -> str | None:
    """The ``$defs`` name a reference reads (``#/$defs/Name`` -> ``"Name"``), or None for any other reference."""
    try:
        path = tokens(ref)
    except SchemaError:
        return None
    return path[1] if len(path) == 2 and path[0] == "$defs" else None


class Refs:
    """The local references of one document (a schema, or a whole OpenAPI document), each read once.

    ``locate(ref)`` gives the target's JSON pointer and node, ``lookup(ref)`` (or calling the object) the node.
    A failed reference raises :class:`~toolkit.SchemaError` with one of :data:`REF_SLUGS`; ``where`` (a JSON
    pointer to the ``$ref``) goes into the message.
    """

    __slots__ = ("_anchors", "_found", "root")

    def __init__(self, root: Any) -> None:
        self.root = root
        self._found: dict[str, tuple[str, Any]] = {}
        self._anchors: dict[str, tuple[str, Any]] | None = None

    def locate(self, ref: Any, where: str | None = None) -> tuple[str, Any]:
        found = self._found.get(ref) if ref.__class__ is str else None
        if found is None:
            found = _locate(self.root, ref, where, self.anchors)
            self._found[ref] = found
        return found

    def anchors(self) -> Mapping[str, tuple[str, Any]]:
        """Every plain-name anchor of the document (``$anchor`` and ``$dynamicAnchor``): its pointer and node."""
        if self._anchors is None:
            self._anchors = _anchors(self.root)
        return self._anchors

    def lookup(self, ref: Any, where: str | None = None) -> Any:
        return self.locate(ref, where)[1]

    def __call__(self, ref: str) -> Any:
        return self.locate(ref)[1]


def follow(node: Any, resolve: Resolve, *, merge: bool = True) -> Any:
    """``node`` with its chain of ``$ref`` s followed to the first node that is not a reference.

    With ``merge`` (schemas), the keywords beside each ``$ref`` are laid over its target, the outermost
    winning (``{"$ref": ..., "description": ...}`` keeps its own description): a reading of the schema for
    lints, fixtures and phrases, not for enforcing it. Without (OpenAPI reference objects), they are ignored.
    A chain that comes back to itself raises ``left_recursive_ref``.
    """
    if (node.__class__ is not dict and (node is None or not isinstance(node, Mapping))) or "$ref" not in node:
        return node
    layers: list[dict[str, Any]] = []
    chain: list[str] = []
    seen: set[int] = set()
    while (node.__class__ is dict or (node is not None and isinstance(node, Mapping))) and "$ref" in node:
        ref = node["$ref"]
        if merge and len(node) > 1:
            layers.append({key: value for key, value in node.items() if key != "$ref"})
        chain.append(str(ref))
        node = resolve(ref)
        if id(node) in seen:
            raise SchemaError(
                f"the $ref chain {' -> '.join(chain)} comes back to itself, so nothing is at its end; "
                "point one of them at a real definition",
                slug=LEFT_RECURSIVE_REF,
            )
        seen.add(id(node))
    for layer in reversed(layers):
        node = {**node, **layer} if isinstance(node, Mapping) else {**layer, "allOf": [node]}
    return node


# -- reading every reference, refusing left recursion -----------------------------------------------------
_IN_PLACE = ("anyOf", "oneOf", "allOf")
"""Keywords whose subschemas apply to the same value as their parent (with ``$ref``, ``not``, ``if``)."""
_PART_ONE = ("additionalProperties", "items", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems")
_PART_MAP = ("properties", "patternProperties")
SCHEMA_ONE: Final = (*_PART_ONE, "not", "if", "then", "else", "contentSchema")
"""Keywords whose value is one subschema."""
SCHEMA_MAP: Final = (*_PART_MAP, "$defs", "definitions", "dependentSchemas")
"""Keywords whose value maps names to subschemas."""
SCHEMA_LIST: Final = (*_IN_PLACE, "prefixItems")
"""Keywords whose value is a list of subschemas."""
Edge = tuple[Any, str]


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
                yield from ((sub, f"{at}/{key}/{_escape(str(name))}") for name, sub in value.items())
        elif isinstance(value, list):
            yield from ((sub, f"{at}/{key}/{i}") for i, sub in enumerate(value))


_SPAN = 100
_HOLDERS: Final = {
    key: kind * _SPAN + rank
    for kind, keys in enumerate((SCHEMA_ONE, SCHEMA_MAP, SCHEMA_LIST))
    for rank, key in enumerate(keys)
}
"""Each keyword that holds subschemas → its kind (one, map, list) × ``_SPAN`` + its place in its kind's list."""


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1") if "~" in token or "/" in token else token


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
    todo, seen = [schema], set()
    while todo:
        node = todo.pop()
        if not isinstance(node, Mapping) or id(node) in seen:
            continue
        seen.add(id(node))
        if silent_on_unlisted(node):
            return True
        todo.extend(sub for sub, _ in subschemas(node))
    return False


def _anchors(root: Any) -> dict[str, tuple[str, Any]]:
    """The plain-name anchors of ``root``'s resource: not inside values, nor inside a subschema with its own ``$id``."""
    found: dict[str, tuple[str, Any]] = {}
    todo: list[Edge] = [(root, "")]
    seen: set[int] = set()
    while todo:
        node, at = todo.pop()
        if not isinstance(node, Mapping) or id(node) in seen or (at and "$id" in node):
            continue
        seen.add(id(node))
        for key in ("$anchor", "$dynamicAnchor"):
            name = node.get(key)
            if not isinstance(name, str):
                continue
            if name in found and found[name][1] is not node:
                raise SchemaError(
                    f"the anchor {name!r} is declared twice, at {found[name][0] or 'the root'} and {at or 'the root'}; "
                    "an anchor names one schema: rename one",
                    slug=BAD_REF,
                )
            found[name] = (at, node)
        todo.extend(subschemas(node, at))
    return found


def _edges(schema: Mapping[str, Any], at: str, resolve: Resolve) -> tuple[list[Edge], list[Edge]]:
    """The subschemas of ``schema`` applied to the same value, and those applied to a part of it."""
    same: list[Edge] = []
    for keyword in ("$ref", "$dynamicRef"):
        if keyword in schema:
            ref = schema[keyword]
            target = resolve.lookup(ref, at[1:]) if isinstance(resolve, Refs) else resolve(ref)
            same.append((target, ref if isinstance(ref, str) else repr(ref)))
    for key in _IN_PLACE:
        branches = schema.get(key)
        if isinstance(branches, list):
            same.extend((sub, f"{at}/{key}/{i}") for i, sub in enumerate(branches))
    conditional = ("if", "then", "else") if "then" in schema or "else" in schema else ()
    same.extend((schema[key], f"{at}/{key}") for key in ("not", *conditional) if key in schema)
    dependent = schema.get("dependentSchemas")
    if isinstance(dependent, Mapping):
        same.extend((sub, f"{at}/dependentSchemas/{name}") for name, sub in dependent.items())
    parts: list[Edge] = []
    for key in _PART_MAP:
        table = schema.get(key)
        if table.__class__ is dict or (
            table is not None and isinstance(table, Mapping)
        ):  # a dict or None, mostly: no ABC check
            parts.extend((sub, f"{at}/{key}/{name}") for name, sub in table.items())
    parts.extend((schema[key], f"{at}/{key}") for key in _PART_ONE if key in schema)
    prefix = schema.get("prefixItems")
    if isinstance(prefix, list):
        parts.extend((sub, f"{at}/prefixItems/{i}") for i, sub in enumerate(prefix))
    return same, parts


def check_references(schema: Any, resolve: Resolve, done: dict[int, int] | None = None, at: str = "#") -> None:
    """Read every reference reachable from ``schema`` (raising the reader's slugs) and refuse left recursion.

    Left recursion is a reference cycle through ``$ref`` / ``$dynamicRef`` / ``anyOf`` / ``oneOf`` / ``allOf`` /
    ``not`` / ``if``-``then``-``else`` / ``dependentSchemas`` that never steps into ``properties``, ``items`` and
    the like; it raises ``SchemaError(slug="left_recursive_ref")`` naming the cycle. Cutting the cycle instead
    is not sound: for a cycle through two definitions the cut would depend on which one was entered first, and
    a cycle through ``not`` has no consistent meaning at all. One iterative depth-first walk: linear in the
    schema's size. ``done`` (``id`` of a node -> state) may be shared between calls over one document, so that
    each node is walked once however many times it is asked about.
    """
    state: dict[int, int] = {} if done is None else done  # 1 while on the current path, 2 when done
    entries: list[Edge] = [(schema, at)]
    while entries:
        start, where = entries.pop()
        if not isinstance(start, Mapping) or id(start) in state:
            continue
        state[id(start)] = 1
        same, parts = _edges(start, where, resolve)
        entries.extend(parts)
        path: list[tuple[Mapping[str, Any], str, list[Edge]]] = [(start, where, same)]
        while path:
            node, _, todo = path[-1]
            if not todo:
                state[id(node)] = 2
                path.pop()
                continue
            sub, there = todo.pop()
            if not isinstance(sub, Mapping):
                continue
            seen = state.get(id(sub))
            if seen == 1:
                first = next(i for i, step in enumerate(path) if step[0] is sub)
                cycle = (*(step[1] for step in path[first:]), there)
                raise SchemaError(
                    f"the schema refers back to itself without reading into the value: {' -> '.join(cycle)}; such "
                    "a branch can never match anything new, so remove it, or put the recursion under properties "
                    "or items",
                    slug=LEFT_RECURSIVE_REF,
                )
            if seen is None:
                state[id(sub)] = 1
                same, parts = _edges(sub, there, resolve)
                entries.extend(parts)
                path.append((sub, there, same))


# -- the JSON type of a schema node ------------------------------------------------------------------------
def _of_value(value: Any) -> str:
    kind = json_type(value)
    return kind if kind in JSON_TYPES else "other"


def schema_types(node: Any, resolve: Resolve | None = None, *, deep: bool = True, depth: int = 0) -> TypeSet:
    """The JSON types a value may have under ``node``, or ``None`` when ``node`` does not constrain the type.

    Reads ``type`` (a name or a list; ``number`` includes ``integer``; OpenAPI's ``nullable: true`` adds
    ``null``), ``enum`` and ``const`` (the types of their values), and, meeting them, ``allOf`` members, the
    union of ``anyOf`` / ``oneOf`` branches and, given ``resolve``, the ``$ref`` target. ``true`` and ``{}``
    give ``None``; ``false`` gives the empty set (nothing is accepted). With ``deep=False``, only the node's
    own keywords count (``type``, ``nullable``, ``enum``, ``const``): what the node itself declares.
    """
    if (node.__class__ is not dict and not isinstance(node, Mapping)) or depth > 16:
        return frozenset() if node is False else None
    found: TypeSet = None
    kinds = node.get("type")
    if kinds.__class__ is str and node.get("nullable") is not True:
        found = _NAMED.get(kinds) or frozenset({kinds})
    elif isinstance(kinds, str | list):
        named = {kinds} if isinstance(kinds, str) else {k for k in kinds if isinstance(k, str)}
        if node.get("nullable") is True:  # OpenAPI 3.0's spelling, honoured as the declaration honours it
            named.add("null")
        found = frozenset(named | ({"integer"} if "number" in named else set()))
    if _NARROWING.isdisjoint(node):
        return found
    for key in ("enum", "const"):
        if key in node:
            values = node[key] if key == "enum" and isinstance(node[key], list) else [node[key]]
            found = _meet(found, frozenset(_of_value(v) for v in values))
    if not deep:
        return found
    if resolve is not None and "$ref" in node:
        found = _meet(found, schema_types(resolve(node["$ref"]), resolve, depth=depth + 1))
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list) and branches:
            found = _meet(found, _join([schema_types(b, resolve, depth=depth + 1) for b in branches]))
    for sub in node.get("allOf") or ():
        found = _meet(found, schema_types(sub, resolve, depth=depth + 1))
    return found


def main_type(
    node: Any,
    resolve: Resolve | None = None,
    *,
    default: str | None = None,
    branches: bool = True,
    sole: bool = False,
    depth: int = 0,
) -> str | None:
    """The one JSON type to make or show a value of ``node`` as (an example value, a form control).

    The first of: the declared ``type`` (of a list, the first name that is not ``null``; ``null`` when it is
    all); the type of ``const``, or of the first ``enum`` member that is not null; the shape (``properties``
    or ``required``: ``object``; ``items`` or ``prefixItems``: ``array``); given ``resolve``, the ``$ref``
    target's main type; with ``branches``, the first ``anyOf`` / ``oneOf`` branch whose main type is not
    ``null``; else ``default``. Without ``branches``, a union is left to its branches (``default``): a caller
    reading the node's own keywords (``maxLength``, ``minimum``) must not take one branch's type for them.

    With ``sole``, only a type the node is sure of: the one type :func:`schema_types` leaves besides ``null``
    (``number`` covering ``integer``), or ``null`` when that is all it accepts; ``default`` when it accepts
    several types or does not constrain the type. That is the question "which value is surely of the wrong
    type here?" needs answered.
    """
    if sole:
        return _sole(schema_types(node, resolve), default)
    if not isinstance(node, Mapping) or depth > 16:
        return default
    kinds = node.get("type")
    if isinstance(kinds, str):
        return kinds
    if isinstance(kinds, list) and kinds:
        names = [k for k in kinds if isinstance(k, str)]
        return next((k for k in names if k != "null"), "null" if names else default)
    if "const" in node:
        return _of_value(node["const"])
    members = node.get("enum")
    if isinstance(members, list) and members:
        return next((_of_value(v) for v in members if v is not None), "null")
    if "properties" in node or "required" in node:
        return "object"
    if "items" in node or "prefixItems" in node:
        return "array"
    if resolve is not None and "$ref" in node:
        return main_type(resolve(node["$ref"]), resolve, default=default, branches=branches, depth=depth + 1)
    for key in ("anyOf", "oneOf") if branches else ():
        for branch in node.get(key) or ():
            found = main_type(branch, resolve, depth=depth + 1)
            if found is not None and found != "null":
                return found
    return default


def _sole(types: TypeSet, default: str | None) -> str | None:
    if not types:
        return default
    named = types - {"null"}
    if "number" in named:
        named -= {"integer"}
    if len(named) == 1:
        return next(iter(named))
    return "null" if not named else default


def _meet(a: TypeSet, b: TypeSet) -> TypeSet:
    if a is None:
        return b
    if b is None:
        return a
    return a & b


def _join(sets: Sequence[TypeSet]) -> TypeSet:
    if any(s is None for s in sets):
        return None
    return frozenset().union(*[s for s in sets if s is not None])
