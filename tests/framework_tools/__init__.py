"""Tools written the way each agent framework's users write them: a context parameter, a described schema, a
nested model. The test suites build each with ``toolkit.from_function`` and run it under its framework.

Each framework module imports its framework at the top, so importing it needs that framework installed; the
test modules skip with the reason first. Every module lists its tools in ``CASES``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Case:
    """A framework tool object, the parameters its framework fills, and those the model must be told about."""

    obj: Any
    framework: str
    injected: frozenset[str]
    visible: frozenset[str]


def case(obj: Any, framework: str, injected: set[str], visible: set[str]) -> Case:
    return Case(obj, framework, frozenset(injected), frozenset(visible))


def _text(value: Any) -> str:
    return " ".join(str(value or "").split())


def _types(node: Any) -> set[str]:
    """The JSON types a property admits, ``null`` aside (``anyOf`` members included); empty: any."""
    if not isinstance(node, dict):
        return set()
    kind = node.get("type")
    found = set(kind) if isinstance(kind, list) else {kind} if isinstance(kind, str) else set()
    for member in node.get("anyOf", ()):
        found |= _types(member)
    return found - {"null"}


def differences(tool: Any, name: str, description: str, schema: dict[str, Any]) -> list[str]:
    """Where toolkit's reading of a framework tool differs from what the framework itself exposes: the name,
    the description (toolkit's text must be the framework's, or the docstring part of it), and per parameter
    the names, whether required, the JSON types and the framework's descriptions. Empty when they agree."""
    found: list[str] = []
    if tool.name != name:
        found.append(f"name {tool.name!r} != {name!r}")
    if not tool.description or _text(tool.description) not in _text(description):
        found.append(f"description {tool.description!r} not in {description!r}")
    ours, theirs = tool.args_schema.get("properties", {}), schema.get("properties", {})
    if set(ours) != set(theirs):
        found.append(f"parameters {sorted(ours)} != {sorted(theirs)}")
    if set(tool.args_schema.get("required", ())) != set(schema.get("required", ())):
        found.append(f"required {tool.args_schema.get('required')} != {schema.get('required')}")
    for key in set(ours) & set(theirs):
        if _types(theirs[key]) and _types(ours[key]) != _types(theirs[key]):
            found.append(f"{key}: types {_types(ours[key])} != {_types(theirs[key])}")
        if theirs[key].get("description") and _text(ours[key].get("description")) != _text(theirs[key]["description"]):
            found.append(f"{key}: description {ours[key].get('description')!r} != {theirs[key]['description']!r}")
    return found


def described(schema: dict[str, Any]) -> int:
    """How many top-level parameters of a schema carry a description."""
    return sum(1 for node in schema.get("properties", {}).values() if _text(node.get("description")))
