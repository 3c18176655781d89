"""Valid example values for a JSON Schema, so every ugly fixture can start from a call that should pass.

:func:`example` returns a value the schema accepts, or :data:`NO_VALUE` when it cannot make one (the
fixtures that need it are then skipped, and the report says so). Strings that must match a ``pattern`` come
from a small generator that walks the parsed regular expression (literals, classes, repeats, groups,
alternation) and then checks its result with the real pattern; formats use a known-good example each.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from decimal import Decimal, InvalidOperation
from re import _constants as sre_constants  # type: ignore[attr-defined]  # the stdlib's own regex parser
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Annotated, Any

from toolkit._contract import DECIMAL_ARGUMENTS
from toolkit._exceptions import SchemaError
from toolkit._schema import Resolve, main_type
from toolkit._validation._combinators import NO_DEFAULT, core, default_of
from toolkit._validation._formats import FORMAT_EXAMPLES, check_format
from toolkit._validation._pattern import Pattern, PatternLimitError, compile_pattern

__all__ = ["EXAMPLE", "NO_VALUE", "core", "decimal_example", "example", "pattern_example"]


NO_VALUE: Any = type("NoValue", (), {"__repr__": lambda self: "NO_VALUE", "__bool__": lambda self: False})()

_CATEGORY_CHAR = {"CATEGORY_DIGIT": "0", "CATEGORY_WORD": "a", "CATEGORY_SPACE": " "}
_CATEGORY_CHAR |= {"CATEGORY_NOT_DIGIT": "a", "CATEGORY_NOT_WORD": "-", "CATEGORY_NOT_SPACE": "a"}


EXAMPLE = "x-toolkit-example"
"""A value a node of the fixtures' view of ``args_schema`` is given, which :func:`example` returns for it: one that
meets what the tool's conversion checks beyond the schema (:func:`decimal_example`)."""


def example(schema: Any, resolve: Resolve, depth: int = 0) -> Any:
    """A value ``schema`` accepts, or :data:`NO_VALUE`."""
    if schema is True or schema == {}:
        return "example"
    if not isinstance(schema, Mapping) or depth > 8:
        return NO_VALUE
    if EXAMPLE in schema:
        return schema[EXAMPLE]
    schema, _ = core(schema, resolve)
    if not isinstance(schema, Mapping):
        return example(schema, resolve, depth + 1)
    if EXAMPLE in schema:
        return schema[EXAMPLE]
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list):
        fmt = schema.get("format")
        members = [v for v in schema["enum"] if v is not None]
        members = [v for v in members if not (isinstance(v, str) and isinstance(fmt, str) and not check_format(fmt, v))]
        return members[0] if members else NO_VALUE
    for key in ("anyOf", "oneOf"):
        for branch in schema.get(key) or []:
            found = example({**{k: v for k, v in schema.items() if k != key}, **_as_map(branch)}, resolve, depth + 1)
            if found is not NO_VALUE:
                return found
        if key in schema:
            return NO_VALUE
    if schema.get("allOf"):
        merged = _merge_all(schema, resolve)
        return example(merged, resolve, depth + 1)
    return _typed_example(schema, main_type(schema, default="string") or "string", resolve, depth)


def _as_map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _merge_all(schema: Mapping[str, Any], resolve: Resolve) -> dict[str, Any]:
    merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
    for sub in schema["allOf"]:
        sub, _ = core(sub, resolve)
        for key, value in _as_map(sub).items():
            if key in ("properties",) and isinstance(value, Mapping):
                merged[key] = _merge_properties(merged.get(key, {}), value)
            elif key == "required" and isinstance(value, list):
                merged[key] = [*merged.get(key, []), *value]
            else:
                merged.setdefault(key, value)
    return merged


def _merge_properties(first: Mapping[str, Any], second: Mapping[str, Any]) -> dict[str, Any]:
    """The properties of two ``allOf`` members: a name both declare must meet both schemas (``allOf`` of them)."""
    out = dict(first)
    for name, sub in second.items():
        out[name] = {"allOf": [out[name], sub]} if name in out and out[name] != sub else sub
    return out


