"""Pending claims of ``mode="external"`` calls: who holds one, whether it is still alive, and how it ends.

**Lease renewal.** A caller that claims a key records itself as the holder (see :mod:`toolkit.runtime.holders`)
with its ``lease``, and a :class:`Heartbeat` thread renews the claim every ``lease / 3`` seconds while the tool
runs and until its outcome is written. **Takeover** of a claim by an identical call happens only when the
holder is known to be gone:

* the holder is this process: gone once its call has returned (its token is no longer running here);
* the holder runs on this kernel in this pid namespace: gone when its pid is dead, a zombie, or reused;
* otherwise (another container, another host, a record from before holders were recorded): gone when it has
  not renewed its lease for ``lease`` seconds, measured on the host's boot clock.

A claim whose caller saw an exception or a ``timeout`` is *orphaned*: its holder is done with it. A gone or
orphaned holder's claim is settled only by a reconcile (the wrapper's ``reconcile`` callable, or
:func:`~toolkit.runtime.reconcile_pending`); it never expires by TTL and is never swept.

**Fencing.** Every write about a claim names its token. A holder that finishes after its claim was taken over
(a paused container, a host whose heartbeat could not reach the file) finds another token or no record:
its receipt is then recorded, either as the key's completed record when there is none, or in
``late_completions``, which :func:`~toolkit.runtime.reconcile_pending` reports; never dropped.
"""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Literal

from toolkit._context import ToolContext
from toolkit._exceptions import LedgerError
from toolkit.runtime import holders
from toolkit.runtime.ledger import Ledger
from toolkit.runtime.notes import Note
from toolkit.runtime.records import ORPHANED, Instant, LedgerRecord, encode_receipt, load_record

__all__ = [
    "DEFAULT_TTL",
    "Heartbeat",
    "Lookup",
    "apply_note",
    "finish",
    "holder_alive",
    "insert",
    "settle",
    "write_outcome",
]

DEFAULT_TTL = 24 * 3600.0
"""How long a completed call is remembered unless the wrapper says otherwise (seconds)."""
Lookup = Callable[[str], Any]
"""``lookup(key)`` → the receipt if the external effect for ``key`` happened, else ``None``."""

_RUNNING: set[str] = set()  # tokens of claims whose call is running in this process
_RUNNING_LOCK = threading.Lock()

Written = Literal["recorded", "late"]


def holder_alive(record: LedgerRecord, at: Instant, lease: float | None) -> bool:
    """Whether the holder of pending ``record`` may still apply its effect (see the module docstring);
    ``lease`` is the caller's, used when the record has none of its own (``None``: such records are gone)."""
    if record.orphaned:
        return False
    holder = holders.Holder.decode(record.holder)
    if holder is not None:
        me = holders.this_process()
        if (holder.boot, holder.namespace, holder.pid, holder.started) == (me.boot, me.namespace, me.pid, me.started):
            with _RUNNING_LOCK:
                return record.token in _RUNNING
        verdict = holders.verdict(holder)
        if verdict != "unknown":
            return verdict == "alive"
    limit = record.lease if record.lease is not None else lease
    return limit is not None and record.silence(at) < limit


class Heartbeat:
    """Marks a claim as running in this process and renews its lease every ``lease / 3`` seconds."""

    def __init__(self, ledger: Ledger, key: str, token: str, lease: float) -> None:
        self.ledger, self.key, self.token, self.interval = ledger, key, token, lease / 3
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"ledger-lease:{key[:12]}", daemon=True)

    def __enter__(self) -> Heartbeat:
        with _RUNNING_LOCK:
            _RUNNING.add(self.token)
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        with _RUNNING_LOCK:
            _RUNNING.discard(self.token)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                if not self.renew():
                    return  # settled, or taken over: nothing left to renew
            except Exception:  # locked or unreachable for now (a heartbeat must never die): try at the next beat
                continue

    def renew(self) -> bool:
        at = self.ledger.instant()
        with self.ledger.transaction(timeout=self.interval) as conn, self.ledger.guarded():
            return bool(
                conn.execute(
                    "UPDATE idempotency SET heartbeat_at = ?, heartbeat_mono = ?"
                    " WHERE key = ? AND token = ? AND state = 'pending'",
                    (at.wall, at.mono, self.key, self.token),
                ).rowcount
            )


