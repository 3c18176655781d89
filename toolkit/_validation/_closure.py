"""The closed-object policy written into the schema: ``Policy.unlisted_properties="refuse"`` in plain 2020-12.

:func:`written_closure` returns a copy of a schema that states the policy itself, so that any Draft 2020-12
validator given it (``Tool.args_schema``) agrees with toolkit's verdicts; the validator compiles that copy and
has no closing of its own. Everything is decided on the schema as given, then written:

* **Entries.** Where an instance is entered (the root, a property's value, an item, an additional or pattern
  property, ``contains``, ``unevaluated*``, ``propertyNames``), if the schema there -- itself or anything
  applied to the same value in place (``allOf``/``anyOf``/``oneOf`` members, ``$ref`` targets,
  ``then``/``else``, ``dependentSchemas``) -- lists ``properties`` and says nothing of ``additionalProperties``
  or ``unevaluatedProperties``, the entry gets ``unevaluatedProperties: false``: a key that no keyword in place
  evaluated is refused, so an ``allOf`` of two partial objects still accepts the keys of both, and an explicit
  ``additionalProperties: true`` (or a schema) is honoured. An entry with nothing applied in place beside it
  gets ``additionalProperties: false`` instead (the same verdicts, and the subset every dialect reads).
* **Required names are listed.** A schema that says nothing of either keyword lists its ``required`` names in
  ``properties`` (as ``true``): a name it requires is one it evaluates. An entry left open whose schemas in
  place list properties only so gets ``additionalProperties: true`` (the same verdicts, and the policy reads the
  written copy as it read the schema).
* **Siblings meet.** Where ``allOf`` members or ``$ref`` targets applied to one value each declare the same
  property (two branches each giving ``orchestration_path`` some of its properties), the property's schemas
  apply to one value: each one the policy closes also lists the names (as ``true``) and patterns the others
  list, so the value may carry the keys of all of them and still no invented one. The lists are read over the
  whole document (a definition that meets a sibling anywhere lists its names wherever it is used). When one
  of them takes any key (an ``additionalProperties`` or ``unevaluatedProperties`` other than ``false``), none
  is closed, and each says so with ``additionalProperties: true``.

A reference that cannot be read is passed over here: the validator raises its slug when it compiles.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from toolkit._canonical import json_copy
from toolkit._exceptions import ToolkitError
from toolkit._schema import (
    IN_PLACE_LIST,
    IN_PLACE_MAP,
    IN_PLACE_ONE,
    PARTS_LIST,
    PARTS_MAP,
    PARTS_ONE,
    REFERENCES,
    Refs,
    schemas_in,
    silent_on_unlisted,
)
from toolkit._validation._objects import in_place_closure, in_place_steps

__all__ = ["written_closure"]

_ENTRY_ONE, _ENTRY_LIST = frozenset(PARTS_ONE), frozenset(PARTS_LIST)
_ENTRIES = _ENTRY_ONE | _ENTRY_LIST | frozenset(PARTS_MAP)
"""Where a new instance (a property's value, an item, a name) is entered."""
_IN_PLACE = frozenset(REFERENCES + IN_PLACE_LIST + IN_PLACE_MAP + IN_PLACE_ONE) - {"not", "if"}
"""What applies schemas to the same value (``then``/``else``, not ``if`` alone: it asserts nothing)."""
_UNLISTED = ("additionalProperties", "unevaluatedProperties")


class _Plan:
    """The work tables of one writing (a plain class: a dataclass costs the first call more than it gives)."""

    __slots__ = ("closed", "names", "opened", "patterns", "unclosed")

    def __init__(self) -> None:
        self.closed: list[dict[str, Any]] = []
        self.unclosed: list[dict[str, Any]] = []
        self.opened: dict[int, dict[str, Any]] = {}
        self.names: dict[int, dict[str, None]] = {}
        self.patterns: dict[int, dict[str, None]] = {}


def written_closure(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``schema`` with the closed-object policy written in (see the module docstring)."""
    out: dict[str, Any] = json_copy(dict(schema))
    resolve = _Reader(out)
    nodes = [node for node in schemas_in(out) if type(node) is dict]
    applied_by = _applied_by(nodes, resolve)
    plan = _Plan()
    _meet_siblings(nodes, resolve, plan)
    closing = _reaching((node for node in nodes if silent_on_unlisted(node)), applied_by)
    for node in _entries(out, nodes):
        if id(node) in plan.opened or "unevaluatedProperties" in node:
            continue
        if id(node) in closing:
            plan.closed.append(node)
        elif _says_nothing(node):
            plan.unclosed.append(node)
    listed = _list_required(nodes)
    _write(plan)
    if listed:
        now_listing = _reaching(listed, applied_by)
        for node in plan.unclosed:
            if id(node) in now_listing:
                node["additionalProperties"] = True
    return out


class _Reader:
    """The document's references, a reference that cannot be read giving nothing."""

    def __init__(self, root: Any) -> None:
        self.refs = Refs(root)

    def __call__(self, ref: Any) -> Any:
        try:
            return self.refs(ref) if isinstance(ref, str) else None
        except ToolkitError:
            return None


def _applied_by(nodes: list[dict[str, Any]], resolve: _Reader) -> dict[int, list[dict[str, Any]]]:
    """For each schema, the schemas that apply it in place (the in-place edges, reversed)."""
    found: dict[int, list[dict[str, Any]]] = {}
    for node in nodes:
        if not _IN_PLACE.isdisjoint(node):
            for target in in_place_steps(node, resolve):
                if type(target) is dict:
                    found.setdefault(id(target), []).append(node)
    return found


def _reaching(seeds: Iterable[Any], applied_by: dict[int, list[dict[str, Any]]]) -> set[int]:
    """The schemas whose in-place closure holds one of ``seeds`` (by identity)."""
    todo = list(seeds)
    seen = {id(node) for node in todo}
    while todo:
        for user in applied_by.get(id(todo.pop()), ()):
            if id(user) not in seen:
                seen.add(id(user))
                todo.append(user)
    return seen


def _entries(root: dict[str, Any], nodes: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every schema object of the document where an instance is entered (each once)."""
    yield root
    for node in nodes:
        for key in _ENTRIES.intersection(node):
            value = node[key]
            if type(value) is dict:
                yield from (value,) if key in _ENTRY_ONE else (sub for sub in value.values() if type(sub) is dict)
            elif type(value) is list and key in _ENTRY_LIST:
                yield from (sub for sub in value if type(sub) is dict)


def _listing(kid: Any, resolve: _Reader) -> tuple[dict[str, None], dict[str, None], bool]:
    """The names and patterns a property's schema lists in place, and whether it takes any key."""
    names: dict[str, None] = {}
    patterns: dict[str, None] = {}
    loose = False
    for node in in_place_closure(kid, resolve):
        if isinstance(node.get("properties"), Mapping):
            names.update(dict.fromkeys(node["properties"]))
        names.update(dict.fromkeys(n for n in node.get("required") or () if isinstance(n, str)))
        if isinstance(node.get("patternProperties"), Mapping):
            patterns.update(dict.fromkeys(node["patternProperties"]))
        loose = loose or any(node.get(key, False) is not False for key in _UNLISTED)
    return names, patterns, loose


def _meet_siblings(nodes: list[dict[str, Any]], resolve: _Reader, plan: _Plan) -> None:
    """For each property two conjunctive siblings declare, what each of its schemas lists from the others.

    A reference with no properties beside it meets nothing its target does not meet on its own."""
    for node in nodes:
        if "allOf" not in node and ("properties" not in node or not any(key in node for key in REFERENCES)):
            continue
        kids: dict[str, dict[int, dict[str, Any]]] = {}
        for member in in_place_closure(node, resolve, conjunctive=True):
            properties = member.get("properties")
            if isinstance(properties, Mapping):
                for name, sub in properties.items():
                    if isinstance(sub, dict):
                        kids.setdefault(name, {})[id(sub)] = sub
        for group in kids.values():
            if len(group) > 1:
                _meet(list(group.values()), resolve, plan)


def _meet(group: list[dict[str, Any]], resolve: _Reader, plan: _Plan) -> None:
    listings = [_listing(kid, resolve) for kid in group]
    if any(loose for _, _, loose in listings):
        plan.opened.update((id(kid), kid) for kid in group)
        return
    for i, kid in enumerate(group):
        for j, (names, patterns, _) in enumerate(listings):
            if j != i:
                plan.names.setdefault(id(kid), {}).update(names)
                plan.patterns.setdefault(id(kid), {}).update(patterns)


def _says_nothing(node: Mapping[str, Any]) -> bool:
    return not any(key in node for key in _UNLISTED)


def _list_required(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """List each schema's required names in its properties; the schemas that had no ``properties`` before."""
    created: list[dict[str, Any]] = []
    for node in nodes:
        if isinstance(node.get("required"), list) and _says_nothing(node):
            if "properties" not in node:
                created.append(node)
            properties = node.setdefault("properties", {})
            if isinstance(properties, dict):
                properties.update({n: True for n in node["required"] if isinstance(n, str) and n not in properties})
    return created


def _write(plan: _Plan) -> None:
    """Write the plan: the closures with the siblings' names, then the opened schemas."""
    for node in plan.closed:
        properties = node.setdefault("properties", {}) if id(node) in plan.names else node.get("properties")
        for name in plan.names.get(id(node), {}):
            if isinstance(properties, dict):
                properties.setdefault(name, True)
        patterns = plan.patterns.get(id(node))
        if patterns:
            table = node.setdefault("patternProperties", {})
            if isinstance(table, dict):
                for pattern in patterns:
                    table.setdefault(pattern, True)
        simple = silent_on_unlisted(node) and _IN_PLACE.isdisjoint(node)
        node["additionalProperties" if simple else "unevaluatedProperties"] = False
    for node in plan.opened.values():
        if _says_nothing(node):
            node["additionalProperties"] = True
