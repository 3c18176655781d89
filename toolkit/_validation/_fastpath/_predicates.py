"""The fast tier's one definition: which nodes it answers, and the test of a value under such a node.

A *plain test* is a Python expression over a variable, true exactly when the value is valid under the node
**and** the interpreter would pass it through unchanged and silent: no clamping, no case folding, no ``10.0``
cleaned to ``10``, no ``null`` read as absent. :class:`Predicates` writes it, for every node of the subset
below (and declines, with :class:`Decline`, any other):

* a scalar node: any of :data:`~toolkit._validation._compile.SCALAR_KEYWORDS` (its types among
  :data:`SCALAR_TYPES`, not integer and number together; ``enum``/``const`` of strings only; patterns that
  cannot backtrack; ``multipleOf`` on integers by an integer), behind plain ``$ref`` s;
* an array of such nodes (:data:`ARRAY_NODE_KEYWORDS`; ``uniqueItems`` over strings or integers only);
* either one as ``anyOf``/``oneOf`` ``[X, {type: null}]``; ``true`` and ``{}`` (any scalar).

The test also stands in for admission where the generated function takes a call whole
(:mod:`toolkit._validation._fastpath._root`): JSON scalars of exact types, integers within 64 bits, finite
floats, strings and arrays within a share of the payload's size (``budget``).

Two users compile the same text: the generated root function writes it inline, and
:func:`property_predicate` makes it a function, the shortcut every object check of the interpreter tries on
a property's value before the property's compiled check (see :data:`~toolkit._validation._compile.Shortcut`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from toolkit._exceptions import SchemaError, ToolkitError
from toolkit._schema import Refs, named_types
from toolkit._validation._admit import MAX_ARGUMENT_SIZE
from toolkit._validation._checks import _step_parts
from toolkit._validation._compile import ARRAY_KEYWORDS, SCALAR_KEYWORDS, VALIDATION_KEYWORDS
from toolkit._validation._formats import FORMAT_CHECKS, INTEGER_FORMATS
from toolkit._validation._pattern import Pattern, PatternLimitError, compile_pattern

__all__ = [
    "ARRAY_NODE_KEYWORDS",
    "SCALAR_TYPES",
    "Decline",
    "Predicate",
    "Predicates",
    "fast_array_predicate",
    "fast_predicate",
    "kinds",
    "memory",
    "optional",
    "property_predicate",
    "remembered_source",
    "validated",
]

Predicate = Callable[[Any], bool]
SCALAR_TYPES = frozenset({"string", "integer", "number", "boolean", "null"})
ARRAY_NODE_KEYWORDS = (ARRAY_KEYWORDS - {"prefixItems", "contains"}) | {"type", "nullable"}
"""An array node the fast tier reads: every array keyword but those with subschemas of their own beside ``items``."""
SMALL = 2**64
"""Integers the tests take lie strictly between ``-SMALL`` and ``SMALL`` (admission reads longer ones closely)."""
FLOAT_MAX = 1.7976931348623157e308
_MAX_REFS = 16


class Decline(Exception):
    """The node (or this part of it) is outside the fast tier's subset."""


def validated(node: Mapping[str, Any]) -> set[str]:
    """The keywords of ``node`` the validator reads (the rest are annotations)."""
    return {key for key in node if key in VALIDATION_KEYWORDS}


def kinds(node: Mapping[str, Any]) -> list[str]:
    """The node's ``type`` plus ``nullable`` as the interpreter reads it (:func:`named_types`); [] when untyped."""
    return named_types(node) or []


def matches(pattern: Pattern) -> Predicate:
    """The pattern's search; False when it runs out of time, so that the interpreter reports it."""
    search = pattern.search

    def found(value: str) -> bool:
        try:
            return search(value)
        except PatternLimitError:
            return False

    return found


def optional(schema: Mapping[str, Any]) -> Any | None:
    """X of ``anyOf``/``oneOf`` ``[X, {type: null}]`` (either order, nothing else validated beside it), or ``None``."""
    keywords = validated(schema)
    if len(keywords) != 1 or not keywords <= {"anyOf", "oneOf"}:
        return None
    branches = schema[next(iter(keywords))]
    if not isinstance(branches, list) or len(branches) != 2:
        return None
    nulls = [b for b in branches if isinstance(b, Mapping) and validated(b) == {"type"} and b["type"] == "null"]
    if len(nulls) != 1:
        return None
    return branches[1] if branches[0] is nulls[0] else branches[0]


