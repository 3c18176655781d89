"""The state of one validation pass, and the two value helpers every check uses (JSON equality, short text).

:class:`Run` collects field errors (at most :data:`MAX_FIELD_ERRORS`; the rest are counted) and notices,
tracks depth and reference hops, carries the keys and indices evaluated in place (for
``unevaluatedProperties``/``unevaluatedItems`` and closed objects), the defaults to fill in once the call is
valid, and the time spent in patterns that may backtrack (shared with every probe of the run).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolkit._envelope import UNSET, FieldError, Notice
from toolkit._envelope_codes import FieldCode, NoticeAction
from toolkit._validation._expected import Loc, format_path, json_text
from toolkit._validation._pattern import MATCH_TIME_LIMIT
from toolkit._validation._results import field_error

__all__ = ["MAX_DEPTH", "MAX_FIELD_ERRORS", "SEARCH_BUDGET", "Check", "Run", "json_key", "short"]

MAX_DEPTH = 64
"""Deepest data nesting (objects and arrays) the validator walks; deeper data is an error, not a RecursionError."""
MAX_FIELD_ERRORS = 50
"""The most field errors one envelope carries; an ``errors_truncated`` notice counts the rest."""
SEARCH_BUDGET = 2 * MATCH_TIME_LIMIT
"""Seconds one run may spend searching patterns that have no linear-time twin (they may backtrack)."""


_PATHS: dict[Loc, str] = {}
"""Field paths by location: the same fields recur call after call (a plain dict answers faster than a cache
wrapper; it is emptied when it reaches :data:`_MAX_PATHS`)."""
_MAX_PATHS = 4096


class Run:
    """The mutable state of one validation pass: errors and notices found, and how deep we are.

    ``props`` / ``items`` collect the object keys and array indices that keywords evaluated in place (the
    annotations ``unevaluatedProperties``, ``unevaluatedItems`` and the closed-object policy read); they are
    ``None`` when nobody asks. ``defaults`` are the defaults to fill in once the whole call is valid (the
    instance is validated as sent). ``spent`` is shared with every probe of the run (the pattern budget).
    """

    __slots__ = ("defaults", "depth", "errors", "hops", "items", "more", "notices", "props", "spent")

    def __init__(self) -> None:
        self.errors: list[FieldError] = []
        self.notices: list[Notice] = []
        self.depth = 0
        self.hops = 0
        self.more = 0
        self.props: set[str] | None = None
        self.items: set[int] | None = None
        self.defaults: list[tuple[Loc, str, Any, bool]] = []
        self.spent = [0.0]

    def error(self, loc: Loc, code: FieldCode, problem: str, expected: str) -> None:
        if len(self.errors) < MAX_FIELD_ERRORS:
            path = _PATHS.get(loc)
            if path is None:
                if len(_PATHS) >= _MAX_PATHS:
                    _PATHS.clear()
                path = _PATHS[loc] = format_path(loc)
            self.errors.append(field_error(path, code, problem, expected))
        else:
            self.more += 1

    @property
    def full(self) -> bool:
        """No room for another field error: callers may skip building its words."""
        return len(self.errors) >= MAX_FIELD_ERRORS

    def notice(self, loc: Loc, action: NoticeAction, message: str, to: Any = UNSET, from_: Any = UNSET) -> None:
        self.notices.append(Notice(format_path(loc), action, message, to, from_))

    def probe(self, in_place: bool = True) -> Run:
        """A scratch run for a branch, a condition or an item test; ``in_place`` when it reads the same value."""
        probe = Run()
        probe.depth, probe.hops, probe.spent = self.depth, self.hops, self.spent
        if in_place:
            probe.props = None if self.props is None else set()
            probe.items = None if self.items is None else set()
        return probe

    def absorb(self, probe: Run, *, outcome: bool = True) -> None:
        """Take a probe's annotations, and with ``outcome`` its errors, notices and defaults."""
        if self.props is not None and probe.props:
            self.props |= probe.props
        if self.items is not None and probe.items:
            self.items |= probe.items
        if not outcome:
            return
        room = MAX_FIELD_ERRORS - len(self.errors)
        self.errors.extend(probe.errors[:room])
        self.more += probe.more + max(0, len(probe.errors) - room)
        self.notices.extend(probe.notices)
        self.defaults.extend(probe.defaults)

    def attempt(self, check: Check, value: Any, loc: Loc) -> tuple[bool, Any]:
        """Run ``check`` on ``value`` in a probe; when it passes, take the probe's outcome and return ``(True,
        cleaned)``, else ``(False, value)`` with nothing taken (the caller says what failed)."""
        probe = self.probe()
        cleaned = check(value, loc, probe)
        if probe.errors:
            return False, value
        self.absorb(probe)
        return True, cleaned


Check = Callable[[Any, Loc, Run], Any]


def short(value: Any) -> str:
    """The value as JSON, cut to 60 characters, for a ``problem`` text (never raises)."""
    return json_text(value, 60)


_BOOL, _ARRAY, _OBJECT, _OTHER = 0, 1, 2, 3


def json_key(value: Any) -> Any:
    """A hashable key with JSON equality: ``1 == 1.0`` and ``[1] == [1.0]``, but ``true != 1``, ``"1" != 1``.

    Numbers are their own keys (Python compares ``int`` and ``float`` exactly and hashes equal numbers alike);
    booleans, arrays and objects are tagged tuples, so no two kinds meet. A value that is not JSON equals
    nothing but itself.
    """
    kind = type(value)
    if kind is str or kind is int or kind is float or value is None:
        return value
    if kind is bool:
        return (_BOOL, value)
    if kind is list:
        return (_ARRAY, tuple(json_key(item) for item in value))
    if kind is dict:
        return (_OBJECT, frozenset((key, json_key(item)) for key, item in value.items()))
    return (_OTHER, id(value))
