"""Merging two lowered drafts into one: how ``allOf``, ``$ref`` siblings and ``anyOf`` siblings combine.

A *draft* is a dict in the target subset's vocabulary (uppercase ``type``, camelCase keys) that may still
lack a ``type`` and may carry private bookkeeping keys starting with ``$`` (``$path``: where it came from in
the input; ``$readOnly``; ``$readOnlyNames``). Merging follows ``allOf`` semantics: a value must satisfy
both sides, so bounds take the tightest value, ``required`` and ``properties`` take the union, ``enum``
the intersection, and ``nullable`` survives only if both sides accept ``null``. When two sides say
things one node cannot carry at once (two patterns, two types), the first side wins and the other is
reported through ``lose``. Annotations (``description``, ``default``, ``format``) keep the first side's
value, so a node's own words win over what a ``$ref`` brings in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["MAX_CROSS", "Draft", "LoseFn", "allows_null", "copy_draft", "merge_into", "only_null", "union_into"]

Draft = dict[str, Any]
LoseFn = Callable[[str, str, Any, str], None]

_TIGHTEST: dict[str, Callable[[Any, Any], Any]] = {
    "minimum": max,
    "minLength": max,
    "minItems": max,
    "minProperties": max,
    "maximum": min,
    "maxLength": min,
    "maxItems": min,
    "maxProperties": min,
}
_FIRST_WINS = frozenset({"description", "default", "propertyOrdering", "$path"})
MAX_CROSS = 64
_ANNOTATIONS = frozenset({"description", "default"})


def allows_null(draft: Draft) -> bool:
    """Whether the draft accepts ``null`` (explicitly, or because nothing restricts its type)."""
    if draft.get("nullable") is True or draft.get("type") == "NULL":
        return True
    return "type" not in draft and "anyOf" not in draft and "enum" not in draft


def copy_draft(value: Any) -> Any:
    """A structural copy of a draft (dicts and lists only), for placing one draft in several branches."""
    if isinstance(value, dict):
        return {key: copy_draft(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copy_draft(item) for item in value]
    return value


def merge_into(target: Draft, other: Draft, path: str, lose: LoseFn) -> None:
    """Merge ``other`` into ``target`` in place (``allOf`` semantics); ``path`` locates reported conflicts."""
    nullable = allows_null(target) and allows_null(other)
    for key, value in other.items():
        if key not in target:
            target[key] = value
        elif key in _FIRST_WINS or key == "nullable":
            if key in _ANNOTATIONS and target[key] != value:
                lose(other.get("$path", path), key, value, f"replaced by the {key} given nearer the use")
        elif key in _TIGHTEST:
            target[key] = _TIGHTEST[key](target[key], value)
        else:
            _MERGERS.get(key, _merge_conflict)(target, key, value, path, lose)
    if nullable and ("type" in target or "anyOf" in target or "enum" in target):
        target["nullable"] = True
    else:
        target.pop("nullable", None)


def _merge_type(target: Draft, key: str, value: Any, path: str, lose: LoseFn) -> None:
    current = target[key]
    if current == value:
        return
    if {current, value} == {"INTEGER", "NUMBER"}:
        target[key] = "INTEGER"
        return
    lose(path, "allOf", value, f"conflicting types {current} and {value}: no value can satisfy both; kept {current}")


def _merge_properties(target: Draft, key: str, value: Any, path: str, lose: LoseFn) -> None:
    merged = dict(target[key])
    for name, schema in value.items():
        if name in merged:
            first = dict(merged[name])
            merge_into(first, schema, path, lose)
            merged[name] = first
        else:
            merged[name] = schema
    target[key] = merged


def _merge_items(target: Draft, key: str, value: Any, path: str, lose: LoseFn) -> None:
    first = dict(target[key])
    merge_into(first, value, path, lose)
    target[key] = first


def _merge_union(target: Draft, key: str, value: Any, path: str, lose: LoseFn) -> None:
    seen = list(target[key])
    seen.extend(name for name in value if name not in seen)
    target[key] = seen


def _merge_enum(target: Draft, key: str, value: Any, path: str, lose: LoseFn) -> None:
    both = [item for item in target[key] if item in value]
    if both:
        target[key] = both
    else:
        lose(path, "enum", value, f"enum lists share no value; kept {target[key]!r}")


def _merge_any_of(target: Draft, key: str, value: Any, path: str, lose: LoseFn) -> None:
    """Both sides are unions: a value must match a branch of each, so every pair of branches is merged."""
    first: list[Draft] = target[key]
    if len(first) * len(value) > MAX_CROSS:
        lose(path, key, [draft.get("$path") for draft in value], f"two unions need over {MAX_CROSS} branches")
        return
    pairs = []
    for left in first:
        for right in value:
            both = copy_draft(left)
            merge_into(both, copy_draft(right), path, lose)
            both["$path"] = path  # a mix of two branches: report at the node that holds both unions
            pairs.append(both)
    target[key] = pairs


def _merge_read_only(target: Draft, key: str, value: Any, path: str, lose: LoseFn) -> None:
    target[key] = bool(target[key]) or bool(value)


def _merge_conflict(target: Draft, key: str, value: Any, path: str, lose: LoseFn) -> None:
    if target[key] != value:
        lose(path, key, value, f"two {key} values apply here and one node carries only one; kept {target[key]!r}")


_MERGERS: dict[str, Callable[[Draft, str, Any, str, LoseFn], None]] = {
    "type": _merge_type,
    "properties": _merge_properties,
    "items": _merge_items,
    "required": _merge_union,
    "$readOnlyNames": _merge_union,
    "enum": _merge_enum,
    "$readOnly": _merge_read_only,
    "anyOf": _merge_any_of,
}


_NULL_KEYS = frozenset({"$path", "type", "description", "default", "nullable"})


def only_null(draft: Draft) -> bool:
    """A branch that accepts exactly ``null`` (and says nothing else that would be lost by folding it)."""
    return draft.get("type") == "NULL" and draft.keys() <= _NULL_KEYS


def union_into(out: Draft, branches: list[Draft], path: str, lose: LoseFn, adopt: Callable[[Draft], None]) -> None:
    """Attach ``anyOf`` branches to ``out``: null branches become ``nullable``, a single branch merges in (after
    ``adopt`` has seen it)."""
    rest = [draft for draft in branches if not only_null(draft)]
    nullable = len(rest) < len(branches)
    if nullable and rest:
        for draft in branches:
            for keyword in ("description", "default"):
                if keyword in draft and only_null(draft):
                    reason = f"folded into nullable: the null branch's {keyword} is not sent"
                    lose(draft["$path"], keyword, draft[keyword], reason)
    if len(rest) == 1:
        if nullable:
            rest[0]["nullable"] = True
        adopt(rest[0])
        merge_into(out, rest[0], path, lose)
    elif not rest:
        for draft in branches:
            merge_into(out, draft, path, lose)
    else:
        if nullable:
            for draft in rest:
                draft["nullable"] = True
        merge_into(out, {"$path": path, "anyOf": rest}, path, lose)
