"""What the lint rules read: the tool's fields, walked once from ``args_schema`` with local references resolved.

:func:`walk` lists every property below the root (through arrays and unions) down to a bounded depth; each
schema node is entered once per walk of its containers, so self-referring unions stay linear.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from toolkit._contract import FrameworkSource, Injected
from toolkit._lints._words import NOTHING, Reading, read
from toolkit._schema import Refs, follow, schema_types

__all__ = ["MAX_NESTING", "WALK_LIMIT", "Field", "Subject", "containers", "types", "walk"]

MAX_NESTING = 2
WALK_LIMIT = MAX_NESTING + 2
"""The deepest field :func:`walk` lists: deep enough to see a violation, shallow enough to stop recursive schemas."""
_UNION_HOPS = 32
_NULL = frozenset({"null"})


def types(schema: Mapping[str, Any]) -> frozenset[str]:
    """The JSON types a node itself declares (``type``, ``nullable``, ``enum``, ``const``); empty if none."""
    return schema_types(schema, deep=False) or frozenset()


class Field:
    """One parameter or nested field, with local ``$ref``s resolved (read-only: the rules only read it; a plain
    slotted class, since a walk makes one per field and a dataclass costs the first call more to define).

    ``path``, ``name`` and ``schema``; ``depth`` is 1 for a top-level parameter, 2 for a field of an object
    parameter, and so on; ``description`` is the field's own (``""`` when it has none or it is not a string);
    ``reading`` is what it promises (:func:`toolkit._lints._words.read`); ``branches`` are the non-null
    alternatives of this field (its ``anyOf``/``oneOf`` members, or itself), listed once for the rules that read
    them."""

    __slots__ = ("branches", "depth", "description", "name", "path", "reading", "schema")

    def __init__(
        self, path: str, name: str, schema: Mapping[str, Any], depth: int, description: str, reading: Reading
    ) -> None:
        self.path, self.name, self.schema, self.depth = path, name, schema, depth
        self.description, self.reading = description, reading
        alts = schema.get("anyOf") or schema.get("oneOf")
        if isinstance(alts, list) and alts:
            found = tuple(a for a in alts if (a.__class__ is dict or isinstance(a, Mapping)) and types(a) != _NULL)
        else:
            found = (schema,)
        self.branches: tuple[Mapping[str, Any], ...] = found

    def at(self, path: str) -> Field:
        """This field at another path (the same schema reached another way): everything else is kept as is."""
        moved = Field.__new__(Field)
        moved.path, moved.name, moved.schema, moved.depth = path, self.name, self.schema, self.depth
        moved.description, moved.reading, moved.branches = self.description, self.reading, self.branches
        return moved

    def __repr__(self) -> str:
        return f"Field({self.path!r}, depth={self.depth})"


@dataclass(slots=True)
class Subject:
    """What the rules look at: the tool's name, description, root schema and every field (read-only, made once
    per tool and per shared field, so not frozen: see :class:`Field`)."""

    name: str
    description: str
    schema: Mapping[str, Any]
    fields: tuple[Field, ...]
    refs: Refs
    """The schema's references, read once each."""
    declaration_bytes: int | None = None
    """Size of the lowered declaration as canonical UTF-8 JSON (``None``: not measurable)."""
    over_budget: int | None = None
    """The default declaration budget the declaration is over even with every reduction (it was built whole:
    :attr:`toolkit._lowering._budget.BudgetFit.over`); ``None`` when it is within its budget."""
    framework: FrameworkSource | None = None
    """The framework tool object the tool was read from, if any (its schema is compared with ours)."""
    injected: tuple[Injected, ...] = ()
    framework_fields: tuple[Field, ...] = ()
    """Every field of the framework's own schema, walked as :attr:`fields` is."""
    framework_refs: Refs | None = None
    """The framework schema's references; ``None`` when there is no framework schema to compare."""
    converted: Mapping[str, frozenset[str]] = dataclass_field(default_factory=dict)
    """By field name: the bounds a Python ``Decimal`` field checks when its argument is converted (kept out of
    ``args_schema`` as losses, see :mod:`toolkit._lints._decimals`)."""

    promising: tuple[Field, ...] = dataclass_field(init=False)
    """The fields whose description promises something (:attr:`Field.reading`), usually a few."""

    def __post_init__(self) -> None:
        self.promising = tuple(f for f in self.fields if f.reading is not NOTHING)

    @property
    def framework_schema(self) -> Mapping[str, Any] | None:
        return self.framework.schema if self.framework is not None else None

    def promises(self, measure: str) -> Iterator[tuple[Field, Any]]:
        """Each field whose description promises something on ``measure`` (a :class:`Reading` attribute:
        ``value``, ``length``, ``listed`` …), with that promise."""
        for field in self.promising:
            promise = getattr(field.reading, measure)
            if promise is not None:
                yield field, promise

    def resolve(self, node: Any) -> Any:
        return follow(node, self.refs)

    def branches(self, field: Field) -> list[Mapping[str, Any]]:
        """The field's non-null alternatives with their references resolved (non-schemas left out)."""
        resolved = (self.resolve(branch) for branch in field.branches)
        return [b for b in resolved if isinstance(b, Mapping) and types(b) != {"null"}]


def walk(refs: Refs, node: Any, prefix: str, depth: int) -> Iterator[Field]:
    """Every property below ``node`` (through arrays and unions), down to a bounded depth."""
    node = follow(node, refs)
    if depth > WALK_LIMIT or not (node.__class__ is dict or (node is not None and isinstance(node, Mapping))):
        return
    for container in containers(refs, node):
        properties = container.get("properties")
        for name, sub in (
            properties.items()
            if (properties.__class__ is dict or (properties is not None and isinstance(properties, Mapping)))
            else ()
        ):
            resolved = follow(sub, refs)
            if not (resolved.__class__ is dict or (resolved is not None and isinstance(resolved, Mapping))):
                continue
            path = f"{prefix}.{name}" if prefix else name
            text = resolved.get("description")
            text = text if isinstance(text, str) else ""
            yield Field(path, name, resolved, depth, text, read(text))
            yield from walk(refs, resolved, path, depth + 1)


def containers(
    refs: Refs, node: Mapping[str, Any], hops: int = 0, seen: dict[int, Mapping[str, Any]] | None = None
) -> Iterator[Mapping[str, Any]]:
    """The object schemas reachable from ``node`` without entering a property: itself, items, union members.

    Each schema node is visited once (``seen``), so a union whose branches refer back to it (``A: {anyOf: [A,
    A, ...]}``) costs one visit per node instead of one per path: linear, never exponential. ``seen`` holds
    the nodes themselves, not only their ids: a merged ``$ref`` node is a fresh dict, and once freed its id
    could be reused by the next one, which would then be skipped.
    """
    seen = {} if seen is None else seen
    if hops > _UNION_HOPS or id(node) in seen:
        return
    seen[id(node)] = node
    if "properties" in node:
        yield node
    for key in ("anyOf", "oneOf", "allOf"):
        for member in node.get(key) or ():
            resolved = follow(member, refs)
            if resolved.__class__ is dict or (resolved is not None and isinstance(resolved, Mapping)):
                yield from containers(refs, resolved, hops + 1, seen)
    items = follow(node.get("items"), refs)
    if items.__class__ is dict or (items is not None and isinstance(items, Mapping)):
        yield from containers(refs, items, hops + 1, seen)