def _typed_example(schema: Mapping[str, Any], kind: str, resolve: Resolve, depth: int) -> Any:
    if kind in ("integer", "number"):
        return number_example(schema, kind == "integer")
    if kind == "string":
        return string_example(schema)
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    if kind == "array":
        return _array_example(schema, resolve, depth)
    if kind == "object":
        return _object_example(schema, resolve, depth)
    return NO_VALUE


def number_example(schema: Mapping[str, Any], integer: bool) -> Any:
    low, high = schema.get("minimum"), schema.get("maximum")
    if isinstance(schema.get("exclusiveMinimum"), int | float):
        low = max(low if low is not None else -math.inf, schema["exclusiveMinimum"] + (1 if integer else 0.5))
    if isinstance(schema.get("exclusiveMaximum"), int | float):
        high = min(high if high is not None else math.inf, schema["exclusiveMaximum"] - (1 if integer else 0.5))
    if low is not None and high is not None and low > high:
        return NO_VALUE
    value: float = 10 if integer else 10.5
    if low is not None and value < low:
        value = low
    if high is not None and value > high:
        value = high
    step = schema.get("multipleOf")
    if isinstance(step, int | float) and step > 0:
        value = math.ceil(value / step) * step
        if high is not None and value > high:
            return NO_VALUE
    if integer:
        return math.ceil(value) if (high is None or math.ceil(value) <= high) else NO_VALUE
    return value


def string_example(schema: Mapping[str, Any]) -> Any:
    low, high = schema.get("minLength", 0), schema.get("maxLength")
    fmt, pattern = schema.get("format"), schema.get("pattern")
    if isinstance(pattern, str):
        return pattern_example(pattern, low, high, fmt if isinstance(fmt, str) else None)
    if isinstance(fmt, str) and fmt in FORMAT_EXAMPLES:
        value = FORMAT_EXAMPLES[fmt]
        return value if low <= len(value) <= (high if high is not None else math.inf) else NO_VALUE
    value = "example"
    if len(value) < low:
        value += "x" * (low - len(value))
    if high is not None:
        value = value[:high]
    return value if len(value) >= low else NO_VALUE


def decimal_example(bounds: Mapping[str, Any]) -> Any:
    """A plain decimal string that a Python ``Decimal`` with ``bounds`` accepts on conversion, or
    :data:`NO_VALUE`. ``bounds`` are the keywords of the tool's losses (``minimum``, ``decimalPlaces``, ...,
    see :data:`toolkit._contract.DECIMAL_BOUNDS`); the candidates (0, 1, each bound and its neighbours one step
    apart, on the grid of ``multipleOf`` or of the decimal places) are judged by pydantic, which converts the
    argument, not by a second statement of its rules."""
    from pydantic import Field, TypeAdapter, ValidationError  # pydantic loads only for a tool that converts

    try:
        field = {DECIMAL_ARGUMENTS[k]: (v if isinstance(v, int) else Decimal(str(v))) for k, v in bounds.items()}
        judge = TypeAdapter(Annotated[Decimal, Field(**field)])
    except (KeyError, InvalidOperation, TypeError, ValueError):
        return NO_VALUE
    places = field.get("decimal_places")
    step = Decimal(field.get("multiple_of") or (Decimal(1).scaleb(-places) if isinstance(places, int) else 1))
    if step <= 0:
        return NO_VALUE
    anchors = [Decimal(0), Decimal(1)]
    anchors += [Decimal(v) for k, v in field.items() if k in ("gt", "ge", "lt", "le")]
    for anchor in anchors:
        on_grid = (anchor / step).to_integral_value() * step
        for candidate in (anchor, on_grid, on_grid + step, on_grid - step, on_grid + 2 * step, on_grid - 2 * step):
            try:
                judge.validate_python(candidate)
            except ValidationError:
                continue
            return format(candidate.normalize() if candidate else Decimal(0), "f")
    return NO_VALUE


def pattern_example(pattern: str, low: int = 0, high: int | None = None, fmt: str | None = None) -> Any:
    """A string matching ``pattern`` with a length in ``[low, high]``, or :data:`NO_VALUE`."""
    return next(pattern_strings(pattern, low, high, fmt), NO_VALUE)


