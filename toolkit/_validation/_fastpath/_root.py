"""The generated function of a tool's root object: the fast tier's answer to a whole call.

Most calls a model makes are valid, and most tool schemas are an object of flat parameters. For a root object
whose properties are all in the fast tier's subset (:mod:`toolkit._validation._fastpath._predicates`, whose
plain tests it writes inline), :func:`fast_path` writes one Python function (as ``fastjsonschema`` does),
every bound, set and pattern bound to a name in its namespace, never written into the text (keys are written
with ``repr``). The function answers with the ``ok`` :class:`~toolkit.ToolResult` of a call whose every value
passes its plain test and that has no unknown key, filling absent defaults with the interpreter's notices. A
call that gives every property is read in one ``try`` block, with no key counting and no defaults to fill.
When a test fails, the call goes on to a second generated function, ``invalid``
(:mod:`toolkit._validation._fastpath._invalid`), which answers an invalid call with the interpreter's envelope,
built from the same compiled checks and phrases. Otherwise the answer is ``None`` and the interpreter runs from
the start, so the two cannot disagree on a call the function declines.

The function stands in for admission (:mod:`toolkit._validation._admit`) on the calls it takes: string keys,
and each value within its share of :data:`MAX_ARGUMENT_SIZE` (the plain tests do the rest), so a call it
accepts is one admission accepts.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from toolkit._canonical import json_copy
from toolkit._envelope import Notice, ToolResult
from toolkit._exceptions import ToolkitError
from toolkit._schema import Refs
from toolkit._validation._admit import MAX_ARGUMENT_SIZE
from toolkit._validation._combinators import NO_DEFAULT, core, default_of
from toolkit._validation._compile import Options
from toolkit._validation._enforce import json_value
from toolkit._validation._expected import format_path
from toolkit._validation._fastpath._invalid import invalid_lines
from toolkit._validation._fastpath._predicates import Decline, Predicates, kinds, optional, validated
from toolkit._validation._results import OK_NAMESPACE, ok_lines

__all__ = ["ROOT_KEYWORDS", "FastPath", "fast_path"]

FastPath = Callable[[dict[str, Any]], "ToolResult | None"]
"""The generated function: the envelope of a call it takes, or ``None`` (the interpreter answers)."""

ROOT_KEYWORDS = frozenset({"type", "properties", "required", "additionalProperties", "unevaluatedProperties"})
"""The keywords a root object the fast tier takes may have."""
_EVERY_PRESENT = 8
"""The most properties for which a call giving them all is read apart (a tool call rarely gives more)."""
_FAIL = "return invalid(args)"
"""What a failed test does: on to the generated ``invalid`` (:mod:`toolkit._validation._fastpath._invalid`)."""


class _Writer(Predicates):
    """Single-use: writes the source of one function, and the namespace its names refer to."""

    def __init__(self, root: Mapping[str, Any], options: Options) -> None:
        super().__init__(Refs(root))
        self.options = options
        self.names.update(OK_NAMESPACE, json_copy=json_copy)
        self.lines: list[str] = []
        self.later: tuple[Mapping[str, Any], Mapping[str, Any], list[str], int] = ({}, {}, [], 0)

    def line(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    def slot(self, schema: Any, var: str, budget: int, depth: int) -> tuple[bool, bool]:
        """Write the checks of one parameter's value in ``var`` (on to ``invalid`` when it fails).

        Returns whether the cleaned value is a copy (an array) and whether ``null`` is accepted.
        """
        schema = self.follow(schema)
        inner = optional(schema) if isinstance(schema, Mapping) else None
        if inner is not None:
            inner = self.follow(inner)
            if isinstance(inner, Mapping) and kinds(inner) == ["array"]:
                self.line(depth, f"if {var} is not None:")
                self.array(inner, var, budget, depth + 1)
                return True, True
            test, nullable = self.test(inner, var, budget)
            if nullable:
                raise Decline  # null would match both branches: oneOf refuses it, anyOf picks the first
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

    # -- the root -----------------------------------------------------------------------------------
    def root(self, schema: Mapping[str, Any]) -> str:
        """The source of ``fast_path`` (see the module docstring)."""
        if not validated(schema) <= ROOT_KEYWORDS or schema.get("type", "object") != "object":
            raise Decline
        properties = dict(schema.get("properties") or {})
        required = [name for name in schema.get("required") or () if isinstance(name, str)]
        if self.options.closed and "additionalProperties" not in schema and "unevaluatedProperties" not in schema:
            for name in required:
                properties.setdefault(name, True)
        if not properties or not set(required) <= set(properties):
            raise Decline
        read_only = {name for name, sub in properties.items() if _read_only(sub, self.resolve)}
        required = list(dict.fromkeys(name for name in required if name not in read_only))
        keys = sum(len(name) + 3 for name in properties)
        budget = (MAX_ARGUMENT_SIZE - 4096 - keys) // len(properties)
        if budget < 4096:
            raise Decline
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
    except (Decline, ToolkitError):  # ToolkitError: a reference the full validator reports in its own words
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
