"""Local ``$ref`` resolution: lazy, memoised, never fetching, never deep-copying the document.

Plain JSON pointers (``#/components/schemas/Pet``) are walked directly; anything else (percent-encoding,
anchors) goes through the ``referencing`` library, imported only then, against the parsed document. A
``$ref`` that is not a local fragment (``other.yaml#/X``, ``https://...``) is refused with ``remote_ref``
and never fetched; one that points nowhere is refused with ``dangling_ref``.

Schema references are not inlined: each referenced schema becomes one entry of the tool's ``$defs``
(normalised once per document, on first use by a selected operation, and shared by every tool that needs it),
so recursive schemas stay finite and exact for the validator. Lowering inlines ``$defs`` with its own depth
limit and records where it cuts a cycle. Only cycles that no instance could ever end (``A: {allOf: [{$ref:
A}]}``, no object or array in between) are refused here, with ``circular_ref``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from toolkit._contract import Loss
from toolkit._openapi._normalise import Walk, normalise
from toolkit._openapi._refusal import Refusal

__all__ = ["MAX_DEFS", "MAX_HOPS", "Definition", "Resolver"]

MAX_DEFS = 1000
"""How many shared schemas one operation may pull in before it is refused (``schema_too_large``)."""

MAX_HOPS = 32
"""How long a chain of ``$ref`` to ``$ref`` may be for parameters, bodies and path items."""

_URI = "urn:toolkit:openapi-document"
_PREFIXES = ("#/components/schemas/", "#/definitions/")


@dataclass(frozen=True, slots=True)
class Definition:
    """One referenced schema, normalised: its ``$defs`` name, schema, the defs it refers to, its losses."""

    name: str
    schema: Any
    refs: frozenset[str]
    unguarded: frozenset[str]
    losses: tuple[Loss, ...]


class Resolver:
    """Resolves and memoises the local references of one document (created once per ``from_openapi``)."""

    def __init__(self, root: Mapping[str, Any], *, ref_siblings: bool) -> None:
        self._root = root
        self._general: Any = None
        self._ref_siblings = ref_siblings
        self._objects: dict[str, Any] = {}
        self._names: dict[str, str] = {}
        self._pointers: dict[str, str] = {}
        self._defs: dict[str, Definition | Refusal] = {}

    # -- plain objects: parameters, request bodies, path items ------------------------------------------
    def lookup(self, ref: Any) -> Any:
        """The object a local ``$ref`` points at (memoised)."""
        if not isinstance(ref, str):
            raise Refusal("unsupported_schema", f"a $ref must be a string, not {type(ref).__name__}")
        if ref in self._objects:
            return self._objects[ref]
        if not ref.startswith("#"):
            raise Refusal("remote_ref", f"$ref {ref!r} points outside this document; it is never fetched")
        found = _plain_pointer(self._root, ref) if "%" not in ref else _MISSING
        if found is _MISSING:
            found = self._general_lookup(ref)
        self._objects[ref] = found
        return found

    def _general_lookup(self, ref: str) -> Any:
        """Anything but a plain ``#/a/b`` pointer (percent-encoding, anchors): the ``referencing`` library."""
        from referencing import Registry
        from referencing.exceptions import Unresolvable
        from referencing.jsonschema import DRAFT202012

        if self._general is None:
            registry: Registry[Any] = Registry().with_resource(_URI, DRAFT202012.create_resource(self._root))
            self._general = registry.resolver(base_uri=_URI)
        try:
            return self._general.lookup(ref).contents
        except Unresolvable:
            raise Refusal("dangling_ref", f"$ref {ref[:200]!r} points nowhere in this document") from None
        except RecursionError:
            raise
        except Exception as exc:  # the library meets a malformed document (a list index that is no number,
            # a schema keyword holding a string while it looks for anchors): the reference cannot lead anywhere
            raise Refusal(
                "dangling_ref", f"$ref {ref[:200]!r} cannot be followed: {type(exc).__name__} in the document"
            ) from None

    def deref(self, obj: Any) -> Any:
        """Follow a chain of ``$ref`` objects (not schemas) to the object at its end."""
        for _ in range(MAX_HOPS):
            if not (isinstance(obj, dict) and "$ref" in obj):
                return obj
            obj = self.lookup(obj["$ref"])
        raise Refusal("circular_ref", f"a chain of more than {MAX_HOPS} $refs (or a $ref cycle)")

    # -- schemas: each referenced schema becomes one $defs entry ------------------------------------------
    def target(self, ref: str) -> str:
        """The ``#/$defs/...`` pointer that replaces ``ref`` (the schema itself is normalised lazily)."""
        name = self._names.get(ref)
        if name is None:
            self.lookup(ref)  # refuse remote and dangling refs now, where the operation can be named
            name = self._name(ref)
            self._names[ref] = name
            self._pointers[name] = ref
        return f"#/$defs/{name}"

    def walk(self) -> Walk:
        """A fresh normalisation state whose ``$ref`` hook registers targets with this resolver."""
        return Walk(ref_hook=self.target, ref_siblings=self._ref_siblings, read_only=self._read_only)

    def _read_only(self, ref: str) -> bool:
        try:
            target = self.deref({"$ref": ref})
        except Refusal:
            return False  # the $ref itself is refused where it is normalised
        return isinstance(target, dict) and target.get("readOnly") is True

    def definition(self, name: str) -> Definition:
        """The normalised schema behind a ``$defs`` name (memoised, refusals too)."""
        found = self._defs.get(name)
        if found is None:
            found = self._define(name)
            self._defs[name] = found
        if isinstance(found, Refusal):
            raise Refusal(found.slug, found.message)
        return found

    def closure(self, roots: Iterable[str]) -> tuple[dict[str, Any], tuple[Loss, ...]]:
        """Every definition reachable from ``roots`` (``$defs`` names), with their losses, cycles checked."""
        seen: dict[str, Definition] = {}
        todo = list(roots)
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            if len(seen) >= MAX_DEFS:
                raise Refusal("schema_too_large", f"the operation needs more than {MAX_DEFS} shared schemas")
            seen[name] = self.definition(name)
            todo.extend(seen[name].refs)
        _refuse_unguarded_cycles(seen)
        defs = {name: seen[name].schema for name in sorted(seen)}
        losses = tuple(loss for name in sorted(seen) for loss in seen[name].losses)
        return defs, losses

    def _define(self, name: str) -> Definition | Refusal:
        ref = self._pointers[name]
        walk = self.walk()
        raw = self.lookup(ref)
        if isinstance(raw, dict) and raw.get("$recursiveAnchor") is True:
            walk.recursive_ref = ref  # 2019-09 ``$recursiveRef: "#"`` inside it means this very schema
        try:
            schema = normalise(raw, walk, f"/$defs/{name}")
        except Refusal as refusal:
            return Refusal(refusal.slug, f"{refusal.message} (in {ref})")
        except RecursionError:
            return Refusal("schema_too_deep", f"{ref} nests too deep to read")
        refs = frozenset(t.removeprefix("#/$defs/") for t in walk.refs)
        unguarded = frozenset(t.removeprefix("#/$defs/") for t in walk.unguarded)
        return Definition(name, schema, refs, unguarded, tuple(walk.losses))

    def _name(self, ref: str) -> str:
        base = next((ref[len(p) :] for p in _PREFIXES if ref.startswith(p)), ref.lstrip("#/"))
        base = unquote(base).replace("~1", "/").replace("~0", "~")
        clean = re.sub(r"[^A-Za-z0-9_.-]", "_", base)[:100] or "schema"
        if clean != base or (clean in self._pointers and self._pointers[clean] != ref):
            clean = f"{clean}_{hashlib.sha1(ref.encode()).hexdigest()[:8]}"
        return clean


