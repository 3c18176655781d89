"""A document given as a Python dict, made safe to read: one walk before any stage touches it.

A dict can hold what no JSON text can: object cycles, nesting a hundred thousand levels deep, keys that are
not strings, bytes, sets, integers too long to print, sub-trees shared so often that writing them out never
ends. :func:`plain_document` walks the dict once, without recursion and visiting each container once (a
shared sub-tree is counted, not walked again), and refuses with a :class:`~toolkit.SpecError`:

* a container that holds one of its own ancestors (``cyclic_document``);
* nesting deeper than :data:`MAX_NESTING` (``too_deep``);
* more than :data:`MAX_VALUES` values once shared sub-trees are counted at every place (``too_large``);
* a key other than a string, integer, float, boolean or ``None`` (``bad_key``); those four become their JSON
  text (``200`` → ``"200"``, as ``yaml.safe_load`` gives response codes), and two keys that become one text
  are refused too;
* an integer longer than :data:`MAX_INT_DIGITS` digits (``huge_integer``);
* a value JSON has no form for: bytes, sets, ``Decimal``, arbitrary objects (``bad_value``). Tuples become
  lists and dates their ISO text (what ``yaml.safe_load`` gives for ``2024-01-31``).

The dict itself is returned when nothing needs converting (the usual case), otherwise a converted copy that
keeps shared sub-trees shared; the caller's dict is never changed.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from typing import Any

from toolkit._exceptions import SpecError
from toolkit._schema import escape

__all__ = ["MAX_INT_DIGITS", "MAX_NESTING", "MAX_VALUES", "check_int_literal", "plain_document"]

MAX_NESTING = 500
"""How deep a dict source may nest (real specs stay under 30 levels; JSON text stops near 1,000)."""

MAX_VALUES = 5_000_000
"""The most values a dict source may hold, a shared sub-tree counted at every place it appears."""

MAX_INT_DIGITS = 4000
"""The longest integer read: Python refuses to turn integers over 4,300 digits into text."""

_INT_LIMIT = 10**MAX_INT_DIGITS
_INT_BITS = _INT_LIMIT.bit_length() - 1
_SCALARS = (str, bool, int, float, type(None))
_LEAVES = frozenset({str, bool, float, type(None)})
_CONTAINERS = (dict, list, tuple, Mapping)
_KEYS = (int, float, bool, type(None))


def check_int_literal(literal: str) -> None:
    """Refuse an integer literal longer than :data:`MAX_INT_DIGITS` digits (JSON and YAML readers call this)."""
    digits = len(literal.lstrip("+-"))
    if digits > MAX_INT_DIGITS:
        raise SpecError(
            f"an integer in the document has {digits:,} digits (at most {MAX_INT_DIGITS:,}); write such a "
            "value as a string",
            slug="huge_integer",
        )


def plain_document(source: Mapping[Any, Any]) -> dict[str, Any]:
    """``source`` as a plain JSON dict (itself when it already is one), or a :class:`~toolkit.SpecError`."""
    if _scan(source) or type(source) is not dict:
        return _copy(source, {})  # type: ignore[no-any-return]
    return source


def _frame(node: Any, key: Any) -> list[Any]:
    """A container being walked: itself, its items, its key, its size so far (itself and its items), whether
    it is a mapping. A container item later adds its own size less the one it was counted as."""
    if isinstance(node, Mapping):
        return [node, iter(node.items()), key, 1 + len(node), True]
    return [node, enumerate(node), key, 1 + len(node), False]


def _scan(root: Mapping[Any, Any]) -> bool:
    """Walk ``root`` depth first; raise on what cannot be read, and say whether a converted copy is needed."""
    convert = False
    sizes: dict[int, int] = {}  # finished containers: values below, shared sub-trees counted each time
    active: set[int] = {id(root)}  # containers on the current path (one of them again is a cycle)
    stack = [_frame(root, "")]
    while stack:
        frame = stack[-1]
        is_map = frame[4]
        for key, value in frame[1]:
            if is_map and type(key) is not str:
                convert = _check_key(key, stack) or convert
            kind = type(value)
            if kind in _LEAVES:
                continue
            if kind is dict or kind is list or isinstance(value, _CONTAINERS):
                convert = convert or (kind is not dict and kind is not list)
                ident = id(value)
                if ident in sizes:
                    frame[3] += sizes[ident] - 1
                    continue
                if ident in active:
                    raise SpecError(
                        f"the document contains itself at {_pointer(stack, key)} (a Python object cycle); a "
                        "document must be a tree: use a $ref to point back",
                        slug="cyclic_document",
                    )
                if len(stack) >= MAX_NESTING:
                    raise SpecError(
                        f"the document nests deeper than {MAX_NESTING} levels at {_pointer(stack, key)[:200]}",
                        slug="too_deep",
                    )
                active.add(ident)
                stack.append(_frame(value, key))
                break
            convert = _check_scalar(value, stack, key) or convert
        else:
            stack.pop()
            active.discard(id(frame[0]))
            sizes[id(frame[0])] = frame[3]
            if frame[3] > MAX_VALUES:
                raise SpecError(
                    f"the document holds more than {MAX_VALUES:,} values once its shared parts are counted at "
                    "every place they appear; share less, or use $ref",
                    slug="too_large",
                )
            if stack:
                stack[-1][3] += frame[3] - 1
    return convert


def _check_key(key: Any, stack: list[list[Any]]) -> bool:
    if isinstance(key, str):
        return True
    if isinstance(key, _KEYS) and not (isinstance(key, int) and abs(key) >= _INT_LIMIT):
        return True
    raise SpecError(
        f"a key at {_pointer(stack, None)} is a {type(key).__name__}; document keys are strings (or numbers, "
        "booleans and None, read as their JSON text)",
        slug="bad_key",
    )


def _check_scalar(value: Any, stack: list[list[Any]], key: Any) -> bool:
    """Raise on a value JSON cannot hold; say whether it must be converted (a date becomes its ISO text)."""
    if isinstance(value, _SCALARS):
        if isinstance(value, int) and value.bit_length() > _INT_BITS and abs(value) >= _INT_LIMIT:
            raise SpecError(
                f"the integer at {_pointer(stack, key)} has more than {MAX_INT_DIGITS:,} digits; write such a "
                "value as a string",
                slug="huge_integer",
            )
        return type(value) not in _SCALARS
    if isinstance(value, (_dt.date, _dt.time)):
        return True
    raise SpecError(
        f"the value at {_pointer(stack, key)} is a {type(value).__name__}, which JSON has no form for; use "
        "strings, numbers, booleans, None, lists and dicts",
        slug="bad_value",
    )


def _pointer(stack: list[list[Any]], key: Any) -> str:
    """The JSON pointer of ``key`` under the innermost container of ``stack`` (keys shown as text)."""
    tokens = [frame[2] for frame in stack[1:]] + ([] if key is None else [key])
    text = "".join("/" + escape(_token(t)) for t in tokens)
    return text[:300] or "/"


def _token(key: Any) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, int) and abs(key) >= _INT_LIMIT:
        return f"<{type(key).__name__}>"
    try:
        return str(key)[:80]
    except Exception:  # a key whose __str__ raises is still named by its type
        return f"<{type(key).__name__}>"


def _copy(node: Any, memo: dict[int, Any]) -> Any:
    """A plain JSON copy of a scanned tree (shared sub-trees stay shared; depth is bounded by the scan)."""
    if isinstance(node, (dict, list, tuple, Mapping)):
        found = memo.get(id(node))
        if found is not None:
            return found
        if isinstance(node, Mapping):
            out: Any = {}
            for key, value in node.items():
                text = _key_text(key)
                if text in out:
                    raise SpecError(f"the keys {text!r} and {key!r} are one key in JSON; keep one", slug="bad_key")
                out[text] = _copy(value, memo)
        else:
            out = [_copy(value, memo) for value in node]
        memo[id(node)] = out
        return out
    if isinstance(node, (_dt.date, _dt.time)):
        return node.isoformat()
    if type(node) in _SCALARS:
        return node
    if isinstance(node, str):  # subclasses of str, int and float become the plain value
        return str.__str__(node)
    return int.__int__(node) if isinstance(node, int) else float.__float__(node)


def _key_text(key: Any) -> str:
    """A key as JSON writes it: ``200`` → ``"200"``, ``True`` → ``"true"``, ``None`` → ``"null"``."""
    if isinstance(key, str):
        return str.__str__(key)
    if key is None or isinstance(key, bool):
        return {None: "null", True: "true", False: "false"}[key]
    return repr(int(key)) if isinstance(key, int) else float.__repr__(float(key))
