"""The ugly-argument families: for one parameter, the values a model really sends and what should happen.

Each family function yields :class:`Case` s — a value for the parameter (or :data:`OMIT`), the verdict the
*contract* predicts under the tool's policies, and why. The verdicts are derived from the schema and the
policy here, independently of the validator, so a fixture that fails means the two disagree.

A non-string ``enum``/``const`` member sent as the string the declaration shows for it (``"2"`` for ``2``:
the Gemini subset carries enums only as strings) is ``accept_with_notice``: the validator reads it back.

Policy-dependent verdicts: bounded numbers past a bound are ``accept_with_notice`` on tools that clamp
(read tools by default) and ``reject`` otherwise; a wrong-case enum is ``accept_with_notice`` under
``enum_case="insensitive"``; an explicit null for an optional, non-nullable parameter is
``accept_with_notice`` under ``null_optional="absent"``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeGuard

from toolkit._exceptions import SchemaError
from toolkit._fixtures._values import NO_VALUE, core, example
from toolkit._schema import main_type
from toolkit._validation._checks import is_multiple
from toolkit._validation._compile import refuses_unlisted
from toolkit._validation._expected import declared_texts
from toolkit._validation._formats import check_format
from toolkit._validation._pattern import PatternLimitError, compile_pattern

__all__ = ["OMIT", "Case", "Param", "Setting", "param_cases"]

Verdict = Literal["accept", "accept_with_notice", "reject"]
OMIT: Any = type("Omit", (), {"__repr__": lambda self: "OMIT"})()
FREE_TEXT_DATES = {"next_tuesday": "next Tuesday", "us_slashes": "08/07/2026", "yesterday": "yesterday"}
_WRONG = {"string": 12345, "integer": "not a number", "number": "not a number", "boolean": "yes"}
_WRONG |= {"array": "a, b", "object": "not an object", "null": "x"}


@dataclass(frozen=True, slots=True)
class Setting:
    """The tool's policies, as the families need them."""

    clamps: bool
    insensitive: bool
    null_absent: bool
    closed: bool = True
    """``Policy.unlisted_properties == "refuse"``: objects that list properties refuse the others."""


@dataclass(frozen=True, slots=True)
class Param:
    """One top-level parameter: its schema behind ``$ref``/nullable wrappers, and a valid example value."""

    name: str
    schema: Mapping[str, Any]
    required: bool
    nullable: bool
    valid: Any
    default: Any = NO_VALUE
    resolve: Any = field(default=None, repr=False, compare=False)
    types: frozenset[str] | None = None
    """The JSON types the parameter's full schema accepts (``None``: any)."""
    item: bool = False
    """An array item (``lines[0]``): never left out, and ``null_optional`` does not apply to it."""


@dataclass(frozen=True, slots=True)
class Case:
    """One ugly value for a parameter and the verdict the contract predicts for it."""

    family: str
    value: Any
    expected: Verdict
    why: str
    variant: str = ""


_CONFUSIONS = frozenset({"numeric_as_string", "float_for_integer", "bool_for_number", "bool_as_string"})
_CONFUSIONS |= {"json_object_in_string", "json_array_in_string", "scalar_for_array"}


def param_cases(p: Param, setting: Setting) -> Iterator[Case]:
    """Every family that applies to parameter ``p``.

    A type-confusion family is left out when the parameter's full schema accepts the confused type anyway
    (an untyped schema, or an ``anyOf`` with a string branch): there is nothing to catch.
    """
    for case in _all_cases(p, setting):
        if case.family in _CONFUSIONS and _type_accepted(p.types, case.value):
            continue
        if p.valid is NO_VALUE and case.expected != "reject" and case.value is not OMIT and case.value is not None:
            continue  # no valid value exists, so no value can be promised to pass (contradictory schema)
        yield case


def _type_accepted(types: frozenset[str] | None, value: Any) -> bool:
    if types is None:
        return True
    if isinstance(value, bool):
        return "boolean" in types
    if isinstance(value, int):
        return "integer" in types or "number" in types
    if isinstance(value, float):
        return "number" in types or ("integer" in types and value.is_integer())
    if isinstance(value, str):
        return "string" in types
    if isinstance(value, list):
        return "array" in types
    return "object" in types if isinstance(value, dict) else False


