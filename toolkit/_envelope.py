"""What the model reads back: result envelopes, field errors, notices and replays.

Every type here is frozen and has ``to_dict()`` returning a JSON-serialisable dict of a stable shape
(the golden tests pin it). Absent optional parts are left out of ``to_dict()`` rather than set to null,
except the four keys every :class:`ToolResult` always carries: ``status``, ``data``, ``errors``, ``notices``.
The envelopes of batches and sagas subclass this module's ``_Envelope`` where they are run
(:mod:`toolkit.runtime.batch`, :mod:`toolkit.runtime.saga`), so a first tool's call does not build their classes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any, Literal, get_args

from toolkit._display import Displayable, displayed_by
from toolkit._regex import lazy

__all__ = [
    "UNSET",
    "FieldError",
    "Notice",
    "Replay",
    "Status",
    "ToolResult",
]

Status = Literal["ok", "invalid_arguments", "rejected", "needs_confirmation", "timeout", "error", "partial"]
STATUSES: tuple[str, ...] = get_args(Status)


class _Unset:
    """Marks an optional envelope value that was not given (distinct from JSON null)."""

    _instance: _Unset | None = None

    def __new__(cls) -> _Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET: Any = _Unset()


_SURROGATE = lazy("[\ud800-\udfff]")
_BIG_INT = 2**4000
"""Integers from here on are written through ``Decimal``: ``json.dumps`` (``int.__repr__``) refuses those over
4,300 digits."""


def _safe_str(value: Any) -> str:
    try:
        return str(value)
    except Exception:  # an object whose __str__ raises: its type is what a reader can use
        return f"<{type(value).__name__} object>"


def _plain(value: Any, big: list[int], depth: int = 0) -> Any:
    """``value`` with what JSON cannot write made writable: NaN and infinities as null (as JavaScript's
    ``JSON.stringify`` writes them), huge integers as placeholders, cycles and depth past 256 cut."""
    kind = type(value)
    if kind is float and value - value != 0:
        return None
    if kind is int and not -_BIG_INT < value < _BIG_INT:
        big.append(value)
        return f"\x00big{len(big) - 1}\x00"
    if depth > 256:
        return None
    if isinstance(value, Mapping):
        return {k if isinstance(k, str) else _safe_str(k): _plain(v, big, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v, big, depth + 1) for v in value]
    return value


def _to_json(payload: Mapping[str, Any]) -> str:
    """JSON text that is always valid: no NaN or Infinity, any integer, lone surrogates escaped (so the text
    encodes as UTF-8), and an object JSON has no form for written as its ``str`` (or its type, if that raises)."""
    try:
        text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=_safe_str, allow_nan=False)
    except (ValueError, TypeError, RecursionError):
        big: list[int] = []
        text = json.dumps(_plain(payload, big), sort_keys=True, ensure_ascii=False, default=_safe_str)
        for i, number in enumerate(big):
            text = text.replace(f'"\\u0000big{i}\\u0000"', format(Decimal(number), "f"), 1)
    if _SURROGATE.search(text):
        text = _SURROGATE.sub(lambda m: f"\\u{ord(m[0]):04x}", text)
    return text


class _Envelope(Displayable):
    """Shared behaviour: JSON text, and display through the notebook protocol (each type's renderer)."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:  # pragma: no cover - every subclass overrides
        raise NotImplementedError

    def to_json(self) -> str:
        return _to_json(self.to_dict())


@displayed_by("toolkit._display._envelopes:FIELD_ERROR_RENDERER")
@dataclass(frozen=True)
class FieldError(_Envelope):
    """One thing wrong with one argument: where, what (a stable slug), what we saw, what we want.

    Not slotted, like :class:`ToolResult`: the validator fills the fields of the many it makes straight into
    the object's ``__dict__`` (:mod:`toolkit._validation._results`).
    """

    field: str
    code: str
    problem: str
    expected: str

    def to_dict(self) -> dict[str, Any]:
        return {"field": self.field, "code": self.code, "problem": self.problem, "expected": self.expected}


@displayed_by("toolkit._display._envelopes:NOTICE_RENDERER")
@dataclass(frozen=True, slots=True)
class Notice(_Envelope):
    """Something the boundary did on the model's behalf: defaulted, clamped, normalised, trimmed ..."""

    field: str
    action: str
    message: str = ""
    to: Any = UNSET
    from_: Any = UNSET

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"field": self.field, "action": self.action}
        if self.from_ is not UNSET:
            out["from"] = self.from_
        if self.to is not UNSET:
            out["to"] = self.to
        if self.message:
            out["message"] = self.message
        return out


@displayed_by("toolkit._display._envelopes:REPLAY_RENDERER")
@dataclass(frozen=True, slots=True)
class Replay(_Envelope):
    """Marks a result as the replay of an earlier idempotent call."""

    original_at: str
    key: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"original_at": self.original_at}
        if self.key:
            out["key"] = self.key
        return out


@displayed_by("toolkit._display._envelopes:RESULT_RENDERER")
@dataclass(frozen=True)
class ToolResult(_Envelope):
    """The envelope a tool returns to the model. Never raised, always returned.

    Not slotted (nor is :class:`FieldError`): its defaults stay class attributes, so the validator can make the
    envelope of each call by writing only the fields that differ from them (:mod:`toolkit._validation._results`).
    """

    status: Status
    data: Any = None
    errors: tuple[FieldError, ...] = ()
    notices: tuple[Notice, ...] = ()
    replay: Replay | None = None
    retryable: bool | None = None
    message: str = ""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}; use one of {', '.join(STATUSES)}")

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def with_notices(self, notices: Iterable[Notice]) -> ToolResult:
        return replace(self, notices=self.notices + tuple(notices))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "data": self.data,
            "errors": [e.to_dict() for e in self.errors],
            "notices": [n.to_dict() for n in self.notices],
        }
        if self.message:
            out["message"] = self.message
        if self.retryable is not None:
            out["retryable"] = self.retryable
        if self.replay is not None:
            out["replay"] = self.replay.to_dict()
        return out
