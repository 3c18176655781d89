"""Batches: run one function per item and report per item, never one collapsed status.

:func:`run_batch` turns each item's outcome into a :class:`~toolkit.BatchItem` under a stable id: a returned
value is ``ok``; a returned non-ok :class:`~toolkit.ToolResult` or a raised exception is ``failed`` with a
reason and a ``retryable`` classification. The :class:`~toolkit.BatchResult` then carries the summary and a
``retry_hint`` naming exactly the ids worth re-calling.

Documented semantics after a failure: by default every item is attempted (``stop_on_failure=False``); with
``stop_on_failure=True`` the items after the first failure are ``skipped`` (reason ``not_attempted``,
retryable, so they appear in the retry hint).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from toolkit._display import displayed_by
from toolkit._display._envelopes import BATCH_ITEM_RENDERER, BATCH_RENDERER
from toolkit._envelope import FieldError, Status, ToolResult, _Envelope
from toolkit._exceptions import RuntimeConfigError
from toolkit.runtime.redaction import scrub_urls

__all__ = ["BatchItem", "BatchResult", "ItemFailure", "default_retryable", "run_batch"]


@displayed_by(BATCH_ITEM_RENDERER)
@dataclass(frozen=True, slots=True)
class BatchItem(_Envelope):
    """One item of a batch, under a stable id the model can quote back."""

    id: str
    status: Literal["ok", "failed", "skipped"]
    data: Any = None
    reason: str = ""
    retryable: bool = False
    errors: tuple[FieldError, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "status": self.status}
        if self.data is not None:
            out["data"] = self.data
        if self.status != "ok":
            out["reason"] = self.reason
            out["retryable"] = self.retryable
        if self.errors:
            out["errors"] = [e.to_dict() for e in self.errors]
        return out


@displayed_by(BATCH_RENDERER)
@dataclass(frozen=True, slots=True)
class BatchResult(_Envelope):
    """Per-item results and a summary the model can quote without arithmetic. Never one collapsed status."""

    items: tuple[BatchItem, ...]

    @property
    def succeeded(self) -> tuple[BatchItem, ...]:
        return tuple(i for i in self.items if i.status == "ok")

    @property
    def failed(self) -> tuple[BatchItem, ...]:
        return tuple(i for i in self.items if i.status == "failed")

    @property
    def status(self) -> Status:
        if len(self.succeeded) == len(self.items):
            return "ok"
        return "partial" if self.succeeded else "error"

    @property
    def skipped(self) -> tuple[BatchItem, ...]:
        return tuple(i for i in self.items if i.status == "skipped")

    @property
    def summary(self) -> dict[str, int]:
        """``total = succeeded + failed (+ skipped)``: the counts always add up, so the model can quote them."""
        out = {"total": len(self.items), "succeeded": len(self.succeeded), "failed": len(self.failed)}
        if self.skipped:
            out["skipped"] = len(self.skipped)
        return out

    @property
    def retry_ids(self) -> tuple[str, ...]:
        return tuple(i.id for i in self.items if i.status != "ok" and i.retryable)

    @property
    def retry_hint(self) -> str:
        ids = self.retry_ids
        return f"Re-call with ids: {json.dumps(list(ids))}" if ids else ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "summary": self.summary,
            "results": [i.to_dict() for i in self.items],
        }
        if self.retry_hint:
            out["retry_hint"] = self.retry_hint
        return out


T = TypeVar("T")

RETRYABLE_EXCEPTIONS: tuple[type[BaseException], ...] = (TimeoutError, ConnectionError)
"""Exceptions treated as transient by :func:`default_retryable`; everything else is permanent."""


class ItemFailure(Exception):
    """Raise from a batch function to fail one item with a chosen reason slug and retry classification."""

    def __init__(self, reason: str, *, retryable: bool = False, message: str = "") -> None:
        super().__init__(message or reason)
        self.reason = reason
        self.retryable = retryable


def default_retryable(error: BaseException) -> bool:
    """An exception's own ``retryable`` attribute if it has one, else transient for timeouts and connection
    errors, permanent for everything else (a permanently invalid item must not be retried until the turn
    budget runs out)."""
    flag = getattr(error, "retryable", None)
    if isinstance(flag, bool):
        return flag
    return isinstance(error, RETRYABLE_EXCEPTIONS)


def _slug(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _reason(error: BaseException) -> str:
    if isinstance(error, ItemFailure):
        return error.reason
    message = scrub_urls(str(error))
    return f"{_slug(type(error).__name__)}: {message}" if message else _slug(type(error).__name__)


def _from_result(item_id: str, result: ToolResult) -> BatchItem:
    if result.ok:
        return BatchItem(id=item_id, status="ok", data=result.data)
    retryable = result.retryable if result.retryable is not None else result.status == "timeout"
    reason = result.status + (f": {result.message}" if result.message else "")
    return BatchItem(id=item_id, status="failed", reason=reason, retryable=retryable, errors=result.errors)


def run_batch(
    items: Iterable[T],
    fn: Callable[[T], Any],
    *,
    id_of: Callable[[T], str] = str,
    retryable: Callable[[BaseException], bool] = default_retryable,
    stop_on_failure: bool = False,
) -> BatchResult:
    """Call ``fn(item)`` for each item and collect a per-item :class:`BatchResult`.

    ``id_of`` gives each item its stable id (must be unique within the batch); ``retryable`` classifies a
    raised exception. ``fn`` may return plain data (→ ``ok``) or a :class:`ToolResult` (its status decides).
    """
    pending = [(id_of(item), item) for item in items]
    ids = [item_id for item_id, _ in pending]
    duplicates = sorted(i for i, n in Counter(ids).items() if n > 1)
    if duplicates:
        raise RuntimeConfigError(
            f"batch ids must be unique so the model can quote them back; duplicated: {duplicates}; "
            "pass id_of= returning a stable unique id per item",
            slug="duplicate_batch_id",
        )
    results: list[BatchItem] = []
    stopped = False
    for item_id, item in pending:
        if stopped:
            results.append(
                BatchItem(id=item_id, status="skipped", reason="not_attempted: an earlier item failed", retryable=True)
            )
            continue
        results.append(_run_one(item_id, item, fn, retryable))
        stopped = stop_on_failure and results[-1].status == "failed"
    return BatchResult(items=tuple(results))


def _run_one(item_id: str, item: T, fn: Callable[[T], Any], retryable: Callable[[BaseException], bool]) -> BatchItem:
    try:
        outcome = fn(item)
    except Exception as error:  # one item's failure must not hide the others' results
        return BatchItem(id=item_id, status="failed", reason=_reason(error), retryable=retryable(error))
    if isinstance(outcome, ToolResult):
        return _from_result(item_id, outcome)
    return BatchItem(id=item_id, status="ok", data=outcome)
