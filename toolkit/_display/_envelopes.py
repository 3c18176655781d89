"""Renderers for what the model reads back: results, field errors, notices, replays, batches and sagas.

The layout is the same in text and HTML so an envelope is readable at a glance: the status first, then
what was wrong (field errors), what the boundary did (notices), then the data. Pure functions over the
envelope types, which are imported for type checking only (:mod:`toolkit._envelope` imports this module).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from toolkit._display import Renderer, mimebundle
from toolkit._display._markup import (
    badge,
    code_block,
    esc,
    html_table,
    json_text,
    section,
    text_table,
    wrap,
)

if TYPE_CHECKING:
    from toolkit._envelope import FieldError, Notice, Replay, ToolResult
    from toolkit.runtime.batch import BatchItem, BatchResult
    from toolkit.runtime.saga import SagaReport, SagaStep

__all__ = [
    "BATCH_ITEM_RENDERER",
    "BATCH_RENDERER",
    "FIELD_ERROR_RENDERER",
    "NOTICE_RENDERER",
    "REPLAY_RENDERER",
    "RESULT_RENDERER",
    "SAGA_RENDERER",
    "SAGA_STEP_RENDERER",
    "envelope_html",
    "envelope_text",
]

_ERROR_HEADERS = ("field", "code", "problem", "expected")
_NOTICE_HEADERS = ("field", "action", "from", "to", "message")


def _error_row(error: FieldError) -> tuple[str, ...]:
    return (error.field or "(arguments)", error.code, error.problem, error.expected)


def _notice_row(notice: Notice) -> tuple[Any, ...]:
    given = notice.to_dict()  # leaves out a "from" or "to" that was not given, as the model reads it
    return (notice.field or "(arguments)", notice.action, given.get("from", ""), given.get("to", ""), notice.message)


def _errors_text(errors: Sequence[FieldError]) -> list[str]:
    return [f"errors ({len(errors)}):", *text_table(_ERROR_HEADERS, [_error_row(e) for e in errors])] if errors else []


def _notices_text(notices: Sequence[Notice]) -> list[str]:
    if not notices:
        return []
    return [f"notices ({len(notices)}):", *text_table(_NOTICE_HEADERS, [_notice_row(n) for n in notices])]


def _errors_html(errors: Sequence[FieldError]) -> str:
    if not errors:
        return ""
    rows = [_error_row(e) for e in errors]
    return section("Field errors", html_table(_ERROR_HEADERS, rows, row_kinds=["fail"] * len(rows)))


def _notices_html(notices: Sequence[Notice]) -> str:
    if not notices:
        return ""
    return section("Notices", html_table(_NOTICE_HEADERS, [_notice_row(n) for n in notices]))


def _replay_text(replay: Replay) -> str:
    return f"replay of the call made at {replay.original_at}" + (f" (key {replay.key})" if replay.key else "")


# -- ToolResult ------------------------------------------------------------------------------------------
def _result_extras(result: ToolResult) -> list[str]:
    extras = []
    if result.retryable is not None:
        extras.append("retryable" if result.retryable else "not retryable")
    if result.message:
        extras.append(result.message)
    return extras


def _result_headline(result: ToolResult) -> str:
    return " · ".join([f"ToolResult {result.status}", *_result_extras(result)])


def _result_text(result: ToolResult) -> str:
    lines = [_result_headline(result), *_errors_text(result.errors), *_notices_text(result.notices)]
    if result.replay is not None:
        lines.append(_replay_text(result.replay))
    if result.data is not None:
        lines += ["data:", json_text(result.data)]
    return "\n".join(lines)


def _result_html(result: ToolResult) -> str:
    extras = esc(" · ".join(_result_extras(result)))
    head = f"<div class='tk-headline'><b>ToolResult</b> {badge(result.status)} {extras}</div>"
    parts = [head, _errors_html(result.errors), _notices_html(result.notices)]
    if result.replay is not None:
        parts.append(f"<div class='tk-replay'>{esc(_replay_text(result.replay))}</div>")
    if result.data is not None:
        parts.append(section("Data", code_block(json_text(result.data), highlighted=True)))
    return wrap("result", "".join(parts))


RESULT_RENDERER = Renderer(_result_text, _result_html)


# -- the small parts on their own --------------------------------------------------------------------------
def _error_text(error: FieldError) -> str:
    return "\n".join(_errors_text([error]))


def _notice_text(notice: Notice) -> str:
    return "\n".join(_notices_text([notice]))


FIELD_ERROR_RENDERER = Renderer(_error_text, lambda e: wrap("field-error", _errors_html([e])))
NOTICE_RENDERER = Renderer(_notice_text, lambda n: wrap("notice", _notices_html([n])))
REPLAY_RENDERER = Renderer(_replay_text, lambda r: wrap("replay", esc(_replay_text(r))))


# -- batches ---------------------------------------------------------------------------------------------
_ITEM_HEADERS = ("id", "status", "reason", "retryable")


def _item_row(item: BatchItem) -> tuple[str, ...]:
    retry = "" if item.status == "ok" else ("yes" if item.retryable else "no")
    return (item.id, item.status, item.reason, retry)


def _item_kind(item: BatchItem) -> str:
    return {"ok": "pass", "failed": "fail"}.get(item.status, "warning")


def _summary_line(batch: BatchResult) -> str:
    summary = batch.summary
    return (
        f"BatchResult {batch.status} · {summary['succeeded']} of {summary['total']} succeeded, "
        f"{summary['failed']} failed"
    )


def _batch_text(batch: BatchResult) -> str:
    lines = [_summary_line(batch), *text_table(_ITEM_HEADERS, [_item_row(i) for i in batch.items])]
    if batch.retry_hint:
        lines.append(f"retry hint: {batch.retry_hint}")
    return "\n".join(lines)


def _batch_html(batch: BatchResult) -> str:
    rows = [_item_row(i) for i in batch.items]
    parts = [
        f"<div class='tk-headline'>{badge(batch.status)} {esc(_summary_line(batch))}</div>",
        html_table(_ITEM_HEADERS, rows, row_kinds=[_item_kind(i) for i in batch.items]),
    ]
    if batch.retry_hint:
        parts.append(f"<div class='tk-retry-hint'>retry hint: <code>{esc(batch.retry_hint)}</code></div>")
    return wrap("batch", "".join(parts))


def _batch_item_text(item: BatchItem) -> str:
    return "\n".join(text_table(_ITEM_HEADERS, [_item_row(item)], indent=""))


BATCH_RENDERER = Renderer(_batch_text, _batch_html)
BATCH_ITEM_RENDERER = Renderer(
    _batch_item_text, lambda i: wrap("batch-item", html_table(_ITEM_HEADERS, [_item_row(i)]))
)


# -- sagas -----------------------------------------------------------------------------------------------
_STEP_HEADERS = ("step", "status", "reference", "detail")
_STEP_KINDS = {"committed": "pass", "compensated": "warning", "outstanding": "fail", "not_started": ""}


def _step_row(step: SagaStep) -> tuple[str, ...]:
    return (step.name, step.status, step.reference, step.detail)


def _saga_headline(saga: SagaReport) -> str:
    counts = {s: sum(1 for x in saga.steps if x.status == s) for s in ("committed", "compensated", "outstanding")}
    tally = ", ".join(f"{n} {s}" for s, n in counts.items())
    return f"SagaReport {saga.status} · {tally}" + (f" · {saga.error}" if saga.error else "")


def _saga_text(saga: SagaReport) -> str:
    lines = [_saga_headline(saga), *text_table(_STEP_HEADERS, [_step_row(s) for s in saga.steps])]
    lines += _notices_text(saga.notices)
    if saga.data is not None:
        lines += ["data:", json_text(saga.data)]
    return "\n".join(lines)


def _saga_html(saga: SagaReport) -> str:
    rows = [_step_row(s) for s in saga.steps]
    table = html_table(_STEP_HEADERS, rows, row_kinds=[_STEP_KINDS[s.status] for s in saga.steps])
    head = f"<div class='tk-headline'>{badge(saga.status)} {esc(_saga_headline(saga))}</div>"
    data = section("Data", code_block(json_text(saga.data), highlighted=True)) if saga.data is not None else ""
    return wrap("saga", head + table + _notices_html(saga.notices) + data)


SAGA_RENDERER = Renderer(_saga_text, _saga_html)
SAGA_STEP_RENDERER: Renderer[SagaStep] = Renderer(
    lambda s: "\n".join(text_table(_STEP_HEADERS, [_step_row(s)], indent="")),
    lambda s: wrap("saga-step", html_table(_STEP_HEADERS, [_step_row(s)])),
)


# -- entry points for the envelope inspector ----------------------------------------------------------------
def envelope_text(envelope: Any) -> str:
    """Text of any envelope (result, batch, saga); other objects fall back to their repr."""
    return str(mimebundle(envelope, include=("text/plain",))["text/plain"])


def envelope_html(envelope: Any) -> str:
    """HTML of any envelope (result, batch, saga); other objects fall back to their escaped repr."""
    return str(mimebundle(envelope, include=("text/html",))["text/html"])