def _all_cases(p: Param, setting: Setting) -> Iterator[Case]:
    yield from _presence(p, setting)
    kind = main_type(p.schema, branches=False)  # the families read this node's own keywords
    members = enum_members(p.schema)
    if members is not None:
        yield from _enum(p, setting, members)
    elif kind in ("integer", "number"):
        yield from _numbers(p, setting, kind == "integer")
    elif kind == "string":
        yield from _strings(p)
    elif kind == "boolean":
        yield Case("bool_as_string", "true", "reject", 'a boolean sent as the string "true"')
    elif kind == "object":
        yield from _objects(p, setting)
    elif kind == "array":
        yield from _arrays(p)


def _presence(p: Param, s: Setting) -> Iterator[Case]:
    if p.item:
        pass  # leaving an item out changes the list's length, not this field
    elif p.required:
        yield Case("omitted_required", OMIT, "reject", f"{p.name} is required and left out")
    else:
        noisy = p.default is not NO_VALUE and p.default is not None
        why = "left out: the default applies (reported)" if noisy else "left out: optional, no default"
        yield Case("omitted_optional", OMIT, "accept_with_notice" if noisy else "accept", why)
    if p.nullable:
        yield Case("explicit_null", None, "accept", "null, and the schema allows null")
    elif p.required:
        why = "null for a non-nullable item" if p.item else "null for a required, non-nullable parameter"
        yield Case("explicit_null", None, "reject", why)
    elif s.null_absent:
        yield Case("explicit_null", None, "accept_with_notice", "null for an optional parameter: read as absent")
    else:
        yield Case("explicit_null", None, "reject", "null for an optional parameter, and the policy rejects it")


# -- numbers --------------------------------------------------------------------------------------------
def _multiple_ok(schema: Mapping[str, Any], value: float) -> bool:
    step = schema.get("multipleOf")
    if not isinstance(step, int | float) or step <= 0:
        return True
    return is_multiple(value, step)


def _numbers(p: Param, s: Setting, integer: bool) -> Iterator[Case]:
    valid = p.valid
    if valid is not NO_VALUE:
        yield Case("numeric_as_string", str(valid), "reject", "a number sent as a quoted string")
        if integer:
            yield Case("float_for_integer", valid + 0.5, "reject", "a fraction where an integer is required")
            yield Case("integral_float", float(valid), "accept", "10.0 is an integer in JSON Schema 2020-12")
    yield Case("bool_for_number", True, "reject", "true is not 1")
    if p.schema.get("format") in ("int32", "int64"):
        return
    yield from _bounds(p, s, integer)


