"""Object keywords: properties, required, unknown properties, defaults and explicit nulls.

This is where most of the boundary's policies live:

* an absent optional property with a ``default`` gets the default, reported as a ``defaulted`` notice (a
  ``null`` default is applied silently: to the function, absent and null mean the same);
* an explicit ``null`` for an optional property whose schema does not accept null is treated as absent
  (``null_optional="absent"``, reported as a ``null_as_absent`` notice, or ``defaulted`` when a default
  applies) or refused (``"reject"``: ``wrong_type``);
* properties the schema does not declare are ``unknown_property`` when ``additionalProperties`` is false.

The cleaned object is a new dict in the data's own key order, followed by defaults in schema order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from toolkit._canonical import json_copy
from toolkit._validation._checks import MAX_DEPTH, Check, Run, short
from toolkit._validation._expected import Loc, describe
from toolkit._validation._formats import ecma_regex

if TYPE_CHECKING:
    from toolkit._validation._compile import Options

__all__ = ["object_check"]

_UNSET = object()


def _known_list(names: list[str]) -> str:
    shown = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
    return f"only the declared fields: {shown}" if names else "no fields"


def object_check(
    schema: Mapping[str, Any],
    children: dict[str, Check],
    is_nullable: Callable[[str], bool],
    defaults: dict[str, Any],
    extra: Check | None,
    patterns: dict[str, Check],
    options: Options,
    fast: Mapping[str, Callable[[Any], bool]] | None = None,
    unwrap: Callable[[Any], Any] | None = None,
) -> Check:
    """One closure for an object schema; see the module docstring for the policies it applies."""
    properties: Mapping[str, Any] = schema.get("properties") or {}
    required = tuple(r for r in schema.get("required") or () if isinstance(r, str))
    required_set = frozenset(required)
    defaults = {k: v for k, v in defaults.items() if k not in required_set}
    compiled_patterns = [(regex, node) for p, node in patterns.items() if (regex := ecma_regex(p)) is not None]
    low, high = schema.get("minProperties", 0), schema.get("maxProperties")
    dependent = schema.get("dependentRequired") or {}
    null_as_absent = options.null_as_absent
    quick = dict(fast or {})
    counted = bool(low or high is not None or dependent)
    missing_phrase: dict[str, str] = {}

    def missing(key: str) -> str:
        if key not in missing_phrase:
            missing_phrase[key] = describe(unwrap(properties.get(key)) if unwrap else properties.get(key))
        return missing_phrase[key]

    def other(key: str, value: Any, loc: Loc, run: Run, out: dict[str, Any]) -> None:
        hit = False
        for regex, node in compiled_patterns:
            if regex.search(key):
                out[key] = node(value, (loc, key), run)
                hit = True
        if hit:
            return
        if extra is None:
            run.error((loc, key), "unknown_property", f"unknown property {short(key)}", _known_list(list(children)))
        else:
            out[key] = extra(value, (loc, key), run)

    def check(value: Any, loc: Loc, run: Run) -> Any:
        if type(value) is not dict:
            return value
        if run.depth >= MAX_DEPTH:
            run.error(loc, "too_deep", f"nested deeper than {MAX_DEPTH} levels", "flatter data")
            return value
        run.depth += 1
        out: dict[str, Any] = {}
        dropped: list[str] | None = None
        for key, item in value.items():
            accept = quick.get(key)
            if accept is not None and accept(item):  # simple value, valid and unchanged: the common case
                out[key] = item[:] if type(item) is list else item
                continue
            child = children.get(key)
            if child is None:
                other(key if type(key) is str else str(key), item, loc, run, out)
            elif item is None and null_as_absent and key not in required_set and not is_nullable(key):
                dropped = [*(dropped or ()), key]
            else:
                out[key] = child(item, (loc, key), run)
        run.depth -= 1
        for key in required:
            if key not in out and key not in value:
                run.error((loc, key), "missing", "missing required field", missing(key))
        if dropped or len(out) < len(children):
            _fill_defaults(out, defaults, dropped or [], loc, run)
        if counted:
            _count_checks(out, low, high, dependent, loc, run)
        return out

    return check


def _fill_defaults(out: dict[str, Any], defaults: dict[str, Any], dropped: list[str], loc: Loc, run: Run) -> None:
    for key in dropped:
        if key in defaults:
            out[key] = json_copy(defaults[key])
            run.notice((loc, key), "defaulted", "null for an optional field read as absent; default used",
                       from_=None, to=defaults[key])  # fmt: skip
        else:
            run.notice((loc, key), "null_as_absent", "null for an optional field read as absent", from_=None)
    for key, default in defaults.items():
        if key not in out:
            out[key] = json_copy(default)
            if default is not None:  # a null default says "nothing": applying it is not news to the model
                run.notice((loc, key), "defaulted", "absent; default used", to=default)


def _count_checks(
    out: dict[str, Any], low: int, high: int | None, dependent: Mapping[str, Any], loc: Loc, run: Run
) -> None:
    n = len(out)
    if n < low:
        run.error(loc, "too_few_properties", f"{n} fields, too few", f"at least {low} fields")
    if high is not None and n > high:
        run.error(loc, "too_many_properties", f"{n} fields, too many", f"at most {high} fields")
    for key, needs in dependent.items():
        if key in out:
            for name in needs:
                if name not in out:
                    run.error((loc, name), "missing", f"required when {key} is given", describe(None) + f" ({name})")
