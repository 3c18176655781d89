"""Schemas no value can satisfy: the contradiction in one node, and the unambiguous ones read as they were meant.

Both questions read one schema node's own keywords (never through ``$ref`` or the combinators), so they cost a
few dictionary look-ups per node:

* :func:`contradiction` -- why no value can satisfy the node (``None`` when some value can). Only ``null`` left
  counts as none when the node names other types: ``{type: [integer, null], minimum: 10, maximum: 5}`` is a
  contradiction too. The contradictions are: ``type`` against every ``enum`` member (or ``const``), an empty
  ``enum``; ``minimum`` above ``maximum`` (exclusive bounds included, no integer between them for ``integer``),
  ``minLength`` above ``maxLength``, ``minItems`` above ``maxItems``, ``minProperties`` above ``maxProperties``,
  each on a node whose declared types it leaves no value of; a ``required`` property whose schema is ``false``.
* :func:`repaired` -- the node with the ``enum``/``const`` members its ``type`` rejects read in their one
  meaning, and what changed: under a single type, a member that is that type's JSON text becomes the value
  (``{type: integer, enum: ["5", "15"]}`` is ``enum: [5, 15]``; a number under ``string`` is its text,
  ``[3, null]`` under ``string`` is ``["3", null]``); a ``null`` member adds ``null`` to the type (the member
  says the value may be null); a member with no such reading is dropped, when others are left. Every change
  is a :class:`Repair`, which a source records as a loss (its reason starts with :data:`REPAIRED`). A node
  whose contradiction has no one reading (contradictory bounds) is left as written: building refuses it.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from toolkit._canonical import json_type
from toolkit._schema._keywords import IN_PLACE_ONE, SCHEMA_LIST, SCHEMA_MAP
from toolkit._schema._types import declared_types
from toolkit._schema._walk import unescape

__all__ = ["REPAIRED", "Repair", "admitted", "conditional", "contradiction", "repaired"]

REPAIRED = "no value could satisfy it as written: "
"""How the reason of every repair's loss begins (surveys count repaired tools by it)."""

