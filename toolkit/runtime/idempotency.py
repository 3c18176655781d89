"""Idempotent write tools: the model is a retry source, so a repeated call must not repeat the effect.

**One key, from the validated call.** The dedupe key is a content hash of the tool's *cleaned* arguments (what
its ``validate`` returns: defaults filled in, nulls read as absent dropped, numbers normalised), scoped:
``sha256(scope | tool_name | compact(cleaned))`` (:func:`dedupe_key`). Two calls that validate to the same
arguments are one call, however the model spelt them; a call with invalid arguments goes straight to the tool,
which answers with its envelope, and touches no record. The scope is the wrapper's ``scope`` when the author
sets one (stable across restarts: a conversation or run id, or one name for a whole server), else the
caller's ``context.session_id``. A caller-supplied key (``context.extras["idempotency_key"]``) replaces the
argument hash (still scoped); the record keeps the hash of the arguments, so the same key with other arguments
is refused (``idempotency_key_reused``, naming both hashes) instead of replayed.

Two modes, chosen by where the effect lives:

``mode="transaction"`` (the effect writes to the ledger's own database)
    The wrapper opens ``BEGIN IMMEDIATE``, checks the key, calls the tool with the open connection in
    ``context.extras["ledger_connection"]`` (see :func:`ledger_connection`), and inserts the completed record
    in the **same transaction**. Either both commit or neither does; concurrent callers queue on the lock and
    the second one sees the first one's record.

``mode="external"`` (the effect is somewhere the ledger cannot enlist: an HTTP API, another database)
    The wrapper claims the key (a ``pending`` record naming itself as holder) and commits it, calls the tool
    while a heartbeat renews the claim's ``lease``, then completes the record with the receipt, or releases
    the claim when the tool answered with a non-ok envelope that says it did nothing. **Sent means maybe
    applied**: an exception, a ``timeout`` envelope or an ``outcome_unknown`` notice (a request that may have
    reached the API without its answer coming back) makes the claim ``unknown``, and so does a pending claim
    whose holder is gone (its pid is dead on this host, or it stopped renewing its lease: see
    :mod:`toolkit.runtime.claims`). An unknown claim is never run again blindly. It is settled by the
    wrapper's ``reconcile(key)`` read (the receipt if the effect happened, ``None`` if not: then the call
    runs), or, for a tool that sends the key to an API that dedupes on it (``carries_idempotency_key``, e.g. an
    :class:`~toolkit.runtime.http.HttpTool` whose operation declares an ``Idempotency-Key``), re-sent with the
    same key. Otherwise the call is refused as "outcome unknown" until :func:`reconcile_pending` settles it.
    An identical call that meets a live holder's claim gets an ``error`` envelope with ``retryable=True`` (or
    waits up to ``wait`` seconds for the receipt).

    If the ledger cannot record the outcome within its ``busy_timeout`` (locked, broken), the outcome is kept
    in a side file (:mod:`toolkit.runtime.notes`) and the envelope carries an ``unrecorded`` notice: for an
    applied effect, the receipt is in ``data`` as usual. The next call that meets the claim records it. A
    holder that finishes after its claim was taken over gets a ``late_completion`` notice, and its receipt is
    kept for :func:`reconcile_pending` to report.

A repeat inside the TTL returns ``ToolResult(status="ok", data=<original receipt>, replay=Replay(original_at))``
and performs no effect (see :mod:`toolkit.runtime.answers`). The TTL counts from the completion, however long
the effect took; after it the call runs again. Overrides for tools where repeating is meaningful:
``repeat_ok=True`` on the wrapper, or per call ``context.extras["idempotency"] = "off"``. A ledger file that
cannot be used raises :class:`~toolkit.runtime.LedgerError` before the tool is called.
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
from toolkit._envelope import Notice, ToolResult
from toolkit._exceptions import LedgerError, RuntimeConfigError
from toolkit.runtime import answers, claims, store
from toolkit.runtime.claims import DEFAULT_TTL, Lookup, Met
from toolkit.runtime.ledger import Ledger
from toolkit.runtime.notes import Note, Outcome
from toolkit.runtime.reconcile import ReconcileReport, reconcile_pending
from toolkit.runtime.records import Instant

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
    """sha256 hex of ``scope|tool_name|canonical args`` (sorted keys, normalised numbers, no whitespace); the
    first argument is the scope (the session, unless the wrapper names one)."""
    return _sha256(f"{session_id}|{tool_name}|{compact(dict(args))}")


def args_hash(args: Mapping[str, Any]) -> str:
    """sha256 hex of the canonical arguments alone: what a record keeps to tell a reused key from a repeat."""
    return _sha256(compact(dict(args)))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()  # JSON may hold a lone surrogate


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
    scope: str | None = None

    def __post_init__(self) -> None:
        if self.scope is not None and not (isinstance(self.scope, str) and self.scope.strip()):
            raise RuntimeConfigError(f"scope must be a non-empty name (a conversation or run id), got {self.scope!r}")
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
        return dedupe_key(self.scope or context.session_id, self.name, scoped)

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
        try:
            key, digest = self.key_for(cleaned, context), args_hash(cleaned)
        except ValueError:  # a value with no canonical form (a non-finite number) that no validator caught
            return self.tool.call(args, context)
        context = replace(context, extras={**context.extras, DEDUPE_KEY_EXTRA: key})
        if self.mode == "transaction":
            return self._call_in_transaction(key, digest, args, context)
        deadline = time.monotonic() + self.wait
        while True:
            result = self._call_external(key, digest, args, context)
            if result.status != "error" or not result.retryable or time.monotonic() >= deadline:
                return result
            time.sleep(min(0.05, max(0.0, deadline - time.monotonic())))

    @property
    def resends_safely(self) -> bool:
        """The tool sends the dedupe key to an upstream that dedupes on it, so an unknown claim may be re-sent."""
        return getattr(self.tool, "carries_idempotency_key", False) is True

    def _meet(self, conn: sqlite3.Connection, key: str, digest: str, notes: list[Note]) -> tuple[Met, Instant]:
        at = self.ledger.instant()
        with self.ledger.guarded():
            record = store.load(conn, key)
            met = claims.meet(
                conn,
                self.ledger,
                record,
                at,
                lease=self.lease,
                args_hash=digest,
                can_reconcile=self.reconcile is not None and self.mode == "external",
                notes=notes,
            )
        return met, at

    # -- same-database effects -----------------------------------------------------------------------
    def _call_in_transaction(self, key: str, digest: str, args: Mapping[str, Any], context: ToolContext) -> ToolResult:
        notes = list[Note]()
        try:
            with self.ledger.transaction() as conn:
                met, at = self._meet(conn, key, digest, notes)
                if met.kind != "free":  # an unknown external claim on this key is never run blind either
                    result = answers.answer(met, self.name, at, digest)
                else:
                    extras = {**context.extras, CONNECTION_EXTRA: conn}
                    result = self.tool.call(args, replace(context, extras=extras))
                    if not result.ok:
                        raise _Rollback(result)
                    with self.ledger.guarded():
                        entry = store.Entry(key, context.session_id, self.name, digest)
                        store.record_completed(conn, entry, result.data, at, ttl=self.ttl)
        except _Rollback as rollback:
            return rollback.result
        self._drop(notes)  # only once what they said is committed
        return result

    # -- external effects ----------------------------------------------------------------------------
    def _call_external(self, key: str, digest: str, args: Mapping[str, Any], context: ToolContext) -> ToolResult:
        claimed = self._claim(key, digest, context)
        if isinstance(claimed, ToolResult):
            return claimed
        with claims.Heartbeat(self.ledger, key, claimed, self.lease):
            try:
                result = self.tool.call(args, context)
            except BaseException:
                self._finish(key, claimed, context, None)
                raise
            return self._finish(key, claimed, context, result)

    def _claim(self, key: str, digest: str, context: ToolContext) -> ToolResult | str:
        """Claim ``key`` (its new token), or take over an unknown claim to re-send it with the same key, or the
        answer an earlier record gives."""
        for _ in range(3):
            notes, token = list[Note](), None
            with self.ledger.transaction() as conn:
                met, at = self._meet(conn, key, digest, notes)
                with self.ledger.guarded():
                    if met.kind == "free":
                        token = self._new_claim(conn, key, digest, context, at)
                    elif met.kind == "unknown" and self.resends_safely and met.record is not None:
                        token = store.take_over(conn, met.record, at, self.lease)  # the upstream dedupes the re-send
            self._drop(notes)
            if token is not None:
                return token
            if met.kind != "reconcile" or self.reconcile is None or met.record is None:
                return answers.answer(met, self.name, at, digest)
            receipt = self.reconcile(key)  # outside the transaction: the lock is not held during the lookup
            with self.ledger.transaction() as conn, self.ledger.guarded():
                if store.load(conn, key) != met.record:
                    continue  # renewed, settled or taken over meanwhile: look again
                settled = claims.settle(conn, met.record, receipt, at)
                if settled is not None:
                    return answers.replay(settled, at)
                return self._new_claim(conn, key, digest, context, at)
        return ToolResult(
            status="error",
            retryable=True,
            message=f"The {self.name} claim on key {key[:12]}… kept changing while it was reconciled; retry.",
        )

    def _new_claim(self, conn: sqlite3.Connection, key: str, digest: str, context: ToolContext, at: Instant) -> str:
        entry = store.Entry(key, context.session_id, self.name, digest)
        return store.claim(conn, entry, at, ttl=self.ttl, lease=self.lease)

    def _finish(self, key: str, token: str, context: ToolContext, result: ToolResult | None) -> ToolResult:
        """Record the outcome under this call's token; ``result`` is ``None`` when the tool raised."""
        outcome: Outcome = "applied" if result is not None and result.ok else "not_applied"
        receipt = result.data if result is not None and result.ok else None
        if result is None or result.status == "timeout" or _maybe_applied(result):
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
            return answer.with_notices([Notice(field="", action="late_completion", message=answers.LATE)])
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