def insert(
    conn: sqlite3.Connection,
    key: str,
    context: ToolContext,
    tool: str,
    receipt: Any,
    at: Instant,
    *,
    ttl: float,
    lease: float | None,
) -> str:
    """A pending claim (``lease`` given) or a completed record (``lease=None``); returns its token."""
    token = uuid.uuid4().hex
    pending = lease is not None
    conn.execute(
        "INSERT INTO idempotency (key, session_id, tool, state, token, receipt, created_at, completed_at,"
        " expires_at, holder, lease, timeline, created_mono, heartbeat_at, heartbeat_mono)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            key,
            context.session_id,
            tool,
            "pending" if pending else "completed",
            token,
            None if pending else encode_receipt(receipt),
            at.wall,
            None if pending else at.wall,
            at.wall + ttl,
            holders.this_process().encode(),
            lease,
            at.timeline,
            at.mono,
            at.wall,
            at.mono,
        ),
    )
    return token


def settle(conn: sqlite3.Connection, record: LedgerRecord, receipt: Any, at: Instant) -> LedgerRecord | None:
    """Resolve a pending record with what the external system says: completed (returned) or released. A
    completed call is remembered for its TTL from now, however long the effect took."""
    if receipt is None:
        conn.execute("DELETE FROM idempotency WHERE key = ? AND token = ?", (record.key, record.token))
        return None
    expires_at = record.expires_at + record.age(at)
    token = uuid.uuid4().hex  # a holder still out there finds another token: its completion is a late one
    conn.execute(
        "UPDATE idempotency SET state = 'completed', token = ?, receipt = ?, completed_at = ?, expires_at = ?"
        " WHERE key = ? AND token = ?",
        (token, encode_receipt(receipt), at.wall, expires_at, record.key, record.token),
    )
    return replace(record, state="completed", token=token, receipt=receipt, completed_at=at.wall, expires_at=expires_at)


def apply_note(conn: sqlite3.Connection, record: LedgerRecord, note: Note, at: Instant) -> LedgerRecord | None:
    """Apply a holder's side note to its still-pending claim: the completed record, ``None`` when the claim
    was released, or the record marked orphaned when the outcome is unknown."""
    if note.outcome == "applied":
        return settle(conn, record, note.receipt, at)
    if note.outcome == "not_applied":
        return settle(conn, record, None, at)
    conn.execute("UPDATE idempotency SET token = ? WHERE key = ? AND token = ?", (ORPHANED, record.key, record.token))
    return replace(record, token=ORPHANED)


def finish(conn: sqlite3.Connection, note: Note, session_id: str, at: Instant, ttl: float) -> Written:
    """Write a holder's own outcome. Its claim may have been taken over meanwhile: an applied effect is then
    recorded as the key's record if there is none, else as a late completion."""
    record = load_record(conn, note.key)
    if record is not None and record.token == note.token:
        if record.state == "pending":
            apply_note(conn, record, note, at)
        return "recorded"
    if note.outcome != "applied":
        return "recorded"  # nothing happened, or nobody knows: the new holder's reconcile decides
    if record is None:
        extra = (at.wall + ttl, at.timeline, at.mono)
        conn.execute(
            "INSERT INTO idempotency (key, session_id, tool, state, token, receipt, created_at, completed_at,"
            " expires_at, timeline, created_mono) VALUES (?, ?, ?, 'completed', ?, ?, ?, ?, ?, ?, ?)",
            (note.key, session_id, note.tool, note.token, encode_receipt(note.receipt), at.wall, at.wall, *extra),
        )
        return "late"
    conn.execute(
        "INSERT OR REPLACE INTO late_completions (key, token, session_id, tool, receipt, completed_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (note.key, note.token, session_id, note.tool, encode_receipt(note.receipt), at.wall),
    )
    return "late"


def write_outcome(ledger: Ledger, note: Note, session_id: str, ttl: float) -> Written | LedgerError:
    """:func:`finish` in its own transaction, retried while the ledger is locked, for at most the ledger's
    ``busy_timeout``; the last error when it could not be written."""
    deadline = time.monotonic() + ledger.busy_timeout
    while True:
        try:
            with ledger.transaction(timeout=max(0.0, deadline - time.monotonic())) as conn, ledger.guarded():
                return finish(conn, note, session_id, ledger.instant(), ttl)
        except LedgerError as error:
            if error.slug != "ledger_locked" or time.monotonic() >= deadline:
                return error
        time.sleep(min(0.05, max(0.0, deadline - time.monotonic())))
