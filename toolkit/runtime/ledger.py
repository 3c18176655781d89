"""The idempotency ledger: a real SQLite file that remembers which write calls already happened.

One file holds three tables: ``idempotency`` (one row per dedupe key: ``pending`` while an external effect is
in flight, ``unknown`` when nobody knows whether it happened, ``completed`` with the receipt afterwards; the
states and every statement on the table are :mod:`toolkit.runtime.store`'s), ``late_completions`` (receipts of
holders whose claim was taken over before they finished, kept for :func:`~toolkit.runtime.reconcile_pending` to
report) and
``reservations`` (holds that lapse by expiry, see :mod:`toolkit.runtime.saga`). The file is opened in WAL mode
with a ``busy_timeout``, so several processes can share it: writers queue on ``BEGIN IMMEDIATE`` instead of
failing. A file the ledger cannot use (locked past ``busy_timeout``, corrupt or truncated, someone else's
``idempotency`` table, a folder, read-only, under a file, deleted while in use or deleted while the outcomes of
its claims wait beside it in ``<file>.unrecorded/``) raises :class:`~toolkit.runtime.LedgerError` with a
slug, the file's name and what to do; nothing is called before the ledger has answered. A deleted file is never
a fresh start while anything says it held claims.

Clocks. All processes sharing a ledger run on **one host** (one kernel): SQLite's WAL mode needs shared memory,
so a ledger on a network file system is not supported. The ledger measures how old a record or a lease is on
that host's boot clock (``CLOCK_BOOTTIME``, read by every process alike and moved neither by NTP steps nor by a
process whose wall clock is wrong; see :mod:`toolkit.runtime.holders`), stored beside the wall-clock time. The
wall clock (``clock``) dates records (``replay.original_at``) and measures ages only across a reboot, where a
record dated in the caller's future counts as unexpired. Either way, when the caller's wall clock disagrees
with a record's by more than :data:`CLOCK_TOLERANCE` the replay carries a ``clock_skew`` notice.

Time comes from an injectable clock (epoch seconds). A clock with a ``monotonic()`` method, like
:class:`ManualClock`, also replaces the boot clock, so TTL expiry and replay timestamps are testable and a
notebook can show stable output::

    clock = ManualClock(1_700_000_000)
    ledger = Ledger(tmp / "ledger.sqlite3", clock=clock)
    clock.advance(3600)          # an hour later, without sleeping
"""

from __future__ import annotations

import errno
import os
import sqlite3
import threading
import time
import uuid
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from toolkit._exceptions import LedgerError, RuntimeConfigError
from toolkit.runtime import holders, store
from toolkit.runtime.notes import Note, Notes
from toolkit.runtime.records import (
    Instant,
    LateCompletion,
    LedgerRecord,
    RecordState,
    encode_receipt,
    iso_time,
)

__all__ = [
    "CLOCK_TOLERANCE",
    "DEFAULT_LEDGER_PATH",
    "Clock",
    "Instant",
    "LateCompletion",
    "Ledger",
    "LedgerRecord",
    "ManualClock",
    "Sweep",
    "encode_receipt",
    "iso_time",
]

DEFAULT_LEDGER_PATH = Path(".toolkit") / "ledger.sqlite3"
"""Where :class:`Ledger` keeps its file when no path is given, relative to the working folder."""

Clock = Callable[[], float]
"""Returns the current time in epoch seconds (``time.time`` by default)."""

CLOCK_TOLERANCE = 5.0
"""Seconds by which wall clocks may disagree before a replay reports ``clock_skew``."""

_RESERVATIONS = """
CREATE TABLE IF NOT EXISTS reservations (
    id TEXT PRIMARY KEY,
    resource TEXT NOT NULL,
    holder TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('held', 'confirmed', 'released', 'lapsed')),
    created_at REAL NOT NULL,
    expires_at REAL NOT NULL,
    settled_at REAL
);
CREATE INDEX IF NOT EXISTS reservations_resource ON reservations (resource, state);"""
# Columns a reservations table must have to be the ledger's own.
_RESERVATION_COLUMNS = {"id", "resource", "holder", "state", "created_at", "expires_at", "settled_at"}


