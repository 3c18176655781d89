"""Idempotent write tools: the model is a retry source, so a repeated call must not repeat the effect.

The dedupe key is a content hash scoped to the session: ``sha256(session_id | tool_name | compact(args))``
(:func:`dedupe_key`), so a re-issued call with the same arguments is caught even though it carries a fresh
call id, and two sessions asking for the same thing are not deduplicated against each other.

Two modes, chosen by where the effect lives:

``mode="transaction"`` (the effect writes to the ledger's own database)
    The wrapper opens ``BEGIN IMMEDIATE``, checks the key, calls the tool with the open connection in
    ``context.extras["ledger_connection"]`` (see :func:`ledger_connection`), and inserts the completed record
    in the **same transaction**. Either both commit or neither does; concurrent callers queue on the lock and
    the second one sees the first one's record.

``mode="external"`` (the effect is somewhere the ledger cannot enlist: an HTTP API, another database)
    The wrapper first claims the key with a ``pending`` record and commits it, then calls the tool, then marks
    the record ``completed`` with the receipt (or deletes the claim when the tool answered with a non-ok
    envelope other than ``timeout``, i.e. said it did nothing). A crash between the effect and the completion
    leaves ``pending``; an exception or a ``timeout`` envelope (outcome unknown) is settled at once by the
    wrapper's ``reconcile`` callable, or leaves the claim ``pending`` and orphaned. Resolve such
    records on restart with :func:`reconcile_pending` and a ``lookup(key)`` you supply that asks the external
    system whether the effect happened (tools should pass the key along, e.g. as an ``Idempotency-Key`` header).
    While a claim is fresh (younger than ``lease`` seconds) a concurrent identical call gets an ``error``
    envelope with ``retryable=True`` (or waits up to ``wait`` seconds) instead of a second effect; a stale
    claim is resolved by the wrapper's ``reconcile`` callable, or reported as unknown when there is none.

The key hashes the tool's *cleaned* arguments when the tool has a ``validate`` method (defaults applied,
values normalised), so a call that omits a defaulted argument and one that sends the default are one call; a
call with invalid arguments goes straight to the tool, which answers with its envelope, and touches no record.

A repeat inside the TTL returns ``ToolResult(status="ok", data=<original receipt>, replay=Replay(original_at))``
and performs no effect. After the TTL the call runs again. Overrides for tools where repeating is meaningful:
``repeat_ok=True`` on the wrapper, or per call ``context.extras["idempotency"] = "off"``; a caller-supplied key
(``context.extras["idempotency_key"]``) replaces the argument hash (still scoped to session and tool).
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol, runtime_checkable

from toolkit._canonical import compact
from toolkit._context import ToolContext
from toolkit._envelope import Replay, ToolResult
from toolkit._exceptions import RuntimeConfigError
from toolkit.runtime.ledger import ORPHANED, Ledger, LedgerRecord, encode_receipt, iso_time, load_record

__all__ = [
    "CONNECTION_EXTRA",
    "DEDUPE_KEY_EXTRA",
    "CallableTool",
    "Idempotent",
    "ReconcileReport",
    "dedupe_key",
    "idempotent",
    "ledger_connection",
    "reconcile_pending",
]

CONNECTION_EXTRA = "ledger_connection"
"""``context.extras`` key under which a ``mode="transaction"`` tool finds the open ledger connection."""
DEDUPE_KEY_EXTRA = "dedupe_key"
"""``context.extras`` key holding the call's dedupe key (pass it on to external systems)."""

DEFAULT_TTL = 24 * 3600.0
Mode = Literal["external", "transaction"]
Lookup = Callable[[str], Any]
"""``lookup(key)`` → the receipt if the external effect for ``key`` happened, else ``None``."""


@runtime_checkable
class CallableTool(Protocol):
    """Anything the runtime can run: a name and ``call(args, context) -> ToolResult``."""

    @property
    def name(self) -> str: ...

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult: ...


def dedupe_key(session_id: str, tool_name: str, args: Mapping[str, Any]) -> str:
    """sha256 hex of ``session_id|tool_name|canonical args`` (sorted keys, normalised numbers, no whitespace)."""
    return hashlib.sha256(f"{session_id}|{tool_name}|{compact(dict(args))}".encode()).hexdigest()


def ledger_connection(context: ToolContext | None) -> sqlite3.Connection:
    """The open ledger transaction a ``mode="transaction"`` tool must write its effect through."""
    conn = None if context is None else context.extras.get(CONNECTION_EXTRA)
    if not isinstance(conn, sqlite3.Connection):
        raise RuntimeConfigError(
            "no ledger connection in the tool context; wrap the tool with "
            "idempotent(tool, ledger=..., mode='transaction') so its effect commits with the dedupe record",
            slug="no_ledger_connection",
        )
    return conn


class _Rollback(Exception):
    """Carries a non-ok envelope out of a ledger transaction so that nothing is committed."""

    def __init__(self, result: ToolResult) -> None:
        super().__init__(result.status)
        self.result = result


