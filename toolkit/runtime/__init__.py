"""The runtime contract: idempotent writes, per-item batches, reported sagas, a governed executor, and a
scripted-model loop for in-agent tests.

    from toolkit.runtime import Executor, Ledger, idempotent

    ledger = Ledger(".toolkit/ledger.sqlite3")
    transfer = idempotent(transfer_tool, ledger=ledger, ttl=24 * 3600)
    executor = Executor([search_tool, transfer], timeout=10, governance=require_confirmation)
    executor.execute("transfer_funds", args, ToolContext(session_id="s-1"))   # a repeat → replay

Only the standard library is imported here (sqlite3, threading); pandas loads on ``to_frame()``.
"""

from __future__ import annotations

from toolkit.runtime.batch import ItemFailure, default_retryable, run_batch
from toolkit.runtime.executor import Decision, Executor, Governance, ProgressEvent, require_confirmation
from toolkit.runtime.idempotency import (
    CONNECTION_EXTRA,
    DEDUPE_KEY_EXTRA,
    CallableTool,
    Idempotent,
    ReconcileReport,
    dedupe_key,
    idempotent,
    ledger_connection,
    reconcile_pending,
)
from toolkit.runtime.ledger import DEFAULT_LEDGER_PATH, Ledger, LedgerRecord, ManualClock, Sweep, iso_time
from toolkit.runtime.metrics import Metrics, percentile
from toolkit.runtime.saga import Reservation, ReservationLapsed, ReservationUnavailable, Saga, reserve
from toolkit.runtime.scripted import Event, EventStream, IssueSearch, ScriptedModel, retry_with, run_loop, seed_scenario

__all__ = [  # noqa: RUF022 - plain sorted(), the order a test pins
    "CONNECTION_EXTRA",
    "CallableTool",
    "DEDUPE_KEY_EXTRA",
    "DEFAULT_LEDGER_PATH",
    "Decision",
    "Event",
    "EventStream",
    "Executor",
    "Governance",
    "Idempotent",
    "IssueSearch",
    "ItemFailure",
    "Ledger",
    "LedgerRecord",
    "ManualClock",
    "Metrics",
    "ProgressEvent",
    "ReconcileReport",
    "Reservation",
    "ReservationLapsed",
    "ReservationUnavailable",
    "Saga",
    "ScriptedModel",
    "Sweep",
    "dedupe_key",
    "default_retryable",
    "idempotent",
    "iso_time",
    "ledger_connection",
    "percentile",
    "reconcile_pending",
    "require_confirmation",
    "reserve",
    "retry_with",
    "run_batch",
    "run_loop",
    "seed_scenario",
]