_COUNTS = {
    "string": ("minLength", "maxLength", "characters"),
    "array": ("minItems", "maxItems", "items"),
    "object": ("minProperties", "maxProperties", "properties"),
}
_SPOKEN = frozenset(
    {"enum", "const", "required", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
    | {key for keys in _COUNTS.values() for key in keys[:2]}
)
"""The keywords a contradiction needs: a node with none of them (most nodes) is passed over at once."""
_INTEGER_TEXT = re.compile(r"-?(0|[1-9][0-9]*)")
_NUMBER_TEXT = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_BOOLEAN_TEXT = {"true": True, "false": False}


_NONE: Any = type("NoReading", (), {"__repr__": lambda self: "NO_READING"})()
"""What :func:`_reading` gives for a member with no reading under the node's type."""


class Repair(NamedTuple):
    """One change :func:`repaired` made: the keyword, its value as written, and what it now reads."""

    keyword: str
    value: Any
    reason: str


_NULL = frozenset({"null"})


def _accepts(types: frozenset[str], value: Any) -> bool:
    kind = json_type(value)
    if kind == "number" and isinstance(value, float) and value.is_integer():
        kind = "integer"
    return kind in types


def admitted(node: Mapping[str, Any], values: list[Any]) -> list[Any]:
    """The members of ``values`` (an ``enum``) that ``node``'s declared ``type`` accepts: all of them when the
    node declares no type. What an error may offer: a member the type rejects is never a value to send."""
    types = declared_types(node)
    return values if types is None else [v for v in values if _accepts(types, v)]


_PYTHON_TYPES = {str: "string", int: "integer", bool: "boolean", type(None): "null", list: "array", dict: "object"}
"""The JSON type of each Python type a member has, but ``float`` (an integral float is also an integer)."""


def _all_accepted(types: frozenset[str], values: list[Any]) -> bool:
    """Whether the type accepts every member (read by the members' Python types first: most enums are strings)."""
    kinds = {_PYTHON_TYPES.get(kind) for kind in set(map(type, values))}
    if None not in kinds:
        return kinds <= types
    return all(_accepts(types, v) for v in values)


def _number_dead(node: Mapping[str, Any], integer: bool) -> str | None:
    low, high = node.get("minimum"), node.get("maximum")
    xlow, xhigh = node.get("exclusiveMinimum"), node.get("exclusiveMaximum")
    bounds = [b for b in (low, high, xlow, xhigh) if b is not None]
    if not all(isinstance(b, int | float) and not isinstance(b, bool) and math.isfinite(b) for b in bounds):
        return None  # a malformed bound is another refusal's (bad_keyword)
    lowest = max((b for b in (low, xlow) if b is not None), default=-math.inf)
    highest = min((b for b in (high, xhigh) if b is not None), default=math.inf)
    shut = (xlow is not None and xlow >= lowest) or (xhigh is not None and xhigh <= highest)
    if lowest > highest or (lowest == highest and shut):
        return f"its bounds leave no number (from {_text(lowest)} to {_text(highest)})"
    if integer and math.isfinite(lowest) and math.isfinite(highest):
        first = math.floor(xlow) + 1 if xlow is not None and xlow >= lowest else math.ceil(lowest)
        last = math.ceil(xhigh) - 1 if xhigh is not None and xhigh <= highest else math.floor(highest)
        if first > last:
            return f"no integer lies within its bounds (from {_text(lowest)} to {_text(highest)})"
    return None


def _count_dead(node: Mapping[str, Any], kind: str) -> str | None:
    low_key, high_key, unit = _COUNTS[kind]
    low, high = node.get(low_key), node.get(high_key)
    if isinstance(low, int | float) and isinstance(high, int | float) and low > high:
        return f"{low_key} {_text(low)} is above {high_key} {_text(high)} (no {kind} has that many {unit})"
    if kind == "object":
        properties = node.get("properties")
        required = node.get("required")
        if isinstance(properties, Mapping) and isinstance(required, list) and False in properties.values():
            banned = [name for name in required if isinstance(name, str) and properties.get(name) is False]
            if banned:
                return f"the required property {banned[0]!r} has the schema false (no value is allowed)"
    return None


def _type_dead(node: Mapping[str, Any], kind: str) -> str | None:
    if kind in ("integer", "number"):
        return _number_dead(node, kind == "integer")
    if kind in _COUNTS:
        return _count_dead(node, kind)
    return None


def _members(node: Mapping[str, Any]) -> tuple[str, list[Any]] | None:
    if "const" in node:
        return "const", [node["const"]]
    if isinstance(node.get("enum"), list):
        return "enum", node["enum"]
    return None


def contradiction(node: Any) -> str | None:
    """Why no value satisfies ``node``'s own keywords (``None`` when one may): see the module's docstring."""
    if (node.__class__ is not dict and not isinstance(node, Mapping)) or _SPOKEN.isdisjoint(node):
        return None
    types = declared_types(node)
    found = _members(node)
    if found is not None:
        keyword, values = found
        if not values:
            return "its enum lists no value"
        if types is not None and not _any_member(types, values):
            shown = ", ".join(_text(v) for v in values[:5]) + (", ..." if len(values) > 5 else "")
            return f"its type {_text(node.get('type'))} accepts no member of its {keyword} ({shown})"
    if types is None:
        return None  # a bound speaks to one type, and every other type still passes
    reasons = []
    for kind in sorted(types - {"null", "integer"} if "number" in types else types - _NULL):
        reason = _type_dead(node, kind)
        if reason is None:
            return None  # a value of this type can pass
        reasons.append(reason)
    if not reasons:
        return None  # the type is null alone
    return "; ".join(dict.fromkeys(reasons)) + (" (only null is left)" if "null" in types else "")


def _any_member(types: frozenset[str], values: list[Any]) -> bool:
    """Whether a member passes the type: null counts only where the type is null alone."""
    if types == _NULL:
        return None in values
    return any(v is not None and _accepts(types, v) for v in values)


_CONDITIONAL = frozenset(IN_PLACE_ONE)  # not, if, then, else
_NAMED = frozenset((*SCHEMA_MAP, *SCHEMA_LIST))


def conditional(at: str) -> bool:
    """Whether the schema at pointer ``at`` sits under ``not``, ``if``, ``then`` or ``else``, where a schema no
    value satisfies is a condition, not a contradiction (``not: {enum: []}`` accepts everything)."""
    parts = [unescape(t) for t in at.split("/")[1:]] if at else []
    i = 0
    while i < len(parts):
        if parts[i] in _CONDITIONAL:
            return True
        i += 2 if parts[i] in _NAMED else 1  # a name or an index follows a map's or a list's keyword
    return False


def repaired(node: dict[str, Any]) -> tuple[dict[str, Any], tuple[Repair, ...]]:
    """``node`` with the ``enum``/``const`` members its type rejects read as meant (a copy), and the changes;
    ``node`` itself and ``()`` when nothing needs reading."""
    found = _members(node)
    types = declared_types(node)
    if found is None or types is None:
        return node, ()
    keyword, values = found
    if _all_accepted(types, values):
        return node, ()
    kept = [v if v is None or _accepts(types, v) else _reading(v, types) for v in values]
    unique = list({_key(v): v for v in kept if v is not _NONE}.values())
    if all(v is None for v in unique):
        return node, ()  # no member other than null has a reading: a contradiction, left to be refused
    out = dict(node)
    if keyword == "const":
        out["const"] = unique[0]
    else:
        out["enum"] = unique
    changes = [Repair(keyword, node[keyword], _reason(keyword, node[keyword], out[keyword], types))]
    if None in unique and "null" not in types:
        out["type"] = _with_null(node.get("type"))
        changes.append(Repair("type", node.get("type"), f"{REPAIRED}its {keyword} lists null, so null is allowed"))
    return out, tuple(changes)


def _reading(value: Any, types: frozenset[str]) -> Any:
    """The one value of the node's single non-null type that ``value`` spells, or :data:`_NONE`."""
    named = types - {"null", "integer"} if "number" in types else types - {"null"}
    if len(named) != 1:
        return _NONE
    kind = next(iter(named))
    if kind == "string" and isinstance(value, int | float):  # bool too: JSON's own text of each
        return json.dumps(value)
    if not isinstance(value, str):
        return _NONE
    if kind == "integer" and _INTEGER_TEXT.fullmatch(value):
        return int(value)
    if kind == "number" and _NUMBER_TEXT.fullmatch(value):
        number = float(value)
        return int(number) if _INTEGER_TEXT.fullmatch(value) else number
    if kind == "boolean" and value in _BOOLEAN_TEXT:
        return _BOOLEAN_TEXT[value]
    return _NONE


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _with_null(kinds: Any) -> Any:
    return [kinds, "null"] if isinstance(kinds, str) else [*kinds, "null"]


def _reason(keyword: str, before: Any, after: Any, types: frozenset[str]) -> str:
    kind = " or ".join(sorted(types - {"integer"} if "number" in types else types))
    return f"{REPAIRED}type {kind} rejects {keyword} {_text(before)}; read as {_text(after)}"


def _text(value: Any) -> str:
    if isinstance(value, float) and math.isinf(value):
        return "-infinity" if value < 0 else "infinity"
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."