def _replay(record: LedgerRecord) -> ToolResult:
    at = iso_time(record.created_at)
    return ToolResult(
        status="ok",
        data=record.receipt,
        replay=Replay(original_at=at, key=record.key),
        message=f"Already done at {at}; this is the original receipt and nothing was repeated.",
    )


@dataclass(frozen=True, slots=True)
class Idempotent:
    """A write tool behind the ledger; itself callable-tool like (``name``, ``call``), other attributes
    (``declaration``, ``validate``, ``effect`` ...) are those of the wrapped tool."""

    tool: CallableTool
    ledger: Ledger
    ttl: float = DEFAULT_TTL
    mode: Mode = "external"
    reconcile: Lookup | None = None
    lease: float = 60.0
    wait: float = 0.0
    repeat_ok: bool = False

    def __post_init__(self) -> None:
        if self.mode not in ("external", "transaction"):
            raise RuntimeConfigError(f"unknown idempotency mode {self.mode!r}; use 'external' or 'transaction'")
        if self.ttl <= 0:
            raise RuntimeConfigError(f"ttl must be positive seconds, got {self.ttl!r}")

    @property
    def name(self) -> str:
        return self.tool.name

    def __getattr__(self, attribute: str) -> Any:
        if attribute == "tool" or attribute.startswith("__"):
            raise AttributeError(attribute)
        return getattr(self.tool, attribute)

    def key_for(self, args: Mapping[str, Any], context: ToolContext | None = None) -> str:
        """The dedupe key this call would use (a caller-supplied ``idempotency_key`` replaces the args)."""
        context = context or ToolContext()
        supplied = context.extras.get("idempotency_key")
        scoped: Mapping[str, Any] = {"idempotency_key": str(supplied)} if supplied is not None else args
        return dedupe_key(context.session_id, self.name, scoped)

    def _cleaned(self, args: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """The arguments the key hashes: the tool's cleaned arguments when it can validate (an omitted default
        and the default itself are one call); ``None`` when the arguments are invalid."""
        validate = getattr(self.tool, "validate", None)
        if not callable(validate):
            return args
        verdict = validate(args)
        if not isinstance(verdict, ToolResult):
            return args
        if not verdict.ok:
            return None
        cleaned = verdict.data if isinstance(verdict.data, Mapping) else args
        try:
            compact(dict(cleaned))
        except (TypeError, ValueError):  # cleaned values JSON cannot hold: fall back to what the model sent
            return args
        return cleaned

    def call(self, args: Mapping[str, Any], context: ToolContext | None = None) -> ToolResult:
        context = context or ToolContext(tool_name=self.name)
        if self.repeat_ok or context.extras.get("idempotency") == "off":
            return self.tool.call(args, context)
        cleaned = self._cleaned(args)
        if cleaned is None:  # invalid arguments: no effect can happen, so the ledger is not involved
            return self.tool.call(args, context)
        key = self.key_for(cleaned, context)
        context = replace(context, extras={**context.extras, DEDUPE_KEY_EXTRA: key})
        if self.mode == "transaction":
            return self._call_in_transaction(key, args, context)
        deadline = time.monotonic() + self.wait
        while True:
            result = self._call_external(key, args, context)
            if result.status != "error" or not result.retryable or time.monotonic() >= deadline:
                return result
            time.sleep(min(0.05, max(0.0, deadline - time.monotonic())))

    # -- same-database effects -----------------------------------------------------------------------
    def _call_in_transaction(self, key: str, args: Mapping[str, Any], context: ToolContext) -> ToolResult:
        try:
            with self.ledger.transaction() as conn:
                now = self.ledger.now()
                found = self._existing(conn, key, now)
                if found is not None:
                    return found
                result = self.tool.call(args, replace(context, extras={**context.extras, CONNECTION_EXTRA: conn}))
                if not result.ok:
                    raise _Rollback(result)
                _insert(conn, key, context, self.name, "completed", result.data, now, now + self.ttl)
                return result
        except _Rollback as rollback:
            return rollback.result

    # -- external effects ----------------------------------------------------------------------------
    def _call_external(self, key: str, args: Mapping[str, Any], context: ToolContext) -> ToolResult:
        with self.ledger.transaction() as conn:
            now = self.ledger.now()
            found = self._existing(conn, key, now)
            if found is not None:
                return found
            token = _insert(conn, key, context, self.name, "pending", None, now, now + self.ttl)
        try:
            result = self.tool.call(args, context)
        except BaseException:
            self._uncertain(key, token)
            raise
        if result.status == "timeout":
            self._uncertain(key, token)
            return result
        with self.ledger.transaction() as conn:
            if result.ok:
                conn.execute(
                    "UPDATE idempotency SET state = 'completed', receipt = ?, completed_at = ?"
                    " WHERE key = ? AND token = ?",
                    (encode_receipt(result.data), self.ledger.now(), key, token),
                )
            else:  # the tool answered that it did not do it: the next identical call may run
                conn.execute("DELETE FROM idempotency WHERE key = ? AND token = ?", (key, token))
        return result

    def _uncertain(self, key: str, token: str) -> None:
        """The effect may or may not have happened: settle it now through ``reconcile``, or mark the claim
        orphaned so that the next identical call is told the outcome is unknown instead of running again."""
        with self.ledger.transaction() as conn:
            record = load_record(conn, key)
            if record is None or record.token != token:
                return
            if self.reconcile is not None:
                _settle(conn, record, self.reconcile(key), self.ledger.now())
            else:
                conn.execute("UPDATE idempotency SET token = ? WHERE key = ? AND token = ?", (ORPHANED, key, token))

    def _existing(self, conn: sqlite3.Connection, key: str, now: float) -> ToolResult | None:
        """What an earlier record says about this call: a replay, a wait, or ``None`` (go ahead)."""
        record = load_record(conn, key)
        if record is None:
            return None
        if record.expired(now):
            conn.execute("DELETE FROM idempotency WHERE key = ?", (key,))
            return None
        if record.state == "completed":
            return _replay(record)
        if not record.orphaned and now - record.created_at < self.lease:
            return ToolResult(
                status="error",
                retryable=True,
                message=f"An identical {self.name} call (key {key[:12]}…) started at {iso_time(record.created_at)} "
                "is still in progress; retry in a moment to receive its receipt instead of running it twice.",
            )
        if self.reconcile is None:
            return ToolResult(
                status="error",
                retryable=False,
                message=f"An identical {self.name} call (key {key[:12]}…) started at {iso_time(record.created_at)} "
                "did not finish and its outcome is unknown; it must be reconciled before the call can run again.",
            )
        return _settle(conn, record, self.reconcile(key), now)


def _insert(
    conn: sqlite3.Connection,
    key: str,
    context: ToolContext,
    tool: str,
    state: str,
    receipt: Any,
    now: float,
    expires_at: float,
) -> str:
    token = uuid.uuid4().hex
    conn.execute(
        "INSERT INTO idempotency (key, session_id, tool, state, token, receipt, created_at, completed_at, expires_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            key,
            context.session_id,
            tool,
            state,
            token,
            None if state == "pending" else encode_receipt(receipt),
            now,
            now if state == "completed" else None,
            expires_at,
        ),
    )
    return token