_MISSING = object()


def _plain_pointer(root: Any, ref: str) -> Any:
    """Walk a ``#/a/b~1c`` JSON pointer through dicts and lists; ``_MISSING`` when it does not lead anywhere.

    The common case, kept import-free and fast (referencing is 60 ms of imports); a miss goes to the general
    lookup, which gives the definitive answer (and the ``dangling_ref`` refusal)."""
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        return _MISSING
    node = root
    for token in ref[2:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif (
            isinstance(node, list)
            and token.isascii()
            and token.isdigit()
            and len(token) < 19
            and int(token) < len(node)
        ):
            node = node[int(token)]
        else:
            return _MISSING
    return node


def _refuse_unguarded_cycles(defs: Mapping[str, Definition]) -> None:
    """Refuse a ``$ref`` cycle that passes through no object or array (no instance can ever end it)."""
    state: dict[str, int] = {}
    for start in defs:
        if state.get(start):
            continue
        stack: list[tuple[str, Iterable[str]]] = [(start, iter(defs[start].unguarded))]
        state[start] = 1
        while stack:
            name, edges = stack[-1]
            nxt = next((e for e in edges if e in defs), None)
            if nxt is None:
                state[name] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                raise Refusal("circular_ref", f"schema {nxt!r} refers to itself with no object or array in between")
            elif not state.get(nxt):
                state[nxt] = 1
                stack.append((nxt, iter(defs[nxt].unguarded)))