def pattern_strings(
    pattern: str, low: int = 0, high: int | None = None, fmt: str | None = None, choice: int = 0
) -> Iterator[str]:
    """Strings matching ``pattern`` with a length in ``[low, high]`` (each ``*``/``+`` repeated more for each
    next one); ``choice`` picks another alternative of each ``|``."""
    try:
        compiled = compile_pattern(pattern)
        parsed = sre_parse.parse(pattern)
    except (SchemaError, re.error, TypeError, OverflowError, RecursionError):
        return
    seeds = [FORMAT_EXAMPLES[fmt]] if fmt in FORMAT_EXAMPLES and not choice else []
    for repeat in (1, 2, 3, 5, 8, 13, 21, 40):
        try:
            seeds.append(_emit(parsed, repeat, choice))
        except _CannotEmit:
            return
    for value in dict.fromkeys(seeds):
        fits = low <= len(value) <= (high if high is not None else math.inf)
        if fits and _matches(compiled, value) and (fmt is None or check_format(fmt, value)):
            yield value


def _matches(pattern: Pattern, value: str) -> bool:
    try:
        return pattern.search(value)
    except PatternLimitError:  # too slow to tell: not an example to offer
        return False


class _CannotEmit(Exception):
    pass


def _emit(parsed: Any, repeat: int, choice: int = 0) -> str:
    out: list[str] = []
    for op, arg in parsed:
        name = str(op)
        if name == "LITERAL":
            out.append(chr(arg))
        elif name == "NOT_LITERAL":
            out.append("a" if chr(arg) != "a" else "b")
        elif name == "ANY":
            out.append("a")
        elif name == "IN":
            out.append(_class_char(arg))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, sub = arg
            count = max(low, min(repeat, high if high != sre_constants.MAXREPEAT else repeat))
            out.append("".join(_emit(sub, repeat, choice) for _ in range(count)))
        elif name == "SUBPATTERN":
            out.append(_emit(arg[-1], repeat, choice))
        elif name == "ATOMIC_GROUP":
            out.append(_emit(arg, repeat, choice))
        elif name == "BRANCH":
            out.append(_emit(arg[1][choice % len(arg[1])], repeat, choice))
        elif name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue
        else:
            raise _CannotEmit(name)
    return "".join(out)


def _class_char(items: Any) -> str:
    negate = any(str(op) == "NEGATE" for op, _ in items)
    if negate:
        excluded = _class_members(items)
        return next((c for c in "aA0_-x" if c not in excluded), "~")
    for op, arg in items:
        name = str(op)
        if name == "LITERAL":
            return chr(arg)
        if name == "RANGE":
            return chr(arg[0])
        if name == "CATEGORY":
            return _CATEGORY_CHAR.get(str(arg), "a")
    raise _CannotEmit("IN")


def _class_members(items: Any) -> set[str]:
    members: set[str] = set()
    for op, arg in items:
        name = str(op)
        if name == "LITERAL":
            members.add(chr(arg))
        elif name == "RANGE":
            members.update(chr(c) for c in range(arg[0], min(arg[1], arg[0] + 256) + 1))
    return members


def _array_example(schema: Mapping[str, Any], resolve: Resolve, depth: int) -> Any:
    count = max(schema.get("minItems", 0), 1)
    if schema.get("maxItems") is not None:
        count = min(count, schema["maxItems"])
    if count < schema.get("minItems", 0):
        return NO_VALUE
    if count == 0:
        return []
    prefix = schema.get("prefixItems") or []
    unique = bool(schema.get("uniqueItems")) and count > 1
    items: list[Any] = []
    for i in range(count):
        sub = prefix[i] if i < len(prefix) else schema.get("items", True)
        value = _fresh(sub, resolve, depth + 1, items) if unique else example(sub, resolve, depth + 1)
        if value is NO_VALUE:
            return NO_VALUE
        items.append(value)
    return items


_VARIANTS = 8
"""How many other values of one schema :func:`_fresh` tries before it gives up."""


def _fresh(schema: Any, resolve: Resolve, depth: int, taken: list[Any]) -> Any:
    """A value ``schema`` accepts that is none of ``taken`` (the items of a ``uniqueItems`` array so far)."""
    seen = {repr(v) for v in taken}
    for value in _variants(schema, resolve, depth):
        if value is not NO_VALUE and repr(value) not in seen:
            return value
    return NO_VALUE