def _bounds(p: Param, s: Setting, integer: bool) -> Iterator[Case]:
    """Values at and just past each bound. Past a bound, a clamping tool moves the value to the bound (for an
    integer's exclusive bound, to the nearest integer inside) when that value is itself valid."""
    schema, step = p.schema, (1 if integer else 1.0)
    low, high, xlow, xhigh = (
        v if _number(v) else None
        for v in (schema.get(k) for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"))
    )

    def inside(v: float) -> bool:
        in_range = (low is None or v >= low) and (high is None or v <= high)
        return in_range and (xlow is None or v > xlow) and (xhigh is None or v < xhigh) and _multiple_ok(schema, v)

    floor = low if low is not None else (xlow + 1 if integer and xlow is not None else None)
    ceiling = high if high is not None else (xhigh - 1 if integer and xhigh is not None else None)
    sides = (("min", low, xlow, -1, floor), ("max", high, xhigh, 1, ceiling))
    for side, inclusive, exclusive, sign, target in sides:
        clamped = s.clamps and target is not None and inside(target)
        if inclusive is not None:
            if inside(inclusive):
                yield Case(f"at_{side}", inclusive, "accept", f"exactly the {side}imum {inclusive}")
            past = inclusive + sign * step
            yield _past(side, past, clamped, f"{'below' if sign < 0 else 'above'} the {side}imum {inclusive}")
        elif exclusive is not None:
            yield _past(side, exclusive, clamped, f"equal to the exclusive {side}imum {exclusive}", at=True)


def _number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _past(side: str, value: Any, clamped: bool, why: str, at: bool = False) -> Case:
    family = f"at_exclusive_{side}" if at else ("below_min" if side == "min" else "above_max")
    if clamped:
        return Case(family, value, "accept_with_notice", f"{why}: this tool clamps (read) and says so")
    return Case(family, value, "reject", f"{why}: rejected, this tool does not clamp")


# -- strings --------------------------------------------------------------------------------------------
def _strings(p: Param) -> Iterator[Case]:
    schema = p.schema
    fmt, pattern = schema.get("format"), schema.get("pattern")
    low, high = schema.get("minLength", 0), schema.get("maxLength")
    if fmt in ("date", "date-time"):
        yield from _dates(fmt)
    elif isinstance(fmt, str) and not check_format(fmt, "not a valid value"):
        yield Case("bad_format", f"not a valid {fmt}", "reject", f"free text where a {fmt} is required")
    if isinstance(pattern, str):
        bad = _violation(pattern, low, high)
        if bad is not NO_VALUE:
            yield Case("pattern_violation", bad, "reject", f"does not match {pattern}")
    plain = not isinstance(pattern, str) and not (isinstance(fmt, str) and check_format(fmt, "") is False)
    if plain and p.required and not low:
        yield Case("empty_required_string", "", "accept",
                   "an empty string: the schema allows it (add minLength: 1 if empty makes no sense)")  # fmt: skip
    elif plain and p.required:
        yield Case("empty_required_string", "", "reject", "an empty string for a required text")
    if plain:
        yield from _lengths(low, high)


def _dates(fmt: str) -> Iterator[Case]:
    for variant, text in FREE_TEXT_DATES.items():
        yield Case("date_free_text", text, "reject", f"free text {text!r} where a {fmt} is required", variant)
    if fmt == "date-time":
        yield Case("datetime_without_offset", "2026-08-07T14:02:00", "reject", "a date-time without a UTC offset")
    else:
        yield Case("datetime_for_date", "2026-08-07T14:02:00Z", "reject", "a date-time where a date is required")


def _violation(pattern: str, low: int, high: int | None) -> Any:
    try:
        regex = compile_pattern(pattern)
    except SchemaError:
        return NO_VALUE
    length = max(low, 1)
    for candidate in ("!" * length, " " * length, "~" * length, "0" * length, "a" * length, "Z" * length):
        if high is not None and len(candidate) > high:
            continue
        try:
            if not regex.search(candidate):
                return candidate
        except PatternLimitError:  # too slow to tell: try the next candidate
            continue
    return NO_VALUE


def _lengths(low: int, high: int | None) -> Iterator[Case]:
    if low:
        yield Case("at_min_length", "x" * low, "accept", f"exactly {low} characters")
        yield Case("below_min_length", "x" * (low - 1), "reject", f"{low - 1} characters, under minLength {low}")
    if high is not None:
        yield Case("at_max_length", "x" * high, "accept", f"exactly {high} characters")
        yield Case("above_max_length", "x" * (high + 1), "reject", f"{high + 1} characters, over maxLength {high}")
    verdict: Verdict = "accept" if high is None or high >= 10_000 else "reject"
    yield Case("overlong_string", "x" * 10_000, verdict, "10,000 characters" + ("" if high else ": no maxLength"))


# -- enums ----------------------------------------------------------------------------------------------
def enum_members(schema: Mapping[str, Any]) -> list[Any] | None:
    """The values a node lists: its ``enum`` or ``const``, or the ``const`` (or one-member ``enum``) of every
    ``oneOf``/``anyOf`` branch (a titled enumeration, as Discord writes its integer codes); ``None`` otherwise.
    The validator reads each listed member's declared string back (``"1"`` for ``1``), as for an ``enum``."""
    if isinstance(schema.get("enum"), list):
        return list(schema["enum"])
    if "const" in schema:
        return [schema["const"]]
    for key in ("oneOf", "anyOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and branches:
            found = []
            for branch in branches:
                if not isinstance(branch, Mapping):
                    return None
                if "const" in branch:
                    found.append(branch["const"])
                elif isinstance(branch.get("enum"), list) and len(branch["enum"]) == 1:
                    found.append(branch["enum"][0])
                else:
                    return None
            return found
    return None


def _enum(p: Param, s: Setting, members: list[Any]) -> Iterator[Case]:
    yield from _declared_string(p, members)
    strings = [m for m in members if isinstance(m, str)]
    folded = [m.casefold() for m in strings]
    for member in strings:
        for variant in (member.upper(), member.lower(), member.title(), member.swapcase()):
            if variant != member and variant not in members:
                unique = folded.count(member.casefold()) == 1
                verdict: Verdict = "accept_with_notice" if s.insensitive and unique else "reject"
                yield Case("enum_wrong_case", variant, verdict, f"{variant!r} for {member!r}")
                break
        else:
            continue
        break
    numbers = [m for m in members if _number(m)]
    unknown = max(numbers) + 1 if numbers and len(numbers) == len(members) else "not_a_listed_value"
    yield Case("enum_unknown", unknown, "reject", "a value the enum does not list")


def _declared_string(p: Param, members: list[Any]) -> Iterator[Case]:
    """A non-string member sent as the string the declaration shows for it (``"2"`` for ``2``): the Gemini
    subset carries enums only as strings, so this is what a model that follows the declaration sends."""
    texts = declared_texts(members)
    if not texts or p.valid is NO_VALUE:
        return
    valid_text = next((text for text, member in texts.items() if _same(member, p.valid)), None)
    text = valid_text if valid_text is not None else next(iter(texts))
    yield Case("enum_declared_string", text, "accept_with_notice",
               f"{text!r}, the declared string for {texts[text]!r}: read as the member (reported)")  # fmt: skip


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


# -- objects and arrays --------------------------------------------------------------------------------
def _objects(p: Param, s: Setting) -> Iterator[Case]:
    if p.valid is NO_VALUE:
        return
    yield Case("json_object_in_string", json.dumps(p.valid), "reject", "an object sent as JSON text")
    properties = p.schema.get("properties") or {}
    for name, sub in properties.items():
        inner, nullable = core(sub, p.resolve)
        kind = main_type(inner, p.resolve, sole=True)
        if kind in _WRONG and not nullable:
            nested = dict(p.valid) | {name: _WRONG[kind]}
            yield Case("wrong_type_nested", nested, "reject", f"{p.name}.{name} gets the wrong type")
            break
    if refuses_unlisted(p.schema, p.resolve, s.closed):
        yield Case("nested_extra_property", dict(p.valid) | {"unexpected_field": "x"}, "reject",
                   f"{p.name} gets a field its schema never declared")  # fmt: skip


def _arrays(p: Param) -> Iterator[Case]:
    schema = p.schema
    items, _ = core(schema.get("items", True), p.resolve)
    item = example(items, p.resolve) if not schema.get("prefixItems") else NO_VALUE
    low, high = schema.get("minItems", 0), schema.get("maxItems")
    kind = main_type(items, p.resolve, sole=True)
    if p.valid is not NO_VALUE:
        yield Case("json_array_in_string", json.dumps(p.valid), "reject", "an array sent as JSON text")
    if item is not NO_VALUE:
        yield Case("scalar_for_array", item, "reject", "one item where a list is required")
    if kind in _WRONG and (item is not NO_VALUE or low <= 1):
        filler = [item] * max(low - 1, 0)
        yield Case("array_item_wrong_type", [_WRONG[kind], *filler], "reject", "an item of the wrong type")
    if item is not NO_VALUE:
        unique = bool(schema.get("uniqueItems"))
        yield from _counts(item, low, high, unique, unique and _distinct(items))


def _distinct(items: Any) -> bool:
    """Whether numbered variants of the example item stay valid (plain strings or unbounded integers)."""
    if not isinstance(items, Mapping) or enum_members(items) is not None:
        return False
    if items.get("type") == "string":
        return not any(k in items for k in ("pattern", "format", "maxLength"))
    return items.get("type") == "integer" and not any(k in items for k in ("maximum", "multipleOf"))


def _item_list(item: Any, count: int, distinct: bool) -> list[Any]:
    if not distinct:
        return [item] * count
    if isinstance(item, str):
        return [f"{item}{i}" if i else item for i in range(count)]
    return [item + i for i in range(count)]


def _counts(item: Any, low: int, high: int | None, unique: bool, distinct: bool) -> Iterator[Case]:
    def ok(count: int) -> bool:
        return count <= 1 or not unique or distinct

    if low and ok(low):
        yield Case("at_min_items", _item_list(item, low, distinct), "accept", f"exactly {low} items")
        yield Case("below_min_items", _item_list(item, low - 1, distinct), "reject", f"{low - 1} items, under {low}")
    if high is not None and high <= 1000 and ok(high + 1):
        yield Case("at_max_items", _item_list(item, high, distinct), "accept", f"exactly {high} items")
        yield Case("above_max_items", _item_list(item, high + 1, distinct), "reject", f"{high + 1} items, over {high}")
    if unique and (high is None or high >= 2):
        yield Case("duplicate_items", [item, item], "reject", "the same item twice where items must be unique")
