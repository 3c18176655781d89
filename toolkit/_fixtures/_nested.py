"""Fixtures inside: the same families at nested object properties and array items, in a bounded sample.

:func:`nested_sites` walks each top-level parameter's schema (through :mod:`toolkit._schema`, the one reader)
down to :data:`NESTED_DEPTH` levels and returns one :class:`Site` per nested field: a :class:`Param` named by
its path in the envelope's own form (``address.postcode``, ``lines[0].sku``, ``lines[0]``) and the valid
containers above it. The valid base is the top-level baseline; a field the baseline leaves out (an optional
property) is filled in with a valid example of its own, so each fixture is a valid call with exactly one
field changed at its path.

Only plain containers are entered: an object whose keywords are ``properties``/``required``/
``additionalProperties`` (no combinators, counts, dependencies, patterns or names, which could make a change
at one key change the verdict elsewhere), and an array with a single ``items`` schema (no ``prefixItems``,
``contains`` or ``unevaluatedItems``). Array items are reached at index 0. Both are read off the validator's
own keywords (:data:`toolkit._schema.VALIDATOR_KEYWORDS`, by the type each constrains), so a keyword the
validator learns for objects, arrays or any value is busy here until this module says it is plain.

:func:`sample` picks at most ``cap`` of the possible (field, family) pairs, deterministically: first one pair
for every depth and every family not yet seen (shallow fields first), then round-robin over the (depth,
family) groups, interleaving depths, taking from each group a field not sampled yet where there is one (else
the next in schema order), until the cap. The result keeps schema order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolkit._fixtures._families import OMIT, Case, Param
from toolkit._fixtures._values import NO_VALUE, example
from toolkit._schema import FOR_ANY, FOR_ARRAYS, FOR_OBJECTS, Resolve, schema_types
from toolkit._validation._combinators import NO_DEFAULT, core, default_of
from toolkit._validation._expected import format_path

__all__ = ["NESTED_CAP", "NESTED_DEPTH", "Site", "nested_sites", "place", "sample"]

NESTED_CAP = 64
"""The default number of nested fixtures per tool (``fixtures(tool, nested_cap=...)``; ``None``: all)."""
NESTED_DEPTH = 4
"""How many levels below a top-level parameter the walk goes (``a.b.c.d``; a recursive ``$ref`` stops here)."""

_OWN_KIND = frozenset({"type", "nullable", "format"})
"""Validator keywords that read the container's own kind: the same whichever field a fixture changes."""
_FOLLOWED = frozenset({"$ref"})
"""Read through before the walk (``core`` follows it): its target is walked instead."""
_INERT_ALONE = frozenset({"then", "else", "minContains", "maxContains"})
"""Keywords that act only beside another (``if``, ``contains``), which is busy itself."""
_PLAIN_OBJECT = frozenset({"properties", "required", "additionalProperties"})
_PLAIN_ARRAY = frozenset({"items", "minItems", "maxItems", "uniqueItems"})
_BUSY = FOR_ANY - _OWN_KIND - _FOLLOWED - _INERT_ALONE
_BUSY_OBJECT = (_BUSY | FOR_OBJECTS) - _PLAIN_OBJECT
"""Validator keywords that make an object's verdict at one key depend on the rest (see the module docstring)."""
_BUSY_ARRAY = (_BUSY | FOR_ARRAYS) - _PLAIN_ARRAY - _INERT_ALONE
"""Validator keywords that make an array's verdict at one item depend on the rest."""


@dataclass(frozen=True, slots=True)
class Site:
    """One nested field: its :class:`Param` (named by its path), its path, and the valid containers above it
    (``containers[i]`` is the value at ``path[: i + 1]``; the last is the field's parent)."""

    param: Param
    path: tuple[str | int, ...]
    containers: tuple[Any, ...]

    @property
    def depth(self) -> int:
        return len(self.path) - 1


def _loc(path: Sequence[str | int]) -> Any:
    loc: Any = None
    for key in path:
        loc = (loc, key)
    return loc


def nested_sites(params: Sequence[Param], baseline: Mapping[str, Any], resolve: Resolve) -> list[Site]:
    """Every nested field under the parameters the baseline carries, in schema order, depth first."""
    out: list[Site] = []
    for p in params:
        if p.name in baseline:
            _walk(p.schema, (p.name,), (baseline[p.name],), resolve, out)
    return out


