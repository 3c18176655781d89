"""A worker process that calls an idempotent ``transfer`` tool once and prints the envelope as JSON.

Run by ``tests/runtime/test_runtime_processes.py`` as a real subprocess so that crashes (SIGKILL) and races between
processes are real. The effect goes either to an "external" SQLite file the ledger cannot enlist
(``--mode external``) or to a table in the ledger's own database (``--mode transaction``).

Options:
  --crash before|after   SIGKILL this process just before / just after the external effect, i.e. always
                         before the ledger records completion
  --reconcile            on start, resolve pending records by asking the external file (restart path)
  --barrier DIR --parties N   wait until N workers are ready (files in DIR) before calling: a start line
  --hold                 (with --barrier) the worker that wins the claim holds its effect until every other
                         worker has answered (``done-*`` files in DIR), so they all meet the pending claim
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sqlite3
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from toolkit import ToolContext, ToolResult
from toolkit.runtime import DEDUPE_KEY_EXTRA, Ledger, idempotent, ledger_connection, reconcile_pending


def external(path: str) -> sqlite3.Connection:
    """The external system's file, made on first use. Switching a file to WAL needs it alone, and SQLite
    refuses at once (no busy wait) while another process holds it: the test makes the file before workers race
    (``files`` fixture), and a worker switches only a file that is not in WAL yet."""
    conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE IF NOT EXISTS effects (key TEXT NOT NULL, amount INTEGER NOT NULL, pid INTEGER)")
    return conn


class Transfer:
    """Moves ``amount``; the external system records the dedupe key it was given (an Idempotency-Key)."""

    name = "transfer"
    effect = "write"

    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        assert context is not None
        key = context.extras[DEDUPE_KEY_EXTRA]
        if self.options.hold:
            wait_for(Path(self.options.barrier), "done-*", self.options.parties - 1)
        if self.options.crash == "before":
            os.kill(os.getpid(), signal.SIGKILL)
        if self.options.mode == "transaction":
            conn = ledger_connection(context)
            conn.execute("CREATE TABLE IF NOT EXISTS transfers (key TEXT NOT NULL, amount INTEGER, pid INTEGER)")
            conn.execute("INSERT INTO transfers VALUES (?, ?, ?)", (key, args["amount"], os.getpid()))
        else:
            conn = external(self.options.external)
            conn.execute("INSERT INTO effects VALUES (?, ?, ?)", (key, args["amount"], os.getpid()))
            conn.close()
        if self.options.crash == "after":
            os.kill(os.getpid(), signal.SIGKILL)
        return ToolResult(status="ok", data={"transfer_id": f"tr_{key[:10]}", "pid": os.getpid()})


def lookup(external_path: str) -> Callable[[str], dict[str, Any] | None]:
    def find(key: str) -> dict[str, Any] | None:
        conn = external(external_path)
        row = conn.execute("SELECT pid FROM effects WHERE key = ?", (key,)).fetchone()
        conn.close()
        return None if row is None else {"transfer_id": f"tr_{key[:10]}", "pid": row[0]}

    return find


def wait_for(directory: Path, pattern: str, count: int) -> None:
    deadline = time.monotonic() + 120  # generous: on a loaded machine a worker may take long to start
    while len(list(directory.glob(pattern))) < count:
        if time.monotonic() > deadline:
            sys.exit(f"barrier: fewer than {count} {pattern} files after 120 s")
        time.sleep(0.001)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ledger", required=True)
    parser.add_argument("--external", required=True)
    parser.add_argument("--mode", choices=["external", "transaction"], default="external")
    parser.add_argument("--session", default="s-1")
    parser.add_argument("--amount", type=int, default=100)
    parser.add_argument("--crash", choices=["before", "after"])
    parser.add_argument("--reconcile", action="store_true")
    parser.add_argument("--wait", type=float, default=0.0)
    parser.add_argument("--barrier")
    parser.add_argument("--parties", type=int, default=2)
    parser.add_argument("--hold", action="store_true")
    options = parser.parse_args()

    ledger = Ledger(options.ledger)
    external(options.external).close()
    report = None
    if options.reconcile:
        report = reconcile_pending(ledger, "transfer", lookup(options.external))
    tool = idempotent(Transfer(options), ledger=ledger, mode=options.mode, wait=options.wait)
    if options.barrier:
        (Path(options.barrier) / f"ready-{os.getpid()}").touch()
        wait_for(Path(options.barrier), "ready-*", options.parties)
    result = tool.call({"amount": options.amount}, ToolContext(session_id=options.session))
    if options.barrier:
        (Path(options.barrier) / f"done-{os.getpid()}").touch()
    out = result.to_dict()
    if report is not None:
        out["reconciled"] = {"completed": len(report.completed), "released": len(report.released)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
