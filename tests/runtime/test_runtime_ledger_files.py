"""A ledger file that cannot be used is a typed error naming the file and what to do, and no effect runs.

Each case is made for real: garbage and truncated files, someone else's ``idempotency`` table, a lock held by
another connection, a folder as the path, a file as the parent folder, and read-only files and folders (made
read-only with a read-only bind mount in a private mount namespace when the tests run as root, since root
ignores permission bits; with ``chmod`` otherwise).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest
from locations import TESTS

from toolkit import ToolContext, ToolResult
from toolkit.runtime import Executor, Ledger, LedgerError, idempotent, ledger_connection

SESSION = ToolContext(session_id="s-1")
WORKER = TESTS / "runtime_workers" / "ledger_worker.py"

FIRST_RELEASE_SCHEMA = """
CREATE TABLE idempotency (
    key TEXT PRIMARY KEY, session_id TEXT NOT NULL, tool TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'completed')), token TEXT NOT NULL, receipt TEXT,
    created_at REAL NOT NULL, completed_at REAL, expires_at REAL NOT NULL
);
CREATE INDEX idempotency_tool_state ON idempotency (tool, state);
CREATE TABLE reservations (
    id TEXT PRIMARY KEY, resource TEXT NOT NULL, holder TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('held', 'confirmed', 'released', 'lapsed')),
    created_at REAL NOT NULL, expires_at REAL NOT NULL, settled_at REAL
);
"""


class Counter:
    name = "send_invoice"
    effect = "write"

    def __init__(self) -> None:
        self.effects = 0

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        self.effects += 1
        return ToolResult(status="ok", data={"invoice_id": f"inv_{self.effects}"})


class Booking:
    """A same-database tool: its effect goes through the ledger's transaction."""

    name = "book"
    effect = "write"

    def __init__(self) -> None:
        self.effects = 0

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        ledger_connection(context).execute("CREATE TABLE IF NOT EXISTS seats (seat TEXT)")
        self.effects += 1
        return ToolResult(status="ok", data={"seat": args["seat"]})


def refused(path: Path, slug: str, **options: Any) -> LedgerError:
    with pytest.raises(LedgerError) as caught:
        Ledger(path, **options)
    assert caught.value.slug == slug
    assert str(path) in caught.value.message
    return caught.value


def filled_ledger(path: Path, calls: int = 200) -> None:
    with Ledger(path) as ledger:
        wrapped = idempotent(Counter(), ledger=ledger)
        for n in range(calls):
            wrapped.call({"n": n, "padding": "x" * 200}, SESSION)
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def test_a_file_that_is_not_a_database_is_refused_as_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    path.write_bytes(b"this is not SQLite " * 300)
    error = refused(path, "ledger_corrupt")
    assert "move it aside" in error.message
    assert error.retryable is False
    assert path.read_bytes().startswith(b"this is not SQLite")  # left as it was, for whoever investigates


@pytest.mark.parametrize("keep", [0.5, 0.02], ids=["half", "header-only"])
def test_a_truncated_ledger_is_refused_as_corrupt(tmp_path: Path, keep: float) -> None:
    path = tmp_path / "ledger.sqlite3"
    filled_ledger(path)
    data = path.read_bytes()
    path.write_bytes(data[: max(100, int(len(data) * keep))])
    refused(path, "ledger_corrupt")