def _walk(schema: Any, path: tuple[str | int, ...], values: tuple[Any, ...], resolve: Resolve, out: list[Site]) -> None:
    if len(path) > NESTED_DEPTH or not isinstance(schema, Mapping) or schema.get("readOnly") is True:
        return
    value = values[-1]
    properties = schema.get("properties")
    if type(value) is dict and isinstance(properties, Mapping) and not _BUSY_OBJECT.intersection(schema):
        required = schema.get("required") or ()
        for name, raw in properties.items():
            site = _property(name, raw, name in required, value, path, values, resolve)
            if site is not None:
                out.append(site)
                _walk(site.param.schema, site.path, (*values, site.param.valid), resolve, out)
    elif type(value) is list and value and "items" in schema and not _BUSY_ARRAY.intersection(schema):
        raw = schema["items"]
        inner, nullable = core(raw, resolve)
        if not isinstance(inner, Mapping):
            return
        types = schema_types(raw, resolve)
        item = Param(format_path(_loc((*path, 0))), inner, True, nullable or types is None or "null" in types,
                     value[0], NO_VALUE, resolve, types, item=True)  # fmt: skip
        out.append(Site(item, (*path, 0), values))
        _walk(inner, (*path, 0), (*values, value[0]), resolve, out)


def _property(
    name: str,
    raw: Any,
    required: bool,
    parent: dict[str, Any],
    path: tuple[str | int, ...],
    values: tuple[Any, ...],
    resolve: Resolve,
) -> Site | None:
    inner, nullable = core(raw, resolve)
    if not isinstance(inner, Mapping) or inner.get("readOnly") is True:
        return None
    valid = parent[name] if name in parent else example(inner, resolve)
    if valid is NO_VALUE:
        return None  # no valid value to start from: the field keeps its place in the baseline's parent only
    types = schema_types(raw, resolve)
    default = default_of(raw, resolve)
    default = NO_VALUE if default is NO_DEFAULT else default
    where = (*path, name)
    param = Param(format_path(_loc(where)), inner, required, nullable or types is None or "null" in types,
                  valid, default, resolve, types)  # fmt: skip
    return Site(param, where, values)


def place(baseline: Mapping[str, Any], site: Site, value: Any) -> dict[str, Any]:
    """The baseline with ``value`` at the site's path (:data:`OMIT`: the key left out), copying only the
    containers on the path; an ancestor the baseline left out is put in with its valid example."""
    current = value
    for depth in range(len(site.path) - 1, -1, -1):
        key = site.path[depth]
        parent = baseline if depth == 0 else site.containers[depth - 1]
        if isinstance(parent, list):
            copied_list = list(parent)
            copied_list[int(key)] = current
            current = copied_list
            continue
        copied = dict(parent)
        if current is OMIT:
            copied.pop(str(key), None)
        else:
            copied[str(key)] = current
        current = copied
    return current if isinstance(current, dict) else dict(baseline)


def sample(candidates: Sequence[tuple[Site, Case]], cap: int | None) -> list[tuple[Site, Case]]:
    """At most ``cap`` candidates, covering every depth and every family before repeating (module docstring)."""
    if cap is None or len(candidates) <= cap:
        return list(candidates)
    chosen: set[int] = set()
    depths: set[int] = set()
    families: set[str] = set()
    for i in sorted(range(len(candidates)), key=lambda i: candidates[i][0].depth):
        if len(chosen) >= cap:
            break
        site, case = candidates[i]
        if site.depth not in depths or case.family not in families:
            chosen.add(i)
            depths.add(site.depth)
            families.add(case.family)
    groups: dict[tuple[int, str], list[int]] = {}
    for i, (site, case) in enumerate(candidates):
        if i not in chosen:
            groups.setdefault((site.depth, case.family), []).append(i)
    fields = {candidates[i][0].path for i in chosen}
    queues = _interleaved(groups)
    while len(chosen) < cap and queues:
        for queue in queues:
            if len(chosen) >= cap:
                break
            if queue:  # a field not sampled yet first, else the next in schema order
                index = next((i for i in queue if candidates[i][0].path not in fields), queue[0])
                queue.remove(index)
                chosen.add(index)
                fields.add(candidates[index][0].path)
        queues = [queue for queue in queues if queue]
    return [candidates[i] for i in sorted(chosen)]


def _interleaved(groups: dict[tuple[int, str], list[int]]) -> list[list[int]]:
    """The groups in round-robin order across depths: the first family of each depth, then the second ..."""
    by_depth: dict[int, list[list[int]]] = {}
    for depth, family in sorted(groups):
        by_depth.setdefault(depth, []).append(groups[depth, family])
    rounds = max((len(v) for v in by_depth.values()), default=0)
    return [v[j] for j in range(rounds) for _, v in sorted(by_depth.items()) if j < len(v)]
