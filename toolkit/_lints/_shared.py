"""Lint work shared by the tools of one document: each property schema is walked and judged once per depth.

Most rules judge one field at a time (``FIELD_RULES``). What such a rule finds in a field depends only on the
field itself (its name, schema, depth and description) and on what its references point at; the field's path
says only where the finding is, and is quoted in its words. The fields below a property are the same wherever
its schema is reached at a given depth, since :func:`~toolkit._lints._subject.walk` lists them from that schema
and depth alone. An OpenAPI document's shared definitions are reached, as the same objects, from many
operations' parameters, so a :class:`LintMemo` keeps a :class:`Node` per property (its schema, name and depth):
its field, where in it and below it each field rule found something, and every reference read on the way. A
later walk that reaches the same schema (the same object, or the same JSON built afresh) under the same name
at the same depth, while those references still point at the same schemas, takes the node instead of walking
and judging those fields again. The rules that found something in a field first judged at another path are run
again on it at this path, so every finding's path and words are the ones a walk from the top gives; the order
is the walk's, rule by rule, and a path keeps its first finding, as when the tool is linted alone.

Per top-level parameter a :class:`Group` keeps its field and its findings at their paths, for the tools that
share the parameter itself. Everything is the memo's, and the memo lives as long as one document's build.
Tool-level rules (name, description, size, parameter count, framework) run on every tool.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, NamedTuple, Protocol, TypeGuard

from toolkit._canonical import json_text_key
from toolkit._contract import Lint, Severity
from toolkit._exceptions import SchemaError
from toolkit._lints._promises import Finding
from toolkit._lints._subject import WALK_LIMIT, Field, Subject, containers
from toolkit._lints._words import NOTHING, read
from toolkit._schema import Refs, defs_name, follow

__all__ = ["FieldRule", "FieldRules", "Group", "LintMemo", "Node", "RecordingRefs"]

Hit = tuple[tuple[str, ...], Field, tuple[Lint, ...]]
"""Where one rule found something below a node: the names from the node down to the field (the node's own name
first), the field at the path of the walk that first judged it, and what the rule found there."""


class FieldRule(Protocol):
    """What this module reads of a catalogue rule that judges one field at a time."""

    @property
    def code(self) -> str: ...
    @property
    def slug(self) -> str: ...
    @property
    def severity(self) -> Severity: ...
    @property
    def check(self) -> Callable[[Subject], Iterator[Finding]]: ...


class FieldRules(NamedTuple):
    """The rules that judge one field at a time, in catalogue order (the order of their findings)."""

    ordered: tuple[FieldRule, ...]
    any_field: tuple[FieldRule, ...]
    """Those that may find something in a field whose description promises nothing (the others read only
    :attr:`Subject.promising`, so such a field is not given to them)."""


class RecordingRefs(Refs):
    """The references of one schema, noting each one read (and what it pointed at) in :attr:`read`; a node being
    judged puts a dictionary of its own there, and adds what it read to the one it found when it is done."""

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


class _Judged:
    """What a reuse checks: the schema judged (as written) and each reference read while judging it."""

    __slots__ = ("checks", "read", "source")

    source: Any
    """The schema the memo's key holds the identity of (kept, so that no other object takes that identity)."""
    read: dict[str, Any]
    """Each reference read (to follow the schema, list the fields, and judge them) and its target."""
    checks: tuple[tuple[str, str | None, Any], ...] | None
    """:attr:`read` as checked on reuse: text, ``$defs`` name (if plain) and target (listed when first needed)."""

    def __init__(self, source: Any) -> None:
        self.source, self.read, self.checks = source, {}, None


class Node(_Judged):
    """One property schema reached at one depth: its field, and where each field rule found something in it and
    in the fields below it (as :func:`~toolkit._lints._subject.walk` lists them).

    This module's classes are plain classes with slots: dataclasses would cost the import of the lint stage more
    than their generated methods are worth here (they are filled, never compared or printed).
    """

    __slots__ = ("field", "hits")

    field: Field
    """The field, at the path it was first judged at."""
    hits: dict[str, list[Hit]]
    """By rule code: where the rule found something, in walk order (the names start with this field's)."""

    def __init__(self, source: Any, field: Field, hits: dict[str, list[Hit]]) -> None:
        super().__init__(source)
        self.field, self.hits = field, hits