def _variants(schema: Any, resolve: Resolve, depth: int) -> Iterator[Any]:
    """The example, then other values of the same plain schema: the next enum members, numbers a step
    apart, strings from the pattern's other alternatives or with another last letter."""
    yield example(schema, resolve, depth)
    node, _ = core(schema, resolve) if isinstance(schema, Mapping) else (schema, False)
    if not isinstance(node, Mapping) or any(k in node for k in ("anyOf", "oneOf", "allOf", "const")):
        return
    if isinstance(node.get("enum"), list):
        yield from (v for v in node["enum"] if v is not None)
        return
    kind = main_type(node, default="string")
    if kind in ("integer", "number"):
        yield from _other_numbers(node, number_example(node, kind == "integer"))
    elif kind == "string" and isinstance(node.get("pattern"), str):
        low, high, fmt = node.get("minLength", 0), node.get("maxLength"), node.get("format")
        fmt = fmt if isinstance(fmt, str) else None
        for choice in range(_VARIANTS):
            yield from pattern_strings(node["pattern"], low, high, fmt, choice)
    elif kind == "string" and node.get("format") not in FORMAT_EXAMPLES:
        first = string_example(node)
        if isinstance(first, str) and first:
            yield from (first[:-1] + letter for letter in "bcdfghj")


def _other_numbers(node: Mapping[str, Any], first: Any) -> Iterator[Any]:
    """Numbers a step (``multipleOf``, else 1) above and below ``first``, within the bounds."""
    if first is NO_VALUE:
        return
    given = node.get("multipleOf")
    step: float = given if isinstance(given, int | float) and given > 0 else 1
    for k in range(1, _VARIANTS):
        for value in (first + k * step, first - k * step):
            if _within(node, value):
                yield value


def _within(node: Mapping[str, Any], value: float) -> bool:
    low, high = node.get("minimum", -math.inf), node.get("maximum", math.inf)
    above, below = node.get("exclusiveMinimum", -math.inf), node.get("exclusiveMaximum", math.inf)
    return bool(low <= value <= high and above < value < below)


def _object_example(schema: Mapping[str, Any], resolve: Resolve, depth: int) -> Any:
    properties = _as_map(schema.get("properties"))
    out: dict[str, Any] = {}
    for name in schema.get("required") or []:
        value = example(properties.get(name, True), resolve, depth + 1)
        if value is NO_VALUE:
            return NO_VALUE
        out[name] = value
    for name, sub in properties.items():  # a default would be applied (with a notice): send a value instead
        default = default_of(sub, resolve)
        if name not in out and default is not NO_DEFAULT and default is not None:
            value = example(sub, resolve, depth + 1)
            if value is NO_VALUE:  # its default would be applied with a notice: no quiet valid object exists
                return NO_VALUE
            out[name] = value
    return _enough_properties(schema, out, resolve, depth)


def _enough_properties(schema: Mapping[str, Any], out: dict[str, Any], resolve: Resolve, depth: int) -> Any:
    """``out`` grown to ``minProperties``: the other listed properties first, then keys of its own where the
    schema takes unlisted ones (``additionalProperties`` stated and not false, or no property listed); an
    object over ``maxProperties`` is none."""
    low, high = schema.get("minProperties", 0), schema.get("maxProperties")
    properties = _as_map(schema.get("properties"))
    for name, sub in properties.items():
        if len(out) >= low:
            break
        value = example(sub, resolve, depth + 1) if name not in out else NO_VALUE
        if value is not NO_VALUE:
            out[name] = value
    extra = schema.get("additionalProperties", True if not properties else None)
    free = extra not in (None, False) and schema.get("unevaluatedProperties") is not False
    free = free and "propertyNames" not in schema
    while len(out) < low and free and "patternProperties" not in schema:
        value = example(extra, resolve, depth + 1)
        if value is NO_VALUE:
            return NO_VALUE
        out[f"key_{len(out) + 1}"] = value
    return out if len(out) >= low and (high is None or len(out) <= high) else NO_VALUE