def _settle(conn: sqlite3.Connection, record: LedgerRecord, receipt: Any, now: float) -> ToolResult | None:
    """Resolve a pending record with what the external system says: completed (→ replay) or released."""
    if receipt is None:
        conn.execute("DELETE FROM idempotency WHERE key = ? AND token = ?", (record.key, record.token))
        return None
    conn.execute(
        "UPDATE idempotency SET state = 'completed', receipt = ?, completed_at = ? WHERE key = ? AND token = ?",
        (encode_receipt(receipt), now, record.key, record.token),
    )
    return _replay(replace(record, state="completed", receipt=receipt, completed_at=now))


@dataclass(frozen=True, slots=True)
class ReconcileReport:
    """Pending records resolved on restart: ``completed`` (the effect had happened) and ``released`` (it had
    not, so the next identical call runs)."""

    completed: tuple[str, ...] = ()
    released: tuple[str, ...] = ()


def reconcile_pending(ledger: Ledger, tool_name: str, lookup: Lookup, *, older_than: float = 0.0) -> ReconcileReport:
    """Resolve ``tool_name``'s pending records at least ``older_than`` seconds old; call this on restart.

    ``lookup(key)`` asks the external system whether the effect for ``key`` happened and returns its receipt,
    or ``None`` if it did not. Each record is settled in its own transaction, re-read under the lock.
    """
    completed: list[str] = []
    released: list[str] = []
    for pending in ledger.records(tool=tool_name, state="pending"):
        with ledger.transaction() as conn:
            now = ledger.now()
            record = load_record(conn, pending.key)
            if record is None or record.state != "pending" or now - record.created_at < older_than:
                continue
            receipt = lookup(record.key)
            _settle(conn, record, receipt, now)
            (released if receipt is None else completed).append(record.key)
    return ReconcileReport(completed=tuple(completed), released=tuple(released))


def idempotent(
    tool: CallableTool | None = None,
    /,
    *,
    ledger: Ledger,
    ttl: float = DEFAULT_TTL,
    mode: Mode = "external",
    reconcile: Lookup | None = None,
    lease: float = 60.0,
    wait: float = 0.0,
    repeat_ok: bool = False,
) -> Any:
    """Put a write tool behind the ledger: ``idempotent(tool, ledger=...)`` or ``@idempotent(ledger=...)``.

    ``ttl`` is how long (seconds) a completed call is remembered for this tool; ``mode`` says where the effect
    lives (see the module docstring); ``reconcile`` resolves stale pending claims; ``lease`` is how long a
    pending claim counts as in flight; ``wait`` lets a concurrent identical call wait for the first one's
    receipt; ``repeat_ok=True`` declares that repeating is meaningful (no deduplication at all).
    """
    options: dict[str, Any] = {
        "ledger": ledger,
        "ttl": ttl,
        "mode": mode,
        "reconcile": reconcile,
        "lease": lease,
        "wait": wait,
        "repeat_ok": repeat_ok,
    }
    if tool is not None:
        return Idempotent(tool, **options)

    def decorate(target: CallableTool) -> Idempotent:
        return Idempotent(target, **options)

    return decorate
