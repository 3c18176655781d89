"""Lint work shared by the tools of one document: each top-level parameter is walked and judged once.

Most rules judge one field at a time (``FIELD_RULES``), and a field's findings depend only on the top-level
parameter it sits under (its schema and name) and on what its references point at. A :class:`LintMemo` keeps,
per parameter, its fields (walked as :func:`~toolkit._lints._subject.walk` walks them) and each field rule's
findings, and the references read on the way; a later tool reuses them when the same references still read
the same schemas. Tool-level rules (name, description, size, parameter count, framework) run on every tool.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkit._canonical import json_text_key
from toolkit._contract import Lint
from toolkit._exceptions import SchemaError
from toolkit._lints._subject import Field, walk
from toolkit._lints._words import read
from toolkit._schema import Refs, defs_name, follow

__all__ = ["Group", "LintMemo", "RecordingRefs"]


class RecordingRefs(Refs):
    """The references of one schema, noting each one read (and what it pointed at) while a parameter is judged."""

    __slots__ = ("read",)

    def __init__(self, refs: Refs) -> None:
        super().__init__(refs.root)
        self._found = refs._found  # the tool's own cache: what one group has read, the next reads for free
        self.read: dict[str, Any] = {}

    def locate(self, ref: Any, where: str | None = None) -> tuple[str, Any]:
        found = super().locate(ref, where)
        if ref.__class__ is str:
            self.read[ref] = found[1]
        return found


class Group:
    """One top-level parameter: its fields, each field rule's findings so far, and the references they read.

    This module's two classes are plain classes with slots: dataclasses would cost the import of the lint stage
    more than their generated methods are worth here (they are filled, never compared or printed).
    """

    __slots__ = ("fields", "findings", "found", "judged", "read", "refs", "source")

    source: Any
    refs: RecordingRefs
    fields: tuple[Field, ...]
    findings: dict[str, tuple[Lint, ...]]
    judged: bool
    """Whether :attr:`findings` holds every field rule's findings."""
    found: tuple[tuple[str, tuple[Lint, ...]], ...]
    """The field rules that found something, in catalogue order, with their findings (once judged)."""
    read: tuple[tuple[str, str | None, Any], ...] | None
    """The references read, once the group is reused: text, ``$defs`` name (if plain) and target."""

    def __init__(self, source: Any, refs: RecordingRefs, fields: tuple[Field, ...]) -> None:
        self.source, self.refs, self.fields = source, refs, fields
        self.findings, self.judged, self.found, self.read = {}, False, (), None


class LintMemo:
    """Top-level parameters already judged, for the tools of one document (their ``$defs`` names must mean the
    same schemas)."""

    __slots__ = ("by_content", "groups")

    groups: dict[tuple[int, str], Group]
    """By the property schema's identity (kept in :attr:`Group.source`) and name."""
    by_content: dict[tuple[bytes, str], Group]
    """By the property schema's JSON text (keys in order) and name, for schemas built afresh per operation."""

    def __init__(self) -> None:
        self.groups, self.by_content = {}, {}

    def group(self, refs: Refs, name: str, schema: Any) -> Group | None:
        """The fields of the property ``name`` (``None`` when the property is not an object schema)."""
        key = (id(schema), name)
        found = self.groups.get(key)
        if found is not None and found.source is schema and _same(refs, found):
            return found
        text = json_text_key(schema)  # not this object: perhaps the same JSON, built afresh for another operation
        found = self.by_content.get((text, name)) if text is not None else None
        if found is None or not _same(refs, found):
            found = _walk_group(refs, name, schema)
            if text is not None:
                self.by_content[(text, name)] = found
        if found.source is schema:
            self.groups[key] = found
        return found if found.fields else None


def _walk_group(refs: Refs, name: str, schema: Any) -> Group:
    """Walk one property's fields as :func:`~toolkit._lints._subject.walk` would (none for a non-object)."""
    recording = RecordingRefs(refs)
    resolved = follow(schema, recording)
    if not isinstance(resolved, Mapping):
        return Group(schema, recording, ())
    text = resolved.get("description")
    text = text if isinstance(text, str) else ""
    fields = (Field(name, name, resolved, 1, text, read(text)), *walk(recording, resolved, name, 2))
    return Group(schema, recording, fields)


def _same(refs: Refs, group: Group) -> bool:
    """Whether every reference the group read still points at the same schema (plain ``#/$defs/Name`` ones by
    a dictionary lookup)."""
    defs = refs.root.get("$defs")
    defs = defs if defs.__class__ is dict else {}
    read = group.read
    if read is None:
        read = group.read = tuple((ref, defs_name(ref), target) for ref, target in group.refs.read.items())
    try:
        for ref, name, target in read:
            if (defs.get(name) if name is not None else refs.lookup(ref)) is not target:
                return False
    except SchemaError:
        return False
    return True
