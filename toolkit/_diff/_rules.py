"""The rule catalogue of the declaration diff: one small function per family of schema keywords.

Every difference between two lowered declarations becomes a :class:`Change` with a stable ``rule`` slug and
one of three kinds, always judged from the side of a caller that was valid before:

* ``breaking`` — arguments that were valid may now be refused (a parameter removed, a maximum lowered, ...);
* ``behavioural`` — validity is unchanged, but the model reads the text (descriptions, defaults, examples),
  so routing and arguments can change;
* ``additive`` — everything valid before stays valid, and something new is accepted.

:data:`RULES` maps each slug to its kind; a rule never changes kind, so reviewers and CI can match on slugs.
Nothing is dropped silently: a keyword no rule knows is reported as ``keyword_changed``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from toolkit._diff._text import contrast, show
from toolkit._display import Displayable, displayed_by
from toolkit._display._reports import CHANGE_RENDERER

__all__ = ["KINDS", "RULES", "Change", "Kind", "contrast", "diff_schema", "join", "key", "same", "show"]

Kind = Literal["breaking", "behavioural", "additive"]
KINDS: tuple[Kind, ...] = ("breaking", "behavioural", "additive")

RULES: dict[str, Kind] = {
    "tool_removed": "breaking",
    "tool_renamed": "breaking",
    "tool_added": "additive",
    "tool_description_changed": "behavioural",
    "parameter_removed": "breaking",
    "parameter_renamed": "breaking",
    "required_parameter_added": "breaking",
    "optional_parameter_added": "additive",
    "parameter_became_required": "breaking",
    "parameter_became_optional": "additive",
    "type_changed": "breaking",
    "enum_member_removed": "breaking",
    "enum_member_added": "additive",
    "enum_introduced": "breaking",
    "enum_lifted": "additive",
    "nullable_removed": "breaking",
    "nullable_added": "additive",
    "format_added": "breaking",
    "format_changed": "breaking",
    "format_removed": "additive",
    "constraint_tightened": "breaking",
    "constraint_loosened": "additive",
    "pattern_changed": "breaking",
    "any_of_branch_removed": "breaking",
    "any_of_branch_added": "additive",
    "description_changed": "behavioural",
    "default_changed": "behavioural",
    "example_changed": "behavioural",
    "title_changed": "behavioural",
    "property_order_changed": "behavioural",
    "keyword_changed": "behavioural",
    "absorbed_by_union": "behavioural",
}


@displayed_by(CHANGE_RENDERER)
@dataclass(frozen=True, slots=True)
class Change(Displayable):
    """One classified difference. ``path`` is the dotted parameter path (``""`` = the tool itself;
    ``tags[]`` = the items of ``tags``; ``value.anyOf[1]`` = a union branch); ``tool`` names the tool (as the
    dialect's provider sees it) and ``dialect`` the payload the change was found in."""

    rule: str
    path: str
    summary: str
    kind: Kind
    tool: str = ""
    dialect: str = "gemini"

    def to_dict(self) -> dict[str, str]:
        return {
            "tool": self.tool,
            "dialect": self.dialect,
            "rule": self.rule,
            "kind": self.kind,
            "path": self.path,
            "summary": self.summary,
        }


def change(rule: str, path: str, summary: str) -> Change:
    """A change whose kind comes from the catalogue (so a rule's kind is the same everywhere)."""
    return Change(rule=rule, path=path, summary=summary, kind=RULES[rule])


def join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _where(path: str) -> str:
    return f"`{path}`" if path else "the arguments object"


# -- normalising ------------------------------------------------------------------------------------------


def _normalise(schema: Any) -> dict[str, Any]:
    """Uppercase types; a JSON Schema type list ``[T, "null"]`` becomes ``T`` + ``nullable``."""
    if not isinstance(schema, Mapping):
        return {}
    out = dict(schema)
    kind = out.get("type")
    if isinstance(kind, list):
        names = [str(t).upper() for t in kind]
        if "NULL" in names:
            out["nullable"] = True
            names.remove("NULL")
        out["type"] = names[0] if len(names) == 1 else sorted(names)
    elif isinstance(kind, str):
        out["type"] = kind.upper()
    if out.get("nullable") is False:
        del out["nullable"]
    return out


def key(value: Any) -> str:
    """A stable text key of a JSON value (``true`` and ``1`` differ, as they do in a declaration)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def same(a: Any, b: Any) -> bool:
    """Equal JSON values: Python equality first (fast), then the key (so ``True`` is not ``1``)."""
    return bool(a == b) and key(a) == key(b)


def _number(value: Any) -> Decimal | None:
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None


# -- keyword families -------------------------------------------------------------------------------------


def _type(old: dict[str, Any], new: dict[str, Any], path: str) -> list[Change]:
    before, after = old.get("type"), new.get("type")
    if before == after:
        return []
    if before is None:
        return [change("constraint_tightened", path, f"{_where(path)} now must be of type {show(after)}")]
    if after is None:
        return [change("constraint_loosened", path, f"{_where(path)} no longer restricted to type {show(before)}")]
    return [change("type_changed", path, f"type of {_where(path)} changed from {show(before)} to {show(after)}")]


def _nullable(old: dict[str, Any], new: dict[str, Any], path: str) -> list[Change]:
    before, after = bool(old.get("nullable")), bool(new.get("nullable"))
    if before and not after:
        return [change("nullable_removed", path, f"{_where(path)} no longer accepts null")]
    if after and not before:
        return [change("nullable_added", path, f"{_where(path)} now accepts null")]
    return []


def _enum(old: dict[str, Any], new: dict[str, Any], path: str) -> list[Change]:
    before, after = old.get("enum"), new.get("enum")
    if before == after:
        return []
    if before is None:
        return [change("enum_introduced", path, f"{_where(path)} now limited to {show(after)}")]
    if after is None:
        return [change("enum_lifted", path, f"{_where(path)} no longer limited to {show(before)}")]
    old_keys, new_keys = [key(v) for v in before], [key(v) for v in after]
    out = [
        change("enum_member_removed", path, f"{_where(path)} no longer accepts {show(v)}")
        for v, k in zip(before, old_keys, strict=True)
        if k not in new_keys
    ]
    out += [
        change("enum_member_added", path, f"{_where(path)} now also accepts {show(v)}")
        for v, k in zip(after, new_keys, strict=True)
        if k not in old_keys
    ]
    if not out:
        out.append(change("keyword_changed", path, f"enum of {_where(path)} reordered to {show(after)}"))
    return out


def _format(old: dict[str, Any], new: dict[str, Any], path: str) -> list[Change]:
    before, after = old.get("format"), new.get("format")
    if before == after:
        return []
    if before is None:
        return [change("format_added", path, f"{_where(path)} now must have format {show(after)}")]
    if after is None:
        return [change("format_removed", path, f"{_where(path)} no longer must have format {show(before)}")]
    return [change("format_changed", path, f"format of {_where(path)} changed from {show(before)} to {show(after)}")]


_LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
_UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")


def _bound(keyword: str, before: Any, after: Any, path: str) -> list[Change]:
    if same(before, after):
        return []
    where = f"{keyword} of {_where(path)}"
    if before is None:
        return [change("constraint_tightened", path, f"{where} added: {show(after)}")]
    if after is None:
        return [change("constraint_loosened", path, f"{where} removed (was {show(before)})")]
    old_n, new_n = _number(before), _number(after)
    if old_n is not None and old_n == new_n:
        return [change("keyword_changed", path, f"{where} written differently: {show(before)} → {show(after)}")]
    tighter = old_n is None or new_n is None or (new_n > old_n if keyword in _LOWER_BOUNDS else new_n < old_n)
    rule = "constraint_tightened" if tighter else "constraint_loosened"
    verb = "raised" if (old_n is not None and new_n is not None and new_n > old_n) else "lowered"
    return [change(rule, path, f"{where} {verb} from {show(before)} to {show(after)}")]


def _bounds(old: dict[str, Any], new: dict[str, Any], path: str) -> list[Change]:
    out: list[Change] = []
    for keyword in _LOWER_BOUNDS + _UPPER_BOUNDS:
        out += _bound(keyword, old.get(keyword), new.get(keyword), path)
    return out


def _switches(old: dict[str, Any], new: dict[str, Any], path: str) -> list[Change]:
    """Keywords whose presence restricts (``pattern``, ``multipleOf``, ``uniqueItems``, ``const``)."""
    out: list[Change] = []
    for keyword in ("pattern", "multipleOf", "uniqueItems", "const"):
        before, after = old.get(keyword), new.get(keyword)
        if same(before, after) or (keyword == "uniqueItems" and not before and not after):
            continue
        where = f"{keyword} of {_where(path)}"
        if before is None or before is False:
            out.append(change("constraint_tightened", path, f"{where} added: {show(after)}"))
        elif after is None or after is False:
            out.append(change("constraint_loosened", path, f"{where} removed (was {show(before)})"))
        else:
            rule = "pattern_changed" if keyword == "pattern" else "constraint_tightened"
            out.append(change(rule, path, f"{where} changed from {show(before)} to {show(after)}"))
    return out


_ANNOTATIONS = {
    "description": "description_changed",
    "default": "default_changed",
    "example": "example_changed",
    "title": "title_changed",
    "propertyOrdering": "property_order_changed",
}


def _annotations(old: dict[str, Any], new: dict[str, Any], path: str) -> list[Change]:
    out: list[Change] = []
    for keyword, rule in _ANNOTATIONS.items():
        before, after = old.get(keyword), new.get(keyword)
        if same(before, after):
            continue
        if before is None:
            text = f"{keyword} of {_where(path)} added: {show(after)}"
        elif after is None:
            text = f"{keyword} of {_where(path)} removed (was {show(before)})"
        else:
            text = f"{keyword} of {_where(path)} changed {contrast(before, after)}"
        out.append(change(rule, path, text))
    return out


def _shape(schema: Mapping[str, Any]) -> str:
    """A parameter's schema without its prose: two parameters with the same shape may be one renamed."""
    return key({k: v for k, v in schema.items() if k not in ("description", "title", "example")})


def _renames(removed: list[str], added: list[str], old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, str]:
    """Pair a removed and an added property when exactly one of each has the same shape."""
    gone_shapes = {name: _shape(_normalise(old[name])) for name in removed}
    new_shapes = {name: _shape(_normalise(new[name])) for name in added}
    pairs: dict[str, str] = {}
    for gone, shape in gone_shapes.items():
        matches = [a for a, other in new_shapes.items() if other == shape]
        rivals = [r for r, other in gone_shapes.items() if other == shape]
        if len(matches) == 1 and len(rivals) == 1:
            pairs[gone] = matches[0]
    return pairs


def _properties(old: dict[str, Any], new: dict[str, Any], path: str) -> list[Change]:
    before, after = dict(old.get("properties") or {}), dict(new.get("properties") or {})
    old_req, new_req = set(old.get("required") or ()), set(new.get("required") or ())
    removed = [p for p in before if p not in after]
    added = [p for p in after if p not in before]
    renames = _renames(removed, added, before, after)
    out: list[Change] = []
    for gone, name in renames.items():
        out.append(change("parameter_renamed", join(path, gone), f"`{join(path, gone)}` renamed to `{name}`"))
        out += _requirement(join(path, name), gone in old_req, name in new_req)
        out += diff_schema(before[gone], after[name], join(path, name))  # same shape: only prose can differ
    for gone in removed:
        if gone not in renames:
            out.append(change("parameter_removed", join(path, gone), f"`{join(path, gone)}` removed"))
    for name in added:
        if name not in renames.values():
            rule = "required_parameter_added" if name in new_req else "optional_parameter_added"
            adjective = "required" if name in new_req else "optional"
            out.append(change(rule, join(path, name), f"new {adjective} parameter `{join(path, name)}`"))
    for name in before:
        if name in after:
            out += _requirement(join(path, name), name in old_req, name in new_req)
            out += diff_schema(before[name], after[name], join(path, name))
    return out


def _requirement(path: str, was_required: bool, is_required: bool) -> list[Change]:
    if was_required and not is_required:
        return [change("parameter_became_optional", path, f"`{path}` is now optional")]
    if is_required and not was_required:
        return [change("parameter_became_required", path, f"`{path}` is now required")]
    return []


def _items(old: dict[str, Any], new: dict[str, Any], path: str) -> list[Change]:
    before, after = old.get("items"), new.get("items")
    if same(before, after):
        return []
    return diff_schema(before or {}, after or {}, f"{path}[]")


def _branch_path(path: str, index: int) -> str:
    return join(path, f"anyOf[{index}]")


def _tags(schema: Mapping[str, Any]) -> dict[str, str]:
    """An object branch's variant tags: properties fixed to one value (``type: {enum: [file_search]}``)."""
    properties = schema.get("properties") or {}
    return {
        name: key(p["enum"][0])
        for name, p in properties.items()
        if isinstance(p, Mapping) and isinstance(p.get("enum"), list) and len(p["enum"]) == 1
    }


def _affinity(a: Any, b: Any) -> float:
    """How likely two union branches are one branch, edited: 0 means "not the same branch"."""
    if same(a, b):
        return 100.0
    a, b = _normalise(a), _normalise(b)
    if a.get("type") != b.get("type"):
        return 0.0
    tags_a, tags_b = _tags(a), _tags(b)
    shared = set(tags_a) & set(tags_b)
    if any(tags_a[name] != tags_b[name] for name in shared):
        return 0.0  # two different variants of a tagged union
    names_a, names_b = set(a.get("properties") or ()), set(b.get("properties") or ())
    if not (names_a or names_b):
        return 0.5
    overlap = len(names_a & names_b) / len(names_a | names_b)
    return 1.0 + overlap if shared else (overlap if overlap >= 0.5 else 0.0)


_Indexed = list[tuple[int, Any]]


def _pair(left: _Indexed, right: _Indexed) -> tuple[list[tuple[int, int]], _Indexed, _Indexed]:
    """Pair union branches, most alike first; returns index pairs and the unpaired branches of each side."""
    scored = sorted(
        ((-score, i, j) for i, a in left for j, b in right if (score := _affinity(a, b)) > 0),
    )
    pairs: list[tuple[int, int]] = []
    used_left: set[int] = set()
    used_right: set[int] = set()
    for _, i, j in scored:
        if i not in used_left and j not in used_right:
            pairs.append((i, j))
            used_left.add(i)
            used_right.add(j)
    return (
        sorted(pairs, key=lambda pair: pair[1]),
        [(i, a) for i, a in left if i not in used_left],
        [(j, b) for j, b in right if j not in used_right],
    )


def _branch_changes(path: str, removed: _Indexed, added: _Indexed) -> list[Change]:
    out = [change("any_of_branch_removed", _branch_path(path, i), f"{_where(path)} no longer accepts {show(b)}")
           for i, b in removed]  # fmt: skip
    out += [change("any_of_branch_added", _branch_path(path, j), f"{_where(path)} now also accepts {show(b)}")
            for j, b in added]  # fmt: skip
    return out


def _flat(union: list[Any]) -> list[Any]:
    """Branches of a union, with nested pure unions inlined (``anyOf[anyOf[a, b], c]`` is ``anyOf[a, b, c]``)."""
    out: list[Any] = []
    for branch in union:
        inner = _normalise(branch)
        if inner.get("anyOf") and set(inner) <= {"anyOf", "description", "title"}:
            out += _flat(inner["anyOf"])
        else:
            out.append(branch)
    return out


def _free_types(union: list[Any]) -> set[str]:
    """Types for which the union has a branch that accepts any value of the type (``{"type": "STRING"}``)."""
    free = set()
    for branch in union:
        schema = _normalise(branch)
        if isinstance(schema.get("type"), str) and set(schema) <= {"type", "description", "title", "example"}:
            free.add(schema["type"])
    return free


def _absorbed(changes: list[Change], kind: Any, free: set[str]) -> list[Change]:
    """Breaking changes inside a branch that a free branch of the same type still covers are not breaking."""
    if kind not in free:
        return changes
    note = f" (a free {kind} branch still accepts it)"
    return [change("absorbed_by_union", c.path, c.summary + note) if c.kind == "breaking" else c for c in changes]


def _any_of(old: dict[str, Any], new: dict[str, Any], path: str) -> list[Change]:
    """Union branches pair up by likeness (tags, shared properties), not by position; nested unions are flat."""
    before, after = _flat(old.get("anyOf") or []), _flat(new.get("anyOf") or [])  # both present here
    if same(before, after):
        return []
    pairs, removed, added = _pair(list(enumerate(before)), list(enumerate(after)))
    free = _free_types(after)
    out: list[Change] = []
    for i, j in pairs:
        inner = diff_schema(before[i], after[j], _branch_path(path, j))
        out += _absorbed(inner, _normalise(after[j]).get("type"), free)
    return out + _branch_changes(path, removed, added)


def _union_edge(old: dict[str, Any], new: dict[str, Any], path: str) -> list[Change]:
    """A plain schema became a union (or back): the plain one is compared with its closest branch."""
    grew = old.get("anyOf") is None
    plain, union = (old, new["anyOf"]) if grew else (new, old["anyOf"])
    core = {k: v for k, v in plain.items() if k not in _ANNOTATIONS}
    pairs, _, others = _pair([(-1, core)], list(enumerate(union)))
    if not pairs:
        text = f"{_where(path)} {'became' if grew else 'is no longer'} a union of {len(union)} schemas"
        return [change("type_changed", path, text)]
    (_, j), branch = pairs[0], union[pairs[0][1]]
    inner = diff_schema(core, branch, _branch_path(path, j)) if grew else diff_schema(branch, core, path)
    return inner + (_branch_changes(path, [], others) if grew else _branch_changes(path, others, []))


_HANDLED = frozenset(
    {"type", "nullable", "enum", "format", "properties", "required", "items", "anyOf"}
    | set(_LOWER_BOUNDS)
    | set(_UPPER_BOUNDS)
    | {"pattern", "multipleOf", "uniqueItems", "const"}
    | set(_ANNOTATIONS)
)


def _others(old: dict[str, Any], new: dict[str, Any], path: str) -> list[Change]:
    out: list[Change] = []
    for keyword in sorted((set(old) | set(new)) - _HANDLED):
        if not same(old.get(keyword), new.get(keyword)):
            text = f"{keyword} of {_where(path)} changed from {show(old.get(keyword))} to {show(new.get(keyword))}"
            out.append(change("keyword_changed", path, text))
    return out


_Family = Callable[[dict[str, Any], dict[str, Any], str], list[Change]]
_STRUCTURE: tuple[_Family, ...] = (_nullable, _enum, _format, _bounds, _switches, _properties, _items, _any_of)


def diff_schema(old: Any, new: Any, path: str = "") -> list[Change]:
    """Every classified difference between two (lowered) schemas of the parameter at ``path``."""
    before, after = _normalise(old), _normalise(new)
    if same(before, after):
        return []
    if (before.get("anyOf") is None) != (after.get("anyOf") is None):
        return _union_edge(before, after, path) + _annotations(before, after, path)
    typed = _type(before, after, path)
    families: tuple[_Family, ...] = (_annotations,)
    if not typed or typed[0].rule != "type_changed":
        families = _STRUCTURE + families
    out = list(typed)
    for family in (*families, _others):
        out += family(before, after, path)
    return out
