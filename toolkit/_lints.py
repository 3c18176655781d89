"""The lint catalogue: known traps in a tool contract, one small rule per trap.

Lints read ``tool.contract.args_schema`` (the full JSON Schema), so they work the same for function tools
and OpenAPI tools. Each rule has a stable ``code`` and ``slug`` (tests, docs and suppressions use them),
a severity, and yields :class:`~toolkit.Lint` records at the dotted parameter path (``""`` = the tool).
References are read by :mod:`toolkit._refs`, so a bad one raises the :class:`~toolkit.SchemaError` slug
every other stage gives (a tool built by ``build_tool`` has been lowered first, which reads them all).

:data:`CATALOGUE` lists every rule, in code order; :func:`lint` runs them all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolkit import _framework_lints as framework
from toolkit._contract import TOOL_NAME, FrameworkSource, Injected, Lint, Severity
from toolkit._exceptions import ToolkitError
from toolkit._refs import Refs, follow, schema_types

if TYPE_CHECKING:
    from toolkit._tool import Tool

__all__ = ["CATALOGUE", "Field", "Finding", "Rule", "Subject", "lint"]

MAX_PARAMETERS = 8
LARGE_DECLARATION = 8 * 1024
"""Bytes of canonical JSON above which a declaration is a warning (~2k tokens, sent with every request)."""
HUGE_DECLARATION = 64 * 1024
"""Bytes above which it is an error: the declaration alone eats a large share of the model's context."""
MAX_NESTING = 2
_WALK_LIMIT = MAX_NESTING + 2  # deep enough to see a violation, shallow enough to stop recursive schemas
_UNION_HOPS = 32
_DATE_NAME = re.compile(r"^(date|since|until|deadline|timestamp)$|_(at|on|date|time|since|until|deadline)$", re.I)
_MONEY_NAME = re.compile(r"^(amount|price|cost|total|fee|balance)$|_(amount|price|cost|total|fee|balance)$", re.I)
_TEMPORAL_FORMATS = frozenset({"date", "date-time", "time", "duration"})
_FILLER = frozenset({"the", "a", "an", "of", "for", "to", "this", "its"})


@dataclass(frozen=True, slots=True)
class Field:
    """One parameter or nested field, with local ``$ref``s resolved."""

    path: str
    name: str
    schema: Mapping[str, Any]
    depth: int
    """1 for a top-level parameter, 2 for a field of an object parameter, and so on."""

    @property
    def branches(self) -> list[Mapping[str, Any]]:
        """The non-null alternatives of this field (its ``anyOf``/``oneOf`` members, or itself)."""
        alts = self.schema.get("anyOf") or self.schema.get("oneOf")
        if isinstance(alts, list) and alts:
            return [a for a in alts if isinstance(a, Mapping) and _types(a) != {"null"}]
        return [self.schema]


@dataclass(frozen=True, slots=True)
class Subject:
    """What the rules look at: the tool's name, description, root schema and every field."""

    name: str
    description: str
    schema: Mapping[str, Any]
    fields: tuple[Field, ...]
    refs: Refs
    """The schema's references, read once each."""
    declaration_bytes: int | None = None
    """Size of the lowered declaration as canonical UTF-8 JSON (``None``: not measurable)."""
    framework: FrameworkSource | None = None
    """The framework tool object the tool was read from, if any (its schema is compared with ours)."""
    injected: tuple[Injected, ...] = ()
    framework_fields: tuple[Field, ...] = ()
    """Every field of the framework's own schema, walked as :attr:`fields` is."""
    framework_refs: Refs | None = None
    """The framework schema's references; ``None`` when there is no framework schema to compare."""

    @property
    def framework_schema(self) -> Mapping[str, Any] | None:
        return self.framework.schema if self.framework is not None else None

    def resolve(self, node: Any) -> Any:
        return follow(node, self.refs)


@dataclass(frozen=True, slots=True)
class Rule:
    """One catalogue entry: stable code and slug, severity, a one-line summary, and the check."""

    code: str
    slug: str
    severity: Severity
    summary: str
    check: Callable[[Subject], Iterator[Finding]]
    """Yields ``(path, message, fix)`` for each finding, or ``(path, message, fix, severity)`` when a rule's
    severity depends on how bad the finding is."""


Finding = tuple[str, str, str] | tuple[str, str, str, Severity]


