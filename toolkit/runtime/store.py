"""The ledger's dedupe records as a state machine: every SQL statement on ``idempotency`` and ``late_completions``.

One row per dedupe key. Its ``state`` column is one of three, and only the functions below move it::

                 claim()                     complete()
    (no row) ─────────────▶ pending ─────────────────────────────▶ completed ──▶ (no row)
        ▲                     │  │                                     ▲         release() once expired,
        │      release()      │  │ mark_unknown(): the caller saw      │         or delete_expired()
        └─────────────────────┘  │ an exception, a timeout, a request  │
        the tool said it did     │ that may have been applied; or its  │ complete(): a reconcile
        nothing                  │ holder is gone (crash, lease out)   │ read found the effect
                                 ▼                                     │
                              unknown ─────────────────────────────────┘
                                 │ ▲
          release(): a reconcile │ │ take_over(): re-sent with the same idempotency key,
          read found no effect   ▼ │ which the upstream dedupes (back to pending, new holder)
                              (no row)

* ``pending``: a holder (see :mod:`toolkit.runtime.holders`) is applying the effect; it renews its lease
  (:func:`renew`). A pending claim never expires by TTL and is never swept.
* ``unknown``: nobody is applying it any more, and whether the effect happened is not known. Only a reconcile
  (a read of the external system) or a re-send the upstream dedupes settles it; never TTL, never a sweep.
* ``completed``: the effect happened; ``receipt`` holds its answer until ``expires_at``.

Every row also records ``args_hash``, the hash of the cleaned arguments it was claimed for, so a caller's
idempotency key reused with other arguments is told apart from a repeat. Every write about a claim names its
``token`` (fencing): a holder whose claim was taken over meanwhile changes nothing, and its receipt goes to
``late_completions``. Rows are read by column name.

Files written before states were explicit marked an abandoned claim with the token ``"orphaned"`` on a
``pending`` row; :func:`schema_work` rebuilds such a table (SQLite cannot change a ``CHECK``) and moves those
rows to ``unknown``.
"""

from __future__ import annotations

import sqlite3
import uuid
from dataclasses import dataclass, replace
from typing import Any

from toolkit._exceptions import LedgerError
from toolkit.runtime import holders
from toolkit.runtime.records import (
    COLUMNS,
    Instant,
    LateCompletion,
    LedgerRecord,
    RecordState,
    decode_receipt,
    encode_receipt,
)

__all__ = [
    "LEGACY_ORPHANED",
    "Entry",
    "check_own",
    "claim",
    "complete",
    "delete_expired",
    "drop_late",
    "late",
    "load",
    "mark_unknown",
    "record_completed",
    "record_late",
    "release",
    "renew",
    "schema_work",
    "select",
    "take_over",
]

LEGACY_ORPHANED = "orphaned"
"""The ``token`` by which files of earlier releases marked a pending claim whose outcome was unknown."""

_IDEMPOTENCY = """
CREATE TABLE {name} (
    key TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    tool TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'unknown', 'completed')),
    token TEXT NOT NULL,
    receipt TEXT,
    created_at REAL NOT NULL,
    completed_at REAL,
    expires_at REAL NOT NULL,
    holder TEXT,
    lease REAL,
    timeline TEXT,
    created_mono REAL,
    heartbeat_at REAL,
    heartbeat_mono REAL,
    args_hash TEXT
)"""
_INDEX = "CREATE INDEX IF NOT EXISTS idempotency_tool_state ON idempotency (tool, state)"
_LATE = """
CREATE TABLE IF NOT EXISTS late_completions (
    key TEXT NOT NULL,
    token TEXT NOT NULL,
    session_id TEXT NOT NULL,
    tool TEXT NOT NULL,
    receipt TEXT,
    completed_at REAL NOT NULL,
    PRIMARY KEY (key, token)
)"""
# Columns a table must have to be the ledger's own (the first release's); later columns are added in place.
_REQUIRED = {
    "idempotency": set(COLUMNS.split(", ")[:9]),
    "late_completions": {"key", "token", "session_id", "tool", "receipt", "completed_at"},
}
_ADDED = {"holder": "TEXT", "lease": "REAL", "timeline": "TEXT", "created_mono": "REAL"}
_ADDED |= {"heartbeat_at": "REAL", "heartbeat_mono": "REAL", "args_hash": "TEXT"}


