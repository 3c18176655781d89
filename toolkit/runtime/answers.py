"""The envelopes the idempotency ledger answers with instead of running a call: one function per
:class:`~toolkit.runtime.claims.Met` kind that stops a call (replay, in progress, unknown, key reused), and the
notices it adds to a call that ran (late completion, unrecorded outcome)."""

from __future__ import annotations

from toolkit._envelope import FieldError, Notice, Replay, ToolResult
from toolkit.runtime import holders
from toolkit.runtime.claims import Met
from toolkit.runtime.ledger import CLOCK_TOLERANCE
from toolkit.runtime.records import Instant, LedgerRecord, iso_time

__all__ = ["LATE", "answer", "replay"]

LATE = (
    "This call's claim was taken over before it finished (its holder was presumed gone); the effect was "
    "applied and its receipt is recorded as a late completion, which reconcile_pending reports."
)


def answer(met: Met, tool: str, at: Instant, args_hash: str | None) -> ToolResult:
    """The envelope for a call that an earlier record stops: ``replay``, ``in_progress``, ``unknown`` (and
    ``reconcile``, when the reconcile could not settle it) or ``reused``."""
    record = met.record
    assert record is not None, met  # "free" stops nothing
    if met.kind == "replay":
        return replay(record, at)
    if met.kind == "in_progress":
        return ToolResult(
            status="error",
            retryable=True,
            message=f"An identical {tool} call (key {record.key[:12]}…) started at "
            f"{iso_time(record.created_at)}{_holder(record)} is still in progress; retry in a moment to "
            "receive its receipt instead of running it twice.",
        )
    if met.kind == "reused":
        return _reused(record, tool, args_hash)
    return ToolResult(
        status="error",
        retryable=False,
        message=f"An identical {tool} call (key {record.key[:12]}…) started at {iso_time(record.created_at)}"
        f"{_holder(record)} did not finish and its outcome is unknown; it must be reconciled before the call "
        "can run again (reconcile_pending, or a reconcile lookup on the wrapper).",
    )


def _reused(record: LedgerRecord, tool: str, args_hash: str | None) -> ToolResult:
    problem = (
        f"the idempotency key already names a {tool} call made at {iso_time(record.created_at)} with other "
        f"arguments (hash {record.args_hash}); these arguments hash to {args_hash}"
    )
    error = FieldError("", "idempotency_key_reused", problem, "a new idempotency key for different arguments")
    return ToolResult(
        status="rejected",
        errors=(error,),
        retryable=False,
        message=f"Refused: {problem}. Nothing was run; use a fresh key for a different call.",
    )


def replay(record: LedgerRecord, at: Instant | None = None) -> ToolResult:
    """The original receipt of a completed call, with a ``clock_skew`` notice when wall clocks disagree."""
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


def _span(seconds: float) -> str:
    return f"{seconds / 3600:.1f} h" if abs(seconds) >= 3600 else f"{seconds:.0f} s"


def _holder(record: LedgerRecord) -> str:
    holder = holders.Holder.decode(record.holder)
    return "" if holder is None else f" by {holder.describe()}"
