"""A tool's invalid envelope, written beside its root function (:mod:`toolkit._validation._fastpath._root`).

When a value fails the fast path's plain test, the call is usually invalid. Rather than decline and let the
full validator start again (admission walk, run, the generic object check), the fast path hands the call to
a second generated function, ``invalid(args)``, which answers as the full validator would, in the same order:

* admission: the payload must be one admission passes without a word (:func:`~toolkit._validation._admit.flat`:
  string keys, JSON scalars, lists of them, far from the size limit), else ``None``;
* every key in the data's own order: a declared property whose value passes its plain test has nothing to
  say; otherwise the property's checks run -- the very closures the full validator compiles for it, called
  in the same order (its ``type`` first; then its number, string, enum and const keywords), without the layers
  between them, or for any other shape (arrays, values an optional wrapper must probe) the property's whole
  compiled check -- so every error is the full validator's, word for word; an explicit ``null`` the policy
  reads as absent says nothing; an undeclared key is ``unknown_property`` where the object refuses unlisted
  keys (in an open object it passes; under ``unevaluatedProperties`` or an additional-properties schema the
  answer is ``None``);
* then every absent required property, in the schema's order: ``missing``.

A value the full validator would clean (``10.0`` read as ``10``, a clamped number, a case-folded enum member)
reports nothing here, as there: cleaning only matters to an ok result, and ``invalid`` answers ``None`` when
it found no error (the full validator then answers, notices and all).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeGuard

from toolkit._envelope import FieldError
from toolkit._schema import Refs, schema_types, silent_on_unlisted
from toolkit._validation._admit import plain_size
from toolkit._validation._checks import (
    MAX_FIELD_ERRORS,
    TYPE_TEST_SOURCE,
    Check,
    enum_expected,
    format_expected,
    length_expected,
    range_expected,
    shown,
    wanted_types,
)
from toolkit._validation._combinators import _accepts, core, declared_strings
from toolkit._validation._compile import SCALAR_KEYWORDS, Options, property_checks
from toolkit._validation._expected import describe, format_path, number_text
from toolkit._validation._fastpath._predicates import SCALAR_TYPES, kinds, optional, validated
from toolkit._validation._formats import FORMAT_CHECKS
from toolkit._validation._objects import known_list
from toolkit._validation._results import field_error, invalid_of
from toolkit._validation._run import Run, short

__all__ = ["invalid_lines"]

_REFUSE, _OPEN, _DECLINE = "refuse", "open", "decline"
_MAX_REFS = 16


def _unlisted(root: Mapping[str, Any], options: Options) -> str:
    """What the root's object check does with a key no property declares (see ``_Compiler.object``)."""
    additional = root.get("additionalProperties", None)
    if additional is False:
        return _REFUSE
    if "unevaluatedProperties" in root:
        return _DECLINE
    if "additionalProperties" not in root:
        return _REFUSE if options.closed and silent_on_unlisted(root) else _OPEN
    return _OPEN if additional is True or additional == {} else _DECLINE