def lint(tool: Tool) -> tuple[Lint, ...]:
    """Run every rule of :data:`CATALOGUE` over ``tool``; findings in catalogue order, then parameter order."""
    contract = tool.contract
    schema = contract.args_schema
    refs = Refs(schema)
    fields = tuple(_walk(refs, schema, "", 1))
    subject = Subject(
        contract.name,
        contract.description or "",
        schema,
        fields,
        refs,
        _declaration_bytes(tool),
        framework=contract.framework,
        injected=contract.injected,
        **_framework_view(contract.framework),
    )
    found: dict[tuple[str, str], Lint] = {}
    for rule in CATALOGUE:
        for path, message, fix, *severity in rule.check(subject):
            # union members can share a field name: one finding per rule and path
            level = severity[0] if severity else rule.severity
            found.setdefault((rule.code, path), Lint(rule.code, rule.slug, level, path, message, fix))
    return tuple(found.values())


def _framework_view(source: FrameworkSource | None) -> dict[str, Any]:
    """The framework schema's fields and references, walked like toolkit's; nothing if it cannot be read."""
    schema = source.schema if source is not None else None
    if not isinstance(schema, Mapping):
        return {}
    try:
        refs = Refs(schema)
        return {"framework_fields": tuple(_walk(refs, schema, "", 1)), "framework_refs": refs}
    except (ToolkitError, RecursionError):  # a framework schema toolkit cannot read is not compared
        return {}