class Group(_Judged):
    """One top-level parameter: its field and each field rule's findings in it and below it, at their paths, in
    catalogue order (only the rules that found something)."""

    __slots__ = ("field", "found")

    field: Field | None
    """``None`` when the property is not an object schema."""
    found: tuple[tuple[str, tuple[Lint, ...]], ...]

    def __init__(self, source: Any, field: Field | None, found: tuple[tuple[str, tuple[Lint, ...]], ...]) -> None:
        super().__init__(source)
        self.field, self.found = field, found


class LintMemo:
    """Top-level parameters and property schemas below them already judged, for the tools of one document
    (their ``$defs`` names must mean the same schemas; each reuse checks that the references read still do)."""

    __slots__ = ("by_content", "groups", "names", "nodes", "nodes_by_content")

    groups: dict[tuple[int, str], Group]
    """By the property schema's identity (kept in :attr:`Group.source`) and name."""
    by_content: dict[tuple[bytes, str], Group]
    """By the property schema's JSON text (keys in order) and name, for schemas built afresh per operation."""
    nodes: dict[tuple[int, str, int], Node]
    """Property schemas below the top level, by identity (see :func:`_kept_by`), name and depth."""
    nodes_by_content: dict[tuple[bytes, str, int], Node]
    """The same by the property schema's JSON text (as written), name and depth."""
    names: dict[str, str | None]
    """Each reference's ``$defs`` name (``None``: another kind of reference), read once."""

    def __init__(self) -> None:
        self.groups, self.by_content, self.nodes, self.nodes_by_content, self.names = {}, {}, {}, {}, {}

    def group(self, refs: Refs, name: str, schema: Any, rules: FieldRules) -> Group:
        """The top-level property ``name`` judged by ``rules`` (no field when it is not an object schema)."""
        key = (id(schema), name)
        found = self.groups.get(key)
        if found is not None and found.source is schema and self._same(refs, found):
            return found
        text = _text_key(schema)  # not this object: perhaps the same JSON, built afresh for another operation
        found = self.by_content.get((text, name)) if text is not None else None
        if found is None or not self._same(refs, found):
            found = self._group(RecordingRefs(refs), name, schema, rules)
            if text is not None:
                self.by_content[(text, name)] = found
        if found.source is schema:
            self.groups[key] = found
        return found

    def _group(self, refs: RecordingRefs, name: str, schema: Any, rules: FieldRules) -> Group:
        resolved = follow(schema, refs)
        if _is_schema(resolved):
            node = self._make(refs, schema, resolved, name, name, 1, rules)
            group = Group(schema, node.field, _found(node, refs, rules))
        else:
            group = Group(schema, None, ())
        group.read = refs.read  # everything read: the fields, and the rules run again at their paths
        return group

    def _node(
        self, refs: RecordingRefs, schema: Any, name: str, path: str, depth: int, rules: FieldRules
    ) -> Node | None:
        """The property ``name`` (``schema`` as written) at ``depth`` under ``path``, judged once while the
        references it read read the same (``None`` when it is not an object schema); what it read is added to
        what the property around it has read."""
        around, refs.read = refs.read, {}
        resolved = follow(schema, refs)
        node = None
        if _is_schema(resolved):
            kept_by = _kept_by(schema, resolved)
            key = (id(kept_by), name, depth)
            node = self.nodes.get(key)
            if node is None or node.source is not kept_by or not self._same(refs, node):
                text = _text_key(schema)  # perhaps the same JSON, built afresh for another operation
                node = self.nodes_by_content.get((text, name, depth)) if text is not None else None
                if node is None or not self._same(refs, node):
                    node = self._make(refs, kept_by, resolved, name, path, depth, rules)
                    node.read = refs.read
                    if text is not None:
                        self.nodes_by_content[(text, name, depth)] = node
                if node.source is kept_by:
                    self.nodes[key] = node
            if node.read is not refs.read:
                refs.read.update(node.read)
        around.update(refs.read)
        refs.read = around
        return node

    def _make(
        self,
        refs: RecordingRefs,
        kept_by: Any,
        resolved: Mapping[str, Any],
        name: str,
        path: str,
        depth: int,
        rules: FieldRules,
    ) -> Node:
        """Judge one property's field, and list and judge the fields below it as
        :func:`~toolkit._lints._subject.walk` does (through :meth:`_node`)."""
        text = resolved.get("description")
        text = text if isinstance(text, str) else ""
        field = Field(path, name, resolved, depth, text, read(text))
        subject = Subject("", "", {}, (field,), refs)
        hits: dict[str, list[Hit]] = {}
        for rule in rules.any_field if field.reading is NOTHING else rules.ordered:
            lints = _judge(rule, subject)
            if lints:
                hits[rule.code] = [((name,), field, lints)]
        if depth >= WALK_LIMIT:
            return Node(kept_by, field, hits)
        for container in containers(refs, resolved):
            properties = container.get("properties")
            if not _is_schema(properties):
                continue
            for sub_name, sub in properties.items():
                below = self._node(refs, sub, sub_name, f"{path}.{sub_name}" if path else sub_name, depth + 1, rules)
                if below is None:
                    continue
                for code, found in below.hits.items():
                    hits.setdefault(code, []).extend(((name, *names), at, lints) for names, at, lints in found)
        return Node(kept_by, field, hits)

    def _same(self, refs: Refs, judged: _Judged) -> bool:
        """Whether every reference read while judging still points at the same schema (plain ``#/$defs/Name``
        ones by a dictionary lookup)."""
        defs = refs.root.get("$defs")
        defs = defs if defs.__class__ is dict else {}
        checks = judged.checks
        if checks is None:
            names = self.names
            for ref in judged.read.keys() - names.keys():
                names[ref] = defs_name(ref)
            checks = judged.checks = tuple((ref, names[ref], target) for ref, target in judged.read.items())
        try:
            for ref, name, target in checks:
                if (defs.get(name) if name is not None else refs.lookup(ref)) is not target:
                    return False
        except SchemaError:
            return False
        return True


