"""Admission: is the payload JSON the validator can read, within its limits? Checked before any schema.

A tool call's arguments are JSON. When they arrive as Python data (a dict from an SDK, a test), they may hold
what JSON cannot: ``NaN`` and infinities, keys that are not strings, tuples, sets, bytes, ``Decimal``, objects
(whose ``repr`` may even raise), containers that hold themselves. And any payload may be too large or too deep
to walk. :func:`admit` walks the payload once, without recursion past :data:`MAX_DEPTH`, and reports:

* ``not_finite`` -- ``NaN``, ``Infinity``, or a JSON number too large for a float (``1e400``), which JSON text
  cannot carry as a number (the validator never reads it as infinity);
* ``invalid_json`` -- a value or key JSON cannot hold, or a container that holds itself;
* ``too_deep`` -- nesting deeper than :data:`MAX_DEPTH` levels;
* ``too_large`` -- more than :data:`MAX_ARGUMENT_SIZE` characters of JSON (the text as sent, or the size the
  Python data would have as JSON text); the walk stops there.

* ``out_of_range`` -- an integer of more than :data:`MAX_INTEGER_DIGITS` digits: JSON sets no limit, but
  Python reads and writes no longer integer as text (``int("9" * 5000)`` raises), so neither the envelope's
  reader nor the tool's own JSON could hold it. Its size is measured, never its digits written out.

Exact types only: a ``dict`` subclass, an ``IntEnum`` or a ``str`` subclass is not JSON data either.
"""

from __future__ import annotations

from typing import Any

from toolkit._validation._expected import Loc, int_text, json_text
from toolkit._validation._run import MAX_DEPTH, Run

__all__ = ["MAX_ARGUMENT_SIZE", "MAX_INTEGER_DIGITS", "admit", "flat", "plain_size"]

MAX_ARGUMENT_SIZE = 8 * 1024 * 1024
"""The largest argument payload read: 8 MiB of JSON text (8,388,608 characters), or Python data that size as JSON."""

_SMALL = 2**64
MAX_INTEGER_DIGITS = 4300
"""The longest integer read: Python's default limit for integers written as text (``sys.int_info``)."""
_LIMIT = 10**MAX_INTEGER_DIGITS
_JSON = "a JSON value (string, number, boolean, null, array or object)"


class _TooLarge(Exception):
    pass


class _Walk:
    __slots__ = ("active", "run", "size")

    def __init__(self, run: Run) -> None:
        self.run = run
        self.size = 0
        self.active: set[int] = set()

    def grow(self, amount: int) -> None:
        self.size += amount
        if self.size > MAX_ARGUMENT_SIZE:
            raise _TooLarge

    def value(self, value: Any, loc: Loc, depth: int) -> None:
        kind = type(value)
        if kind is str:  # each size is at most the length of the value's shortest JSON text
            self.grow(len(value) + 2)
        elif kind is int:
            if -_SMALL < value < _SMALL:
                self.grow(1)
            else:
                self.grow(value.bit_length() * 3 // 10)
                if not -_LIMIT < value < _LIMIT:
                    self.run.error(loc, "out_of_range", f"{int_text(value)}: longer than JSON readers take",
                                   f"an integer of at most {MAX_INTEGER_DIGITS:,} digits")  # fmt: skip
        elif kind is bool or value is None:
            self.grow(4)
        elif kind is float:
            self.grow(3)
            if value - value != 0:  # NaN or an infinity: x - x is NaN for both
                shown = "NaN" if value != value else ("-Infinity" if value < 0 else "Infinity")
                self.run.error(loc, "not_finite", f"{shown} is not a JSON number (too large, or not a number)",
                               "a finite number")  # fmt: skip
        elif kind is dict or kind is list:
            self.container(value, loc, depth)
        else:
            self.run.error(loc, "invalid_json", f"a Python {kind.__name__} is not a JSON value", _JSON)

    def container(self, value: Any, loc: Loc, depth: int) -> None:
        if id(value) in self.active:
            self.run.error(loc, "invalid_json", "the value contains itself (a cycle), which JSON cannot write", _JSON)
            return
        if depth >= MAX_DEPTH:
            self.run.error(loc, "too_deep", f"nested deeper than {MAX_DEPTH} levels", "flatter data")
            return
        self.active.add(id(value))
        size = 2 + len(value)
        pairs = enumerate(value) if type(value) is list else value.items()
        for key, item in pairs:
            if type(key) is str:
                size += len(key) + 3
            elif type(key) is not int or type(value) is not list:
                shown = json_text(key, 40) if type(key) in (int, float, bool) or key is None else "a key"
                self.run.error(loc, "invalid_json", f"an object key must be a string, got {type(key).__name__} "
                               f"{shown}", "an object with string keys")  # fmt: skip
                continue
            kind = type(item)  # the common scalars inline: a method call each would double the walk's cost
            if kind is str:
                size += len(item) + 2
            elif kind is bool or item is None or (kind is int and -_SMALL < item < _SMALL):
                size += 4
            else:
                self.grow(size)
                size = 0
                self.value(item, (loc, key), depth + 1)
        self.grow(size)
        self.active.discard(id(value))


_SCALARS = frozenset({str, int, bool, type(None)})


def flat(args: dict[Any, Any]) -> bool:
    """The common case, answered in one tight loop: string keys, and values that are JSON scalars (finite floats
    at the top) or lists of non-float scalars; no integer past 64 bits, a size far from the limit."""
    scalars, small, size = _SCALARS, _SMALL, 0
    for key, item in args.items():
        kind = type(item)
        if type(key) is not str or (kind is int and not -small < item < small):
            return False
        if kind is str:
            size += len(item)
        elif kind is float:
            if item - item != 0:  # NaN or an infinity
                return False
        elif kind is list:
            for value in item:
                inner = type(value)
                if inner not in scalars or (inner is int and not -small < value < small):
                    return False
                if inner is str:
                    size += len(value)
        elif kind not in scalars:
            return False
    return size < MAX_ARGUMENT_SIZE // 4


def plain_size(value: Any) -> int:
    """For a value :func:`flat` would pass (a JSON scalar, finite floats, integers within 64 bits, or a list of
    non-float scalars), at least the size the walk counts for it; else ``-1``."""
    kind = type(value)
    if kind is str:
        return len(value) + 2
    if kind is bool or value is None or (kind is int and -_SMALL < value < _SMALL):
        return 4
    if kind is float:
        return 3 if value - value == 0 else -1
    if kind is not list:
        return -1
    size = 2
    for item in value:
        inner = type(item)
        if inner is str:
            size += len(item) + 3
        elif inner is bool or item is None or (inner is int and -_SMALL < item < _SMALL):
            size += 5
        else:
            return -1
    return size


def admit(value: Any, run: Run) -> None:
    """Report on ``run`` what keeps ``value`` from being a JSON payload the validator reads (see the module)."""
    if type(value) is dict and flat(value):
        return
    try:
        _Walk(run).value(value, None, 0)
    except _TooLarge:
        run.errors.clear()
        run.more = 0
        too_large(run)


def too_large(run: Run) -> None:
    run.error(None, "too_large", f"the arguments are larger than {MAX_ARGUMENT_SIZE:,} characters of JSON",
              f"at most {MAX_ARGUMENT_SIZE:,} characters of arguments")  # fmt: skip
