"""JSON pointers and anchors: the one ``$ref`` reader.

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
  ``$ref`` does (its dynamic scope holds one resource): :func:`~toolkit._schema.check_references` reads both.

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
references; :func:`tokens` and :func:`defs_name` decode one reference.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, Final, Literal, NamedTuple, TypeGuard
from urllib.parse import unquote

from toolkit._exceptions import SchemaError
from toolkit._regex import lazy
from toolkit._schema._walk import Edge, subschemas, unescape

__all__ = [
    "BAD_REF",
    "LEFT_RECURSIVE_REF",
    "REF_SLUGS",
    "REMOTE_REF",
    "UNRESOLVED_REF",
    "RefSlug",
    "Refs",
    "Resolve",
    "defs_name",
    "follow",
    "is_ref_slug",
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

_ANCHOR = lazy(r"[A-Za-z_][-A-Za-z0-9._]*")
_BAD_PERCENT = lazy(r"%(?![0-9A-Fa-f]{2})")
_BAD_TILDE = lazy(r"~(?![01])")
_INDEX = lazy(r"0|[1-9][0-9]{0,17}")  # an index no list can reach is not read as a number


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
    tokens = tuple(unescape(t) for t in fragment[1:].split("/"))
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
