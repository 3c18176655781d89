"""The idempotency ledger: a real SQLite file that remembers which write calls already happened.

One file holds two tables: ``idempotency`` (one row per dedupe key: ``pending`` while an external effect is
in flight, ``completed`` with the receipt afterwards) and ``reservations`` (holds that lapse by expiry, see
:mod:`toolkit.runtime.saga`). The file is opened in WAL mode with a ``busy_timeout``, so several processes
can share it: writers queue on ``BEGIN IMMEDIATE`` instead of failing.

Time comes from an injectable clock (epoch seconds), so TTL expiry and replay timestamps are testable and a
notebook can show stable output::

    clock = ManualClock(1_700_000_000)
    ledger = Ledger(tmp / "ledger.sqlite3", clock=clock)
    clock.advance(3600)          # an hour later, without sleeping
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from toolkit._exceptions import RuntimeConfigError

__all__ = ["DEFAULT_LEDGER_PATH", "Clock", "Ledger", "LedgerRecord", "ManualClock", "Sweep", "iso_time"]

DEFAULT_LEDGER_PATH = Path(".toolkit") / "ledger.sqlite3"
"""Where :class:`Ledger` keeps its file when no path is given, relative to the working folder."""

Clock = Callable[[], float]
"""Returns the current time in epoch seconds (``time.time`` by default)."""

RecordState = Literal["pending", "completed"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS idempotency (
    key TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    tool TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'completed')),
    token TEXT NOT NULL,
    receipt TEXT,
    created_at REAL NOT NULL,
    completed_at REAL,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS idempotency_tool_state ON idempotency (tool, state);
CREATE TABLE IF NOT EXISTS reservations (
    id TEXT PRIMARY KEY,
    resource TEXT NOT NULL,
    holder TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('held', 'confirmed', 'released', 'lapsed')),
    created_at REAL NOT NULL,
    expires_at REAL NOT NULL,
    settled_at REAL
);
CREATE INDEX IF NOT EXISTS reservations_resource ON reservations (resource, state);
"""


def iso_time(epoch: float) -> str:
    """Epoch seconds as an ISO 8601 UTC timestamp with second precision (what ``replay.original_at`` holds)."""
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="seconds")


class ManualClock:
    """A clock that only moves when told to: for tests and notebooks that need stable timestamps."""

    def __init__(self, start: float = 1_767_225_600.0) -> None:  # 2026-01-01T00:00:00+00:00
        self._now = float(start)
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> float:
        """Move the clock forward and return the new time."""
        with self._lock:
            self._now += seconds
            return self._now


@dataclass(frozen=True, slots=True)
class LedgerRecord:
    """One dedupe record as stored: who, which tool, where it stands, and the receipt once completed."""

    key: str
    session_id: str
    tool: str
    state: RecordState
    token: str
    receipt: Any
    created_at: float
    completed_at: float | None
    expires_at: float

    def expired(self, now: float) -> bool:
        return self.expires_at <= now

    @property
    def orphaned(self) -> bool:
        """A pending claim whose caller gave up (exception or timeout): the effect's outcome is unknown."""
        return self.state == "pending" and self.token == ORPHANED

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
class Sweep:
    """What one :meth:`Ledger.sweep` cleared: expired dedupe records and reservations that lapsed."""

    expired_records: int
    lapsed_reservations: int


