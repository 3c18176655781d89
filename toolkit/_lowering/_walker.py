"""The generic JSON Schema 2020-12 walker: one small method per keyword, exhaustive dispatch.

:class:`Walker` reads one input schema and builds a *draft* (see :mod:`toolkit._lowering._merge`): a dict in
the target subset's vocabulary that still records where each node came from. A dialect subclass turns the
draft into its final form with :meth:`Walker.finish`. Every keyword of JSON Schema 2020-12 (plus the
OpenAPI 3.0 leftovers ``nullable``, ``example``, ``discriminator``, ``xml``, ``externalDocs``) is listed in
:data:`KEYWORDS` with the name of the method that handles it; building a walker class without one of
those methods raises ``TypeError`` at import time, so a keyword can never be forgotten.

Decisions a reader should know:

* ``$ref`` is inlined. References are read by :mod:`toolkit._schema` (local JSON pointers only, never
  fetched), so they fail with its slugs: ``remote_ref``, ``unresolved_ref``, ``bad_ref``, and
  ``left_recursive_ref`` for a cycle that never reads into the value (the validator refuses such a schema
  too: it has no meaning). More than ``max_depth`` nested references on one path are cut: the node keeps
  only the target's type and a :class:`~toolkit.Loss` says so (this is how recursive schemas end). What a
  cut, a nesting cut or a dropped keyword the validator enforces (``not``, ``if``, ``additionalProperties``
  ...) leaves unread is still checked by :func:`toolkit._schema.check_references`, so lowering refuses
  exactly the references validation refuses. Losses inside a referenced definition point at the
  definition (``/$defs/Name/...``) and are reported once.
* Plain nesting deeper than ``max_nesting`` levels is cut the same way (no ``RecursionError``).
* Inlining can grow exponentially (a definition that refers to another one ten times, eight levels deep).
  Each top-level parameter may visit at most ``max_nodes`` input nodes; a parameter that needs more is
  lowered again with half the reference depth (8, 4, 2, 1, 0) and a loss records the depth it got. The
  budget is per parameter, so one parameter's result never depends on its siblings. Anything else that
  grows past the budget raises ``SchemaError`` (slug ``schema_too_large``).
* Because a top-level parameter is lowered on its own, the tools of one document can share the work: given a
  :class:`~toolkit._lowering._shared.Memo`, each shared parameter (and each reference inlined inside one) is
  lowered once and replayed after, with exactly the same result, losses and budget (:mod:`._shared`).
* Keywords that never constrain a value and have no place in a declaration are consumed without a loss:
  ``title`` (pydantic puts one on every field), ``$schema``, ``$id``, ``$anchor``, ``$dynamicAnchor``,
  ``$vocabulary``, ``$defs``/``definitions`` (inlined where referenced) and vendor extensions ``x-*``.
  Everything else that is not carried is reported.
* A malformed keyword value (``minLength: "3"``, ``type: "str"``, ``properties: []``) raises
  ``SchemaError`` (slug ``bad_keyword``): the input is not JSON Schema, and guessing would hide it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import islice
from typing import Any, ClassVar, NamedTuple

from toolkit._contract import Loss
from toolkit._exceptions import SchemaError
from toolkit._lowering._keywords import (
    KEYWORDS,
    LATE,
    REASONS,
    TYPES,
    bad,
    count,
    integer_bound,
    json_type,
    number,
)
from toolkit._lowering._merge import Draft, copy_draft, merge_into, only_null, union_into
from toolkit._lowering._shared import Memo, finish_parameter, walk_parameter, walk_reference
from toolkit._schema import SHAREABLE_ROOT, Refs, check_references, escape

__all__ = ["Site", "Walker"]

KeywordMethod = Callable[["Walker", str, Any, "Site"], None]


WORK_FACTOR = 10
_LATE = frozenset(LATE)


class _TooLarge(SchemaError):
    """Raised inside the walker when a node budget runs out; callers may retry with a smaller depth."""


class Site(NamedTuple):
    """Where a keyword method works: the input node, its JSON pointer, its nesting level and its draft."""

    schema: Mapping[str, Any]
    path: str
    nesting: int
    out: Draft


class Walker:
    """Walks one schema into a draft tree; a dialect subclass finishes each node (:meth:`finish_node`, the hook
    it overrides besides :meth:`keep_format` and keyword methods). Single use, hidden by ``lower``. Given
    ``origins``, the walk is a declaration budget's probe (see :func:`toolkit._lowering._reductions._probe`)."""

    dispatch: ClassVar[dict[str, KeywordMethod]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.dispatch = _build_dispatch(cls)

    def __init__(
        self,
        root: Mapping[str, Any],
        *,
        max_depth: int,
        max_nesting: int,
        max_nodes: int,
        memo: Memo | None = None,
        origins: dict[int, str] | None = None,
    ) -> None:
        if not isinstance(root, Mapping):
            raise SchemaError(f"a schema must be a JSON object, got {type(root).__name__}", slug="bad_schema")
        self.root = root
        self.max_depth = max_depth
        self.max_nesting = max_nesting
        self.max_nodes = max_nodes
        self.nodes = 0
        self.work = 0
        self.max_work = max_nodes * WORK_FACTOR
        self.in_parameter = False
        self.document = Refs(root)
        self.inlining: list[tuple[str, int]] = []
        """The references being inlined on the current path: target pointer, and ``reads`` when entered."""
        self.reads = 0
        """How many ``properties`` / ``items`` steps into the value the current path has taken."""
        self.deepest = self.reach = 0  # the deepest nesting read; the most references inlined where one was met
        self.checked: dict[int, int] = {}
        self.losses: dict[tuple[str, str, str], Loss] = {}
        self.memo = memo if memo is not None and root.keys() <= SHAREABLE_ROOT else None
        self.references = memo  # the referenced schemas inlined inside a parameter are shared under any root
        self.located: dict[Any, Any] | None = None
        """While a shared parameter is walked: the references it read, with their targets."""
        self.origins = origins

    # -- hooks for dialects ------------------------------------------------------------------------------
    def keep_format(self, value: str) -> bool:
        return True

    def finish_node(self, draft: Draft) -> dict[str, Any]:
        """Turn one draft node into the dialect's form as a new node (its children through :meth:`finish`)."""
        raise NotImplementedError

    # -- driving ---------------------------------------------------------------------------------------
    def finish(self, draft: Draft) -> dict[str, Any]:
        """Finish a draft: a shared parameter's through the memo (once per document), any other by the hook."""
        origins = self.origins
        if origins is None:
            return finish_parameter(self, draft) if "$shared" in draft else self.finish_node(draft)
        path = draft.get("$path", "")
        out = finish_parameter(self, draft) if "$shared" in draft else self.finish_node(draft)
        origins[id(out)] = path  # every node of the result is finished last as itself
        return out

    def run(self) -> tuple[dict[str, Any], tuple[Loss, ...]]:
        schema = self.finish(self.node(self.root, "", 0))
        return schema, tuple(self.losses.values())

    def spend(self) -> None:
        """Count one unit of work (a node read or finished); the whole lowering gets ``WORK_FACTOR`` budgets."""
        self.work += 1
        if self.work > self.max_work:
            raise SchemaError(
                f"lowering this schema needs more than {self.max_work} steps; it inlines too much "
                "(self-references through anyOf or allOf at the top level?): split it or lower max_depth",
                slug="schema_too_large",
            )

    def lose(self, path: str, keyword: str, value: Any, reason: str) -> None:
        key = (path, keyword, reason)
        if key not in self.losses:
            self.losses[key] = Loss(path, keyword, value, reason)

    def node(self, schema: Any, path: str, nesting: int) -> Draft:
        """Lower one schema node (and everything under it) into a draft."""
        out: Draft = {"$path": path}
        if schema is True:
            return out
        if schema is False:
            self.lose(path, "false", False, "the false schema accepts nothing; the subset cannot say so")
            return out
        if schema.__class__ is not dict and not isinstance(schema, Mapping):  # dict first: ABC checks are slow
            raise SchemaError(
                f"the schema at {path or 'the root'} is a {type(schema).__name__}; "
                "a schema must be an object or a boolean",
                slug="bad_schema",
            )
        if nesting > self.deepest:
            self.deepest = nesting
        if nesting > self.max_nesting:
            self.check(schema, path)
            self.lose(path, "", "...", f"nesting deeper than {self.max_nesting} levels is cut here")
            return out
        self.nodes += 1
        self.work += 1
        if self.work > self.max_work:
            self.spend()
        if self.nodes > self.max_nodes:
            raise _TooLarge(
                f"the schema at {path or 'the root'} inlines to more than {self.max_nodes} nodes even without "
                "inlining references; split it into smaller parameters",
                slug="schema_too_large",
            )
        site = Site(schema, path, nesting, out)
        dispatch = self.dispatch
        late = False
        for key, value in schema.items():
            if key in _LATE:
                late = True
                continue
            method = dispatch.get(key)
            if method is not None:
                method(self, key, value, site)
            elif not (isinstance(key, str) and key.startswith("x-")):
                self.lose(path, str(key), value, "not a JSON Schema 2020-12 keyword the subset carries")
        if late:
            for key in LATE:
                if key in schema:
                    dispatch[key](self, key, schema[key], site)
        return out

    # -- carried keywords ------------------------------------------------------------------------------
    def kw_type(self, key: str, value: Any, site: Site) -> None:
        if value.__class__ is str and value in TYPES:  # the common case, fast
            site.out["type"] = TYPES[value]
            return
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, list) or not names or any(not isinstance(n, str) or n not in TYPES for n in names):
            raise bad(site.path, key, f"is {value!r}; use one of {sorted(TYPES)} or a non-empty list of them")
        kinds = list(dict.fromkeys(TYPES[name] for name in names if name != "null"))
        if "INTEGER" in kinds and "NUMBER" in kinds:
            kinds.remove("INTEGER")
        nullable = "null" in names
        if not kinds:
            site.out["type"] = "NULL"
        elif len(kinds) == 1:
            site.out["type"] = kinds[0]
            if nullable:
                site.out["nullable"] = True
        else:
            site.out["anyOf"] = [
                {"$path": site.path, "type": kind, "nullable": True} if nullable else {"$path": site.path, "type": kind}
                for kind in kinds
            ]

    def kw_nullable(self, key: str, value: Any, site: Site) -> None:
        if not isinstance(value, bool):
            raise bad(site.path, key, f"is {value!r}; use true or false")
        if value:
            site.out["nullable"] = True

    def kw_enum(self, key: str, value: Any, site: Site) -> None:
        if not isinstance(value, list):
            raise bad(site.path, key, f"is a {type(value).__name__}; use a list of values")
        if not value:
            self.lose(site.path, key, value, "an empty enum accepts nothing; the subset cannot say so")
            return
        site.out["enum"] = list(value)

    def kw_const(self, key: str, value: Any, site: Site) -> None:
        out = site.out
        if "enum" in out and value not in out["enum"]:
            self.lose(site.path, "enum", out["enum"], "const is not among the enum values; the const is kept")
        if isinstance(value, str):
            out["enum"] = [value]
            out.setdefault("type", "STRING")
            return
        if value is None:
            out["type"] = "NULL"
            self.lose(site.path, key, value, "the subset has no null type: const null is sent as a nullable STRING")
            return
        out["enum"] = [value]  # the dialect decides how a non-string value travels
        out["$const"] = True
        if "type" not in out and "anyOf" not in out:
            out["type"] = json_type(value)

    def kw_description(self, key: str, value: Any, site: Site) -> None:
        if not isinstance(value, str):
            raise bad(site.path, key, f"is a {type(value).__name__}; use a string")
        site.out["description"] = value

    def kw_default(self, key: str, value: Any, site: Site) -> None:
        site.out["default"] = copy_draft(value)  # the output never shares containers with the input

    def kw_format(self, key: str, value: Any, site: Site) -> None:
        if not isinstance(value, str):
            raise bad(site.path, key, f"is a {type(value).__name__}; use a string")
        if self.keep_format(value):
            site.out["format"] = value
        else:
            self.lose(site.path, key, value, f"format {value!r} is not one the subset documents")

    def kw_pattern(self, key: str, value: Any, site: Site) -> None:
        if not isinstance(value, str):
            raise bad(site.path, key, f"is a {type(value).__name__}; use a regular expression string")
        site.out["pattern"] = value

    def kw_bound(self, key: str, value: Any, site: Site) -> None:
        site.out[key] = number(value, site.path, key)
        exact = integer_bound(site.schema, key, site.path)
        if exact is not None:  # an integer with an exclusive bound beside: the tighter one, exactly
            site.out[key] = exact

    def kw_count(self, key: str, value: Any, site: Site) -> None:
        site.out[key] = count(value, site.path, key)

    def kw_properties(self, key: str, value: Any, site: Site) -> None:
        if value.__class__ is not dict and not isinstance(value, Mapping):
            raise bad(site.path, key, f"is a {type(value).__name__}; use an object of schemas")
        properties: dict[str, Draft] = {}
        for name, sub in value.items():
            where = f"{site.path}/properties/{escape(name) if isinstance(name, str) else escape(str(name))}"
            self.reads += 1
            try:
                if self.in_parameter:
                    draft = self.node(sub, where, site.nesting + 1)
                elif self.memo is not None and site.schema is self.root:
                    draft = walk_parameter(self, sub, where)
                else:
                    draft = self.parameter(sub, where, site.nesting + 1)
            finally:
                self.reads -= 1
            if draft.pop("$readOnly", False):
                self.lose(where, "readOnly", True, "a read-only property is not offered to the model")
                site.out.setdefault("$readOnlyNames", []).append(str(name))
            else:
                properties[str(name)] = draft
        site.out["properties"] = properties

    def kw_required(self, key: str, value: Any, site: Site) -> None:
        if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
            raise bad(site.path, key, f"is {value!r}; use a list of property names")
        if value:  # an empty list requires nothing: there is nothing to carry
            site.out["required"] = list(dict.fromkeys(value))

    def kw_items(self, key: str, value: Any, site: Site) -> None:
        if isinstance(value, list):  # draft-07 tuple form
            self.kw_prefix_items(key, value, site)
        elif value is False and "prefixItems" in site.schema:
            return  # closes the tuple; reported with prefixItems
        else:
            site.out["items"] = self.part(value, f"{site.path}/items", site.nesting + 1)

    def kw_property_ordering(self, key: str, value: Any, site: Site) -> None:
        if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
            raise bad(site.path, key, f"is {value!r}; use a list of property names")
        site.out["propertyOrdering"] = list(value)

    def kw_read_only(self, key: str, value: Any, site: Site) -> None:
        if value is True:
            site.out["$readOnly"] = True

    # -- rewritten keywords ----------------------------------------------------------------------------
    def kw_exclusive_bound(self, key: str, value: Any, site: Site) -> None:
        inclusive = "minimum" if key == "exclusiveMinimum" else "maximum"
        exact = None if isinstance(value, bool) else integer_bound(site.schema, inclusive, site.path)
        if exact is not None:  # integers: > 0 is exactly >= 1, nothing lost
            site.out[inclusive] = exact
            return
        if isinstance(value, bool) or inclusive in site.schema:
            self.lose(site.path, key, value, "the subset has only inclusive bounds")
            return
        site.out[inclusive] = number(value, site.path, key)
        self.lose(site.path, key, value, f"sent as the inclusive {inclusive}; the bound itself is not allowed")

    def kw_prefix_items(self, key: str, value: Any, site: Site) -> None:
        if not isinstance(value, list):
            raise bad(site.path, key, f"is a {type(value).__name__}; use a list of schemas")
        path, nesting = site.path, site.nesting
        rest = site.schema.get("items", False)
        if key == "prefixItems" and (rest is True or isinstance(rest, Mapping)):
            for index, sub in enumerate(value):
                self.check(sub, f"{path}/{key}/{index}")
            self.lose(path, key, value, "positional item schemas are not sent; every item is sent as items")
            return
        self.lose(path, key, value, "positional item schemas are sent as one anyOf for every item")
        branches = [self.part(sub, f"{path}/{key}/{index}", nesting + 1) for index, sub in enumerate(value)]
        if branches:
            site.out["items"] = branches[0] if len(branches) == 1 else {"$path": path, "anyOf": branches}

    def kw_ref(self, key: str, value: Any, site: Site) -> None:
        where, target = self.document.locate(value, site.path)
        if self.located is not None:
            self.located[value] = target
        if len(self.inlining) > self.reach:
            self.reach = len(self.inlining)
        for pointer, reads in reversed(self.inlining):
            if pointer == where:
                if reads == self.reads:  # back at a reference being inlined, without reading into the value
                    self.check(target, where)
                break
        if len(self.inlining) >= self.max_depth:
            self.check(target, where)
            kind = target.get("type") if isinstance(target, Mapping) else None
            cut: Draft = {"$path": where}
            if isinstance(kind, str) and kind in TYPES:
                cut["type"] = TYPES[kind]
            self.lose(site.path, key, value, f"inlining stops after {self.max_depth} nested references")
            merge_into(site.out, cut, site.path, self.lose)
            return
        self.inlining.append((where, self.reads))
        try:
            if self.in_parameter and self.references is not None:
                draft = walk_reference(self, target, where, site.nesting + 1)
            else:
                draft = self.node(target, where, site.nesting + 1)
        finally:
            self.inlining.pop()
        adopt(site, key, draft)
        merge_into(site.out, draft, site.path, self.lose)

    def kw_all_of(self, key: str, value: Any, site: Site) -> None:
        for draft in self.branches(key, value, site):
            merge_into(site.out, draft, site.path, self.lose)

    def kw_any_of(self, key: str, value: Any, site: Site) -> None:
        self.union(self.branches(key, value, site), site)

    def kw_one_of(self, key: str, value: Any, site: Site) -> None:
        branches = self.branches(key, value, site)
        if sum(1 for draft in branches if not only_null(draft)) > 1:
            self.lose(site.path, key, value, REASONS["oneOf"])
        self.union(branches, site)

    # -- dropped keywords ------------------------------------------------------------------------------
    def kw_silent(self, key: str, value: Any, site: Site) -> None:
        return

    def kw_unsupported(self, key: str, value: Any, site: Site) -> None:
        if key in _VALIDATED_ONE and (key != "if" or "then" in site.schema or "else" in site.schema):
            self.check(value, f"{site.path}/{key}")
        elif key == "patternProperties" and isinstance(value, Mapping):
            for pattern, sub in value.items():
                self.check(sub, f"{site.path}/{key}/{escape(str(pattern))}")
        self.lose(site.path, key, value, REASONS.get(key, "the subset has no such keyword"))

    # -- shared steps ----------------------------------------------------------------------------------
    def part(self, schema: Any, path: str, nesting: int) -> Draft:
        """Lower a subschema that reads a part of the value (an item), not the value itself."""
        self.reads += 1
        try:
            return self.node(schema, path, nesting)
        finally:
            self.reads -= 1

    def check(self, schema: Any, path: str) -> None:
        """Read the references of a subschema that lowering does not walk, and refuse left recursion there
        (the validator enforces it, so it must be readable); each node once per lowering, none in a probe."""
        if self.origins is not None:
            return
        check_references(schema, self.document, self.checked, f"#{path}")

    def parameter(self, schema: Any, path: str, nesting: int) -> Draft:
        """Lower one top-level property within its own node budget, halving the reference depth until it fits."""
        limit, mark, depth = self.max_depth, len(self.losses), self.max_depth
        while True:
            self.nodes, self.max_depth, self.in_parameter = 0, depth, True
            try:
                draft = self.node(schema, path, nesting)
                break
            except _TooLarge:
                if depth == 0:
                    raise
                self.losses = dict(islice(self.losses.items(), mark))
                depth //= 2
            finally:
                self.max_depth, self.in_parameter = limit, False
        if depth < limit:
            reason = f"references inlined only {depth} deep to stay under {self.max_nodes} schema nodes"
            self.lose(path, "$ref", depth, reason)
        return draft

    def branches(self, key: str, value: Any, site: Site) -> list[Draft]:
        if not isinstance(value, list) or not value:
            raise bad(site.path, key, f"is {value!r}; use a non-empty list of schemas")
        path, nesting = site.path, site.nesting
        return [self.node(sub, f"{path}/{key}/{index}", nesting + 1) for index, sub in enumerate(value)]

    def union(self, branches: list[Draft], site: Site) -> None:
        """Attach ``anyOf`` branches (see :func:`~toolkit._lowering._merge.union_into`); a single one is adopted."""
        key = "anyOf" if "anyOf" in site.schema else "oneOf"
        union_into(site.out, branches, site.path, self.lose, lambda draft: adopt(site, key, draft))


_VALIDATED_ONE = frozenset({"not", "if", "then", "else", "additionalProperties", "contains"})
"""Dropped keywords whose subschema the validator still enforces (so its references must be readable)."""


def adopt(site: Site, key: str, draft: Draft) -> None:
    """A node that says nothing but ``key`` *is* what it refers to: report its losses at the definition."""
    if len(site.out) == 1 and all(name == key or KEYWORDS.get(name) == "silent" for name in site.schema):
        site.out["$path"] = draft["$path"]


def _build_dispatch(cls: type[Walker]) -> dict[str, KeywordMethod]:
    """Map every keyword to its method; a missing method is a programming error caught at import time."""
    table: dict[str, KeywordMethod] = {}
    for keyword, name in KEYWORDS.items():
        method = getattr(cls, f"kw_{name}", None)
        if method is None:
            raise TypeError(f"{cls.__name__} has no method kw_{name} for the JSON Schema keyword {keyword!r}")
        table[keyword] = method
    return table


Walker.dispatch = _build_dispatch(Walker)