def _declaration_bytes(tool: Tool) -> int | None:
    """The declaration's size as compact UTF-8 JSON, serialised once and without copying a possibly huge schema.

    Canonical JSON (:func:`toolkit._canonical.compact`) only sorts keys and respells numbers, which changes no
    size that matters here; skipping it makes the rule ~40% cheaper on the Kubernetes spec.
    """
    declaration: dict[str, Any] = {"name": tool.contract.name, "description": tool.contract.description}
    if tool.parameters is not None:
        declaration["parameters"] = tool.parameters
    try:
        text = json.dumps(declaration, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        return len(text.encode("utf-8"))
    except (TypeError, ValueError, RecursionError):  # not JSON (a NaN, a stray object): other checks say so
        return None


# -- schema reading ----------------------------------------------------------------------------------------
def _types(schema: Mapping[str, Any]) -> frozenset[str]:
    """The JSON types a node itself declares (``type``, ``nullable``, ``enum``, ``const``); empty if none."""
    return schema_types(schema, deep=False) or frozenset()


def _walk(refs: Refs, node: Any, prefix: str, depth: int) -> Iterator[Field]:
    """Every property below ``node`` (through arrays and unions), down to a bounded depth."""
    node = follow(node, refs)
    if depth > _WALK_LIMIT or not isinstance(node, Mapping):
        return
    for container in _containers(refs, node):
        properties = container.get("properties")
        for name, sub in properties.items() if isinstance(properties, Mapping) else ():
            resolved = follow(sub, refs)
            if not isinstance(resolved, Mapping):
                continue
            path = f"{prefix}.{name}" if prefix else name
            yield Field(path, name, resolved, depth)
            yield from _walk(refs, resolved, path, depth + 1)


def _containers(
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
            if isinstance(resolved, Mapping):
                yield from _containers(refs, resolved, hops + 1, seen)
    items = follow(node.get("items"), refs)
    if isinstance(items, Mapping):
        yield from _containers(refs, items, hops + 1, seen)


# -- rules -------------------------------------------------------------------------------------------------
def _missing_tool_description(s: Subject) -> Iterator[tuple[str, str, str]]:
    if not s.description.strip():
        yield "", f"tool {s.name!r} has no description", "write when to call it and what it returns"


def _missing_parameter_description(s: Subject) -> Iterator[tuple[str, str, str]]:
    for f in s.fields:
        if not str(f.schema.get("description") or "").strip():
            yield f.path, f"{f.path!r} has no description", _DESCRIBE_FIX


def _vague_parameter_description(s: Subject) -> Iterator[tuple[str, str, str]]:
    for f in s.fields:
        text = str(f.schema.get("description") or "").strip()
        if not text:
            continue
        words = re.findall(r"[A-Za-z0-9]+", text.lower())
        meaningful = [w for w in words if w not in _FILLER]
        if len(words) < 3:
            yield f.path, f"description of {f.path!r} is too short to guide the model: {text!r}", _DESCRIBE_FIX
        elif meaningful == _name_words(f.name):
            yield f.path, f"description of {f.path!r} only repeats its name: {text!r}", _DESCRIBE_FIX


_DESCRIBE_FIX = "say what to put in the slot: format, unit, allowed range, where the value comes from"


def _name_words(name: str) -> list[str]:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower().replace("-", "_").strip("_").split("_")


def _untyped_value(s: Subject) -> Iterator[tuple[str, str, str]]:
    for f in s.fields:
        items = [s.resolve(b["items"]) for b in f.branches if isinstance(b.get("items"), Mapping)]
        if any(_is_untyped(b) for b in [*f.branches, *items]):
            yield (
                f.path,
                f"{f.path!r} accepts any JSON value (Any/object): the model can send anything and nothing is checked",
                "give it a concrete type; if the payload varies, split the tool or use a union of typed shapes",
            )


def _is_untyped(schema: Any) -> bool:
    if not isinstance(schema, Mapping):  # a boolean branch: true accepts anything, false nothing
        return schema is True
    shape_keys = ("type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const", "properties", "items")
    return not any(k in schema for k in shape_keys)


def _untyped_map(s: Subject) -> Iterator[tuple[str, str, str]]:
    for f in s.fields:
        for b in f.branches:
            if "object" in _types(b) and not b.get("properties") and _free_values(s, b.get("additionalProperties")):
                yield (
                    f.path,
                    f"{f.path!r} is an untyped map (dict[str, Any]): an unvalidatable bag of keys",
                    "declare the keys as a model/TypedDict, or type the values (dict[str, int])",
                )
                break


def _free_values(s: Subject, additional: Any) -> bool:
    if additional is None or additional is True:
        return True
    resolved = s.resolve(additional)
    return isinstance(resolved, Mapping) and _is_untyped(resolved)


def _enum_case(s: Subject) -> Iterator[tuple[str, str, str]]:
    for f in s.fields:
        for b in f.branches:
            values = [v for v in b.get("enum") or () if isinstance(v, str) and re.search(r"[A-Za-z]", v)]
            styles = {_case_style(v) for v in values}
            if "other" in styles or {"snake", "camel"} <= styles:
                yield (
                    f.path,
                    f"enum values of {f.path!r} mix cases or use SCREAMING_SNAKE/PascalCase: {values!r}; "
                    "models emit lowercase or camelCase and strict validation rejects the mismatch",
                    "advertise the values in one lowercase (snake_case) or camelCase style, "
                    "or set Policy(enum_case='insensitive')",
                )
                break


def _case_style(value: str) -> str:
    if value == value.lower():
        return "snake" if re.search(r"[_\- ]", value) else "lower"
    if re.fullmatch(r"[a-z][a-z0-9]*([A-Z][a-z0-9]*)+", value):
        return "camel"
    return "other"


def _date_as_string(s: Subject) -> Iterator[tuple[str, str, str]]:
    for f in s.fields:
        if not _DATE_NAME.search(f.name):
            continue
        if any("string" in _types(b) and b.get("format") not in _TEMPORAL_FORMATS for b in f.branches):
            yield (
                f.path,
                f"{f.path!r} looks like a date or time but is a plain string: expect 'next Tuesday' and '08/07'",
                "type it date/datetime (format date or date-time) and say how relative dates are meant",
            )


def _money_as_float(s: Subject) -> Iterator[tuple[str, str, str]]:
    for f in s.fields:
        if not _MONEY_NAME.search(f.name):
            continue
        kinds = set().union(*(_types(b) for b in f.branches))
        if "number" in kinds and "string" not in kinds:
            yield (
                f.path,
                f"{f.path!r} looks like money but is a float: 19.99 becomes 19.990000000000002",
                "take a Decimal (sent as a decimal string) or integer minor units, and say which in the description",
            )


def _deep_nesting(s: Subject) -> Iterator[tuple[str, str, str]]:
    for f in s.fields:
        if f.depth == MAX_NESTING + 1 and any(True for _ in _containers(s.refs, f.schema)):
            yield (
                f.path,
                f"{f.path!r} is an object nested {f.depth} levels deep (limit {MAX_NESTING}); models lose track "
                "of deep slots",
                "flatten the arguments into top-level scalar parameters or split the tool",
            )


def _too_many_parameters(s: Subject) -> Iterator[tuple[str, str, str]]:
    count = sum(1 for f in s.fields if f.depth == 1)
    if count > MAX_PARAMETERS:
        yield (
            "",
            f"tool {s.name!r} has {count} parameters (more than {MAX_PARAMETERS}); long lists make models misfill",
            "split the tool by purpose or give the rarely used parameters documented defaults in a second tool",
        )


def _declaration_too_large(s: Subject) -> Iterator[Finding]:
    size = s.declaration_bytes
    if size is None or size <= LARGE_DECLARATION:
        return
    severity: Severity = "error" if size > HUGE_DECLARATION else "warning"
    limit = HUGE_DECLARATION if severity == "error" else LARGE_DECLARATION
    yield (
        "",
        f"the declaration of {s.name!r} is {size / 1024:.1f} KiB of JSON (~{size // 4:,} tokens, over "
        f"{limit // 1024} KiB), sent with every request: it crowds the model's context and slows every call",
        "narrow the operation with overrides (fewer parameters, a smaller request body, shallower references) "
        "or split it into tools that each do one thing",
        severity,
    )


def _bad_tool_name(s: Subject) -> Iterator[tuple[str, str, str]]:
    if not TOOL_NAME.fullmatch(s.name):
        yield (
            "",
            f"tool name {s.name!r} breaks the declaration rule [A-Za-z_][A-Za-z0-9_.:-]{{0,127}}",
            "rename it with letters, digits, '_', '.', ':' and '-', starting with a letter or '_', ≤ 128 characters",
        )


CATALOGUE: Sequence[Rule] = (
    Rule("TK101", "missing_tool_description", "warning", "the tool has no description", _missing_tool_description),
    Rule(
        "TK102",
        "missing_parameter_description",
        "warning",
        "a parameter has no description",
        _missing_parameter_description,
    ),
    Rule(
        "TK103",
        "vague_parameter_description",
        "warning",
        "a parameter description is under 3 words or only repeats the name",
        _vague_parameter_description,
    ),
    Rule("TK201", "untyped_value", "warning", "a parameter accepts any JSON value (Any, object)", _untyped_value),
    Rule("TK202", "untyped_map", "warning", "a parameter is a map with untyped values (dict[str, Any])", _untyped_map),
    Rule("TK301", "enum_case", "warning", "enum values are not in one lowercase or camelCase style", _enum_case),
    Rule("TK401", "date_as_string", "warning", "a date- or time-like parameter is a plain string", _date_as_string),
    Rule("TK402", "money_as_float", "warning", "a money-like parameter is a float", _money_as_float),
    Rule("TK501", "deep_nesting", "info", f"objects nest deeper than {MAX_NESTING} levels", _deep_nesting),
    Rule(
        "TK502",
        "too_many_parameters",
        "info",
        f"the tool has more than {MAX_PARAMETERS} parameters",
        _too_many_parameters,
    ),
    Rule(
        "TK503",
        "declaration_too_large",
        "warning",
        f"the declaration is over {LARGE_DECLARATION // 1024} KiB of JSON (error over {HUGE_DECLARATION // 1024} KiB)",
        _declaration_too_large,
    ),
    Rule("TK601", "bad_tool_name", "error", "the tool name breaks the declaration name rule", _bad_tool_name),
    # a framework's own schema of the tool against toolkit's derivation (toolkit/_framework_lints.py)
    Rule(
        "TK701",
        "framework_refused",
        "warning",
        "the framework the tool came from cannot declare it",
        framework.framework_refused,
    ),
    Rule(
        "TK702",
        "framework_parameters",
        "warning",
        "the framework's schema and toolkit's declare different parameters",
        framework.framework_parameters,
    ),
    Rule(
        "TK703",
        "framework_required",
        "warning",
        "the framework's schema and toolkit's disagree on whether a parameter is required",
        framework.framework_required,
    ),
    Rule(
        "TK704",
        "framework_types",
        "warning",
        "the framework's schema and toolkit's give a parameter different JSON types",
        framework.framework_types,
    ),
    Rule(
        "TK705",
        "framework_description",
        "info",
        "the framework's schema and toolkit's describe a parameter differently",
        framework.framework_description,
    ),
)
"""Every lint rule, in code order. Codes and slugs are stable: never renumber, only add."""