def _judge(rule: FieldRule, subject: Subject) -> tuple[Lint, ...]:
    """``rule``'s findings in ``subject``, one per path (the first: union members can share a field name)."""
    found: dict[str, Lint] | None = None
    for path, message, fix, *severity in rule.check(subject):
        level = severity[0] if severity else rule.severity
        if found is None:
            found = {}
        found.setdefault(path, Lint(rule.code, rule.slug, level, path, message, fix))
    return tuple(found.values()) if found else ()


def _found(node: Node, refs: Refs, rules: FieldRules) -> tuple[tuple[str, tuple[Lint, ...]], ...]:
    """The findings of a top-level node at their paths: a field first judged at another path is judged again at
    this one by the rules that found something in it (their words name the path)."""
    found: list[tuple[str, tuple[Lint, ...]]] = []
    for rule in rules.ordered:
        hits = node.hits.get(rule.code)
        if hits is None:
            continue
        at_path: dict[str, Lint] = {}
        for names, field, lints in hits:
            path = _path(names)
            for lint in lints if path == field.path else _judge(rule, Subject("", "", {}, (field.at(path),), refs)):
                at_path.setdefault(lint.path, lint)
        if at_path:
            found.append((rule.code, tuple(at_path.values())))
    return tuple(found)


def _text_key(schema: Any) -> bytes | None:
    """The schema's JSON text as a key (:func:`~toolkit._canonical.json_text_key`), copied into a bytes object of
    its own size: the memo keeps one per schema, and orjson's own leaves room to grow (about 4 KiB each)."""
    text = json_text_key(schema)
    return None if text is None else bytes(memoryview(text))


def _kept_by(schema: Any, resolved: Any) -> Any:
    """The object a property's node is kept by: what its references lead to, shared by every place that refers
    to it, unless following them made a new schema (``$ref`` beside other keywords): then the schema as written.
    (A chain of references with keywords beside a later one also makes a new schema: its node is kept by it,
    alive with the node so that no other object takes its identity, and found by no other walk.)"""
    return resolved if resolved is schema or len(schema) == 1 else schema


def _is_schema(node: Any) -> TypeGuard[Mapping[str, Any]]:
    """Whether ``node`` is a mapping (a schema, or a ``properties`` object), as the walk tests it."""
    return node.__class__ is dict or (node is not None and isinstance(node, Mapping))


def _path(names: tuple[str, ...]) -> str:
    """The dotted path of a field from the top-level parameter's name down, as a walk makes it."""
    path = ""
    for name in names:
        path = f"{path}.{name}" if path else name
    return path
