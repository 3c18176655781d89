"""The ``$defs`` a document's references become: resolved lazily, memoised, never fetched, never deep-copied.

References are read by :class:`toolkit._schema.Refs` (the reader every stage uses), so they are refused with its
slugs: ``remote_ref`` for another document (``other.yaml#/X``, ``https://...``: never fetched),
``unresolved_ref`` for a pointer to nowhere (or a plain-name anchor), ``bad_ref`` for a malformed one.

Schema references are not inlined: each referenced schema becomes one entry of the tool's ``$defs``
(normalised once per document, on first use by a selected operation, and shared by every tool that needs it),
so recursive schemas stay finite and exact for the validator. Lowering inlines ``$defs`` with its own depth
limit and records where it cuts a cycle. Only cycles that no instance could ever end (``A: {allOf: [{$ref:
A}]}``, no object or array in between), and chains of reference objects that come back to themselves, are
refused here, with ``left_recursive_ref`` (the slug lowering and validation give the same schema).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from toolkit._contract import Loss
from toolkit._exceptions import SchemaError
from toolkit._openapi._normalise import Walk, normalise
from toolkit._openapi._refusal import Refusal
from toolkit._schema import LEFT_RECURSIVE_REF, Refs, RefSlug, follow, is_ref_slug, tokens

__all__ = ["MAX_DEFS", "Definition", "Resolver"]

MAX_DEFS = 1000
"""How many shared schemas one operation may pull in before it is refused (``schema_too_large``)."""

_PREFIXES = (("components", "schemas"), ("definitions",))


@dataclass(frozen=True, slots=True)
class Definition:
    """One referenced schema, normalised: its ``$defs`` name, schema, the defs it refers to, its losses."""

    name: str
    schema: Any
    refs: frozenset[str]
    unguarded: frozenset[str]
    losses: tuple[Loss, ...]


def _refusal(error: SchemaError) -> Refusal:
    """A reference the shared reader refused, as this operation's refusal (with the same slug)."""
    slug = error.slug
    return _ref_refusal(slug, error.message) if is_ref_slug(slug) else Refusal("unsupported_schema", error.message)


def _ref_refusal(slug: RefSlug, message: str) -> Refusal:
    return Refusal(slug, message)


class Resolver:
    """Resolves and memoises the local references of one document (created once per ``from_openapi``)."""

    def __init__(self, root: Mapping[str, Any], *, ref_siblings: bool) -> None:
        self._refs = Refs(root)
        self._ref_siblings = ref_siblings
        self._names: dict[str, str] = {}
        self._pointers: dict[str, str] = {}
        self._defs: dict[str, Definition | Refusal] = {}
        self._closures: dict[frozenset[str], tuple[dict[str, Any], tuple[Loss, ...]] | Refusal] = {}
        self._derefs: dict[int, tuple[Any, Any]] = {}
        """Reference objects followed, by identity (the object kept beside), with what they point at."""

    # -- plain objects: parameters, request bodies, path items ------------------------------------------
    def lookup(self, ref: Any) -> Any:
        """The object a local ``$ref`` points at (memoised)."""
        try:
            return self._refs.lookup(ref)
        except SchemaError as error:
            raise _refusal(error) from None

    def deref(self, obj: Any) -> Any:
        """Follow a chain of ``$ref`` objects (not schemas: the keywords beside each ``$ref`` are ignored); each
        reference object once (operations share them)."""
        if obj.__class__ is not dict or "$ref" not in obj:
            return follow(obj, self._refs, merge=False)
        found = self._derefs.get(id(obj))
        if found is not None and found[0] is obj:
            return found[1]
        try:
            target = follow(obj, self._refs, merge=False)
        except SchemaError as error:
            raise _refusal(error) from None
        self._derefs[id(obj)] = (obj, target)
        return target

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
            raise found.again()
        return found

    def closure(self, roots: Iterable[str]) -> tuple[dict[str, Any], tuple[Loss, ...]]:
        """Every definition reachable from ``roots`` (``$defs`` names), with their losses, cycles checked
        (memoised by the set of roots: many operations share one; each caller gets its own ``$defs`` dict)."""
        key = frozenset(roots)
        found = self._closures.get(key)
        if found is None:
            try:
                found = self._closure(sorted(key))
            except Refusal as refusal:
                found = refusal.again()
            self._closures[key] = found
        if isinstance(found, Refusal):
            raise found.again()
        return dict(found[0]), found[1]

    def _closure(self, roots: Iterable[str]) -> tuple[dict[str, Any], tuple[Loss, ...]]:
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
        path = tokens(ref)
        base = "/".join(next((path[len(p) :] for p in _PREFIXES if path[: len(p)] == p), path))
        clean = re.sub(r"[^A-Za-z0-9_.-]", "_", base)[:100] or "schema"
        if clean != base or (clean in self._pointers and self._pointers[clean] != ref):
            clean = f"{clean}_{hashlib.sha1(ref.encode()).hexdigest()[:8]}"
        return clean


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
                raise Refusal(LEFT_RECURSIVE_REF, f"schema {nxt!r} refers to itself with no object or array in between")
            elif not state.get(nxt):
                state[nxt] = 1
                stack.append((nxt, iter(defs[nxt].unguarded)))
