"""Compile a JSON Schema 2020-12 into fast closures, once per tool and policy.

:func:`compile_schema` walks the schema a single time and returns a :data:`~toolkit._validation._checks.Check` for the
root. Local ``$ref`` s (and ``$dynamicRef`` s, which within one document resolve the same way) are read by
:mod:`toolkit._schema` (the reader every stage uses, with its slugs) and compile lazily into a shared cell, so
recursive ``$defs`` compile once and never loop; at run time a recursive schema is bounded by the data's own
depth, and by :data:`MAX_DEPTH` (an error, never a ``RecursionError``).

Before compiling, :func:`toolkit._schema.check_references` reads every reference the schema can reach and
refuses a *left-recursive* schema -- a reference cycle through ``$ref`` / ``anyOf`` / ``oneOf`` / ``allOf`` /
``not`` / ``if``-``then``-``else`` that never steps into ``properties``, ``items`` and the like, e.g.
``$defs: {A: {anyOf: [{$ref: "#/$defs/A"}, {type: string}]}}`` -- with ``SchemaError(slug="left_recursive_ref")``,
naming the cycle. Such a schema applies itself to the very value it is checking, so evaluating it never ends
(2020-12 calls it invalid) and each self-referring branch would multiply the work.

**Closed objects** (``Policy.unlisted_properties="refuse"``, the default) are not the compiler's: the policy is
written into the schema it is given (:func:`toolkit._validation._closure.written_closure`, ``unevaluatedProperties:
false`` where it applies), so the compiled checks read closure as any 2020-12 validator reads it.

Two OpenAPI spellings are honoured because the lowered declaration honours them (see
``tests/validation/test_contract_consistency.py``): ``nullable: true`` beside a ``type`` also accepts ``null``, and a
``readOnly`` property is never required (a request does not carry it; the declaration does not offer it).
Non-string ``enum``/``const`` members are also accepted as the strings the declaration shows for them, except
under ``if`` and ``not`` (the declaration shows no condition, so none is read that way).

Policies are baked in at compile time (``clamp``, case-insensitive enums, ``null`` for optional fields), so the
run-time closures carry no policy branches. Keywords the validator does not know are annotations and are
ignored, as JSON Schema says (:mod:`toolkit._validation._enforce` refuses, when the tool is built, the ones
that mean something it cannot enforce).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from toolkit._exceptions import SchemaError, ToolkitError
from toolkit._schema import (
    FOR_ANY,
    FOR_ARRAYS,
    FOR_NUMBERS,
    FOR_OBJECTS,
    FOR_STRINGS,
    IN_PLACE_LIST,
    IN_PLACE_MAP,
    IN_PLACE_ONE,
    REFERENCES,
    VALIDATOR_KEYWORDS,
    Refs,
    check_references,
    named_types,
    schema_types,
)
from toolkit._validation._arrays import array_check, unevaluated_items_check
from toolkit._validation._checks import (
    MAX_DEPTH,
    Check,
    Run,
    declared_check,
    enum_check,
    format_check,
    integer_format_check,
    integral_float_check,
    length_check,
    multiple_check,
    pattern_check,
    range_check,
    searcher,
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
    optional_check,
)
from toolkit._validation._enforce import json_value
from toolkit._validation._expected import Loc
from toolkit._validation._objects import (
    OPEN,
    dependent_schemas_check,
    in_place_closure,
    object_check,
    refuses_unlisted,
    shortcut_table,
    unevaluated_check,
)
from toolkit._validation._pattern import compile_pattern

__all__ = [
    "ARRAY_KEYWORDS",
    "MAX_DEPTH",
    "OBJECT_KEYWORDS",
    "SCALAR_KEYWORDS",
    "VALIDATION_KEYWORDS",
    "Options",
    "Shortcut",
    "compile_schema",
    "property_checks",
    "raising",
    "refuses_unlisted",
]

MAX_REF_HOPS = 128
_MAY_DECLARE = frozenset({"enum", "const", "$ref", *IN_PLACE_LIST})
"""Keywords through which a node can carry a non-string enum, declared as strings (see ``declared_check``)."""
_APART = frozenset({"not", "then", "else", "unevaluatedProperties", "unevaluatedItems", "minContains", "maxContains"})
"""Validator keywords no group below holds: each is read with another (``if``, ``contains``) or after them."""
IN_PLACE_KEYWORDS = frozenset({*REFERENCES, *IN_PLACE_ONE, *IN_PLACE_LIST, *IN_PLACE_MAP}) - _APART
"""The keywords that apply schemas to the same value in place."""
OBJECT_KEYWORDS = FOR_OBJECTS - IN_PLACE_KEYWORDS - _APART
"""The keywords of an object node (any one of them makes the node's object check)."""
ARRAY_KEYWORDS = FOR_ARRAYS - _APART
"""The keywords of an array node (any one of them makes the node's array check)."""
SCALAR_KEYWORDS = (FOR_ANY | FOR_STRINGS | FOR_NUMBERS) - IN_PLACE_KEYWORDS - _APART
"""A node's own type, value and scalar keywords (:meth:`_Compiler.scalars` and the type check)."""
VALIDATION_KEYWORDS = VALIDATOR_KEYWORDS
"""Every keyword the compiler reads (besides ``description``, ``default`` and ``readOnly``): the vocabulary's
table (:data:`toolkit._schema.VALIDATOR_KEYWORDS`), which the groups above and the fast tier's subsets are drawn
from."""


@dataclass(frozen=True, slots=True)
class Options:
    clamp: bool = False
    enum_insensitive: bool = False
    null_as_absent: bool = True
    closed: bool = False
    """The schema compiled has the closed-object policy written in (see the module docstring): what the fast tier
    reads of an object that still says nothing of unlisted keys."""


Shortcut = Callable[[Any, Refs], "Callable[[Any], bool] | None"]
"""The maker of a property's shortcut (``(schema, resolve) -> predicate or None``): a predicate true only for
a value its compiled check would pass unchanged, with nothing to say, so an object check may take the value as
it is (the fast tier's, :func:`toolkit._validation._fastpath.property_predicate`)."""


def _identity(value: Any, loc: Loc, run: Run) -> Any:
    return value


def _nothing(value: Any, loc: Loc, run: Run) -> Any:
    run.error(loc, "not_allowed", f"no value is allowed here, got {short(value)}", "no value")
    return value


def raising(error: ToolkitError) -> Check:
    """A check that raises ``error`` (a schema part that could not be compiled)."""

    def check(value: Any, loc: Loc, run: Run) -> Any:
        raise error

    return check


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


def _typed(kinds: list[str], test: Callable[[Any], bool], fail: Check, rest: Check | None) -> Check:
    """A node with a ``type`` keyword: when the type is wrong, the other keywords have nothing to say.

    A single exact type (string, object, array, boolean) is tested inline: this is the hot path of every call.
    """
    if len(kinds) == 1 and kinds[0] in _EXACT:
        exact = _EXACT[kinds[0]]
        if rest is None:
            return lambda value, loc, run: value if type(value) is exact else fail(value, loc, run)
        return lambda value, loc, run: rest(value, loc, run) if type(value) is exact else fail(value, loc, run)
    if rest is None:
        return lambda value, loc, run: value if test(value) else fail(value, loc, run)

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if test(value):
            return rest(value, loc, run)
        return fail(value, loc, run)

    return check


def _plain_reference(node: Mapping[str, Any]) -> bool:
    return all(key == "$ref" or key not in VALIDATION_KEYWORDS for key in node)


class _Compiler:
    """Single-use walker: one small method per keyword family, refs memoised by pointer."""

    def __init__(self, root: Mapping[str, Any], options: Options, shortcut: Shortcut | None = None) -> None:
        self.root = root
        self.resolve = Refs(root)
        self.options = options
        self.shortcut = shortcut
        self.cells: dict[tuple[str, str | None, bool, bool], list[Check]] = {}

    def compile(
        self, schema: Any, description: str | None = None, *, entry: bool = False, declared: bool = True
    ) -> Check:
        """One node. ``entry``: the node is where an instance is entered (its closing is decided here);
        ``declared``: read the strings the declaration shows for non-string enum members."""
        if schema is True or schema == {}:
            return _identity
        if schema is False:
            return _nothing
        if not isinstance(schema, Mapping):
            raise SchemaError(f"a schema must be an object or a boolean, got {short(schema)}", slug="bad_schema")
        description = schema.get("description") if isinstance(schema.get("description"), str) else description
        if entry and "$ref" in schema and _plain_reference(schema):  # nothing beside it: enter its target
            return self.ref(schema["$ref"], description, entry=True, declared=declared)
        checks: list[Check] = []
        for keyword in ("$ref", "$dynamicRef"):
            if keyword in schema:
                checks.append(self.ref(schema[keyword], description, entry=False, declared=declared))
        checks.extend(self.scalars(schema, description))
        if not OBJECT_KEYWORDS.isdisjoint(schema):
            checks.append(self.object(schema, declared))
        if not ARRAY_KEYWORDS.isdisjoint(schema):
            checks.append(self.array(schema, description, declared))
        checks.extend(self.combinators(schema, description, declared))
        node = _chain(checks)
        node = self.unevaluated(schema, node, declared)
        named = named_types(schema)
        if named is not None:
            test, fail = type_check(named, schema, description)
            node = _typed(named, test, fail, node if node is not _identity else None)
        texts = declared_strings(schema, self.resolve) if declared and _MAY_DECLARE.intersection(schema) else None
        return declared_check(node, texts) if texts else node

    # -- references -------------------------------------------------------------------------------
    def ref(self, ref: Any, description: str | None, *, entry: bool, declared: bool) -> Check:
        target = self.resolve(ref)  # a bad reference raises the reader's slug
        key = (ref, description, entry, declared)  # the referring field's words go into the target's phrases
        cell = self.cells.get(key)
        if cell is None:
            cell = self.cells[key] = [_identity]
            try:
                cell[0] = self.compile(target, description, entry=entry, declared=declared)
            except BaseException:
                del self.cells[key]  # never leave a half-made cell that accepts everything
                raise

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
        """The keyword checks of a node beside ``type``, in the order they run: numbers, strings, enum, const."""
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
        if "enum" in schema and isinstance(schema["enum"], list):
            found.append(enum_check(schema["enum"], description, self.options.enum_insensitive))
        if "const" in schema:
            found.append(enum_check([schema["const"]], description, self.options.enum_insensitive, const=True))
        return [c for c in found if c is not None]

    # -- combinators ------------------------------------------------------------------------------
    def combinators(self, schema: Mapping[str, Any], description: str | None, declared: bool) -> list[Check]:
        out: list[Check] = []
        table = schema.get("dependentSchemas")
        if isinstance(table, Mapping) and table:
            out.append(dependent_schemas_check({k: self.compile(s, declared=declared) for k, s in table.items()}))
        for keyword in ("anyOf", "oneOf"):
            branches = schema.get(keyword)
            if isinstance(branches, list) and branches:
                nodes = [self.compile(b, description, declared=declared) for b in branches]
                types = [schema_types(b, self.resolve) for b in branches]
                nulls = [i for i, b in enumerate(branches) if _null_only(b)]
                other = 1 - nulls[0] if len(branches) == 2 and len(nulls) == 1 else 0
                if len(branches) == 2 and len(nulls) == 1 and self.refuses_null(branches[other]):
                    out.append(optional_check(nodes[other], types[other], schema))
                else:
                    out.append(branch_check(keyword, nodes, types, schema, description))
        for sub in schema.get("allOf") or []:
            out.append(self.compile(sub, description, declared=declared))
        if "not" in schema:
            out.append(not_check(self.compile(schema["not"], declared=False), schema["not"]))
        if "if" in schema and ("then" in schema or "else" in schema):
            out.append(self.conditional(schema, description, declared))
        return out

    def refuses_null(self, schema: Any) -> bool:
        """Whether ``schema`` (behind plain references) has a ``type`` of its own that refuses ``null``."""
        for _ in range(MAX_REF_HOPS):
            if not isinstance(schema, Mapping) or "$ref" not in schema or not _plain_reference(schema):
                break
            schema = self.resolve(schema["$ref"])
        named = named_types(schema) if isinstance(schema, Mapping) else None
        return named is not None and "null" not in named

    def conditional(self, schema: Mapping[str, Any], description: str | None, declared: bool) -> Check:
        test = self.compile(schema["if"], declared=False)
        then = self.compile(schema.get("then", True), description, declared=declared)
        otherwise = self.compile(schema.get("else", True), description, declared=declared)

        def check(value: Any, loc: Loc, run: Run) -> Any:
            probe = run.probe()
            test(value, loc, probe)
            if probe.errors:
                return otherwise(value, loc, run)
            run.absorb(probe, outcome=False)  # what a passing condition evaluated counts; its words do not
            return then(value, loc, run)

        return check

    # -- unevaluated ------------------------------------------------------------------------------
    def unevaluated(self, schema: Mapping[str, Any], node: Check, declared: bool) -> Check:
        if "unevaluatedItems" in schema:
            node = unevaluated_items_check(
                node, self.compile(schema["unevaluatedItems"], entry=True, declared=declared)
            )
        if "unevaluatedProperties" in schema:
            extra = schema["unevaluatedProperties"]
            compiled = None if extra is False else self.compile(extra, entry=True, declared=declared)
            return unevaluated_check(node, compiled, self.listed(schema))
        return node

    def listed(self, schema: Mapping[str, Any]) -> Callable[[], tuple[list[str], bool]]:
        """The property names the schema lists in place (for an ``unknown_property`` error's words), and whether
        patterns or additional properties in place take other names too."""
        memo: list[tuple[list[str], bool]] = []

        def names() -> tuple[list[str], bool]:
            if not memo:
                found: dict[str, None] = {}
                loose = False
                for node in in_place_closure(schema, self.resolve):
                    found.update(dict.fromkeys(node.get("properties") or ()))
                    loose = loose or "patternProperties" in node or node.get("additionalProperties", False) is not False
                memo.append((list(found), loose))
            return memo[0]

        return names

    # -- objects ----------------------------------------------------------------------------------
    def object(self, schema: Mapping[str, Any], declared: bool) -> Check:
        properties = dict(schema.get("properties") or {})
        read_only = {name for name, sub in properties.items() if _read_only(self.unwrap(sub))}
        if read_only and isinstance(schema.get("required"), list):
            # a request never carries read-only properties, and the declaration does not offer them
            schema = {**schema, "required": [name for name in schema["required"] if name not in read_only]}
        children: dict[str, Check] = {}
        for name, sub in properties.items():
            children[name] = self.lazy(children, name, sub, declared)
        nullable: dict[str, bool] = {}

        def is_nullable(name: str) -> bool:
            if name not in nullable:
                found = schema_types(properties[name], self.resolve)
                nullable[name] = found is None or "null" in found
            return nullable[name]

        additional = schema.get("additionalProperties", OPEN)
        if additional is OPEN:
            extra = OPEN
        else:
            extra = None if additional is False else self.compile(additional, entry=True, declared=declared)
        patterns = [
            (p, searcher(compile_pattern(p)), self.compile(sub, entry=True, declared=declared))
            for p, sub in (schema.get("patternProperties") or {}).items()
        ]
        names = schema.get("propertyNames")
        names_check = self.compile(names, entry=True, declared=False) if names is not None else None
        defaults = {name: default_of(sub, self.resolve) for name, sub in properties.items()}
        defaults = {name: value for name, value in defaults.items() if value is not NO_DEFAULT and json_value(value)}
        fast, shortcut, resolve = None, self.shortcut, self.resolve
        if shortcut is not None and not patterns and names_check is None:
            fast = shortcut_table(properties, lambda sub: shortcut(sub, resolve))
        return object_check(schema, children, is_nullable, defaults, extra, patterns, self.options, fast,
                            self.unwrap, names_check)  # fmt: skip

    def unwrap(self, schema: Any) -> Any:
        """The schema behind a ``$ref`` (siblings kept), for phrases about a property as a whole."""
        return core(schema, self.resolve)[0] if isinstance(schema, Mapping) and "$ref" in schema else schema

    def lazy(self, table: dict[str, Check], key: str, schema: Any, declared: bool) -> Check:
        """A stand-in that compiles ``schema`` on first use and puts the result in ``table[key]``.

        Large API schemas (a Kubernetes body is thousands of nodes) are compiled only as far as the data
        actually reaches, so the first call stays cheap. A schema that cannot be compiled raises the same
        error on every use.
        """

        def first_use(value: Any, loc: Loc, run: Run) -> Any:
            try:
                real = self.compile(schema, entry=True, declared=declared)
            except ToolkitError as error:
                real = raising(error)
            table[key] = real
            return real(value, loc, run)

        return first_use

    # -- arrays -----------------------------------------------------------------------------------
    def array(self, schema: Mapping[str, Any], description: str | None, declared: bool) -> Check:
        prefix = tuple(self.compile(s, entry=True, declared=declared) for s in schema.get("prefixItems") or [])
        items = self.compile(schema["items"], entry=True, declared=declared) if "items" in schema else None
        contains = self.compile(schema["contains"], entry=True, declared=declared) if "contains" in schema else None
        return array_check(schema, prefix, items, contains, description)


def _null_only(schema: Any) -> bool:
    """``{type: null}`` with nothing else the validator reads."""
    return (
        isinstance(schema, Mapping)
        and schema.get("type") == "null"
        and all(key == "type" or key not in VALIDATION_KEYWORDS for key in schema)
    )


def _read_only(schema: Any) -> bool:
    return isinstance(schema, Mapping) and schema.get("readOnly") is True


def compile_schema(schema: Mapping[str, Any], options: Options, shortcut: Shortcut | None = None) -> Check:
    """Compile ``schema`` (a full 2020-12 document, ``$defs`` inside) into one check for its root; with
    ``shortcut``, each object check first tries its properties' shortcuts (see :data:`Shortcut`).

    Every reference the schema can reach is read first (:func:`toolkit._schema.check_references`), so a bad one
    raises on the first call whatever the arguments, with the slug every stage uses; a left-recursive schema
    is refused with ``SchemaError(slug="left_recursive_ref")``: its meaning is undefined, so no answer would
    be right.
    """
    compiler = _Compiler(schema, options, shortcut)
    check_references(schema, compiler.resolve)
    return compiler.compile(schema, entry=True)


def property_checks(
    root: Mapping[str, Any], properties: Mapping[str, Any], options: Options
) -> tuple[dict[str, Check], Callable[[Mapping[str, Any], str | None], list[Check]]]:
    """The checks of the root object's ``properties`` as its object check compiles them (each value entered, the
    declared strings read), each compiled on first use; and the maker of a node's keyword checks beside its
    ``type`` (``_Compiler.scalars``). Call it only with a ``root`` :func:`compile_schema` accepted."""
    compiler = _Compiler(root, options)
    table: dict[str, Check] = {}
    for name, sub in properties.items():
        table[name] = compiler.lazy(table, name, sub, True)
    return table, compiler.scalars
