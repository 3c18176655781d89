"""Array keywords: prefixItems, items, contains (with minContains/maxContains), counts, uniqueItems, unevaluatedItems.

Which indices an array schema **evaluated** (``prefixItems`` the first ones, ``items`` the rest, ``contains``
the ones it matched) is recorded on the run when someone asks: :func:`unevaluated_items_check` reads it.
``uniqueItems`` compares with JSON equality (``[1]`` and ``[1.0]`` are equal; see
:func:`~toolkit._validation._checks.json_key`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkit._validation._checks import ITEM_WORDS, MAX_DEPTH, Check, Run, json_key
from toolkit._validation._expected import Loc, clause, describe

__all__ = ["array_check", "unevaluated_items_check"]


def array_check(
    schema: Mapping[str, Any],
    prefix: tuple[Check, ...],
    items: Check | None,
    contains: Check | None,
    description: str | None,
) -> Check:
    """One closure for an array schema's keywords (``items`` is ``None`` when the schema has none)."""
    low, high = schema.get("minItems", 0), schema.get("maxItems")
    unique = schema.get("uniqueItems") is True
    least, most = schema.get("minContains", 1), schema.get("maxContains")
    width = len(prefix)

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
        collected_props, collected = run.props, run.items
        run.props = run.items = None  # the items themselves are other instances
        run.depth += 1
        out = value[:]
        for i in range(min(width, len(out))):
            out[i] = prefix[i](out[i], (loc, i), run)
        if items is not None:
            for i in range(width, len(out)):
                out[i] = items(out[i], (loc, i), run)
        found = _matches(value, contains, loc, run) if contains is not None else []
        run.depth -= 1
        run.props, run.items = collected_props, collected
        if collected is not None:
            collected.update(range(len(value) if items is not None else min(width, len(value))))
            collected.update(found)
        n = len(value)
        if n < low:
            run.error(loc, "too_few_items", f"{n} items, too few", expected_count())
        if high is not None and n > high:
            run.error(loc, "too_many_items", f"{n} items, too many", expected_count())
        if unique:
            _check_unique(value, loc, run)
        if contains is not None:
            wanted = f"items including {describe(schema['contains'])}"
            if len(found) < least:
                run.error(loc, "too_few_items", f"{len(found)} matching items, too few", wanted)
            elif most is not None and len(found) > most:
                run.error(loc, "too_many_items", f"{len(found)} matching items, too many", f"at most {most} {wanted}")
        return out

    return check


def _matches(items: list[Any], contains: Check, loc: Loc, run: Run) -> list[int]:
    found: list[int] = []
    for i, item in enumerate(items):
        probe = run.probe(in_place=False)
        contains(item, (loc, i), probe)
        if not probe.errors:
            found.append(i)
    return found


def _check_unique(items: list[Any], loc: Loc, run: Run) -> None:
    seen: dict[Any, int] = {}
    for i, item in enumerate(items):
        key = json_key(item)
        if key in seen:
            run.error(loc, "duplicate_items", f"items {seen[key]} and {i} are equal", "items without duplicates")
            return
        seen[key] = i


def unevaluated_items_check(inner: Check, extra: Check) -> Check:
    """``unevaluatedItems``: the items that no ``prefixItems``, ``items`` or ``contains`` evaluated in place."""

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if type(value) is not list:
            return inner(value, loc, run)
        collected = run.items
        seen: set[int] = set()
        run.items = seen
        out = inner(value, loc, run)
        run.items = collected
        rest = [i for i in range(len(value)) if i not in seen]
        if rest and type(out) is list:
            out = out[:]
            props, run.props, run.items = run.props, None, None
            for i in rest:
                out[i] = extra(out[i], (loc, i), run)
            run.props, run.items = props, collected
        if collected is not None:
            collected.update(range(len(value)))
        return out

    return check