def _maybe_applied(result: ToolResult) -> bool:
    """The tool says its request may have been applied although it got no answer (``outcome_unknown``)."""
    return any(notice.action == "outcome_unknown" for notice in result.notices)


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
    scope: str | None = None,
) -> Any:
    """Put a write tool behind the ledger: ``idempotent(tool, ledger=...)`` or ``@idempotent(ledger=...)``.

    ``ttl`` is how long (seconds) a completed call is remembered for this tool; ``mode`` says where the effect
    lives (see the module docstring); ``reconcile`` settles the pending claim of a holder known to be gone;
    ``lease`` is how long a claim stays alive without renewal (the holder renews it every ``lease / 3``
    seconds while the tool runs); ``wait`` lets a concurrent identical call wait for the first one's receipt;
    ``repeat_ok=True`` declares that repeating is meaningful (no deduplication at all); ``scope`` replaces the
    caller's session in the dedupe key (see the module docstring).
    """
    options: dict[str, Any] = {
        "ledger": ledger,
        "ttl": ttl,
        "mode": mode,
        "reconcile": reconcile,
        "lease": lease,
        "wait": wait,
        "repeat_ok": repeat_ok,
        "scope": scope,
    }
    if tool is not None:
        return Idempotent(tool, **options)

    def decorate(target: CallableTool) -> Idempotent:
        return Idempotent(target, **options)

    return decorate