class ManualClock:
    """A clock that only moves when told to: for tests and notebooks that need stable timestamps. It is its own
    timeline too (``monotonic()``), so ages and TTLs follow :meth:`advance`."""

    def __init__(self, start: float = 1_767_225_600.0) -> None:  # 2026-01-01T00:00:00+00:00
        self._now = float(start)
        self._lock = threading.Lock()
        self.timeline = f"manual-{uuid.uuid4().hex[:12]}"

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def monotonic(self) -> float:
        return self()

    def advance(self, seconds: float) -> float:
        """Move the clock forward and return the new time."""
        with self._lock:
            self._now += seconds
            return self._now


@dataclass(frozen=True, slots=True)
class Sweep:
    """What one :meth:`Ledger.sweep` cleared: expired dedupe records and reservations that lapsed."""

    expired_records: int
    lapsed_reservations: int


class Ledger:
    """A SQLite file (WAL, ``busy_timeout``) shared by threads and processes; each operation opens its own
    connection, so a ledger object is safe to hand to worker threads.

    ``path`` defaults to ``.toolkit/ledger.sqlite3`` under the current working folder; its parent folder is
    created. ``clock`` returns epoch seconds. ``busy_timeout`` is how long a writer waits for the lock (and how
    long a completion keeps retrying before its receipt goes to a side file, see :meth:`keep_note`).
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
        if not busy_timeout >= 0:
            raise RuntimeConfigError(f"busy_timeout must be seconds >= 0, got {busy_timeout!r}")
        self.synchronous = synchronous
        self.path = Path(path) if path is not None else Path.cwd() / DEFAULT_LEDGER_PATH
        self.clock = clock
        self.busy_timeout = busy_timeout
        monotonic = getattr(clock, "monotonic", None)
        self._mono: Callable[[], float] = monotonic if callable(monotonic) else holders.boot_seconds
        self._timeline = str(getattr(clock, "timeline", "")) if callable(monotonic) else holders.TIMELINE
        self.notes = Notes(self.path)
        self._anchor: sqlite3.Connection | None = None
        try:
            if self.path.is_dir():
                raise IsADirectoryError(21, "Is a directory", str(self.path))
            self._check_not_lost()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.exists():  # SQLite would fall back to reading only, and fail at the first write
                os.close(os.open(self.path, os.O_RDWR))
        except OSError as error:
            raise location_error(self.path, error) from error
        with self.guarded():
            self._create_schema()
            # Held open for the ledger's lifetime: when the *last* connection to a WAL database closes, SQLite
            # checkpoints and deletes the WAL file, which would make every short-lived connection pay an fsync.
            anchor = sqlite3.connect(self.path, check_same_thread=False)
            anchor.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # really opens the file
        self._anchor = anchor
        weakref.finalize(self, anchor.close)

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

    def instant(self) -> Instant:
        """The wall clock and the timeline, read together."""
        return Instant(wall=self.now(), timeline=self._timeline, mono=float(self._mono()))

    # -- connections ---------------------------------------------------------------------------------
    @contextmanager
    def guarded(self) -> Iterator[None]:
        """Turn SQLite's errors inside the block into :class:`LedgerError` naming this file."""
        try:
            yield
        except sqlite3.Error as error:
            raise ledger_error(self.path, error, self.busy_timeout) from error

    def connect(self, *, timeout: float | None = None) -> sqlite3.Connection:
        """A new connection in autocommit mode (transactions are explicit) with the busy timeout set."""
        seconds = self.busy_timeout if timeout is None else timeout
        if self._anchor is not None and not self.path.exists():  # SQLite would make a new, empty file
            raise LedgerError(
                f"the ledger {self.path} was deleted or moved while in use; its records (claims in flight "
                "too) are gone with it, so nothing runs until it is restored (or the process is restarted on a "
                "new file once those calls are reconciled with their external systems)",
                slug="ledger_unavailable",
            )
        with self.guarded():
            conn = sqlite3.connect(self.path, timeout=seconds, isolation_level=None)
            try:
                conn.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")
                conn.execute(f"PRAGMA synchronous = {self.synchronous}")
            except BaseException:
                conn.close()
                raise
        return conn

    @contextmanager
    def transaction(self, *, timeout: float | None = None) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on an exception): one writer at a time, across processes.
        Failing to begin or to commit raises :class:`LedgerError`; errors inside the block pass through."""
        conn = self.connect(timeout=timeout)
        try:
            with self.guarded():
                conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                with suppress(sqlite3.Error):  # a failed rollback must not hide why it was needed
                    conn.execute("ROLLBACK")
                raise
            with self.guarded():
                conn.execute("COMMIT")
        finally:
            conn.close()

    def _create_schema(self) -> None:
        conn = self.connect()
        try:
            self._enter_wal(conn)
            if self._schema_work(conn):
                conn.execute("BEGIN IMMEDIATE")  # re-read under the lock: another process may have done it
                for statement in self._schema_work(conn):
                    conn.execute(statement)
                conn.execute("COMMIT")
        finally:
            conn.close()

    def _enter_wal(self, conn: sqlite3.Connection) -> None:
        """Switch the file to WAL, waiting up to ``busy_timeout`` for the lock that takes.

        SQLite answers a busy ``PRAGMA journal_mode = WAL`` at once, without calling the busy handler: while
        another process holds the file (in a fresh file, typically one making the same switch), it fails on the
        first try. So the wait is here, re-reading the mode each time: the other process may have switched it."""
        deadline = time.monotonic() + self.busy_timeout
        pause = 0.001
        while conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                return  # switched, or SQLite kept a mode it cannot leave (it says so, it does not fail)
            except sqlite3.OperationalError as error:
                text = str(error).lower()
                if ("locked" not in text and "busy" not in text) or time.monotonic() >= deadline:
                    raise
            time.sleep(min(pause, max(0.0, deadline - time.monotonic())))
            pause = min(pause * 2, 0.05)

    def _schema_work(self, conn: sqlite3.Connection) -> list[str]:
        """The statements that would make this file a current ledger (none when it is one already)."""
        work = store.schema_work(conn, self.path)
        present = {row[1] for row in conn.execute("PRAGMA table_info(reservations)")}
        if not present:
            work += [statement.strip() for statement in _RESERVATIONS.split(";") if statement.strip()]
        else:
            store.check_own(present, _RESERVATION_COLUMNS, "reservations", self.path)
        return work

    def _check_not_lost(self) -> None:
        """A missing file whose claims left outcomes beside it was deleted or moved: starting afresh would run
        those calls again."""
        if self.path.exists() or not any(self.notes.folder.glob("*.json")):
            return
        raise LedgerError(
            f"the ledger {self.path} is missing, but {self.notes.folder} holds outcomes of its claims: it was "
            "deleted or moved, and a new file would run those calls again; restore the file (or, once every "
            "call they name is reconciled with its external system, move that folder away)",
            slug="ledger_unavailable",
        )

    # -- dedupe records ------------------------------------------------------------------------------
    def record(self, key: str) -> LedgerRecord | None:
        """The record stored under ``key`` (expired or not), or ``None``."""
        conn = self.connect()
        try:
            with self.guarded():
                return store.load(conn, key)
        finally:
            conn.close()

    def records(self, *, tool: str | None = None, state: RecordState | None = None) -> list[LedgerRecord]:
        """All records, oldest first, optionally only one tool's or one state's."""
        conn = self.connect()
        try:
            with self.guarded():
                return store.select(conn, tool=tool, state=state)
        finally:
            conn.close()

    def sweep(self) -> Sweep:
        """Delete expired *completed* records and mark expired, unconfirmed reservations as lapsed. Pending and
        unknown claims are never swept: their outcome is unknown until a reconcile settles them."""
        at = self.instant()
        with self.transaction() as conn, self.guarded():
            expired = store.delete_expired(conn, at)
            lapsed = conn.execute(
                "UPDATE reservations SET state = 'lapsed', settled_at = ? WHERE state = 'held' AND expires_at <= ?",
                (at.wall, at.wall),
            ).rowcount
        return Sweep(expired_records=expired, lapsed_reservations=lapsed)

    # -- what a holder could not record --------------------------------------------------------------
    def keep_note(self, note: Note) -> str:
        """Keep what a holder could not write into the ledger (a receipt, or "not applied", or "unknown") in a
        side file next to it, ``<ledger>.unrecorded/``, or in this process's memory when that folder cannot
        be written either; returns where. The next call that meets the claim applies the note."""
        return self.notes.keep(note)

    def late_completions(self, tool: str | None = None) -> list[LateCompletion]:
        """Receipts of holders that finished after their claim had been taken over, oldest first."""
        conn = self.connect()
        try:
            with self.guarded():
                return store.late(conn, tool)
        finally:
            conn.close()


# -- what went wrong with the file -------------------------------------------------------------------
def location_error(path: Path, error: OSError) -> LedgerError:
    """The ledger's path or its folder cannot hold a file."""
    if isinstance(error, IsADirectoryError) or path.is_dir():
        return LedgerError(
            f"the ledger path {path} is a folder; give Ledger a file path such as {path / 'ledger.sqlite3'}",
            slug="ledger_path",
        )
    blocker = next((p for p in (path, *path.parents) if p.exists() and not p.is_dir()), None)
    if isinstance(error, FileExistsError | NotADirectoryError) and blocker is not None and blocker != path:
        return LedgerError(
            f"the ledger {path} cannot be created: {blocker} is a file, not a folder; move that file away or "
            "give Ledger a path in a folder",
            slug="ledger_path",
        )
    if isinstance(error, PermissionError) or error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return _read_only(path)
    return LedgerError(f"the ledger {path} cannot be opened ({error}); check the path", slug="ledger_unavailable")


