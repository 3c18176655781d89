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
    The wrapper first claims the key with a ``pending`` record naming itself as holder and commits it, then
    calls the tool while a heartbeat renews the claim's ``lease``, then marks the record ``completed`` with the
    receipt (or deletes the claim when the tool answered with a non-ok envelope other than ``timeout``, i.e.
    said it did nothing). An exception or a ``timeout`` envelope (outcome unknown) is settled at once by the
    wrapper's ``reconcile`` callable, or leaves the claim ``pending`` and orphaned; a crash leaves it pending.
    An identical call that meets a pending claim gets an ``error`` envelope with ``retryable=True`` (or waits
    up to ``wait`` seconds for the receipt) while the holder may still apply the effect, and is taken over
    only once the holder is known to be gone (its pid is dead on this host, or it stopped renewing its lease:
    see :mod:`toolkit.runtime.claims`). Then ``reconcile(key)`` asks the external system whether the effect
    happened (tools should pass the key along, e.g. as an ``Idempotency-Key`` header); without ``reconcile``
    the call is refused as "outcome unknown" until :func:`reconcile_pending` resolves it. A pending claim never
    expires by TTL and is never swept.

    If the ledger cannot record the outcome within its ``busy_timeout`` (locked, broken), the outcome is kept
    in a side file (:mod:`toolkit.runtime.notes`) and the envelope carries an ``unrecorded`` notice: for an
    applied effect, the receipt is in ``data`` as usual. The next call that meets the claim records it. A
    holder that finishes after its claim was taken over gets a ``late_completion`` notice, and its receipt is
    kept for :func:`reconcile_pending` to report.

The key hashes the tool's *cleaned* arguments when the tool has a ``validate`` method (defaults applied,
values normalised), so a call that omits a defaulted argument and one that sends the default are one call; a
call with invalid arguments goes straight to the tool, which answers with its envelope, and touches no record.

