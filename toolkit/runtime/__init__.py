"""The runtime contract: idempotent writes, per-item batches, reported sagas, a governed executor, and a
scripted-model loop for in-agent tests.

    from toolkit.runtime import Executor, Ledger, idempotent

    ledger = Ledger(".toolkit/ledger.sqlite3")
    transfer = idempotent(transfer_tool, ledger=ledger, ttl=24 * 3600)
    executor = Executor([search_tool, transfer], timeout=10, governance=require_confirmation)
    executor.execute("transfer_funds", args, ToolContext(session_id="s-1"))   # a repeat → replay

Names load on first use (like ``toolkit`` itself), so a generated module importing ``toolkit.runtime.http`` does
not pay for the ledger or the executor; pandas loads only on ``to_frame()``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolkit._exceptions import LedgerError
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
    from toolkit.runtime.scripted import (
        Event,
        EventStream,
        ScriptedModel,
        retry_with,
        run_loop,
    )

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
    "ItemFailure",
    "Ledger",
    "LedgerError",
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
]

# public name -> the module that defines it
_LAZY: dict[str, str] = {
    "CONNECTION_EXTRA": "toolkit.runtime.idempotency",
    "CallableTool": "toolkit.runtime.idempotency",
    "DEDUPE_KEY_EXTRA": "toolkit.runtime.idempotency",
    "DEFAULT_LEDGER_PATH": "toolkit.runtime.ledger",
    "Decision": "toolkit.runtime.executor",
    "Event": "toolkit.runtime.scripted",
    "EventStream": "toolkit.runtime.scripted",
    "Executor": "toolkit.runtime.executor",
    "Governance": "toolkit.runtime.executor",
    "Idempotent": "toolkit.runtime.idempotency",
    "ItemFailure": "toolkit.runtime.batch",
    "Ledger": "toolkit.runtime.ledger",
    "LedgerError": "toolkit._exceptions",
    "LedgerRecord": "toolkit.runtime.ledger",
    "ManualClock": "toolkit.runtime.ledger",
    "Metrics": "toolkit.runtime.metrics",
    "ProgressEvent": "toolkit.runtime.executor",
    "ReconcileReport": "toolkit.runtime.idempotency",
    "Reservation": "toolkit.runtime.saga",
    "ReservationLapsed": "toolkit.runtime.saga",
    "ReservationUnavailable": "toolkit.runtime.saga",
    "Saga": "toolkit.runtime.saga",
    "ScriptedModel": "toolkit.runtime.scripted",
    "Sweep": "toolkit.runtime.ledger",
    "dedupe_key": "toolkit.runtime.idempotency",
    "default_retryable": "toolkit.runtime.batch",
    "idempotent": "toolkit.runtime.idempotency",
    "iso_time": "toolkit.runtime.ledger",
    "ledger_connection": "toolkit.runtime.idempotency",
    "percentile": "toolkit.runtime.metrics",
    "reconcile_pending": "toolkit.runtime.idempotency",
    "require_confirmation": "toolkit.runtime.executor",
    "reserve": "toolkit.runtime.saga",
    "retry_with": "toolkit.runtime.scripted",
    "run_batch": "toolkit.runtime.batch",
    "run_loop": "toolkit.runtime.scripted",
}


def __getattr__(name: str) -> Any:
    try:
        module_name = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'toolkit.runtime' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module_name), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