class Ledger:
    """A SQLite file (WAL, ``busy_timeout``) shared by threads and processes; each operation opens its own
    connection, so a ledger object is safe to hand to worker threads.

    ``path`` defaults to ``.toolkit/ledger.sqlite3`` under the current working folder; its parent folder is
    created. ``clock`` returns epoch seconds. ``busy_timeout`` is how long a writer waits for the lock.
    ``synchronous`` is SQLite's durability setting: ``"NORMAL"`` (WAL default) survives a crashed or killed
    process; ``"FULL"`` also survives power loss, at one fsync per commit (about 5 ms on a virtual disk).
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        clock: Clock = time.time,
        busy_timeout: float = 30.0,
        synchronous: Literal["NORMAL", "FULL"] = "NORMAL",
    ) -> None:
        if synchronous not in ("NORMAL", "FULL"):
            raise RuntimeConfigError(f"synchronous must be 'NORMAL' or 'FULL', got {synchronous!r}")
        self.synchronous = synchronous
        self.path = Path(path) if path is not None else Path.cwd() / DEFAULT_LEDGER_PATH
        self.clock = clock
        self.busy_timeout = busy_timeout
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._create_schema()
        # Held open for the ledger's lifetime: when the *last* connection to a WAL database closes, SQLite
        # checkpoints and deletes the WAL file, which would make every short-lived connection pay an fsync.
        self._anchor: sqlite3.Connection | None = sqlite3.connect(self.path, check_same_thread=False)
        self._anchor.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # really opens the file
        weakref.finalize(self, self._anchor.close)

    def __repr__(self) -> str:
        return f"Ledger({str(self.path)!r})"

    def close(self) -> None:
        """Release the ledger's own connection (per-operation connections are always closed after use)."""
        if self._anchor is not None:
            self._anchor.close()
            self._anchor = None

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def now(self) -> float:
        return float(self.clock())

    # -- connections ---------------------------------------------------------------------------------
    def connect(self) -> sqlite3.Connection:
        """A new connection in autocommit mode (transactions are explicit) with the busy timeout set."""
        conn = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
        conn.execute(f"PRAGMA synchronous = {self.synchronous}")
        return conn

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on an exception): one writer at a time, across processes."""
        conn = self.connect()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        finally:
            conn.close()

    def _create_schema(self) -> None:
        conn = self.connect()
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
            conn.executescript(_SCHEMA)
        finally:
            conn.close()

    # -- dedupe records ------------------------------------------------------------------------------
    def record(self, key: str) -> LedgerRecord | None:
        """The record stored under ``key`` (expired or not), or ``None``."""
        conn = self.connect()
        try:
            return load_record(conn, key)
        finally:
            conn.close()

    def records(self, *, tool: str | None = None, state: RecordState | None = None) -> list[LedgerRecord]:
        """All records, oldest first, optionally only one tool's or one state's."""
        query, params = f"SELECT {_COLUMNS} FROM idempotency WHERE 1=1", list[str]()
        if tool is not None:
            query, params = query + " AND tool = ?", [*params, tool]
        if state is not None:
            query, params = query + " AND state = ?", [*params, state]
        conn = self.connect()
        try:
            rows = conn.execute(query + " ORDER BY created_at, key", params).fetchall()
        finally:
            conn.close()
        return [_to_record(row) for row in rows]

    def sweep(self) -> Sweep:
        """Delete expired dedupe records and mark expired, unconfirmed reservations as lapsed."""
        now = self.now()
        with self.transaction() as conn:
            expired = conn.execute("DELETE FROM idempotency WHERE expires_at <= ?", (now,)).rowcount
            lapsed = conn.execute(
                "UPDATE reservations SET state = 'lapsed', settled_at = ? WHERE state = 'held' AND expires_at <= ?",
                (now, now),
            ).rowcount
        return Sweep(expired_records=expired, lapsed_reservations=lapsed)


ORPHANED = "orphaned"
"""The ``token`` of a pending claim whose caller saw an exception or a timeout instead of an answer."""

_COLUMNS = "key, session_id, tool, state, token, receipt, created_at, completed_at, expires_at"


def _to_record(row: tuple[Any, ...]) -> LedgerRecord:
    key, session_id, tool, state, token, receipt, created_at, completed_at, expires_at = row
    return LedgerRecord(
        key=key,
        session_id=session_id,
        tool=tool,
        state=state,
        token=token,
        receipt=None if receipt is None else json.loads(receipt),
        created_at=created_at,
        completed_at=completed_at,
        expires_at=expires_at,
    )


def load_record(conn: sqlite3.Connection, key: str) -> LedgerRecord | None:
    """Read one record through an open connection (inside the caller's transaction)."""
    row = conn.execute(f"SELECT {_COLUMNS} FROM idempotency WHERE key = ?", (key,)).fetchone()
    return None if row is None else _to_record(row)


def encode_receipt(receipt: Any) -> str:
    """Receipts are stored as JSON; values JSON cannot hold (dates, decimals) are stored as strings."""
    return json.dumps(receipt, sort_keys=True, ensure_ascii=False, default=str)