class _Steps:
    """Writes the lines that report one property's value in ``v`` (see the module docstring)."""

    def __init__(self, root: Mapping[str, Any], options: Options, name: Callable[[Any], str]) -> None:
        self.resolve = Refs(root)
        self.options = options
        self.name = name
        self.whole: dict[str, Check] = {}
        self.scalars: Callable[[Mapping[str, Any], str | None], list[Check]] = lambda schema, description: []
        self.run = f"(run := run or {name(run_into)}(errors))"  # a run only for the compiled checks called

    def enter(self, schema: Any, description: str | None) -> tuple[Any, str | None]:
        """``schema`` behind plain ``$ref`` s, with the description the compiler reads there."""
        for _ in range(_MAX_REFS):
            if not isinstance(schema, Mapping):
                return schema, description
            own = schema.get("description")
            description = own if isinstance(own, str) else description
            if validated(schema) != {"$ref"} or not isinstance(schema["$ref"], str):
                return schema, description
            schema = self.resolve(schema["$ref"])
        return None, description

    def property(self, key: str, sub: Any, loc: str, path: str) -> list[str]:
        whole = [f"{self.whole_check(key)}(v, {loc}, {self.run})"]
        node, description = self.enter(sub, None)
        if not isinstance(node, Mapping) or declared_strings(node, self.resolve):
            return whole
        other = optional(node)
        if other is not None:
            inner, inner_description = self.enter(other, description)
            if not isinstance(inner, Mapping) or inner.get("nullable") is True:
                return whole  # the compiler reads the union as a general anyOf/oneOf, with probes
            lines = self.scalar(inner, inner_description, loc, path)
            if lines is None or "null" in kinds(inner):
                return whole
            types = self.name(schema_types(other, self.resolve))
            return [
                "if v is not None:",
                f"    if {self.name(_accepts)}({types}, v):",
                *(f"        {line}" for line in lines),
                "    else:",
                f"        {whole[0]}",
            ]
        return self.scalar(node, description, loc, path) or whole

    def whole_check(self, key: str) -> str:
        return f"{self.name(self.whole)}[{key!r}]"

    def scalar(self, node: Mapping[str, Any], description: str | None, loc: str, path: str) -> list[str] | None:
        """The lines of a scalar node: its type test, then each keyword check; ``None`` for another shape."""
        named = kinds(node)
        if not named or not set(named) <= SCALAR_TYPES or not validated(node) <= SCALAR_KEYWORDS:
            return None
        test = " or ".join(TYPE_TEST_SOURCE[kind].format("v") for kind in named)
        problem = f"{self.name(shown)}(v) + {self.name(' is not ' + wanted_types(named))}"
        checks = self.scalars(node, description)
        steps = [line for check in checks for line in self.step(check, node, description, loc, path)]
        return [f"if not ({test}):", f"    {self.error(path, 'wrong_type', problem, describe(node))}",
                *(["else:"] + [f"    {line}" for line in steps] if steps else [])]  # fmt: skip

    def error(self, path: str, code: str, problem: str, expected: str) -> str:
        """The line appending a field error (``problem`` is an expression)."""
        return f"errors.append({self.name(field_error)}({path}, {code!r}, {problem}, {self.name(expected)}))"

    def step(self, check: Check, node: Mapping[str, Any], description: str | None, loc: str, path: str) -> list[str]:
        """One keyword check of a node, written out where its words are simple, else the compiled check called."""
        made = check.__qualname__.partition(".")[0]  # the factory in _checks that made it
        number = "(type(v) is int or type(v) is float)"
        if made == "integral_float_check":
            return ["if type(v) is float and v.is_integer():", "    v = int(v)"]
        if made == "range_check" and not self.options.clamp:
            lo, hi, xlo, xhi = (self.bound(node.get(k), default) for k, default in _BOUNDS)
            inside = f"{lo} <= v <= {hi} and {xlo} < v < {xhi}"
            problem = f"'out of range: ' + {self.name(number_text)}(v)"
            return [f"if {number} and not ({inside}):",
                    f"    {self.error(path, 'out_of_range', problem, range_expected(node, description))}"]  # fmt: skip
        if made == "length_check":
            low, high = self.name(node.get("minLength") or 0), node.get("maxLength")
            top = self.name(high if high is not None else _INF)
            expected = length_expected(node, description)
            if not node.get("minLength"):  # nothing is too short
                return [f"if type(v) is str and len(v) > {top}:", "    n = len(v)",
                        f"    {self.error(path, 'too_long', _TOO_LONG, expected)}"]  # fmt: skip
            return [
                f"if type(v) is str and not {low} <= len(v) <= {top}:",
                "    n = len(v)",
                f"    if n < {low}:",
                f"        {self.error(path, 'too_short', _TOO_SHORT, expected)}",
                "    else:",
                f"        {self.error(path, 'too_long', _TOO_LONG, expected)}",
            ]
        fmt = node.get("format")
        if made == "format_check" and isinstance(fmt, str):
            problem = f"{self.name(short)}(v) + {self.name(' is not a valid ' + fmt.replace('-', ' '))}"
            return [f"if type(v) is str and not {self.name(FORMAT_CHECKS[fmt])}(v):",
                    f"    {self.error(path, 'bad_format', problem, format_expected(fmt, description))}"]  # fmt: skip
        values = node.get("enum")
        if made == "enum_check" and not self.options.enum_insensitive and "const" not in node and _strings(values):
            members = self.name(frozenset(values))
            problem = f"{self.name(short)}(v) + ' is not an allowed value'"
            return [f"if not (type(v) is str and v in {members}):",
                    f"    {self.error(path, 'not_in_enum', problem, enum_expected(values, description))}"]  # fmt: skip
        return [f"v = {self.name(check)}(v, {loc}, {self.run})"]

    def bound(self, value: Any, default: float) -> str:
        """A bound as the range and length checks read it: a number (not a boolean), else ``default``."""
        return self.name(value if type(value) in (int, float) else default)