@pytest.mark.parametrize("mode", ["external", "transaction"])
def test_a_ledger_corrupted_after_opening_refuses_the_call_before_the_effect(tmp_path: Path, mode: str) -> None:
    path = tmp_path / "ledger.sqlite3"
    filled_ledger(path)
    ledger = Ledger(path)
    tool = Counter() if mode == "external" else Booking()
    wrapped = idempotent(tool, ledger=ledger, mode=mode)
    size = path.stat().st_size
    path.write_bytes(b"\x00garbage" * (size // 8))
    with pytest.raises(LedgerError) as caught:
        wrapped.call({"seat": "12A", "n": -1}, SESSION)
    assert caught.value.slug == "ledger_corrupt"
    assert tool.effects == 0
    ledger.close()


def test_someone_elses_idempotency_table_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "app.sqlite3"
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("CREATE TABLE idempotency (id INTEGER PRIMARY KEY, request TEXT, response TEXT)")
        conn.execute("INSERT INTO idempotency (request, response) VALUES ('r', 'ok')")
    error = refused(path, "ledger_schema")
    assert "'idempotency'" in error.message
    assert "file of its own" in error.message
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("SELECT request, response FROM idempotency").fetchall() == [("r", "ok")]
        columns = [row[1] for row in conn.execute("PRAGMA table_info(idempotency)")]
    assert columns == ["id", "request", "response"]


def test_a_ledger_from_the_first_release_is_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    tool = Counter()
    key = idempotent(tool, ledger=Ledger(tmp_path / "scratch.sqlite3")).key_for({"n": 1}, SESSION)
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.executescript(FIRST_RELEASE_SCHEMA)
        conn.execute(
            "INSERT INTO idempotency VALUES (?, 's-1', 'send_invoice', 'completed', 'tok', ?, 1767225600, 1767225600,"
            " 9999999999)",
            (key, json.dumps({"invoice_id": "inv_0"})),
        )
    ledger = Ledger(path)
    replayed = idempotent(tool, ledger=ledger).call({"n": 1}, SESSION)
    assert replayed.replay is not None
    assert replayed.data == {"invoice_id": "inv_0"}
    assert tool.effects == 0
    assert idempotent(tool, ledger=ledger).call({"n": 2}, SESSION).replay is None
    [new] = [r for r in ledger.records() if r.key != key]
    assert new.holder is not None
    assert new.timeline is not None


def test_a_file_locked_by_another_connection_at_opening_is_a_typed_error(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    with closing(sqlite3.connect(path, isolation_level=None)) as holder:
        holder.execute("CREATE TABLE other (x)")  # a rollback-journal file: an exclusive lock blocks readers
        holder.execute("BEGIN EXCLUSIVE")
        error = refused(path, "ledger_locked", busy_timeout=0.1)
        holder.execute("ROLLBACK")
    assert "busy_timeout=0.1 s" in error.message
    assert Ledger(path).records() == []  # once released, the same file opens


def test_opening_waits_for_a_writer_holding_a_fresh_file_instead_of_failing_at_once(tmp_path: Path) -> None:
    """SQLite refuses a busy switch to WAL at once, without its busy handler: eight processes opening one new
    ledger together used to lose one of them to a ``ledger_locked`` that claimed a 30 s wait."""
    path = tmp_path / "ledger.sqlite3"
    with closing(sqlite3.connect(path, isolation_level=None, check_same_thread=False)) as holder:
        holder.execute("BEGIN IMMEDIATE")  # a rollback-journal file with a writer: what a racing opener meets
        threading.Timer(0.3, holder.execute, ("COMMIT",)).start()
        started = time.monotonic()
        ledger = Ledger(path, busy_timeout=10)
        waited = time.monotonic() - started
    assert 0.25 < waited < 10
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert ledger.records() == []


def test_a_writer_holding_a_fresh_file_past_busy_timeout_is_ledger_locked_after_that_wait(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    with closing(sqlite3.connect(path, isolation_level=None)) as holder:
        holder.execute("BEGIN IMMEDIATE")
        started = time.monotonic()
        error = refused(path, "ledger_locked", busy_timeout=0.4)
        waited = time.monotonic() - started
        holder.execute("ROLLBACK")
    assert waited >= 0.4  # the message says it waited busy_timeout: it did
    assert "busy_timeout=0.4 s" in error.message


@pytest.mark.parametrize("mode", ["external", "transaction"])
def test_a_ledger_held_locked_refuses_the_call_before_the_effect(tmp_path: Path, mode: str) -> None:
    path = tmp_path / "ledger.sqlite3"
    ledger = Ledger(path, busy_timeout=0.1)
    tool = Counter() if mode == "external" else Booking()
    wrapped = idempotent(tool, ledger=ledger, mode=mode)
    with closing(sqlite3.connect(path, isolation_level=None)) as holder:
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(LedgerError) as caught:
            wrapped.call({"seat": "12A"}, SESSION)
        holder.execute("ROLLBACK")
    assert caught.value.slug == "ledger_locked"
    assert str(path) in caught.value.message
    assert tool.effects == 0
    assert wrapped.call({"seat": "12A"}, SESSION).ok
    assert tool.effects == 1


def test_the_executor_reports_a_locked_ledger_as_a_retryable_error_and_runs_nothing(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    tool = Counter()
    executor = Executor([tool], ledger=Ledger(path, busy_timeout=0.1))
    with closing(sqlite3.connect(path, isolation_level=None)) as holder:
        holder.execute("BEGIN IMMEDIATE")
        locked = executor.execute("send_invoice", {"n": 1}, SESSION)
        holder.execute("ROLLBACK")
    assert (locked.status, locked.retryable) == ("error", True)
    assert "LedgerError" in locked.message
    assert str(path) in locked.message
    assert tool.effects == 0
    assert executor.execute("send_invoice", {"n": 1}, SESSION).ok
    assert tool.effects == 1


def test_a_folder_as_the_path_is_refused(tmp_path: Path) -> None:
    error = refused(tmp_path, "ledger_path")
    assert "is a folder" in error.message
    assert str(tmp_path / "ledger.sqlite3") in error.message


@pytest.mark.parametrize("depth", [1, 2], ids=["parent", "grandparent"])
def test_a_file_where_the_folder_should_be_is_refused(tmp_path: Path, depth: int) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("not a folder")
    path = blocker / "sub" / "ledger.sqlite3" if depth == 2 else blocker / "ledger.sqlite3"
    error = refused(path, "ledger_path")
    assert f"{blocker} is a file" in error.message
    assert blocker.read_text() == "not a folder"


# -- read-only files and folders, in a worker process ---------------------------------------------------------
def _can_bind_mount() -> bool:
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    probe = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "mount", "--bind", "/", "/mnt"],
        capture_output=True,
        check=False,
    )
    return probe.returncode == 0


ROOT = os.geteuid() == 0
needs_read_only = pytest.mark.skipif(
    ROOT and not _can_bind_mount(),
    reason="running as root (which ignores permission bits) without mount namespaces to make a read-only bind mount",
)


@contextmanager
def read_only(target: Path) -> Iterator[list[str]]:
    """A command prefix under which ``target`` cannot be written."""
    if ROOT:
        script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
        yield ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, str(target)]
        return
    mode = target.stat().st_mode
    target.chmod(0o555 if target.is_dir() else 0o444)
    try:
        yield []
    finally:
        target.chmod(mode)


def call_in_worker(prefix: list[str], ledger: Path, log: Path) -> dict[str, Any]:
    command = [*prefix, sys.executable, str(WORKER), "--ledger", str(ledger), "--log", str(log)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@needs_read_only
@pytest.mark.parametrize("exists", [False, True], ids=["new-file", "existing-file"])
def test_a_read_only_folder_is_a_typed_error_and_no_effect(tmp_path: Path, exists: bool) -> None:
    folder = tmp_path / "state"
    folder.mkdir()
    if exists:
        filled_ledger(folder / "ledger.sqlite3", calls=1)
    log = tmp_path / "effects.log"
    with read_only(folder) as prefix:
        out = call_in_worker(prefix, folder / "ledger.sqlite3", log)
    assert (out.get("raised"), out.get("slug")) == ("LedgerError", "ledger_read_only")
    assert str(folder / "ledger.sqlite3") in out["message"]
    assert "writable" in out["message"]
    assert not log.exists()


@needs_read_only
def test_a_read_only_ledger_file_is_a_typed_error_and_no_effect(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    filled_ledger(path, calls=1)
    log = tmp_path / "effects.log"
    with read_only(path) as prefix:
        out = call_in_worker(prefix, path, log)
    assert (out.get("raised"), out.get("slug")) == ("LedgerError", "ledger_read_only")
    assert str(path) in out["message"]
    assert not log.exists()