def _read_only(path: Path) -> LedgerError:
    return LedgerError(
        f"the ledger {path} cannot be written (a read-only file, folder or file system; SQLite also needs to "
        f"create {path.name}-wal and {path.name}-shm beside it); make it writable or give Ledger a path in a "
        "writable folder",
        slug="ledger_read_only",
    )


def ledger_error(path: Path, error: sqlite3.Error, busy_timeout: float) -> LedgerError:
    """SQLite's error, said with the file's name and what to do."""
    text = str(error).lower()
    if "locked" in text or "busy" in text:
        return LedgerError(
            f"the ledger {path} stayed locked by another connection for more than busy_timeout={busy_timeout:g} s; "
            "find the process holding it (a long transaction, a database browser), or raise busy_timeout",
            slug="ledger_locked",
        )
    if "readonly" in text or "read-only" in text:
        return _read_only(path)
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return LedgerError(
            f"the ledger {path} is not a readable SQLite database (corrupted or truncated: {error}); move it "
            "aside and let Ledger create a new file (the records in it are lost to the wrapper: reconcile their "
            "tools' effects with the external systems), or restore it from a backup",
            slug="ledger_corrupt",
        )
    if "unable to open" in text:
        folder = path.parent
        if path.is_dir():
            return location_error(path, IsADirectoryError(21, "Is a directory", str(path)))
        if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
            return _read_only(path)
    return LedgerError(
        f"the ledger {path} cannot be used: {error}; check the file and its folder", slug="ledger_unavailable"
    )
