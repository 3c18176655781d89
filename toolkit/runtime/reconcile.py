"""Resolving pending claims on restart: :func:`reconcile_pending` and its :class:`ReconcileReport`.

Claims left ``pending`` by a crash or a ledger that could not be written, and ``unknown`` ones (an exception, a
timeout, a request that may have been applied), are settled here, one
transaction each, with what their holder noted beside the ledger (:mod:`toolkit.runtime.notes`) or, failing
that, with what the external system says (``lookup``). A claim whose holder may still apply its effect is
left alone. Receipts of holders that finished after a takeover (``late_completions``) are reported once.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.runtime import claims, store
from toolkit.runtime.claims import DEFAULT_TTL, Lookup
from toolkit.runtime.ledger import Ledger

__all__ = ["ReconcileReport", "reconcile_pending"]


@dataclass(frozen=True, slots=True)
class ReconcileReport:
    """Pending records resolved on restart: ``completed`` (the effect had happened) and ``released`` (it had
    not, so the next identical call runs); ``in_flight``: claims left alone because their holder may still
    apply the effect; ``late``: keys whose receipt a holder recorded after its claim had been taken over (if
    the takeover released the claim, the effect may have happened twice: check the external system)."""

    completed: tuple[str, ...] = ()
    released: tuple[str, ...] = ()
    in_flight: tuple[str, ...] = ()
    late: tuple[str, ...] = ()


def reconcile_pending(ledger: Ledger, tool_name: str, lookup: Lookup, *, older_than: float = 0.0) -> ReconcileReport:
    """Resolve ``tool_name``'s pending and unknown records at least ``older_than`` seconds old; call this on
    restart.

    A claim whose holder left a side note is settled by the note. A claim whose holder may still apply the
    effect (a live process on this host, or a lease still renewed) is left alone. Otherwise ``lookup(key)``
    asks the external system whether the effect for ``key`` happened and returns its receipt, or ``None`` if it
    did not. Each record is settled in its own transaction, re-read under the lock; the lookup runs outside it.
    """
    settled: dict[str, list[str]] = {"completed": [], "released": [], "in_flight": []}
    open_claims = ledger.records(tool=tool_name, state="pending") + ledger.records(tool=tool_name, state="unknown")
    for pending in sorted(open_claims, key=lambda record: (record.created_at, record.key)):
        at = ledger.instant()
        note = ledger.notes.find(pending.key, pending.token)
        if note is not None and note.outcome != "unknown":
            receipt = note.receipt if note.outcome == "applied" else None
        elif note is None and claims.holder_alive(pending, at, None):
            settled["in_flight"].append(pending.key)
            continue
        elif pending.age(at) < older_than:
            continue
        else:
            receipt = lookup(pending.key)
        with ledger.transaction() as conn, ledger.guarded():
            if store.load(conn, pending.key) != pending:
                continue
            claims.settle(conn, pending, receipt, at)
        if note is not None:
            ledger.notes.drop(pending.key, pending.token)
        settled["released" if receipt is None else "completed"].append(pending.key)
    late = _absorb_late(ledger, tool_name)
    return ReconcileReport(
        completed=tuple(settled["completed"]),
        released=tuple(settled["released"]),
        in_flight=tuple(settled["in_flight"]),
        late=late,
    )


def _absorb_late(ledger: Ledger, tool_name: str) -> tuple[str, ...]:
    """Report late completions once; one whose key has no record any more becomes its completed record."""
    keys: list[str] = []
    for late in ledger.late_completions(tool_name):
        at = ledger.instant()
        with ledger.transaction() as conn, ledger.guarded():
            if store.load(conn, late.key) is None:
                entry = store.Entry(late.key, late.session_id, late.tool)
                store.record_completed(conn, entry, late.receipt, at, ttl=DEFAULT_TTL)
            store.drop_late(conn, late.key, late.token)
        keys.append(late.key)
    return tuple(keys)