A repeat inside the TTL returns ``ToolResult(status="ok", data=<original receipt>, replay=Replay(original_at))``
and performs no effect; a ``clock_skew`` notice says when the caller's wall clock disagrees with the record's
(ages are measured on the host's boot clock, see :mod:`toolkit.runtime.ledger`). The TTL counts from the
completion, however long the effect took; after it the call runs again. Overrides for tools where repeating
is meaningful: ``repeat_ok=True`` on the wrapper, or per call ``context.extras["idempotency"] = "off"``; a
caller-supplied key (``context.extras["idempotency_key"]``) replaces the argument hash (still scoped to
session and tool). A ledger file that cannot be used raises
:class:`~toolkit.runtime.LedgerError` before the tool is called.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol, runtime_checkable

from toolkit._canonical import compact
from toolkit._context import ToolContext
from toolkit._envelope import Notice, Replay, ToolResult
from toolkit._exceptions import LedgerError, RuntimeConfigError
from toolkit.runtime import claims, holders
from toolkit.runtime.claims import DEFAULT_TTL, Lookup
from toolkit.runtime.ledger import CLOCK_TOLERANCE, Ledger
from toolkit.runtime.notes import Note, Outcome
from toolkit.runtime.reconcile import ReconcileReport, reconcile_pending
from toolkit.runtime.records import Instant, LedgerRecord, iso_time, load_record

__all__ = [
    "CONNECTION_EXTRA",
    "DEDUPE_KEY_EXTRA",
    "DEFAULT_TTL",
    "CallableTool",
    "Idempotent",
    "Lookup",
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

Mode = Literal["external", "transaction"]


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


def _span(seconds: float) -> str:
    return f"{seconds / 3600:.1f} h" if abs(seconds) >= 3600 else f"{seconds:.0f} s"


def _replay(record: LedgerRecord, at: Instant | None = None) -> ToolResult:
    original = iso_time(record.created_at)
    result = ToolResult(
        status="ok",
        data=record.receipt,
        replay=Replay(original_at=original, key=record.key),
        message=f"Already done at {original}; this is the original receipt and nothing was repeated.",
    )
    skew = 0.0 if at is None else record.skew(at)
    if abs(skew) <= CLOCK_TOLERANCE:
        return result
    if at is not None and record.timeline == at.timeline:
        said = (
            f"This caller's wall clock is {_span(abs(skew))} {'ahead of' if skew > 0 else 'behind'} the clock that "
            f"dated the original call; measured on the host's boot clock the record is {_span(record.age(at))} old, "
            "so it is unexpired."
        )
    else:
        said = f"The original call is dated {_span(-skew)} in this caller's future; the record counts as unexpired."
    return result.with_notices([Notice(field="", action="clock_skew", message=said)])


def _holder(record: LedgerRecord) -> str:
    holder = holders.Holder.decode(record.holder)
    return "" if holder is None else f" by {holder.describe()}"


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
        if not self.ttl > 0:
            raise RuntimeConfigError(f"ttl must be positive seconds, got {self.ttl!r}")
        if not self.lease > 0:
            raise RuntimeConfigError(f"lease must be positive seconds (renewed every lease/3), got {self.lease!r}")
        if not self.wait >= 0:
            raise RuntimeConfigError(f"wait must be seconds >= 0, got {self.wait!r}")

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

    # -- what an earlier record says -----------------------------------------------------------------
    def _meet(
        self, conn: sqlite3.Connection, record: LedgerRecord | None, at: Instant, notes: list[Note]
    ) -> ToolResult | LedgerRecord | None:
        """An answer (replay, in progress, unknown), ``None`` when the key is free, or the pending record of a
        gone holder that ``reconcile`` must settle. Side notes applied here go to ``notes``."""
        if record is None:
            return None
        if record.state == "completed":
            if not record.expired(at):
                return _replay(record, at)
            conn.execute("DELETE FROM idempotency WHERE key = ? AND token = ?", (record.key, record.token))
            return None
        note = self.ledger.notes.find(record.key, record.token)
        if note is not None:
            notes.append(note)
            noted = claims.apply_note(conn, record, note, at)
            if noted is None or noted.state == "completed":
                return None if noted is None else _replay(noted, at)
            record = noted
        if claims.holder_alive(record, at, self.lease):
            return ToolResult(
                status="error",
                retryable=True,
                message=f"An identical {self.name} call (key {record.key[:12]}…) started at "
                f"{iso_time(record.created_at)}{_holder(record)} is still in progress; retry in a moment to "
                "receive its receipt instead of running it twice.",
            )
        return record if self.reconcile is not None else self._unknown(record)

    def _unknown(self, record: LedgerRecord) -> ToolResult:
        return ToolResult(
            status="error",
            retryable=False,
            message=f"An identical {self.name} call (key {record.key[:12]}…) started at {iso_time(record.created_at)}"
            f"{_holder(record)} did not finish and its outcome is unknown; it must be reconciled before the call "
            "can run again (reconcile_pending, or a reconcile lookup on the wrapper).",
        )

    # -- same-database effects -----------------------------------------------------------------------
    def _call_in_transaction(self, key: str, args: Mapping[str, Any], context: ToolContext) -> ToolResult:
        at, notes = self.ledger.instant(), list[Note]()
        try:
            with self.ledger.transaction() as conn:
                with self.ledger.guarded():
                    found = self._meet(conn, load_record(conn, key), at, notes)
                if isinstance(found, LedgerRecord):  # a gone holder's external claim on this key: never run blind
                    found = self._unknown(found)
                if found is None:
                    found = self.tool.call(args, replace(context, extras={**context.extras, CONNECTION_EXTRA: conn}))
                    if not found.ok:
                        raise _Rollback(found)
                    with self.ledger.guarded():
                        claims.insert(conn, key, context, self.name, found.data, at, ttl=self.ttl, lease=None)
        except _Rollback as rollback:
            return rollback.result
        self._drop(notes)  # only once what they said is committed
        return found

    # -- external effects ----------------------------------------------------------------------------
    def _call_external(self, key: str, args: Mapping[str, Any], context: ToolContext) -> ToolResult:
        claimed = self._claim(key, context)
        if isinstance(claimed, ToolResult):
            return claimed
        with claims.Heartbeat(self.ledger, key, claimed, self.lease):
            try:
                result = self.tool.call(args, context)
            except BaseException:
                self._finish(key, claimed, context, None)
                raise
            return self._finish(key, claimed, context, result)

    def _claim(self, key: str, context: ToolContext) -> ToolResult | str:
        """Claim ``key`` (its new token) or the answer an earlier record gives."""
        for _ in range(3):
            at, notes = self.ledger.instant(), list[Note]()
            found: ToolResult | LedgerRecord | str | None
            with self.ledger.transaction() as conn, self.ledger.guarded():
                found = self._meet(conn, load_record(conn, key), at, notes)
                if found is None:
                    found = claims.insert(conn, key, context, self.name, None, at, ttl=self.ttl, lease=self.lease)
            self._drop(notes)
            if not isinstance(found, LedgerRecord):
                return found
            assert self.reconcile is not None  # _meet hands back a gone holder's record only then
            receipt = self.reconcile(key)  # outside the transaction: the lock is not held during the lookup
            with self.ledger.transaction() as conn, self.ledger.guarded():
                if load_record(conn, key) != found:
                    continue  # renewed, settled or taken over meanwhile: look again
                settled = claims.settle(conn, found, receipt, at)
                if settled is not None:
                    return _replay(settled, at)
                return claims.insert(conn, key, context, self.name, None, at, ttl=self.ttl, lease=self.lease)
        return ToolResult(
            status="error",
            retryable=True,
            message=f"The {self.name} claim on key {key[:12]}… kept changing while it was reconciled; retry.",
        )

    def _finish(self, key: str, token: str, context: ToolContext, result: ToolResult | None) -> ToolResult:
        """Record the outcome under this call's token; ``result`` is ``None`` when the tool raised."""
        outcome: Outcome = "applied" if result is not None and result.ok else "not_applied"
        receipt = result.data if result is not None and result.ok else None
        if result is None or result.status == "timeout":
            outcome = "unknown"
        try:
            if outcome == "unknown" and self.reconcile is not None:
                receipt = self.reconcile(key)
                outcome = "not_applied" if receipt is None else "applied"
        finally:
            note = Note(key, token, self.name, outcome, receipt, self.ledger.now())
            written = claims.write_outcome(self.ledger, note, context.session_id, self.ttl)
            kept = self.ledger.keep_note(note) if isinstance(written, LedgerError) else ""
        answer = result if result is not None else ToolResult(status="error")
        if written == "late" and outcome == "applied":
            return answer.with_notices([Notice(field="", action="late_completion", message=_LATE)])
        if isinstance(written, LedgerError):
            said = (
                f"The ledger {self.ledger.path} could not record this call's outcome ({outcome.replace('_', ' ')}) "
                f"within {self.ledger.busy_timeout:g} s ({written.slug}); it is kept in {kept}, and the next "
                "identical call records it."
            )
            said += " The effect was applied: this is its receipt." if outcome == "applied" else ""
            return answer.with_notices([Notice(field="", action="unrecorded", message=said)])
        return answer

    def _drop(self, notes: list[Note]) -> None:
        for note in notes:
            self.ledger.notes.drop(note.key, note.token)


_LATE = (
    "This call's claim was taken over before it finished (its holder was presumed gone); the effect was "
    "applied and its receipt is recorded as a late completion, which reconcile_pending reports."
)


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
    lives (see the module docstring); ``reconcile`` settles the pending claim of a holder known to be gone;
    ``lease`` is how long a claim stays alive without renewal (the holder renews it every ``lease / 3``
    seconds while the tool runs); ``wait`` lets a concurrent identical call wait for the first one's receipt;
    ``repeat_ok=True`` declares that repeating is meaningful (no deduplication at all).
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