class Predicates:
    """Writes plain tests (see the module docstring); every value a test refers to is bound to a name in
    :attr:`names` (never written into the text: keys and numbers are written with ``repr``)."""

    def __init__(self, resolve: Refs) -> None:
        self.resolve = resolve
        self.names: dict[str, Any] = {}
        self.named: dict[int, str] = {}
        self.items: list[str] = []
        """Source lines of the item functions the tests call (see :meth:`item_test`)."""

    def literal(self, value: Any) -> str:
        """A number for the source: its ``repr`` (an int or finite float literal), else a name."""
        if (type(value) is int and -SMALL <= value <= SMALL) or (type(value) is float and math.isfinite(value)):
            return f"({value!r})"
        return self.name(value)

    def name(self, value: Any) -> str:
        """A name for ``value`` in the namespace (values never enter the source text)."""
        known = self.named.get(id(value))
        if known is not None and self.names[known] is value:
            return known
        name = self.named[id(value)] = f"c{len(self.names)}"
        self.names[name] = value
        return name

    def follow(self, schema: Any) -> Any:
        """``schema`` behind plain ``$ref`` s (nothing validated beside them)."""
        for _ in range(_MAX_REFS):
            if not isinstance(schema, Mapping) or validated(schema) != {"$ref"} or not isinstance(schema["$ref"], str):
                return schema
            schema = self.resolve(schema["$ref"])
        raise Decline

    def slot_test(self, schema: Any, var: str, budget: int) -> str:
        """The plain test of a property's value in ``var``: the node, its array, or its optional wrapper."""
        schema = self.follow(schema)
        inner = optional(schema) if isinstance(schema, Mapping) else None
        node = self.follow(inner) if inner is not None else schema
        if isinstance(node, Mapping) and kinds(node) == ["array"]:
            whole, item, unique = self.array_parts(node, var, budget)
            test = f"{whole} and all(map({self.item_test(item)}, {var}))"
            test += f" and len(set({var})) == len({var})" if unique else ""
        else:
            test, nullable = self.test(node, var, budget)
            if inner is not None and nullable:
                raise Decline  # null would match both branches: oneOf refuses it, anyOf picks the first
        return f"{var} is None or ({test})" if inner is not None else test

    def item_test(self, test: str) -> str:
        """A function of ``y`` returning ``test``, for ``map`` (no generator to set up per call); its name."""
        name = f"item{len(self.items)}"
        self.items += [f"def {name}(y):", f"    return {test}"]
        return name

    def test(self, schema: Any, var: str, budget: int) -> tuple[str, bool]:
        """The plain test of a scalar in ``var`` under ``schema``; and whether null passes it."""
        if schema is True or (isinstance(schema, Mapping) and not validated(schema)):
            return self.anything(var, budget), True
        if not isinstance(schema, Mapping) or not validated(schema) <= SCALAR_KEYWORDS:
            raise Decline
        _check_numbers(schema)
        members = self.members(schema)
        named = kinds(schema) or (["string"] if members is not None and "type" not in schema else [])
        if not named or not set(named) <= SCALAR_TYPES or {"integer", "number"} <= set(named):
            raise Decline
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
        return not isinstance(schema.get("pattern"), str) or matches(self.pattern(schema["pattern"]))(member)

    def members(self, schema: Mapping[str, Any]) -> frozenset[str] | None:
        if "enum" not in schema and "const" not in schema:
            return None
        values = list(schema["enum"]) if isinstance(schema.get("enum"), list) else []
        values += [schema["const"]] if "const" in schema else []
        if not values or not all(isinstance(v, str) for v in values):
            raise Decline  # non-string members are read back from the declaration's strings: the full way
        if "enum" in schema and "const" in schema:
            return frozenset([schema["const"]]) if schema["const"] in schema["enum"] else frozenset()
        return frozenset(values)

    def anything(self, var: str, budget: int) -> str:
        """Any JSON scalar admission takes (containers go the full way)."""
        return (
            f"(type({var}) is str and len({var}) <= {budget - 2}) or type({var}) is bool or {var} is None or "
            f"(type({var}) is int and -{SMALL} < {var} < {SMALL}) or "
            f"(type({var}) is float and -{self.literal(FLOAT_MAX)} <= {var} <= {self.literal(FLOAT_MAX)})"
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
            parts.append(f"{self.name(matches(self.pattern(schema['pattern'])))}({var})")
        return " and ".join(parts)

    def pattern(self, source: str) -> Pattern:
        try:
            pattern = compile_pattern(source)
        except SchemaError:
            raise Decline from None
        if not pattern.linear:  # it may backtrack: the full way keeps the run's time budget
            raise Decline
        return pattern

    def number(self, schema: Mapping[str, Any], var: str, integer: bool) -> str:
        limit = SMALL - 1 if integer else FLOAT_MAX
        low, high = max(schema.get("minimum", -limit), -limit), min(schema.get("maximum", limit), limit)
        fmt = schema.get("format")
        if fmt in INTEGER_FORMATS:
            if not integer:
                raise Decline
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
                raise Decline
            parts.append(f"{var} % {self.literal(step)} == 0")
        return " and ".join(parts)

    def array_parts(self, schema: Mapping[str, Any], var: str, budget: int) -> tuple[str, str, bool]:
        """The tests of an array in ``var``: its type and count, each item's (in ``y``), and whether items must
        be unique."""
        if not validated(schema) <= ARRAY_NODE_KEYWORDS or schema.get("nullable") is True:
            raise Decline
        _check_numbers(schema)
        count = min(schema.get("maxItems", 1024), budget // 64)
        share = (budget - 2) // max(count, 1) - 5  # each item's part of the budget
        items = self.follow(schema.get("items", True))
        item, _ = self.test(items, "y", share)
        unique = schema.get("uniqueItems") is True
        if unique and (not isinstance(items, Mapping) or kinds(items) not in (["string"], ["integer"])):
            raise Decline  # set() would read true as 1; JSON equality does not
        low = schema.get("minItems", 0)
        least = f"{self.literal(low)} <= " if low else ""
        return f"type({var}) is list and {least}len({var}) <= {self.literal(count)}", item, unique

    def function(self, test: str) -> Predicate:
        """``test`` (over ``v``) compiled as a function, with the item functions it calls."""
        source = "\n".join([*self.items, "def predicate(v):", f"    return {test}"]) + "\n"
        namespace = dict(self.names)
        exec(compile(source, "<toolkit shortcut>", "exec"), namespace)  # no schema text is in the source
        function: Predicate = namespace["predicate"]
        return function


_COUNTS = ("minLength", "maxLength", "minItems", "maxItems")
_NUMBERS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def _count(value: Any) -> bool:
    return type(value) is int or (type(value) is float and value.is_integer())


def _check_numbers(schema: Mapping[str, Any]) -> None:
    """Decline a bound the tests cannot write (a schema no tool was built from may carry one: the interpreter
    ignores it, or refuses it in its own words)."""
    if any(key in schema and not _count(schema[key]) for key in _COUNTS):
        raise Decline
    if any(key in schema and type(schema[key]) not in (int, float) for key in _NUMBERS):
        raise Decline
    if "multipleOf" in schema and not schema["multipleOf"] > 0:
        raise Decline


def property_predicate(schema: Any, resolve: Refs) -> Predicate | None:
    """The plain test of a property's value as a function (the interpreter's shortcut), or ``None`` outside
    the subset. The value was admitted already: the budget is the whole payload's."""
    writer = Predicates(resolve)
    try:
        return writer.function(writer.slot_test(schema, "v", MAX_ARGUMENT_SIZE))
    except (Decline, ToolkitError):  # ToolkitError: a reference the interpreter reports in its own words
        return None


def fast_predicate(schema: Any) -> Predicate | None:
    """:func:`property_predicate` of a node that refers to nothing (a scalar, or its optional wrapper)."""
    return None if isinstance(schema, Mapping) and kinds(schema) == ["array"] else _alone(schema)


def fast_array_predicate(schema: Any) -> Predicate | None:
    """:func:`property_predicate` of an array node that refers to nothing."""
    return _alone(schema) if isinstance(schema, Mapping) and kinds(schema) == ["array"] else None


def _alone(schema: Any) -> Predicate | None:
    return property_predicate(schema, Refs(schema if isinstance(schema, Mapping) else {}))


MEMO_SIZE = 4096
"""The most strings one memory keeps (once full, it keeps what it has)."""
MEMO_LENGTH = 64
"""The longest string a memory keeps: dates, times, ids, short codes."""
_MEMORIES: dict[Predicate, set[str]] = {}


def memory(test: Predicate) -> set[str]:
    """The strings ``test`` (a pure test of a string, living as long as the process: a format's) passed, kept
    for generated code to ask ``value in seen`` before running it (see :func:`remembered_source`)."""
    return _MEMORIES.setdefault(test, set())


def remembered_source(test: str, seen: str, var: str) -> str:
    """Source for ``test`` (a name) on the string in ``var`` that answers from ``seen`` (a name) first, and adds a
    short passing string while ``seen`` has room: a value a model sends again (the same date, call after call)
    costs a set lookup; a new one, the test and a few comparisons more."""
    return (
        f"({var} in {seen} or ({test}({var}) and "
        f"(len({var}) > {MEMO_LENGTH} or len({seen}) >= {MEMO_SIZE} or not {seen}.add({var}))))"
    )