_INF = float("inf")
_BOUNDS = (("minimum", -_INF), ("maximum", _INF), ("exclusiveMinimum", -_INF), ("exclusiveMaximum", _INF))
_TOO_SHORT = "'empty string' if n == 0 else f'too short: {n} characters'"
_TOO_LONG = "f'too long: {n} characters'"


def _strings(values: Any) -> TypeGuard[list[str]]:
    return isinstance(values, list) and all(type(v) is str for v in values)


_SLACK = 2048
"""The most characters the failing values and unlisted keys may add: the values that pass their tests fit the
payload within :data:`MAX_ARGUMENT_SIZE` minus 4,096 (the fast path gives each its share), so with these the
payload is within admission's limit."""
_TOO_LARGE = 2 * _SLACK


def run_into(errors: list[FieldError]) -> Run:
    """A run whose errors go into ``errors``."""
    run = Run()
    run.errors = errors
    return run


def _key_path(key: str) -> str:
    """The field path of a key at the root (memoised there)."""
    return format_path((None, key))


def invalid_lines(
    root: Mapping[str, Any],
    properties: Mapping[str, Any],
    required: list[str],
    tests: Mapping[str, str],
    options: Options,
    name: Callable[[Any], str],
) -> list[str]:
    """The source of ``invalid(args)`` for the root object (``properties`` and ``required`` as its object check
    reads them; ``tests`` the plain test of each property's value in ``v``); ``name`` binds a value in the
    namespace and gives its name."""
    steps = _Steps(root, options, name)
    steps.whole, steps.scalars = property_checks(root, properties, options)
    required_set = set(required)
    size = name(plain_size)
    lines = ["def invalid(args):", "    run = None", "    errors = []", "    size = 0"]
    lines.append("    for key, v in args.items():")
    for i, (key, sub) in enumerate(properties.items()):
        loc, path = name((None, key)), name(format_path((None, key)))
        lines.append(f"        {'if' if i == 0 else 'elif'} key == {key!r}:")
        test = f"not ({tests[key]})"
        types = schema_types(sub, steps.resolve)
        if options.null_as_absent and key not in required_set and types is not None and "null" not in types:
            test = f"v is not None and {test}"  # an explicit null the policy drops: nothing to say
        lines.append(f"            if {test}:")
        lines.append(f"                size += {size}(v) + 1 or {_TOO_LARGE}")  # -1 + 1: not a plain value
        lines.extend(f"                {line}" for line in steps.property(key, sub, loc, path))
    unlisted = _unlisted(root, options)
    lines.append("        else:")
    lines.append(f"            size += len(key) + 3 + ({size}(v) + 1 or {_TOO_LARGE})")
    if unlisted == _REFUSE:
        path = f"{name(_key_path)}(key)"
        problem = f"'unknown property ' + {name(short)}(key)"
        lines.append(f"            {steps.error(path, 'unknown_property', problem, known_list(list(properties)))}")
    elif unlisted == _OPEN:
        lines.append("            pass")
    else:
        lines.append("            return None")
    for key in required:
        sub = properties.get(key)
        unwrapped = core(sub, steps.resolve)[0] if isinstance(sub, Mapping) and "$ref" in sub else sub
        missing = field_error(format_path((None, key)), "missing", "missing required field", describe(unwrapped))
        lines.append(f"    if {key!r} not in args:")
        lines.append(f"        errors.append({name(missing)})")  # a frozen error: the same one every time
    # nothing found (the full validator cleans), more than one envelope shows, or values admission reads closely
    lines.append(f"    if not errors or len(errors) > {MAX_FIELD_ERRORS} or size > {_SLACK} or (run and run.more):")
    lines.append("        return None")
    lines.append(f"    return {name(invalid_of)}(errors, 0)")
    return lines
