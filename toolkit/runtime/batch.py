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

import re
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from toolkit._envelope import BatchItem, BatchResult, ToolResult
from toolkit._exceptions import RuntimeConfigError
from toolkit.runtime.redaction import scrub_urls

__all__ = ["ItemFailure", "default_retryable", "run_batch"]

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
