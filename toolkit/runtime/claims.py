"""Claims of ``mode="external"`` calls: who holds one, whether it is still alive, what an earlier record says
about a new call (:func:`meet`), and how a claim ends. The states and the statements are
:mod:`toolkit.runtime.store`'s; this module decides which move to make.

**Lease renewal.** A caller that claims a key records itself as the holder (see :mod:`toolkit.runtime.holders`)
with its ``lease``, and a :class:`Heartbeat` thread renews the claim every ``lease / 3`` seconds while the tool
runs and until its outcome is written. **Takeover** of a claim by an identical call happens only when the
holder is known to be gone:

* the holder is this process: gone once its call has returned (its token is no longer running here);
* the holder runs on this kernel in this pid namespace: gone when its pid is dead, a zombie, or reused;
* otherwise (another container, another host, a record from before holders were recorded): gone when it has
  not renewed its lease for ``lease`` seconds, measured on the host's boot clock.

A claim whose caller saw an exception, a ``timeout`` or an ``outcome_unknown`` answer, and a pending claim whose
holder is gone, is ``unknown``. It is settled only by a reconcile (the wrapper's ``reconcile`` callable, or
:func:`~toolkit.runtime.reconcile_pending`) or re-sent with the same idempotency key to an upstream that dedupes
on it; it never expires by TTL and is never swept.

**Fencing.** Every write about a claim names its token. A holder that finishes after its claim was taken over
(a paused container, a host whose heartbeat could not reach the file) finds another token or no record:
its receipt is then recorded, either as the key's completed record when there is none, or in
``late_completions``, which :func:`~toolkit.runtime.reconcile_pending` reports; never dropped.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from toolkit._exceptions import LedgerError
from toolkit.runtime import holders, store
from toolkit.runtime.ledger import Ledger
from toolkit.runtime.notes import Note
from toolkit.runtime.records import Instant, LedgerRecord

__all__ = [
    "DEFAULT_TTL",
    "Heartbeat",
    "Lookup",
    "Met",
    "MetKind",
    "apply_note",
    "finish",
    "holder_alive",
    "meet",
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
MetKind = Literal["free", "replay", "in_progress", "unknown", "reconcile", "reused"]


@dataclass(frozen=True, slots=True)
class Met:
    """What an earlier record says about a new call, as a tag and the record it read:

    ``free`` (no record, or an expired one: claim the key), ``replay`` (completed: the record's receipt),
    ``in_progress`` (a live holder is applying it), ``unknown`` (nobody is, and the outcome is unknown),
    ``reconcile`` (unknown, and the caller can ask the external system), ``reused`` (the key names a call with
    other arguments).
    """

    kind: MetKind
    record: LedgerRecord | None = None


def meet(
    conn: sqlite3.Connection,
    ledger: Ledger,
    record: LedgerRecord | None,
    at: Instant,
    *,
    lease: float,
    args_hash: str | None,
    can_reconcile: bool,
    notes: list[Note],
) -> Met:
    """Read ``record`` for a call whose arguments hash to ``args_hash``, inside the caller's transaction. A side
    note its holder left is applied (and added to ``notes``); a pending claim whose holder is gone becomes
    ``unknown`` here."""
    if record is not None and record.state == "completed" and record.expired(at):
        store.release(conn, record)
        record = None
    if record is None:
        return Met("free")
    if record.args_hash and args_hash and record.args_hash != args_hash:
        return Met("reused", record)
    if record.state == "completed":
        return Met("replay", record)
    note = ledger.notes.find(record.key, record.token)
    if note is not None:
        notes.append(note)
        noted = apply_note(conn, record, note, at)
        if noted is None or noted.state == "completed":
            return Met("free") if noted is None else Met("replay", noted)
        record = noted
    if record.state == "pending":
        if holder_alive(record, at, lease):
            return Met("in_progress", record)
        record = store.mark_unknown(conn, record)
    return Met("reconcile" if can_reconcile else "unknown", record)


def holder_alive(record: LedgerRecord, at: Instant, lease: float | None) -> bool:
    """Whether the holder of pending ``record`` may still apply its effect (see the module docstring);
    ``lease`` is the caller's, used when the record has none of its own (``None``: such records are gone)."""
    if record.state != "pending":
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
            return store.renew(conn, self.key, self.token, at)


def settle(conn: sqlite3.Connection, record: LedgerRecord, receipt: Any, at: Instant) -> LedgerRecord | None:
    """Resolve a pending or unknown record with what the external system says: completed (returned) when there
    is a receipt, released (``None``) when the effect did not happen."""
    if receipt is None:
        store.release(conn, record)
        return None
    return store.complete(conn, record, receipt, at)


def apply_note(conn: sqlite3.Connection, record: LedgerRecord, note: Note, at: Instant) -> LedgerRecord | None:
    """Apply a holder's side note to its still-pending claim: the completed record, ``None`` when the claim
    was released, or the record made ``unknown`` when the outcome is unknown."""
    if note.outcome == "applied":
        return settle(conn, record, note.receipt, at)
    if note.outcome == "not_applied":
        return settle(conn, record, None, at)
    return store.mark_unknown(conn, record)


def finish(conn: sqlite3.Connection, note: Note, session_id: str, at: Instant, ttl: float) -> Written:
    """Write a holder's own outcome. Its claim may have been taken over meanwhile: an applied effect is then
    recorded as the key's record if there is none, else as a late completion."""
    record = store.load(conn, note.key)
    if record is not None and record.token == note.token:
        if record.state == "pending":
            apply_note(conn, record, note, at)
        return "recorded"
    if note.outcome != "applied":
        return "recorded"  # nothing happened, or nobody knows: the new holder's reconcile decides
    if record is None:
        entry = store.Entry(note.key, session_id, note.tool)
        store.record_completed(conn, entry, note.receipt, at, ttl=ttl, token=note.token)
        return "late"
    store.record_late(conn, note.key, note.token, session_id, note.tool, note.receipt, at)
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
