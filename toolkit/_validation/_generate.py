"""A tool's fast path: its validator for the common call, generated as Python source and compiled once.

Most calls a model makes are valid, and most tool schemas are an object of flat parameters: bounded integers,
enums, dates, strings with a pattern, arrays of such, optional ones wrapped as ``anyOf [X, null]``. For such
a schema :func:`fast_path` writes one Python function (as ``fastjsonschema`` does), with every bound, set and
pattern bound to a name in its namespace, never written into the text (keys are written with ``repr``). The
function answers with the ``ok`` :class:`~toolkit.ToolResult` of a call that is valid **and** that the full
validator would pass through unchanged -- no clamping, no case folding, no ``10.0`` cleaned to ``10``, no
``null`` read as absent, no unknown key -- filling absent defaults with the same notices. A call that gives
every property is read in one ``try`` block, with no key counting and no defaults to fill. When a test fails,
the call goes on to a second generated function, ``invalid`` (:mod:`toolkit._validation._generate_invalid`),
which answers an invalid call with the full validator's envelope, built from the same compiled checks and
phrases. For anything else the answer is ``None`` and the full validator (:mod:`toolkit._validation._compile`)
runs from the start, so the two paths cannot disagree on a call the fast path declines.

Format tests remember the short strings they passed (:func:`~toolkit._validation._fastpath.remembered_source`): a
date a model sends again costs a set lookup.

The function also stands in for admission (:mod:`toolkit._validation._admit`) on the calls it takes: exact
JSON types only, string keys, finite floats, integers within 64 bits, and a size budget per parameter
(strings and arrays longer than their share of :data:`MAX_ARGUMENT_SIZE` go the full way), so a call it
accepts is one admission accepts.

A schema with anything else (nested objects, ``$ref`` cycles, combinators beyond the optional wrapper,
``multipleOf`` on non-integers, patterns that may backtrack, non-string enums, ``patternProperties``, ...)
gets no fast path (``None``): its calls all take the full validator.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Mapping
from typing import Any

from toolkit._canonical import json_copy
from toolkit._envelope import Notice, ToolResult
from toolkit._exceptions import SchemaError, ToolkitError
from toolkit._schema import Refs
from toolkit._validation._admit import MAX_ARGUMENT_SIZE
from toolkit._validation._checks import _step_parts
from toolkit._validation._combinators import NO_DEFAULT, core, default_of
from toolkit._validation._compile import VALIDATION_KEYWORDS, Options
from toolkit._validation._enforce import json_value
from toolkit._validation._expected import format_path
from toolkit._validation._fastpath import _matches, memory, remembered_source
from toolkit._validation._formats import FORMAT_CHECKS, INTEGER_FORMATS
from toolkit._validation._generate_invalid import invalid_lines, kinds
from toolkit._validation._pattern import Pattern, compile_pattern
from toolkit._validation._results import OK_NAMESPACE, ok_lines

__all__ = ["FastPath", "fast_path"]

FastPath = Callable[[dict[str, Any]], "ToolResult | None"]
"""The generated function: the ok result of a plain valid call, or ``None`` (the full validator decides)."""

_SMALL = 2**64
_FLOAT_MAX = 1.7976931348623157e308
_ROOT_KEYWORDS = frozenset({"type", "properties", "required", "additionalProperties", "unevaluatedProperties"})
_STRING = frozenset({"minLength", "maxLength", "pattern", "format", "enum", "const"})
_NUMBER = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format"})
_ARRAY = frozenset({"items", "minItems", "maxItems", "uniqueItems"})
_NODE_KEYWORDS = _STRING | _NUMBER | _ARRAY | {"type", "nullable"}
_KINDS = frozenset({"string", "integer", "number", "boolean", "null", "array"})
_MAX_REFS = 16
_EVERY_PRESENT = 8
"""The most properties for which a call giving them all is read apart (a tool call rarely gives more)."""
_FAIL = "return invalid(args)"
"""What a failed test does: on to the generated ``invalid`` (:mod:`toolkit._validation._generate_invalid`)."""


class _Decline(Exception):
    """The schema (or this part of it) has no fast path: :func:`fast_path` answers ``None``."""


def _keywords(node: Mapping[str, Any]) -> set[str]:
    """The keywords of ``node`` the validator reads (the rest are annotations)."""
    return {key for key in node if key in VALIDATION_KEYWORDS}


class _Writer:
    """Single-use: writes the source of one function, and the namespace its names refer to."""

    def __init__(self, root: Mapping[str, Any], options: Options) -> None:
        self.resolve = Refs(root)
        self.options = options
        self.names: dict[str, Any] = {**OK_NAMESPACE, "json_copy": json_copy}
        self.named: dict[int, str] = {}
        self.lines: list[str] = []
        self.items: list[str] = []
        self.later: tuple[Mapping[str, Any], Mapping[str, Any], list[str], int] = ({}, {}, [], 0)

    def literal(self, value: Any) -> str:
        """A number for the source: its ``repr`` (an int or finite float literal), else a name."""
        if (type(value) is int and -_SMALL <= value <= _SMALL) or (type(value) is float and math.isfinite(value)):
            return f"({value!r})"
        return self.name(value)

    def name(self, value: Any) -> str:
        """A name for ``value`` in the function's namespace (values never enter the source text)."""
        known = self.named.get(id(value))
        if known is not None and self.names[known] is value:
            return known
        name = self.named[id(value)] = f"c{len(self.names)}"
        self.names[name] = value
        return name

    def line(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    # -- nodes --------------------------------------------------------------------------------------
    def follow(self, schema: Any) -> Any:
        """``schema`` behind plain ``$ref`` s (nothing validated beside them)."""
        for _ in range(_MAX_REFS):
            if not isinstance(schema, Mapping) or _keywords(schema) != {"$ref"} or not isinstance(schema["$ref"], str):
                return schema
            schema = self.resolve(schema["$ref"])
        raise _Decline

    def optional(self, schema: Mapping[str, Any]) -> Any | None:
        """X of ``anyOf``/``oneOf`` ``[X, {type: null}]`` (either order), or ``None``."""
        keywords = _keywords(schema)
        if len(keywords) != 1 or not keywords <= {"anyOf", "oneOf"}:
            return None
        branches = schema[next(iter(keywords))]
        if not isinstance(branches, list) or len(branches) != 2:
            return None
        nulls = [b for b in branches if isinstance(b, Mapping) and _keywords(b) == {"type"} and b["type"] == "null"]
        if len(nulls) != 1:
            return None
        return branches[1] if branches[0] is nulls[0] else branches[0]

    def slot(self, schema: Any, var: str, budget: int, depth: int) -> tuple[bool, bool]:
        """Write the checks of one parameter's value in ``var`` (on to ``invalid`` when it fails).

        Returns whether the cleaned value is a copy (an array) and whether ``null`` is accepted.
        """
        schema = self.follow(schema)
        inner = self.optional(schema) if isinstance(schema, Mapping) else None
        if inner is not None:
            inner = self.follow(inner)
            if isinstance(inner, Mapping) and kinds(inner) == ["array"]:
                self.line(depth, f"if {var} is not None:")
                self.array(inner, var, budget, depth + 1)
                return True, True
            test, nullable = self.test(inner, var, budget)
            if nullable:
                raise _Decline  # null would match both branches: oneOf refuses it, anyOf picks the first
            self.line(depth, f"if {var} is not None and not ({test}):")
            self.line(depth + 1, _FAIL)
            return False, True
        if isinstance(schema, Mapping) and kinds(schema) == ["array"]:
            self.array(schema, var, budget, depth)
            return True, False
        test, nullable = self.test(schema, var, budget)
        self.line(depth, f"if not ({test}):")
        self.line(depth + 1, _FAIL)
        return False, nullable

    def test(self, schema: Any, var: str, budget: int) -> tuple[str, bool]:
        """An expression true when the scalar in ``var`` passes ``schema`` unchanged; and whether null does."""
        if schema is True or (isinstance(schema, Mapping) and not _keywords(schema)):
            return self.anything(var, budget), True
        if not isinstance(schema, Mapping) or not _keywords(schema) <= _NODE_KEYWORDS:
            raise _Decline
        members = self.members(schema)
        named = kinds(schema) or (["string"] if members is not None and "type" not in schema else [])
        if not named or not set(named) <= _KINDS - {"array"} or {"integer", "number"} <= set(named):
            raise _Decline
        if named == ["string"] and members is not None:  # the string keywords, read once on each member
            members = frozenset(m for m in members if self.passes(schema, m, budget))
            return f"type({var}) is str and {var} in {self.name(members)}", False
        tests = [self.kind(kind, schema, var, budget) for kind in named]
        test = tests[0] if len(tests) == 1 else " or ".join(f"({t})" for t in tests)
        if members is not None:
            test = f"({test}) and type({var}) is str and {var} in {self.name(members)}"
        return test, "null" in named and members is None

    def passes(self, schema: Mapping[str, Any], member: str, budget: int) -> bool:
        """Whether the string ``member`` meets the string keywords of ``schema`` (read when writing the source)."""
        low, high = schema.get("minLength", 0), schema.get("maxLength")
        if not low <= len(member) <= (budget - 2 if high is None else min(high, budget - 2)):
            return False
        fmt = schema.get("format")
        if isinstance(fmt, str) and fmt in FORMAT_CHECKS and not FORMAT_CHECKS[fmt](member):
            return False
        return not isinstance(schema.get("pattern"), str) or _matches(self.pattern(schema["pattern"]))(member)

    def members(self, schema: Mapping[str, Any]) -> frozenset[str] | None:
        if "enum" not in schema and "const" not in schema:
            return None
        values = list(schema["enum"]) if isinstance(schema.get("enum"), list) else []
        values += [schema["const"]] if "const" in schema else []
        if not values or not all(isinstance(v, str) for v in values):
            raise _Decline  # non-string members are read back from the declaration's strings: the full way
        if "enum" in schema and "const" in schema:
            return frozenset([schema["const"]]) if schema["const"] in schema["enum"] else frozenset()
        return frozenset(values)

    def anything(self, var: str, budget: int) -> str:
        """Any JSON scalar admission takes (containers go the full way)."""
        return (
            f"(type({var}) is str and len({var}) <= {budget - 2}) or type({var}) is bool or {var} is None or "
            f"(type({var}) is int and -{_SMALL} < {var} < {_SMALL}) or "
            f"(type({var}) is float and -{self.literal(_FLOAT_MAX)} <= {var} <= {self.literal(_FLOAT_MAX)})"
        )

    def kind(self, kind: str, schema: Mapping[str, Any], var: str, budget: int) -> str:
        if kind == "string":
            return self.string(schema, var, budget)
        if kind in ("integer", "number"):
            return self.number(schema, var, kind == "integer")
        return f"type({var}) is bool" if kind == "boolean" else f"{var} is None"

    def string(self, schema: Mapping[str, Any], var: str, budget: int) -> str:
        low, high = schema.get("minLength", 0), schema.get("maxLength")
        top = budget - 2 if high is None else min(high, budget - 2)
        bounds = (
            f"len({var}) <= {self.literal(top)}"
            if not low
            else f"{self.literal(low)} <= len({var}) <= {self.literal(top)}"
        )
        parts = [f"type({var}) is str", bounds]
        fmt = schema.get("format")
        if isinstance(fmt, str) and fmt in FORMAT_CHECKS:
            test = FORMAT_CHECKS[fmt]
            parts.append(remembered_source(self.name(test), self.name(memory(test)), var))
        if isinstance(schema.get("pattern"), str):
            parts.append(f"{self.name(_matches(self.pattern(schema['pattern'])))}({var})")
        return " and ".join(parts)

    def pattern(self, source: str) -> Pattern:
        try:
            pattern = compile_pattern(source)
        except SchemaError:
            raise _Decline from None
        if not pattern.linear:  # it may backtrack: the full way keeps the run's time budget
            raise _Decline
        return pattern

    def number(self, schema: Mapping[str, Any], var: str, integer: bool) -> str:
        limit = _SMALL - 1 if integer else _FLOAT_MAX
        low, high = max(schema.get("minimum", -limit), -limit), min(schema.get("maximum", limit), limit)
        fmt = schema.get("format")
        if fmt in INTEGER_FORMATS:
            if not integer:
                raise _Decline
            low, high = max(low, INTEGER_FORMATS[fmt][0]), min(high, INTEGER_FORMATS[fmt][1])
        kind = f"type({var}) is int" if integer else f"(type({var}) is int or type({var}) is float)"
        parts = [kind, f"{self.literal(low)} <= {var} <= {self.literal(high)}"]
        if "exclusiveMinimum" in schema:
            parts.append(f"{self.literal(schema['exclusiveMinimum'])} < {var}")
        if "exclusiveMaximum" in schema:
            parts.append(f"{var} < {self.literal(schema['exclusiveMaximum'])}")
        if "multipleOf" in schema:
            step, denominator = _step_parts(schema["multipleOf"])
            if not integer or denominator != 1:
                raise _Decline
            parts.append(f"{var} % {self.literal(step)} == 0")
        return " and ".join(parts)

    def array_parts(self, schema: Mapping[str, Any], var: str, budget: int) -> tuple[str, str, bool]:
        """The tests of an array in ``var``: its type and count, each item's (in ``y``), and whether items must
        be unique."""
        if not _keywords(schema) <= _ARRAY | {"type", "nullable"} or schema.get("nullable") is True:
            raise _Decline
        count = min(schema.get("maxItems", 1024), budget // 64)
        share = (budget - 2) // max(count, 1) - 5  # each item's part of the budget
        items = self.follow(schema.get("items", True))
        item, _ = self.test(items, "y", share)
        unique = schema.get("uniqueItems") is True
        if unique and (not isinstance(items, Mapping) or kinds(items) not in (["string"], ["integer"])):
            raise _Decline  # set() would read true as 1; JSON equality does not
        low = schema.get("minItems", 0)
        least = f"{self.literal(low)} <= " if low else ""
        return f"type({var}) is list and {least}len({var}) <= {self.literal(count)}", item, unique

    def array(self, schema: Mapping[str, Any], var: str, budget: int, depth: int) -> None:
        whole, item, unique = self.array_parts(schema, var, budget)
        self.line(depth, f"if not ({whole}):")
        self.line(depth + 1, _FAIL)
        self.line(depth, f"for y in {var}:")
        self.line(depth + 1, f"if not ({item}):")
        self.line(depth + 2, _FAIL)
        if unique:
            self.line(depth, f"if len(set({var})) != len({var}):")
            self.line(depth + 1, _FAIL)

    def slot_test(self, schema: Any, var: str, budget: int) -> str:
        """The checks :meth:`slot` writes, as one expression (for ``invalid``, where speed matters less)."""
        schema = self.follow(schema)
        inner = self.optional(schema) if isinstance(schema, Mapping) else None
        node = self.follow(inner) if inner is not None else schema
        if isinstance(node, Mapping) and kinds(node) == ["array"]:
            whole, item, unique = self.array_parts(node, var, budget)
            test = f"{whole} and all(map({self.item_test(item)}, {var}))"
            test += f" and len(set({var})) == len({var})" if unique else ""
        else:
            test = self.test(node, var, budget)[0]
        return f"{var} is None or ({test})" if inner is not None else test

    def item_test(self, test: str) -> str:
        """A function of ``y`` returning ``test``, for ``map`` (no generator to set up per call); its name."""
        name = f"item{len(self.items)}"
        self.items += [f"def {name}(y):", f"    return {test}"]
        return name

    # -- the root -----------------------------------------------------------------------------------
    def root(self, schema: Mapping[str, Any]) -> str:
        """The source of ``fast_path`` (see the module docstring)."""
        if not _keywords(schema) <= _ROOT_KEYWORDS or schema.get("type", "object") != "object":
            raise _Decline
        properties = dict(schema.get("properties") or {})
        required = [name for name in schema.get("required") or () if isinstance(name, str)]
        if self.options.closed and "additionalProperties" not in schema and "unevaluatedProperties" not in schema:
            for name in required:
                properties.setdefault(name, True)
        if not properties or not set(required) <= set(properties):
            raise _Decline
        read_only = {name for name, sub in properties.items() if _read_only(sub, self.resolve)}
        required = list(dict.fromkeys(name for name in required if name not in read_only))
        keys = sum(len(name) + 3 for name in properties)
        budget = (MAX_ARGUMENT_SIZE - 4096 - keys) // len(properties)
        if budget < 4096:
            raise _Decline
        every = [name for name in schema.get("required") or () if isinstance(name, str) and name not in read_only]
        self.later = (schema, properties, every, budget)
        self.line(0, "def fast_path(args):")
        self.line(1, "for key in args:")  # first: only then may the keys meet == (a str subclass may redefine it)
        self.line(2, "if type(key) is not str:")
        self.line(3, "return None")
        names = {name: f"v{i}" for i, name in enumerate(properties)}
        if 1 < len(properties) <= _EVERY_PRESENT:
            self.every_present(properties, names, budget)
        if required:
            self.line(1, "try:")
            for name in required:
                self.line(2, f"{names[name]} = args[{name!r}]")
            self.line(1, "except KeyError:")
            self.line(2, _FAIL)
        copies: list[tuple[str, str, bool]] = []
        for name in required:
            copy, nullable = self.slot(properties[name], names[name], budget, 1)
            if copy:
                copies.append((name, names[name], nullable))
        self.line(1, f"n = {len(required)}")
        for name, sub in properties.items():
            if name not in required:
                self.line(1, f"if {name!r} in args:")
                self.line(2, f"{names[name]} = args[{name!r}]")
                copy, _ = self.slot(sub, names[name], budget, 2)
                self.line(2, "n += 1")
                if copy:
                    copies.append((name, names[name], True))
        self.line(1, "if n != len(args):")
        self.line(2, _FAIL)
        self.line(1, "out = args.copy()")
        for name, var, guarded in copies:
            if guarded:
                self.line(1, f"if {name!r} in args and {var} is not None:")
            self.line(2 if guarded else 1, f"out[{name!r}] = {var}[:]")
        self.defaults(properties, set(required))
        return "\n".join(self.lines) + "\n"

    def invalid(self) -> str:
        """The source of ``invalid`` (after :meth:`root`), its names added to :attr:`names`."""
        schema, properties, required, budget = self.later
        tests = {name: self.slot_test(sub, "v", budget) for name, sub in properties.items()}
        lines = invalid_lines(schema, properties, required, tests, self.options, self.name)
        return "\n".join([*self.items, *lines]) + "\n"

    def every_present(self, properties: Mapping[str, Any], names: Mapping[str, str], budget: int) -> None:
        """The call that gives every property (a model often fills them all): no counting, no defaults."""
        self.line(1, f"if len(args) == {len(properties)}:")
        self.line(2, "try:")
        for name in properties:
            self.line(3, f"{names[name]} = args[{name!r}]")
        self.line(2, "except KeyError:")  # a key no property declares
        self.line(3, _FAIL)
        copies = [(name, self.slot(sub, names[name], budget, 2)) for name, sub in properties.items()]
        self.line(2, "out = args.copy()")
        for name, (copy, nullable) in copies:
            if copy and nullable:
                self.line(2, f"if {names[name]} is not None:")
            if copy:
                self.line(3 if nullable else 2, f"out[{name!r}] = {names[name]}[:]")
        self.ok(2, "()")

    def defaults(self, properties: Mapping[str, Any], required: set[str]) -> None:
        """Absent optional properties with a default: filled in, in schema order, each with its notice."""
        found = {name: default_of(sub, self.resolve) for name, sub in properties.items() if name not in required}
        found = {name: value for name, value in found.items() if value is not NO_DEFAULT and json_value(value)}
        if not found:
            self.ok(1, "()")
            return
        self.line(1, f"if {' or '.join(f'{name!r} not in args' for name in found)}:")
        self.line(2, "notices = []")
        for name, value in found.items():
            self.line(2, f"if {name!r} not in args:")
            made = f"json_copy({self.name(value)})" if isinstance(value, dict | list) else self.name(value)
            self.line(3, f"out[{name!r}] = {made}")
            if value is not None:  # a null default is applied silently, as the full validator does
                notice = Notice(format_path((None, name)), "defaulted", "absent; default used", to=value)
                self.line(3, f"notices.append({self.name(notice)})")
        self.ok(2, "tuple(notices)")
        self.ok(1, "()")

    def ok(self, depth: int, notices: str) -> None:
        for line in ok_lines("out", notices):
            self.line(depth, line)


def _read_only(schema: Any, resolve: Refs) -> bool:
    inner = core(schema, resolve)[0] if isinstance(schema, Mapping) and "$ref" in schema else schema
    return isinstance(inner, Mapping) and inner.get("readOnly") is True


def fast_path(schema: Mapping[str, Any], options: Options) -> FastPath | None:
    """The generated fast path for a tool's ``args_schema`` under its policies, or ``None`` when it has none.

    Call it only with a schema :func:`~toolkit._validation._compile.compile_schema` accepted.
    """
    writer = _Writer(schema, options)
    try:
        source = writer.root(schema)
    except (_Decline, ToolkitError):  # ToolkitError: a reference the full validator reports in its own words
        return None
    namespace = dict(writer.names)

    lock = threading.Lock()

    def invalid_later(args: dict[str, Any]) -> ToolResult | None:
        """``invalid``, written and compiled when a call first needs it (many tools only see valid calls)."""
        with lock:  # one writer: a second caller finds the real one bound
            if namespace["invalid"] is invalid_later:
                text = writer.invalid()
                namespace.update(writer.names)
                exec(compile(text, "<toolkit invalid path>", "exec"), namespace)  # binds the real one in its place
                function.__doc__ = text + source
        answer: ToolResult | None = namespace["invalid"](args)
        return answer

    namespace["invalid"] = invalid_later
    exec(compile(source, "<toolkit fast path>", "exec"), namespace)  # no schema text is in the source
    function: FastPath = namespace["fast_path"]
    function.__doc__ = source  # the source, for whoever wonders what runs (invalid's too, once written)
    return function