# -- the schema ----------------------------------------------------------------------------------------
def schema_work(conn: sqlite3.Connection, path: object) -> list[str]:
    """The statements that would make the file's dedupe tables current (none when they are)."""
    work: list[str] = []
    present = _columns(conn, "idempotency")
    if not present:
        work += [_IDEMPOTENCY.format(name="idempotency").strip(), _INDEX]
    else:
        check_own(present, _REQUIRED["idempotency"], "idempotency", path)
        work += [f"ALTER TABLE idempotency ADD COLUMN {c} {t}" for c, t in _ADDED.items() if c not in present]
        if "'unknown'" not in _table_sql(conn, "idempotency"):
            work += _to_explicit_states()
    late_columns = _columns(conn, "late_completions")
    if not late_columns:
        work.append(_LATE.strip())
    else:
        check_own(late_columns, _REQUIRED["late_completions"], "late_completions", path)
    return work


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def _table_sql(conn: sqlite3.Connection, table: str) -> str:
    row = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()
    return "" if row is None else str(row[0])


def check_own(present: set[str], required: set[str], table: str, path: object) -> None:
    """Refuse a table of the ledger's name that lacks the columns the ledger's first release gave it."""
    if not present >= required:
        raise LedgerError(
            f"{path} has a table {table!r} that the ledger did not make (it lacks "
            f"{', '.join(sorted(required - present))}); give Ledger a file of its own, "
            "e.g. .toolkit/ledger.sqlite3, or move that file away",
            slug="ledger_schema",
        )


def _to_explicit_states() -> list[str]:
    """Rebuild ``idempotency`` with the ``unknown`` state; a legacy orphaned claim becomes ``unknown``."""
    others = COLUMNS.replace("state, ", "")
    return [
        _IDEMPOTENCY.format(name="idempotency_next").strip(),
        f"INSERT INTO idempotency_next (state, {others}) SELECT CASE WHEN state = 'pending' AND token = "
        f"'{LEGACY_ORPHANED}' THEN 'unknown' ELSE state END, {others} FROM idempotency",
        "DROP TABLE idempotency",
        "ALTER TABLE idempotency_next RENAME TO idempotency",
        _INDEX,
    ]


# -- reading -------------------------------------------------------------------------------------------
def _record(cursor: sqlite3.Cursor, row: tuple[Any, ...]) -> LedgerRecord:
    values = {column[0]: value for column, value in zip(cursor.description, row, strict=True)}
    values["receipt"] = decode_receipt(values["receipt"])
    return LedgerRecord(**values)


def load(conn: sqlite3.Connection, key: str) -> LedgerRecord | None:
    """The record stored under ``key`` (inside the caller's transaction), or ``None``."""
    cursor = conn.execute(f"SELECT {COLUMNS} FROM idempotency WHERE key = ?", (key,))
    row = cursor.fetchone()
    return None if row is None else _record(cursor, row)


def select(conn: sqlite3.Connection, *, tool: str | None, state: RecordState | None) -> list[LedgerRecord]:
    """All records, oldest first, optionally only one tool's or one state's."""
    query, params = f"SELECT {COLUMNS} FROM idempotency WHERE 1=1", list[str]()
    if tool is not None:
        query, params = query + " AND tool = ?", [*params, tool]
    if state is not None:
        query, params = query + " AND state = ?", [*params, state]
    cursor = conn.execute(query + " ORDER BY created_at, key", params)
    return [_record(cursor, row) for row in cursor.fetchall()]


def late(conn: sqlite3.Connection, tool: str | None) -> list[LateCompletion]:
    """Receipts of holders that finished after their claim had been taken over, oldest first."""
    query = "SELECT key, token, session_id, tool, receipt, completed_at FROM late_completions"
    query += " WHERE tool = ?" if tool is not None else ""
    cursor = conn.execute(query + " ORDER BY completed_at, key", (tool,) if tool else ())
    names = [column[0] for column in cursor.description]
    rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    return [LateCompletion(**{**row, "receipt": decode_receipt(row["receipt"])}) for row in rows]


# -- moving a record -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Entry:
    """Whom a new row is for: the dedupe key, the caller's session, the tool, the hash of the arguments."""

    key: str
    session_id: str
    tool: str
    args_hash: str | None = None


def claim(conn: sqlite3.Connection, entry: Entry, at: Instant, *, ttl: float, lease: float) -> str:
    """(no row) → ``pending``, held by this process; returns the claim's token."""
    return _insert(conn, entry, at, ttl, lease=lease)


def record_completed(
    conn: sqlite3.Connection, entry: Entry, receipt: Any, at: Instant, *, ttl: float, token: str | None = None
) -> str:
    """(no row) → ``completed`` at once: an effect committed with this row, or a late receipt recorded."""
    return _insert(conn, entry, at, ttl, receipt=receipt, token=token)


