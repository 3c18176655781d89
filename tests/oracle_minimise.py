"""Shrink a disagreement between toolkit and the oracle to the keywords that cause it.

:func:`minimise` deletes schema keywords (and entries of ``properties``, ``$defs``, ``allOf`` ...), then keys
and items of the instance, one at a time, keeping each deletion while toolkit's verdict and the oracle's stay
what they were; what is left names the disagreement (see ``oracle_classes``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from oracle_gen import Outcome, Verdict, toolkit_outcome
from oracle_judges import Judgement, oracle, rs_verdict

__all__ = ["Finding", "disagreement", "keywords_of", "minimise"]

_MAPS = frozenset({"properties", "patternProperties", "$defs", "dependentSchemas"})
_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_ONE = frozenset({"items", "contains", "not", "if", "then", "else", "additionalProperties", "propertyNames"})
_ONE |= {"unevaluatedProperties", "unevaluatedItems"}
_VALUES = frozenset({"enum", "required"})


@dataclass(frozen=True, slots=True)
class Finding:
    """One disagreement: the (minimal) schema and instance, and what each judge said about them."""

    schema: dict[str, Any]
    instance: Any
    toolkit: Outcome
    oracle: Judgement
    rs: Verdict

    @property
    def keywords(self) -> frozenset[str]:
        return keywords_of(self.schema)

    @property
    def accepts(self) -> bool:
        """toolkit accepts what the oracle refuses (the other way round when false)."""
        return self.toolkit.verdict == "valid"


def disagreement(schema: dict[str, Any], instance: Any) -> Finding | None:
    """The judges' verdicts when toolkit and the oracle disagree (and the oracle has an answer), else None."""
    toolkit, judged = toolkit_outcome(schema, instance), oracle(schema, instance)
    if judged.verdict == "undecided" or toolkit.verdict == judged.verdict:
        return None
    return Finding(schema, instance, toolkit, judged, rs_verdict(schema, instance))


def _children(node: dict[str, Any]) -> Iterator[tuple[Any, ...]]:
    """Relative paths of the subschemas directly under ``node``."""
    for key, value in node.items():
        if key in _MAPS and isinstance(value, dict):
            yield from ((key, name) for name in value)
        elif key in _LISTS and isinstance(value, list):
            yield from ((key, i) for i in range(len(value)))
        elif key in _ONE:
            yield (key,)


def _at(schema: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        schema = schema[step]
    return schema


def _nodes(schema: Any) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    """Every schema node with its path, breadth first (a cut near the root, which removes most, comes first)."""
    queue: list[tuple[Any, ...]] = [()]
    while queue:
        path = queue.pop(0)
        node = _at(schema, path)
        if isinstance(node, dict):
            yield path, node
            queue.extend((*path, *child) for child in _children(node))


def keywords_of(schema: Any) -> frozenset[str]:
    return frozenset(key for _, node in _nodes(schema) for key in node)


Edit = tuple[str, tuple[Any, ...], Any]


def _cuts(schema: dict[str, Any]) -> Iterator[Edit]:
    """Deletions of keywords and entries, and hoists of a subschema into its parent's place."""
    for path, node in _nodes(schema):
        if path:
            yield from (("hoist", path, child) for child in _children(node))
        for key, value in node.items():
            if key in _MAPS and isinstance(value, dict):
                yield from (("del", (*path, key, entry), None) for entry in value)
            elif (key in _LISTS or key in _VALUES) and isinstance(value, list) and len(value) > 1:
                yield from (("del", (*path, key, i), None) for i in reversed(range(len(value))))
            yield ("del", (*path, key), None)


def _edited(schema: dict[str, Any], edit: Edit) -> dict[str, Any]:
    kind, path, child = edit
    out = copy.deepcopy(schema)
    parent = _at(out, path[:-1])
    if kind == "del":
        del parent[path[-1]]
    else:
        parent[path[-1]] = copy.deepcopy(_at(_at(schema, path), child))
    return out


def _instance_cuts(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, dict):
        for key in value:
            yield (*path, key)
            yield from _instance_cuts(value[key], (*path, key))
    elif isinstance(value, list):
        for i in reversed(range(len(value))):
            yield (*path, i)
            yield from _instance_cuts(value[i], (*path, i))


def _without(value: Any, path: tuple[Any, ...]) -> Any:
    out = copy.deepcopy(value)
    node = out
    for step in path[:-1]:
        node = node[step]
    del node[path[-1]]
    return out


def _shrink(items: Callable[[Any], list[Any]], apply: Callable[[Any, Any], Any], start: Any,
            keeps: Callable[[Any], bool]) -> Any:  # fmt: skip
    """Greedy one-at-a-time deletion, resuming at the same position after each kept cut, until nothing goes."""
    current, changed = start, True
    while changed:
        changed, i = False, 0
        while i < len(candidates := items(current)):
            try:
                smaller = apply(current, candidates[i])
            except (KeyError, IndexError, TypeError):
                smaller = None
            if smaller is not None and keeps(smaller):
                current, changed = smaller, True
            else:
                i += 1
    return current


def minimise(found: Finding) -> Finding:
    """The smallest schema, then instance, on which toolkit and the oracle still say what they said."""
    refused = found.toolkit.verdict == "refused"
    want = (found.toolkit.verdict, found.toolkit.slug, found.oracle.verdict)

    def holds(schema: dict[str, Any], instance: Any) -> bool:
        toolkit, judged = toolkit_outcome(schema, instance), oracle(schema, instance).verdict
        if refused:  # a refused schema: any instance the oracle can judge shows the difference
            return (toolkit.verdict, toolkit.slug) == want[:2] and judged != "undecided"
        return (toolkit.verdict, toolkit.slug, judged) == want

    schema = _shrink(lambda s: list(_cuts(s)), _edited, found.schema, lambda s: holds(s, found.instance))
    instance = _shrink(lambda v: list(_instance_cuts(v)), _without, found.instance, lambda v: holds(schema, v))
    schema = _shrink(lambda s: list(_cuts(s)), _edited, schema, lambda s: holds(s, instance))
    return Finding(schema, instance, toolkit_outcome(schema, instance), oracle(schema, instance),
                   rs_verdict(schema, instance))  # fmt: skip
