"""``anyOf`` / ``oneOf`` / ``not``, and reading a property's schema behind its reference and optional wrapper.

When no branch of an ``anyOf`` matches, reporting "matches none of 2 alternatives" helps nobody. So the
branch errors are chosen by the value's JSON type: if exactly one branch accepts that type (the usual
``anyOf: [{type: integer, maximum: 100}, {type: null}]`` of an optional parameter), that branch's own errors
are reported ("out of range: 500"); if none accepts it, the error is ``wrong_type``; otherwise
``no_branch_matched``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolkit._canonical import JSON_TYPES
from toolkit._schema import Resolve, TypeSet, follow
from toolkit._validation._checks import Check, Run, short
from toolkit._validation._expected import Loc, declared_texts, describe, once, type_name

__all__ = ["TypeSet", "branch_check", "core", "declared_strings", "default_of", "not_check", "optional_check"]

_ALL = JSON_TYPES


def _of_value(value: Any) -> str:
    kind = type_name(value)
    return kind if kind in _ALL else "other"


def declared_strings(schema: Any, resolve: Resolve, depth: int = 0, seen: set[str] | None = None) -> dict[str, Any]:
    """The declared strings of every non-string ``enum``/``const`` member that constrains this value.

    Looks where a value meets several schemas at once — the node itself, its ``$ref``, ``allOf`` members
    and union branches — not into properties or items (those are values of their own). Maps each string
    the lowered declaration shows to the member it stands for (see :func:`._expected.declared_texts`).
    """
    if not isinstance(schema, Mapping) or depth > 64:  # each $ref is followed once, so this is not exponential
        return {}
    found: dict[str, Any] = {}
    if isinstance(schema.get("enum"), list):
        found.update(declared_texts(schema["enum"]))
    if "const" in schema:
        found.update(declared_texts([schema["const"]]))
    seen = set() if seen is None else seen
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref not in seen:  # each reference once: recursive unions stay linear
        seen.add(ref)
        found.update(declared_strings(resolve(ref), resolve, depth + 1, seen))
    for key in ("allOf", "anyOf", "oneOf"):
        members = schema.get(key)
        for member in members if isinstance(members, list) else ():
            for text, value in declared_strings(member, resolve, depth + 1, seen).items():
                found.setdefault(text, value)
    return found


def _accepts(types: TypeSet, value: Any) -> bool:
    if types is None:
        return True
    kind = _of_value(value)
    if kind == "number" and "integer" in types and isinstance(value, float) and value.is_integer():
        return True
    return kind in types


def branch_check(
    keyword: str, nodes: Sequence[Check], types: Sequence[TypeSet], schema: Mapping[str, Any], description: str | None
) -> Check:
    """``anyOf`` (first matching branch wins) or ``oneOf`` (exactly one must match).

    A branch that matches only by reading a declared enum string (``"2"`` as ``2``) counts only when no
    branch takes the value as it is: ``anyOf [enum [1, 2], string]`` keeps ``"2"`` a string. When the node's
    evaluated keys or items are being collected (``unevaluated*``, closed objects), every branch of an
    ``anyOf`` is tried, and each one that matches adds what it evaluated, as 2020-12 says.
    """
    one = keyword == "oneOf"

    def check(value: Any, loc: Loc, run: Run) -> Any:
        matched: tuple[Run, Any] | None = None
        coerced: list[tuple[Run, Any]] = []
        tried: list[tuple[int, Run]] = []
        collect = run.props is not None or run.items is not None
        for i, node in enumerate(nodes):
            probe = run.probe()
            cleaned = node(value, loc, probe)
            if probe.errors:
                tried.append((i, probe))
            elif probe.notices and _read_declared(probe):
                coerced.append((probe, cleaned))
            elif matched is None:
                matched = (probe, cleaned)
                if not one and not collect:
                    break
            elif one:
                run.error(loc, "ambiguous", f"{short(value)} matches more than one alternative", describe(schema))
                return value
            else:
                run.absorb(probe, outcome=False)
        if matched is None and coerced:
            if one and len(coerced) > 1:
                run.error(loc, "ambiguous", f"{short(value)} matches more than one alternative", describe(schema))
                return value
            matched = coerced[0]
        if matched is not None:
            run.absorb(matched[0])
            return matched[1]
        _report(value, loc, run, tried, types, schema)
        return value

    return check


def optional_check(node: Check, types: TypeSet, schema: Mapping[str, Any]) -> Check:
    """``anyOf``/``oneOf`` of ``{type: null}`` and a branch whose own ``type`` refuses null: an optional value.

    The answer :func:`branch_check` gives, with fewer probes: ``null`` takes the null branch and nothing else
    (the other branch fails on its type); any other value can only match the other branch, so a value of a
    type that branch takes (``types``) meets it alone, and its errors are the ones reported; a value of another
    type (which the branch may still take: ``1`` is ``1.0``) is tried in a probe, and ``wrong_type`` when the
    branch refuses it.
    """
    expected = once(lambda: describe(schema))

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if value is None:
            return None
        if _accepts(types, value):
            return node(value, loc, run)
        passed, cleaned = run.attempt(node, value, loc)
        if passed:
            return cleaned
        run.error(loc, "wrong_type", f"{type_name(value)} {short(value)} is not accepted here", expected())
        return value

    return check


def _read_declared(probe: Run) -> bool:
    return any(notice.action == "coerced_enum" for notice in probe.notices)


def _report(
    value: Any, loc: Loc, run: Run, tried: list[tuple[int, Run]], types: Sequence[TypeSet], schema: Mapping[str, Any]
) -> None:
    fitting = [probe for i, probe in tried if _accepts(types[i], value)]
    if len(fitting) == 1:
        run.absorb(fitting[0])
    elif not fitting:
        run.error(loc, "wrong_type", f"{type_name(value)} {short(value)} is not accepted here", describe(schema))
    else:
        run.error(loc, "no_branch_matched", f"{short(value)} matches none of the alternatives", describe(schema))


def not_check(node: Check, forbidden: Any) -> Check:
    """``not``: the value must fail ``node`` (whose annotations, like its notices, are dropped)."""

    def check(value: Any, loc: Loc, run: Run) -> Any:
        probe = run.probe(in_place=False)
        node(value, loc, probe)
        if not probe.errors:
            run.error(loc, "not_allowed", f"{short(value)} is a forbidden value", f"anything but {describe(forbidden)}")
        return value

    return check


# -- unwrapping ------------------------------------------------------------------------------------
def core(schema: Any, resolve: Resolve) -> tuple[Any, bool]:
    """The schema behind ``$ref`` s and an ``anyOf [X, null]`` wrapper, and whether null is allowed."""
    nullable = False
    for _ in range(16):
        schema = follow(schema, resolve)
        if not isinstance(schema, Mapping):
            return schema, nullable
        branches = schema.get("anyOf") or schema.get("oneOf")
        if isinstance(branches, list):
            rest = [b for b in branches if not (isinstance(b, Mapping) and b.get("type") == "null")]
            if len(rest) == 1 and len(branches) == 2:
                nullable = True
                outer = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
                schema = {**outer, **rest[0]} if isinstance(rest[0], Mapping) else rest[0]
                continue
        kinds = schema.get("type")
        if isinstance(kinds, list) and "null" in kinds:
            nullable = True
            others = [k for k in kinds if k != "null"]
            schema = {**schema, "type": others[0] if len(others) == 1 else others}
        return schema, nullable or schema.get("nullable") is True
    return schema, nullable


NO_DEFAULT: Any = object()


def default_of(schema: Any, resolve: Resolve) -> Any:
    """A property's ``default``: on the property itself, else behind its ``$ref`` / optional wrapper."""
    if isinstance(schema, Mapping) and "default" in schema:
        return schema["default"]
    inner, _ = core(schema, resolve)
    return inner["default"] if isinstance(inner, Mapping) and "default" in inner else NO_DEFAULT