def _insert(
    conn: sqlite3.Connection,
    entry: Entry,
    at: Instant,
    ttl: float,
    *,
    lease: float | None = None,
    receipt: Any = None,
    token: str | None = None,
) -> str:
    token = token or uuid.uuid4().hex
    pending = lease is not None
    conn.execute(
        "INSERT INTO idempotency (key, session_id, tool, state, token, receipt, created_at, completed_at,"
        " expires_at, holder, lease, timeline, created_mono, heartbeat_at, heartbeat_mono, args_hash)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            entry.key,
            entry.session_id,
            entry.tool,
            "pending" if pending else "completed",
            token,
            None if pending else encode_receipt(receipt),
            at.wall,
            None if pending else at.wall,
            at.wall + ttl,
            holders.this_process().encode() if pending else None,
            lease,
            at.timeline,
            at.mono,
            at.wall,
            at.mono,
            entry.args_hash,
        ),
    )
    return token


def renew(conn: sqlite3.Connection, key: str, token: str, at: Instant) -> bool:
    """A holder's heartbeat on its ``pending`` claim; ``False`` when the claim is no longer its own."""
    return bool(
        conn.execute(
            "UPDATE idempotency SET heartbeat_at = ?, heartbeat_mono = ?"
            " WHERE key = ? AND token = ? AND state = 'pending'",
            (at.wall, at.mono, key, token),
        ).rowcount
    )


def complete(conn: sqlite3.Connection, record: LedgerRecord, receipt: Any, at: Instant) -> LedgerRecord:
    """``pending`` or ``unknown`` → ``completed`` with ``receipt``, remembered for its TTL from now, however long
    the effect took. The token changes: a holder still out there finds another one (its completion is late)."""
    expires_at = record.expires_at + record.age(at)
    token = uuid.uuid4().hex
    conn.execute(
        "UPDATE idempotency SET state = 'completed', token = ?, receipt = ?, completed_at = ?, expires_at = ?"
        " WHERE key = ? AND token = ?",
        (token, encode_receipt(receipt), at.wall, expires_at, record.key, record.token),
    )
    return replace(record, state="completed", token=token, receipt=receipt, completed_at=at.wall, expires_at=expires_at)


def release(conn: sqlite3.Connection, record: LedgerRecord) -> None:
    """Any state → (no row): nothing was applied, or a completed record expired. The key is free again."""
    conn.execute("DELETE FROM idempotency WHERE key = ? AND token = ?", (record.key, record.token))


def mark_unknown(conn: sqlite3.Connection, record: LedgerRecord) -> LedgerRecord:
    """``pending`` → ``unknown``: its holder is done with it or gone, and nobody knows if the effect happened."""
    token = uuid.uuid4().hex
    conn.execute(
        "UPDATE idempotency SET state = 'unknown', token = ? WHERE key = ? AND token = ?",
        (token, record.key, record.token),
    )
    return replace(record, state="unknown", token=token)


def take_over(conn: sqlite3.Connection, record: LedgerRecord, at: Instant, lease: float) -> str:
    """``unknown`` → ``pending``, held by this process, to re-send a request the upstream dedupes by its key."""
    token = uuid.uuid4().hex
    conn.execute(
        "UPDATE idempotency SET state = 'pending', token = ?, holder = ?, lease = ?, timeline = ?,"
        " heartbeat_at = ?, heartbeat_mono = ? WHERE key = ? AND token = ?",
        (token, holders.this_process().encode(), lease, at.timeline, at.wall, at.mono, record.key, record.token),
    )
    return token


def delete_expired(conn: sqlite3.Connection, at: Instant) -> int:
    """Delete expired ``completed`` records (never a pending or unknown one); how many."""
    return int(
        conn.execute(
            "DELETE FROM idempotency WHERE state = 'completed' AND ("
            " (timeline = ? AND created_mono IS NOT NULL AND ? - created_mono >= expires_at - created_at)"
            " OR ((timeline IS NOT ? OR created_mono IS NULL) AND expires_at <= ?))",
            (at.timeline or None, at.mono, at.timeline or None, at.wall),  # "": no timeline to share
        ).rowcount
    )


def record_late(
    conn: sqlite3.Connection, key: str, token: str, session_id: str, tool: str, receipt: Any, at: Instant
) -> None:
    """Keep the receipt of a holder whose claim was taken over before it finished."""
    conn.execute(
        "INSERT OR REPLACE INTO late_completions (key, token, session_id, tool, receipt, completed_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (key, token, session_id, tool, encode_receipt(receipt), at.wall),
    )


def drop_late(conn: sqlite3.Connection, key: str, token: str) -> None:
    conn.execute("DELETE FROM late_completions WHERE key = ? AND token = ?", (key, token))
