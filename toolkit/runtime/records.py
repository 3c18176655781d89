"""Dedupe records as the ledger stores them, and how old they are.

A record's age is measured on the timeline it was written on (see :mod:`toolkit.runtime.holders`) when the
reader shares that timeline, and on the wall clock otherwise (after a reboot), where a record dated in the
reader's future is zero seconds old: unexpired. :meth:`LedgerRecord.skew` says by how much the reader's wall
clock disagrees with the record's, so that a replay can report it. The states a record moves through, and the
statements that move it, are :mod:`toolkit.runtime.store`'s.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

__all__ = [
    "COLUMNS",
    "Instant",
    "LateCompletion",
    "LedgerRecord",
    "RecordState",
    "decode_receipt",
    "encode_receipt",
    "iso_time",
]

RecordState = Literal["pending", "unknown", "completed"]
"""Where a dedupe record stands (drawn in :mod:`toolkit.runtime.store`)."""

COLUMNS = (
    "key, session_id, tool, state, token, receipt, created_at, completed_at, expires_at,"
    " holder, lease, timeline, created_mono, heartbeat_at, heartbeat_mono, args_hash"
)


def iso_time(epoch: float) -> str:
    """Epoch seconds as an ISO 8601 UTC timestamp with second precision (what ``replay.original_at`` holds)."""
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="seconds")


def encode_receipt(receipt: Any) -> str:
    """Receipts are stored as JSON; values JSON cannot hold (dates, decimals) are stored as strings. ASCII
    escapes keep every text storable, a lone surrogate too (SQLite stores UTF-8)."""
    return json.dumps(receipt, sort_keys=True, default=str)


def decode_receipt(text: str | None) -> Any:
    return None if text is None else json.loads(text)


@dataclass(frozen=True, slots=True)
class Instant:
    """One reading of the ledger's clocks: the wall clock, and the timeline ages are measured on."""

    wall: float
    timeline: str
    mono: float


@dataclass(frozen=True, slots=True)
class LedgerRecord:
    """One dedupe record as stored: who, which tool, where it stands, and the receipt once completed.

    A pending record also names its ``holder`` (see :class:`toolkit.runtime.holders.Holder`), the ``lease`` it
    renews and when it last did (``heartbeat_at``); ``timeline`` and the ``*_mono`` fields are the host-clock
    readings ages are measured with. Records written before these fields existed have them as ``None``.
    """

    key: str
    session_id: str
    tool: str
    state: RecordState
    token: str
    receipt: Any
    created_at: float
    completed_at: float | None
    expires_at: float
    holder: str | None = None
    lease: float | None = None
    timeline: str | None = None
    created_mono: float | None = None
    heartbeat_at: float | None = None
    heartbeat_mono: float | None = None
    args_hash: str | None = None

    def _on(self, at: Instant) -> bool:
        return bool(self.timeline) and self.timeline == at.timeline and self.created_mono is not None

    def age(self, at: Instant) -> float:
        """Seconds since the call was first claimed, never negative (see the module docstring)."""
        if self._on(at):
            return max(0.0, at.mono - float(self.created_mono or 0.0))
        return max(0.0, at.wall - self.created_at)

    def skew(self, at: Instant) -> float:
        """How far the reader's wall clock is ahead (+) or behind (-) the one that dated this record: exact on
        a shared timeline; elsewhere only a date in the reader's future can be told (and 0.0 otherwise)."""
        wall_age = at.wall - self.created_at
        if self._on(at):
            return wall_age - (at.mono - float(self.created_mono or 0.0))
        return min(0.0, wall_age)

    def expired(self, at: Instant | float) -> bool:
        """A completed record past its TTL. A pending claim never expires: only a reconcile settles it."""
        if self.state != "completed":
            return False
        if isinstance(at, float | int):
            return self.expires_at <= at
        return self.age(at) >= self.expires_at - self.created_at

    def silence(self, at: Instant) -> float:
        """Seconds since the holder last renewed its lease (or claimed, if it never renewed)."""
        if self._on(at):
            last = self.heartbeat_mono if self.heartbeat_mono is not None else self.created_mono
            return max(0.0, at.mono - float(last or 0.0))
        last_wall = self.heartbeat_at if self.heartbeat_at is not None else self.created_at
        return max(0.0, at.wall - last_wall)

    @property
    def orphaned(self) -> bool:
        """A claim nobody holds any more whose effect's outcome is unknown (state ``unknown``)."""
        return self.state == "unknown"

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "session_id": self.session_id,
            "tool": self.tool,
            "state": self.state,
            "receipt": self.receipt,
            "created_at": iso_time(self.created_at),
            "expires_at": iso_time(self.expires_at),
        }


@dataclass(frozen=True, slots=True)
class LateCompletion:
    """A receipt recorded by a holder that finished after its claim had been taken over by another caller."""

    key: str
    token: str
    session_id: str
    tool: str
    receipt: Any
    completed_at: float
