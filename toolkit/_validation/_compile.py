"""Compile a JSON Schema 2020-12 into fast closures, once per tool and policy.

:func:`compile_schema` walks the schema a single time and returns a :data:`~toolkit._validation._checks.Check` for the
root. Local ``$ref`` s are read by :mod:`toolkit._refs` (the reader every stage uses, with its slugs) and
compile lazily into a shared cell, so recursive ``$defs`` compile once and never loop; at run time a recursive
schema is bounded by the data's own depth, and by :data:`MAX_DEPTH` (an error, never a ``RecursionError``).

Before compiling, :func:`toolkit._refs.check_references` reads every reference the schema can reach and
refuses a *left-recursive* schema -- a reference cycle through ``$ref`` / ``anyOf`` / ``oneOf`` / ``allOf`` /
``not`` / ``if``-``then``-``else`` that never steps into ``properties``, ``items`` and the like, e.g.
``$defs: {A: {anyOf: [{$ref: "#/$defs/A"}, {type: string}]}}`` -- with ``SchemaError(slug="left_recursive_ref")``,
naming the cycle. Such a schema applies itself to the very value it is checking, so evaluating it never ends
(2020-12 calls it invalid) and each self-referring branch would multiply the work. The schema is the tool
author's, so the author gets the error (on the first ``validate``, whatever the arguments), never the model.

Two OpenAPI spellings are honoured because the lowered declaration honours them (see
``tests/test_contract_consistency.py``): ``nullable: true`` beside a ``type`` also accepts ``null``, and a
``readOnly`` property is never required (a request does not carry it; the declaration does not offer it).
Non-string ``enum``/``const`` members are also accepted as the strings the declaration shows for them.

Policies are baked in at compile time (``clamp``, case-insensitive enums, ``null`` for optional fields), so
the run-time closures carry no policy branches. Keywords the validator does not know are annotations and
are ignored, as JSON Schema says.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from toolkit._exceptions import SchemaError
from toolkit._refs import Refs, check_references, schema_types
from toolkit._validation._checks import (
    ITEM_WORDS,
    MAX_DEPTH,
    Check,
    Run,
    declared_check,
    enum_check,
    format_check,
    integer_format_check,
    integral_float_check,
    json_key,
    length_check,
    multiple_check,
    pattern_check,
    range_check,
    short,
    type_check,
)
from toolkit._validation._combinators import (
    NO_DEFAULT,
    branch_check,
    core,
    declared_strings,
    default_of,
    not_check,
)
from toolkit._validation._expected import Loc, clause, describe
from toolkit._validation._fastpath import fast_array_predicate, fast_predicate
from toolkit._validation._objects import object_check

__all__ = ["MAX_DEPTH", "Options", "compile_schema"]

MAX_REF_HOPS = 128
_MAY_DECLARE = frozenset({"enum", "const", "$ref", "allOf", "anyOf", "oneOf"})
"""Keywords through which a node can carry a non-string enum, declared as strings (see ``declared_check``)."""
_OBJECT_KEYWORDS = frozenset(
    {"properties", "additionalProperties", "required", "patternProperties", "minProperties", "maxProperties"}
) | {"dependentRequired"}


@dataclass(frozen=True, slots=True)
class Options:
    clamp: bool = False
    enum_insensitive: bool = False
    null_as_absent: bool = True


def _identity(value: Any, loc: Loc, run: Run) -> Any:
    return value


def _nothing(value: Any, loc: Loc, run: Run) -> Any:
    run.error(loc, "not_allowed", f"no value is allowed here, got {short(value)}", "no value")
    return value


def _chain(checks: list[Check]) -> Check:
    if not checks:
        return _identity
    if len(checks) == 1:
        return checks[0]
    steps = tuple(checks)

    def check(value: Any, loc: Loc, run: Run) -> Any:
        for step in steps:
            value = step(value, loc, run)
        return value

    return check


_EXACT = {"string": str, "object": dict, "array": list, "boolean": bool}


def _typed(kinds: list[str], test: Callable[[Any], bool], fail: Check, checks: list[Check]) -> Check:
    """A node with a ``type`` keyword: when the type is wrong, the other keywords have nothing to say.

    A single exact type (string, object, array, boolean) is tested inline: this is the hot path of every call.
    """
    rest = _chain(checks)
    if len(kinds) == 1 and kinds[0] in _EXACT:
        exact = _EXACT[kinds[0]]
        if not checks:
            return lambda value, loc, run: value if type(value) is exact else fail(value, loc, run)
        return lambda value, loc, run: rest(value, loc, run) if type(value) is exact else fail(value, loc, run)
    if not checks:
        return lambda value, loc, run: value if test(value) else fail(value, loc, run)

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if test(value):
            return rest(value, loc, run)
        return fail(value, loc, run)

    return check


class _Compiler:
    """Single-use walker: one small method per keyword family, refs memoised by pointer."""

    def __init__(self, root: Mapping[str, Any], options: Options) -> None:
        self.root = root
        self.resolve = Refs(root)
        self.options = options
        self.cells: dict[tuple[str, str | None], list[Check]] = {}

    def compile(self, schema: Any, description: str | None = None) -> Check:
        if schema is True or schema == {}:
            return _identity
        if schema is False:
            return _nothing
        if not isinstance(schema, Mapping):
            raise SchemaError(f"a schema must be an object or a boolean, got {short(schema)}", slug="bad_schema")
        description = schema.get("description") if isinstance(schema.get("description"), str) else description
        checks: list[Check] = []
        if "$ref" in schema:
            checks.append(self.ref(schema["$ref"], description))
        checks.extend(self.scalars(schema, description))
        if "enum" in schema and isinstance(schema["enum"], list):
            checks.append(enum_check(schema["enum"], description, self.options.enum_insensitive))
        if "const" in schema:
            checks.append(enum_check([schema["const"]], description, self.options.enum_insensitive, const=True))
        if any(k in schema for k in _OBJECT_KEYWORDS):
            checks.append(self.object(schema))
        if any(k in schema for k in ("items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains")):
            checks.append(self.array(schema, description))
        checks.extend(self.combinators(schema, description))
        kinds = schema.get("type")
        if isinstance(kinds, str | list):
            named = [kinds] if isinstance(kinds, str) else list(kinds)
            if schema.get("nullable") is True and "null" not in named:
                named.append("null")  # OpenAPI 3.0's spelling, which the declaration carries as nullable
            test, fail = type_check(named, schema, description)
            node = _typed(named, test, fail, checks)
        else:
            node = _chain(checks)
        texts = declared_strings(schema, self.resolve) if _MAY_DECLARE.intersection(schema) else None
        return declared_check(node, texts) if texts else node

    # -- references -------------------------------------------------------------------------------
    def ref(self, ref: Any, description: str | None) -> Check:
        target = self.resolve(ref)  # a bad reference raises the reader's slug
        key = (ref, description)  # the referring field's words go into the target's expected phrases
        cell = self.cells.get(key)
        if cell is None:
            cell = self.cells[key] = [_identity]
            cell[0] = self.compile(target, description)

        def check(value: Any, loc: Loc, run: Run) -> Any:
            if run.hops >= MAX_REF_HOPS:
                run.error(loc, "too_deep", "the schema refers to itself without end", "a finite value")
                return value
            run.hops += 1
            try:
                return cell[0](value, loc, run)
            finally:
                run.hops -= 1

        return check

    # -- scalars ----------------------------------------------------------------------------------
    def scalars(self, schema: Mapping[str, Any], description: str | None) -> list[Check]:
        fmt = schema.get("format")
        found = [
            integral_float_check(schema.get("type")),
            range_check(schema, description, self.options.clamp),
            multiple_check(schema),
            length_check(schema, description),
            pattern_check(schema, description),
            format_check(fmt, description) if isinstance(fmt, str) else None,
            integer_format_check(fmt) if isinstance(fmt, str) else None,
        ]
        return [c for c in found if c is not None]

    # -- combinators ------------------------------------------------------------------------------
    def combinators(self, schema: Mapping[str, Any], description: str | None) -> list[Check]:
        out: list[Check] = []
        for keyword in ("anyOf", "oneOf"):
            branches = schema.get(keyword)
            if isinstance(branches, list) and branches:
                nodes = [self.compile(b, description) for b in branches]
                types = [schema_types(b, self.resolve) for b in branches]
                out.append(branch_check(keyword, nodes, types, schema, description))
        for sub in schema.get("allOf") or []:
            out.append(self.compile(sub, description))
        if "not" in schema:
            out.append(not_check(self.compile(schema["not"]), schema["not"]))
        if "if" in schema and ("then" in schema or "else" in schema):
            out.append(self.conditional(schema, description))
        return out

    def conditional(self, schema: Mapping[str, Any], description: str | None) -> Check:
        test = self.compile(schema["if"])
        then = self.compile(schema.get("then", True), description)
        otherwise = self.compile(schema.get("else", True), description)

        def check(value: Any, loc: Loc, run: Run) -> Any:
            probe = Run()
            probe.depth, probe.hops = run.depth, run.hops
            test(value, loc, probe)
            return (otherwise if probe.errors else then)(value, loc, run)

        return check

    # -- objects ----------------------------------------------------------------------------------
    def object(self, schema: Mapping[str, Any]) -> Check:
        properties = schema.get("properties") or {}
        read_only = {name for name, sub in properties.items() if _read_only(self.unwrap(sub))}
        if read_only and isinstance(schema.get("required"), list):
            # a request never carries read-only properties, and the declaration does not offer them
            schema = {**schema, "required": [name for name in schema["required"] if name not in read_only]}
        children: dict[str, Check] = {}
        for name, sub in properties.items():
            children[name] = self.lazy(children, name, sub)
        nullable: dict[str, bool] = {}

        def is_nullable(name: str) -> bool:
            if name not in nullable:
                found = schema_types(properties[name], self.resolve)
                nullable[name] = found is None or "null" in found
            return nullable[name]

        additional = schema.get("additionalProperties", True)
        extra = None if additional is False else self.compile(additional)
        patterns = {p: self.compile(sub) for p, sub in (schema.get("patternProperties") or {}).items()}
        defaults = {name: default_of(sub, self.resolve) for name, sub in properties.items()}
        defaults = {name: value for name, value in defaults.items() if value is not NO_DEFAULT}
        fast = {
            name: found
            for name, sub in properties.items()
            if (found := fast_predicate(sub) or fast_array_predicate(sub)) is not None
        }
        unwrap = self.unwrap
        check = object_check(schema, children, is_nullable, defaults, extra, patterns, self.options, fast, unwrap)
        return check

    def unwrap(self, schema: Any) -> Any:
        """The schema behind a ``$ref`` (siblings kept), for phrases about a property as a whole."""
        return core(schema, self.resolve)[0] if isinstance(schema, Mapping) and "$ref" in schema else schema

    def lazy(self, table: dict[str, Check], key: str, schema: Any) -> Check:
        """A stand-in that compiles ``schema`` on first use and puts the result in ``table[key]``.

        Large API schemas (a Kubernetes body is thousands of nodes) are compiled only as far as the data
        actually reaches, so the first call stays cheap.
        """

        def first_use(value: Any, loc: Loc, run: Run) -> Any:
            real = table[key] = self.compile(schema)
            return real(value, loc, run)

        return first_use

    # -- arrays -----------------------------------------------------------------------------------
    def array(self, schema: Mapping[str, Any], description: str | None) -> Check:
        prefix = tuple(self.compile(s) for s in schema.get("prefixItems") or [])
        items = self.compile(schema["items"]) if "items" in schema else _identity
        contains = self.compile(schema["contains"]) if "contains" in schema else None
        low, high = schema.get("minItems", 0), schema.get("maxItems")
        unique = schema.get("uniqueItems") is True

        def expected_count() -> str:
            tokens = [str(b) for b in (schema.get("minItems"), high) if b]
            found = clause(description, tokens, ITEM_WORDS) if tokens else None
            return found or describe(schema)

        def check(value: Any, loc: Loc, run: Run) -> Any:
            if type(value) is not list:
                return value
            if run.depth >= MAX_DEPTH:
                run.error(loc, "too_deep", f"nested deeper than {MAX_DEPTH} levels", "flatter data")
                return value
            run.depth += 1
            if prefix:
                out = [(prefix[i] if i < len(prefix) else items)(v, (loc, i), run) for i, v in enumerate(value)]
            else:
                out = [items(v, (loc, i), run) for i, v in enumerate(value)]
            run.depth -= 1
            n = len(out)
            if n < low:
                run.error(loc, "too_few_items", f"{n} items, too few", expected_count())
            if high is not None and n > high:
                run.error(loc, "too_many_items", f"{n} items, too many", expected_count())
            if unique:
                _check_unique(out, loc, run)
            if contains is not None:
                _check_contains(out, contains, loc, run, schema)
            return out

        return check


def _read_only(schema: Any) -> bool:
    return isinstance(schema, Mapping) and schema.get("readOnly") is True


def _check_unique(items: list[Any], loc: Loc, run: Run) -> None:
    seen: dict[tuple[Any, ...], int] = {}
    for i, item in enumerate(items):
        key = json_key(item)
        if key in seen:
            run.error(loc, "duplicate_items", f"items {seen[key]} and {i} are equal", "items without duplicates")
            return
        seen[key] = i


def _check_contains(items: list[Any], contains: Check, loc: Loc, run: Run, schema: Mapping[str, Any]) -> None:
    def matches(item: Any) -> bool:
        probe = Run()
        probe.depth, probe.hops = run.depth, run.hops
        contains(item, loc, probe)
        return not probe.errors

    count = sum(1 for item in items if matches(item))
    low, high = schema.get("minContains", 1), schema.get("maxContains")
    if count < low or (high is not None and count > high):
        run.error(loc, "too_few_items", f"{count} matching items", f"items including {describe(schema['contains'])}")


def compile_schema(schema: Mapping[str, Any], options: Options) -> Check:
    """Compile ``schema`` (a full 2020-12 document, ``$defs`` inside) into one check for its root.

    Every reference the schema can reach is read first (:func:`toolkit._refs.check_references`), so a bad one
    raises on the first call whatever the arguments, with the slug every stage uses; a left-recursive schema
    is refused with ``SchemaError(slug="left_recursive_ref")``: its meaning is undefined, so no answer would
    be right.
    """
    compiler = _Compiler(schema, options)
    check_references(schema, compiler.resolve)
    return compiler.compile(schema)
