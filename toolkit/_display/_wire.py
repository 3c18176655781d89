"""Renderers for what goes on the wire: one tool's payload in a dialect, a request's tool list, a live run.

Pure functions over the data types, which are imported for type checking only (see :mod:`toolkit._display`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolkit._display import Renderer
from toolkit._display._core import losses_html, losses_text
from toolkit._display._markup import code_block, esc, html_table, json_text, section, text_table, wrap

if TYPE_CHECKING:
    from toolkit._lowering._dialect import Payload
    from toolkit._wire import PayloadSet
    from toolkit._wire._live import LiveRun

__all__ = ["LIVE_RUN_RENDERER", "PAYLOAD_RENDERER", "PAYLOAD_SET_RENDERER", "payload_html", "payload_text"]


# -- one payload -----------------------------------------------------------------------------------------
def _headline(payload: Payload) -> str:
    renamed = f" (sent as {payload.name})" if payload.name != payload.tool else ""
    if payload.refusal is not None:
        return f"{payload.dialect}: {payload.tool}{renamed} refused [{payload.refusal.slug}]"
    strict = "" if payload.strict is None else f" · strict {str(payload.strict).lower()}"
    return f"{payload.dialect}: {payload.tool}{renamed} · {payload.size} bytes{strict}"


def payload_text(payload: Payload) -> str:
    lines = [_headline(payload)]
    if payload.refusal is not None:
        return "\n".join([*lines, payload.refusal.message])
    return "\n".join([*lines, json_text(payload.body), *losses_text(payload.losses)])


def payload_html(payload: Payload) -> str:
    parts = [f"<div class='tk-headline'><b>{esc(_headline(payload))}</b></div>"]
    if payload.refusal is not None:
        parts.append(f"<p class='tk-fail'>{esc(payload.refusal.message)}</p>")
    else:
        parts.append(section("Payload", code_block(json_text(payload.body), highlighted=True)))
        parts.append(section("Losses in this dialect", losses_html(payload.losses)))
    return wrap("payload", "".join(parts))


PAYLOAD_RENDERER = Renderer(payload_text, payload_html)


# -- a request's tool list -------------------------------------------------------------------------------
_SET_HEADERS = ("tool", "sent as", "bytes", "losses", "refused")


def _set_rows(payloads: PayloadSet) -> list[tuple[str, ...]]:
    return [
        (p.tool, p.name, str(p.size), str(len(p.losses)), p.refusal.slug if p.refusal else "")
        for p in payloads.payloads
    ]


def _set_headline(payloads: PayloadSet) -> str:
    return (
        f"{payloads.dialect}: {len(payloads.accepted)} tools sent ({payloads.size} bytes), "
        f"{len(payloads.refused)} refused"
    )


def payload_set_text(payloads: PayloadSet) -> str:
    return "\n".join([_set_headline(payloads), *text_table(_SET_HEADERS, _set_rows(payloads))])


def payload_set_html(payloads: PayloadSet) -> str:
    rows = _set_rows(payloads)
    kinds = ["fail" if row[-1] else "pass" for row in rows]
    table = html_table(_SET_HEADERS, rows, row_kinds=kinds)
    return wrap("payloads", f"<div class='tk-headline'><b>{esc(_set_headline(payloads))}</b></div>{table}")


PAYLOAD_SET_RENDERER = Renderer(payload_set_text, payload_set_html)


# -- a live run ------------------------------------------------------------------------------------------
_CALL_HEADERS = ("turn", "tool", "arguments", "status")


def _call_rows(run: LiveRun) -> list[tuple[str, ...]]:
    return [
        (str(call.turn), call.call.name, json_text(call.call.arguments), str(call.result.get("status")))
        for call in run.calls
    ]


def _run_headline(run: LiveRun) -> str:
    return f"{run.provider} ({run.dialect}, {run.model}): {len(run.calls)} tool calls in {run.turns} turns"


def live_run_text(run: LiveRun) -> str:
    lines = [_run_headline(run), *text_table(_CALL_HEADERS, _call_rows(run))]
    for call in run.calls:
        lines += [f"envelope for {call.call.name} (turn {call.turn}):", json_text(call.result)]
    if run.text:
        lines += ["model:", run.text]
    return "\n".join(lines)


def live_run_html(run: LiveRun) -> str:
    parts = [f"<div class='tk-headline'><b>{esc(_run_headline(run))}</b></div>"]
    parts.append(html_table(_CALL_HEADERS, _call_rows(run)))
    for call in run.calls:
        title = f"Envelope for {call.call.name} (turn {call.turn})"
        parts.append(section(title, code_block(json_text(call.result), highlighted=True)))
    if run.text:
        parts.append(section("Model", f"<pre>{esc(run.text)}</pre>"))
    return wrap("live", "".join(parts))


LIVE_RUN_RENDERER = Renderer(live_run_text, live_run_html)
