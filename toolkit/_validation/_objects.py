"""Object keywords: properties, patternProperties, additional and unevaluated properties, names, counts, defaults.

This is where most of the boundary's policies live:

* the instance is validated **as sent**: an absent optional property with a ``default`` is recorded on the
  run and filled in only once the whole call is valid, reported as a ``defaulted`` notice (a ``null``
  default is applied silently: to the function, absent and null mean the same), so ``minProperties``,
  ``dependentRequired``, ``allOf`` or ``if`` never see a default;
* an explicit ``null`` for an optional property whose schema does not accept null is treated as absent
  (``null_optional="absent"``, reported as a ``null_as_absent`` notice, or ``defaulted`` when a default
  applies) or refused (``"reject"``: ``wrong_type``);
* ``patternProperties`` apply to every key they match, declared in ``properties`` or not; keys neither
  declared nor matched meet ``additionalProperties`` (``false``: ``unknown_property``);
* which keys an object schema **evaluated** (declared, matched, or taken by ``additionalProperties``) is
  recorded on the run when someone asks: :func:`unevaluated_check` reads it for ``unevaluatedProperties``
  (which the closed-object policy, ``Policy.unlisted_properties``, writes into the schema).

The cleaned object is a new dict in the data's own key order; defaults follow, in schema order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from toolkit._canonical import json_copy
from toolkit._schema import REFERENCES, reachable, silent_on_unlisted
from toolkit._validation._checks import MAX_DEPTH, Check, Run, Search, short, slow_problem
from toolkit._validation._expected import Loc, describe, once

if TYPE_CHECKING:
    from toolkit._validation._compile import Options

__all__ = [
    "OPEN",
    "apply_defaults",
    "dependent_schemas_check",
    "in_place_closure",
    "in_place_steps",
    "object_check",
    "refuses_unlisted",
    "shortcut_table",
    "unevaluated_check",
]

OPEN: Any = object()
"""``additionalProperties`` is absent: unlisted keys pass through, not evaluated (a closing wrapper may refuse them)."""

PatternNode = tuple[str, Search, Check]
Predicate = Callable[[Any], bool]


def known_list(names: list[str]) -> str:
    shown = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
    return f"only the declared fields: {shown}" if names else "no fields"


def _unknown(run: Run, loc: Loc, key: str, known: Callable[[], str]) -> None:
    """``key`` is not allowed; ``known`` gives the words that list the declared fields (built once)."""
    if run.full:
        run.more += 1
    else:
        run.error((loc, key), "unknown_property", f"unknown property {short(key)}", known())


def object_check(
    schema: Mapping[str, Any],
    children: dict[str, Check],
    is_nullable: Callable[[str], bool],
    defaults: dict[str, Any],
    extra: Check | None,
    patterns: list[PatternNode],
    options: Options,
    fast: dict[str, Predicate] | None = None,
    unwrap: Callable[[Any], Any] | None = None,
    names: Check | None = None,
) -> Check:
    """One closure for an object schema; see the module docstring for the policies it applies.

    ``extra`` is the compiled ``additionalProperties``: ``None`` for ``false``, :data:`OPEN` when absent.
    """
    properties: Mapping[str, Any] = schema.get("properties") or {}
    required = tuple(r for r in schema.get("required") or () if isinstance(r, str))
    required_set = frozenset(required)
    defaults = {k: v for k, v in defaults.items() if k not in required_set}
    low, high = schema.get("minProperties", 0), schema.get("maxProperties")
    dependent = schema.get("dependentRequired") or {}
    null_as_absent = options.null_as_absent
    quick = {} if patterns or names is not None else fast or {}  # the table's own: its stand-ins fill it
    counted = bool(low or high is not None or dependent)
    declared = list(children)
    known = once(lambda: known_list(declared))
    missing_phrase: dict[str, str] = {}

    def missing(key: str) -> str:
        if key not in missing_phrase:
            missing_phrase[key] = describe(unwrap(properties.get(key)) if unwrap else properties.get(key))
        return missing_phrase[key]

    def matched(key: str, value: Any, loc: Loc, run: Run, out: dict[str, Any]) -> bool:
        hit = False
        for pattern, search, node in patterns:
            found = search(key, run)
            if found is None:
                run.error((loc, key), "pattern_too_slow", slow_problem(pattern, key), "a shorter property name")
            elif found:
                out[key] = node(out.get(key, value), (loc, key), run)
                hit = True
        return hit

    def other(key: str, value: Any, loc: Loc, run: Run, out: dict[str, Any]) -> bool:
        """A key no property declares: patterns, then additionalProperties. True when evaluated."""
        if patterns and matched(key, value, loc, run, out):
            return True
        if extra is OPEN:
            out[key] = value
            return False
        if extra is None:
            _unknown(run, loc, key, known)
            return True
        out[key] = extra(value, (loc, key), run)
        return True

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if type(value) is not dict:
            return value
        if run.depth >= MAX_DEPTH:
            run.error(loc, "too_deep", f"nested deeper than {MAX_DEPTH} levels", "flatter data")
            return value
        collected, items = run.props, run.items
        run.props = run.items = None  # the properties' own values are other instances
        run.depth += 1
        out: dict[str, Any] = {}
        dropped: list[str] | None = None
        unevaluated: list[str] | None = None
        undeclared = 0
        for key, item in value.items():
            accept = quick.get(key)
            if accept is not None and accept(item):  # simple value, valid and unchanged: the common case
                out[key] = item[:] if type(item) is list else item
                continue
            child = children.get(key)
            if child is None:
                undeclared += 1
                if not other(key, item, loc, run, out):
                    unevaluated = [*(unevaluated or ()), key]
            elif item is None and null_as_absent and key not in required_set and not is_nullable(key):
                dropped = [*(dropped or ()), key]
            else:
                out[key] = child(item, (loc, key), run)
                if patterns:
                    matched(key, out[key], loc, run, out)
            if names is not None:
                _check_name(names, key, loc, run)
        run.depth -= 1
        run.props, run.items = collected, items
        if collected is not None:
            collected.update(value if unevaluated is None else (k for k in value if k not in unevaluated))
        for key in required:
            if key not in value:
                run.error((loc, key), "missing", "missing required field", missing(key))
        if dropped or len(value) - undeclared < len(children):  # a declared property is absent
            _record_defaults(value, defaults, dropped or [], loc, run)
        if counted:
            _count_checks(value, dropped or [], low, high, dependent, loc, run)
        return out

    return check


def shortcut_table(properties: Mapping[str, Any], make: Callable[[Any], Predicate | None]) -> dict[str, Predicate]:
    """Each property's shortcut for :func:`object_check` (``make`` of its schema: see
    :data:`~toolkit._validation._compile.Shortcut`), made when its key is first met; a property that has none
    leaves the table then."""
    table: dict[str, Predicate] = {}

    def stand_in(name: str, sub: Any) -> Predicate:
        def first_use(value: Any) -> bool:
            found = make(sub)
            if found is None:
                table.pop(name, None)
                return False
            table[name] = found
            return found(value)

        return first_use

    for name, sub in properties.items():
        table[name] = stand_in(name, sub)
    return table


def _check_name(names: Check, key: str, loc: Loc, run: Run) -> None:
    """``propertyNames``: the key, as a string, must meet the schema."""
    probe = run.probe(in_place=False)
    names(key, (loc, key), probe)
    if probe.errors:
        first = probe.errors[0]
        run.error((loc, key), "bad_property_name", f"the name {short(key)} is not allowed: {first.problem}",
                  f"a property name that is {first.expected}")  # fmt: skip


def _record_defaults(value: dict[str, Any], defaults: dict[str, Any], dropped: list[str], loc: Loc, run: Run) -> None:
    """Defaults for the absent (or dropped) optional properties, filled in once the whole call is valid."""
    for key in dropped:
        run.defaults.append((loc, key, defaults.get(key, _NO_DEFAULT), True))
    for key, default in defaults.items():
        if key not in value:
            run.defaults.append((loc, key, default, False))


_NO_DEFAULT: Any = object()


def apply_defaults(cleaned: Any, pending: list[tuple[Loc, str, Any, bool]], run: Run) -> None:
    """Fill in the recorded defaults (the call is valid), each with its notice; a dropped null loses its key."""
    for loc, key, default, dropped in pending:
        target = _at(cleaned, loc)
        if type(target) is not dict:
            continue
        if dropped:
            target.pop(key, None)
            if default is _NO_DEFAULT:
                run.notice((loc, key), "null_as_absent", "null for an optional field read as absent", from_=None)
                continue
            target[key] = json_copy(default)
            run.notice((loc, key), "defaulted", "null for an optional field read as absent; default used",
                       from_=None, to=default)  # fmt: skip
        elif key not in target:
            target[key] = json_copy(default)
            if default is not None:  # a null default says "nothing": applying it is not news to the model
                run.notice((loc, key), "defaulted", "absent; default used", to=default)


def _at(cleaned: Any, loc: Loc) -> Any:
    keys: list[Any] = []
    while loc is not None:
        loc, key = loc
        keys.append(key)
    node = cleaned
    for key in reversed(keys):
        if (type(node) is dict and key in node) or (type(node) is list and type(key) is int and key < len(node)):
            node = node[key]
        else:
            return None
    return node


def _count_checks(
    value: dict[str, Any], dropped: list[str], low: int, high: int | None, dependent: Mapping[str, Any], loc: Loc,
    run: Run,
) -> None:  # fmt: skip
    n = len(value) - len(dropped)
    if n < low:
        run.error(loc, "too_few_properties", f"{n} fields, too few", f"at least {low} fields")
    if high is not None and n > high:
        run.error(loc, "too_many_properties", f"{n} fields, too many", f"at most {high} fields")
    for key, needs in dependent.items():
        if key in value and key not in dropped:
            for name in needs:
                if name not in value or name in dropped:
                    run.error((loc, name), "missing", f"required when {key} is given", describe(None) + f" ({name})")


def in_place_steps(node: Mapping[str, Any], resolve: Callable[[str], Any], conjunctive: bool = False) -> Iterator[Any]:
    """The schemas applied to the same value in place beside ``node``: through ``$ref``/``$dynamicRef``,
    ``allOf``/``anyOf``/``oneOf``, ``then``/``else`` and ``dependentSchemas`` (not ``if`` or ``not``);
    ``conjunctive``: only those that always apply with it (references and ``allOf``)."""
    yield from (resolve(node[key]) for key in REFERENCES if isinstance(node.get(key), str))
    for key in ("allOf",) if conjunctive else ("allOf", "anyOf", "oneOf"):
        yield from node[key] if isinstance(node.get(key), list) else ()
    if not conjunctive:
        yield from (node[key] for key in ("then", "else") if key in node)
        if isinstance(node.get("dependentSchemas"), Mapping):
            yield from node["dependentSchemas"].values()


def in_place_closure(schema: Any, resolve: Callable[[str], Any], conjunctive: bool = False) -> list[Mapping[str, Any]]:
    """``schema`` and every schema applied to the same value in place (see :func:`in_place_steps`)."""
    return list(reachable(schema, lambda node: in_place_steps(node, resolve, conjunctive)))


def refuses_unlisted(schema: Any, resolve: Callable[[str], Any], closed: bool) -> bool:
    """Whether an object entered at ``schema`` refuses a key no schema lists (an invented key): it says
    ``additionalProperties: false`` or ``unevaluatedProperties: false``, or ``closed`` (the policy) closes it."""
    if not isinstance(schema, Mapping):
        return schema is False
    if schema.get("additionalProperties") is False or schema.get("unevaluatedProperties") is False:
        return True
    if "additionalProperties" in schema or "unevaluatedProperties" in schema:
        return False
    return closed and any(silent_on_unlisted(node) for node in in_place_closure(schema, resolve))


def dependent_schemas_check(table: Mapping[str, Check]) -> Check:
    """``dependentSchemas``: each schema applies, in place, to an object that has its key."""
    pairs = tuple(table.items())

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if type(value) is dict:
            for key, node in pairs:
                if key in value:
                    value = node(value, loc, run)
        return value

    return check


def unevaluated_check(inner: Check, extra: Check | None, listed: Callable[[], tuple[list[str], bool]]) -> Check:
    """``unevaluatedProperties``: the keys nothing else evaluated.

    ``inner`` is the rest of the node; the keys it evaluated in place (declared or matched properties,
    ``additionalProperties``, and those of ``allOf`` members, matching ``anyOf``/``oneOf`` branches, ``$ref``,
    ``if``/``then``/``else`` and ``dependentSchemas``) are collected on the run. Every other key meets
    ``extra`` (``None``: ``unknown_property``). When ``inner`` already failed, a failed branch evaluated
    nothing, so only keys that no schema in place lists at all are reported (``listed`` gives those names,
    and whether patterns or additional properties make the list incomplete): the branch's own errors say the
    rest.
    """
    known = once(lambda: known_list(listed()[0]))

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if type(value) is not dict:
            return inner(value, loc, run)
        collected = run.props
        seen: set[str] = set()
        run.props = seen
        before = len(run.errors) + run.more
        out = inner(value, loc, run)
        run.props = collected
        rest = [key for key in value if key not in seen]
        if rest and len(run.errors) + run.more > before:
            names, loose = listed()
            rest = [] if loose else [key for key in rest if key not in names]
        if rest and type(out) is dict:
            if extra is None:
                for key in rest:
                    _unknown(run, loc, key, known)
            else:
                out = dict(out)
                items, run.props, run.items = run.items, None, None
                for key in rest:
                    if key in out:
                        out[key] = extra(out[key], (loc, key), run)
                run.items = items
        if collected is not None:
            collected.update(value)
        return out

    return check
