"""The ledger as a state machine (``toolkit.runtime.store``): explicit states, one module owning the statements,
files of earlier releases migrated in place, and a ledger file that disappears is never a fresh start.
Real SQLite files throughout; effects go to a log file the test reads."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Mapping
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

import toolkit
from toolkit import ToolContext, ToolResult
from toolkit.runtime import Ledger, LedgerError, claims, dedupe_key, idempotent, store

SESSION = ToolContext(session_id="s-1")
PACKAGE = Path(toolkit.__file__).parent

# The table as the release before explicit states left it: pending or completed, abandonment as a token value.
TOKEN_SENTINEL_SCHEMA = """
CREATE TABLE idempotency (
    key TEXT PRIMARY KEY, session_id TEXT NOT NULL, tool TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'completed')), token TEXT NOT NULL, receipt TEXT,
    created_at REAL NOT NULL, completed_at REAL, expires_at REAL NOT NULL, holder TEXT, lease REAL,
    timeline TEXT, created_mono REAL, heartbeat_at REAL, heartbeat_mono REAL
);
CREATE INDEX idempotency_tool_state ON idempotency (tool, state);
"""


class Invoice:
    """A write whose effect is a line in a log file."""

    name = "send_invoice"
    effect = "write"

    def __init__(self, log: Path, then: Any = None) -> None:
        self.log, self.then = log, then

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        with self.log.open("a") as out:
            out.write(f"{args['amount']}\n")
        if self.then is not None:
            self.then()
        return ToolResult(status="ok", data={"invoice": args["amount"]})

    def effects(self) -> list[str]:
        return self.log.read_text().split() if self.log.exists() else []


def test_every_statement_on_the_dedupe_tables_lives_in_the_store_module() -> None:
    statement = re.compile(r"(?:INTO|UPDATE|FROM|TABLE)\s+(?:idempotency|late_completions)\b", re.IGNORECASE)
    strays = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if path.name != "store.py" and statement.search(path.read_text(encoding="utf-8"))
    ]
    assert strays == []


def test_a_token_sentinel_from_an_earlier_release_becomes_the_unknown_state(tmp_path: Path) -> None:
    path, tool = tmp_path / "ledger.sqlite3", Invoice(tmp_path / "effects.log")
    key = dedupe_key("s-1", "send_invoice", {"amount": 5})
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.executescript(TOKEN_SENTINEL_SCHEMA)
        conn.execute(
            "INSERT INTO idempotency (key, session_id, tool, state, token, created_at, expires_at)"
            " VALUES (?, 's-1', 'send_invoice', 'pending', 'orphaned', 1767225600, 9999999999)",
            (key,),
        )
    ledger = Ledger(path)
    [record] = ledger.records()
    assert (record.key, record.state) == (key, "unknown")
    refused = idempotent(tool, ledger=ledger).call({"amount": 5}, SESSION)
    assert (refused.status, refused.retryable) == ("error", False)
    assert tool.effects() == []
    assert idempotent(tool, ledger=ledger).call({"amount": 6}, SESSION).ok  # the rebuilt table takes new rows
    assert [r.state for r in ledger.records(state="unknown")] == ["unknown"]


@pytest.mark.parametrize(
    ("row", "kind"),
    [
        (None, "free"),
        ("completed", "replay"),
        ("expired", "free"),
        ("pending", "in_progress"),
        ("unknown", "unknown"),
        ("unknown-reconcilable", "reconcile"),
        ("other-arguments", "reused"),
    ],
)
def test_meeting_a_record_gives_a_tagged_outcome(tmp_path: Path, row: str | None, kind: str) -> None:
    ledger = Ledger(tmp_path / "ledger.sqlite3")
    at, key = ledger.instant(), "k" * 64
    entry = store.Entry(key, "s-1", "send_invoice", args_hash="a")
    with ledger.transaction() as conn:
        if row in ("completed", "expired", "other-arguments"):
            ttl = 0.0 if row == "expired" else 60.0
            store.record_completed(conn, entry, {"n": 1}, at, ttl=ttl)
        elif row is not None:
            token = store.claim(conn, entry, at, ttl=60, lease=60)
    with claims.Heartbeat(ledger, key, token if row == "pending" else "", 60), ledger.transaction() as conn:
        if row is not None and row.startswith("unknown"):
            record = store.load(conn, key)
            assert record is not None
            store.mark_unknown(conn, record)
        found = claims.meet(
            conn,
            ledger,
            store.load(conn, key),
            ledger.instant(),
            lease=60,
            args_hash="b" if row == "other-arguments" else "a",
            can_reconcile=row == "unknown-reconcilable",
            notes=[],
        )
    assert found.kind == kind
    assert (found.record is None) is (kind == "free")


def test_a_ledger_file_deleted_while_in_use_is_a_typed_error_before_any_effect(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    ledger, tool = Ledger(path), Invoice(tmp_path / "effects.log")
    wrapped = idempotent(tool, ledger=ledger)
    assert wrapped.call({"amount": 5}, SESSION).ok
    for file in tmp_path.glob("ledger.sqlite3*"):
        file.unlink()
    with pytest.raises(LedgerError) as caught:
        wrapped.call({"amount": 5}, SESSION)
    assert caught.value.slug == "ledger_unavailable"
    assert "deleted" in caught.value.message
    assert tool.effects() == ["5"]


def test_a_ledger_deleted_mid_call_keeps_the_outcome_aside_and_refuses_a_fresh_start(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"

    def delete() -> None:
        for file in tmp_path.glob("ledger.sqlite3*"):
            if file.is_file():
                file.unlink()

    tool = Invoice(tmp_path / "effects.log", then=delete)
    first = idempotent(tool, ledger=Ledger(path)).call({"amount": 5}, SESSION)
    assert first.ok
    assert [n.action for n in first.notices] == ["unrecorded"]
    with pytest.raises(LedgerError) as caught:
        Ledger(path)  # a restart
    assert caught.value.slug == "ledger_unavailable"
    assert "ledger.sqlite3.unrecorded" in caught.value.message
    assert tool.effects() == ["5"]


def test_a_stable_scope_dedupes_across_sessions_and_restarts(tmp_path: Path) -> None:
    tool = Invoice(tmp_path / "effects.log")
    first = idempotent(tool, ledger=Ledger(tmp_path / "ledger.sqlite3"), scope="run-7")
    assert first.call({"amount": 5}, ToolContext(session_id="a")).ok
    restarted = idempotent(tool, ledger=Ledger(tmp_path / "ledger.sqlite3"), scope="run-7")
    assert restarted.call({"amount": 5}, ToolContext(session_id="b")).replay is not None
    unscoped = idempotent(tool, ledger=Ledger(tmp_path / "ledger.sqlite3"))
    assert unscoped.call({"amount": 5}, ToolContext(session_id="b")).replay is None  # sessions scope by default
    assert tool.effects() == ["5", "5"]
